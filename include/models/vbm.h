/* SPDX-License-Identifier: BSD-3-Clause */
/* vbm.h: the linearized variational Boussinesq model (VBM, Klopman; ../shared/papers/rrb-pcg-gpu.txt, section 2,
 * eqs. 1a-1c; kernels_cl/vbm.cl states the equations, the model parameters and the discretization): surface
 * elevation zeta and surface potential phi on a Cartesian grid of cell centres, advanced by leapfrog, and every
 * frame the vertical-velocity amplitude psi from the symmetric positive definite 5-point system of eq. 1c, solved by
 * CG with the RRB preconditioner (stencil5.h, krylov.h, rrb_precond.h) from the last frame's psi. Still-water depth
 * h (land where h <= 0: no flux), a steady current U(x, y), ships as moving pressure pulses, sponges that absorb at
 * chosen sides; the other sides, and every side without a sponge, are closed walls. Physics only, no I/O.
 *
 * Time: leapfrog, q^{n+1} = q^{n-1} + 2 dt L(q^n), non-dissipative and second order, stable while
 * (omega_max + Doppler) dt <= 1 (hcl_vbm_stable_step); its first step from the initial state is Heun's (two solves),
 * second order too. The step is fixed for a run (the three-level scheme's levels are dt apart).
 *
 * Range: the dispersion relation is the [2/2] Pade approximant of Airy's (kernels_cl/vbm.cl); its phase speed is
 * within 1% of Airy's up to k h = 2.3, 5% up to 3.8 and 10% up to 4.9 (hcl_vbm_phase_speed, checked in test_vbm, which
 * also measures the discrete model's). Collective calls: everything that takes a Vbm but the accessors. */
#ifndef HYDROCL_VBM_H
#define HYDROCL_VBM_H

#include <stdint.h>

#include "decomp.h"
#include "field.h"
#include "krylov.h"
#include "precision.h"
#include "runtime.h"
#include "status.h"

enum { VBM_WEST, VBM_EAST, VBM_SOUTH, VBM_NORTH, VBM_SIDES };

typedef struct {
  double dx, dy;          /* grid spacing, m */
  double x0, y0;          /* the grid's south-west corner, m: where the ships are placed */
  double g;               /* gravitational acceleration, m/s^2 */
  double kappa;           /* the vertical shape: 0 parabolic, else cosh(kappa (z + h)) (1/m; vbm.cl) */
  int sponge[VBM_SIDES];  /* width of each side's sponge in cells (0: a wall) */
  double sponge_strength; /* the sponges' damping rate at the side, 1/s */
  Precision precision;    /* of every field and of the solve */
  KrylovOptions krylov;   /* the psi system's CG (the preconditioner: hcl_vbm_set_preconditioner) */
} VbmConfig;

/* A ship as a pressure pulse: centre, heading (radians from +x, counter-clockwise), length and beam (m) and the
 * peak pressure over the density (m^2/s^2: g times the draft for a hull that floats at rest). */
typedef struct {
  double x, y, heading, length, beam, peak;
} VbmShip;

/* Where the ships are at time t: fills ships[0 .. count) (count as given to hcl_vbm_set_ships). */
typedef void (*VbmShipsAt)(void *ctx, double t, VbmShip *ships);

typedef struct Vbm Vbm;

/* CG to ||r||_2 <= 1e-5 ||b||_2, at most 500 iterations, prefix "solver.": a criterion on the residual itself, which
 * the extrapolated start of each frame's solve makes cheaper (the paper's, ||r||_M <= 1e-5 of its first value, asks
 * more the better the start: solver.norm m). */
KrylovOptions hcl_vbm_krylov_defaults(void);

/* Borrows rt and decomp (no periodic sides: HCL_EDATA). Starts with the RRB preconditioner of the default depth. */
HclStatus hcl_vbm_create(Runtime *rt, const Decomp *decomp, const VbmConfig *config, Vbm **out);
void hcl_vbm_destroy(Vbm **vbm);
/* Replaces the psi system's preconditioner (owned from here on; stencil5_precond.h), set up with the system by
 * hcl_vbm_set_state, or at once after it. */
HclStatus hcl_vbm_set_preconditioner(Vbm *vbm, Precond *pc);
/* The device memory hcl_vbm_create and its steps take on an nx x ny block (with maxima: hcl_vbm_enable_maxima's too), and
 * the largest field. */
double hcl_vbm_device_bytes(int nx, int ny, Precision precision, bool maxima, double *largest_field);

/* The state at the start, this rank's owned cells (ny rows of nx, x fastest): still-water depth (<= 0: land),
 * zeta and phi (taken as 0 on land), and the current's components at the cell centres (NULL: none). Assembles and factorizes the psi
 * system; the next step is the start-up step. */
HclStatus hcl_vbm_set_state(Vbm *vbm, const double *depth, const double *zeta, const double *phi,
                            const double *u_current, const double *v_current);
/* The ships (count of them, up to VBM_SHIPS_MAX), placed by at(ctx, t, ...) at every stage's time. */
enum { VBM_SHIPS_MAX = 64 };
HclStatus hcl_vbm_set_ships(Vbm *vbm, int count, VbmShipsAt at, void *ctx);

/* Waves entering at a side with a sponge, which relaxes the state towards them there (and absorbs what leaves):
 * linear waves of the model, each amplitude cos(k (x cos d + y sin d) - omega t + phase), omega and k obeying the
 * model's dispersion relation (hcl_vbm_omega) at the depth they enter over; their amplitudes rise over ramp seconds. */
typedef struct {
  double amplitude, omega, k, direction, phase; /* m, rad/s, 1/m, rad from +x, rad */
} VbmWave;
enum { VBM_WAVES_MAX = 256 };
HclStatus hcl_vbm_set_incident(Vbm *vbm, int side, const VbmWave *waves, int count, double ramp);

/* One step of dt from time t: the start-up step the first time after hcl_vbm_set_state, leapfrog afterwards, with the
 * same dt (another is HCL_EINTERNAL: leapfrog's levels are dt apart). */
HclStatus hcl_vbm_step(Vbm *vbm, double t, double dt);

/* The parts of a step: the psi system's right-hand side, its solve (and psi's ghosts), the update of zeta and phi
 * (and their ghosts, the ships' placing). */
typedef enum { VBM_PART_RHS, VBM_PART_SOLVE, VBM_PART_UPDATE, VBM_PARTS } VbmPart;
typedef struct {
  int solves;     /* of the psi system in the last step (2 for the start-up step, else 1) */
  int iterations; /* CG iterations over them */
  KrylovResult last;
  double seconds[VBM_PARTS]; /* with hcl_vbm_set_timed: wall time of each part of the last step */
} VbmSolveStats;
VbmSolveStats hcl_vbm_solve_stats(const Vbm *vbm);
/* The last psi solve's ||b - A x|| / ||b||, recomputed; NAN before the first. Collective. */
HclStatus hcl_vbm_last_residual(Vbm *vbm, double *relative);
/* Each part of a step waited for and timed (for benchmarks: the waits cost time of their own). */
void hcl_vbm_set_timed(Vbm *vbm, bool timed);

/* The present level (its ghosts current) and the depth. */
Field *hcl_vbm_zeta(Vbm *vbm);
Field *hcl_vbm_phi(Vbm *vbm);
Field *hcl_vbm_psi(Vbm *vbm);
Field *hcl_vbm_depth(Vbm *vbm);

/* The state a restart holds: zeta and phi of the leapfrog's two levels and psi of each, by the parity of their
 * steps (zeta_even, phi_even, zeta_odd, phi_odd, psi_even, psi_odd: the present level is the one of the present
 * step's parity; the next solve starts from the two psi, so a continued run repeats an uninterrupted one bit for
 * bit); and hcl_vbm_sync_state after they were written from one at `step`: their ghosts, the next step a leapfrog step
 * of dt. */
enum { VBM_STATE_FIELDS = 6 };
void hcl_vbm_state_fields(Vbm *vbm, Field *fields[VBM_STATE_FIELDS]);
HclStatus hcl_vbm_sync_state(Vbm *vbm, double dt, int64_t step);

/* A copy of the state kept on the device and put back: the last good state of a run that diverges. */
HclStatus hcl_vbm_checkpoint(Vbm *vbm);
HclStatus hcl_vbm_rollback(Vbm *vbm);

/* The highest and lowest elevation of every cell since hcl_vbm_enable_maxima (which starts them at the present level):
 * hcl_vbm_accumulate_maxima after each step; part of the checkpoint and, for restarts, of the fields to keep. */
enum { VBM_MAXIMA_FIELDS = 2 };
HclStatus hcl_vbm_enable_maxima(Vbm *vbm);
HclStatus hcl_vbm_accumulate_maxima(Vbm *vbm);
void hcl_vbm_maxima_fields(Vbm *vbm, Field *fields[VBM_MAXIMA_FIELDS]);

/* The root mean square of zeta over the grid (NaN when any is: the divergence guard's measure). */
HclStatus hcl_vbm_surface_rms(Vbm *vbm, double *rms);

/* Integral of zeta over the grid (m^3) at the present level, and the energy over the density (m^5/s^2: the
 * Hamiltonian of eqs. 1a-1c without currents and pressure, vbm.cl's hcl_vbm_energy) at the level before it, the last
 * one psi was solved for (at the initial level before the first step), over all ranks. */
HclStatus hcl_vbm_volume(Vbm *vbm, double *volume);
HclStatus hcl_vbm_energy(Vbm *vbm, double *energy);

/* The VBM's angular frequency for wave number k on depth h with the shape of kappa, and its phase speed
 * (kernels_cl/vbm.cl). */
double hcl_vbm_omega(double g, double h, double kappa, double k);
double hcl_vbm_phase_speed(double g, double h, double kappa, double k);
/* The wave number of angular frequency omega on depth h: hcl_vbm_omega's inverse. */
double hcl_vbm_wavenumber(double g, double h, double kappa, double omega);
/* The longest stable leapfrog step on a grid of dx x dy over depths up to h_max with currents up to (u_max, v_max):
 * 1 / (omega(k_max) + u_max / dx + v_max / dy), omega of the grid's shortest wave (the discrete Laplacian's largest
 * eigenvalue 4 / dx^2 + 4 / dy^2 as k^2). */
double hcl_vbm_stable_step(double g, double h_max, double kappa, double dx, double dy, double u_max, double v_max);

#endif
