/* SPDX-License-Identifier: BSD-3-Clause */
/* test_build_failure.c: the kernel-folder paths of program.c: a folder copy builds, a syntax error is HCL_EBUILD
 * with the device, the options and a build log pointing at the right file, a missing file or folder is
 * HCL_ENOINPUT. Usage: test_build_failure KERNELS_CL_DIR */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "program.h"
#include "runtime.h"
#include "../support/tap.h"

static void write_file(const char *dir, const char *name, const char *text) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

static char *read_whole(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    return NULL;
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = calloc((size_t)n + 1, 1);
  if (text && fread(text, 1, (size_t)n, f) != (size_t)n) {
    text[0] = '\0';
  }
  fclose(f);
  return text;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s KERNELS_CL_DIR\n", argv[0]);
    return 2;
  }
  DeviceInfo *devices = NULL;
  int count = 0, chosen = -1;
  bool shared = false;
  DeviceNeeds needs = {0};
  Runtime *rt = NULL;
  cl_program program = NULL;
  KernelConfig config = {.precision = PRECISION_SINGLE, .wg_x = 64, .wg_y = 1, .defines = "-DVEC=4"};
  TAP_OK(hcl_device_list(&devices, &count) == HCL_OK &&
             hcl_device_select(devices, count, "auto", &needs, 0, 1, &chosen, &shared) == HCL_OK,
         "a device: %s", hcl_status_message());
  if (chosen < 0) {
    return tap_done();
  }
  const DeviceInfo *dev = &devices[chosen];

  char dir[] = "/tmp/hydrocl-kernels-XXXXXX";
  TAP_OK(mkdtemp(dir) != NULL, "temporary kernel folder");
  char path[1024];
  snprintf(path, sizeof path, "%s/common.clh", argv[1]);
  char *common = read_whole(path);
  snprintf(path, sizeof path, "%s/bandwidth.cl", argv[1]);
  char *bandwidth = read_whole(path);
  TAP_OK(common && bandwidth, "read the kernels_cl sources from %s", argv[1]);
  write_file(dir, "common.clh", common ? common : "");
  write_file(dir, "bandwidth.cl", bandwidth ? bandwidth : "");

  RuntimeOptions from_folder = {.kernel_dir = dir};
  hcl_status_clear();
  TAP_OK(hcl_runtime_create(dev, &from_folder, &rt) == HCL_OK, "runtime reading kernels from %s", dir);
  hcl_status_clear();
  TAP_OK(hcl_program_build(rt, "bandwidth", &config, &program) == HCL_OK, "a faithful copy of kernels_cl builds: %s",
         hcl_status_message());
  if (program) {
    clReleaseProgram(program);
    program = NULL;
  }

  /* Line 3 of bandwidth.cl has the error; #line directives must make the log say so. */
  write_file(dir, "bandwidth.cl", "/* broken on purpose */\n\n__kernel void copy(__global float *x) { x[0] = ; }\n");
  hcl_status_clear();
  HclStatus s = hcl_program_build(rt, "bandwidth", &config, &program);
  const char *m = hcl_status_message();
  TAP_OK(s == HCL_EBUILD, "a syntax error is a build failure (%s)", hcl_status_name(s));
  TAP_OK(tap_contains(m, dev->device_name), "the message names the device");
  TAP_OK(tap_contains(m, "options: -cl-std=CL1.2") && tap_contains(m, "-DVEC=4"), "and the full option string");
  /* PoCL honours the #line directives ("bandwidth.cl:3:"); NVIDIA numbers the whole program ("<kernel>:26:"),
   * which the line map translates. Either way the log must point at line 3 of bandwidth.cl. */
  const char *map = strstr(m, "bandwidth.cl at line ");
  int start = map ? atoi(map + strlen("bandwidth.cl at line ")) : -1;
  char program_line[32];
  snprintf(program_line, sizeof program_line, ":%d:", start + 2);
  TAP_OK(tap_contains(m, "build log:") && start > 1 &&
             (tap_contains(m, "bandwidth.cl:3:") || tap_contains(m, program_line)),
         "and the build log, pointing at bandwidth.cl line 3 directly or through the line map:\n%s", m);
  TAP_OK(program == NULL, "no program is returned");

  snprintf(path, sizeof path, "%s/bandwidth.cl", dir);
  unlink(path);
  hcl_status_clear();
  s = hcl_program_build(rt, "bandwidth", &config, &program);
  TAP_OK(s == HCL_ENOINPUT && tap_contains(hcl_status_message(), "bandwidth.cl"),
         "a missing source is missing input: %s", hcl_status_message());
  hcl_runtime_destroy(&rt);

  snprintf(path, sizeof path, "%s/common.clh", dir);
  unlink(path);
  rmdir(dir);
  RuntimeOptions missing = {.kernel_dir = dir};
  hcl_status_clear();
  s = hcl_runtime_create(dev, &missing, &rt);
  TAP_OK(s == HCL_ENOINPUT && tap_contains(hcl_status_message(), dir) && rt == NULL,
         "a missing kernel folder is refused before any build: %s", hcl_status_message());
  free(common);
  free(bandwidth);
  free(devices);
  return tap_done();
}
