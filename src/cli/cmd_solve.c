/* cmd_solve.c: `hydrocl solve-poisson --n N [--preconditioner rrb|jacobi|plain] [--tolerance T] [--rrb-levels K]
 * [--rrb-exact N]`: the RRB paper's model problem
 * (poisson.h) solved on the device from x = 0 (pcg.h), with the iterations, residuals, time and error against the
 * exact solution printed. The check a user runs on a new machine, and the solver's benchmark problem. */
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "par.h"
#include "pcg.h"
#include "poisson.h"

/* The model problem's matrix and right-hand side in this rank's block of the fields. */
static HclStatus assemble(int n, const Decomp *decomp, Field *const matrix[3], Field *rhs) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = decomp_local(decomp);
  size_t count = (size_t)l->nx * l->ny;
  double *values = NULL;
  TRY_ALLOC(values, 4 * count);
  poisson_block(n, l->x0, l->y0, l->nx, l->ny, values, values + count, values + 2 * count, values + 3 * count);
  for (int f = 0; f < 3; f++) {
    TRY(field_write_owned(matrix[f], values + f * count));
  }
  TRY(field_write_owned(rhs, values + 3 * count));
cleanup:
  free(values);
  return status;
}

/* Rank 0: the largest and the root-mean-square difference of the gathered solution from the exact one. */
static void solution_error(int n, const double *x, double *max_error, double *rms_error) {
  double h = 1.0 / (n + 1), sum = 0;
  *max_error = 0;
  for (int j = 0; j < n; j++) {
    for (int i = 0; i < n; i++) {
      double e = fabs(x[(size_t)j * n + i] - poisson_exact((i + 1) * h, (j + 1) * h));
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

/* One iteration, untimed, then x = 0 again: the first launch of each kernel compiles it on some platforms (PoCL for
 * each launch shape), which is not the solve's time. */
static HclStatus warm_up(Pcg *pcg, Field *rhs, Field *x, PcgResult *result) {
  HclStatus status = HCL_OK;
  double *zeros = NULL;
  TRY_ALLOC(zeros, (size_t)field_nx(x) * field_ny(x));
  TRY(pcg_solve(pcg, rhs, x, 0, 1, result));
  TRY(field_write_owned(x, zeros));
  TRY(runtime_finish(field_runtime(x)));
cleanup:
  free(zeros);
  return status;
}

HclStatus cmd_solve_poisson(const CliOptions *o) {
  HclStatus status = HCL_OK;
  Runtime *rt = NULL;
  Decomp *decomp = NULL;
  Pcg *pcg = NULL;
  Field *rhs = NULL, *x = NULL, *matrix[3];
  double *solution = NULL;
  TRY(cli_require_only(o, OPT_DEVICE | OPT_KERNEL_DIR | OPT_PROFILE | OPT_PRECISION | OPT_N | OPT_PRECONDITIONER |
                              OPT_TOLERANCE | OPT_NORM | OPT_RRB_LEVELS | OPT_RRB_EXACT));
  REQUIRE(o->nargs == 0, HCL_EUSAGE, "'hydrocl solve-poisson' takes no arguments, only options (--n N)");
  REQUIRE(o->n > 0, HCL_EUSAGE, "'hydrocl solve-poisson' needs --n N, the interior points per side");
  DeviceNeeds needs = {.fp64 = o->precision == PRECISION_DOUBLE};
  TRY(cli_open_runtime(o, &needs, &rt));
  DecompSpec spec = {.nx = o->n, .ny = o->n};
  TRY(decomp_create(&spec, &decomp));
  PcgOptions options = {.preconditioner = strcmp(o->preconditioner, "rrb") == 0      ? PCG_RRB
                                          : strcmp(o->preconditioner, "jacobi") == 0 ? PCG_JACOBI
                                                                                     : PCG_PLAIN,
                        .rrb = {.levels = o->rrb_levels, .exact_nodes = o->rrb_exact}};
  TRY(pcg_create(rt, decomp, o->precision, &options, &pcg));
  pcg_set_norm(pcg, strcmp(o->norm, "m") == 0 ? PCG_NORM_M : PCG_NORM_2);
  FieldSpec fs = {.name = "rhs", .nz = 1, .ghost = 1, .precision = o->precision};
  TRY(field_create(rt, decomp, &fs, &rhs));
  fs.name = "solution";
  TRY(field_create(rt, decomp, &fs, &x));
  pcg_matrix(pcg, matrix);
  TRY(assemble(o->n, decomp, matrix, rhs));
  TRY(pcg_set_matrix(pcg));
  PcgResult result;
  TRY(warm_up(pcg, rhs, x, &result));
  double start = wall_seconds();
  TRY(pcg_solve(pcg, rhs, x, o->tolerance, 100000, &result));
  TRY(runtime_finish(rt));
  double seconds = wall_seconds() - start;
  if (par_rank() == 0) {
    TRY_ALLOC(solution, (size_t)o->n * o->n);
  }
  TRY(field_gather(x, solution));
  if (par_rank() == 0) {
    double max_error = 0, rms_error = 0;
    solution_error(o->n, solution, &max_error, &rms_error);
    printf("model problem: -Laplace u = f on the unit square, u = x(x-1)y(y-1)exp(xy), %d x %d interior points "
           "(h = %.6g), %s, %s CG, %d rank%s\n",
           o->n, o->n, 1.0 / (o->n + 1), precision_name(o->precision), o->preconditioner, par_size(),
           par_size() > 1 ? "s" : "");
    if (options.preconditioner == PCG_RRB) {
      int eliminated = 0, side = o->n;
      TRY(rrb_depth_levels(o->n, o->n, options.rrb, &eliminated));
      for (int e = 0; e < eliminated; e++) {
        side = (side + 1) / 2;
      }
      printf("preconditioner: RRB-%d, the last level of %d x %d nodes factorized exactly\n", eliminated + 1, side,
             side);
    }
    printf("iterations: %d (%s)\n", result.iterations, result.converged ? "converged" : "NOT converged");
    printf("residual: initial %.6e, final %.6e, final / initial %.3e (stopped at %.3g of %s)\n",
           result.initial_residual, result.final_residual, result.final_residual / result.initial_residual,
           o->tolerance, strcmp(o->norm, "m") == 0 ? "the first ||r||_M^-1" : "||b||");
    printf("error: max %.6e, rms %.6e against the exact solution\n", max_error, rms_error);
    printf("time: %.6f s for the solve\n", seconds);
  }
  TRY(runtime_profile_report(rt, stderr));
  REQUIRE(result.converged, HCL_EDATA, "conjugate gradients did not reach %g in %d iterations", o->tolerance,
          result.iterations);
cleanup:
  free(solution);
  field_destroy(&x);
  field_destroy(&rhs);
  pcg_destroy(&pcg);
  decomp_destroy(&decomp);
  runtime_destroy(&rt);
  return status;
}
