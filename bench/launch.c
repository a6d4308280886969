/* SPDX-License-Identifier: BSD-3-Clause */
/* launch.c: `hydrocl bench launch`, what the host and the device take per kernel launch and per read-back, apart
 * from any work: the floor under an iteration built of many small dependent kernels, such as RRB-CG's (bench/README
 * "rrb"). A kernel that adds 1 to each of `size` REALs (default 65536: a launch's own cost dwarfs its work) runs
 * back to back on the in-order queue, each launch after the previous one. Lines (`name`), each in seconds:
 *   enqueue    host time per clEnqueueNDRangeKernel, timed over a batch before it is waited for
 *   chain      time per launch from the batch's first enqueue to its last launch's end: the host's pace or the
 *              device's, whichever is slower
 *   read_back  time per launch followed by a blocking read of one REAL (a dot product's read-back, as CG waits for
 *              it)
 *   rrb_cg_iteration  time per pattern of RRB-CG's iteration at 2048^2 (src/solver/pcg.c, solve_schur): the
 *              product, <p, q> and its read-back, the updates of x and r, the preconditioner's 15 launches
 *              (hcl_rrb_apply: two on level 0, three on each of levels 1 to 4, one for the coarse levels), <r, z> with
 *              <r, r> and its read-back, the direction: 20 launches and 2 read-backs. 12 of them (the M-norm solve's
 *              iterations) are the least a solve can take on the device, however fast its kernels.
 * Launch times are a latency, not a rate: the lines carry no bandwidth. Every launch adds 1 to the first and the
 * last element, and each read-back and each line's end checks them against the launches made, so a launch that did
 * not run cannot report a time. --profile asks each launch for an event, which the enqueue time then includes. */
#include "bench.h"

#include "clerror.h"
#include "kernel.h"
#include "program.h"
#include "progress.h"

enum { DEFAULT_SIZE = 65536, MAX_SIZE = 1 << 26, BATCH = 1000, WORK_GROUP = 256, BYTES_PER_VECTOR = 16 };
enum { CG_LAUNCHES = 20, CG_ITERATIONS = 100, MOST_READ_BACKS = 2 }; /* MOST_READ_BACKS: in one pattern */

typedef struct {
  const BenchRequest *request;
  Precision precision;
  size_t n;
  size_t local; /* work-items per group: WORK_GROUP or the device's most */
  cl_mem x;
  cl_program program;
  cl_kernel bump;
  KernelArgs args; /* bump's, set once */
  double launches; /* made so far: what the first and last elements must hold */
} Launcher;

/* One launch of bump, its arguments set once before the first (as a solver's loop sets a few scalars at most). */
static HclStatus launch_once(Launcher *l) {
  l->launches += 1;
  return hcl_kernel_launch(l->request->rt, &l->args, hcl_kernel_range(l->request->rt, l->n, l->local), 0);
}

/* A blocking read of x[index], which must count every launch made (exact: integers below 2^24 in float). */
static HclStatus check_element(Launcher *l, size_t index, const char *line) {
  HclStatus status = HCL_OK;
  size_t bytes = hcl_precision_bytes(l->precision);
  union {
    float f;
    double d;
  } v;
  TRY_CL(
      clEnqueueReadBuffer(hcl_runtime_queue(l->request->rt), l->x, CL_TRUE, index * bytes, bytes, &v, 0, NULL, NULL));
  double got = l->precision == PRECISION_DOUBLE ? v.d : (double)v.f;
  REQUIRE(got == l->launches, HCL_EINTERNAL, "bench launch %s: element %zu holds %g after %.0f launches (device '%s')",
          line, index, got, l->launches, hcl_runtime_device(l->request->rt)->device_name);
cleanup:
  return status;
}

static HclStatus print_line(Launcher *l, const char *name, double seconds, int launches, int read_backs) {
  HclStatus status = HCL_OK;
  JsonObject j;
  TRY(check_element(l, 0, name));
  TRY(check_element(l, l->n - 1, name));
  bench_json_begin(&j, l->request, "launch", name, l->precision);
  hcl_json_integer(&j, "size", (long long)l->n);
  hcl_json_number(&j, "seconds", seconds);
  hcl_json_integer(&j, "launches", launches);
  hcl_json_integer(&j, "read_backs", read_backs);
  hcl_json_print(&j, l->request->out);
cleanup:
  return status;
}

/* enqueue and chain, from one batch. */
static HclStatus time_batch(Launcher *l) {
  HclStatus status = HCL_OK;
  TRY(hcl_runtime_finish(l->request->rt));
  double start = hcl_progress_now();
  for (int b = 0; b < BATCH; b++) {
    TRY(launch_once(l));
  }
  double enqueued = hcl_progress_now();
  TRY(hcl_runtime_finish(l->request->rt));
  double done = hcl_progress_now();
  TRY(print_line(l, "enqueue", (enqueued - start) / BATCH, 1, 0));
  TRY(print_line(l, "chain", (done - start) / BATCH, 1, 0));
cleanup:
  return status;
}

/* A launch pattern: `launches` launches, a blocking read-back after each one that read_after names (-1: none). */
typedef struct {
  const char *name;
  int launches;
  int read_after[MOST_READ_BACKS];
  int repeats;
} Pattern;

static const Pattern READ_BACK = {"read_back", 1, {0, -1}, BATCH};
/* RRB-CG's iteration at 2048^2: its launches, a read-back after the second and after the nineteenth. */
static const Pattern RRB_CG_ITERATION = {"rrb_cg_iteration", CG_LAUNCHES, {1, CG_LAUNCHES - 2}, CG_ITERATIONS};

/* Seconds per pass of the pattern, averaged over its repeats. */
static HclStatus time_pattern(Launcher *l, const Pattern *pattern) {
  HclStatus status = HCL_OK;
  int read_backs = 0;
  for (int r = 0; r < MOST_READ_BACKS; r++) {
    read_backs += pattern->read_after[r] >= 0;
  }
  TRY(hcl_runtime_finish(l->request->rt));
  double start = hcl_progress_now();
  for (int pass = 0; pass < pattern->repeats; pass++) {
    for (int k = 0; k < pattern->launches; k++) {
      TRY(launch_once(l));
      for (int r = 0; r < MOST_READ_BACKS; r++) {
        if (pattern->read_after[r] == k) {
          TRY(check_element(l, 0, pattern->name));
        }
      }
    }
  }
  TRY(print_line(l, pattern->name, (hcl_progress_now() - start) / pattern->repeats, pattern->launches, read_backs));
cleanup:
  return status;
}

static HclStatus run_precision(const BenchRequest *request, Precision precision) {
  HclStatus status = HCL_OK;
  size_t most = hcl_runtime_device(request->rt)->max_work_group_size;
  Launcher l = {.request = request,
                .precision = precision,
                .n = request->size ? request->size : DEFAULT_SIZE,
                .local = most < WORK_GROUP ? most : WORK_GROUP};
  char defines[32]; /* bandwidth.cl's copy and triad need VEC, REALs per 16-byte vector, to compile */
  REQUIRE(l.n <= MAX_SIZE, HCL_EUSAGE, "bench launch --size %zu: the kernel's REALs must be 1 to %d", l.n, MAX_SIZE);
  snprintf(defines, sizeof defines, "-DVEC=%d", BYTES_PER_VECTOR / (int)hcl_precision_bytes(precision));
  KernelConfig config = {.precision = precision, .wg_x = (int)l.local, .wg_y = 1, .defines = defines};
  TRY(hcl_program_build(request->rt, "bandwidth", &config, &l.program));
  TRY(hcl_program_kernel(l.program, "bump", &l.bump));
  TRY(hcl_runtime_buffer(request->rt, l.n * hcl_precision_bytes(precision), "bench launch array", &l.x));
  l.args = hcl_kernel_args(l.bump);
  hcl_arg_mem(&l.args, l.x);
  hcl_arg_ulong(&l.args, l.n);
  for (int warm = 0; warm < 10; warm++) { /* the first launches also load the kernel and wake the clocks */
    TRY(launch_once(&l));
  }
  TRY(time_batch(&l));
  TRY(time_pattern(&l, &READ_BACK));
  TRY(time_pattern(&l, &RRB_CG_ITERATION));
cleanup:
  if (l.x) {
    clReleaseMemObject(l.x);
  }
  hcl_program_release(&l.program, &l.bump, 1);
  return status;
}

HclStatus bench_launch(const BenchRequest *request) {
  return bench_each_precision(request, "launch", run_precision);
}
