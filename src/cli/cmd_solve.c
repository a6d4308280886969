/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_solve.c: `hydrocl solve-poisson --n N [--method cg|gmres|dc|pipecg] [--preconditioner P]
 * [--precision single|double|mixed] [--tolerance T] [--norm 2|m] [--rrb-levels K] [--rrb-exact N]`: the RRB paper's
 * model problem (poisson.h) solved on the device from x = 0 (the 5-point operator of stencil5.h, a Krylov method of
 * krylov.h; mixed: CG in double, the preconditioner in float), with the iterations, the true residuals, time and
 * error against the exact solution printed. The check a user runs on a new machine, and the
 * solver's benchmark problem. */
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "krylov.h"
#include "par.h"
#include "poisson.h"
#include "rrb_precond.h"
#include "stencil5.h"
#include "stencil5_precond.h"

/* The model problem's matrix and right-hand side in this rank's block of the fields. */
static HclStatus assemble(const PoissonDomain *domain, const Decomp *decomp, Field *const matrix[3], Field *rhs) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = hcl_decomp_local(decomp);
  size_t count = (size_t)l->nx * l->ny;
  double *values = NULL;
  TRY_ALLOC(values, 4 * count);
  hcl_poisson_block(domain, l->x0, l->y0, l->nx, l->ny, values, values + count, values + 2 * count, values + 3 * count);
  for (int f = 0; f < 3; f++) {
    TRY(hcl_field_write_owned(matrix[f], values + f * count));
  }
  TRY(hcl_field_write_owned(rhs, values + 3 * count));
cleanup:
  free(values);
  return status;
}

/* Rank 0: the largest and the root-mean-square difference of the gathered solution from the exact one. */
static void solution_error(const PoissonDomain *domain, const double *x, double *max_error, double *rms_error) {
  int n = domain->nx;
  double h = domain->h, sum = 0;
  *max_error = 0;
  for (int j = 0; j < n; j++) {
    for (int i = 0; i < n; i++) {
      double e = fabs(x[(size_t)j * n + i] - hcl_poisson_exact(domain, (i + 1) * h, (j + 1) * h));
      *max_error = fmax(*max_error, e);
      sum += e * e;
    }
  }
  *rms_error = sqrt(sum / ((double)n * n));
}

static double wall_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The solver the options ask for: the method, the preconditioner and the stopping rule. */
static HclStatus make_solver(const CliOptions *o, int max_iterations, Krylov **out) {
  HclStatus status = HCL_OK;
  Precond *pc = NULL;
  KrylovOptions options = hcl_krylov_options_default();
  ASSERT(hcl_krylov_method_parse(o->method, &options.method)); /* options.c took only these names */
  options.norm = strcmp(o->norm, "m") == 0 ? KRYLOV_NORM_M : KRYLOV_NORM_2;
  options.rtol = o->tolerance;
  options.max_iterations = max_iterations;
  options.prefix = "--";
  const Stencil5PrecondKind *kind = hcl_stencil5_precond_find(o->preconditioner);
  ASSERT(kind != NULL); /* options.c took only registered names */
  Stencil5PrecondSettings settings = {.in_float = (o->given & OPT_MIXED) != 0,
                                      .rrb = {.levels = o->rrb_levels, .exact_nodes = o->rrb_exact}};
  REQUIRE(!settings.in_float || kind->float_form, HCL_EUSAGE,
          "--precision mixed applies the preconditioner in float: use --preconditioner %s (%s has no float form for "
          "a double system)",
          hcl_stencil5_precond_names(true), o->preconditioner);
  TRY(kind->create(&settings, &pc));
  TRY(hcl_krylov_create(&options, out));
  hcl_krylov_set_precond(*out, pc);
  pc = NULL;
cleanup:
  hcl_precond_destroy(&pc);
  return status;
}

/* One iteration, untimed: the first launch of each kernel compiles it on some platforms (PoCL for each launch
 * shape), which is not the solve's time. x is zero again afterwards. */
static HclStatus warm_up(Krylov *ks, Vec *b, Vec *x) {
  HclStatus status = HCL_OK;
  KrylovResult result;
  KrylovOptions options = *hcl_krylov_options(ks);
  TRY(hcl_krylov_set_tolerances(ks, options.rtol, options.atol, 1));
  HclStatus solved = hcl_krylov_solve(ks, b, x, &result);
  if (solved == HCL_ENOTCONVERGED) { /* one iteration seldom converges */
    hcl_status_clear();
    solved = HCL_OK;
  }
  TRY(solved);
  TRY(hcl_krylov_set_tolerances(ks, options.rtol, options.atol, options.max_iterations));
  TRY(hcl_vec_set(x, 0));
  TRY(hcl_runtime_finish(hcl_vspace_runtime(hcl_vec_space(x))));
cleanup:
  return status;
}

HclStatus cmd_solve_poisson(const CliOptions *o) {
  HclStatus status = HCL_OK;
  Runtime *rt = NULL;
  Decomp *decomp = NULL;
  Operator *op = NULL;
  Krylov *ks = NULL;
  Field *rhs = NULL, *x = NULL, *matrix[3];
  Vec *b_vec = NULL, *x_vec = NULL;
  double *solution = NULL, initial = 0, final = 0;
  TRY(cli_require_only(o, OPT_DEVICE | OPT_KERNEL_DIR | OPT_PROFILE | OPT_PRECISION | OPT_MIXED | OPT_N |
                              OPT_PRECONDITIONER | OPT_TOLERANCE | OPT_NORM | OPT_RRB_LEVELS | OPT_RRB_EXACT |
                              OPT_METHOD));
  REQUIRE(o->nargs == 0, HCL_EUSAGE, "'hydrocl solve-poisson' takes no arguments, only options (--n N)");
  REQUIRE(o->n > 0, HCL_EUSAGE, "'hydrocl solve-poisson' needs --n N, the interior points per side");
  DeviceNeeds needs = {.fp64 = o->precision == PRECISION_DOUBLE};
  TRY(cli_open_runtime(o, &needs, &rt));
  PoissonDomain domain = hcl_poisson_domain(o->n, o->n);
  DecompSpec spec = {.nx = o->n, .ny = o->n};
  TRY(hcl_decomp_create(&spec, &decomp));
  TRY(hcl_stencil5_create(rt, decomp, o->precision, &op));
  TRY(make_solver(o, 100000, &ks));
  hcl_krylov_set_operator(ks, op);
  FieldSpec fs = {.name = "rhs", .nz = 1, .ghost = 1, .precision = o->precision};
  TRY(hcl_field_create(rt, decomp, &fs, &rhs));
  fs.name = "solution";
  TRY(hcl_field_create(rt, decomp, &fs, &x));
  TRY(hcl_vec_wrap_field(hcl_operator_space(op), rhs, &b_vec));
  TRY(hcl_vec_wrap_field(hcl_operator_space(op), x, &x_vec));
  TRY(hcl_stencil5_fields(op, matrix));
  TRY(assemble(&domain, decomp, matrix, rhs));
  TRY(hcl_krylov_setup(ks));
  TRY(warm_up(ks, b_vec, x_vec));
  TRY(hcl_krylov_true_residual(ks, b_vec, x_vec, &initial));
  KrylovResult result;
  double start = wall_seconds();
  HclStatus solved = hcl_krylov_solve(ks, b_vec, x_vec, &result);
  TRY(hcl_runtime_finish(rt));
  double seconds = wall_seconds() - start;
  if (solved == HCL_ENOTCONVERGED) { /* reported below, after the figures */
    hcl_status_clear();
    solved = HCL_OK;
  }
  TRY(solved);
  TRY(hcl_krylov_true_residual(ks, b_vec, x_vec, &final));
  if (hcl_par_rank() == 0) {
    TRY_ALLOC(solution, (size_t)o->n * o->n);
  }
  TRY(hcl_field_gather(x, solution));
  if (hcl_par_rank() == 0) {
    double max_error = 0, rms_error = 0;
    solution_error(&domain, solution, &max_error, &rms_error);
    printf("model problem: -Laplace u = f on the unit square, u = x(x-1)y(y-1)exp(xy), %d x %d interior points "
           "(h = %.6g), %s, %s %s, %d rank%s\n",
           o->n, o->n, 1.0 / (o->n + 1), hcl_precision_name(o->precision), o->preconditioner,
           hcl_krylov_method_title(hcl_krylov_options(ks)->method), hcl_par_size(), hcl_par_size() > 1 ? "s" : "");
    if (strcmp(o->preconditioner, "rrb") == 0) {
      int eliminated = 0, side = o->n;
      RrbDepth depth =
          hcl_rrb_depth_on(rt, o->precision, (RrbDepth){.levels = o->rrb_levels, .exact_nodes = o->rrb_exact});
      TRY(hcl_rrb_depth_levels(o->n, o->n, depth, &eliminated));
      for (int e = 0; e < eliminated; e++) {
        side = (side + 1) / 2;
      }
      printf("preconditioner: RRB-%d, the last level of %d x %d nodes factorized exactly\n", eliminated + 1, side,
             side);
    }
    printf("iterations: %d (%s)\n", result.iterations, result.converged ? "converged" : "NOT converged");
    printf("residual: initial %.6e, final %.6e, final / initial %.3e (stopped at %.3g of %s)\n", initial, final,
           final / initial, o->tolerance, strcmp(o->norm, "m") == 0 ? "the first ||r||_M^-1" : "||b||");
    printf("error: max %.6e, rms %.6e against the exact solution\n", max_error, rms_error);
    printf("time: %.6f s for the solve\n", seconds);
  }
  TRY(hcl_runtime_profile_report(rt, stderr));
  REQUIRE(result.converged, HCL_EDATA, "%s did not reach %g in %d iterations", o->method, o->tolerance,
          result.iterations);
cleanup:
  free(solution);
  hcl_vec_destroy(&b_vec);
  hcl_vec_destroy(&x_vec);
  hcl_field_destroy(&x);
  hcl_field_destroy(&rhs);
  hcl_krylov_destroy(&ks);
  hcl_operator_destroy(&op);
  hcl_decomp_destroy(&decomp);
  hcl_runtime_destroy(&rt);
  return status;
}
