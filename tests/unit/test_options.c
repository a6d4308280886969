/* SPDX-License-Identifier: BSD-3-Clause */
/* test_options.c: kernel build options, command-line parsing, precision names and JSON escaping. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json.h"
#include "program.h"
#include "../support/tap.h"

static HclStatus parse(CliOptions *o, int argc, const char **argv) {
  hcl_status_clear();
  return cli_parse(argc, (char **)argv, o);
}

int main(void) {
  DeviceInfo dev;
  memset(&dev, 0, sizeof dev);
  dev.fp64 = true;
  char options[512];
  KernelConfig config = {
      .precision = PRECISION_DOUBLE, .stencil_radius = 3, .wg_x = 32, .wg_y = 8, .defines = "-DVEC=2"};
  hcl_program_options(&dev, &config, options, sizeof options);
  TAP_OK(tap_contains(options, "-DREAL=double") && tap_contains(options, "-DREAL_IS_DOUBLE=1"),
         "double precision reaches the kernels: %s", options);
  TAP_OK(tap_contains(options, "-DSTENCIL_RADIUS=3") && tap_contains(options, "-DWG_X=32") &&
             tap_contains(options, "-DWG_Y=8") && tap_contains(options, "-DVEC=2"),
         "radius, work-group shape and component defines are options");
  TAP_OK(tap_contains(options, "-cl-std=CL1.2"), "kernels are built as OpenCL C 1.2");
  TAP_OK(!tap_contains(options, "fast-relaxed"), "no -cl-fast-relaxed-math by default");
  config.precision = PRECISION_SINGLE;
  dev.fp64 = false;
  hcl_program_options(&dev, &config, options, sizeof options);
  TAP_OK(tap_contains(options, "-DREAL=float") && tap_contains(options, "-DHCL_FP64=0"),
         "single precision on a device without fp64: %s", options);

  CliOptions o;
  setenv("HYDROCL_DEVICE", "pocl", 1);
  const char *a1[] = {"hydrocl", "bench", "bandwidth", "--size", "64K", "-vv", "--precision", "single"};
  TAP_OK(parse(&o, 8, a1) == HCL_OK, "options after the command parse");
  TAP_OK(strcmp(o.command, "bench") == 0 && o.nargs == 1 && strcmp(o.args[0], "bandwidth") == 0,
         "command and argument found");
  TAP_OK(o.size == 65536 && o.verbosity == 2 && o.precision == PRECISION_SINGLE, "--size 64K, -vv, --precision");
  TAP_OK(strcmp(o.device, "pocl") == 0, "HYDROCL_DEVICE supplies the default device string");
  const char *a2[] = {"hydrocl", "--device", "1:0", "info"};
  TAP_OK(parse(&o, 4, a2) == HCL_OK && strcmp(o.device, "1:0") == 0, "--device beats HYDROCL_DEVICE");
  unsetenv("HYDROCL_DEVICE");
  const char *a3[] = {"hydrocl", "bench", "bandwidth", "--size", "12Q"};
  TAP_OK(parse(&o, 5, a3) == HCL_EUSAGE && tap_contains(hcl_status_message(), "12Q"), "a bad --size is a usage error");
  const char *a4[] = {"hydrocl", "--precision", "half", "info"};
  TAP_OK(parse(&o, 4, a4) == HCL_EUSAGE && tap_contains(hcl_status_message(), "single, double"),
         "an unknown precision lists the allowed ones: %s", hcl_status_message());
  const char *a5[] = {"hydrocl", "--frobnicate", "info"};
  TAP_OK(parse(&o, 3, a5) == HCL_EUSAGE && tap_contains(hcl_status_message(), "--frobnicate"),
         "an unknown option is named");
  const char *a6[] = {"hydrocl", "info", "--size", "3"};
  TAP_OK(parse(&o, 4, a6) == HCL_OK, "parsing accepts any known option");
  hcl_status_clear();
  TAP_OK(cli_require_only(&o, OPT_DEVICE | OPT_JSON) == HCL_EUSAGE && tap_contains(hcl_status_message(), "--size"),
         "a command refuses an option it does not use: %s", hcl_status_message());
  const char *a7[] = {"hydrocl"};
  TAP_OK(parse(&o, 1, a7) == HCL_EUSAGE, "no command is a usage error");

  JsonObject j;
  hcl_json_begin(&j);
  hcl_json_string(&j, "name", "quote\" back\\ tab\t");
  hcl_json_number(&j, "x", 0.5);
  hcl_json_integer(&j, "n", -3);
  hcl_json_bool(&j, "b", true);
  hcl_json_number(&j, "nan", 0.0 / 0.0);
  TAP_OK(strcmp(hcl_json_end(&j), "{\"name\":\"quote\\\" back\\\\ tab\\u0009\",\"x\":0.5,\"n\":-3,\"b\":true,"
                                  "\"nan\":null}") == 0,
         "JSON escapes strings and writes NaN as null: %s", j.text);
  return tap_done();
}
