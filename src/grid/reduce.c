/* SPDX-License-Identifier: BSD-3-Clause */
/* reduce.c: global reductions (see reduce.h). */
#include "reduce.h"

#include <math.h>
#include <stdlib.h>

#include "clerror.h"
#include "kernel.h"
#include "par.h"
#include "program.h"

/* Work-group shape: on GPUs many groups of 256, to fill the device; on CPUs a few small groups, as the launch's cost
 * there is per group (PoCL runs each group as a loop over its work-items, a barrier a pass: 256 groups of 256 took
 * 245 us for a 30k-point field on 2 cores, 8 groups of 64 took 26 us). The shape follows from the device's type and
 * compute units alone, so results stay bitwise repeatable on one device. */
enum { GPU_GROUP_SIZE = 256, GPU_MAX_GROUPS = 256, CPU_GROUP_SIZE = 64, CPU_GROUPS_PER_UNIT = 4 };

typedef enum {
  OP_SUM,
  OP_MIN,
  OP_MAX,
  OP_DOT,
  OP_DOT2,
  OP_DOT3,
  OP_DOT_RANGE,
  OP_DOT2_RANGE,
  OP_DOT3_RANGE,
  OP_COUNT
} ReduceOp;
static const char *const kernel_names[OP_COUNT] = {"reduce_sum",       "reduce_min",        "reduce_max",
                                                   "reduce_dot",       "reduce_dot2",       "reduce_dot3",
                                                   "reduce_dot_range", "reduce_dot2_range", "reduce_dot3_range"};

enum { VALUES_MAX = 3 }; /* results of one reduction (reduce_dot3) */

/* The values of a reduction on this rank and its status, as every rank's are gathered: [values..., status]. */
typedef struct {
  double values[VALUES_MAX + 1];
  int count;
  HclStatus local;
} RankPart;

struct Reducer {
  Runtime *rt;
  const Decomp *decomp;
  cl_program program[2]; /* by Precision */
  cl_kernel kernel[2][OP_COUNT];
  cl_mem partials;
  size_t group_size;     /* work-items per group */
  size_t max_groups;     /* groups of a launch at most (and partials per value) */
  size_t acc_bytes;      /* 8 with fp64, else 4 */
  double *all_ranks;     /* [rank][values..., status]: what a reduction gathers */
  double *pending_ranks; /* the same of the reduction hcl_reduce_dot3_start left in flight */
  RankPart pending_part; /* this rank's part of it (MPI reads it until the gather completes) */
  ParRequest *pending;
  bool in_flight;
};

/* This rank's part of hcl_reducer_create: the device check and the allocations can fail on some ranks only. */
static HclStatus create_local(Runtime *rt, const Decomp *decomp, Reducer **out) {
  HclStatus status = HCL_OK;
  Reducer *r = NULL;
  const DeviceInfo *dev = hcl_runtime_device(rt);
  const bool cpu = dev->type == DEVICE_TYPE_CPU;
  size_t group_size = cpu ? CPU_GROUP_SIZE : GPU_GROUP_SIZE;
  while (group_size > dev->max_work_group_size) { /* a power of two: the kernels' tree sums halve it */
    group_size /= 2;
  }
  REQUIRE(group_size >= 1, HCL_ENODEVICE, "device '%s' reports work-groups of %zu work-items", dev->device_name,
          dev->max_work_group_size);
  TRY_ALLOC(r, 1);
  r->rt = rt;
  r->decomp = decomp;
  r->group_size = group_size;
  r->max_groups = GPU_MAX_GROUPS;
  if (cpu) {
    size_t units = dev->compute_units ? dev->compute_units : 1;
    r->max_groups = units * CPU_GROUPS_PER_UNIT < GPU_MAX_GROUPS ? units * CPU_GROUPS_PER_UNIT : GPU_MAX_GROUPS;
  }
  r->acc_bytes = dev->fp64 ? sizeof(double) : sizeof(float);
  TRY_ALLOC(r->all_ranks, (VALUES_MAX + 1) * (size_t)hcl_par_size());
  TRY_ALLOC(r->pending_ranks, (VALUES_MAX + 1) * (size_t)hcl_par_size());
  TRY(hcl_par_request_create(&r->pending));
  TRY(hcl_runtime_buffer(rt, VALUES_MAX * r->max_groups * r->acc_bytes, "reduction partials", &r->partials));
  *out = r;
  r = NULL;
cleanup:
  hcl_reducer_destroy(&r);
  return status;
}

HclStatus hcl_reducer_create(Runtime *rt, const Decomp *decomp, Reducer **out) {
  HclStatus status = HCL_OK;
  Reducer *r = NULL;
  *out = NULL;
  TRY(hcl_par_agree(create_local(rt, decomp, &r)));
  *out = r;
  r = NULL;
cleanup:
  hcl_reducer_destroy(&r);
  return status;
}

void hcl_reducer_destroy(Reducer **reducer) {
  if (!reducer || !*reducer) {
    return;
  }
  Reducer *r = *reducer;
  for (int p = 0; p < 2; p++) {
    for (int op = 0; op < OP_COUNT; op++) {
      if (r->kernel[p][op]) {
        clReleaseKernel(r->kernel[p][op]);
      }
    }
    if (r->program[p]) {
      clReleaseProgram(r->program[p]);
    }
  }
  if (r->partials) {
    clReleaseMemObject(r->partials);
  }
  hcl_par_request_destroy(&r->pending); /* completes a gather in flight: MPI cannot cancel one */
  free(r->all_ranks);
  free(r->pending_ranks);
  free(r);
  *reducer = NULL;
}

/* Builds the program of precision p on first use. The program and its kernels are cached together or not at all,
 * so a failed build is tried again next time instead of leaving a program without some kernels. */
static HclStatus kernel_for(Reducer *r, Precision p, ReduceOp op, cl_kernel *kernel) {
  HclStatus status = HCL_OK;
  cl_program program = NULL;
  cl_kernel kernels[OP_COUNT] = {NULL};
  if (!r->program[p]) {
    KernelConfig config = {.precision = p, .wg_x = (int)r->group_size, .wg_y = 1};
    TRY(hcl_program_build(r->rt, "reduce", &config, &program));
    for (int o = 0; o < OP_COUNT; o++) {
      TRY(hcl_program_kernel(program, kernel_names[o], &kernels[o]));
    }
    r->program[p] = program;
    program = NULL;
    for (int o = 0; o < OP_COUNT; o++) {
      r->kernel[p][o] = kernels[o];
      kernels[o] = NULL;
    }
  }
  *kernel = r->kernel[p][op];
cleanup:
  for (int o = 0; o < OP_COUNT; o++) {
    if (kernels[o]) {
      clReleaseKernel(kernels[o]);
    }
  }
  if (program) {
    clReleaseProgram(program);
  }
  return status;
}

static double combine(ReduceOp op, double x, double y) {
  switch (op) {
  case OP_MIN:
    return (isnan(x) || x <= y) ? x : y;
  case OP_MAX:
    return (isnan(x) || x >= y) ? x : y;
  default:
    return x + y;
  }
}

static double identity(ReduceOp op) {
  return op == OP_MIN ? INFINITY : op == OP_MAX ? -INFINITY : 0.0;
}

/* Every rank's part (count values and its status), gathered into all, combined value by value in rank order: the
 * same on every rank. Each rank's status travels with its values, so a failure on one rank (a kernel build, a launch)
 * reaches all without a collective of its own. */
static HclStatus combine_ranks(ReduceOp op, const RankPart *mine, const double *all, double *result) {
  HclStatus status = HCL_OK;
  const int stride = mine->count + 1;
  bool failed = false;
  for (int v = 0; v < mine->count; v++) {
    result[v] = identity(op);
  }
  for (int i = 0; i < hcl_par_size(); i++) {
    for (int v = 0; v < mine->count; v++) {
      result[v] = combine(op, result[v], all[stride * i + v]);
    }
    failed = failed || all[stride * i + mine->count] != (double)HCL_OK;
  }
  if (failed) {
    TRY(hcl_par_agree(mine->local)); /* every rank saw the failure, so every rank takes part */
  }
cleanup:
  return status;
}

static int part_bytes(const RankPart *part) {
  return (int)sizeof(double) * (part->count + 1);
}

/* Reads the partials of `groups` groups, `values` interleaved per group, and combines each value's in group order
 * into mine[0 .. values). */
static HclStatus combine_partials(Reducer *r, ReduceOp op, size_t groups, int values, double *mine) {
  HclStatus status = HCL_OK;
  void *partials = NULL;
  size_t n = groups * (size_t)values;
  TRY_ALLOC_BYTES(partials, n * r->acc_bytes);
  TRY(hcl_runtime_read(r->rt, r->partials, 0, n * r->acc_bytes, partials));
  for (size_t k = 0; k < n; k++) {
    double v = r->acc_bytes == sizeof(double) ? ((double *)partials)[k] : (double)((float *)partials)[k];
    mine[k % (size_t)values] = combine(op, mine[k % (size_t)values], v);
  }
cleanup:
  free(partials);
  return status;
}

static bool same_shape(const Span *a, const Span *b) {
  return a->precision == b->precision && a->nx == b->nx && a->ny == b->ny && a->nz == b->nz &&
         (a->ny * a->nz == 1 || (a->pitch == b->pitch && a->plane == b->plane && a->base == b->base));
}

/* The spans besides a that op reads: with[0 .. inputs). */
static int inputs_of(ReduceOp op) {
  return op == OP_DOT2 || op == OP_DOT3 ? 2 : op == OP_DOT ? 1 : 0;
}

/* The results of op: a b and a c (dot2); a b, a c and b b (dot3); one otherwise. */
static int values_of(ReduceOp op) {
  return op == OP_DOT3 ? 3 : op == OP_DOT2 ? 2 : 1;
}

/* This rank's partial results over spans of several rows: op of a with the spans with[0 .. inputs_of(op)) (of a
 * alone for sum, min, max), each work-group over every groups-th row. */
static HclStatus reduce_rows(Reducer *r, ReduceOp op, const Span *a, const Span *with, double *mine) {
  HclStatus status = HCL_OK;
  cl_kernel k = NULL;
  const int inputs = inputs_of(op);
  size_t rows = a->ny * a->nz, groups = rows < r->max_groups ? rows : r->max_groups;
  TRY(kernel_for(r, a->precision, op, &k));
  KernelArgs args = hcl_kernel_args(k);
  hcl_arg_mem(&args, a->buffer);
  for (int v = 0; v < (inputs ? inputs : 1); v++) {
    hcl_arg_mem(&args, inputs ? with[v].buffer : a->buffer); /* sum, min and max take a for the b they do not read */
  }
  hcl_arg_uint(&args, a->nx);
  hcl_arg_uint(&args, a->ny);
  hcl_arg_uint(&args, a->nz);
  hcl_arg_ulong(&args, a->base);
  hcl_arg_uint(&args, a->pitch);
  hcl_arg_ulong(&args, a->plane);
  hcl_arg_mem(&args, r->partials);
  double bytes = (double)hcl_span_count(a) * (double)hcl_precision_bytes(a->precision) * (1.0 + inputs);
  TRY(hcl_kernel_launch(r->rt, &args, hcl_kernel_groups(groups, r->group_size), bytes));
  TRY(combine_partials(r, op, groups, values_of(op), mine));
cleanup:
  return status;
}

/* The same over a span of one row (a plain range): up to max_groups chunks of whole work-groups. */
static HclStatus reduce_range(Reducer *r, ReduceOp op, const Span *a, const Span *with, double *mine) {
  HclStatus status = HCL_OK;
  cl_kernel k = NULL;
  const int inputs = inputs_of(op);
  size_t n = a->nx, local = r->group_size, chunk = (n + r->max_groups - 1) / r->max_groups;
  chunk = chunk < local ? local : (chunk + local - 1) / local * local;
  size_t groups = n == 0 ? 0 : (n + chunk - 1) / chunk;
  if (groups == 0) {
    goto cleanup;
  }
  TRY(kernel_for(r, a->precision, op == OP_DOT3 ? OP_DOT3_RANGE : op == OP_DOT2 ? OP_DOT2_RANGE : OP_DOT_RANGE, &k));
  KernelArgs args = hcl_kernel_args(k);
  hcl_arg_mem(&args, a->buffer);
  for (int v = 0; v < inputs; v++) {
    ASSERT(with[v].base == a->base);
    hcl_arg_mem(&args, with[v].buffer);
  }
  hcl_arg_uint(&args, a->base);
  hcl_arg_uint(&args, a->base + n);
  hcl_arg_uint(&args, chunk);
  hcl_arg_mem(&args, r->partials);
  TRY(hcl_kernel_launch(r->rt, &args, hcl_kernel_groups(groups, local),
                        (1.0 + inputs) * (double)n * (double)hcl_precision_bytes(a->precision)));
  TRY(combine_partials(r, OP_DOT, groups, values_of(op), mine));
cleanup:
  return status;
}

/* This rank's part of a reduction: its values (identity where it has no places) and whether it got them. */
static RankPart rank_part(Reducer *r, ReduceOp op, const Span *a, const Span *with) {
  RankPart part = {.count = values_of(op), .local = HCL_OK};
  for (int v = 0; v < part.count; v++) {
    part.values[v] = identity(op);
  }
  for (int v = 0; v < inputs_of(op); v++) {
    if (!same_shape(a, &with[v])) {
      part.local =
          hcl_status_set(HCL_EINTERNAL, __FILE__, __LINE__, "a reduction of spans of different shapes (please report)");
    }
  }
  if (part.local == HCL_OK && hcl_span_count(a) > 0) {
    bool range = inputs_of(op) > 0 && a->ny * a->nz == 1 && a->nx + a->base <= UINT32_MAX;
    part.local = range ? reduce_range(r, op, a, with, part.values) : reduce_rows(r, op, a, with, part.values);
  }
  part.values[part.count] = (double)part.local;
  return part;
}

/* This rank's values, then every rank's combined in rank order, in one gather. */
static HclStatus reduce(Reducer *r, ReduceOp op, const Span *a, const Span *with, double *result) {
  HclStatus status = HCL_OK;
  RankPart mine = rank_part(r, op, a, with);
  TRY(hcl_par_allgather(hcl_decomp_comm(r->decomp), mine.values, part_bytes(&mine), r->all_ranks));
  TRY(combine_ranks(op, &mine, r->all_ranks, result));
cleanup:
  return status;
}

HclStatus hcl_reduce_sum(Reducer *r, Span a, double *result) {
  return reduce(r, OP_SUM, &a, NULL, result);
}

HclStatus hcl_reduce_min(Reducer *r, Span a, double *result) {
  return reduce(r, OP_MIN, &a, NULL, result);
}

HclStatus hcl_reduce_max(Reducer *r, Span a, double *result) {
  return reduce(r, OP_MAX, &a, NULL, result);
}

HclStatus hcl_reduce_dot(Reducer *r, Span a, Span b, double *result) {
  return reduce(r, OP_DOT, &a, &b, result);
}

HclStatus hcl_reduce_dot2(Reducer *r, Span a, Span b, Span c, double result[2]) {
  Span with[2] = {b, c};
  return reduce(r, OP_DOT2, &a, with, result);
}

HclStatus hcl_reduce_dot3_start(Reducer *r, Span a, Span b, Span c) {
  HclStatus status = HCL_OK;
  Span with[2] = {b, c};
  ASSERT(!r->in_flight);
  r->pending_part = rank_part(r, OP_DOT3, &a, with);
  TRY(hcl_par_iallgather(hcl_decomp_comm(r->decomp), r->pending_part.values, part_bytes(&r->pending_part),
                         r->pending_ranks, r->pending));
  r->in_flight = true;
cleanup:
  return status;
}

HclStatus hcl_reduce_dot3_wait(Reducer *r, double result[3]) {
  HclStatus status = HCL_OK;
  ASSERT(r->in_flight);
  r->in_flight = false;
  TRY(hcl_par_wait(r->pending));
  TRY(combine_ranks(OP_DOT3, &r->pending_part, r->pending_ranks, result));
cleanup:
  return status;
}
