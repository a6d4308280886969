/* SPDX-License-Identifier: BSD-3-Clause */
/* test_swe.c: the explicit shallow-water solver against what must hold exactly or analytically:
 * - lake at rest over a bump with a dry island: velocities stay exactly zero and the level does not move, for both
 *   advection forms, both orderings, float and double (well-balancedness of the S&D pressure and depth terms);
 * - the thesis' test case 1 (Gaussian drop, Gaussian island 3 cm above the water, closed walls): volume conserved to
 *   rounding (the continuity equation is in flux form) and no negative depth ever;
 * - Ritter's dam break on a dry bed: the water depth against the analytic solution, with the error falling under
 *   refinement. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reduce.h"
#include "swe.h"
#include "../support/dam_break.h"
#include "../support/support.h"
#include "../support/tap.h"

static const double GRAVITY = 9.81;

typedef struct {
  Decomp *decomp;
  Swe *swe;
  double *depth, *zeta;
  int nx, ny;
} Model;

static void model_free(Model *m) {
  hcl_swe_destroy(&m->swe);
  hcl_decomp_destroy(&m->decomp);
  free(m->depth);
  free(m->zeta);
}

/* Creates a model of nx x ny cells; bed(x, y) gives the depth below the reference, level(x, y) the initial water
 * level, at cell centres. */
static HclStatus model_create(Runtime *rt, int nx, int ny, double dx, SweConfig config, double (*bed)(double, double),
                              double (*level)(double, double), Model *m) {
  HclStatus status = HCL_OK;
  DecompSpec grid = {.nx = nx, .ny = ny};
  memset(m, 0, sizeof *m);
  m->nx = nx;
  m->ny = ny;
  config.dx = config.dy = dx;
  TRY(hcl_decomp_create(&grid, &m->decomp));
  const DecompLocal *l = hcl_decomp_local(m->decomp);
  TRY_ALLOC(m->depth, (size_t)l->nx * l->ny);
  TRY_ALLOC(m->zeta, (size_t)l->nx * l->ny);
  for (int j = 0; j < l->ny; j++) {
    for (int i = 0; i < l->nx; i++) {
      double x = (l->x0 + i + 0.5) * dx, y = (l->y0 + j + 0.5) * dx;
      m->depth[(size_t)j * l->nx + i] = bed(x, y);
      m->zeta[(size_t)j * l->nx + i] = level(x, y);
    }
  }
  TRY(hcl_swe_create(rt, m->decomp, &config, &m->swe));
  TRY(hcl_swe_set_state(m->swe, m->depth, m->zeta, NULL, NULL));
cleanup:
  return status;
}

/* Thesis test case 1 on a 200 m basin: still depth 1 m, a Gaussian island rising 3 cm above the water. */
static double basin_bed(double x, double y) {
  double r2 = (x - 140) * (x - 140) + (y - 100) * (y - 100);
  return 1.0 - 1.03 * exp(-r2 / (2 * 15.0 * 15.0));
}

static double still_water(double x, double y) {
  (void)x;
  (void)y;
  return 0.0;
}

static double drop(double x, double y) {
  double r2 = (x - 60) * (x - 60) + (y - 100) * (y - 100);
  return 0.1 * exp(-r2 / (2 * 8.0 * 8.0));
}

static SweConfig config_for(Precision p, SweAdvection a, SweOrdering o) {
  SweConfig c = {.g = GRAVITY,
                 .dry_depth = 1e-3,
                 .advection = a,
                 .ordering = o,
                 .friction = SWE_FRICTION_CHEZY,
                 .friction_coefficient = 60.0,
                 .precision = p};
  return c;
}

static void lake_at_rest(Runtime *rt, Precision p, SweAdvection a, SweOrdering o) {
  Model m;
  double max_u = 1, max_v = 1, min_u = 1, min_v = 1;
  double *before = NULL, *after = NULL;
  hcl_status_clear();
  HclStatus s = model_create(rt, 40, 40, 5.0, config_for(p, a, o), basin_bed, still_water, &m);
  size_t n = (size_t)hcl_field_nx(hcl_swe_zeta(m.swe)) * hcl_field_ny(hcl_swe_zeta(m.swe));
  before = calloc(n, sizeof *before);
  after = calloc(n, sizeof *after);
  if (s == HCL_OK) {
    s = hcl_field_read_owned(hcl_swe_zeta(m.swe), before);
  }
  for (int step = 0; step < 100 && s == HCL_OK; step++) {
    s = hcl_swe_step(m.swe, 0.5);
  }
  Reducer *r = NULL;
  if (s == HCL_OK) {
    s = hcl_reducer_create(rt, m.decomp, &r);
  }
  if (s == HCL_OK) {
    s = hcl_reduce_max(r, hcl_field_span(hcl_swe_u(m.swe)), &max_u);
  }
  if (s == HCL_OK) {
    s = hcl_reduce_min(r, hcl_field_span(hcl_swe_u(m.swe)), &min_u);
  }
  if (s == HCL_OK) {
    s = hcl_reduce_max(r, hcl_field_span(hcl_swe_v(m.swe)), &max_v);
  }
  if (s == HCL_OK) {
    s = hcl_reduce_min(r, hcl_field_span(hcl_swe_v(m.swe)), &min_v);
  }
  if (s == HCL_OK) {
    s = hcl_field_read_owned(hcl_swe_zeta(m.swe), after);
  }
  bool level_kept = s == HCL_OK && memcmp(before, after, n * sizeof *before) == 0;
  TAP_OK(all_ranks(s == HCL_OK && max_u == 0 && min_u == 0 && max_v == 0 && min_v == 0 && level_kept),
         "lake at rest with a dry island, %s, %s advection, %s: u, v exactly 0 and the level unchanged after 100 "
         "steps %s",
         hcl_precision_name(p), a == SWE_ADVECTION_MOMENTUM ? "momentum" : "energy-head",
         o == SWE_ORDERING_HANSEN ? "Hansen" : "Sielecki", hcl_status_message());
  hcl_reducer_destroy(&r);
  free(before);
  free(after);
  model_free(&m);
}

static void drop_island_volume(Runtime *rt, SweOrdering o) {
  Model m;
  double v0 = 0, v1 = 0, min_h = 0, worst_min_h = INFINITY;
  Reducer *r = NULL;
  Field *h = NULL;
  hcl_status_clear();
  HclStatus s =
      model_create(rt, 80, 80, 2.5, config_for(PRECISION_DOUBLE, SWE_ADVECTION_ENERGY, o), basin_bed, drop, &m);
  if (s == HCL_OK) {
    s = hcl_swe_volume(m.swe, &v0);
  }
  if (s == HCL_OK) {
    s = hcl_reducer_create(rt, m.decomp, &r);
  }
  FieldSpec hs = {.name = "h", .nz = 1, .ghost = 0, .precision = PRECISION_DOUBLE};
  if (s == HCL_OK) {
    s = hcl_field_create(rt, m.decomp, &hs, &h);
  }
  size_t n = (size_t)hcl_field_nx(hcl_swe_zeta(m.swe)) * hcl_field_ny(hcl_swe_zeta(m.swe));
  double *zeta = calloc(n, sizeof *zeta);
  /* 400 steps of 0.1 s (the thesis' dt; CFL number about 0.13 at 2.5 m) while the drop runs up the island. */
  for (int step = 1; step <= 400 && s == HCL_OK; step++) {
    s = hcl_swe_step(m.swe, 0.1);
    if (s == HCL_OK && step % 50 == 0) {
      s = hcl_field_read_owned(hcl_swe_zeta(m.swe), zeta);
      min_h = INFINITY;
      for (size_t p = 0; p < n; p++) {
        min_h = fmin(min_h, zeta[p] + m.depth[p]);
      }
      worst_min_h = fmin(worst_min_h, min_h);
    }
  }
  double max_u = 0, min_v = 0;
  if (s == HCL_OK) {
    s = hcl_swe_volume(m.swe, &v1);
  }
  if (s == HCL_OK) {
    s = hcl_reduce_max(r, hcl_field_span(hcl_swe_u(m.swe)), &max_u);
  }
  if (s == HCL_OK) {
    s = hcl_reduce_min(r, hcl_field_span(hcl_swe_v(m.swe)), &min_v);
  }
  /* The drop spreads: by 40 s its ring has crossed the basin, so the flow is far from rest everywhere. */
  TAP_OK(all_ranks(s == HCL_OK && max_u > 1e-3 && min_v < -1e-3),
         "the drop moves the water (max u %.3g, min v %.3g m/s)", max_u, min_v);
  /* Flux form: every face flux leaves one cell and enters its neighbour bit for bit, so only the rounding of the
   * zeta updates (one per cell per step, ~1e-16 relative) and of the sum remain: far below 1e-12 after 400 steps. */
  double drift = fabs(v1 - v0) / v0;
  TAP_OK(all_ranks(s == HCL_OK && drift < 1e-12), "test case 1, %s: volume %.15g m^3 drifts by %.2e relative (< 1e-12)",
         o == SWE_ORDERING_HANSEN ? "Hansen" : "Sielecki", v0, drift);
  /* Rounding can leave a dry cell's depth at -1e-17 around zero; anything worse is a negative depth. */
  TAP_OK(all_ranks(s == HCL_OK && worst_min_h >= -1e-12), "no negative depth (smallest %.3g m)", worst_min_h);
  free(zeta);
  hcl_field_destroy(&h);
  hcl_reducer_destroy(&r);
  model_free(&m);
}

/* Ritter: a dam at x = L/2 holds h0 = 1 m over a dry bed; the exact depth at time t. */
static const double RITTER_LENGTH = 100.0, RITTER_H0 = 1.0;
static double ritter_bed(double x, double y) {
  (void)x;
  (void)y;
  return 0.0;
}
static double ritter_level(double x, double y) {
  (void)y;
  return x < RITTER_LENGTH / 2 ? RITTER_H0 : 0.0;
}
static double ritter_error(Runtime *rt, int nx, HclStatus *s) {
  Model m;
  double dx = RITTER_LENGTH / nx, t_end = 4.0, error = 0;
  SweConfig c = config_for(PRECISION_DOUBLE, SWE_ADVECTION_MOMENTUM, SWE_ORDERING_SIELECKI);
  c.friction = SWE_FRICTION_NONE;
  c.dry_depth = 1e-6;
  hcl_status_clear();
  *s = model_create(rt, nx, 4, dx, c, ritter_bed, ritter_level, &m);
  int steps = (int)ceil(t_end / (0.25 * dx / sqrt(GRAVITY * RITTER_H0)));
  double dt = t_end / steps;
  for (int k = 0; k < steps && *s == HCL_OK; k++) {
    *s = hcl_swe_step(m.swe, dt);
  }
  size_t n = (size_t)hcl_field_nx(hcl_swe_zeta(m.swe)) * hcl_field_ny(hcl_swe_zeta(m.swe));
  double *zeta = calloc(n, sizeof *zeta);
  if (*s == HCL_OK) {
    *s = hcl_field_read_owned(hcl_swe_zeta(m.swe), zeta);
  }
  const DecompLocal *l = hcl_decomp_local(m.decomp);
  for (int i = 0; *s == HCL_OK && i < l->nx; i++) { /* L1 error of the depth along the first owned row */
    double x = (l->x0 + i + 0.5) * dx;
    error += fabs(zeta[i] - ritter_depth(RITTER_H0, RITTER_LENGTH / 2, x, t_end)) * dx;
  }
  free(zeta);
  model_free(&m);
  return error;
}

int main(int argc, char **argv) {
  Runtime *rt = NULL;
  HclStatus s = test_start_runtime(&argc, &argv, true, &rt);
  if (!TAP_OK(all_ranks(s == HCL_OK), "runtime %s", hcl_status_message())) {
    hcl_par_finalize();
    return tap_done();
  }
  for (int p = 0; p < 2; p++) {
    for (int a = 0; a < 2; a++) {
      for (int o = 0; o < 2; o++) {
        lake_at_rest(rt, p ? PRECISION_DOUBLE : PRECISION_SINGLE, (SweAdvection)a, (SweOrdering)o);
      }
    }
  }
  drop_island_volume(rt, SWE_ORDERING_SIELECKI);
  drop_island_volume(rt, SWE_ORDERING_HANSEN);
  if (hcl_par_size() == 1) { /* the L1 sum below is over this rank's cells */
    double errors[3];
    int sizes[3] = {100, 200, 400};
    bool ran = true;
    for (int k = 0; k < 3; k++) {
      errors[k] = ritter_error(rt, sizes[k], &s);
      ran = ran && s == HCL_OK;
      tap_note("Ritter dam break, %d cells: L1 depth error %.4g m^2", sizes[k], errors[k]);
    }
    /* The solution has a kink and a wet-dry front, so first order at best: ask that the error falls by a factor
     * 1.4 or more per halving of dx, and is below 2% of the dam's h0 L / 2 on the finest grid. */
    TAP_OK(ran && errors[1] < errors[0] / 1.4 && errors[2] < errors[1] / 1.4 &&
               errors[2] < 0.02 * RITTER_H0 * RITTER_LENGTH / 2,
           "Ritter dam break converges to the analytic depth (L1 %.3g, %.3g, %.3g) %s", errors[0], errors[1], errors[2],
           hcl_status_message());
  }
  hcl_runtime_destroy(&rt);
  int result = tap_done();
  hcl_par_finalize();
  return result;
}
