/* SPDX-License-Identifier: BSD-3-Clause */
/* setup.c: from the --device string to a runtime on every rank, with the rank table of a multi-rank run. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>

#include "log.h"
#include "par.h"

enum { RANK_LINE = 200 };

/* Rank 0 prints one line per rank: rank, host, device string, device name. Collective. */
static HclStatus print_rank_table(const DeviceInfo *dev, bool shared) {
  HclStatus status = HCL_OK;
  char mine[RANK_LINE], id[16];
  char *all = NULL;
  snprintf(id, sizeof id, "%d:%d", dev->platform_index, dev->device_index);
  snprintf(mine, sizeof mine, "%-5d %-20.20s %-6s %s%s", hcl_par_rank(), hcl_par_hostname(), id, dev->device_name,
           shared ? " (shared)" : "");
  TRY(hcl_par_gather_lines(mine, RANK_LINE, &all));
  if (hcl_par_rank() == 0) {
    hcl_log_info("%-5s %-20s %-6s %s", "rank", "host", "device", "name");
    for (int r = 0; r < hcl_par_size(); r++) {
      hcl_log_info("%s", all + (size_t)r * RANK_LINE);
    }
  }
cleanup:
  free(all);
  return status;
}

HclStatus cli_open_runtime(const CliOptions *o, const DeviceNeeds *needs, Runtime **rt) {
  HclStatus status = HCL_OK;
  DeviceInfo *devices = NULL;
  int count = 0, chosen = -1;
  bool shared = false;
  *rt = NULL;
  HclStatus local = hcl_device_list(&devices, &count);
  if (local == HCL_OK) {
    local =
        hcl_device_select(devices, count, o->device, needs, hcl_par_node_rank(), hcl_par_node_size(), &chosen, &shared);
  }
  TRY(hcl_par_agree(local));
  const DeviceInfo *dev = &devices[chosen];
  if (hcl_par_size() > 1 || hcl_log_level() >= LOG_VERBOSE) {
    TRY(print_rank_table(dev, shared));
  }
  if (shared) {
    hcl_log_warn("%d ranks on host %s and fewer matching GPUs: this rank shares GPU %d:%d '%s'; start at most one "
                 "rank per GPU",
                 hcl_par_node_size(), hcl_par_hostname(), dev->platform_index, dev->device_index, dev->device_name);
  }
  RuntimeOptions options = {.kernel_dir = o->kernel_dir, .profile = o->profile};
  TRY(hcl_par_agree(hcl_runtime_create(dev, &options, rt)));
cleanup:
  free(devices);
  return status;
}
