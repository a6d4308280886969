/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_info.c: `hydrocl info [--json]`, every device with the exact --device string that selects it. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>

#include "json.h"
#include "log.h"
#include "par.h"
#include "version.h"

static double gib(uint64_t bytes) {
  return (double)bytes / (1024.0 * 1024.0 * 1024.0);
}

static void print_table(const DeviceInfo *devices, int count, int chosen, const CliOptions *o) {
  printf("hydrocl %s (%s), default precision %s, mpi %s, netcdf %s, proj %s, gdal %s\n", HYDROCL_VERSION, HYDROCL_GIT,
         hcl_precision_name(hcl_precision_default()), hcl_par_have_mpi() ? "yes" : "no",
         HYDROCL_HAVE_NETCDF_PARALLEL_IO ? "yes (parallel I/O)"
         : HYDROCL_HAVE_NETCDF           ? "yes"
                                         : "no",
         HYDROCL_HAVE_PROJ_LIBRARY ? "yes" : "no", HYDROCL_HAVE_GDAL_LIBRARY ? "yes" : "no");
  printf("  %-7s %-5s %-7s %-40s %10s %10s %5s %5s %-9s %s\n", "device", "type", "vendor", "name", "global",
         "max-alloc", "CUs", "fp64", "OpenCL C", "driver");
  for (int i = 0; i < count; i++) {
    const DeviceInfo *d = &devices[i];
    char id[16], cversion[16];
    snprintf(id, sizeof id, "%d:%d", d->platform_index, d->device_index);
    snprintf(cversion, sizeof cversion, "%d.%d", d->opencl_c_major, d->opencl_c_minor);
    printf("%c %-7s %-5s %-7s %-40.40s %6.1f GiB %6.1f GiB %5u %5s %-9s %s\n", i == chosen ? '*' : ' ', id,
           hcl_device_type_name(d->type), hcl_device_vendor_name(d->vendor), d->device_name, gib(d->global_mem_bytes),
           gib(d->max_alloc_bytes), d->compute_units, d->fp64 ? "yes" : "no", cversion, d->driver_version);
    if (d->refused[0]) {
      printf("          refused: %s\n", d->refused);
    }
  }
  printf("* = what --device %s picks for %s precision; platforms:", o->device, hcl_precision_name(o->precision));
  int last_platform = -1;
  for (int i = 0; i < count; i++) {
    if (devices[i].platform_index != last_platform) {
      last_platform = devices[i].platform_index;
      printf(" %d = %s;", last_platform, devices[i].platform_name);
    }
  }
  printf("\n");
}

static void print_json(const DeviceInfo *devices, int count, int chosen) {
  printf("[\n");
  for (int i = 0; i < count; i++) {
    const DeviceInfo *d = &devices[i];
    JsonObject j;
    char id[16];
    snprintf(id, sizeof id, "%d:%d", d->platform_index, d->device_index);
    hcl_json_begin(&j);
    hcl_json_string(&j, "device", id);
    hcl_json_string(&j, "name", d->device_name);
    hcl_json_string(&j, "platform", d->platform_name);
    hcl_json_string(&j, "vendor", hcl_device_vendor_name(d->vendor));
    hcl_json_string(&j, "type", hcl_device_type_name(d->type));
    hcl_json_integer(&j, "global_mem_bytes", (long long)d->global_mem_bytes);
    hcl_json_integer(&j, "max_alloc_bytes", (long long)d->max_alloc_bytes);
    hcl_json_integer(&j, "local_mem_bytes", (long long)d->local_mem_bytes);
    hcl_json_integer(&j, "compute_units", d->compute_units);
    hcl_json_integer(&j, "clock_mhz", d->clock_mhz);
    hcl_json_bool(&j, "fp64", d->fp64);
    hcl_json_bool(&j, "unified_memory", d->unified_memory);
    hcl_json_string(&j, "opencl_c_version", d->opencl_c_version);
    hcl_json_string(&j, "opencl_version", d->opencl_version);
    hcl_json_bool(&j, "subgroups", d->subgroups);
    hcl_json_bool(&j, "command_buffer", d->command_buffer);
    hcl_json_bool(&j, "device_enqueue", d->device_enqueue);
    hcl_json_string(&j, "driver_version", d->driver_version);
    hcl_json_string(&j, "refused", d->refused);
    hcl_json_bool(&j, "selected", i == chosen);
    printf("%s%s\n", hcl_json_end(&j), i + 1 < count ? "," : "");
  }
  printf("]\n");
  fflush(stdout);
}

HclStatus cmd_info(const CliOptions *o) {
  HclStatus status = HCL_OK;
  DeviceInfo *devices = NULL;
  int count = 0, chosen = -1;
  bool shared = false;
  DeviceNeeds needs = {.fp64 = o->precision == PRECISION_DOUBLE};
  TRY(cli_require_only(o, OPT_DEVICE | OPT_JSON | OPT_PRECISION));
  REQUIRE(o->nargs == 0, HCL_EUSAGE, "'hydrocl info' takes no arguments (got '%s')", o->args[0]);
  TRY(hcl_device_list(&devices, &count));
  HclStatus selected =
      hcl_device_select(devices, count, o->device, &needs, hcl_par_node_rank(), hcl_par_node_size(), &chosen, &shared);
  if (hcl_par_rank() == 0) {
    if (o->json) {
      print_json(devices, count, chosen);
    } else {
      print_table(devices, count, chosen, o);
    }
  }
  TRY(selected);
cleanup:
  free(devices);
  return status;
}
