/* SPDX-License-Identifier: BSD-3-Clause */
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
#include "krylov.h"
#include "par.h"
#include "poisson.h"
#include "progress.h"
#include "rrb.h"
#include "rrb_precond.h"
#include "stencil5.h"
#include "vec.h"

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
  VecSpace *red; /* the red places of the layout, where CG's vectors live */
  cl_mem a, b;
  Vec *a_vec, *b_vec;
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
  TRY(hcl_decomp_create(&spec, &pr->decomp));
  TRY_ALLOC(values, 4 * count);
  PoissonDomain domain = hcl_poisson_domain(n, n);
  hcl_poisson_block(&domain, 0, 0, n, n, values, values + count, values + 2 * count, values + 3 * count);
  for (int f = 0; f < 4; f++) {
    FieldSpec fs = {.name = "model problem", .nz = 1, .ghost = 1, .precision = precision};
    Field **field = f < 3 ? &pr->matrix[f] : &pr->rhs;
    TRY(hcl_field_create(rt, pr->decomp, &fs, field));
    TRY(hcl_field_write_owned(*field, values + (size_t)f * count));
  }
  TRY(hcl_rrb_create(rt, n, n, precision, RRB_DEPTH_DEFAULT, &pr->rrb));
  TRY(hcl_rrb_permute_create(rt, hcl_rrb_vector_layout(pr->rrb), precision, &pr->permute));
  size_t reds_end = hcl_rrb_vector_layout(pr->rrb)->count;
  TRY(hcl_vspace_create_range(rt, pr->decomp, precision, reds_end, hcl_rrb_red_first(pr->rrb), reds_end, &pr->red));
  size_t bytes = reds_end * hcl_precision_bytes(precision);
  TRY(hcl_runtime_buffer(rt, bytes, "bench rrb a", &pr->a));
  TRY(hcl_runtime_buffer(rt, bytes, "bench rrb b", &pr->b));
  TRY(hcl_vec_wrap_buffer(pr->red, pr->a, &pr->a_vec));
  TRY(hcl_vec_wrap_buffer(pr->red, pr->b, &pr->b_vec));
  TRY(hcl_rrb_setup(pr->rrb, pr->matrix[0], pr->matrix[1], pr->matrix[2]));
  TRY(hcl_rrb_to_layout(pr->permute, pr->rhs, pr->a));
  TRY(hcl_rrb_to_layout(pr->permute, pr->rhs, pr->b));
cleanup:
  free(values);
  return status;
}

static void problem_close(Problem *pr) {
  hcl_vec_destroy(&pr->a_vec);
  hcl_vec_destroy(&pr->b_vec);
  hcl_vspace_destroy(&pr->red);
  if (pr->a) {
    clReleaseMemObject(pr->a);
  }
  if (pr->b) {
    clReleaseMemObject(pr->b);
  }
  hcl_rrb_permute_destroy(&pr->permute);
  hcl_rrb_destroy(&pr->rrb);
  for (int f = 0; f < 3; f++) {
    hcl_field_destroy(&pr->matrix[f]);
  }
  hcl_field_destroy(&pr->rhs);
  hcl_decomp_destroy(&pr->decomp);
}

typedef enum { OP_MATVEC, OP_UPDATE, OP_DOT, OP_PRECONDITIONER, OP_SETUP } Operation;
static const char *const op_names[] = {"matvec", "vector_update", "dot", "preconditioner", "setup"};
static const double op_reals_per_red[] = {7, 3, 2, 9, 0};

static HclStatus run_once(Problem *pr, Operation op) {
  HclStatus status = HCL_OK;
  double dot = 0;
  switch (op) {
  case OP_MATVEC:
    TRY(hcl_rrb_schur_apply(pr->rrb, pr->a, pr->b));
    break;
  case OP_UPDATE: /* CG's p = z + beta p */
    TRY(hcl_vec_aypx(pr->b_vec, 0.5, pr->a_vec));
    break;
  case OP_DOT:
    TRY(hcl_vec_dot(pr->a_vec, pr->b_vec, &dot));
    break;
  case OP_PRECONDITIONER:
    TRY(hcl_rrb_apply(pr->rrb, pr->a, pr->b));
    break;
  case OP_SETUP:
    TRY(hcl_rrb_setup(pr->rrb, pr->matrix[0], pr->matrix[1], pr->matrix[2]));
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
  TRY(hcl_runtime_finish(pr->request->rt));
  double start = hcl_progress_now(), elapsed = 0;
  while (calls < MIN_REPEATS || elapsed < MIN_SECONDS) {
    TRY(run_once(pr, op));
    calls++;
    if (calls % MIN_REPEATS == 0) {
      TRY(hcl_runtime_finish(pr->request->rt));
      elapsed = hcl_progress_now() - start;
    }
  }
  *seconds = elapsed / calls;
cleanup:
  return status;
}

static void begin_line(JsonObject *j, const Problem *pr, const char *name) {
  bench_json_begin(j, pr->request, "rrb", name, pr->precision);
  hcl_json_integer(j, "size", pr->n);
  hcl_json_integer(j, "levels", hcl_rrb_factor_layout(pr->rrb)->nlevels + 1);
}

/* Table 2 and the setup. */
static HclStatus operations(Problem *pr) {
  HclStatus status = HCL_OK;
  double reds = (double)(hcl_rrb_vector_layout(pr->rrb)->count - hcl_rrb_red_first(pr->rrb));
  for (int op = OP_MATVEC; op <= OP_SETUP; op++) {
    double seconds = 0;
    TRY(time_operation(pr, (Operation)op, &seconds));
    JsonObject j;
    begin_line(&j, pr, op_names[op]);
    hcl_json_number(&j, "seconds", seconds);
    if (op_reals_per_red[op] > 0) {
      double bytes = op_reals_per_red[op] * reds * (double)hcl_precision_bytes(pr->precision);
      hcl_json_number(&j, "bytes", bytes);
      hcl_json_number(&j, "gbs", bytes / seconds * 1e-9);
      hcl_json_number(&j, "fraction_of_copy", bytes / seconds * 1e-9 / pr->copy_gbs);
    }
    hcl_json_number(&j, "copy_gbs", pr->copy_gbs);
    hcl_json_print(&j, pr->request->out);
  }
cleanup:
  return status;
}

/* Table 3: the preconditioner's kernel time per level, averaged over MIN_REPEATS solves. */
static HclStatus levels(Problem *pr) {
  HclStatus status = HCL_OK;
  double total[RRB_MAX_LEVELS + 1] = {0}, once[RRB_MAX_LEVELS + 1], sum = 0;
  const RrbLayout *l = hcl_rrb_factor_layout(pr->rrb);
  int coarse = hcl_rrb_coarse_level(pr->rrb);
  for (int r = 0; r < MIN_REPEATS; r++) {
    TRY(hcl_rrb_apply_timed(pr->rrb, pr->a, pr->b, once));
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
    hcl_json_integer(&j, "level", k + 1);
    hcl_json_integer(&j, "level_nx", k < l->nlevels ? l->levels[k].nx : l->final_nx);
    hcl_json_integer(&j, "level_ny", k < l->nlevels ? l->levels[k].ny : l->final_ny);
    hcl_json_integer(&j, "last_level", k == coarse ? l->nlevels + 1 : k + 1);
    hcl_json_number(&j, "seconds", total[k]);
    hcl_json_number(&j, "fraction_of_solve", total[k] / sum);
    hcl_json_print(&j, pr->request->out);
  }
cleanup:
  return status;
}

/* One solve from x = 0 to 1e-5 in the norm, timed, and the true residual relative to the first. */
static HclStatus solve_once(Krylov *ks, Vec *b, Vec *x, KrylovResult *result, double *seconds, double *relative,
                            RuntimeCounts *used) {
  HclStatus status = HCL_OK;
  Runtime *rt = hcl_vspace_runtime(hcl_vec_space(x));
  double initial = 0, final = 0;
  TRY(hcl_vec_set(x, 0));
  TRY(hcl_krylov_true_residual(ks, b, x, &initial));
  TRY(hcl_runtime_finish(rt));
  double start = hcl_progress_now();
  RuntimeCounts before = hcl_runtime_counts(rt);
  TRY(hcl_krylov_solve(ks, b, x, result));
  *used = bench_counts_since(rt, before);
  TRY(hcl_runtime_finish(rt));
  *seconds = hcl_progress_now() - start;
  TRY(hcl_krylov_true_residual(ks, b, x, &final));
  *relative = final / initial;
cleanup:
  return status;
}

/* Time to solution from x = 0 to 1e-5 in both norms, through the solvers' interfaces (krylov.h, stencil5.h,
 * rrb_precond.h). */
static HclStatus solve(Problem *pr) {
  HclStatus status = HCL_OK;
  Runtime *rt = pr->request->rt;
  Operator *op = NULL;
  Krylov *ks = NULL;
  Precond *pc = NULL;
  Vec *b = NULL, *x = NULL;
  Field *matrix[3];
  TRY(hcl_stencil5_create(rt, pr->decomp, pr->precision, &op));
  TRY(hcl_stencil5_fields(op, matrix));
  for (int f = 0; f < 3; f++) {
    size_t bytes = hcl_field_count(pr->matrix[f]) * hcl_precision_bytes(pr->precision);
    TRY_CL(clEnqueueCopyBuffer(hcl_runtime_queue(rt), hcl_field_buffer(pr->matrix[f]), hcl_field_buffer(matrix[f]), 0,
                               0, bytes, 0, NULL, NULL));
  }
  TRY(hcl_vec_wrap_field(hcl_operator_space(op), pr->rhs, &b));
  TRY(hcl_vec_create(hcl_operator_space(op), "solution", &x));
  for (int norm = KRYLOV_NORM_2; norm <= KRYLOV_NORM_M; norm += KRYLOV_NORM_M - KRYLOV_NORM_2) {
    KrylovOptions options = hcl_krylov_options_default();
    options.rtol = 1e-5;
    options.norm = (KrylovNorm)norm;
    hcl_krylov_destroy(&ks);
    TRY(hcl_krylov_create(&options, &ks));
    TRY(hcl_rrb_precond_create(RRB_DEPTH_DEFAULT, &pc));
    hcl_krylov_set_precond(ks, pc);
    pc = NULL;
    hcl_krylov_set_operator(ks, op);
    TRY(hcl_krylov_setup(ks));
    KrylovResult result;
    RuntimeCounts used;
    double best = INFINITY, seconds = 0, relative = 0;
    for (int r = 0; r < 1 + MIN_REPEATS; r++) { /* the first solve warms up */
      TRY(solve_once(ks, b, x, &result, &seconds, &relative, &used));
      best = r > 0 && seconds < best ? seconds : best;
    }
    JsonObject j;
    begin_line(&j, pr, "solve");
    hcl_json_string(&j, "norm", norm == KRYLOV_NORM_2 ? "2" : "m");
    hcl_json_number(&j, "tolerance", 1e-5);
    hcl_json_integer(&j, "iterations", result.iterations);
    hcl_json_number(&j, "relative_residual", relative);
    hcl_json_number(&j, "seconds", best);
    hcl_json_number(&j, "seconds_per_iteration", best / (result.iterations > 0 ? result.iterations : 1));
    bench_json_counts(&j, "iteration", used, result.iterations > 0 ? result.iterations : 1);
    hcl_json_print(&j, pr->request->out);
  }
cleanup:
  hcl_vec_destroy(&b);
  hcl_vec_destroy(&x);
  hcl_krylov_destroy(&ks);
  hcl_operator_destroy(&op);
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
  const DeviceInfo *dev = hcl_runtime_device(request->rt);
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
  REQUIRE(hcl_par_size() == 1, HCL_EUSAGE,
          "bench rrb times one rank's kernels (the paper's tables); on several ranks 'bench scaling' times RRB-CG "
          "against one rank, and 'hydrocl solve-poisson' under mpirun any size");
  TRY(bench_each_precision(request, "rrb", sweep));
cleanup:
  return status;
}
