/* SPDX-License-Identifier: BSD-3-Clause */
/* test_laplace_mapped.c: the potential-flow Laplace solver (laplace.h) on curvilinear horizontal grids (mapping.h),
 * in double on the test device:
 * - the manufactured solution of tests/support/laplace_problem.h (a non-flat surface over a non-flat bottom) on a
 *   smooth non-orthogonal, non-uniform map of the square between walls: the operator's truncation error and the
 *   solved Phi converge at orders 2, 4 and 6 (least-squares slope at least the order minus 0.3), and doubly
 *   periodic at order 4;
 * - the identity map x = i dx, y = j dy gives the Cartesian operator's residual to rounding;
 * - the defect correction's iterations with the V-cycle on the mapped grids, against the Cartesian grid's;
 * - a folded map refused, naming the point. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "laplace.h"
#include "mapping.h"
#include "../support/fit.h"
#include "../support/laplace_problem.h"
#include "../support/support.h"
#include "../support/tap.h"

/* The map of the square [0, side]^2 with grid spacing `spacing` (u = i spacing, v = j spacing):
 *   x = u + sin(2 pi u / side) (a + b cos(2 pi v / side)) side / (2 pi),
 *   y = v + sin(2 pi v / side) (a + b cos(2 pi u / side)) side / (2 pi).
 * a stretches the grid (spacing from 1 - a - b to 1 + a + b times the mean), b skews it (the grid lines cross at up to
 * asin(2b / ...) from square inside); both odd about u, v = 0 and side, so the map is its own mirror image across the
 * walls (the mirrored fields then hold exactly, as the functions are even there), it meets them at right angles, and
 * it continues periodically with period side. fold > 0 folds it: x loses its monotonicity near the middle. */
typedef struct {
  double side, spacing, a, b, fold;
} SquareMap;

static void square_point(const void *ctx, long i, long j, double *x, double *y) {
  const SquareMap *m = ctx;
  double k = 2 * LP_PI / m->side, u = i * m->spacing, v = j * m->spacing;
  *x = u + sin(k * u) * (m->a + m->b * cos(k * v)) / k -
       m->fold * exp(-pow((u - m->side / 2) / m->spacing, 2)) * m->spacing;
  *y = v + sin(k * v) * (m->a + m->b * cos(k * u)) / k;
}

/* The manufactured problem (test_laplace.c's: 2 m square, depth 1 m varying by 10%, surface 5%) on n x n points
 * mapped by map (its spacing set here); walls, or periodic with a whole wavelength across. */
static LaplaceProblem mapped_problem(int n, bool periodic, SquareMap *map, Mapping *mapping) {
  LaplaceProblem p = {.nx = n,
                      .ny = n,
                      .periodic = periodic,
                      .lx = 2,
                      .ly = 2,
                      .h0 = 1,
                      .a_h = 0.1,
                      .a_eta = 0.05,
                      .waves = periodic ? 2 : 1,
                      .map = mapping};
  map->side = 2;
  map->spacing = lp_dx(&p);
  *mapping = (Mapping){square_point, map, "the test's square map"};
  return p;
}

static LaplaceConfig precise(int order, int nz) {
  LaplaceConfig c = hcl_laplace_config_default();
  c.order = order;
  c.nz = nz;
  c.precision = LAPLACE_DOUBLE;
  c.krylov.rtol = 1e-11; /* test_laplace.c's: the residual's rounding is some 1e-13 of the solution */
  c.krylov.atol = 0;
  return c;
}

static HclStatus truncation(Runtime *rt, const LaplaceProblem *p, LaplaceConfig c, double *error) {
  HclStatus status = HCL_OK;
  LpSetup s;
  TRY(lp_setup(rt, p, c, true, &s));
  TRY(lp_truncation_error(&s, error));
cleanup:
  lp_setup_free(&s);
  return status;
}

static HclStatus solution(Runtime *rt, const LaplaceProblem *p, LaplaceConfig c, double *error, int *iterations) {
  HclStatus status = HCL_OK;
  LpSetup s;
  LaplaceResult result;
  TRY(lp_setup(rt, p, c, true, &s));
  TRY(hcl_laplace_solve(s.laplace, s.eta, s.phi, &result));
  *iterations = result.iterations;
  TRY(lp_solution_error(&s, error));
cleanup:
  lp_setup_free(&s);
  return status;
}

/* Orders on the skewed map between walls: truncation on 33^3 .. 129^3, the solution on 17^3 .. 65^3 (the coarser
 * grids of test_laplace.c's Cartesian runs are short of the asymptotic range here: 17^3 to 65^3 gives 5.60 at sixth
 * order). The bound is the order minus 0.3: the metric terms are differenced at the operator's order, and their
 * error enters the operator's at the same rate, with its own pre-asymptotic part. */
static void convergence(Runtime *rt, int order) {
  enum { LEVELS = 3 };
  const int truncation_sizes[LEVELS] = {33, 65, 129}, solve_sizes[LEVELS] = {17, 33, 65};
  double h_truncation[LEVELS], e_truncation[LEVELS], h_solve[LEVELS], e_solve[LEVELS];
  int iterations[LEVELS];
  HclStatus st = HCL_OK;
  for (int r = 0; r < LEVELS && st == HCL_OK; r++) {
    SquareMap map = {.a = 0.2, .b = 0.2};
    Mapping mapping;
    LaplaceProblem p = mapped_problem(truncation_sizes[r], false, &map, &mapping);
    h_truncation[r] = lp_dx(&p);
    st = truncation(rt, &p, precise(order, truncation_sizes[r]), &e_truncation[r]);
    p = mapped_problem(solve_sizes[r], false, &map, &mapping);
    h_solve[r] = lp_dx(&p);
    st = st == HCL_OK ? solution(rt, &p, precise(order, solve_sizes[r]), &e_solve[r], &iterations[r]) : st;
    if (st == HCL_OK) {
      tap_note("order %d: truncation %.3e at %d^3; solution error %.3e at %d^3 (%d iterations)", order, e_truncation[r],
               truncation_sizes[r], e_solve[r], solve_sizes[r], iterations[r]);
    }
  }
  if (st != HCL_OK) {
    TAP_OK(false, "order %d on the skewed map: %s", order, hcl_status_message());
    hcl_status_clear();
    return;
  }
  double slope_truncation = test_fitted_order(h_truncation, e_truncation, LEVELS);
  double slope_solution = test_fitted_order(h_solve, e_solve, LEVELS);
  TAP_OK(slope_truncation >= order - 0.3,
         "skewed map, order %d: the truncation error falls at order %.2f (%.2e at 129^3)", order, slope_truncation,
         e_truncation[LEVELS - 1]);
  TAP_OK(slope_solution >= order - 0.3, "skewed map, order %d: the solved Phi converges at order %.2f (%.2e at 65^3)",
         order, slope_solution, e_solve[LEVELS - 1]);
}

/* Doubly periodic (the map continues across the sides, a whole wavelength of every function): order 4 on 24^3 ..
 * 64^3 (16^3 is pre-asymptotic: a 20% error). */
static void periodic(Runtime *rt) {
  enum { LEVELS = 4 };
  const int sizes[LEVELS] = {24, 32, 48, 64};
  double h[LEVELS], error[LEVELS];
  int iterations;
  HclStatus st = HCL_OK;
  for (int r = 0; r < LEVELS && st == HCL_OK; r++) {
    SquareMap map = {.a = 0.2, .b = 0.2};
    Mapping mapping;
    LaplaceProblem p = mapped_problem(sizes[r], true, &map, &mapping);
    h[r] = lp_dx(&p);
    st = solution(rt, &p, precise(4, sizes[r] + 1), &error[r], &iterations);
    tap_note("periodic: error %.3e at %d^2 (%d iterations)", error[r], sizes[r], iterations);
  }
  double slope = st == HCL_OK ? test_fitted_order(h, error, LEVELS) : 0;
  TAP_OK(st == HCL_OK && slope >= 3.7, "skewed map, periodic, order 4: Phi converges at order %.2f (%.2e at 64^2) %s",
         slope, error[LEVELS - 1], hcl_status_message());
  hcl_status_clear();
}

/* The residual of the exact potential on the identity map against the Cartesian grid's: the same operator, its
 * metric terms 1/dx and 0 to rounding, so the residuals agree to rounding of terms 1/dx^2 Phi = 1e3 (33^3, 2 m):
 * 1e-10 is some 1e5 ulps of them, far below the truncation error (1e-4). */
static void identity(Runtime *rt) {
  SquareMap map = {.a = 0, .b = 0};
  Mapping mapping;
  LaplaceProblem cartesian = mapped_problem(33, false, &map, &mapping), mapped = cartesian;
  cartesian.map = NULL;
  LpSetup a = {0}, b = {0};
  size_t n = 33 * 33 * 10;
  double *ra = calloc(n, sizeof *ra), *rb = calloc(n, sizeof *rb), largest = 0, difference = 0;
  HclStatus st = ra && rb ? HCL_OK : HCL_ENOMEM;
  st = st == HCL_OK ? lp_setup(rt, &cartesian, precise(6, 9), true, &a) : st;
  st = st == HCL_OK ? lp_setup(rt, &mapped, precise(6, 9), true, &b) : st;
  for (int k = 0; k < 2 && st == HCL_OK; k++) {
    LpSetup *s = k ? &b : &a;
    st = hcl_laplace_set_potential(s->laplace, s->exact);
    st = st == HCL_OK ? hcl_laplace_compute_residual(s->laplace, s->eta, s->phi) : st;
    st = st == HCL_OK ? hcl_field_read_owned(hcl_laplace_residual(s->laplace), k ? rb : ra) : st;
  }
  for (size_t k = 0; k < n && st == HCL_OK; k++) {
    largest = fmax(largest, fabs(ra[k]));
    difference = fmax(difference, fabs(ra[k] - rb[k]));
  }
  TAP_OK(st == HCL_OK && difference < 1e-10 && largest > 1e-6,
         "the identity map's residual is the Cartesian one's: they differ by %.2e (the truncation error %.2e) %s",
         difference, largest, hcl_status_message());
  hcl_status_clear();
  lp_setup_free(&a);
  lp_setup_free(&b);
  free(ra);
  free(rb);
}

/* Iterations to rtol 1e-11 in double at 65^2 x 9, sixth order, between walls: the Cartesian grid's, the stretched
 * orthogonal map's (b = 0: the V-cycle has every metric term) within 2 of them, the skewed map's (the V-cycle
 * without 2 g12 u_xigamma, mg.h) within 3 times. */
static void iterations(Runtime *rt) {
  const double skew[3] = {-1, 0, 0.2}; /* -1: Cartesian */
  int count[3] = {0, 0, 0};
  double error;
  HclStatus st = HCL_OK;
  for (int k = 0; k < 3 && st == HCL_OK; k++) {
    SquareMap map = {.a = 0.2, .b = fmax(skew[k], 0)};
    Mapping mapping;
    LaplaceProblem p = mapped_problem(65, false, &map, &mapping);
    if (skew[k] < 0) {
      p.map = NULL;
    }
    st = solution(rt, &p, precise(6, 9), &error, &count[k]);
  }
  TAP_OK(st == HCL_OK && count[1] <= count[0] + 2 && count[2] <= 3 * count[0],
         "defect correction with the V-cycle, 65^2 x 9: %d iterations Cartesian, %d stretched, %d skewed %s", count[0],
         count[1], count[2], hcl_status_message());
  hcl_status_clear();
}

static void folded(Runtime *rt) {
  SquareMap map = {.a = 0.2, .b = 0.2, .fold = 3};
  Mapping mapping;
  LaplaceProblem p = mapped_problem(33, false, &map, &mapping);
  LpSetup s;
  HclStatus st = lp_setup(rt, &p, precise(4, 9), true, &s);
  TAP_OK(st == HCL_EDATA && tap_contains(hcl_status_message(), "the test's square map: the map folds") &&
             tap_contains(hcl_status_message(), "at point ("),
         "a folded map refused: %s", hcl_status_message());
  hcl_status_clear();
  lp_setup_free(&s);
}

int main(void) {
  Runtime *rt = NULL;
  if (hcl_par_init(NULL, NULL) != HCL_OK || test_open_runtime(true, &rt) != HCL_OK) {
    TAP_OK(false, "a device with fp64: %s", hcl_status_message());
    return tap_done();
  }
  identity(rt);
  for (int order = 2; order <= 6; order += 2) {
    convergence(rt, order);
  }
  periodic(rt);
  iterations(rt);
  folded(rt);
  hcl_runtime_destroy(&rt);
  hcl_par_finalize();
  return tap_done();
}
