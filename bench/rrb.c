/* rrb.c: `hydrocl bench rrb`, the RRB solver's benchmark (../shared/papers/rrb-pcg-gpu.txt, section 6) on the
 * paper's model problem (poisson.h) of N x N interior points:
 * - Table 2: one matrix-vector product with the first Schur complement (q = S1 p over the red nodes), one vector
 *   update (p = z + beta p), one dot product (with its read-back, as CG pays it) and one preconditioner solve
 *   (z = M1^-1 r), each with its effective bandwidth against the copy rate measured in the same run;
 * - Table 3: the preconditioner solve's kernel time per level (event timestamps; the levels from the coarse one on
 *   run in one work-group and count there);
 * - the setup (the factorization, repeated whenever a model's coefficients change) and the time to solution from
 *   x = 0 to 1e-5 in the 2-norm (||r|| <= 1e-5 ||b||) and in the paper's M-norm.
 * Sizes 1024, 2048, 4096 on GPUs (1024 and 2048 on CPUs), float and double. Minimal DRAM traffic counted, in REALs
 * per red node (N^2 / 2 of them): matrix-vector product 7 (S1's 5 planes, p, q), vector update 3, dot 2,
 * preconditioner 9 (M1's 5 planes, r read, z written forward and read and written backward). */
#include "bench.h"

#include <math.h>
#include <stdlib.h>

#include "clerror.h"
#include "kernel.h"
#include "par.h"
#include "pcg.h"
#include "poisson.h"
#include "program.h"
#include "progress.h"
#include "reduce.h"
#include "rrb.h"

static const double MIN_SECONDS = 0.2;
enum { MIN_REPEATS = 5 };

/* One size's set-up: the model problem's matrix and right-hand side on the device, the factorization, and two
 * vectors in the layout. */
typedef struct {
  const BenchRequest *request;
  Precision precision;
  int n;
  double copy_gbs;
  Decomp *decomp;
  Field *matrix[3], *rhs;
  Rrb *rrb;
  RrbPermute *permute;
  Reducer *reducer;
  cl_mem a, b;
  cl_program program; /* pcg.cl, for the vector update */
  cl_kernel update;
} Problem;

static HclStatus problem_open(const BenchRequest *request, Precision precision, int n, Problem *pr) {
  HclStatus status = HCL_OK;
  double *values = NULL;
  Runtime *rt = request->rt;
  size_t count = (size_t)n * n;
  pr->request = request;
  pr->precision = precision;
  pr->n = n;
  DecompSpec spec = {.nx = n, .ny = n};
  TRY(decomp_create(&spec, &pr->decomp));
  TRY_ALLOC(values, 4 * count);
  poisson_block(n, 0, 0, n, n, values, values + count, values + 2 * count, values + 3 * count);
  for (int f = 0; f < 4; f++) {
    FieldSpec fs = {.name = "model problem", .nz = 1, .ghost = 1, .precision = precision};
    Field **field = f < 3 ? &pr->matrix[f] : &pr->rhs;
    TRY(field_create(rt, pr->decomp, &fs, field));
    TRY(field_write_owned(*field, values + (size_t)f * count));
  }
  TRY(rrb_create(rt, n, n, precision, RRB_DEPTH_DEFAULT, &pr->rrb));
  TRY(rrb_permute_create(rt, rrb_vector_layout(pr->rrb), precision, &pr->permute));
  TRY(reducer_create(rt, pr->decomp, &pr->reducer));
  size_t bytes = rrb_vector_layout(pr->rrb)->count * precision_bytes(precision);
  TRY(runtime_buffer(rt, bytes, "bench rrb a", &pr->a));
  TRY(runtime_buffer(rt, bytes, "bench rrb b", &pr->b));
  TRY(rrb_setup(pr->rrb, pr->matrix[0], pr->matrix[1], pr->matrix[2]));
  TRY(rrb_to_layout(pr->permute, pr->rhs, pr->a));
  TRY(rrb_to_layout(pr->permute, pr->rhs, pr->b));
  KernelConfig config = {.precision = precision, .stencil_radius = 1, .wg_x = 32, .wg_y = 4};
  const char *name = "update_direction_range";
  TRY(program_build_kernels(rt, "pcg", &config, &name, 1, &pr->program, &pr->update));
cleanup:
  free(values);
  return status;
}

static void problem_close(Problem *pr) {
  program_release(&pr->program, &pr->update, 1);
  if (pr->a) {
    clReleaseMemObject(pr->a);
  }
  if (pr->b) {
    clReleaseMemObject(pr->b);
  }
  reducer_destroy(&pr->reducer);
  rrb_permute_destroy(&pr->permute);
  rrb_destroy(&pr->rrb);
  for (int f = 0; f < 3; f++) {
    field_destroy(&pr->matrix[f]);
  }
  field_destroy(&pr->rhs);
  decomp_destroy(&pr->decomp);
}

typedef enum { OP_MATVEC, OP_UPDATE, OP_DOT, OP_PRECONDITIONER, OP_SETUP } Operation;
static const char *const op_names[] = {"matvec", "vector_update", "dot", "preconditioner", "setup"};
static const double op_reals_per_red[] = {7, 3, 2, 9, 0};

static HclStatus run_once(Problem *pr, Operation op) {
  HclStatus status = HCL_OK;
  double dot = 0;
  switch (op) {
  case OP_MATVEC:
    TRY(rrb_schur_apply(pr->rrb, pr->a, pr->b));
    break;
  case OP_UPDATE: {
    size_t first = rrb_red_first(pr->rrb), end = rrb_vector_layout(pr->rrb)->count;
    KernelArgs a = kernel_args(pr->update);
    arg_mem(&a, pr->a);
    arg_mem(&a, pr->b);
    arg_real(&a, pr->precision, 0.5);
    arg_uint(&a, first);
    arg_uint(&a, end);
    TRY(kernel_launch(pr->request->rt, &a, kernel_range(end - first, 256), 0));
    break;
  }
  case OP_DOT:
    TRY(reduce_dot(pr->reducer, span_range(pr->a, pr->precision, rrb_red_first(pr->rrb), rrb_vector_layout(pr->rrb)->count),
                   span_range(pr->b, pr->precision, rrb_red_first(pr->rrb), rrb_vector_layout(pr->rrb)->count), &dot));
    break;
  case OP_PRECONDITIONER:
    TRY(rrb_apply(pr->rrb, pr->a, pr->b));
    break;
  case OP_SETUP:
    TRY(rrb_setup(pr->rrb, pr->matrix[0], pr->matrix[1], pr->matrix[2]));
    break;
  }
cleanup:
  return status;
}

/* Seconds per call of op: one warm-up call, then as many as MIN_SECONDS takes (at least MIN_REPEATS). */
static HclStatus time_operation(Problem *pr, Operation op, double *seconds) {
  HclStatus status = HCL_OK;
  int calls = 0;
  TRY(run_once(pr, op));
  TRY(runtime_finish(pr->request->rt));
  double start = progress_now(), elapsed = 0;
  while (calls < MIN_REPEATS || elapsed < MIN_SECONDS) {
    TRY(run_once(pr, op));
    calls++;
    if (calls % MIN_REPEATS == 0) {
      TRY(runtime_finish(pr->request->rt));
      elapsed = progress_now() - start;
    }
  }
  *seconds = elapsed / calls;
cleanup:
  return status;
}

static void begin_line(JsonObject *j, const Problem *pr, const char *name) {
  bench_json_begin(j, pr->request, "rrb", name, pr->precision);
  json_integer(j, "size", pr->n);
  json_integer(j, "levels", rrb_factor_layout(pr->rrb)->nlevels + 1);
}

/* Table 2 and the setup. */
static HclStatus operations(Problem *pr) {
  HclStatus status = HCL_OK;
  double reds = (double)(rrb_vector_layout(pr->rrb)->count - rrb_red_first(pr->rrb));
  for (int op = OP_MATVEC; op <= OP_SETUP; op++) {
    double seconds = 0;
    TRY(time_operation(pr, (Operation)op, &seconds));
    JsonObject j;
    begin_line(&j, pr, op_names[op]);
    json_number(&j, "seconds", seconds);
    if (op_reals_per_red[op] > 0) {
      double bytes = op_reals_per_red[op] * reds * (double)precision_bytes(pr->precision);
      json_number(&j, "bytes", bytes);
      json_number(&j, "gbs", bytes / seconds * 1e-9);
      json_number(&j, "fraction_of_copy", bytes / seconds * 1e-9 / pr->copy_gbs);
    }
    json_number(&j, "copy_gbs", pr->copy_gbs);
    json_print(&j, pr->request->out);
  }
cleanup:
  return status;
}

/* Table 3: the preconditioner's kernel time per level, averaged over MIN_REPEATS solves. */
static HclStatus levels(Problem *pr) {
  HclStatus status = HCL_OK;
  double total[RRB_MAX_LEVELS + 1] = {0}, once[RRB_MAX_LEVELS + 1], sum = 0;
  const RrbLayout *l = rrb_factor_layout(pr->rrb);
  int coarse = rrb_coarse_level(pr->rrb);
  for (int r = 0; r < MIN_REPEATS; r++) {
    TRY(rrb_apply_timed(pr->rrb, pr->a, pr->b, once));
    for (int k = 0; k <= RRB_MAX_LEVELS; k++) {
      total[k] += once[k] / MIN_REPEATS;
    }
  }
  for (int k = 0; k <= coarse; k++) {
    sum += total[k];
  }
  for (int k = 0; k <= coarse && k <= l->nlevels; k++) {
    JsonObject j;
    begin_line(&j, pr, "level");
    json_integer(&j, "level", k + 1);
    json_integer(&j, "level_nx", k < l->nlevels ? l->levels[k].nx : l->final_nx);
    json_integer(&j, "level_ny", k < l->nlevels ? l->levels[k].ny : l->final_ny);
    json_integer(&j, "last_level", k == coarse ? l->nlevels + 1 : k + 1);
    json_number(&j, "seconds", total[k]);
    json_number(&j, "fraction_of_solve", total[k] / sum);
    json_print(&j, pr->request->out);
  }
cleanup:
  return status;
}

/* Time to solution from x = 0 to 1e-5 in both norms, through the solver's interface (pcg.h). */
static HclStatus solve(Problem *pr) {
  HclStatus status = HCL_OK;
  Runtime *rt = pr->request->rt;
  Pcg *pcg = NULL;
  Field *x = NULL, *matrix[3];
  FieldSpec fs = {.name = "solution", .nz = 1, .ghost = 1, .precision = pr->precision};
  PcgOptions options = {.preconditioner = PCG_RRB, .rrb = RRB_DEPTH_DEFAULT};
  TRY(pcg_create(rt, pr->decomp, pr->precision, &options, &pcg));
  TRY(field_create(rt, pr->decomp, &fs, &x));
  pcg_matrix(pcg, matrix);
  for (int f = 0; f < 3; f++) {
    size_t bytes = field_count(pr->matrix[f]) * precision_bytes(pr->precision);
    TRY_CL(clEnqueueCopyBuffer(runtime_queue(rt), field_buffer(pr->matrix[f]), field_buffer(matrix[f]), 0, 0, bytes,
                               0, NULL, NULL));
  }
  TRY(pcg_set_matrix(pcg));
  for (int norm = PCG_NORM_2; norm <= PCG_NORM_M; norm++) {
    PcgResult result;
    double best = INFINITY;
    pcg_set_norm(pcg, (PcgNorm)norm);
    for (int r = 0; r < 1 + MIN_REPEATS; r++) { /* the first solve warms up */
      TRY(field_zero(x));
      TRY(runtime_finish(rt));
      double start = progress_now();
      TRY(pcg_solve(pcg, pr->rhs, x, 1e-5, 1000, &result));
      TRY(runtime_finish(rt));
      best = r > 0 && progress_now() - start < best ? progress_now() - start : best;
    }
    JsonObject j;
    begin_line(&j, pr, "solve");
    json_string(&j, "norm", norm == PCG_NORM_2 ? "2" : "m");
    json_number(&j, "tolerance", 1e-5);
    json_integer(&j, "iterations", result.iterations);
    json_number(&j, "relative_residual", result.final_residual / result.initial_residual);
    json_number(&j, "seconds", best);
    json_number(&j, "seconds_per_iteration", best / (result.iterations > 0 ? result.iterations : 1));
    json_print(&j, pr->request->out);
  }
cleanup:
  field_destroy(&x);
  pcg_destroy(&pcg);
  return status;
}

static HclStatus run_size(const BenchRequest *request, Precision precision, int n, double copy_gbs) {
  HclStatus status = HCL_OK;
  Problem pr = {0};
  TRY(problem_open(request, precision, n, &pr));
  pr.copy_gbs = copy_gbs;
  TRY(operations(&pr));
  TRY(levels(&pr));
  TRY(solve(&pr));
cleanup:
  problem_close(&pr);
  return status;
}

static HclStatus sweep(const BenchRequest *request, Precision precision) {
  HclStatus status = HCL_OK;
  double copy_gbs = 0;
  const DeviceInfo *dev = runtime_device(request->rt);
  int list[3] = {1024, 2048, 4096}, n = dev->type == DEVICE_TYPE_CPU ? 2 : 3;
  if (request->size) {
    TRY(bench_side(request, "rrb", &list[0]));
    n = 1;
  }
  TRY(bench_copy_rate(request->rt, precision, &copy_gbs));
  for (int i = 0; i < n; i++) {
    TRY(run_size(request, precision, list[i], copy_gbs));
  }
cleanup:
  return status;
}

HclStatus bench_rrb(const BenchRequest *request) {
  HclStatus status = HCL_OK;
  REQUIRE(par_size() == 1, HCL_EUSAGE, "bench rrb times one rank's kernels; on several ranks time 'hydrocl solve-poisson' under mpirun");
  TRY(bench_each_precision(request, "rrb", sweep));
cleanup:
  return status;
}
