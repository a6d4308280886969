/* SPDX-License-Identifier: BSD-3-Clause */
/* test_laplace.c: the potential-flow Laplace solver (laplace.h) on the test device, in double unless said:
 * - a manufactured solution (tests/support/laplace_problem.h) on a non-flat surface over a non-flat bottom, between walls:
 *   the operator's truncation error and the solved Phi converge at orders 2, 4 and 6 (least-squares slope over four
 *   resolutions at least the order minus 0.2); the same problem periodic, and in mixed, single and GMRES, reaches
 *   the discretization error;
 * - linear waves over a flat bottom: w against k tanh(kh) phi for kh from 0.1 to 2 pi, the error falling with nz;
 * - multigrid quality: iterations to rtol 1e-6 from zero for a Gaussian hump at one aspect ratio from 65^2 x 9 to
 *   513^2 x 9 stay within one of each other;
 * - bad input: nz, order, restrictions, depth, a dry column at solve time, a solve that does not converge. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "laplace.h"
#include "wave_hump.h"
#include "../support/laplace_problem.h"
#include "../support/fit.h"
#include "../support/support.h"
#include "../support/tap.h"

/* The manufactured problem on n x n x n grids: a surface of 5% of the depth, a bottom varying by 10%, half a
 * wavelength of each over the 2 m between walls (k h0 = 2.2; a whole one when periodic). */
static LaplaceProblem manufactured(int n, bool periodic) {
  return (LaplaceProblem){.nx = n,
                          .ny = n,
                          .periodic = periodic,
                          .lx = 2,
                          .ly = 2,
                          .h0 = 1,
                          .a_h = 0.1,
                          .a_eta = 0.05,
                          .waves = periodic ? 2 : 1};
}

/* Solves problem p from Phi = 0 with config c; the largest error of Phi and the iterations. */
static HclStatus solve_error(Runtime *rt, const LaplaceProblem *p, LaplaceConfig c, double *error, int *iterations) {
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

static HclStatus operator_error(Runtime *rt, const LaplaceProblem *p, LaplaceConfig c, double *error) {
  HclStatus status = HCL_OK;
  LpSetup s;
  TRY(lp_setup(rt, p, c, true, &s));
  TRY(lp_truncation_error(&s, error));
cleanup:
  lp_setup_free(&s);
  return status;
}

/* A double-precision solver of the given order to a relative residual of 1e-11: the residual's rounding is 1e-16
 * of terms 1/dx^2 = 1e3 times values of 3, some 1e-13 of the solution's size. */
static LaplaceConfig precise(int order, int nz) {
  LaplaceConfig c = hcl_laplace_config_default();
  c.order = order;
  c.nz = nz;
  c.precision = LAPLACE_DOUBLE;
  c.krylov.rtol = 1e-11;
  c.krylov.atol = 0;
  return c;
}

/* Truncation error on n^3 grids, n = 17 .. 129 (the coarsest, 9^3, is short of the asymptotic range at sixth order:
 * slopes 5.2, 5.8, 5.9 from there), and the solved Phi on 9^3 .. 65^3 against the exact potential, between walls. */
static void convergence(Runtime *rt, int order) {
  enum { LEVELS = 4 };
  const int truncation_sizes[LEVELS] = {17, 33, 65, 129}, solve_sizes[LEVELS] = {9, 17, 33, 65};
  double h_truncation[LEVELS], truncation[LEVELS], h_solve[LEVELS], error[LEVELS];
  int iterations[LEVELS];
  HclStatus st = HCL_OK;
  for (int r = 0; r < LEVELS && st == HCL_OK; r++) {
    LaplaceProblem p = manufactured(truncation_sizes[r], false);
    h_truncation[r] = lp_dx(&p);
    st = operator_error(rt, &p, precise(order, truncation_sizes[r]), &truncation[r]);
    p = manufactured(solve_sizes[r], false);
    h_solve[r] = lp_dx(&p);
    if (st == HCL_OK) {
      st = solve_error(rt, &p, precise(order, solve_sizes[r]), &error[r], &iterations[r]);
    }
    if (st == HCL_OK) {
      tap_note("order %d: truncation %.3e at %d^3; solution error %.3e at %d^3 (%d iterations)", order, truncation[r],
               truncation_sizes[r], error[r], solve_sizes[r], iterations[r]);
    }
  }
  if (st != HCL_OK) {
    TAP_OK(false, "order %d manufactured solution: %s", order, hcl_status_message());
    hcl_status_clear();
    return;
  }
  double slope_truncation = test_fitted_order(h_truncation, truncation, LEVELS);
  double slope_error = test_fitted_order(h_solve, error, LEVELS);
  TAP_OK(slope_truncation >= order - 0.2, "order %d: the truncation error falls at order %.2f (%.2e at 129^3)", order,
         slope_truncation, truncation[LEVELS - 1]);
  TAP_OK(slope_error >= order - 0.2, "order %d: the solved Phi converges at order %.2f (error %.2e at 65^3)", order,
         slope_error, error[LEVELS - 1]);
}

/* Periodic sides (a whole wavelength over 2 m): the solved Phi converges at order 4 on 16^3 .. 64^3 points. */
static void periodic(Runtime *rt) {
  enum { LEVELS = 3 };
  const int sizes[LEVELS] = {16, 32, 64};
  double h[LEVELS], error[LEVELS];
  int iterations;
  HclStatus st = HCL_OK;
  for (int r = 0; r < LEVELS && st == HCL_OK; r++) {
    LaplaceProblem p = manufactured(sizes[r], true);
    h[r] = lp_dx(&p);
    st = solve_error(rt, &p, precise(4, sizes[r] + 1), &error[r], &iterations);
  }
  double slope = st == HCL_OK ? test_fitted_order(h, error, LEVELS) : 0;
  TAP_OK(st == HCL_OK && slope >= 3.8, "periodic sides, order 4: Phi converges at order %.2f (error %.2e at 64^2) %s",
         slope, error[LEVELS - 1], hcl_status_message());
  hcl_status_clear();
}

/* The same discrete problem (order 6, 33^3) solved by defect correction in double, mixed and single precision and by
 * GMRES: mixed and GMRES reach the double solution to the tolerance (rtol 1e-11 of rms(b) = 308: a residual of
 * 3e-9, times the inverse's norm below: 1.2e-9). Single precision cannot go below a residual of about
 * 1e-6 of b here (float's 6e-8 on the sum of terms 1/dx^2 Phi = 800, some 150 of them, against rms(b) = 308: the
 * residual stalls at 1.1e-6): it is solved to 5e-6, whose error on Phi is at most 6e-4 (the residual, 1.5e-3, times
 * the inverse's norm, (lx / pi)^2 = 0.4). */
static void variants(Runtime *rt) {
  LaplaceProblem p = manufactured(33, false);
  struct {
    const char *name;
    LaplacePrecision precision;
    KrylovMethod method;
    double rtol, tolerance;
  } cases[] = {{"mixed", LAPLACE_MIXED, KRYLOV_DC, 1e-11, 1e-8},
               {"GMRES(10) in double", LAPLACE_DOUBLE, KRYLOV_GMRES, 1e-11, 1e-8},
               {"GMRES(10) mixed", LAPLACE_MIXED, KRYLOV_GMRES, 1e-11, 1e-8},
               {"single", LAPLACE_SINGLE, KRYLOV_DC, 5e-6, 1e-3}};
  double reference, error;
  int iterations;
  HclStatus st = solve_error(rt, &p, precise(6, 33), &reference, &iterations);
  tap_note("double defect correction: error %.3e, %d iterations", reference, iterations);
  for (size_t v = 0; v < sizeof cases / sizeof *cases; v++) {
    LaplaceConfig c = precise(6, 33);
    c.precision = cases[v].precision;
    c.krylov.method = cases[v].method;
    c.krylov.rtol = cases[v].rtol;
    if (st == HCL_OK) {
      st = solve_error(rt, &p, c, &error, &iterations);
    }
    TAP_OK(st == HCL_OK && fabs(error - reference) <= cases[v].tolerance,
           "%s: error %.3e against double's %.3e (within %.0e) in %d iterations %s", cases[v].name, error, reference,
           cases[v].tolerance, iterations, hcl_status_message());
    hcl_status_clear();
  }
}

/* Largest |w / (k tanh(kh) phi) - 1| of a solve where |phi| is at least half its largest value. */
static HclStatus dispersion_error(Runtime *rt, double kh, int nz, LaplaceSigma sigma, double *error) {
  HclStatus status = HCL_OK;
  LpSetup s;
  LaplaceResult result;
  double *w = NULL;
  /* flat bottom h = 1, eta = 0: phi = cosh(k (z + 1)) cos(k x), one wavelength over 32 spacings of a flume */
  LaplaceProblem p = {.nx = 33, .ny = 1, .lx = 2 * LP_PI / kh, .ly = 1, .h0 = 1, .waves = 2};
  LaplaceConfig c = precise(6, nz);
  c.sigma = sigma;
  TRY(lp_setup(rt, &p, c, false, &s));
  TRY(hcl_laplace_solve(s.laplace, s.eta, s.phi, &result));
  TRY_ALLOC(w, p.nx);
  TRY(hcl_field_read_owned(hcl_laplace_w(s.laplace), w));
  double largest = 0;
  for (int i = 0; i < p.nx; i++) {
    largest = fmax(largest, fabs(s.phi_host[i]));
  }
  *error = 0;
  for (int i = 0; i < p.nx; i++) {
    if (fabs(s.phi_host[i]) >= 0.5 * largest) {
      *error = fmax(*error, fabs(w[i] / (kh * tanh(kh) * s.phi_host[i]) - 1));
    }
  }
cleanup:
  free(w);
  lp_setup_free(&s);
  return status;
}

/* Linear waves over a flat bottom (the linear dispersion relation w = k tanh(kh) phi at the surface), sixth order,
 * kh from 0.1 to 2 pi: below 2% at nz = 9 (fnpf-gpu-model section 3: "less than two percent in wave dispersion" for
 * nz near 10), and falling as nz grows from 7 to 9 to 17 until the horizontal discretization's floor (32 points per
 * wavelength at sixth order: (k dx)^6 / 560 = 1e-7 of k^2) takes over; cosine-clustered sigma reported beside. */
static void linear_waves(Runtime *rt) {
  const double khs[] = {0.1, 0.5, 1, 2, LP_PI, 2 * LP_PI};
  const int nzs[] = {7, 9, 17};
  for (size_t w = 0; w < sizeof khs / sizeof *khs; w++) {
    double error[3], clustered = 0;
    HclStatus st = HCL_OK;
    for (int n = 0; n < 3 && st == HCL_OK; n++) {
      st = dispersion_error(rt, khs[w], nzs[n], LAPLACE_SIGMA_UNIFORM, &error[n]);
    }
    if (st == HCL_OK) {
      st = dispersion_error(rt, khs[w], 9, LAPLACE_SIGMA_COSINE, &clustered);
    }
    bool falling = (error[1] < error[0] || error[0] < 1e-6) && (error[2] < error[1] || error[1] < 1e-6);
    TAP_OK(st == HCL_OK && error[1] < 0.02 && falling,
           "kh = %.2f: w against k tanh(kh) phi off by %.2e, %.2e, %.2e at nz = 7, 9, 17 (%.2e clustered at 9) %s",
           khs[w], error[0], error[1], error[2], clustered, hcl_status_message());
    hcl_status_clear();
  }
}

/* The Gaussian hump of fnpf-multigpu-scalability section 5.3 (wave_hump.h) in a closed basin of n x n x nz points,
 * spacing dx, solved once from Phi = 0. */
static HclStatus hump_solve(Runtime *rt, int n, int nz, double dx, LaplaceConfig c, LaplaceResult *result) {
  HclStatus status = HCL_OK;
  WaveHumpSolver s = {0};
  c.nz = nz;
  TRY(hcl_wave_hump_solver_open(rt, &(DecompSpec){.nx = n, .ny = n}, dx, &c, &s));
  TRY(hcl_laplace_solve(s.laplace, s.eta, s.phi, result));
cleanup:
  hcl_wave_hump_solver_close(&s);
  return status;
}

/* Grid independence: iterations to rtol 1e-6 from Phi = 0 for the hump at dx = dz = 0.125 (aspect ratio 1), sixth
 * order, mixed precision, the default V(1,1) with K max, on 65^2 .. 513^2 x 9 (the basin grows with the grid, as in
 * the paper's Table 4): all within one of each other. */
static void multigrid_quality(Runtime *rt) {
  enum { SIZES = 4 };
  const int sizes[SIZES] = {65, 129, 257, 513};
  int iterations[SIZES], fewest = 1 << 30, most = 0;
  HclStatus st = HCL_OK;
  for (int r = 0; r < SIZES && st == HCL_OK; r++) {
    LaplaceConfig c = hcl_laplace_config_default();
    c.krylov.atol = 0;
    LaplaceResult result;
    st = hump_solve(rt, sizes[r], 9, 0.125, c, &result);
    iterations[r] = result.iterations;
    fewest = iterations[r] < fewest ? iterations[r] : fewest;
    most = iterations[r] > most ? iterations[r] : most;
  }
  TAP_OK(st == HCL_OK && most - fewest <= 1,
         "multigrid: %d, %d, %d, %d iterations to 1e-6 at 65^2, 129^2, 257^2, 513^2 x 9 %s", iterations[0],
         iterations[1], iterations[2], iterations[3], hcl_status_message());
  hcl_status_clear();
}

/* The hump at n^2 x 9 solved to rtol 1e-8 with the V-cycle's coarse levels in one launch or level by level: the
 * vertical velocity at the surface, the iterations and the launches of the solve. */
static HclStatus tail_solve(Runtime *rt, int n, LaplacePrecision precision, MgTail tail, double **w,
                            LaplaceResult *result, long *launches) {
  HclStatus status = HCL_OK;
  WaveHumpSolver s = {0};
  LaplaceConfig c = hcl_laplace_config_default();
  c.precision = precision;
  c.krylov.rtol = 1e-8;
  c.krylov.atol = 0;
  c.mg.tail = tail;
  TRY(hcl_wave_hump_solver_open(rt, &(DecompSpec){.nx = n, .ny = n}, 0.125, &c, &s));
  long before = hcl_runtime_counts(rt).launches;
  TRY(hcl_laplace_solve(s.laplace, s.eta, s.phi, result));
  *launches = hcl_runtime_counts(rt).launches - before;
  TRY_ALLOC(*w, (size_t)n * n);
  TRY(hcl_field_read_owned(hcl_laplace_w(s.laplace), *w));
cleanup:
  hcl_wave_hump_solver_close(&s);
  return status;
}

/* The V-cycle's levels from 33^2 x 9 down (each at most eight columns a work-item) in one launch against the same
 * levels launched one by one, on the hump at 65^2 x 9 in double and mixed: the same arithmetic in the same order, so
 * the same iterations, fewer launches, and the same w to rounding: 1e-12 of its largest value in double and 1e-6 in
 * mixed, where a float V-cycle's result may differ in its last bits where a compiler contracts a product and a sum
 * differently in the two kernels (float's 6e-8 on each correction, a few iterations of them). */
static void one_launch_tail(Runtime *rt) {
  const int n = 65;
  const struct {
    LaplacePrecision precision;
    const char *name;
    double tolerance;
  } cases[] = {{LAPLACE_DOUBLE, "double", 1e-12}, {LAPLACE_MIXED, "mixed", 1e-6}};
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    double *w[2] = {NULL, NULL}, largest = 0, difference = 0;
    LaplaceResult result[2];
    long launches[2];
    HclStatus st = tail_solve(rt, n, cases[k].precision, MG_TAIL_ALWAYS, &w[0], &result[0], &launches[0]);
    if (st == HCL_OK) {
      st = tail_solve(rt, n, cases[k].precision, MG_TAIL_NEVER, &w[1], &result[1], &launches[1]);
    }
    for (int p = 0; st == HCL_OK && p < n * n; p++) {
      largest = fmax(largest, fabs(w[1][p]));
      difference = fmax(difference, fabs(w[0][p] - w[1][p]));
    }
    TAP_OK(st == HCL_OK && result[0].iterations == result[1].iterations && launches[0] < launches[1] &&
               difference <= cases[k].tolerance * largest,
           "%s: the coarse levels in one launch: %d iterations, %ld launches, w within %.1e of its largest against "
           "level by level's %d iterations, %ld launches %s",
           cases[k].name, result[0].iterations, launches[0], largest > 0 ? difference / largest : difference,
           result[1].iterations, launches[1], hcl_status_message());
    hcl_status_clear();
    free(w[0]);
    free(w[1]);
  }
}

/* Bad input: each refused with its own message naming the key or the place. */
static void refusals(Runtime *rt) {
  LaplaceProblem p = manufactured(17, false);
  struct {
    const char *what;
    int nz, order, levels;
    HclStatus want;
    const char *says;
  } cases[] = {{"nz = 2", 2, 2, -1, HCL_EDATA, "laplace.nz = 2"},
               {"nz = 6 at order 6", 6, 6, -1, HCL_EDATA, "more than the order"},
               {"order 5", 9, 5, -1, HCL_EDATA, "allowed are 2, 4, 6 and 8"},
               {"nz = 130", 130, 6, -1, HCL_EDATA, "at most 129 sigma points"},
               {"9 restrictions", 9, 6, 9, HCL_EDATA, "allows at most 2"}};
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    LpSetup s;
    LaplaceConfig c = precise(cases[k].order, cases[k].nz);
    c.mg.levels = cases[k].levels;
    HclStatus st = lp_setup(rt, &p, c, false, &s);
    TAP_OK(st == cases[k].want && tap_contains(hcl_status_message(), cases[k].says), "%s refused: %s", cases[k].what,
           hcl_status_message());
    hcl_status_clear();
    lp_setup_free(&s);
  }
  /* a dry point in h */
  Decomp *decomp = NULL;
  Laplace *laplace = NULL;
  DecompSpec spec = {.nx = 17, .ny = 17};
  double h[17 * 17];
  for (int k = 0; k < 17 * 17; k++) {
    h[k] = k == 5 * 17 + 3 ? 0 : 1;
  }
  LaplaceConfig c = precise(6, 9);
  c.dx = c.dy = 0.1;
  HclStatus st = hcl_decomp_create(&spec, &decomp);
  if (st == HCL_OK) {
    st = hcl_laplace_create(rt, decomp, &c, h, &laplace);
  }
  TAP_OK(st == HCL_EDATA && tap_contains(hcl_status_message(), "(3, 5)"), "a depth of 0 refused: %s",
         hcl_status_message());
  hcl_status_clear();
  hcl_laplace_destroy(&laplace);
  hcl_decomp_destroy(&decomp);
  /* a surface below the bottom at solve time, and too few iterations */
  LpSetup s;
  st = lp_setup(rt, &p, precise(6, 9), true, &s);
  LaplaceResult result;
  if (st == HCL_OK) {
    s.eta_host[40] = -2;
    st = hcl_field_write_owned(s.eta, s.eta_host);
  }
  st = st == HCL_OK ? hcl_laplace_solve(s.laplace, s.eta, s.phi, &result) : st;
  TAP_OK(st == HCL_EDATA && tap_contains(hcl_status_message(), "eta + h"), "a dry column at solve time refused: %s",
         hcl_status_message());
  hcl_status_clear();
  lp_setup_free(&s);
  c = precise(6, 9);
  c.krylov.max_iterations = 3;
  st = lp_setup(rt, &p, c, true, &s);
  st = st == HCL_OK ? hcl_laplace_solve(s.laplace, s.eta, s.phi, &result) : st;
  TAP_OK(st == HCL_ENOTCONVERGED && tap_contains(hcl_status_message(), "after 3 iterations") &&
             tap_contains(hcl_status_message(), "laplace.levels") && result.iterations == 3 && !result.converged,
         "a solve short of iterations: %s", hcl_status_message());
  hcl_status_clear();
  lp_setup_free(&s);
}

int main(void) {
  Runtime *rt = NULL;
  if (hcl_par_init(NULL, NULL) != HCL_OK || test_open_runtime(true, &rt) != HCL_OK) {
    TAP_OK(false, "a device with fp64: %s", hcl_status_message());
    return tap_done();
  }
  for (int order = 2; order <= 6; order += 2) {
    convergence(rt, order);
  }
  periodic(rt);
  variants(rt);
  linear_waves(rt);
  multigrid_quality(rt);
  one_launch_tail(rt);
  refusals(rt);
  hcl_runtime_destroy(&rt);
  hcl_par_finalize();
  return tap_done();
}
