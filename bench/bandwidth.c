/* SPDX-License-Identifier: BSD-3-Clause */
/* bandwidth.c: `hydrocl bench bandwidth`, STREAM-style copy (a = b: 2 n sizeof(REAL) bytes) and triad
 * (a = b + s c: 3 n sizeof(REAL) bytes) over a sweep of array sizes in float and double. Every launch is timed
 * by its OpenCL event; the best of at least five launches (and 0.2 s) is the reported rate, the median beside it.
 * Results are checked on sampled elements, so a broken kernel cannot report a rate. */
#include "bench.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "clerror.h"
#include "kernel.h"
#include "program.h"

enum { BYTES_PER_ACCESS = 16, WORK_GROUP = 256, MIN_REPS = 5, MAX_REPS = 200, SAMPLES = 64 };
static const double MIN_SECONDS = 0.2;
static const double TRIAD_SCALAR = 3.0;

typedef struct {
  Precision precision;
  int vec; /* REALs per work-item access */
  cl_program program;
  cl_kernel copy, triad, pattern;
} BandwidthKernels;

typedef struct {
  double best, median;
  int reps;
} Timing;

static void kernels_destroy(BandwidthKernels *k) {
  if (k->copy) {
    clReleaseKernel(k->copy);
  }
  if (k->triad) {
    clReleaseKernel(k->triad);
  }
  if (k->pattern) {
    clReleaseKernel(k->pattern);
  }
  if (k->program) {
    clReleaseProgram(k->program);
  }
  memset(k, 0, sizeof *k);
}

static HclStatus kernels_create(Runtime *rt, Precision precision, BandwidthKernels *k) {
  HclStatus status = HCL_OK;
  char defines[32];
  memset(k, 0, sizeof *k);
  k->precision = precision;
  k->vec = BYTES_PER_ACCESS / (int)hcl_precision_bytes(precision);
  snprintf(defines, sizeof defines, "-DVEC=%d", k->vec);
  KernelConfig config = {.precision = precision, .wg_x = WORK_GROUP, .wg_y = 1, .defines = defines};
  TRY(hcl_program_build(rt, "bandwidth", &config, &k->program));
  TRY(hcl_program_kernel(k->program, "copy", &k->copy));
  TRY(hcl_program_kernel(k->program, "triad", &k->triad));
  TRY(hcl_program_kernel(k->program, "pattern", &k->pattern));
cleanup:
  if (status != HCL_OK) {
    kernels_destroy(k);
  }
  return status;
}

static size_t round_up(size_t n, size_t multiple) {
  return (n + multiple - 1) / multiple * multiple;
}

static size_t work_group(const Runtime *rt) {
  size_t max = hcl_runtime_device(rt)->max_work_group_size;
  return max < WORK_GROUP ? max : WORK_GROUP;
}

/* x[i] = i mod modulus, exact in float for the moduli used here. */
static HclStatus fill_pattern(Runtime *rt, const BandwidthKernels *k, cl_mem x, size_t n, cl_uint modulus) {
  HclStatus status = HCL_OK;
  KernelArgs a = hcl_kernel_args(k->pattern);
  hcl_arg_mem(&a, x);
  hcl_arg_ulong(&a, n);
  hcl_arg_uint(&a, modulus);
  TRY(hcl_kernel_launch(rt, &a, hcl_kernel_range(rt, n, work_group(rt)),
                        (double)n * (double)hcl_precision_bytes(k->precision)));
cleanup:
  return status;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Launches a over n work-items until MIN_REPS and MIN_SECONDS are reached; event times only. */
static HclStatus time_launches(Runtime *rt, const KernelArgs *a, size_t n, double bytes, Timing *timing) {
  HclStatus status = HCL_OK;
  double seconds[MAX_REPS];
  double total = 0.0;
  cl_event event = NULL;
  KernelShape shape = hcl_kernel_range(rt, n, work_group(rt));
  int reps = 0;
  TRY(hcl_kernel_launch(rt, a, shape, bytes)); /* warm-up: first-touch, clocks */
  while (reps < MAX_REPS && (reps < MIN_REPS || total < MIN_SECONDS)) {
    TRY(hcl_kernel_launch_timed(rt, a, shape, bytes, &event));
    TRY_CL(clWaitForEvents(1, &event));
    TRY(hcl_runtime_event_seconds(event, &seconds[reps]));
    clReleaseEvent(event);
    event = NULL;
    total += seconds[reps++];
  }
  qsort(seconds, (size_t)reps, sizeof seconds[0], compare_doubles);
  timing->best = seconds[0];
  timing->median = seconds[reps / 2];
  timing->reps = reps;
cleanup:
  if (event) {
    clReleaseEvent(event);
  }
  return status;
}

/* Reads SAMPLES spread elements of x and compares them exactly with expected(i): the values are small integers,
 * exact in float and double, so any difference is a wrong kernel, not rounding. */
static HclStatus check_samples(Runtime *rt, cl_mem x, Precision precision, size_t n, double (*expected)(size_t),
                               const char *what) {
  HclStatus status = HCL_OK;
  size_t bytes = hcl_precision_bytes(precision);
  for (int s = 0; s < SAMPLES; s++) {
    size_t i = s == SAMPLES - 1 ? n - 1 : (size_t)s * (n / SAMPLES);
    union {
      float f;
      double d;
    } value;
    TRY_CL(clEnqueueReadBuffer(hcl_runtime_queue(rt), x, CL_TRUE, i * bytes, bytes, &value, 0, NULL, NULL));
    double got = precision == PRECISION_DOUBLE ? value.d : (double)value.f;
    REQUIRE(got == expected(i), HCL_EINTERNAL, "bandwidth %s kernel wrote %g at index %zu, expected %g (device '%s')",
            what, got, i, expected(i), hcl_runtime_device(rt)->device_name);
  }
cleanup:
  return status;
}

static double expected_copy(size_t i) {
  return (double)(i % 1000);
}

static double expected_triad(size_t i) {
  return (double)(i % 1000) + TRIAD_SCALAR * (double)(i % 7);
}

typedef struct {
  cl_mem a, b, c;
} Arrays;

static void arrays_release(Arrays *arrays) {
  cl_mem *all[] = {&arrays->a, &arrays->b, &arrays->c};
  for (int i = 0; i < 3; i++) {
    if (*all[i]) {
      clReleaseMemObject(*all[i]);
      *all[i] = NULL;
    }
  }
}

/* The sizes given reach here checked (requested_size, default_sizes), so bytes cannot have wrapped around. */
static HclStatus arrays_create(Runtime *rt, size_t bytes, Arrays *arrays) {
  HclStatus status = HCL_OK;
  memset(arrays, 0, sizeof *arrays);
  TRY(hcl_runtime_buffer(rt, bytes, "bandwidth array a", &arrays->a));
  TRY(hcl_runtime_buffer(rt, bytes, "bandwidth array b", &arrays->b));
  TRY(hcl_runtime_buffer(rt, bytes, "bandwidth array c", &arrays->c));
cleanup:
  if (status != HCL_OK) {
    arrays_release(arrays);
  }
  return status;
}

/* Times copy b -> a and, when triad is not NULL, triad a = b + s c on n elements; checks each result. */
static HclStatus measure(Runtime *rt, const BandwidthKernels *k, size_t n, Timing *copy, Timing *triad) {
  HclStatus status = HCL_OK;
  Arrays arrays;
  size_t real_bytes = hcl_precision_bytes(k->precision);
  size_t nvec = n / (size_t)k->vec;
  TRY(arrays_create(rt, n * real_bytes, &arrays));
  TRY(fill_pattern(rt, k, arrays.b, n, 1000));
  TRY(fill_pattern(rt, k, arrays.c, n, 7));
  KernelArgs a = hcl_kernel_args(k->copy);
  hcl_arg_mem(&a, arrays.a);
  hcl_arg_mem(&a, arrays.b);
  hcl_arg_ulong(&a, nvec);
  TRY(time_launches(rt, &a, nvec, 2.0 * (double)(n * real_bytes), copy));
  TRY(check_samples(rt, arrays.a, k->precision, n, expected_copy, "copy"));
  if (!triad) {
    goto cleanup;
  }
  a = hcl_kernel_args(k->triad);
  hcl_arg_mem(&a, arrays.a);
  hcl_arg_mem(&a, arrays.b);
  hcl_arg_mem(&a, arrays.c);
  hcl_arg_real(&a, k->precision, TRIAD_SCALAR);
  hcl_arg_ulong(&a, nvec);
  TRY(time_launches(rt, &a, nvec, 3.0 * (double)(n * real_bytes), triad));
  TRY(check_samples(rt, arrays.a, k->precision, n, expected_triad, "triad"));
cleanup:
  arrays_release(&arrays);
  return status;
}

/* The default sweep: 2^16 .. 2^28 elements (2^26 on CPUs, where larger arrays only cost time), keeping the three
 * arrays within half of global memory and each within the largest allocation. Returns the count. */
static int default_sizes(const DeviceInfo *dev, Precision precision, size_t sizes[], int capacity) {
  static const int log2_sizes[] = {16, 20, 24, 26, 28};
  int count = 0;
  for (size_t i = 0; i < sizeof log2_sizes / sizeof log2_sizes[0] && count < capacity; i++) {
    size_t n = (size_t)1 << log2_sizes[i];
    unsigned long long bytes = n * hcl_precision_bytes(precision);
    if ((dev->type == DEVICE_TYPE_CPU && log2_sizes[i] > 26) || 3 * bytes > dev->global_mem_bytes / 2 ||
        bytes > dev->max_alloc_bytes) {
      continue;
    }
    sizes[count++] = n;
  }
  return count;
}

/* --size rounded up to whole vectors, refused (HCL_EUSAGE) unless the three arrays fit in global memory and each
 * within the largest allocation. The limit is found by division, so no product of a huge --size can wrap around. */
static HclStatus requested_size(const BenchRequest *request, Precision precision, size_t *n) {
  HclStatus status = HCL_OK;
  const DeviceInfo *dev = hcl_runtime_device(request->rt);
  uint64_t bytes = hcl_precision_bytes(precision), vec = BYTES_PER_ACCESS / bytes;
  uint64_t by_memory = dev->global_mem_bytes / (3 * bytes), by_alloc = dev->max_alloc_bytes / bytes;
  uint64_t limit = (by_memory < by_alloc ? by_memory : by_alloc) / vec * vec;
  REQUIRE(request->size <= limit, HCL_EUSAGE,
          "bench bandwidth --size %zu: '%s' holds at most %llu %s elements per array (three arrays in %llu bytes of "
          "global memory, each at most %llu bytes); use a smaller --size",
          request->size, dev->device_name, (unsigned long long)limit, hcl_precision_name(precision),
          (unsigned long long)dev->global_mem_bytes, (unsigned long long)dev->max_alloc_bytes);
  *n = round_up(request->size, (size_t)vec);
cleanup:
  return status;
}

static void print_result(const BenchRequest *request, const char *name, Precision precision, size_t n, double bytes,
                         const Timing *t, double copy_gbs) {
  JsonObject j;
  double gbs = bytes / t->best * 1e-9;
  bench_json_begin(&j, request, "bandwidth", name, precision);
  hcl_json_integer(&j, "size", (long long)n);
  hcl_json_number(&j, "bytes", bytes);
  hcl_json_integer(&j, "reps", t->reps);
  hcl_json_number(&j, "seconds", t->best);
  hcl_json_number(&j, "seconds_median", t->median);
  hcl_json_number(&j, "gbs", gbs);
  hcl_json_number(&j, "gbs_median", bytes / t->median * 1e-9);
  hcl_json_number(&j, "fraction_of_copy", gbs / copy_gbs);
  hcl_json_print(&j, request->out);
}

static HclStatus sweep(const BenchRequest *request, Precision precision) {
  HclStatus status = HCL_OK;
  BandwidthKernels k = {0};
  size_t sizes[8];
  int nsizes = 0;
  if (request->size > 0) {
    TRY(requested_size(request, precision, &sizes[nsizes++]));
  } else {
    nsizes = default_sizes(hcl_runtime_device(request->rt), precision, sizes, 8);
  }
  TRY(kernels_create(request->rt, precision, &k));
  for (int s = 0; s < nsizes; s++) {
    Timing copy, triad;
    size_t real_bytes = hcl_precision_bytes(precision);
    TRY(measure(request->rt, &k, sizes[s], &copy, &triad));
    double copy_gbs = 2.0 * (double)(sizes[s] * real_bytes) / copy.best * 1e-9;
    print_result(request, "copy", precision, sizes[s], 2.0 * (double)(sizes[s] * real_bytes), &copy, copy_gbs);
    print_result(request, "triad", precision, sizes[s], 3.0 * (double)(sizes[s] * real_bytes), &triad, copy_gbs);
  }
cleanup:
  kernels_destroy(&k);
  return status;
}

HclStatus bench_bandwidth(const BenchRequest *request) {
  return bench_each_precision(request, "bandwidth", sweep);
}

HclStatus bench_copy_rate(Runtime *rt, Precision precision, double *gbs) {
  HclStatus status = HCL_OK;
  BandwidthKernels k = {0};
  size_t sizes[8];
  Timing copy;
  int nsizes = default_sizes(hcl_runtime_device(rt), precision, sizes, 8);
  REQUIRE(nsizes > 0, HCL_ENODEVICE, "device '%s' is too small for the copy benchmark",
          hcl_runtime_device(rt)->device_name);
  TRY(kernels_create(rt, precision, &k));
  TRY(measure(rt, &k, sizes[nsizes - 1], &copy, NULL));
  *gbs = 2.0 * (double)(sizes[nsizes - 1] * hcl_precision_bytes(precision)) / copy.best * 1e-9;
cleanup:
  kernels_destroy(&k);
  return status;
}
