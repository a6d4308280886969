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

typedef enum { OP_SUM, OP_MIN, OP_MAX, OP_DOT, OP_DOT2, OP_DOT_RANGE, OP_DOT2_RANGE, OP_COUNT } ReduceOp;
static const char *const kernel_names[OP_COUNT] = {"reduce_sum",  "reduce_min",       "reduce_max",       "reduce_dot",
                                                   "reduce_dot2", "reduce_dot_range", "reduce_dot2_range"};

struct Reducer {
  Runtime *rt;
  const Decomp *decomp;
  cl_program program[2]; /* by Precision */
  cl_kernel kernel[2][OP_COUNT];
  cl_mem partials;
  size_t group_size; /* work-items per group */
  size_t max_groups; /* groups of a launch at most (and partials per value) */
  size_t acc_bytes;  /* 8 with fp64, else 4 */
  double *all_ranks; /* [rank][value, status]: what combine_ranks gathers */
};

/* This rank's part of reducer_create: the device check and the allocations can fail on some ranks only. */
static HclStatus create_local(Runtime *rt, const Decomp *decomp, Reducer **out) {
  HclStatus status = HCL_OK;
  Reducer *r = NULL;
  const DeviceInfo *dev = runtime_device(rt);
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
  TRY_ALLOC(r->all_ranks, 2 * (size_t)par_size());
  TRY(runtime_buffer(rt, 2 * r->max_groups * r->acc_bytes, "reduction partials", &r->partials));
  *out = r;
  r = NULL;
cleanup:
  reducer_destroy(&r);
  return status;
}

HclStatus reducer_create(Runtime *rt, const Decomp *decomp, Reducer **out) {
  HclStatus status = HCL_OK;
  Reducer *r = NULL;
  *out = NULL;
  TRY(par_agree(create_local(rt, decomp, &r)));
  *out = r;
  r = NULL;
cleanup:
  reducer_destroy(&r);
  return status;
}

void reducer_destroy(Reducer **reducer) {
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
  free(r->all_ranks);
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
    TRY(program_build(r->rt, "reduce", &config, &program));
    for (int o = 0; o < OP_COUNT; o++) {
      TRY(program_kernel(program, kernel_names[o], &kernels[o]));
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

/* Combines one value per rank in rank order, the same on every rank. Each rank's status travels with its value, so
 * a failure on one rank (a kernel build, a launch) reaches all without a collective of its own. */
static HclStatus combine_ranks(Reducer *r, ReduceOp op, HclStatus local, double mine, double *result) {
  HclStatus status = HCL_OK;
  double *all = r->all_ranks;
  double pair[2] = {mine, (double)local};
  bool failed = false;
  TRY(par_allgather(decomp_comm(r->decomp), pair, (int)sizeof pair, all));
  *result = identity(op);
  for (int i = 0; i < par_size(); i++) {
    *result = combine(op, *result, all[2 * i]);
    failed = failed || all[2 * i + 1] != (double)HCL_OK;
  }
  if (failed) {
    TRY(par_agree(local)); /* every rank saw the failure, so every rank takes part */
  }
cleanup:
  return status;
}

/* Reads the partials of `groups` groups, `values` interleaved per group, and combines each value's in group order
 * into mine[0 .. values). */
static HclStatus combine_partials(Reducer *r, ReduceOp op, size_t groups, int values, double *mine) {
  HclStatus status = HCL_OK;
  void *partials = NULL;
  size_t n = groups * (size_t)values;
  TRY_ALLOC_BYTES(partials, n * r->acc_bytes);
  TRY(runtime_read(r->rt, r->partials, 0, n * r->acc_bytes, partials));
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

/* This rank's partial results over spans of several rows: values (1 or 2) reductions of a with spans[0 .. values)
 * (or of a alone for sum, min, max), each work-group over every groups-th row. */
static HclStatus reduce_rows(Reducer *r, ReduceOp op, const Span *a, const Span *with, int values, double *mine) {
  HclStatus status = HCL_OK;
  cl_kernel k = NULL;
  size_t rows = a->ny * a->nz, groups = rows < r->max_groups ? rows : r->max_groups;
  TRY(kernel_for(r, a->precision, op, &k));
  KernelArgs args = kernel_args(k);
  arg_mem(&args, a->buffer);
  for (int v = 0; v < values; v++) {
    arg_mem(&args, with ? with[v].buffer : a->buffer);
  }
  arg_uint(&args, a->nx);
  arg_uint(&args, a->ny);
  arg_uint(&args, a->nz);
  arg_ulong(&args, a->base);
  arg_uint(&args, a->pitch);
  arg_ulong(&args, a->plane);
  arg_mem(&args, r->partials);
  double bytes = (double)span_count(a) * (double)precision_bytes(a->precision) * (with ? 1.0 + values : 1.0);
  TRY(kernel_launch(r->rt, &args, kernel_groups(groups, r->group_size), bytes));
  TRY(combine_partials(r, op, groups, values, mine));
cleanup:
  return status;
}

/* The same over a span of one row (a plain range): up to max_groups chunks of whole work-groups. */
static HclStatus reduce_range(Reducer *r, const Span *a, const Span *with, int values, double *mine) {
  HclStatus status = HCL_OK;
  cl_kernel k = NULL;
  size_t n = a->nx, local = r->group_size, chunk = (n + r->max_groups - 1) / r->max_groups;
  chunk = chunk < local ? local : (chunk + local - 1) / local * local;
  size_t groups = n == 0 ? 0 : (n + chunk - 1) / chunk;
  if (groups == 0) {
    goto cleanup;
  }
  TRY(kernel_for(r, a->precision, values == 2 ? OP_DOT2_RANGE : OP_DOT_RANGE, &k));
  KernelArgs args = kernel_args(k);
  arg_mem(&args, a->buffer);
  for (int v = 0; v < values; v++) {
    ASSERT(with[v].base == a->base);
    arg_mem(&args, with[v].buffer);
  }
  arg_uint(&args, a->base);
  arg_uint(&args, a->base + n);
  arg_uint(&args, chunk);
  arg_mem(&args, r->partials);
  TRY(kernel_launch(r->rt, &args, kernel_groups(groups, local),
                    (1.0 + values) * (double)n * (double)precision_bytes(a->precision)));
  TRY(combine_partials(r, OP_DOT, groups, values, mine));
cleanup:
  return status;
}

/* This rank's values (identity where it has no places), then every rank's combined in rank order. */
static HclStatus reduce(Reducer *r, ReduceOp op, const Span *a, const Span *with, int values, double *result) {
  HclStatus status = HCL_OK, local = HCL_OK;
  double mine[2] = {identity(op), identity(op)};
  for (int v = 0; v < values && with; v++) {
    if (!same_shape(a, &with[v])) {
      local = status_set(HCL_EINTERNAL, __FILE__, __LINE__, "a reduction of spans of different shapes (please report)");
    }
  }
  if (local == HCL_OK && span_count(a) > 0) {
    bool range = with && a->ny * a->nz == 1 && a->nx + a->base <= UINT32_MAX;
    local = range ? reduce_range(r, a, with, values, mine) : reduce_rows(r, op, a, with, values, mine);
  }
  for (int v = 0; v < values; v++) {
    TRY(combine_ranks(r, op, local, mine[v], &result[v]));
  }
cleanup:
  return status;
}

HclStatus reduce_sum(Reducer *r, Span a, double *result) {
  return reduce(r, OP_SUM, &a, NULL, 1, result);
}

HclStatus reduce_min(Reducer *r, Span a, double *result) {
  return reduce(r, OP_MIN, &a, NULL, 1, result);
}

HclStatus reduce_max(Reducer *r, Span a, double *result) {
  return reduce(r, OP_MAX, &a, NULL, 1, result);
}

HclStatus reduce_dot(Reducer *r, Span a, Span b, double *result) {
  return reduce(r, OP_DOT, &a, &b, 1, result);
}

HclStatus reduce_dot2(Reducer *r, Span a, Span b, Span c, double result[2]) {
  Span with[2] = {b, c};
  return reduce(r, OP_DOT2, &a, with, 2, result);
}
