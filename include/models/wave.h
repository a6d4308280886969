/* SPDX-License-Identifier: BSD-3-Clause */
/* wave.h: the fully nonlinear potential-flow wave model on the device (OceanWave3D: ../shared/papers/
 * fnpf-gpu-model.txt sections 2 and 3, fnpf-multigpu-scalability.txt): the free surface elevation eta and the
 * surface potential phi on the horizontal grid, advanced in time by the Zakharov-form surface conditions
 *   eta_t = -grad(eta) . grad(phi) + w (1 + |grad(eta)|^2)                                            (1a)
 *   phi_t = -g eta - (|grad(phi)|^2 - w^2 (1 + |grad(eta)|^2)) / 2                                    (1b)
 * with w, the vertical velocity at the surface, from the sigma-transformed Laplace problem (laplace.h) and the
 * horizontal gradients from the same centred finite differences of the chosen order. The linear option keeps
 * eta_t = w, phi_t = -g eta with w from the Laplace problem on the still-water domain (eta = 0 in the operator).
 *
 * Time stepping: the classical four-stage, fourth-order Runge-Kutta scheme (ERK4), one Laplace solve per stage.
 * Each solve starts from a guess extrapolated in time (Lagrange) through the solutions at the last distinct stage
 * times (config.extrapolation of them), which keeps the defect-correction iterations per solve low.
 *
 * Generation and absorption: relaxation zones (boxes ramping along x or y, or rings ramping towards their centre)
 * blend the state after every step,
 *   eta = G eta + (1 - G) eta_target,   phi = G phi + (1 - G) phi_target,
 * with the weight G(xi) from 0 at the zone's outer edge (xi = 1: the target) to 1 at its inner edge (xi = 0: the
 * model), exponential G = 1 - (exp(xi^p) - 1) / (e - 1) (p = 3.5 by default) or the cubic G = 1 - 3 xi^2 + 2 xi^3.
 * A generation zone's target is the incident wave times the start-up ramp r(t) = (1 - cos(pi t / T_ramp)) / 2 for
 * t < T_ramp; an absorption zone's is rest: eta = 0 and phi the uniform potential r(t) A t of the incident wave
 * (waves.h: A, zero but for stream-function waves), so that absorbing adds no spurious gradient of phi.
 *
 * Grid: the decomposition's nx x ny points, point (i, j) at (x0 + i dx, y0 + j dy), or on a curvilinear grid
 * (laplace.map, mapping.h) at the map's (x, y): the gradients of eqs. 1a and 1b then come through its metric terms,
 * the zones and the incident wave are evaluated at the points' physical positions, and areas are the Jacobian's;
 * closed sides are walls (mirror symmetry, no normal flux), periodic sides periodic; a direction of one point is a
 * 2D flume (Cartesian only). State fields are of the Laplace solver's outer precision (double, or float when
 * laplace.precision is single). */
#ifndef HYDROCL_WAVE_H
#define HYDROCL_WAVE_H

#include <stdbool.h>

#include "decomp.h"
#include "field.h"
#include "laplace.h"
#include "runtime.h"
#include "status.h"
#include "waves.h"

enum { WAVE_ZONES_MAX = 16, WAVE_EXTRAPOLATION_MAX = 3, WAVE_INCIDENT_MODES_MAX = 128 };

typedef enum { WAVE_NONLINEAR, WAVE_LINEAR } WaveEquations;
typedef enum { WAVE_ZONE_GENERATE, WAVE_ZONE_ABSORB } WaveZoneKind;
typedef enum { WAVE_SHAPE_EXPONENTIAL, WAVE_SHAPE_POLYNOMIAL } WaveZoneShape;
/* The direction in which a zone hands over to the model: the weight rises from 0 at the far edge to 1 at the edge
 * this way (a generation zone on the west side of a tank hands over towards +x). */
typedef enum { WAVE_INWARD_PLUS_X, WAVE_INWARD_MINUS_X, WAVE_INWARD_PLUS_Y, WAVE_INWARD_MINUS_Y } WaveZoneInward;
/* A zone's region of the physical plane: a box ramping along x or y, or a ring r0 <= |(x, y) - (cx, cy)| <= r1
 * handing over inwards, towards its centre (the outer band of an O-grid: with the incident wave as target it
 * generates the incident wave and absorbs what a body scatters). */
typedef enum { WAVE_REGION_BOX, WAVE_REGION_RING } WaveZoneRegion;

typedef struct {
  WaveZoneKind kind;
  WaveZoneRegion region;
  double x0, x1, y0, y1; /* a box [m] in the grid's coordinates, x0 < x1, y0 < y1; points on its edges belong */
  double cx, cy, r0, r1; /* a ring [m]: 0 <= r0 < r1; points on its edges belong */
  WaveZoneInward inward; /* a box's */
  WaveZoneShape shape;
  double power; /* p of the exponential shape */
} WaveZone;

typedef struct {
  LaplaceConfig laplace; /* dx, dy and the solver; the model's stencils are of laplace.order */
  double g;              /* [m/s^2] */
  double x0, y0;         /* the coordinates of grid point (0, 0) [m] */
  WaveEquations equations;
  int extrapolation;   /* solutions the initial guess is extrapolated through: 0 (the last solve's Phi as it is)
                            to WAVE_EXTRAPOLATION_MAX; each costs one field of nz + 1 planes */
  double ramp_time;    /* T_ramp [s]; 0: the incident wave is there in full from t = 0 */
  int filter_interval; /* steps between applications of hcl_wave_filter after a step; 0: never */
  int nzones;
  WaveZone zones[WAVE_ZONES_MAX];
} WaveConfig;

/* g = 9.81, nonlinear, linear extrapolation (2), no ramp, no zones, the Laplace solver's defaults (rtol 1e-6); dx,
 * dy to be set. Linear extrapolation through the last two stage times beats quadratic (whose weights, 3 -3 1,
 * amplify the stages' own O(dt^2) departures from one smooth history): 4.6 iterations per solve against 5.2 at rtol
 * 1e-4 in test_wave's standing wave, 7.1 against 7.8 at 1e-5. rtol 1e-6 keeps the solver's error below the
 * discretization's over long runs: a stream-function wave in a periodic flume lags its exact self by 3.7e-3 H after
 * 20 periods at 1e-6 (3.5e-3 at 1e-7, the grid's own), 8.5e-3 H at 1e-5 (test_wave_flume). */
WaveConfig hcl_wave_config_default(void);

/* An incident wave as the device evaluates it: a sum of components
 *   eta = r(t) sum_n E_n cos(psi_n),   phi = r(t) (U_x x + U_y y + A t + sum_n P_n sin(psi_n)),
 *   psi_n = kx_n x + ky_n y - omega_n t + epsilon_n.
 * A regular wave (waves.h) of N modes travelling towards `direction` is its N harmonics for eta and the sine
 * series of its surface potential (sampled and transformed on the host; up to WAVE_INCIDENT_MODES_MAX terms), its
 * mean current U = c_E (cos, sin)(direction) and rate A; an irregular sea is its components (linear: P = g a /
 * omega, U = A = 0). x is measured from x_origin: the regular wave's crest passes x_origin at t = 0. */
typedef struct {
  int components;
  double *kx, *ky, *omega, *phase, *eta_amplitude, *phi_amplitude; /* [components] */
  double current_x, current_y, potential_rate;                     /* U_x, U_y [m/s], A [m^2/s^2] */
} WaveIncident;

HclStatus hcl_wave_incident_regular(const RegularWave *wave, double direction, double x_origin, WaveIncident *out);
HclStatus hcl_wave_incident_irregular(const IrregularWave *wave, WaveIncident *out);
void hcl_wave_incident_free(WaveIncident *incident); /* NULL-safe */
/* The incident wave at (x, y, t) without the ramp, on the host (what the device evaluates, in double). */
double hcl_wave_incident_eta(const WaveIncident *incident, double x, double y, double t);
double hcl_wave_incident_phi(const WaveIncident *incident, double x, double y, double t);

/* The largest stable step of ERK4 for the linearized surface conditions on this grid: the eigenvalues are
 * +-i omega(k) with omega^2 = g k tanh(k h), at most at the grid's shortest wave, k = pi sqrt(1/dx^2 + 1/dy^2)
 * (directions of one point left out), and ERK4 is stable on the imaginary axis up to |dt lambda| = 2 sqrt(2).
 * (Centred finite differences of order 2 to 8 resolve k below that, so the bound holds for the discrete scheme.) */
double hcl_wave_step_limit(const WaveConfig *config, const DecompSpec *grid, double deepest);

typedef struct Wave Wave;

/* Sets up the model over depth h (this rank's owned points, x fastest, > 0) on decomp: the Laplace solver, the
 * state, the relaxation weights. Bad settings are HCL_EDATA naming the key and the value (a zone outside the
 * domain or empty, an extrapolation out of range, g <= 0), and whatever hcl_laplace_create refuses. State starts at
 * rest at t = 0. Borrows rt and decomp. Collective. */
HclStatus hcl_wave_create(Runtime *rt, const Decomp *decomp, const WaveConfig *config, const double *h, Wave **out);
void hcl_wave_destroy(Wave **wave);

/* The incident wave of the generation zones (copied); NULL: none (generation zones then relax towards rest). */
HclStatus hcl_wave_set_incident(Wave *wave, const WaveIncident *incident);

/* Sets the state at time t from this rank's owned points (x fastest); forgets the extrapolation history. */
HclStatus hcl_wave_set_state(Wave *wave, double t, const double *eta, const double *phi);

/* What the next Laplace solves start from, which a restart keeps so that a continued run takes the steps of an
 * uninterrupted one bit for bit: Phi (the last solve's solution, nz + 1 planes, named "Phi") and the solutions
 * remembered for extrapolating the first guess ("Phi_history_M", time.extrapolation > 1), in fields (borrowed; room
 * for WAVE_SOLVER_FIELDS_MAX), and in scalars (room for WAVE_SOLVER_SCALARS) how many are remembered, the newest's
 * slot and the slots' times. Returns the number of fields. hcl_wave_restore_solver_memory takes the scalars back after
 * the fields were written (and after hcl_wave_set_state, which forgets them). */
enum { WAVE_SOLVER_FIELDS_MAX = 1 + WAVE_EXTRAPOLATION_MAX, WAVE_SOLVER_SCALARS = 2 + WAVE_EXTRAPOLATION_MAX };
int hcl_wave_solver_memory(Wave *wave, Field **fields, double *scalars);
HclStatus hcl_wave_restore_solver_memory(Wave *wave, const double *scalars);

typedef struct {
  int solves;           /* Laplace solves in the step: 4 */
  int iterations;       /* defect-correction iterations (preconditioner applications), summed over the solves */
  double solve_seconds; /* wall time in the Laplace solves (profiled runs: device time), and the rest: */
  double rates_seconds; /* the surface conditions and the stage updates */
  double relax_seconds; /* the relaxation zones */
} WaveStepStats;

/* One ERK4 step of dt, then the relaxation at t + dt. A Laplace solve that fails (not converged, or a water
 * column that vanishes: the run has gone unstable) is returned as it is, with the state of the step's start kept
 * (wave_state_good). Collective. With timing, stats' seconds are measured (the queue is waited for after each
 * part); else they are 0 and the step is enqueued without waiting but for the solver's own reductions. */
HclStatus hcl_wave_step(Wave *wave, double dt, bool timing, WaveStepStats *stats);

double hcl_wave_time(const Wave *wave);
Field *hcl_wave_eta(Wave *wave); /* the state (borrowed; owned points valid) */
Field *hcl_wave_phi(Wave *wave);
Field *hcl_wave_depth(Wave *wave);     /* the still-water depth h, positive down (borrowed; owned points valid) */
Laplace *hcl_wave_laplace(Wave *wave); /* the solver: Phi of the last solve, w, sigma (borrowed) */

/* Smooths eta and phi along each index direction in turn with the Savitzky-Golay filter of the stencils' width
 * (order + 1 points; they reach as far as the state's ghosts, mirrored at walls) and polynomial degree order - 2, as
 * OceanWave3D filters its nonlinear runs: polynomials up to that degree pass unchanged (a smooth wave loses
 * O(dx^(order - 1)) of itself: at order 6 3e-4 of a wave 13 points long per application and direction, which adds up
 * over many steps), the grid's shortest wave, two spacings long, is multiplied by -0.37 (order 4) to -0.39 (order 6)
 * per direction. A direction of one point is left as it is. hcl_wave_step applies it every
 * config.filter_interval steps; only then is it available. Collective. */
HclStatus hcl_wave_filter(Wave *wave);

/* Tracks the highest and lowest eta at every point from now on, starting from the present state and updated after
 * every step (one launch per step); called again, starts afresh. hcl_wave_eta_max and hcl_wave_eta_min are the fields
 * (borrowed; NULL when not tracked; a continued run reads its restart's into them): the maximum run-up along a body,
 * the maximum elevation map. */
HclStatus hcl_wave_track_extremes(Wave *wave);
Field *hcl_wave_eta_max(Wave *wave);
Field *hcl_wave_eta_min(Wave *wave);

/* The stability guard: HCL_EDIVERGED when eta or phi is not finite or |eta| exceeds `factor` times the local
 * still-water depth somewhere, naming the time, the first such point (global indices and coordinates) and its
 * values. One reduction on the device; the host reads the state only to say where. Collective. */
HclStatus hcl_wave_check(Wave *wave, double factor);

/* Volume of the surface elevation, the integral of eta over the grid [m^3] by the trapezoidal rule between walls
 * (half a cell at a wall point; whole cells across periodic sides; 1 m across a direction of one point), which
 * integrates the cosine modes of a basin exactly. Collective. */
HclStatus hcl_wave_volume(Wave *wave, double *volume);
/* Energy per unit density [m^5/s^2]: potential g/2 of the integral of eta^2, and kinetic 1/2 of the integral of
 * Phi's normal derivative times Phi over the surface, of phi eta_t / 2 (Green's theorem: the walls and the bed carry
 * no flux), with eta_t from (1a) at the present state (one Laplace solve); the same quadrature. Collective. */
HclStatus hcl_wave_energy(Wave *wave, double *potential, double *kinetic);

/* The velocity (u, v, w) at the nz sigma nodes of some columns of this rank: columns[c] the owned (i, j) of column
 * c, out [ncolumns][nz][4]: z, u, v, w at each node, bottom to surface, from the last solve's Phi:
 *   u = Phi_x + sigma_x Phi_s,  v = Phi_y + sigma_y Phi_s,  w = Phi_s / d,  z = sigma d - h,
 * after a Laplace solve for the present state (which the next step's first solve starts from). Collective (the
 * solve); ncolumns may be 0 on ranks with no column to report. */
HclStatus hcl_wave_column_velocities(Wave *wave, int ncolumns, const int *columns, double *out);

double hcl_wave_device_bytes(const Wave *wave);

#endif
