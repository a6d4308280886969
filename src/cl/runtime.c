/* SPDX-License-Identifier: BSD-3-Clause */
/* runtime.c: context, queue, buffers, launches and the per-kernel profile of runtime.h. */
#include "runtime.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "clerror.h"
#include "log.h"

enum { PROFILE_PENDING_MAX = 512, PROFILE_KERNELS_MAX = 128, KERNEL_NAME_MAX = 64 };

typedef struct {
  char name[KERNEL_NAME_MAX];
  long calls;
  double seconds;
  double bytes;
} ProfileEntry;

typedef struct {
  cl_event event;
  int entry;
  double bytes;
} PendingLaunch;

/* A built program and what it was built from: the whole source text and the whole option string. */
typedef struct {
  char *source;
  char *options;
  cl_program program;
} CachedProgram;

struct Runtime {
  DeviceInfo device;
  char *kernel_dir;
  cl_context context;
  cl_command_queue queue, transfer_queue; /* kernels; ghost-layer transfers beside them (runtime.h) */
  bool profile;
  ProfileEntry entries[PROFILE_KERNELS_MAX];
  int nentries;
  PendingLaunch pending[PROFILE_PENDING_MAX];
  int npending;
  CachedProgram *programs; /* the program cache: every program built on this runtime, for its whole life */
  int nprograms, programs_capacity;
  long programs_reused;
  double buffer_bytes; /* made by hcl_runtime_buffer so far (hcl_runtime_buffer_bytes) */
  RuntimeCounts counts;
};

static void context_notify(const char *errinfo, const void *private_info, size_t cb, void *user_data) {
  (void)private_info;
  (void)cb;
  (void)user_data;
  hcl_log_warn("OpenCL: %s", errinfo);
}

HclStatus hcl_runtime_create(const DeviceInfo *dev, const RuntimeOptions *options, Runtime **out) {
  HclStatus status = HCL_OK;
  Runtime *rt = NULL;
  cl_int err = CL_SUCCESS;
  struct stat folder;
  *out = NULL;
  if (options->kernel_dir) {
    REQUIRE(stat(options->kernel_dir, &folder) == 0 && S_ISDIR(folder.st_mode), HCL_ENOINPUT,
            "kernel folder '%s' (from --kernel-dir or HYDROCL_KERNEL_DIR) is not a folder; point it at a copy of "
            "kernels_cl/ or unset it to use the kernels built into hydrocl",
            options->kernel_dir);
  }
  TRY_ALLOC(rt, 1);
  rt->device = *dev;
  rt->profile = options->profile;
  if (options->kernel_dir) {
    rt->kernel_dir = strdup(options->kernel_dir);
    REQUIRE(rt->kernel_dir != NULL, HCL_ENOMEM, "cannot copy the kernel folder name");
  }
  cl_context_properties properties[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)dev->platform, 0};
  rt->context = clCreateContext(properties, 1, &dev->id, context_notify, NULL, &err);
  TRY_CL(err);
  /* Profiling stays on for every queue: benchmarks time launches through events, and its cost is negligible. */
  rt->queue = clCreateCommandQueue(rt->context, dev->id, CL_QUEUE_PROFILING_ENABLE, &err);
  TRY_CL(err);
  rt->transfer_queue = clCreateCommandQueue(rt->context, dev->id, CL_QUEUE_PROFILING_ENABLE, &err);
  TRY_CL(err);
  *out = rt;
  rt = NULL;
cleanup:
  hcl_runtime_destroy(&rt);
  return status;
}

static void release_pending(Runtime *rt) {
  for (int i = 0; i < rt->npending; i++) {
    clReleaseEvent(rt->pending[i].event);
  }
  rt->npending = 0;
}

void hcl_runtime_destroy(Runtime **rt) {
  if (!rt || !*rt) {
    return;
  }
  Runtime *r = *rt;
  if (r->transfer_queue) {
    clFinish(r->transfer_queue);
  }
  if (r->queue) {
    clFinish(r->queue);
  }
  release_pending(r);
  for (int i = 0; i < r->nprograms; i++) {
    clReleaseProgram(r->programs[i].program);
    free(r->programs[i].source);
    free(r->programs[i].options);
  }
  free(r->programs);
  if (r->transfer_queue) {
    clReleaseCommandQueue(r->transfer_queue);
  }
  if (r->queue) {
    clReleaseCommandQueue(r->queue);
  }
  if (r->context) {
    clReleaseContext(r->context);
  }
  free(r->kernel_dir);
  free(r);
  *rt = NULL;
}

const DeviceInfo *hcl_runtime_device(const Runtime *rt) {
  return &rt->device;
}

const char *hcl_runtime_kernel_dir(const Runtime *rt) {
  return rt->kernel_dir;
}

cl_context hcl_runtime_context(const Runtime *rt) {
  return rt->context;
}

cl_command_queue hcl_runtime_queue(const Runtime *rt) {
  return rt->queue;
}

cl_program hcl_runtime_find_program(Runtime *rt, const char *source, const char *options) {
  for (int i = 0; i < rt->nprograms; i++) {
    const CachedProgram *c = &rt->programs[i];
    if (strcmp(c->options, options) == 0 && strcmp(c->source, source) == 0 &&
        clRetainProgram(c->program) == CL_SUCCESS) {
      rt->programs_reused++;
      return c->program;
    }
  }
  return NULL;
}

HclStatus hcl_runtime_keep_program(Runtime *rt, const char *source, const char *options, cl_program program) {
  HclStatus status = HCL_OK;
  if (rt->nprograms == rt->programs_capacity) {
    int capacity = rt->programs_capacity ? 2 * rt->programs_capacity : 16;
    CachedProgram *grown = realloc(rt->programs, sizeof *grown * (size_t)capacity);
    REQUIRE(grown != NULL, HCL_ENOMEM, "cannot grow the program cache to %d programs", capacity);
    rt->programs = grown;
    rt->programs_capacity = capacity;
  }
  CachedProgram c = {strdup(source), strdup(options), program};
  if (!c.source || !c.options) {
    free(c.source);
    free(c.options);
    FAIL(HCL_ENOMEM, "cannot copy a program's source and options into the program cache");
  }
  TRY_CL(clRetainProgram(program));
  rt->programs[rt->nprograms++] = c;
cleanup:
  return status;
}

void hcl_runtime_program_counts(const Runtime *rt, long *built, long *reused) {
  *built = rt->nprograms;
  *reused = rt->programs_reused;
}

enum { FILL_PATTERN = 128 }; /* bytes: the largest fill pattern of OpenCL 1.2 */

/* Zeros written from the host, a chunk at a time: what HYDROCL_ZERO_BY_WRITE asks for. Oclgrind's uninitialized-
 * value plugin does not count a fill as a write, so under it every fill-zeroed buffer reads as unwritten (its
 * reports on gather_points were that: tests/kernels/test_oclgrind.sh, scenario uninitialized). */
static cl_int write_zeros(Runtime *rt, cl_mem buffer, size_t bytes) {
  enum { CHUNK = 1 << 20 };
  static const cl_uchar zeros[CHUNK] = {0};
  cl_int err = CL_SUCCESS;
  for (size_t at = 0; err == CL_SUCCESS && at < bytes; at += CHUNK) {
    size_t n = bytes - at < CHUNK ? bytes - at : CHUNK;
    err = clEnqueueWriteBuffer(rt->queue, buffer, CL_TRUE, at, n, zeros, 0, NULL, NULL);
  }
  return err;
}

/* The bulk is filled with the largest pattern OpenCL allows and the tail byte by byte: NVIDIA's driver (580) never
 * finished a 1-byte fill of 2 GiB, which counts 2^31 patterns. */
static cl_int fill_zero(Runtime *rt, cl_mem buffer, size_t bytes) {
  static const cl_uchar zeros[FILL_PATTERN] = {0};
  if (getenv("HYDROCL_ZERO_BY_WRITE")) {
    return write_zeros(rt, buffer, bytes);
  }
  size_t bulk = bytes / FILL_PATTERN * FILL_PATTERN;
  cl_int err = bulk ? clEnqueueFillBuffer(rt->queue, buffer, zeros, FILL_PATTERN, 0, bulk, 0, NULL, NULL) : CL_SUCCESS;
  if (err == CL_SUCCESS && bulk < bytes) {
    err = clEnqueueFillBuffer(rt->queue, buffer, zeros, 1, bulk, bytes - bulk, 0, NULL, NULL);
  }
  return err;
}

HclStatus hcl_runtime_zero(Runtime *rt, cl_mem buffer, size_t bytes) {
  HclStatus status = HCL_OK;
  TRY_CL(fill_zero(rt, buffer, bytes));
cleanup:
  return status;
}

HclStatus hcl_runtime_buffer(Runtime *rt, size_t bytes, const char *what, cl_mem *out) {
  HclStatus status = HCL_OK;
  cl_int err = CL_SUCCESS;
  *out = NULL;
  REQUIRE(bytes <= rt->device.max_alloc_bytes, HCL_ENODEVICE,
          "buffer '%s' needs %zu bytes but device '%s' allows at most %llu in one buffer "
          "(CL_DEVICE_MAX_MEM_ALLOC_SIZE); use a smaller grid or more ranks",
          what, bytes, rt->device.device_name, (unsigned long long)rt->device.max_alloc_bytes);
  cl_mem buffer = clCreateBuffer(rt->context, CL_MEM_READ_WRITE, bytes ? bytes : 1, NULL, &err);
  REQUIRE(err == CL_SUCCESS, err == CL_MEM_OBJECT_ALLOCATION_FAILURE ? HCL_ENODEVICE : HCL_EOPENCL,
          "cannot create buffer '%s' of %zu bytes on '%s': %s", what, bytes, rt->device.device_name,
          hcl_cl_error_name(err));
  /* Zeroed, so that every buffer is defined and written through before its first use: PoCL's vectorized kernels
   * also load places whose values they discard, and reading memory that had never been written made the RRB
   * preconditioner three times slower on PoCL (whatever the values written: bench/README.md, rrb). */
  err = fill_zero(rt, buffer, bytes ? bytes : 1);
  if (err != CL_SUCCESS) {
    clReleaseMemObject(buffer);
  }
  REQUIRE(err == CL_SUCCESS, HCL_EOPENCL, "cannot zero buffer '%s' of %zu bytes on '%s': %s", what, bytes,
          rt->device.device_name, hcl_cl_error_name(err));
  rt->buffer_bytes += (double)bytes;
  *out = buffer;
cleanup:
  return status;
}

double hcl_runtime_buffer_bytes(const Runtime *rt) {
  return rt->buffer_bytes;
}

HclStatus hcl_runtime_event_seconds(cl_event event, double *seconds) {
  HclStatus status = HCL_OK;
  cl_ulong start = 0, end = 0;
  TRY_CL(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL));
  TRY_CL(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL));
  *seconds = end > start ? (double)(end - start) * 1e-9 : 0.0;
cleanup:
  return status;
}

static HclStatus profile_entry(Runtime *rt, cl_kernel kernel, int *entry) {
  HclStatus status = HCL_OK;
  char name[KERNEL_NAME_MAX] = "";
  TRY_CL(clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL));
  for (*entry = 0; *entry < rt->nentries; (*entry)++) {
    if (strcmp(rt->entries[*entry].name, name) == 0) {
      goto cleanup;
    }
  }
  REQUIRE(rt->nentries < PROFILE_KERNELS_MAX, HCL_EINTERNAL, "more than %d distinct kernels to profile",
          PROFILE_KERNELS_MAX);
  rt->entries[rt->nentries] = (ProfileEntry){0};
  snprintf(rt->entries[rt->nentries].name, KERNEL_NAME_MAX, "%s", name);
  *entry = rt->nentries++;
cleanup:
  return status;
}

/* Waits for the pending launches and adds their times to the profile. */
static HclStatus profile_drain(Runtime *rt) {
  HclStatus status = HCL_OK;
  for (int i = 0; i < rt->npending; i++) {
    PendingLaunch *launch = &rt->pending[i];
    double seconds = 0.0;
    TRY_CL(clWaitForEvents(1, &launch->event));
    TRY(hcl_runtime_event_seconds(launch->event, &seconds));
    ProfileEntry *e = &rt->entries[launch->entry];
    e->calls++;
    e->seconds += seconds;
    e->bytes += launch->bytes;
  }
cleanup:
  release_pending(rt);
  return status;
}

HclStatus hcl_runtime_upload_reals(Runtime *rt, Precision p, const double *values, size_t n, const char *what,
                                   cl_mem *out) {
  HclStatus status = HCL_OK;
  void *host = NULL;
  size_t bytes = n * hcl_precision_bytes(p);
  *out = NULL;
  TRY_ALLOC_BYTES(host, bytes);
  for (size_t k = 0; k < n; k++) {
    if (p == PRECISION_DOUBLE) {
      ((double *)host)[k] = values[k];
    } else {
      ((float *)host)[k] = (float)values[k];
    }
  }
  TRY(hcl_runtime_buffer(rt, bytes, what, out));
  TRY_CL(clEnqueueWriteBuffer(rt->queue, *out, CL_TRUE, 0, bytes, host, 0, NULL, NULL));
cleanup:
  free(host);
  return status;
}

cl_command_queue hcl_runtime_queue_of(const Runtime *rt, RuntimeQueue which) {
  return which == QUEUE_TRANSFER ? rt->transfer_queue : rt->queue;
}

HclStatus hcl_runtime_launch(Runtime *rt, cl_kernel kernel, cl_uint dims, const size_t *offset, const size_t *global,
                             const size_t *local, double bytes_moved, cl_event *event) {
  HclStatus status = HCL_OK;
  cl_event launched = NULL;
  int entry = 0;
  bool want_event = rt->profile || event;
  TRY_CL(
      clEnqueueNDRangeKernel(rt->queue, kernel, dims, offset, global, local, 0, NULL, want_event ? &launched : NULL));
  rt->counts.launches++;
  if (rt->profile) {
    if (rt->npending == PROFILE_PENDING_MAX) {
      TRY(profile_drain(rt));
    }
    TRY(profile_entry(rt, kernel, &entry));
    TRY_CL(clRetainEvent(launched));
    rt->pending[rt->npending++] = (PendingLaunch){launched, entry, bytes_moved};
  }
  if (event) {
    *event = launched;
    launched = NULL;
  }
cleanup:
  if (launched) {
    clReleaseEvent(launched);
  }
  return status;
}

HclStatus hcl_runtime_finish(Runtime *rt) {
  HclStatus status = HCL_OK;
  TRY_CL(clFinish(rt->queue));
  rt->counts.waits++;
  TRY(profile_drain(rt));
cleanup:
  return status;
}

HclStatus hcl_runtime_read(Runtime *rt, cl_mem buffer, size_t offset, size_t bytes, void *host) {
  HclStatus status = HCL_OK;
  TRY_CL(clEnqueueReadBuffer(rt->queue, buffer, CL_TRUE, offset, bytes, host, 0, NULL, NULL));
  rt->counts.waits++;
cleanup:
  return status;
}

void hcl_runtime_count_wait(Runtime *rt) {
  rt->counts.waits++;
}

RuntimeCounts hcl_runtime_counts(const Runtime *rt) {
  return rt->counts;
}

void hcl_runtime_set_profile(Runtime *rt, bool on) {
  rt->profile = on;
}

HclStatus hcl_runtime_profile_clear(Runtime *rt) {
  HclStatus status = HCL_OK;
  TRY(hcl_runtime_finish(rt));
  rt->nentries = 0;
cleanup:
  return status;
}

HclStatus hcl_runtime_profile_seconds(Runtime *rt, const char *kernel, double *seconds, double *bytes) {
  HclStatus status = HCL_OK;
  TRY(hcl_runtime_finish(rt));
  *seconds = *bytes = 0;
  for (int i = 0; i < rt->nentries; i++) {
    if (strcmp(rt->entries[i].name, kernel) == 0) {
      *seconds = rt->entries[i].seconds;
      *bytes = rt->entries[i].bytes;
    }
  }
cleanup:
  return status;
}

HclStatus hcl_runtime_profile_total(Runtime *rt, double *seconds, double *bytes) {
  HclStatus status = HCL_OK;
  TRY(hcl_runtime_finish(rt));
  double moved = 0;
  *seconds = 0;
  for (int i = 0; i < rt->nentries; i++) {
    *seconds += rt->entries[i].seconds;
    moved += rt->entries[i].bytes;
  }
  if (bytes) {
    *bytes = moved;
  }
cleanup:
  return status;
}

static int by_time_descending(const void *a, const void *b) {
  double ta = ((const ProfileEntry *)a)->seconds, tb = ((const ProfileEntry *)b)->seconds;
  return (ta < tb) - (ta > tb);
}

HclStatus hcl_runtime_profile_report(Runtime *rt, FILE *out) {
  HclStatus status = HCL_OK;
  double total = 0.0;
  if (!rt->profile) {
    goto cleanup;
  }
  TRY(hcl_runtime_finish(rt));
  qsort(rt->entries, (size_t)rt->nentries, sizeof rt->entries[0], by_time_descending);
  for (int i = 0; i < rt->nentries; i++) {
    total += rt->entries[i].seconds;
  }
  fprintf(out, "profile device=\"%s\" kernels=%d seconds=%.6f\n", rt->device.device_name, rt->nentries, total);
  fprintf(out, "%-32s %10s %12s %12s %10s %7s\n", "kernel", "calls", "total_ms", "mean_us", "GB/s", "share");
  for (int i = 0; i < rt->nentries; i++) {
    const ProfileEntry *e = &rt->entries[i];
    fprintf(out, "%-32s %10ld %12.3f %12.3f %10.1f %6.1f%%\n", e->name, e->calls, e->seconds * 1e3,
            e->calls ? e->seconds * 1e6 / (double)e->calls : 0.0, e->seconds > 0 ? e->bytes / e->seconds * 1e-9 : 0.0,
            total > 0 ? 100.0 * e->seconds / total : 0.0);
  }
  /* The entries were re-sorted: event indices into them must not outlive this report. */
  rt->nentries = 0;
cleanup:
  return status;
}

int hcl_runtime_exact_grid(const DeviceInfo *dev) {
  return dev->type == DEVICE_TYPE_CPU;
}

/* The largest divisor of n that is at most limit. */
static size_t largest_divisor_up_to(size_t n, size_t limit) {
  for (size_t d = n < limit ? n : limit; d > 1; d--) {
    if (n % d == 0) {
      return d;
    }
  }
  return 1;
}

void hcl_runtime_grid_shape(const Runtime *rt, int nx, int ny, int wg_x, int wg_y, int rows_of_groups, size_t global[2],
                            size_t local[2]) {
  if (hcl_runtime_exact_grid(
          hcl_runtime_device(rt))) { /* a prime nx beyond the device's limit: one cell per group, slowly */
    local[0] = largest_divisor_up_to((size_t)nx, hcl_runtime_device(rt)->max_work_group_size);
    local[1] = 1;
    global[0] = (size_t)nx;
    global[1] = (size_t)rows_of_groups * (size_t)ny;
    return;
  }
  while ((size_t)wg_x * (size_t)wg_y > hcl_runtime_device(rt)->max_work_group_size && wg_x * wg_y > 1) {
    *(wg_y > 1 ? &wg_y : &wg_x) /= 2; /* a smaller device: fewer rows first, keeping the rows' coalesced width */
  }
  local[0] = (size_t)wg_x;
  local[1] = (size_t)wg_y;
  global[0] = ((size_t)nx + (size_t)wg_x - 1) / (size_t)wg_x * (size_t)wg_x;
  global[1] = (size_t)rows_of_groups * (((size_t)ny + (size_t)wg_y - 1) / (size_t)wg_y * (size_t)wg_y);
}
