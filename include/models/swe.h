/* SPDX-License-Identifier: BSD-3-Clause */
/* swe.h: the shallow-water solver (Stelling & Duinmeijer, staggered C-grid; kernels_cl/swe.cl) on the grid layer:
 * state on the device, one step at a time, with wetting and drying through the faces' wet flags (S&D's kfu/kfv,
 * carried in the face velocities). Two schemes on the same grid and state: explicit (bound by the gravity-wave CFL
 * limit), and semi-implicit, the level gradient and the continuity fluxes taken at theta, a symmetric positive
 * definite 5-point system for the new levels solved each step by CG with the RRB preconditioner (stencil5.h,
 * krylov.h, rrb_precond.h; thesis section 6.4). Sides are closed walls, periodic (explicit only), or water-level
 * boundaries; physics only, no I/O. Collective calls: hcl_swe_create, hcl_swe_set_state, hcl_swe_step, hcl_swe_add_water, hcl_swe_volume,
 * hcl_swe_max_wave_speed, hcl_swe_centre_fields. */
#ifndef HYDROCL_SWE_H
#define HYDROCL_SWE_H

#include "decomp.h"
#include "field.h"
#include "krylov.h"
#include "precision.h"
#include "runtime.h"
#include "status.h"

typedef enum { SWE_ADVECTION_ENERGY, SWE_ADVECTION_MOMENTUM } SweAdvection;
typedef enum { SWE_ORDERING_SIELECKI, SWE_ORDERING_HANSEN } SweOrdering;
typedef enum { SWE_FRICTION_NONE, SWE_FRICTION_CHEZY, SWE_FRICTION_MANNING } SweFriction;
typedef enum { SWE_SCHEME_EXPLICIT, SWE_SCHEME_IMPLICIT } SweScheme;

/* A non-periodic side: a closed wall, or a water-level boundary whose outermost column (row) of cells takes the
 * level given by hcl_swe_set_levels, either exactly or weakly reflecting (outgoing waves leave through it; the given
 * level is then the incoming signal around the side's reference level). Order: west, east, south, north. */
typedef enum { SWE_SIDE_WALL, SWE_SIDE_LEVEL, SWE_SIDE_WEAK_LEVEL } SweSide;
enum { SWE_WEST, SWE_EAST, SWE_SOUTH, SWE_NORTH, SWE_SIDES };

typedef struct {
  double dx, dy;    /* grid spacing, m */
  double g;         /* gravitational acceleration, m/s^2 */
  double dry_depth; /* a face is dry below this upwinded total depth, m */
  SweAdvection advection;
  SweOrdering ordering; /* explicit: Sielecki: u, then v with the new u, then zeta; Hansen: u and v together, then
                           zeta (the implicit scheme predicts u and v together) */
  SweFriction friction;
  double friction_coefficient;       /* Chezy C (m^0.5/s) or Manning n (s/m^(1/3)) */
  bool friction_map;                 /* the coefficient varies by cell instead: hcl_swe_set_friction gives it */
  SweSide sides[SWE_SIDES];          /* ignored on periodic sides (the decomposition's flags) */
  double reference_level[SWE_SIDES]; /* still-water level of a weakly reflecting side, m */
  Precision precision;
  SweScheme scheme;
  double theta; /* implicit: the weight of n + 1 in the level gradient and the fluxes, 0.5 .. 1 */
  KrylovOptions
      krylov; /* implicit: the level system's CG (method CG; the preconditioner: hcl_swe_set_preconditioner) */
} SweConfig;

typedef struct Swe Swe;

/* Borrows rt and decomp (whose periodic flags give the periodic sides; other sides are closed walls). The implicit
 * scheme refuses periodic sides and a theta outside 0.5 .. 1 (HCL_EDATA), and starts with the RRB preconditioner of
 * the default depth. */
HclStatus hcl_swe_create(Runtime *rt, const Decomp *decomp, const SweConfig *config, Swe **out);
/* The implicit scheme's level solver by default (the case keys' defaults): CG stopping when the preconditioned
 * residual norm of the step's level change has fallen by 1e-5 (the RRB paper's criterion, section 3.3; the first
 * residual is the change's, so the test is relative to what the step does), at most 200 iterations. */
KrylovOptions hcl_swe_krylov_defaults(void);
/* The implicit scheme's preconditioner for the level system (owned from here on): rrb (the default), jacobi or
 * none (precond.h, rrb_precond.h). */
HclStatus hcl_swe_set_preconditioner(Swe *swe, Precond *pc);
/* The device memory hcl_swe_create and hcl_swe_checkpoint take on a block of nx x ny cells of scheme, in bytes, and
 * *largest_field the largest of their buffers: for refusing a grid before anything is allocated. The implicit
 * scheme's adds the face predictors, the matrix, the RRB factorization of the default depth and CG's vectors
 * (counted from the buffers rrb.c, rrb_precond.c and krylov.c make; test_swe_implicit checks the sum). */
double hcl_swe_device_bytes(int nx, int ny, Precision precision, SweScheme scheme, double *largest_field);
void hcl_swe_destroy(Swe **swe);

/* Sets the state from this rank's owned values (host arrays of ny rows of nx, x fastest): depth of the bed below
 * the reference plane (positive down), water level zeta, and face velocities u (east faces), v (north faces).
 * Cells with zeta below the bed are set dry at the bed (h = 0). NULL u or v means at rest. */
HclStatus hcl_swe_set_state(Swe *swe, const double *depth, const double *zeta, const double *u, const double *v);

/* The friction coefficient of each owned cell (host array of ny rows of nx; the friction law's, config's
 * friction_coefficient unused) where config.friction_map is set: a face takes the mean of its two cells'. Collective. */
HclStatus hcl_swe_set_friction(Swe *swe, const double *coefficients);
/* The levels (m) the water-level sides take at the end of the next step, west, east, south, north; unused
 * entries are ignored. */
void hcl_swe_set_levels(Swe *swe, const double level[SWE_SIDES]);

/* Advances one step of dt seconds. The implicit scheme returns HCL_ENOTCONVERGED with CG's history when the level
 * system is not solved, and HCL_EDIVERGED when a depth stays negative after every face around it was dried. On
 * several ranks the explicit step may leave the new state's ghost exchange in flight, for the next step to hide it
 * behind its interior: every function here that reads ghosts or exchanges ends it first, and hcl_swe_settle ends it for
 * code that reads the ghosts through hcl_swe_zeta, hcl_swe_u or hcl_swe_v (owned values are final when hcl_swe_step returns). */
HclStatus hcl_swe_step(Swe *swe, double dt);
/* Water added to the state before the next step (the continuity equation's sources, taken apart from the step): a
 * depth dz (m) on every cell (rain over the step), and points[k].dz on global cell (gi, gj) (a discharge Q over the
 * step, Q dt / (dx dy); a sink is negative). A dry cell fills from its bed; a sink takes at most the water there. Adds
 * dz dx dy a cell to the volume, to the rounding of the level, and exchanges the level's ghosts. Collective. */
typedef struct {
  int gi, gj;
  double dz;
} SweWater;
HclStatus hcl_swe_add_water(Swe *swe, double dz, const SweWater *points, int count);
HclStatus hcl_swe_settle(Swe *swe);

/* How the explicit step runs: in one kernel (GPUs; the work-group a tile of tile_x x tile_y cells) or in three (CPUs;
 * HYDROCL_SWE_STEP=fused or split chooses), and the REALs per cell-update its kernels read and write, each input
 * once per kernel: 7 in one (zeta, u, v read and written, the bed read: what a step must move at least), 15 in
 * three. */
typedef struct {
  bool fused;
  int tile_x, tile_y;
  int reals_per_cell;
} SweStepShape;
SweStepShape hcl_swe_step_shape(const Swe *swe);

/* What the last implicit step's level solves took: solves (1, or more where drying made it solve again), CG
 * iterations over them, and the last solve's result (history borrowed until the next step). */
typedef struct {
  int solves, iterations;
  KrylovResult last;
} SweSolveStats;
SweSolveStats hcl_swe_solve_stats(const Swe *swe);
/* The implicit scheme's last level solve's ||b - A x|| / ||b||, recomputed; NAN for the explicit scheme or before the
 * first step. Collective. */
HclStatus hcl_swe_last_residual(Swe *swe, double *relative);

/* All the state a restart needs to continue bit for bit, in a fixed order: zeta, u, v (borrowed; valid until the
 * next step; named so). A face's wet flag travels in its velocity: -0 on a dry face or a wall, any other value on a
 * wet one. After writing their owned values (a restart), hcl_swe_sync_state fills the ghost
 * layers. */
enum { SWE_STATE_FIELDS = 3 };
void hcl_swe_state_fields(Swe *swe, Field *fields[SWE_STATE_FIELDS]);
HclStatus hcl_swe_sync_state(Swe *swe);

/* The current fields (borrowed; valid until the next step): zeta, u, v, depth. */
Field *hcl_swe_zeta(Swe *swe);
Field *hcl_swe_u(Swe *swe);
Field *hcl_swe_v(Swe *swe);
Field *hcl_swe_depth(Swe *swe);

/* Maxima over the run for flood maps (output.maxima), accumulated on the device: hcl_swe_enable_maxima makes the
 * accumulators (every cell never wet), hcl_swe_accumulate_maxima folds the present state at time t in (after every
 * step, and once for the initial state), over the wet cells: zeta_max, h_max, speed_max (cell-centred |velocity|),
 * t_wet (the time a cell was first wet, -1 while it never was). hcl_swe_maxima_fields gives the accumulators, in that
 * order and named so, for restarts (a continued run's maxima are an uninterrupted run's); hcl_swe_maxima_output writes
 * them cell-centred into out (ghost 0, the solver's precision) with NaN where a cell was never wet. */
enum { SWE_MAXIMA_FIELDS = 4 };
HclStatus hcl_swe_enable_maxima(Swe *swe);
HclStatus hcl_swe_accumulate_maxima(Swe *swe, double t);
void hcl_swe_maxima_fields(Swe *swe, Field *fields[SWE_MAXIMA_FIELDS]);
HclStatus hcl_swe_maxima_output(Swe *swe, Field *out[SWE_MAXIMA_FIELDS]);

/* Keeps a device copy of the present state (hcl_swe_checkpoint; the first call allocates it) and returns to it
 * (hcl_swe_rollback), so a run that diverges can still write its last good state; the maxima go with the state. */
HclStatus hcl_swe_checkpoint(Swe *swe);
HclStatus hcl_swe_rollback(Swe *swe);

/* Total water volume, sum of max(h, 0) dx dy over the grid, m^3 (collective). */
HclStatus hcl_swe_volume(Swe *swe, double *volume);
/* The largest |velocity| + sqrt(g h) over wet cells, m/s (collective); NaN when the state holds a NaN. The CFL
 * limit is dt <= cfl / (speed sqrt(1/dx^2 + 1/dy^2)). */
HclStatus hcl_swe_max_wave_speed(Swe *swe, double *speed);
/* The largest |velocity| over wet cells, m/s (collective; NaN as above): the implicit scheme's advective limit is
 * dt <= 1 / (speed sqrt(1/dx^2 + 1/dy^2)). */
HclStatus hcl_swe_max_flow_speed(Swe *swe, double *speed);

/* Cell-centred output into out[0..4] (2D fields of the decomposition, ghost 0, the solver's precision): water level
 * zeta, total depth h, velocities u and v averaged from the faces, wet flag (1 where h > dry_depth, else 0); with
 * mask_dry the level and the velocities of a dry cell are NaN (missing values in the output files). Collective. */
enum { SWE_CENTRE_FIELDS = 5 };
HclStatus hcl_swe_centre_fields(Swe *swe, Field *out[SWE_CENTRE_FIELDS], bool mask_dry);

#endif
