/* SPDX-License-Identifier: BSD-3-Clause */
/* peers.c: `hydrocl bench poisson-peers`: the RRB paper's model problem (poisson.h) solved to the same criterion,
 * ||b - A x||_2 <= 1e-5 ||b||_2 from x = 0, by hydrocl's CG with RRB and with the multigrid of mg5.h, each in double
 * and in float under double CG (mixed), and, in the same process on the same ranks, by hypre's PFMG- and
 * SMG-preconditioned CG (Struct interface; -Dhypre, Debian's and Ubuntu's libhypre-dev; without it they are
 * reported skipped). Every line: iterations, set-up seconds (hydrocl's second set-up, as after a model's assembly:
 * the first builds its programs), the median of 5 solves' seconds (after a warm-up solve;
 * each from x = 0, the slowest rank's), the true relative residual recomputed in double and the largest error
 * against the exact solution. hypre's solvers as its struct driver sets them (make_hypre_precond). The hydrocl lines also give CG's own minimal traffic (8 double arrays an iteration) as a
 * fraction of the copy rate measured in the run: a floor of the rate, not a model of the preconditioner's. */
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "krylov.h"
#include "mg5.h"
#include "par.h"
#include "poisson.h"
#include "rrb_precond.h"
#include "stencil5.h"

#ifdef HYDROCL_HAVE_HYPRE
#include "HYPRE_struct_ls.h"
#endif

static const double RTOL = 1e-5;
enum { MAX_ITERATIONS = 1000, REPEATS = 5 };

static double wall_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* This rank's block of the model problem: its decomposition's block, the matrix, b and the exact solution. */
typedef struct {
  int n, x0, y0, nx, ny;
  double *centre, *east, *north, *rhs, *exact;
} Block;

static void block_free(Block *b) {
  free(b->centre);
  free(b->exact);
}

static HclStatus block_make(const Decomp *decomp, int n, Block *b) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = hcl_decomp_local(decomp);
  PoissonDomain domain = hcl_poisson_domain(n, n);
  size_t count = (size_t)l->nx * l->ny;
  *b = (Block){n, l->x0, l->y0, l->nx, l->ny, NULL, NULL, NULL, NULL, NULL};
  TRY_ALLOC(b->centre, 4 * count);
  TRY_ALLOC(b->exact, count);
  b->east = b->centre + count;
  b->north = b->east + count;
  b->rhs = b->north + count;
  hcl_poisson_block(&domain, l->x0, l->y0, l->nx, l->ny, b->centre, b->east, b->north, b->rhs);
  for (int j = 0; j < l->ny; j++) {
    for (int i = 0; i < l->nx; i++) {
      b->exact[(size_t)j * l->nx + i] =
          hcl_poisson_exact(&domain, (l->x0 + i + 1) * domain.h, (l->y0 + j + 1) * domain.h);
    }
  }
cleanup:
  return status;
}

/* The largest |x - exact| over all ranks. */
static HclStatus max_error(const Block *b, const double *x, double *error) {
  *error = 0;
  for (size_t p = 0; p < (size_t)b->nx * b->ny; p++) {
    *error = fmax(*error, fabs(x[p] - b->exact[p]));
  }
  return hcl_par_max_double(error);
}

typedef struct {
  const char *solver;
  int iterations;
  double setup, solve, residual, error, gbs, fraction_of_copy;
} Outcome;

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The median of REPEATS times, the slowest rank's each. */
static HclStatus median_time(double *times, double *median) {
  HclStatus status = HCL_OK;
  for (int k = 0; k < REPEATS; k++) {
    TRY(hcl_par_max_double(&times[k]));
  }
  qsort(times, REPEATS, sizeof *times, by_value);
  *median = times[REPEATS / 2];
cleanup:
  return status;
}

static void print_outcome(const BenchRequest *request, int n, Precision precision, const Outcome *o) {
  if (hcl_par_rank() != 0) {
    return;
  }
  JsonObject j;
  bench_json_begin(&j, request, "poisson-peers", o->solver, precision);
  hcl_json_integer(&j, "n", n);
  hcl_json_integer(&j, "size", n);
  hcl_json_integer(&j, "ranks", hcl_par_size());
  hcl_json_number(&j, "rtol_2norm", RTOL);
  hcl_json_integer(&j, "iterations", o->iterations);
  hcl_json_number(&j, "setup_s", o->setup);
  hcl_json_number(&j, "solve_s", o->solve);
  hcl_json_number(&j, "seconds", o->solve);
  hcl_json_number(&j, "true_relative_residual", o->residual);
  hcl_json_number(&j, "max_error", o->error);
  if (o->fraction_of_copy > 0) { /* CG's own minimal traffic: a floor of the rate, not a model of the V-cycle's */
    hcl_json_number(&j, "gbs", o->gbs);
    hcl_json_number(&j, "fraction_of_copy", o->fraction_of_copy);
  }
  hcl_json_print(&j, request->out);
}

/* ---- hydrocl ---- */

typedef enum { OURS_RRB, OURS_RRB_MIXED, OURS_MG, OURS_MG_MIXED, OURS } Ours;
static const char *const OURS_NAMES[OURS] = {"hydrocl_rrb_cg", "hydrocl_rrb_cg_mixed", "hydrocl_mg_cg",
                                             "hydrocl_mg_cg_mixed"};

static HclStatus make_precond(Ours which, Precond **pc) {
  switch (which) {
  case OURS_RRB:
    return hcl_rrb_precond_create(RRB_DEPTH_DEFAULT, pc);
  case OURS_RRB_MIXED:
    return hcl_rrb_precond_create_mixed(RRB_DEPTH_DEFAULT, pc);
  case OURS_MG:
    return hcl_mg5_precond_create(&(Mg5Options){0}, pc);
  default:
    return hcl_mg5_precond_create(&(Mg5Options){.own_precision = true, .precision = PRECISION_SINGLE}, pc);
  }
}

/* One hydrocl solve, set up and solved twice (the second timed). */
static HclStatus solve_ours(const BenchRequest *request, const Decomp *decomp, const Block *block, Ours which,
                            double copy_gbs, Outcome *o) {
  HclStatus status = HCL_OK;
  Runtime *rt = request->rt;
  Operator *op = NULL;
  Krylov *ks = NULL;
  Precond *pc = NULL;
  Vec *b = NULL, *x = NULL;
  Field *matrix[3];
  double *solution = NULL;
  TRY(hcl_stencil5_create(rt, decomp, PRECISION_DOUBLE, &op));
  TRY(hcl_stencil5_fields(op, matrix));
  double *values[3] = {block->centre, block->east, block->north};
  for (int f = 0; f < 3; f++) {
    TRY(hcl_field_write_owned(matrix[f], values[f]));
  }
  TRY(hcl_vec_create(hcl_operator_space(op), "bench b", &b));
  TRY(hcl_vec_create(hcl_operator_space(op), "bench x", &x));
  TRY(hcl_field_write_owned(hcl_vec_field(b), block->rhs));
  KrylovOptions options = hcl_krylov_options_default();
  options.rtol = RTOL;
  options.max_iterations = MAX_ITERATIONS;
  TRY(hcl_krylov_create(&options, &ks));
  TRY(make_precond(which, &pc));
  hcl_krylov_set_precond(ks, pc);
  hcl_krylov_set_operator(ks, op);
  KrylovResult result;
  TRY(hcl_krylov_setup(ks)); /* the first builds the programs: a run's start, not a time step's set-up */
  TRY(hcl_runtime_finish(rt));
  double times[REPEATS], start = wall_seconds();
  TRY(hcl_krylov_setup(ks));
  TRY(hcl_runtime_finish(rt));
  *o = (Outcome){.solver = OURS_NAMES[which], .setup = wall_seconds() - start};
  TRY(hcl_par_max_double(&o->setup));
  for (int run = -1; run < REPEATS; run++) { /* a warm-up solve, then the timed ones */
    TRY(hcl_vec_set(x, 0));
    TRY(hcl_runtime_finish(rt));
    TRY(hcl_par_barrier());
    start = wall_seconds();
    TRY(hcl_krylov_solve(ks, b, x, &result));
    TRY(hcl_runtime_finish(rt));
    if (run >= 0) {
      times[run] = wall_seconds() - start;
    }
  }
  o->iterations = result.iterations;
  TRY(median_time(times, &o->solve));
  TRY(hcl_krylov_relative_residual(ks, b, x, &o->residual));
  TRY_ALLOC(solution, (size_t)block->nx * block->ny);
  TRY(hcl_field_read_owned(hcl_vec_field(x), solution));
  TRY(max_error(block, solution, &o->error));
  double bytes = 8.0 * 8 * (double)block->n * block->n * o->iterations;
  o->gbs = bytes / o->solve / 1e9;
  o->fraction_of_copy = o->gbs / copy_gbs;
cleanup:
  free(solution);
  hcl_vec_destroy(&b);
  hcl_vec_destroy(&x);
  hcl_krylov_destroy(&ks);
  hcl_operator_destroy(&op);
  return status;
}

/* ---- hypre ---- */

#ifdef HYDROCL_HAVE_HYPRE
typedef enum { HYPRE_PFMG, HYPRE_SMG } HypreMg;

#define HYPRE_TRY(call)                                                                                                \
  do {                                                                                                                 \
    HYPRE_Int hypre_error = (call);                                                                                    \
    REQUIRE(hypre_error == 0, HCL_EINTERNAL, "hypre: %s failed with error %d", #call, (int)hypre_error);               \
  } while (0)

/* The block's 5-point matrix in hypre's order: centre, west, east, south, north (west and south are the
 * neighbours' east and north couplings: the same operator). */
static HclStatus hypre_values(const Block *b, double **out) {
  HclStatus status = HCL_OK;
  size_t count = (size_t)b->nx * b->ny;
  double *v = NULL;
  TRY_ALLOC(v, 5 * count);
  for (int j = 0; j < b->ny; j++) {
    for (int i = 0; i < b->nx; i++) {
      size_t p = (size_t)j * b->nx + i;
      int gi = b->x0 + i, gj = b->y0 + j;
      v[5 * p] = b->centre[p];
      v[5 * p + 1] = gi > 0 ? -1 : 0; /* the model problem's couplings: -1 between interior points */
      v[5 * p + 2] = b->east[p];
      v[5 * p + 3] = gj > 0 ? -1 : 0;
      v[5 * p + 4] = b->north[p];
    }
  }
  *out = v;
cleanup:
  return status;
}

/* hypre's multigrid as PCG's preconditioner: one V-cycle from zero, as its struct driver sets it (PFMG: weighted
 * Jacobi, one sweep each way, skipped relaxation; SMG: one sweep each way). */
static HclStatus make_hypre_precond(HypreMg which, HYPRE_StructSolver pcg, HYPRE_StructSolver *mg) {
  HclStatus status = HCL_OK;
  MPI_Comm comm = hcl_par_comm_world();
  if (which == HYPRE_PFMG) {
    HYPRE_TRY(HYPRE_StructPFMGCreate(comm, mg));
    HYPRE_TRY(HYPRE_StructPFMGSetMaxIter(*mg, 1));
    HYPRE_TRY(HYPRE_StructPFMGSetTol(*mg, 0));
    HYPRE_TRY(HYPRE_StructPFMGSetZeroGuess(*mg));
    HYPRE_TRY(HYPRE_StructPFMGSetRelaxType(*mg, 1));
    HYPRE_TRY(HYPRE_StructPFMGSetNumPreRelax(*mg, 1));
    HYPRE_TRY(HYPRE_StructPFMGSetNumPostRelax(*mg, 1));
    HYPRE_TRY(HYPRE_StructPFMGSetSkipRelax(*mg, 1));
    HYPRE_TRY(HYPRE_StructPCGSetPrecond(pcg, HYPRE_StructPFMGSolve, HYPRE_StructPFMGSetup, *mg));
  } else {
    HYPRE_TRY(HYPRE_StructSMGCreate(comm, mg));
    HYPRE_TRY(HYPRE_StructSMGSetMemoryUse(*mg, 0));
    HYPRE_TRY(HYPRE_StructSMGSetMaxIter(*mg, 1));
    HYPRE_TRY(HYPRE_StructSMGSetTol(*mg, 0));
    HYPRE_TRY(HYPRE_StructSMGSetZeroGuess(*mg));
    HYPRE_TRY(HYPRE_StructSMGSetNumPreRelax(*mg, 1));
    HYPRE_TRY(HYPRE_StructSMGSetNumPostRelax(*mg, 1));
    HYPRE_TRY(HYPRE_StructPCGSetPrecond(pcg, HYPRE_StructSMGSolve, HYPRE_StructSMGSetup, *mg));
  }
cleanup:
  return status;
}

static HclStatus solve_hypre(const Block *b, HypreMg which, Outcome *o) {
  HclStatus status = HCL_OK;
  MPI_Comm comm = hcl_par_comm_world();
  HYPRE_StructGrid grid = NULL;
  HYPRE_StructStencil stencil = NULL;
  HYPRE_StructMatrix A = NULL;
  HYPRE_StructVector rhs = NULL, x = NULL;
  HYPRE_StructSolver pcg = NULL, mg = NULL;
  double *values = NULL, *solution = NULL;
  HYPRE_Int lower[2] = {b->x0, b->y0}, upper[2] = {b->x0 + b->nx - 1, b->y0 + b->ny - 1};
  HYPRE_Int offsets[5][2] = {{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}}, entries[5] = {0, 1, 2, 3, 4};
  TRY(hypre_values(b, &values));
  TRY_ALLOC(solution, (size_t)b->nx * b->ny);
  HYPRE_TRY(HYPRE_StructGridCreate(comm, 2, &grid));
  HYPRE_TRY(HYPRE_StructGridSetExtents(grid, lower, upper));
  HYPRE_TRY(HYPRE_StructGridAssemble(grid));
  HYPRE_TRY(HYPRE_StructStencilCreate(2, 5, &stencil));
  for (int e = 0; e < 5; e++) {
    HYPRE_TRY(HYPRE_StructStencilSetElement(stencil, e, offsets[e]));
  }
  HYPRE_TRY(HYPRE_StructMatrixCreate(comm, grid, stencil, &A));
  HYPRE_TRY(HYPRE_StructMatrixInitialize(A));
  HYPRE_TRY(HYPRE_StructMatrixSetBoxValues(A, lower, upper, 5, entries, values));
  HYPRE_TRY(HYPRE_StructMatrixAssemble(A));
  HYPRE_TRY(HYPRE_StructVectorCreate(comm, grid, &rhs));
  HYPRE_TRY(HYPRE_StructVectorCreate(comm, grid, &x));
  HYPRE_TRY(HYPRE_StructVectorInitialize(rhs));
  HYPRE_TRY(HYPRE_StructVectorInitialize(x));
  HYPRE_TRY(HYPRE_StructVectorSetBoxValues(rhs, lower, upper, b->rhs));
  HYPRE_TRY(HYPRE_StructVectorAssemble(rhs));
  HYPRE_TRY(HYPRE_StructVectorAssemble(x));
  HYPRE_TRY(HYPRE_StructPCGCreate(comm, &pcg));
  HYPRE_TRY(HYPRE_StructPCGSetTol(pcg, RTOL));
  HYPRE_TRY(HYPRE_StructPCGSetTwoNorm(pcg, 1));
  HYPRE_TRY(HYPRE_StructPCGSetMaxIter(pcg, MAX_ITERATIONS));
  TRY(make_hypre_precond(which, pcg, &mg));
  TRY(hcl_par_barrier());
  double times[REPEATS], start = wall_seconds();
  HYPRE_TRY(HYPRE_StructPCGSetup(pcg, A, rhs, x));
  *o = (Outcome){.solver = which == HYPRE_PFMG ? "hypre_pfmg_pcg" : "hypre_smg_pcg", .setup = wall_seconds() - start};
  TRY(hcl_par_max_double(&o->setup));
  for (int run = -1; run < REPEATS; run++) {
    HYPRE_TRY(HYPRE_StructVectorSetConstantValues(x, 0));
    TRY(hcl_par_barrier());
    start = wall_seconds();
    HYPRE_TRY(HYPRE_StructPCGSolve(pcg, A, rhs, x));
    if (run >= 0) {
      times[run] = wall_seconds() - start;
    }
  }
  HYPRE_Int iterations = 0;
  HYPRE_TRY(HYPRE_StructPCGGetNumIterations(pcg, &iterations));
  o->iterations = (int)iterations;
  TRY(median_time(times, &o->solve));
  HYPRE_TRY(HYPRE_StructVectorGetBoxValues(x, lower, upper, solution));
  TRY(max_error(b, solution, &o->error));
  /* The true residual, in double: r = b - A x, A x by hypre's own product. */
  HYPRE_StructVector ax = NULL;
  HYPRE_TRY(HYPRE_StructVectorCreate(comm, grid, &ax));
  HYPRE_TRY(HYPRE_StructVectorInitialize(ax));
  HYPRE_TRY(HYPRE_StructVectorAssemble(ax));
  HYPRE_TRY(HYPRE_StructMatrixMatvec(1.0, A, x, 0.0, ax));
  HYPRE_TRY(HYPRE_StructVectorGetBoxValues(ax, lower, upper, solution));
  HYPRE_StructVectorDestroy(ax);
  double sums[2] = {0, 0};
  for (size_t p = 0; p < (size_t)b->nx * b->ny; p++) {
    double r = b->rhs[p] - solution[p];
    sums[0] += r * r;
    sums[1] += b->rhs[p] * b->rhs[p];
  }
  TRY(hcl_par_sum_doubles(sums, 2));
  o->residual = sqrt(sums[0] / sums[1]);
cleanup:
  if (pcg) {
    HYPRE_StructPCGDestroy(pcg);
    which == HYPRE_PFMG ? HYPRE_StructPFMGDestroy(mg) : HYPRE_StructSMGDestroy(mg);
  }
  HYPRE_StructVectorDestroy(x);
  HYPRE_StructVectorDestroy(rhs);
  HYPRE_StructMatrixDestroy(A);
  HYPRE_StructStencilDestroy(stencil);
  HYPRE_StructGridDestroy(grid);
  free(values);
  free(solution);
  return status;
}
#endif

/* ---- the sweep ---- */

static HclStatus run_size(const BenchRequest *request, int n, double copy_gbs) {
  HclStatus status = HCL_OK;
  Decomp *decomp = NULL;
  Block block = {0};
  DecompSpec spec = {.nx = n, .ny = n};
  TRY(hcl_decomp_create(&spec, &decomp));
  TRY(block_make(decomp, n, &block));
  for (Ours which = OURS_RRB; which < OURS; which++) {
    Outcome o;
    TRY(solve_ours(request, decomp, &block, which, copy_gbs, &o));
    print_outcome(request, n, which == OURS_MG_MIXED || which == OURS_RRB_MIXED ? PRECISION_SINGLE : PRECISION_DOUBLE,
                  &o);
  }
#ifdef HYDROCL_HAVE_HYPRE
  for (int which = HYPRE_PFMG; which <= HYPRE_SMG; which++) {
    Outcome o;
    TRY(solve_hypre(&block, (HypreMg)which, &o));
    print_outcome(request, n, PRECISION_DOUBLE, &o);
  }
#else
  if (hcl_par_rank() == 0) {
    fprintf(stderr, "bench poisson-peers: hypre skipped (built without it: -Dhypre=enabled and libhypre-dev)\n");
  }
#endif
cleanup:
  block_free(&block);
  hcl_decomp_destroy(&decomp);
  return status;
}

HclStatus bench_poisson_peers(const BenchRequest *request) {
  HclStatus status = HCL_OK;
  double copy_gbs = 0;
  int sizes[3] = {1024, 2048, 4096}, count = 3;
  if (request->size) {
    TRY(bench_side(request, "poisson-peers", &sizes[0]));
    count = 1;
  }
  TRY(bench_copy_rate(request->rt, PRECISION_DOUBLE, &copy_gbs));
  for (int k = 0; k < count; k++) {
    TRY(run_size(request, sizes[k], copy_gbs));
  }
cleanup:
  return status;
}
