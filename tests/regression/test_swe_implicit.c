/* SPDX-License-Identifier: BSD-3-Clause */
/* test_swe_implicit.c: the semi-implicit shallow-water scheme (swe.h, time.scheme implicit; kernels_cl/swe.cl's last
 * section; thesis section 6.4 of ../shared/papers/swe-gpu-explicit-implicit.txt) against what must hold exactly, the
 * explicit scheme and analytic solutions, in double precision unless said, on one rank (host-side error sums):
 * - lake at rest with a dry island at a gravity-wave Courant number of 20, float and double: exactly still;
 * - the thesis' test case 1 at steps 10, 50 and 100 times the explicit one: volume conserved to rounding, no
 *   negative depth, the level close to the explicit run's; at 10 x by pipelined CG the levels of CG;
 * - a linear tide in a channel closed at the east end (a water-level side, a standing wave) at Courant numbers 1, 5
 *   and 20: the amplitude at the closed end against the analytic one; waves leaving through weakly reflecting sides;
 * - Thacker's planar surface in a paraboloid (wetting and drying), Ritter's dam break on a dry bed and Stoker's on
 *   a wet one, at the Courant numbers the advective limit allows (their flows are as fast as their waves);
 * - convergence in time on a smooth standing wave: second order at theta = 0.5, first at theta = 1;
 * - the device memory validate reports (hcl_swe_device_bytes) against the buffers made. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "swe.h"
#include "../support/dam_break.h"
#include "../support/support.h"
#include "../support/tap.h"

static const double GRAVITY = 9.81;
static const double PI = 3.14159265358979323846;

/* ---- a model with its host copies ---- */

/* The initial state at a point: bed depth and level at a cell centre, u at an east face, v at a north face. */
typedef enum { AT_DEPTH, AT_LEVEL, AT_U, AT_V } Quantity;
typedef double (*StateFn)(const void *ctx, Quantity q, double x, double y);

typedef struct {
  Decomp *decomp;
  Swe *swe;
  int nx, ny;
  double dx;
  double *depth, *zeta; /* owned cells, x fastest; zeta as of the last read */
} Model;

static void model_free(Model *m) {
  hcl_swe_destroy(&m->swe);
  hcl_decomp_destroy(&m->decomp);
  free(m->depth);
  free(m->zeta);
  memset(m, 0, sizeof *m);
}

static HclStatus model_create(Runtime *rt, int nx, int ny, double dx, SweConfig config, StateFn state, const void *ctx,
                              Model *m) {
  HclStatus status = HCL_OK;
  double *u = NULL, *v = NULL;
  DecompSpec grid = {.nx = nx, .ny = ny};
  memset(m, 0, sizeof *m);
  m->nx = nx;
  m->ny = ny;
  m->dx = config.dx = config.dy = dx;
  size_t n = (size_t)nx * ny;
  TRY(hcl_decomp_create(&grid, &m->decomp));
  TRY_ALLOC(m->depth, n);
  TRY_ALLOC(m->zeta, n);
  TRY_ALLOC(u, n);
  TRY_ALLOC(v, n);
  for (int j = 0; j < ny; j++) {
    for (int i = 0; i < nx; i++) {
      double x = (i + 0.5) * dx, y = (j + 0.5) * dx;
      size_t p = (size_t)j * nx + i;
      m->depth[p] = state(ctx, AT_DEPTH, x, y);
      m->zeta[p] = state(ctx, AT_LEVEL, x, y);
      u[p] = state(ctx, AT_U, x + dx / 2, y);
      v[p] = state(ctx, AT_V, x, y + dx / 2);
    }
  }
  TRY(hcl_swe_create(rt, m->decomp, &config, &m->swe));
  TRY(hcl_swe_set_state(m->swe, m->depth, m->zeta, u, v));
cleanup:
  free(u);
  free(v);
  return status;
}

/* steps steps of dt, the water-level sides at levels(t) when given. */
static HclStatus hcl_model_run(Model *m, int steps, double dt, void (*levels)(const void *ctx, double t, double *out),
                               const void *ctx) {
  HclStatus status = HCL_OK;
  for (int k = 0; k < steps; k++) {
    if (levels) {
      double level[SWE_SIDES] = {0};
      levels(ctx, (k + 1) * dt, level);
      hcl_swe_set_levels(m->swe, level);
    }
    TRY(hcl_swe_step(m->swe, dt));
  }
cleanup:
  return status;
}

static HclStatus model_read(Model *m) {
  return hcl_field_read_owned(hcl_swe_zeta(m->swe), m->zeta);
}

/* The implicit scheme, frictionless unless changed, momentum-conservative advection, CG + RRB to a relative
 * M-norm of 1e-10 (the level change solved far below any error measured here). */
static SweConfig implicit_config(Precision precision, double theta) {
  SweConfig c = {.g = GRAVITY,
                 .dry_depth = 1e-4,
                 .advection = SWE_ADVECTION_MOMENTUM,
                 .ordering = SWE_ORDERING_HANSEN,
                 .friction = SWE_FRICTION_NONE,
                 .precision = precision,
                 .scheme = SWE_SCHEME_IMPLICIT,
                 .theta = theta,
                 .krylov = hcl_krylov_options_default()};
  c.krylov.norm = KRYLOV_NORM_M;
  c.krylov.rtol = precision == PRECISION_DOUBLE ? 1e-10 : 1e-5;
  c.krylov.max_iterations = 500;
  return c;
}

/* The time step of gravity-wave Courant number courant: c dt sqrt(1/dx^2 + 1/dy^2) = courant. */
static double courant_step(double courant, double speed, double dx) {
  return courant * dx / (speed * sqrt(2.0));
}

/* ---- lake at rest ---- */

/* A 200 m basin 1 m deep with a Gaussian island 3 cm above the water (the thesis' test case 1), and its drop. */
typedef struct {
  double drop;
} Basin;

static double basin(const void *ctx, Quantity q, double x, double y) {
  const Basin *b = ctx;
  double island = (x - 140) * (x - 140) + (y - 100) * (y - 100), drop = (x - 60) * (x - 60) + (y - 100) * (y - 100);
  switch (q) {
  case AT_DEPTH:
    return 1.0 - 1.03 * exp(-island / (2 * 15.0 * 15.0));
  case AT_LEVEL:
    return b->drop * exp(-drop / (2 * 8.0 * 8.0));
  default:
    return 0;
  }
}

static void lake_at_rest(Runtime *rt, Precision precision) {
  Model m;
  Basin still = {0};
  double *before = NULL, *u = NULL;
  int nx = 40;
  SweConfig c = implicit_config(precision, 0.55);
  c.friction = SWE_FRICTION_CHEZY;
  c.friction_coefficient = 60;
  double dt = courant_step(20, sqrt(GRAVITY), 200.0 / nx);
  hcl_status_clear();
  HclStatus s = model_create(rt, nx, nx, 200.0 / nx, c, basin, &still, &m);
  size_t n = (size_t)nx * nx;
  before = calloc(n, sizeof *before);
  u = calloc(n, sizeof *u);
  if (s == HCL_OK) {
    s = hcl_field_read_owned(hcl_swe_zeta(m.swe), before);
  }
  if (s == HCL_OK) {
    s = hcl_model_run(&m, 50, dt, NULL, NULL);
  }
  if (s == HCL_OK) {
    s = model_read(&m);
  }
  double largest_u = 0;
  for (int f = 0; f < 2 && s == HCL_OK; f++) {
    s = hcl_field_read_owned(f == 0 ? hcl_swe_u(m.swe) : hcl_swe_v(m.swe), u);
    for (size_t p = 0; p < n; p++) {
      largest_u = fmax(largest_u, fabs(u[p]));
    }
  }
  SweSolveStats stats = s == HCL_OK ? hcl_swe_solve_stats(m.swe) : (SweSolveStats){0};
  /* At rest the level system's right-hand side is 0 exactly (the change's form: no level times (1 + sum a) minus
   * its neighbours to round), and so is every predictor, also at the island's shore, where the faces are dry. */
  TAP_OK(s == HCL_OK && largest_u == 0 && memcmp(before, m.zeta, n * sizeof *before) == 0 && stats.iterations == 0,
         "lake at rest with a dry island, %s, Courant 20: u, v exactly 0, the level unchanged after 50 steps, %d CG "
         "iterations in the last step %s",
         hcl_precision_name(precision), stats.iterations, hcl_status_message());
  free(before);
  free(u);
  model_free(&m);
}

/* ---- the thesis' test case 1 against the explicit scheme ---- */

/* The smallest depth and the level of the model's state. */
static double smallest_depth(const Model *m) {
  double smallest = INFINITY;
  for (size_t p = 0; p < (size_t)m->nx * m->ny; p++) {
    smallest = fmin(smallest, m->zeta[p] + m->depth[p]);
  }
  return smallest;
}

/* steps steps of dt from the model's state: the volume before and after, the solver's iterations, the smallest
 * depth after any step; the levels read at the end. */
static HclStatus implicit_steps(Model *m, int steps, double dt, double *v0, double *v1, int *iterations,
                                double *smallest) {
  HclStatus status = HCL_OK;
  TRY(hcl_swe_volume(m->swe, v0));
  for (int step = 0; step < steps; step++) {
    TRY(hcl_model_run(m, 1, dt, NULL, NULL));
    *iterations += hcl_swe_solve_stats(m->swe).iterations;
    TRY(model_read(m));
    *smallest = fmin(*smallest, smallest_depth(m));
  }
  TRY(hcl_swe_volume(m->swe, v1));
cleanup:
  return status;
}

/* The run of cg (test case 1 at 10 x, its levels read) again with pipelined CG: the same levels, as both solve each
 * step's level system far below what the steps change (a relative M-norm of 1e-10), and the volume kept. */
static void pipelined_against(Runtime *rt, const Model *cg, SweConfig c, Basin *drop, int steps, double dt,
                              int cg_iterations) {
  Model m;
  double v0 = 0, v1 = 0, largest = 0, smallest = INFINITY;
  int iterations = 0;
  c.krylov.method = KRYLOV_PIPECG;
  hcl_status_clear();
  HclStatus s = model_create(rt, cg->nx, cg->ny, cg->dx, c, basin, drop, &m);
  if (s == HCL_OK) {
    s = implicit_steps(&m, steps, dt, &v0, &v1, &iterations, &smallest);
  }
  for (size_t p = 0; s == HCL_OK && p < (size_t)cg->nx * cg->ny; p++) {
    largest = fmax(largest, fabs(m.zeta[p] - cg->zeta[p]));
  }
  /* Each step's level change is solved to 1e-10 of itself (its M-norm) by both: over 20 steps of changes below the
   * drop's 0.1 m the levels can part by 1e-10 m or so; 1e-8 m bounds it with room. The iterations of the two are
   * CG's in exact arithmetic (tests/mpi/test_solvers.c: within 2 a solve). */
  TAP_OK(s == HCL_OK && largest < 1e-8 && fabs(v1 - v0) / v0 < 1e-12 && iterations <= cg_iterations + 2 * steps,
         "test case 1 at 10 x by pipelined CG: levels within %.2e m (< 1e-8) of CG's, volume drift %.2e, %d "
         "iterations (CG %d) %s",
         largest, fabs(v1 - v0) / v0, iterations, cg_iterations, hcl_status_message());
  model_free(&m);
}

static void drop_and_island(Runtime *rt) {
  Basin drop = {0.1};
  int nx = 100;
  double dx = 200.0 / nx, t_end = 20.0;
  double dt_explicit = 0.05 * dx; /* the thesis' 0.1 s at 2 m cells, Courant about 0.23 */
  SweConfig explicit_c = implicit_config(PRECISION_DOUBLE, 0.55);
  explicit_c.scheme = SWE_SCHEME_EXPLICIT;
  explicit_c.friction = SWE_FRICTION_CHEZY;
  explicit_c.friction_coefficient = 60;
  Model reference;
  hcl_status_clear();
  HclStatus s = model_create(rt, nx, nx, dx, explicit_c, basin, &drop, &reference);
  if (s == HCL_OK) {
    s = hcl_model_run(&reference, (int)lround(t_end / dt_explicit), dt_explicit, NULL, NULL);
  }
  if (s == HCL_OK) {
    s = model_read(&reference);
  }
  TAP_OK(s == HCL_OK, "test case 1, explicit reference to t = %g s %s", t_end, hcl_status_message());
  static const int ratios[] = {10, 50, 100};
  for (int k = 0; k < 3 && s == HCL_OK; k++) {
    Model m;
    SweConfig c = explicit_c;
    c.scheme = SWE_SCHEME_IMPLICIT;
    double dt = ratios[k] * dt_explicit, v0 = 0, v1 = 0, smallest = INFINITY;
    int steps = (int)lround(t_end / dt), iterations = 0;
    s = model_create(rt, nx, nx, dx, c, basin, &drop, &m);
    if (s == HCL_OK) {
      s = implicit_steps(&m, steps, dt, &v0, &v1, &iterations, &smallest);
    }
    double largest = 0, rms = 0, waves = 0, highest = 0;
    for (size_t p = 0; p < (size_t)nx * nx; p++) {
      double d = m.zeta[p] - reference.zeta[p];
      largest = fmax(largest, fabs(d));
      rms += d * d;
      waves += reference.zeta[p] * reference.zeta[p];
      highest = m.zeta[p] + m.depth[p] > 1e-3 ? fmax(highest, fabs(m.zeta[p])) : highest; /* wet cells */
    }
    rms = sqrt(rms / ((double)nx * nx));
    waves = sqrt(waves / ((double)nx * nx));
    tap_note("test case 1 at %d x the explicit step (%d steps, %.2f CG iterations a step): level against the "
             "explicit run at t = %g s: largest difference %.3e m, rms %.3e m (the explicit waves' rms %.3e m)",
             ratios[k], steps, (double)iterations / steps, t_end, largest, rms, waves);
    /* Volume: every face flux leaves one cell and enters the next bit for bit (flux form), whatever CG's
     * tolerance; only the rounding of each cell's update remains. */
    double drift = fabs(v1 - v0) / v0;
    TAP_OK(s == HCL_OK && drift < 1e-12, "test case 1 at %d x: volume drifts by %.2e relative (< 1e-12) %s", ratios[k],
           drift, hcl_status_message());
    /* The step is solved again until no depth is negative: 0 exactly is the least. */
    TAP_OK(s == HCL_OK && smallest >= 0, "test case 1 at %d x: no negative depth (smallest %.3g m)", ratios[k],
           smallest);
    /* Stable: no wet cell's level beyond the drop's 0.1 m. */
    TAP_OK(s == HCL_OK && highest < 0.1, "test case 1 at %d x: stable (largest wet |level| %.3g m)", ratios[k],
           highest);
    /* Close to the explicit run where the step still resolves the ring of waves: at 10 x (1 s against its period of
     * about 5 s) the rms difference is measured at 22% of the waves' rms; bound 30%. At 50 and 100 x (5 and 10 s)
     * the step does not resolve them: the theta scheme damps and delays them, and the difference (measured 95% and
     * 112% of the waves' rms) is reported, not bounded. */
    if (ratios[k] == 10) {
      TAP_OK(s == HCL_OK && rms < 0.3 * waves,
             "test case 1 at 10 x: rms difference %.3e m below 30%% of the waves' %.3e m", rms, waves);
      if (s == HCL_OK) {
        pipelined_against(rt, &m, c, &drop, steps, dt, iterations);
      }
    }
    model_free(&m);
  }
  model_free(&reference);
}

/* ---- a linear tide in a closed channel ---- */

/* 5 km, 10 m deep, closed at the east end, a tide a sin(w t) of period 1 h held at the west end's cells (centre
 * x_b = dx / 2): the standing wave zeta = a A(x) sin(w t), A(x) = cos(k (L - x)) / cos(k (L - x_b)), k = w / c,
 * u = a w sin(k (L - x)) / (H k cos(k (L - x_b))) cos(w t) (continuity with u = 0 at the wall). The run starts
 * on it, so that no free oscillation of the channel is excited beyond the discretisation's own. */
typedef struct {
  double amplitude, omega, length, depth;
} Tide;

static double tide_state(const void *ctx, Quantity q, double x, double y) {
  const Tide *td = ctx;
  double k = td->omega / sqrt(GRAVITY * td->depth), boundary = cos(k * (td->length - 25.0));
  (void)y;
  switch (q) {
  case AT_DEPTH:
    return td->depth;
  case AT_U:
    return td->amplitude * td->omega * sin(k * (td->length - x)) / (td->depth * k * boundary);
  default:
    return 0;
  }
}

static void tide_levels(const void *ctx, double t, double *level) {
  const Tide *td = ctx;
  level[SWE_WEST] = td->amplitude * sin(td->omega * t);
}

static void linear_tide(Runtime *rt) {
  Tide td = {.amplitude = 0.01, .omega = 2 * PI / 3600, .length = 5000, .depth = 10};
  int nx = 100; /* dx = 50 m: the boundary cells' centre at 25 m (tide_state) */
  double dx = td.length / nx, c = sqrt(GRAVITY * td.depth), k = td.omega / c;
  double exact = 1 / cos(k * (td.length - dx / 2)); /* closed-end amplitude over the boundary's */
  static const double courants[] = {1, 5, 20};
  for (int n = 0; n < 3; n++) {
    Model m;
    SweConfig cfg = implicit_config(PRECISION_DOUBLE, 0.5);
    cfg.sides[SWE_WEST] = SWE_SIDE_LEVEL;
    double period = 2 * PI / td.omega;
    int per_period = (int)ceil(period / courant_step(courants[n], c, dx));
    double dt = period / per_period, sine = 0, cosine = 0, boundary_miss = 0;
    hcl_status_clear();
    HclStatus s = model_create(rt, nx, 3, dx, cfg, tide_state, &td, &m);
    /* The closed end's harmonic at w over three periods: a free oscillation of the channel (its quarter-wave
     * period 4 L / c = 2020 s) projects onto it by a few percent of its own size at most. */
    for (int step = 1; step <= 3 * per_period && s == HCL_OK; step++) {
      double level[SWE_SIDES] = {0};
      tide_levels(&td, step * dt, level);
      hcl_swe_set_levels(m.swe, level);
      s = hcl_swe_step(m.swe, dt);
      if (s == HCL_OK) {
        s = model_read(&m);
      }
      double t = step * dt, closed_end = m.zeta[(size_t)nx + nx - 1];
      boundary_miss = fmax(boundary_miss, fabs(m.zeta[nx] - level[SWE_WEST]));
      sine += closed_end * sin(td.omega * t) * 2 / (3 * per_period);
      cosine += closed_end * cos(td.omega * t) * 2 / (3 * per_period);
    }
    double ratio = hypot(sine, cosine) / td.amplitude, phase = atan2(cosine, sine);
    tap_note("linear tide at Courant %g (%d steps a period): closed-end amplitude %.4f a (analytic %.4f a), phase "
             "%.4f rad (analytic 0)",
             courants[n], per_period, ratio, exact, phase);
    /* theta = 0.5 neither damps nor amplifies; its phase error in time, (w dt)^2 / 12 (0.13% at Courant 20, 51
     * steps a period), and the grid's, (k dx)^2 / 24 (1e-6), shift the channel's resonance (1 / cos(k L), 1.56
     * here) by about as much: within 0.5% and 0.005 rad. */
    /* A Dirichlet row's level is its value exactly (level_update takes it from the side, not from CG). */
    TAP_OK(s == HCL_OK && boundary_miss == 0,
           "linear tide at Courant %g: the west cells hold the tide exactly (%.3g m off)", courants[n], boundary_miss);
    TAP_OK(s == HCL_OK && fabs(ratio - exact) < 0.005 * exact && fabs(phase) < 0.005,
           "linear tide at Courant %g: closed-end amplitude and phase within 0.5%% and 0.005 rad of the analytic %s",
           courants[n], hcl_status_message());
    model_free(&m);
  }
}

/* ---- weakly reflecting sides ---- */

/* A 20 km channel 10 m deep holding a Gaussian hump of 1 cm (width 1500 m) in its middle, at rest: the hump splits
 * into two waves running out through the west and east sides. */
static double hump_state(const void *ctx, Quantity q, double x, double y) {
  (void)ctx;
  (void)y;
  return q == AT_DEPTH ? 10 : (q == AT_LEVEL ? 0.01 * exp(-(x - 10000) * (x - 10000) / (2 * 1500.0 * 1500.0)) : 0);
}

/* The largest |level| left in the channel after the waves have had time to cross it twice (2 L / c = 4040 s), with
 * both ends weakly reflecting or both walls. */
static double hump_left(Runtime *rt, SweSide side, double courant, HclStatus *s) {
  Model m;
  int nx = 200;
  double dx = 100, largest = 0;
  SweConfig c = implicit_config(PRECISION_DOUBLE, 0.5);
  c.sides[SWE_WEST] = c.sides[SWE_EAST] = side;
  double dt = courant_step(courant, sqrt(GRAVITY * 10), dx);
  *s = model_create(rt, nx, 3, dx, c, hump_state, NULL, &m);
  if (*s == HCL_OK) {
    *s = hcl_model_run(&m, (int)ceil(4040 / dt), dt, NULL, NULL);
  }
  if (*s == HCL_OK) {
    *s = model_read(&m);
  }
  for (int i = 0; i < nx; i++) {
    largest = fmax(largest, fabs(m.zeta[nx + i]));
  }
  model_free(&m);
  return largest;
}

static void weak_sides(Runtime *rt) {
  static const double courants[] = {1, 5, 20};
  for (int k = 0; k < 3; k++) {
    HclStatus s = HCL_OK;
    hcl_status_clear();
    double walls = hump_left(rt, SWE_SIDE_WALL, courants[k], &s);
    double weak = s == HCL_OK ? hump_left(rt, SWE_SIDE_WEAK_LEVEL, courants[k], &s) : NAN;
    tap_note("a hump's waves after crossing the channel twice at Courant %g: largest level %.3e m between walls, "
             "%.3e m between weakly reflecting sides (the hump: 1e-2 m)",
             courants[k], walls, weak);
    /* Between walls the two 5 mm waves are still there (damped little at theta 0.5); weakly reflecting sides
     * solve their radiation condition with the levels and let them out: measured 2026-11-25, 2.7e-6, 2.4e-6 and
     * 2.8e-5 m left at Courant 1, 5 and 20 (the explicit scheme reflects 1-2%, test_swe_analytic). Bound: 1e-4 m,
     * 2% of an outgoing wave. */
    TAP_OK(s == HCL_OK && walls > 4e-3 && weak < 1e-4,
           "weakly reflecting sides at Courant %g let the waves out (%.3g m left, %.3g m between walls) %s",
           courants[k], weak, walls, hcl_status_message());
  }
}

/* ---- Thacker's planar surface (wetting and drying) ---- */

/* Bed h0 (1 - r^2 / a^2) around the centre of a square of side 4 a; the level
 * eta h0 / a^2 (2 (x - xc) cos w t + 2 (y - yc) sin w t - eta), u = -eta w sin w t, v = eta w cos w t,
 * w = sqrt(2 g h0) / a (Thacker 1981; SWASHES 4.2.2). */
typedef struct {
  double a, h0, eta, omega, t;
} Thacker;

static double thacker_state(const void *ctx, Quantity q, double x, double y) {
  const Thacker *th = ctx;
  double xc = x - 2 * th->a, yc = y - 2 * th->a, wt = th->omega * th->t;
  double bed = th->h0 * (1 - (xc * xc + yc * yc) / (th->a * th->a));
  double level = th->eta * th->h0 / (th->a * th->a) * (2 * xc * cos(wt) + 2 * yc * sin(wt) - th->eta);
  switch (q) {
  case AT_DEPTH:
    return bed;
  case AT_LEVEL:
    return fmax(level, -bed);
  case AT_U:
    return -th->eta * th->omega * sin(wt);
  default:
    return th->eta * th->omega * cos(wt);
  }
}

/* L1 error of the depth after one period, relative to the exact water volume. */
static double thacker_error(Runtime *rt, double courant, HclStatus *s) {
  Model m;
  Thacker th = {.a = 1, .h0 = 0.1, .eta = 0.5};
  th.omega = sqrt(2 * GRAVITY * th.h0) / th.a;
  int n = 100;
  double dx = 4 * th.a / n, period = 2 * PI / th.omega;
  double speed = sqrt(GRAVITY * th.h0) + th.eta * th.omega; /* the explicit CFL number's |u| + c */
  int steps = (int)ceil(period / courant_step(courant, speed, dx));
  SweConfig c = implicit_config(PRECISION_DOUBLE, 0.5);
  c.dry_depth = 1e-5;
  double error = 0, water = 0;
  *s = model_create(rt, n, n, dx, c, thacker_state, &th, &m);
  if (*s == HCL_OK) {
    *s = hcl_model_run(&m, steps, period / steps, NULL, NULL);
  }
  if (*s == HCL_OK) {
    *s = model_read(&m);
  }
  th.t = period;
  for (int j = 0; j < n && *s == HCL_OK; j++) {
    for (int i = 0; i < n; i++) {
      double x = (i + 0.5) * dx, y = (j + 0.5) * dx;
      double exact = thacker_state(&th, AT_LEVEL, x, y) + thacker_state(&th, AT_DEPTH, x, y);
      size_t p = (size_t)j * n + i;
      error += fabs(m.zeta[p] + m.depth[p] - exact);
      water += exact;
    }
  }
  model_free(&m);
  return error / water;
}

static void thacker(Runtime *rt) {
  /* |u| = eta w = 0.7 m/s against c = 1 m/s: the advective Courant number is 0.41 of the explicit one. Measured
   * 2026-11-25 on this grid (100 cells a side): 4.9%, 5.2%, 5.6% and 6.5% at Courant 0.25, 0.5, 0.75 and 1, as the
   * explicit scheme's 6.3% at 80 cells and 3.8% at 160 (test_swe_analytic); at 1.25 (advective Courant 0.51) 27%
   * and at 1.5 63%: the explicit advection's accuracy limit (README). Courant 1 is tested, bounded at 8%. */
  HclStatus s = HCL_OK;
  hcl_status_clear();
  double error = thacker_error(rt, 1.0, &s);
  tap_note("Thacker planar surface at Courant 1, one period: depth L1 %.4e of the volume", error);
  TAP_OK(s == HCL_OK && error < 0.08, "Thacker at Courant 1: depth error %.3g below 0.08 %s", error,
         hcl_status_message());
}

/* ---- dam breaks ---- */

/* A dam at x_dam holds h_left over a flat bed lying h_right below the reference (h_right 0: dry), at rest. */
static double dam_state(const void *ctx, Quantity q, double x, double y) {
  const Stoker *s = ctx;
  (void)y;
  if (q == AT_DEPTH) {
    return s->h_right;
  }
  return q == AT_LEVEL && x < s->x_dam ? s->h_left - s->h_right : 0.0;
}

/* The L1 error of the depth along the first row at t_end, m^2, at the step of gravity-wave Courant number courant
 * on the fastest exact signal (2D measure, as the explicit scheme's CFL number). */
static double dam_error(Runtime *rt, const Stoker *s, double t_end, double courant, HclStatus *status) {
  Model m;
  int nx = 400;
  double dx = s->length / nx, error = 0;
  bool dry = s->h_right == 0;
  double speed = dry ? 2 * sqrt(GRAVITY * s->h_left) : fmax(s->u_m + sqrt(GRAVITY * s->h_m), sqrt(GRAVITY * s->h_left));
  int steps = (int)ceil(t_end / courant_step(courant, speed, dx));
  SweConfig c = implicit_config(PRECISION_DOUBLE, 0.55);
  c.dry_depth = 1e-6;
  *status = model_create(rt, nx, 4, dx, c, dam_state, s, &m);
  if (*status == HCL_OK) {
    *status = hcl_model_run(&m, steps, t_end / steps, NULL, NULL);
  }
  if (*status == HCL_OK) {
    *status = model_read(&m);
  }
  for (int i = 0; i < nx && *status == HCL_OK; i++) {
    double x = (i + 0.5) * dx, h = m.zeta[i] + m.depth[i];
    double exact = dry ? ritter_depth(s->h_left, s->x_dam, x, t_end) : stoker_depth(s, x, t_end);
    error += fabs(h - exact) * dx;
  }
  model_free(&m);
  return error;
}

static void dam_breaks(Runtime *rt) {
  /* 100 m, the dam in the middle, h_left 1 m; Stoker over 0.1 m (u_m = 2.2 m/s behind the shock, c_m 1.9 m/s),
   * Ritter over a dry bed (the front runs at 2 c0 = 6.3 m/s). The flow is as fast as the waves: the advective
   * limit caps the gravity-wave Courant number near 2, accuracy near 1. */
  Stoker stoker = {.h_left = 1.0, .h_right = 0.1, .x_dam = 50.0, .length = 100.0};
  Stoker ritter = {.h_left = 1.0, .h_right = 0.0, .x_dam = 50.0, .length = 100.0};
  stoker_solve(&stoker);
  static const double courants[] = {0.5, 1};
  for (int k = 0; k < 2; k++) {
    HclStatus s = HCL_OK;
    hcl_status_clear();
    double e_stoker = dam_error(rt, &stoker, 8.0, courants[k], &s);
    double e_ritter = s == HCL_OK ? dam_error(rt, &ritter, 4.0, courants[k], &s) : NAN;
    tap_note("dam breaks at Courant %g, 400 cells: L1 depth error Stoker %.4e m^2, Ritter %.4e m^2", courants[k],
             e_stoker, e_ritter);
    /* The explicit scheme's at 400 cells and Courant 0.5: Stoker 0.72 m^2 (test_swe_analytic); measured here
     * 2026-11-25: Stoker 0.67 and Ritter 0.35 m^2 at Courant 0.5, 1.62 and 0.81 at 1, where the advective Courant
     * number behind Stoker's shock reaches 0.55 and the explicit advection's error grows (as in Thacker). Bounds:
     * 2% of the dam's water (h0 L / 2 = 50 m^2) at 0.5, 5% at 1. */
    double bound = courants[k] < 1 ? 1.0 : 2.5;
    TAP_OK(s == HCL_OK && e_stoker < bound && e_ritter < bound,
           "dam breaks at Courant %g: L1 depth errors %.3g (Stoker), %.3g (Ritter) below %g m^2 %s", courants[k],
           e_stoker, e_ritter, bound, hcl_status_message());
  }
}

/* ---- device memory ---- */

/* hcl_swe_device_bytes against the buffers a model makes through its first step and checkpoint (hcl_runtime_buffer_bytes;
 * the reducers' partial sums and the halos' staging buffers are made elsewhere and are not in either). */
static void device_memory(Runtime *rt, Precision precision) {
  Model m;
  Basin drop = {0.1};
  int nx = 256;
  double largest, before = hcl_runtime_buffer_bytes(rt);
  hcl_status_clear();
  HclStatus s = model_create(rt, nx, nx, 200.0 / nx, implicit_config(precision, 0.55), basin, &drop, &m);
  if (s == HCL_OK) {
    s = hcl_model_run(&m, 1, 1.0, NULL, NULL);
  }
  if (s == HCL_OK) {
    s = hcl_swe_checkpoint(m.swe);
  }
  double made = hcl_runtime_buffer_bytes(rt) - before;
  double estimate = hcl_swe_device_bytes(nx, nx, precision, SWE_SCHEME_IMPLICIT, &largest);
  double cells = (double)nx * nx;
  tap_note("implicit model, %s, %d x %d: %.1f bytes per cell made, %.1f estimated", hcl_precision_name(precision), nx,
           nx, made / cells, estimate / cells);
  /* The estimate leaves out only RRB's level table and pivot flag, a few hundred bytes: within 1%. */
  TAP_OK(s == HCL_OK && fabs(made - estimate) < 0.01 * made,
         "implicit model, %s: hcl_swe_device_bytes within 1%% of the buffers made %s", hcl_precision_name(precision),
         hcl_status_message());
  model_free(&m);
}

/* ---- convergence in time ---- */

/* A closed basin 1000 m long, 10 m deep, holding its first standing mode of 1 mm (linear: advection and the
 * depth's variation are 1e-4 of the rest). */
static double standing_state(const void *ctx, Quantity q, double x, double y) {
  (void)ctx;
  (void)y;
  return q == AT_DEPTH ? 10 : (q == AT_LEVEL ? 1e-3 * cos(PI * x / 1000) : 0);
}

/* The level after 100 s at steps dt_k = dt_0 / 2^k, against a run at dt_0 / 64; the error ratios. */
static void time_convergence(Runtime *rt, double theta, double order) {
  int nx = 50, refinements = 3, fine = 64;
  double dx = 1000.0 / nx, t_end = 100, dt0 = 5; /* Courant 5 at the coarsest */
  double *reference = NULL, errors[3] = {0};
  HclStatus s = HCL_OK;
  hcl_status_clear();
  reference = calloc((size_t)nx * 3, sizeof *reference);
  for (int k = -1; k < refinements && s == HCL_OK; k++) {
    Model m;
    int per = k < 0 ? fine : 1 << k;
    s = model_create(rt, nx, 3, dx, implicit_config(PRECISION_DOUBLE, theta), standing_state, NULL, &m);
    if (s == HCL_OK) {
      s = hcl_model_run(&m, (int)lround(t_end / dt0) * per, dt0 / per, NULL, NULL);
    }
    if (s == HCL_OK) {
      s = model_read(&m);
    }
    for (int p = 0; p < nx && s == HCL_OK; p++) {
      if (k < 0) {
        reference[p] = m.zeta[p];
      } else {
        errors[k] = fmax(errors[k], fabs(m.zeta[p] - reference[p]));
      }
    }
    model_free(&m);
  }
  double r1 = errors[0] / errors[1], r2 = errors[1] / errors[2];
  tap_note("theta %g: level errors at dt 5, 2.5, 1.25 s against dt 5/64: %.3e, %.3e, %.3e m (ratios %.2f, %.2f)", theta,
           errors[0], errors[1], errors[2], r1, r2);
  /* Order p halves the error 2^p times per halving of dt; the reference's own error (1/8 of the finest's step)
   * lowers the last ratio a little: within 25% of 2^p. */
  double expected = pow(2, order);
  TAP_OK(s == HCL_OK && fabs(r1 - expected) < 0.25 * expected && fabs(r2 - expected) < 0.25 * expected,
         "theta %g: order %g in time (error ratios %.2f, %.2f, expected %.0f) %s", theta, order, r1, r2, expected,
         hcl_status_message());
  free(reference);
}

int main(int argc, char **argv) {
  Runtime *rt = NULL;
  HclStatus s = test_start_runtime(&argc, &argv, true, &rt);
  if (!TAP_OK(s == HCL_OK, "runtime %s", hcl_status_message())) {
    hcl_par_finalize();
    return tap_done();
  }
  lake_at_rest(rt, PRECISION_SINGLE);
  lake_at_rest(rt, PRECISION_DOUBLE);
  drop_and_island(rt);
  linear_tide(rt);
  weak_sides(rt);
  thacker(rt);
  dam_breaks(rt);
  device_memory(rt, PRECISION_SINGLE);
  device_memory(rt, PRECISION_DOUBLE);
  time_convergence(rt, 0.5, 2);
  time_convergence(rt, 1.0, 1);
  hcl_runtime_destroy(&rt);
  int result = tap_done();
  hcl_par_finalize();
  return result;
}
