/* SPDX-License-Identifier: BSD-3-Clause */
/* test_rrb.c: the RRB factorization and preconditioner on the device (rrb.h) against the host reference
 * (tests/support/rrb_reference.h), on grids of every kind of shape (1 x 1, 1 x N, N x 1, 2 x 2, odd, prime, square
 * powers of two) with random variable-coefficient systems (isotropic; 1000:1 anisotropic with islands of zero-flux
 * faces) and the paper's model problem, in double and in float:
 * - M1^-1 r (the preconditioner on the red nodes of level 0) equals the red part of the host's M^-1 applied to r
 *   with zero black entries (M = L1 diag(D_b, M1) L1^T, so that part is exactly M1^-1 r);
 * - M1^-1 is symmetric and positive on random vectors, and exact (M1 = S1) on a 2 x 2 grid, where nothing is lumped;
 * - S1 p, the Schur right-hand side and the black nodes' recovery equal their definitions evaluated on the host;
 * - a matrix with a negative centre, or one whose lumped factorization breaks down, is refused naming the level. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "par.h"
#include "poisson.h"
#include "rrb.h"
#include "clerror.h"
#include "../support/support.h"
#include "../support/tap.h"
#include "../support/rrb_reference.h"

static bool is_red(const Stencil5 *s, size_t p) {
  return (p % (size_t)s->nx + p / (size_t)s->nx) % 2 == 0;
}

/* The device solver's view of one system: the matrix fields and the factorization. */
typedef struct {
  Runtime *rt;
  Precision precision;
  const Stencil5 *s;
  Decomp *decomp;
  Field *matrix[3];
  Rrb *rrb;
  cl_mem a, b; /* two vectors in the vector layout */
  const RrbLayout *layout;
  double tolerance; /* relative agreement with the host, per precision */
} Device;

static HclStatus device_open(Runtime *rt, const Stencil5 *s, Precision precision, RrbDepth depth, Device *d) {
  HclStatus status = HCL_OK;
  memset(d, 0, sizeof *d);
  d->rt = rt;
  d->precision = precision;
  d->s = s;
  /* Double: the device and the host sum the same products in other orders through up to 11 levels, a few hundred
   * ulps at most; float: the same at float's epsilon, times the growth of rounding through the levels. */
  d->tolerance = precision == PRECISION_DOUBLE ? 1e-11 : 2e-4;
  DecompSpec spec = {.nx = s->nx, .ny = s->ny};
  TRY(hcl_decomp_create(&spec, &d->decomp));
  const double *values[3] = {s->c, s->east, s->north};
  for (int f = 0; f < 3; f++) {
    FieldSpec fs = {.name = "matrix", .nz = 1, .ghost = 1, .precision = precision};
    TRY(hcl_field_create(rt, d->decomp, &fs, &d->matrix[f]));
    TRY(hcl_field_write_owned(d->matrix[f], values[f]));
  }
  TRY(hcl_rrb_create(rt, s->nx, s->ny, precision, depth, &d->rrb));
  d->layout = hcl_rrb_vector_layout(d->rrb);
  TRY(hcl_runtime_buffer(rt, d->layout->count * hcl_precision_bytes(precision), "a", &d->a));
  TRY(hcl_runtime_buffer(rt, d->layout->count * hcl_precision_bytes(precision), "b", &d->b));
cleanup:
  return status;
}

static void device_close(Device *d) {
  if (d->a) {
    clReleaseMemObject(d->a);
  }
  if (d->b) {
    clReleaseMemObject(d->b);
  }
  hcl_rrb_destroy(&d->rrb);
  for (int f = 0; f < 3; f++) {
    hcl_field_destroy(&d->matrix[f]);
  }
  hcl_decomp_destroy(&d->decomp);
}

/* Writes the natural-order host vector v into buffer in the layout (or reads it back). */
static HclStatus transfer(Device *d, cl_mem buffer, double *v, bool to_device) {
  HclStatus status = HCL_OK;
  size_t n = d->layout->count, bytes = hcl_precision_bytes(d->precision);
  char *stored = NULL;
  TRY_ALLOC(stored, n * bytes);
  if (!to_device) {
    TRY_CL(clEnqueueReadBuffer(hcl_runtime_queue(d->rt), buffer, CL_TRUE, 0, n * bytes, stored, 0, NULL, NULL));
  }
  for (int j = 0; j < d->s->ny; j++) {
    for (int i = 0; i < d->s->nx; i++) {
      size_t at = hcl_rrb_layout_index(d->layout, i, j), p = (size_t)j * d->s->nx + i;
      if (d->precision == PRECISION_DOUBLE && to_device) {
        ((double *)stored)[at] = v[p];
      } else if (to_device) {
        ((float *)stored)[at] = (float)v[p];
      } else {
        v[p] = d->precision == PRECISION_DOUBLE ? ((double *)stored)[at] : ((float *)stored)[at];
      }
    }
  }
  if (to_device) {
    TRY_CL(clEnqueueWriteBuffer(hcl_runtime_queue(d->rt), buffer, CL_TRUE, 0, n * bytes, stored, 0, NULL, NULL));
  }
cleanup:
  free(stored);
  return status;
}

/* max |got - want| over the red (or black) nodes, relative to max |want| there (absolute when that is 0). */
static double difference(const Stencil5 *s, const double *got, const double *want, bool red) {
  double worst = 0, scale = 0;
  for (size_t p = 0; p < (size_t)s->nx * s->ny; p++) {
    if (is_red(s, p) == red) {
      worst = fmax(worst, fabs(got[p] - want[p]));
      scale = fmax(scale, fabs(want[p]));
    }
  }
  return scale > 0 ? worst / scale : worst;
}

/* sum over the straight neighbours q of p of a(p, q) v[q]. */
static double neighbours(const Stencil5 *s, const double *v, size_t p) {
  int i = (int)(p % (size_t)s->nx), j = (int)(p / (size_t)s->nx);
  double sum = 0;
  sum += i > 0 ? s->east[p - 1] * v[p - 1] : 0;
  sum += i + 1 < s->nx ? s->east[p] * v[p + 1] : 0;
  sum += j > 0 ? s->north[p - s->nx] * v[p - s->nx] : 0;
  sum += j + 1 < s->ny ? s->north[p] * v[p + s->nx] : 0;
  return sum;
}

/* Host definitions: S1 p (p on red nodes) = (S y)_r with y_r = p, y_b = -D_b^-1 S_br p. */
static void host_schur(const Stencil5 *s, const double *p, double *q) {
  size_t n = (size_t)s->nx * s->ny;
  double *y = calloc(n, sizeof *y);
  for (size_t k = 0; k < n; k++) {
    y[k] = is_red(s, k) ? p[k] : 0;
  }
  for (size_t k = 0; k < n; k++) {
    if (!is_red(s, k)) {
      y[k] = -neighbours(s, p, k) / s->c[k];
    }
  }
  stencil_apply(s, y, q);
  free(y);
}

/* The preconditioner, the Schur operator and the level-0 steps on one system, against the host's factorization of
 * the same depth. */
static void check_system(Runtime *rt, const Stencil5 *s, Precision precision, RrbDepth depth, const char *what) {
  size_t n = (size_t)s->nx * s->ny;
  double *r = calloc(n, sizeof *r), *host = calloc(n, sizeof *host), *got = calloc(n, sizeof *got),
         *r2 = calloc(n, sizeof *r2), *got2 = calloc(n, sizeof *got2);
  RrbFactor f = {0};
  const char *why = "";
  Device d = {0};
  unsigned long long seed = 7;
  for (size_t k = 0; k < n; k++) {
    r[k] = is_red(s, k) ? test_uniform(&seed) - 0.5 : 0;
    r2[k] = is_red(s, k) ? test_uniform(&seed) - 0.5 : 0;
  }
  int eliminated = 0;
  hcl_status_clear();
  depth = hcl_rrb_depth_on(rt, precision, depth); /* the host factorizes to the exact level the device holds */
  HclStatus st = hcl_rrb_depth_levels(s->nx, s->ny, depth, &eliminated);
  bool host_ok = st == HCL_OK && reference_factor(s, eliminated + 1, 1, &f, &why);
  st = st == HCL_OK ? device_open(rt, s, precision, depth, &d) : st;
  st = st == HCL_OK ? hcl_rrb_setup(d.rrb, d.matrix[0], d.matrix[1], d.matrix[2]) : st;
  if (!TAP_OK(host_ok && st == HCL_OK, "%s, %s: set up (%d levels) %s %s", what, hcl_precision_name(precision),
              d.rrb ? hcl_rrb_factor_layout(d.rrb)->nlevels : -1, host_ok ? "" : why, hcl_status_message())) {
    goto done;
  }
  /* M1^-1 */
  reference_apply(&f, r, host);
  st = transfer(&d, d.a, r, true);
  st = st == HCL_OK ? hcl_rrb_apply(d.rrb, d.a, d.b) : st;
  st = st == HCL_OK ? transfer(&d, d.b, got, false) : st;
  double e = difference(s, got, host, true);
  TAP_OK(st == HCL_OK && e <= d.tolerance, "%s, %s: M1^-1 r as the host's (%.2e)", what, hcl_precision_name(precision),
         e);
  /* Symmetric and positive: r2^T M1^-1 r = r^T M1^-1 r2, r^T M1^-1 r > 0. */
  st = st == HCL_OK ? transfer(&d, d.a, r2, true) : st;
  st = st == HCL_OK ? hcl_rrb_apply(d.rrb, d.a, d.b) : st;
  st = st == HCL_OK ? transfer(&d, d.b, got2, false) : st;
  double r2mr = 0, rmr2 = 0, rmr = 0, scale = 0;
  for (size_t k = 0; k < n; k++) {
    if (is_red(s, k)) {
      r2mr += r2[k] * got[k];
      rmr2 += r[k] * got2[k];
      rmr += r[k] * got[k];
      scale += fabs(r2[k] * got[k]) + fabs(r[k] * got2[k]);
    }
  }
  TAP_OK(st == HCL_OK && fabs(r2mr - rmr2) <= d.tolerance * scale && rmr > 0,
         "%s, %s: M1^-1 symmetric (%.2e of %.2e) and positive (%.3e)", what, hcl_precision_name(precision),
         fabs(r2mr - rmr2), scale, rmr);
  /* S1 p */
  host_schur(s, r, host);
  st = st == HCL_OK ? transfer(&d, d.a, r, true) : st;
  st = st == HCL_OK ? hcl_rrb_schur_apply(d.rrb, d.a, d.b) : st;
  st = st == HCL_OK ? transfer(&d, d.b, got, false) : st;
  e = difference(s, got, host, true);
  TAP_OK(st == HCL_OK && e <= d.tolerance, "%s, %s: S1 p as the host's (%.2e)", what, hcl_precision_name(precision), e);
  /* The Schur right-hand side b_r - S_rb D_b^-1 b_b, and x_b = D_b^-1 (b_b - S_br x_r), for a full b. */
  for (size_t k = 0; k < n; k++) {
    r2[k] = test_uniform(&seed) - 0.5;
  }
  for (size_t k = 0; k < n; k++) {
    double black_sum = 0;
    int i = (int)(k % (size_t)s->nx), j = (int)(k / (size_t)s->nx);
    if (is_red(s, k)) {
      black_sum += i > 0 ? s->east[k - 1] * r2[k - 1] / s->c[k - 1] : 0;
      black_sum += i + 1 < s->nx ? s->east[k] * r2[k + 1] / s->c[k + 1] : 0;
      black_sum += j > 0 ? s->north[k - s->nx] * r2[k - s->nx] / s->c[k - s->nx] : 0;
      black_sum += j + 1 < s->ny ? s->north[k] * r2[k + s->nx] / s->c[k + s->nx] : 0;
      host[k] = r2[k] - black_sum;
    }
  }
  st = st == HCL_OK ? transfer(&d, d.a, r2, true) : st;
  st = st == HCL_OK ? hcl_rrb_schur_rhs(d.rrb, d.a, d.b) : st;
  st = st == HCL_OK ? transfer(&d, d.b, got, false) : st;
  e = difference(s, got, host, true);
  for (size_t k = 0; k < n; k++) {
    host[k] = is_red(s, k) ? r[k] : (r2[k] - neighbours(s, r, k)) / s->c[k];
    got[k] = is_red(s, k) ? r[k] : 0;
  }
  st = st == HCL_OK ? transfer(&d, d.b, got, true) : st;
  st = st == HCL_OK ? hcl_rrb_recover_black(d.rrb, d.a, d.b) : st;
  st = st == HCL_OK ? transfer(&d, d.b, got, false) : st;
  double e_black = difference(s, got, host, false);
  TAP_OK(st == HCL_OK && e <= d.tolerance && (e_black <= d.tolerance || n == 1),
         "%s, %s: Schur right-hand side (%.2e) and black recovery (%.2e) as the host's %s", what,
         hcl_precision_name(precision), e, e_black, hcl_status_message());
done:
  device_close(&d);
  reference_free(&f);
  free(r);
  free(r2);
  free(host);
  free(got);
  free(got2);
}

/* On a 2 x 2 grid nothing is lumped: M1 = S1, so M1^-1 S1 p = p. */
static void check_exact(Runtime *rt) {
  Stencil5 s;
  Device d;
  stencil_alloc(2, 2, &s);
  test_islands_stencil(&s, 1, 1, 0.1, false, 11);
  double p[4] = {0.3, 0, 0, -0.7}, back[4] = {0};
  hcl_status_clear();
  HclStatus st = device_open(rt, &s, PRECISION_DOUBLE, RRB_DEPTH_DEFAULT, &d);
  st = st == HCL_OK ? hcl_rrb_setup(d.rrb, d.matrix[0], d.matrix[1], d.matrix[2]) : st;
  st = st == HCL_OK ? transfer(&d, d.a, p, true) : st;
  st = st == HCL_OK ? hcl_rrb_schur_apply(d.rrb, d.a, d.b) : st;
  st = st == HCL_OK ? hcl_rrb_apply(d.rrb, d.b, d.a) : st;
  st = st == HCL_OK ? transfer(&d, d.a, back, false) : st;
  /* O(1) entries through two eliminations: rounding only. */
  double e = fmax(fabs(back[0] - p[0]), fabs(back[3] - p[3]));
  TAP_OK(st == HCL_OK && e < 1e-14, "2 x 2: M1 = S1 exactly, M1^-1 S1 p = p (%.2e) %s", e, hcl_status_message());
  device_close(&d);
  stencil_free(&s);
}

/* A negative centre (a black node of level 0), and a matrix whose red nodes lose positivity only in the Schur
 * complement, are refused by the setup with the level. */
static void check_refusals(Runtime *rt) {
  Stencil5 s;
  Device d;
  stencil_alloc(9, 7, &s);
  test_islands_stencil(&s, 1, 1, 0.1, false, 12);
  s.c[3 * 9 + 4] = -1; /* i + j = 7: black */
  hcl_status_clear();
  HclStatus st = device_open(rt, &s, PRECISION_DOUBLE, RRB_DEPTH_DEFAULT, &d);
  st = st == HCL_OK ? hcl_rrb_setup(d.rrb, d.matrix[0], d.matrix[1], d.matrix[2]) : st;
  TAP_OK(st == HCL_EDATA && tap_contains(hcl_status_message(), "level 1 of") &&
             tap_contains(hcl_status_message(), "not symmetric positive definite"),
         "a negative centre is refused: %s", hcl_status_message());
  device_close(&d);
  test_islands_stencil(&s, 1, 1, 0.1, false, 13);
  s.c[3 * 9 + 3] = 0.5; /* red, centre below its couplings' pull through the black nodes */
  hcl_status_clear();
  st = device_open(rt, &s, PRECISION_DOUBLE, RRB_DEPTH_DEFAULT, &d);
  st = st == HCL_OK ? hcl_rrb_setup(d.rrb, d.matrix[0], d.matrix[1], d.matrix[2]) : st;
  TAP_OK(st == HCL_EDATA && tap_contains(hcl_status_message(), "pivot that is not positive"),
         "an indefinite Schur complement is refused: %s", hcl_status_message());
  device_close(&d);
  stencil_free(&s);
}

/* Depths out of range, and a chosen level that leaves too big an exact level, are refused before any device work. */
static void check_depth_refusals(Runtime *rt) {
  const RrbDepth bad[] = {{.levels = 1, .exact_nodes = RRB_EXACT_MAX},
                          {.levels = 0, .exact_nodes = -1},
                          {.levels = 0, .exact_nodes = RRB_EXACT_MAX + 1},
                          {.levels = 2, .exact_nodes = RRB_EXACT_MAX}};
  const char *const expect[] = {"allowed are 2 or more", "allowed are 1 to 256", "allowed are 1 to 256",
                                "ask for at least 4 levels"};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    Rrb *rrb = NULL;
    hcl_status_clear();
    HclStatus st = hcl_rrb_create(rt, 127, 127, PRECISION_DOUBLE, bad[k], &rrb);
    TAP_OK(st == HCL_EDATA && rrb == NULL && tap_contains(hcl_status_message(), expect[k]),
           "RRB levels %d, exact level %d on 127 x 127 refused: %s", bad[k].levels, bad[k].exact_nodes,
           hcl_status_message());
  }
}

int main(void) {
  Runtime *rt = NULL;
  HclStatus s = hcl_par_init(NULL, NULL);
  s = s == HCL_OK ? test_open_runtime(true, &rt) : s;
  if (TAP_OK(s == HCL_OK, "a device with fp64 %s", hcl_status_message())) {
    const int shapes[][2] = {{1, 1}, {2, 2}, {1, 17}, {17, 1}, {13, 9}, {31, 29}, {64, 64}, {97, 89}, {200, 3}};
    /* The default (the largest exact level); RRB to one node; a chosen RRB-4 (the level count binds); a small exact
     * level. The last levels' shapes cover both numberings of the exact level (row by row when nx <= ny) and
     * bandwidths 1 to 16. */
    const RrbDepth depths[] = {RRB_DEPTH_DEFAULT,
                               {.levels = 0, .exact_nodes = 1},
                               {.levels = 4, .exact_nodes = 1},
                               {.levels = 0, .exact_nodes = 16}};
    const char *const depth_names[] = {"default depth", "to one node", "RRB-4", "exact level up to 16 nodes"};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
      Stencil5 st;
      char what[96];
      stencil_alloc(shapes[k][0], shapes[k][1], &st);
      test_islands_stencil(&st, 1, 1, 0.1, false, 100 + k);
      for (size_t d = 0; d < sizeof depths / sizeof depths[0]; d++) {
        snprintf(what, sizeof what, "%d x %d random, %s", shapes[k][0], shapes[k][1], depth_names[d]);
        check_system(rt, &st, PRECISION_DOUBLE, depths[d], what);
      }
      snprintf(what, sizeof what, "%d x %d random, %s", shapes[k][0], shapes[k][1], depth_names[0]);
      check_system(rt, &st, PRECISION_SINGLE, depths[0], what);
      test_islands_stencil(&st, 1, 1e-3, 1e-3, true, 200 + k);
      for (size_t d = 0; d < 2; d++) {
        snprintf(what, sizeof what, "%d x %d anisotropic 1000:1 with islands, %s", shapes[k][0], shapes[k][1],
                 depth_names[d]);
        check_system(rt, &st, PRECISION_DOUBLE, depths[d], what);
      }
      stencil_free(&st);
    }
    Stencil5 model;
    stencil_alloc(127, 127, &model);
    double *rhs = calloc(127 * 127, sizeof *rhs);
    PoissonDomain domain = hcl_poisson_domain(127, 127);
    hcl_poisson_block(&domain, 0, 0, 127, 127, model.c, model.east, model.north, rhs);
    check_system(rt, &model, PRECISION_DOUBLE, depths[0], "model problem 127^2");
    check_system(rt, &model, PRECISION_SINGLE, depths[0], "model problem 127^2");
    check_system(rt, &model, PRECISION_SINGLE, depths[3], "model problem 127^2, exact level up to 16 nodes");
    free(rhs);
    stencil_free(&model);
    check_exact(rt);
    check_refusals(rt);
    check_depth_refusals(rt);
  }
  hcl_runtime_destroy(&rt);
  hcl_par_finalize();
  return tap_done();
}
