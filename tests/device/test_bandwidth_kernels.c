/* SPDX-License-Identifier: BSD-3-Clause */
/* test_bandwidth_kernels.c: on every OpenCL device that passes the checks (PoCL in CI, GPUs where present), builds
 * kernels_cl/bandwidth.cl in float and (where available) double, runs pattern, copy and triad on sizes that are
 * not multiples of the work-group, and compares every element exactly (the values are small integers, exact in
 * both precisions). Also checks that --profile's per-kernel totals count every launch and that a new buffer reads
 * zero. No device is a failure. */
#include <stdlib.h>
#include <string.h>

#include "clerror.h"
#include "program.h"
#include "runtime.h"
#include "../support/tap.h"

enum { WG = 64 };

static HclStatus launch1(Runtime *rt, cl_kernel k, size_t n_items, double bytes) {
  size_t local = WG, global = (n_items + WG - 1) / WG * WG;
  return hcl_runtime_launch(rt, k, 1, NULL, &global, &local, bytes, NULL);
}

/* Runs the three kernels on n elements (n a multiple of vec) and checks the results on the host. */
static HclStatus check_kernels(Runtime *rt, Precision p, size_t n, bool *exact) {
  HclStatus status = HCL_OK;
  cl_program program = NULL;
  cl_kernel pattern = NULL, copy = NULL, triad = NULL;
  cl_mem a = NULL, b = NULL, c = NULL;
  double *host = NULL;
  void *raw = NULL;
  size_t bytes = hcl_precision_bytes(p);
  int vec = 16 / (int)bytes;
  char defines[16];
  snprintf(defines, sizeof defines, "-DVEC=%d", vec);
  KernelConfig config = {.precision = p, .wg_x = WG, .wg_y = 1, .defines = defines};
  cl_ulong count = n, nvec = n / (size_t)vec;
  cl_uint mod_b = 1000, mod_c = 7;
  double scalar_d = 3.0;
  float scalar_f = 3.0f;
  TRY(hcl_program_build(rt, "bandwidth", &config, &program));
  TRY(hcl_program_kernel(program, "pattern", &pattern));
  TRY(hcl_program_kernel(program, "copy", &copy));
  TRY(hcl_program_kernel(program, "triad", &triad));
  TRY(hcl_runtime_buffer(rt, n * bytes, "a", &a));
  TRY(hcl_runtime_buffer(rt, n * bytes, "b", &b));
  TRY(hcl_runtime_buffer(rt, n * bytes, "c", &c));
  TRY_CL(clSetKernelArg(pattern, 0, sizeof b, &b));
  TRY_CL(clSetKernelArg(pattern, 1, sizeof count, &count));
  TRY_CL(clSetKernelArg(pattern, 2, sizeof mod_b, &mod_b));
  TRY(launch1(rt, pattern, n, (double)(n * bytes)));
  TRY_CL(clSetKernelArg(pattern, 0, sizeof c, &c));
  TRY_CL(clSetKernelArg(pattern, 2, sizeof mod_c, &mod_c));
  TRY(launch1(rt, pattern, n, (double)(n * bytes)));
  TRY_CL(clSetKernelArg(copy, 0, sizeof a, &a));
  TRY_CL(clSetKernelArg(copy, 1, sizeof b, &b));
  TRY_CL(clSetKernelArg(copy, 2, sizeof nvec, &nvec));
  TRY(launch1(rt, copy, nvec, 2.0 * (double)(n * bytes)));
  TRY_ALLOC(host, n);
  TRY_ALLOC(raw, n * bytes);
  TRY_CL(clEnqueueReadBuffer(hcl_runtime_queue(rt), a, CL_TRUE, 0, n * bytes, raw, 0, NULL, NULL));
  *exact = true;
  for (size_t i = 0; i < n; i++) {
    double v = p == PRECISION_DOUBLE ? ((double *)raw)[i] : (double)((float *)raw)[i];
    *exact = *exact && v == (double)(i % 1000);
  }
  TRY_CL(clSetKernelArg(triad, 0, sizeof a, &a));
  TRY_CL(clSetKernelArg(triad, 1, sizeof b, &b));
  TRY_CL(clSetKernelArg(triad, 2, sizeof c, &c));
  if (p == PRECISION_DOUBLE) {
    TRY_CL(clSetKernelArg(triad, 3, sizeof scalar_d, &scalar_d));
  } else {
    TRY_CL(clSetKernelArg(triad, 3, sizeof scalar_f, &scalar_f));
  }
  TRY_CL(clSetKernelArg(triad, 4, sizeof nvec, &nvec));
  TRY(launch1(rt, triad, nvec, 3.0 * (double)(n * bytes)));
  TRY_CL(clEnqueueReadBuffer(hcl_runtime_queue(rt), a, CL_TRUE, 0, n * bytes, raw, 0, NULL, NULL));
  for (size_t i = 0; i < n; i++) {
    double v = p == PRECISION_DOUBLE ? ((double *)raw)[i] : (double)((float *)raw)[i];
    *exact = *exact && v == (double)(i % 1000) + 3.0 * (double)(i % 7);
  }
cleanup:
  free(host);
  free(raw);
  cl_mem buffers[] = {a, b, c};
  for (int i = 0; i < 3; i++) {
    if (buffers[i]) {
      clReleaseMemObject(buffers[i]);
    }
  }
  cl_kernel kernels[] = {pattern, copy, triad};
  for (int i = 0; i < 3; i++) {
    if (kernels[i]) {
      clReleaseKernel(kernels[i]);
    }
  }
  if (program) {
    clReleaseProgram(program);
  }
  return status;
}

/* hcl_runtime_buffer's buffers start zeroed (no kernel meets what the memory held before; on PoCL, memory never written
 * made the RRB preconditioner three times slower). A buffer filled with ones and released first makes the allocator
 * likely to hand the same memory back. */
static HclStatus check_zeroed(Runtime *rt, size_t bytes, size_t *nonzero) {
  HclStatus status = HCL_OK;
  cl_mem used = NULL, fresh = NULL;
  unsigned char *host = NULL;
  const cl_uchar ones = 0xff;
  TRY(hcl_runtime_buffer(rt, bytes, "test: used", &used));
  TRY_CL(clEnqueueFillBuffer(hcl_runtime_queue(rt), used, &ones, 1, 0, bytes, 0, NULL, NULL));
  TRY(hcl_runtime_finish(rt));
  clReleaseMemObject(used);
  used = NULL;
  TRY(hcl_runtime_buffer(rt, bytes, "test: fresh", &fresh));
  TRY_ALLOC(host, bytes);
  TRY_CL(clEnqueueReadBuffer(hcl_runtime_queue(rt), fresh, CL_TRUE, 0, bytes, host, 0, NULL, NULL));
  *nonzero = 0;
  for (size_t k = 0; k < bytes; k++) {
    *nonzero += host[k] != 0;
  }
cleanup:
  free(host);
  if (used) {
    clReleaseMemObject(used);
  }
  if (fresh) {
    clReleaseMemObject(fresh);
  }
  return status;
}

static void test_device(const DeviceInfo *dev) {
  Runtime *rt = NULL;
  RuntimeOptions options = {.kernel_dir = NULL, .profile = true};
  hcl_status_clear();
  HclStatus s = hcl_runtime_create(dev, &options, &rt);
  if (!TAP_OK(s == HCL_OK, "runtime on %d:%d %s: %s", dev->platform_index, dev->device_index, dev->device_name,
              hcl_status_message())) {
    return;
  }
  static const size_t sizes[] = {4, 1000, 4099 * 4};
  int launches = 0;
  for (int pi = 0; pi < 2; pi++) {
    Precision p = pi ? PRECISION_DOUBLE : PRECISION_SINGLE;
    if (p == PRECISION_DOUBLE && !dev->fp64) {
      tap_note("%s has no fp64: double not tested", dev->device_name);
      continue;
    }
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
      bool exact = false;
      hcl_status_clear();
      s = check_kernels(rt, p, sizes[si], &exact);
      TAP_OK(s == HCL_OK && exact, "%s: pattern, copy, triad exact in %s, n = %zu %s", dev->device_name,
             hcl_precision_name(p), sizes[si], hcl_status_message());
      launches += 4;
    }
  }
  size_t nonzero = 1;
  hcl_status_clear();
  s = check_zeroed(rt, (1u << 20) + 3, &nonzero);
  TAP_OK(s == HCL_OK && nonzero == 0, "%s: a new buffer of 2^20 + 3 bytes reads zero (%zu bytes not) %s",
         dev->device_name, nonzero, hcl_status_message());
  char *report = NULL;
  size_t report_size = 0;
  FILE *f = open_memstream(&report, &report_size);
  hcl_status_clear();
  s = hcl_runtime_profile_report(rt, f);
  fclose(f);
  TAP_OK(s == HCL_OK && tap_contains(report, "pattern") && tap_contains(report, "copy") &&
             tap_contains(report, "triad") && tap_contains(report, "GB/s"),
         "the profile lists every kernel with its bandwidth");
  /* The pattern kernel ran twice per case; the others once: calls must add up to the launches made. */
  long calls = 0;
  for (char *line = strtok(report, "\n"); line; line = strtok(NULL, "\n")) {
    char name[64];
    long n = 0;
    if (sscanf(line, "%63s %ld", name, &n) == 2) {
      calls += n;
    }
  }
  TAP_OK(calls == launches, "the profile counted %ld launches, %d were made", calls, launches);
  free(report);
  hcl_runtime_destroy(&rt);
  TAP_OK(rt == NULL, "hcl_runtime_destroy clears the handle");
}

int main(void) {
  DeviceInfo *devices = NULL;
  int count = 0, tested = 0;
  DeviceNeeds needs = {0};
  HclStatus s = hcl_device_list(&devices, &count);
  TAP_OK(s == HCL_OK && count > 0, "OpenCL devices found: %d %s", count, hcl_status_message());
  for (int i = 0; i < count; i++) {
    char why[512];
    if (hcl_device_check(&devices[i], &needs, why, sizeof why) != HCL_OK) {
      tap_note("skipping %s: %s", devices[i].device_name, why);
      continue;
    }
    test_device(&devices[i]);
    tested++;
  }
  TAP_OK(tested > 0, "at least one device was tested (%d)", tested);
  free(devices);
  return tap_done();
}
