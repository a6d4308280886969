/* swe.h: the explicit shallow-water solver (Stelling & Duinmeijer, staggered C-grid; kernels_cl/swe.cl) on the
 * grid layer: state on the device, one step at a time, with wetting and drying through the kfu/kfv face flags.
 * Boundaries here are closed walls or periodic sides; physics only, no I/O. Collective calls: swe_create,
 * swe_set_state, swe_step, swe_volume, swe_max_wave_speed. */
#ifndef HYDROCL_SWE_H
#define HYDROCL_SWE_H

#include "decomp.h"
#include "field.h"
#include "precision.h"
#include "runtime.h"
#include "status.h"

typedef enum { SWE_ADVECTION_ENERGY, SWE_ADVECTION_MOMENTUM } SweAdvection;
typedef enum { SWE_ORDERING_SIELECKI, SWE_ORDERING_HANSEN } SweOrdering;
typedef enum { SWE_FRICTION_NONE, SWE_FRICTION_CHEZY, SWE_FRICTION_MANNING } SweFriction;

typedef struct {
  double dx, dy;        /* grid spacing, m */
  double g;             /* gravitational acceleration, m/s^2 */
  double dry_depth;     /* a face is dry below this upwinded total depth, m */
  SweAdvection advection;
  SweOrdering ordering; /* Sielecki: u, then v with the new u, then zeta; Hansen: u and v together, then zeta */
  SweFriction friction;
  double friction_coefficient; /* Chezy C (m^0.5/s) or Manning n (s/m^(1/3)) */
  Precision precision;
} SweConfig;

typedef struct Swe Swe;

/* Borrows rt and decomp (whose periodic flags give the periodic sides; other sides are closed walls). */
HclStatus swe_create(Runtime *rt, const Decomp *decomp, const SweConfig *config, Swe **out);
void swe_destroy(Swe **swe);

/* Sets the state from this rank's owned values (host arrays of ny rows of nx, x fastest): depth of the bed below
 * the reference plane (positive down), water level zeta, and face velocities u (east faces), v (north faces).
 * Cells with zeta below the bed are set dry at the bed (h = 0). NULL u or v means at rest. */
HclStatus swe_set_state(Swe *swe, const double *depth, const double *zeta, const double *u, const double *v);

/* Advances one step of dt seconds. */
HclStatus swe_step(Swe *swe, double dt);

/* The current fields (borrowed; valid until the next step): zeta, u, v, depth. */
Field *swe_zeta(Swe *swe);
Field *swe_u(Swe *swe);
Field *swe_v(Swe *swe);
Field *swe_depth(Swe *swe);

/* Total water volume, sum of max(h, 0) dx dy over the grid, m^3 (collective). */
HclStatus swe_volume(Swe *swe, double *volume);
/* The largest |velocity| + sqrt(g h) over wet cells, m/s (collective): dt <= cfl min(dx, dy) / this. */
HclStatus swe_max_wave_speed(Swe *swe, double *speed);

#endif
