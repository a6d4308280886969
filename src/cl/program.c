/* SPDX-License-Identifier: BSD-3-Clause */
/* program.c: assembling kernels_cl sources, the build option string, and building with full diagnostics. */
#include "program.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clerror.h"
#include "embedded_kernels.h"
#include "log.h"

size_t hcl_program_options(const DeviceInfo *dev, const KernelConfig *config, char *buf, size_t size) {
  /* No -cl-fast-relaxed-math: the models' tolerances assume IEEE arithmetic (README, Benchmarks; common.clh). Float denormals
   * (below 1.2e-38: the tail of a Gaussian hump, a velocity decaying at rest) are flushed to zero: they mean nothing
   * physically, and Intel CPUs take ~100 cycles on each (PoCL on a Xeon: test case 1 in float 7x slower than in
   * double). Double is untouched. */
  int length = snprintf(
      buf, size,
      "-cl-std=CL1.2 -cl-denorms-are-zero -DREAL=%s -DREAL_IS_DOUBLE=%d -DHCL_FP64=%d -DSTENCIL_RADIUS=%d -DWG_X=%d "
      "-DWG_Y=%d -DEXACT_GRID=%d%s%s",
      hcl_precision_name(config->precision), config->precision == PRECISION_DOUBLE, dev->fp64 ? 1 : 0,
      config->stencil_radius, config->wg_x > 0 ? config->wg_x : 1, config->wg_y > 0 ? config->wg_y : 1,
      hcl_runtime_exact_grid(dev), config->defines ? " " : "", config->defines ? config->defines : "");
  return length < 0 ? 0 : (size_t)length;
}

static bool has_suffix(const char *name, const char *suffix) {
  size_t n = strlen(name), s = strlen(suffix);
  return n >= s && strcmp(name + n - s, suffix) == 0;
}

/* The text of one file, from kernel_dir or from the embedded copies. Caller frees *text. */
static HclStatus read_piece(const char *kernel_dir, const char *file, char **text) {
  HclStatus status = HCL_OK;
  FILE *f = NULL;
  char *buf = NULL;
  char path[4096];
  *text = NULL;
  if (!kernel_dir) {
    for (int i = 0; i < embedded_kernel_count; i++) {
      if (strcmp(embedded_kernels[i].name, file) == 0) {
        *text = strdup(embedded_kernels[i].text);
        REQUIRE(*text != NULL, HCL_ENOMEM, "cannot copy kernel source %s", file);
        goto cleanup;
      }
    }
    FAIL(HCL_ENOINPUT, "no kernel source '%s' is built into hydrocl", file);
  }
  snprintf(path, sizeof path, "%s/%s", kernel_dir, file);
  f = fopen(path, "rb");
  REQUIRE(f != NULL, HCL_ENOINPUT,
          "cannot open kernel source '%s': %s (kernel folder from --kernel-dir or "
          "HYDROCL_KERNEL_DIR; it must hold every file of kernels_cl/)",
          path, strerror(errno));
  REQUIRE(fseek(f, 0, SEEK_END) == 0, HCL_EIO, "cannot seek in '%s'", path);
  long length = ftell(f);
  REQUIRE(length >= 0 && fseek(f, 0, SEEK_SET) == 0, HCL_EIO, "cannot read the size of '%s'", path);
  TRY_ALLOC(buf, (size_t)length + 1);
  REQUIRE(fread(buf, 1, (size_t)length, f) == (size_t)length, HCL_EIO, "cannot read '%s'", path);
  *text = buf;
  buf = NULL;
cleanup:
  if (f) {
    fclose(f);
  }
  free(buf);
  return status;
}

/* Appends "#line 1 "file"\n" and the text to *acc, growing it. */
static HclStatus append_piece(char **acc, size_t *length, const char *file, const char *text) {
  HclStatus status = HCL_OK;
  char header[320];
  int header_length = snprintf(header, sizeof header, "#line 1 \"%s\"\n", file);
  size_t text_length = strlen(text);
  char *grown = realloc(*acc, *length + (size_t)header_length + text_length + 2);
  REQUIRE(grown != NULL, HCL_ENOMEM, "cannot assemble the source of %s", file);
  memcpy(grown + *length, header, (size_t)header_length);
  memcpy(grown + *length + header_length, text, text_length);
  *length += (size_t)header_length + text_length;
  grown[(*length)++] = '\n';
  grown[*length] = '\0';
  *acc = grown;
cleanup:
  return status;
}

HclStatus hcl_program_source(const char *kernel_dir, const char *component, char **text) {
  HclStatus status = HCL_OK;
  char *acc = NULL;
  char *piece = NULL;
  size_t length = 0;
  char file[256];
  *text = NULL;
  /* The shared .clh pieces, in name order, then the component. */
  for (int i = 0; i < embedded_kernel_count; i++) {
    if (has_suffix(embedded_kernels[i].name, ".clh")) {
      TRY(read_piece(kernel_dir, embedded_kernels[i].name, &piece));
      TRY(append_piece(&acc, &length, embedded_kernels[i].name, piece));
      free(piece);
      piece = NULL;
    }
  }
  snprintf(file, sizeof file, "%s.cl", component);
  TRY(read_piece(kernel_dir, file, &piece));
  TRY(append_piece(&acc, &length, file, piece));
  *text = acc;
  acc = NULL;
cleanup:
  free(acc);
  free(piece);
  return status;
}

/* "common.clh starts at line 2, bandwidth.cl at line 23": where each piece begins in the assembled program, for
 * compilers (NVIDIA's) that ignore #line and number the lines of the whole program. */
static void describe_line_map(const char *source, char *buf, size_t size) {
  int line = 1;
  size_t used = 0;
  buf[0] = '\0';
  for (const char *p = source; *p && used + 1 < size; line++) {
    char name[256];
    if (sscanf(p, "#line 1 \"%255[^\"]\"", name) == 1) {
      int n = snprintf(buf + used, size - used, "%s%s %s line %d", used ? ", " : "", name, used ? "at" : "starts at",
                       line + 1);
      used += n > 0 ? (size_t)n : 0;
    }
    const char *next = strchr(p, '\n');
    p = next ? next + 1 : p + strlen(p);
  }
}

/* HYDROCL_RECORD_BUILDS=FILE: appends "component<TAB>options" to FILE for each program this process builds (a program
 * the runtime's cache hands back again is not built again), for tools/kernels-offline, which compiles every program
 * a set of runs built for the GPU targets. One write of a whole line in append mode, so ranks writing at once
 * interleave lines, not characters. */
static HclStatus record_build(const char *component, const char *options) {
  HclStatus status = HCL_OK;
  const char *path = getenv("HYDROCL_RECORD_BUILDS");
  FILE *f = NULL;
  char line[4400];
  if (!path || !path[0]) {
    goto cleanup;
  }
  int length = snprintf(line, sizeof line, "%s\t%s\n", component, options);
  ASSERT(length > 0 && length < (int)sizeof line);
  f = fopen(path, "a");
  REQUIRE(f != NULL, HCL_EIO, "cannot append to '%s' (HYDROCL_RECORD_BUILDS): %s", path, strerror(errno));
  setvbuf(f, NULL, _IOFBF, sizeof line);
  REQUIRE(fputs(line, f) >= 0, HCL_EIO, "cannot append to '%s' (HYDROCL_RECORD_BUILDS): %s", path, strerror(errno));
cleanup:
  if (f && fclose(f) != 0 && status == HCL_OK) {
    status = HCL_EIO;
    hcl_log_error("cannot write '%s' (HYDROCL_RECORD_BUILDS): %s", path, strerror(errno));
  }
  return status;
}

HclStatus hcl_program_build(Runtime *rt, const char *component, const KernelConfig *config, cl_program *program) {
  HclStatus status = HCL_OK;
  char *source = NULL;
  char *log = NULL;
  char options[4096], line_map[512];
  cl_program built = NULL;
  cl_int err = CL_SUCCESS;
  const DeviceInfo *dev = hcl_runtime_device(rt);
  size_t log_size = 0;
  *program = NULL;
  TRY(hcl_program_source(hcl_runtime_kernel_dir(rt), component, &source));
  size_t length = hcl_program_options(dev, config, options, sizeof options);
  REQUIRE(length > 0 && length < sizeof options, HCL_EINTERNAL,
          "the build options of %s.cl take %zu characters, more than the %zu allowed (please report)", component,
          length, sizeof options);
  *program = hcl_runtime_find_program(rt, source, options);
  if (*program) {
    hcl_log_debug("reusing %s.cl for %d:%d built with '%s'", component, dev->platform_index, dev->device_index,
                  options);
    goto cleanup;
  }
  TRY(record_build(component, options));
  built = clCreateProgramWithSource(hcl_runtime_context(rt), 1, (const char **)&source, NULL, &err);
  TRY_CL(err);
  hcl_log_debug("building %s.cl for %d:%d with '%s'", component, dev->platform_index, dev->device_index, options);
  err = clBuildProgram(built, 1, &dev->id, options, NULL, NULL);
  if (err != CL_SUCCESS) {
    clGetProgramBuildInfo(built, dev->id, CL_PROGRAM_BUILD_LOG, 0, NULL, &log_size);
    TRY_ALLOC(log, log_size + 1);
    clGetProgramBuildInfo(built, dev->id, CL_PROGRAM_BUILD_LOG, log_size, log, NULL);
    describe_line_map(source, line_map, sizeof line_map);
    FAIL(HCL_EBUILD,
         "cannot build kernels_cl/%s.cl (%s) for device %d:%d '%s' (%s, driver %s)\n  sources: %s\n"
         "  options: %s\n  line map: %s\n  build log:\n%s",
         component, hcl_cl_error_name(err), dev->platform_index, dev->device_index, dev->device_name,
         dev->platform_name, dev->driver_version, hcl_runtime_kernel_dir(rt) ? hcl_runtime_kernel_dir(rt) : "embedded",
         options, line_map, log[0] ? log : "(empty)");
  }
  TRY(hcl_runtime_keep_program(rt, source, options, built));
  *program = built;
  built = NULL;
cleanup:
  if (built) {
    clReleaseProgram(built);
  }
  free(source);
  free(log);
  return status;
}

HclStatus hcl_program_kernel(cl_program program, const char *name, cl_kernel *kernel) {
  HclStatus status = HCL_OK;
  cl_int err = CL_SUCCESS;
  *kernel = clCreateKernel(program, name, &err);
  REQUIRE(err == CL_SUCCESS, HCL_EINTERNAL, "kernel '%s' not found in its program: %s", name, hcl_cl_error_name(err));
cleanup:
  return status;
}

HclStatus hcl_program_build_kernels(Runtime *rt, const char *component, const KernelConfig *config,
                                    const char *const *names, int count, cl_program *program, cl_kernel *kernels) {
  HclStatus status = HCL_OK;
  TRY(hcl_program_build(rt, component, config, program));
  for (int k = 0; k < count; k++) {
    TRY(hcl_program_kernel(*program, names[k], &kernels[k]));
  }
cleanup:
  return status;
}

void hcl_program_release(cl_program *program, cl_kernel *kernels, int count) {
  for (int k = 0; k < count; k++) {
    if (kernels[k]) {
      clReleaseKernel(kernels[k]);
      kernels[k] = NULL;
    }
  }
  if (*program) {
    clReleaseProgram(*program);
    *program = NULL;
  }
}
