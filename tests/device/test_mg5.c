/* SPDX-License-Identifier: BSD-3-Clause */
/* test_mg5.c: the 5-point multigrid preconditioner (mg5.h) on the device:
 * - M^-1 is symmetric and positive definite (CG's need), on random systems with islands, isotropic and 1000:1
 *   anisotropic: <M^-1 u, v> = <u, M^-1 v> to 1e-12 relative, <M^-1 u, u> > 0;
 * - the coarse levels in one launch apply the same M^-1 as level by level: to 1e-13 relative (rounding: the two
 *   paths do the same operations in the same order, but the compiler may contract them differently);
 * - PFMG's rule halves the strong direction first: x for a system 1000 times stiffer in x, y for one stiffer in y,
 *   and alternates on an isotropic one;
 * - CG's iterations stay flat under refinement, to ||r||_2 <= 1e-8 ||b||_2: the RRB paper's Poisson problem from 63^2
 *   to 1023^2, the same 1000:1 anisotropic, and the pressure matrix of a semi-implicit shallow-water step over a
 *   tidal flat (depth 20 m to dry land above a 1:40 slope, a dredged channel 5 times deeper, dry cells' rows the
 *   identity, couplings from 0 to 1e4 times the mass term): measured 10 11 11 12 12, 8 9 10 11 12 and 10 10 11 11 11
 *   (2026-11-26, PoCL); checked: at most 2 more per doubling of the grid and no more than 16 (RRB gains 3 per
 *   doubling on Poisson, issue 25; the anisotropic case's slow growth is this method's, stated in the README);
 * - mixed precision: the V-cycle in float under a double CG reaches ||b - A x||_2 <= 1e-10 ||b||_2, recomputed in
 *   double, within one iteration of the double V-cycle's count; the float V-cycle's rounding (1e-7 of z) only
 *   perturbs the directions, and CG's recurrences stay in double.
 * Usage: test_mg5 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "krylov.h"
#include "mg5.h"
#include "poisson.h"
#include "stencil5.h"
#include "../support/rrb_reference.h"
#include "../support/support.h"
#include "../support/tap.h"

enum { MAX_ITERATIONS = 500 };

typedef struct {
  Decomp *decomp;
  Operator *op;
  Vec *b, *x;
} System;

static void system_free(System *s) {
  hcl_vec_destroy(&s->b);
  hcl_vec_destroy(&s->x);
  hcl_operator_destroy(&s->op);
  hcl_decomp_destroy(&s->decomp);
}

/* The operator of st on the device, b from rhs (NULL: none), x = 0. */
static HclStatus system_create(Runtime *rt, const Stencil5 *st, const double *rhs, System *s) {
  HclStatus status = HCL_OK;
  Field *matrix[3];
  DecompSpec spec = {.nx = st->nx, .ny = st->ny};
  memset(s, 0, sizeof *s);
  TRY(hcl_decomp_create(&spec, &s->decomp));
  TRY(hcl_stencil5_create(rt, s->decomp, PRECISION_DOUBLE, &s->op));
  TRY(hcl_stencil5_fields(s->op, matrix));
  TRY(test_write_block(matrix[0], st->c, st->nx));
  TRY(test_write_block(matrix[1], st->east, st->nx));
  TRY(test_write_block(matrix[2], st->north, st->nx));
  TRY(hcl_vec_create(hcl_operator_space(s->op), "b", &s->b));
  TRY(hcl_vec_create(hcl_operator_space(s->op), "x", &s->x));
  if (rhs) {
    TRY(test_write_block(hcl_vec_field(s->b), rhs, st->nx));
  }
cleanup:
  return status;
}

/* ---- symmetry ---- */

static HclStatus random_vector(Vec *v, int n, unsigned long long seed) {
  HclStatus status = HCL_OK;
  double *values = NULL;
  TRY_ALLOC(values, n);
  for (int p = 0; p < n; p++) {
    values[p] = test_uniform(&seed) - 0.5;
  }
  TRY(hcl_field_write_owned(hcl_vec_field(v), values));
cleanup:
  free(values);
  return status;
}

/* <M^-1 u, v>, <u, M^-1 v> and <M^-1 u, u> for random u, v, and ||M^-1 u - M_l^-1 u|| / ||M^-1 u|| for the
 * level-by-level M_l (into dots[3]); the directions the levels halve into *halves (levels of them, at most 8). */
static HclStatus symmetry(Runtime *rt, const Stencil5 *st, double dots[4], int *halves, int *levels) {
  HclStatus status = HCL_OK;
  System s;
  Precond *pc = NULL, *by_level = NULL;
  Vec *mu = NULL, *mv = NULL;
  double norm = 0;
  TRY(system_create(rt, st, NULL, &s));
  TRY(hcl_operator_setup(s.op));
  TRY(hcl_mg5_precond_create(&(Mg5Options){0}, &pc));
  TRY(hcl_precond_setup(pc, s.op));
  TRY(hcl_mg5_precond_create(&(Mg5Options){.level_by_level = true}, &by_level));
  TRY(hcl_precond_setup(by_level, s.op));
  TRY(hcl_vec_create(hcl_operator_space(s.op), "M^-1 u", &mu));
  TRY(hcl_vec_create(hcl_operator_space(s.op), "M^-1 v", &mv));
  TRY(random_vector(s.b, st->nx * st->ny, 7));
  TRY(random_vector(s.x, st->nx * st->ny, 11));
  TRY(hcl_precond_apply(pc, s.b, mu));
  TRY(hcl_precond_apply(pc, s.x, mv));
  TRY(hcl_vec_dot(mu, s.x, &dots[0]));
  TRY(hcl_vec_dot(s.b, mv, &dots[1]));
  TRY(hcl_vec_dot(mu, s.b, &dots[2]));
  TRY(hcl_precond_apply(by_level, s.b, mv));
  TRY(hcl_vec_norm(mu, &norm));
  TRY(hcl_vec_axpy(mv, -1, mu));
  TRY(hcl_vec_norm(mv, &dots[3]));
  dots[3] /= norm;
  *levels = hcl_mg5_levels(pc);
  for (int l = 0; l < *levels && l < 8; l++) {
    int nx = 0, ny = 0;
    hcl_mg5_level_shape(pc, l, &nx, &ny, &halves[l]);
  }
cleanup:
  hcl_vec_destroy(&mu);
  hcl_vec_destroy(&mv);
  hcl_precond_destroy(&pc);
  hcl_precond_destroy(&by_level);
  system_free(&s);
  return status;
}

static void check_symmetry(Runtime *rt) {
  const struct {
    double ax, ay;
    int first; /* the direction the first level halves: 0 x, 1 y, -1 either */
    const char *what;
  } cases[] = {{1, 1, -1, "isotropic"}, {1, 1e-3, 0, "1000:1 stiffer in x"}, {1e-3, 1, 1, "1000:1 stiffer in y"}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    Stencil5 st;
    double dots[4] = {0, 0, 0, 1};
    int halves[8] = {0}, levels = 0;
    stencil_alloc(61, 47, &st);
    test_islands_stencil(&st, cases[k].ax, cases[k].ay, 1e-3, true, 300 + k);
    hcl_status_clear();
    HclStatus s = symmetry(rt, &st, dots, halves, &levels);
    double asymmetry = fabs(dots[0] - dots[1]) / fabs(dots[0]);
    TAP_OK(s == HCL_OK && asymmetry < 1e-12 && dots[2] > 0,
           "61 x 47 random with islands, %s: <M^-1 u, v> - <u, M^-1 v> = %.1e relative, <M^-1 u, u> = %.3g %s",
           cases[k].what, asymmetry, dots[2], hcl_status_message());
    bool rule = cases[k].first >= 0 ? halves[0] == cases[k].first && halves[1] == cases[k].first
                                    : halves[1] != halves[0] && halves[2] == halves[0];
    TAP_OK(s == HCL_OK && dots[3] < 1e-13, "%s: the coarse levels in one launch and level by level: %.1e apart",
           cases[k].what, dots[3]);
    TAP_OK(s == HCL_OK && levels > 3 && rule, "%s: %d levels, halving %c %c %c first", cases[k].what, levels,
           "xy"[halves[0]], "xy"[halves[1]], "xy"[halves[2]]);
    stencil_free(&st);
  }
}

/* ---- iterations under refinement ---- */

typedef enum { POISSON, ANISOTROPIC, TIDAL_FLAT } Problem;
static const char *const PROBLEM_NAMES[] = {"Poisson", "Poisson 1000:1 anisotropic", "tidal flat"};

/* The bed of the tidal flat at (x, y) in [0, 1]^2 (metres, up): 20 m deep offshore (x < 0.3), rising at 1:40 over a
 * 1 km wide domain to 2.5 m above the water at x = 1, with a channel 5 times deeper along y = 0.5. */
static double tidal_bed(double x, double y) {
  double bed = x < 0.3 ? -20 : -20 + (x - 0.3) * 1000 / 40;
  return fabs(y - 0.5) < 0.05 && bed < 0 ? 5 * bed : bed;
}

/* The semi-implicit pressure matrix (Stelling & Duinmeijer's, sections 6.2-6.3) on n x n cells of a 1 km square:
 * rows (1 + sum of g dt^2 H_f / dx^2) eta - sum over faces of g dt^2 H_f / dx^2 eta_nb = rhs, H_f the face's water
 * depth (0 where either side is dry: the row of a dry cell is then the identity), dt 60 s. */
static void tidal_flat(int n, Stencil5 *st, double *b) {
  double dx = 1000.0 / n, dt = 60, gdt2 = 9.81 * dt * dt / (dx * dx);
  for (int j = 0; j < n; j++) {
    for (int i = 0; i < n; i++) {
      double x = (i + 0.5) / n, y = (j + 0.5) / n, depth = fmax(0, -tidal_bed(x, y));
      double east = i + 1 < n ? fmin(depth, fmax(0, -tidal_bed(x + 1.0 / n, y))) : 0;
      double north = j + 1 < n ? fmin(depth, fmax(0, -tidal_bed(x, y + 1.0 / n))) : 0;
      st->east[j * n + i] = -gdt2 * east;
      st->north[j * n + i] = -gdt2 * north;
      b[j * n + i] = depth > 0 ? sin(6 * x) * cos(5 * y) : 0;
    }
  }
  for (int j = 0; j < n; j++) {
    for (int i = 0; i < n; i++) {
      double sum = st->east[j * n + i] + st->north[j * n + i] + (i > 0 ? st->east[j * n + i - 1] : 0) +
                   (j > 0 ? st->north[(j - 1) * n + i] : 0);
      st->c[j * n + i] = 1 - sum;
    }
  }
}

static void make_problem(Problem problem, int n, Stencil5 *st, double *b) {
  if (problem == TIDAL_FLAT) {
    tidal_flat(n, st, b);
    return;
  }
  PoissonDomain domain = hcl_poisson_domain(n, n);
  hcl_poisson_block(&domain, 0, 0, n, n, st->c, st->east, st->north, b);
  if (problem == ANISOTROPIC) { /* -(u_xx + 1e-3 u_yy) = f */
    for (int p = 0; p < n * n; p++) {
      st->c[p] = 2 + 2e-3;
      st->north[p] *= 1e-3;
    }
  }
}

/* CG with the multigrid (levels in precision levels, or the operator's), from x = 0 to rtol: its iterations and the
 * true relative residual. */
static HclStatus solve(Runtime *rt, const Stencil5 *st, const double *b, const Mg5Options *levels, double rtol,
                       int *iterations, double *true_residual) {
  HclStatus status = HCL_OK;
  System s;
  Krylov *ks = NULL;
  Precond *pc = NULL;
  KrylovResult r;
  TRY(system_create(rt, st, b, &s));
  KrylovOptions options = hcl_krylov_options_default();
  options.rtol = rtol;
  options.max_iterations = MAX_ITERATIONS;
  TRY(hcl_krylov_create(&options, &ks));
  TRY(hcl_mg5_precond_create(levels, &pc));
  hcl_krylov_set_precond(ks, pc);
  hcl_krylov_set_operator(ks, s.op);
  TRY(hcl_krylov_setup(ks));
  TRY(hcl_krylov_solve(ks, s.b, s.x, &r));
  TRY(hcl_krylov_relative_residual(ks, s.b, s.x, true_residual));
  *iterations = r.iterations;
cleanup:
  hcl_krylov_destroy(&ks);
  system_free(&s);
  return status;
}

static void check_refinement(Runtime *rt, Problem problem) {
  const int sizes[] = {63, 127, 255, 511, 1023};
  int most = 0, previous = 0;
  bool solved = true, flat = true;
  char counts[128] = "";
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    int n = sizes[k], iterations = 0;
    double residual = 1;
    Stencil5 st;
    double *b = calloc((size_t)n * n, sizeof *b);
    stencil_alloc(n, n, &st);
    make_problem(problem, n, &st, b);
    hcl_status_clear();
    HclStatus s = solve(rt, &st, b, &(Mg5Options){0}, 1e-8, &iterations, &residual);
    solved = solved && s == HCL_OK && residual <= 1e-8;
    flat = flat && (k == 0 || iterations <= previous + 2);
    previous = iterations;
    most = iterations > most ? iterations : most;
    snprintf(counts + strlen(counts), sizeof counts - strlen(counts), " %d", iterations);
    if (s != HCL_OK) {
      tap_note("%d^2: %s", n, hcl_status_message());
    }
    stencil_free(&st);
    free(b);
  }
  TAP_OK(solved && flat && most <= 16, "%s, 63^2 to 1023^2: CG iterations%s", PROBLEM_NAMES[problem], counts);
}

/* ---- mixed precision ---- */

static void check_mixed(Runtime *rt) {
  const int n = 255;
  Stencil5 st;
  double *b = calloc((size_t)n * n, sizeof *b);
  stencil_alloc(n, n, &st);
  for (Problem problem = POISSON; problem <= TIDAL_FLAT; problem++) {
    int iterations[2] = {0};
    double residual[2] = {1, 1};
    make_problem(problem, n, &st, b);
    hcl_status_clear();
    HclStatus s = solve(rt, &st, b, &(Mg5Options){0}, 1e-10, &iterations[0], &residual[0]);
    Mg5Options in_float = {.own_precision = true, .precision = PRECISION_SINGLE};
    s = s == HCL_OK ? solve(rt, &st, b, &in_float, 1e-10, &iterations[1], &residual[1]) : s;
    TAP_OK(s == HCL_OK && residual[1] <= 1e-10 && abs(iterations[1] - iterations[0]) <= 1,
           "%s %d^2, the V-cycle in float under double CG: ||b - Ax|| / ||b|| = %.2e after %d iterations (double: "
           "%.2e after %d) %s",
           PROBLEM_NAMES[problem], n, residual[1], iterations[1], residual[0], iterations[0], hcl_status_message());
  }
  stencil_free(&st);
  free(b);
}

int main(void) {
  Runtime *rt = NULL;
  HclStatus s = hcl_par_init(NULL, NULL);
  s = s == HCL_OK ? test_open_runtime(true, &rt) : s;
  if (TAP_OK(s == HCL_OK, "a device with fp64 %s", hcl_status_message())) {
    check_symmetry(rt);
    for (Problem problem = POISSON; problem <= TIDAL_FLAT; problem++) {
      check_refinement(rt, problem);
    }
    check_mixed(rt);
  }
  hcl_runtime_destroy(&rt);
  hcl_par_finalize();
  return tap_done();
}
