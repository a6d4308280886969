/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_bench.c: `hydrocl bench NAME [--device S] [--size N] [--precision P]` and `hydrocl bench --list`. */
#include "cli.h"

#include <stdio.h>

#include "bench.h"
#include "log.h"
#include "par.h"

HclStatus cmd_bench(const CliOptions *o) {
  HclStatus status = HCL_OK;
  Runtime *rt = NULL;
  TRY(cli_require_only(o, OPT_DEVICE | OPT_KERNEL_DIR | OPT_PROFILE | OPT_PRECISION | OPT_SIZE | OPT_LIST));
  if (o->list) {
    if (hcl_par_rank() == 0) {
      bench_print_list(stdout);
    }
    goto cleanup;
  }
  REQUIRE(o->nargs == 1, HCL_EUSAGE, "'hydrocl bench' takes one benchmark name (see hydrocl bench --list)");
  const BenchEntry *entry = bench_find(o->args[0]);
  REQUIRE(entry != NULL, HCL_EUSAGE, "unknown benchmark '%s' (see hydrocl bench --list)", o->args[0]);
  /* Without --precision a benchmark runs double only where the device has it, so fp64 is not a requirement. */
  DeviceNeeds needs = {.fp64 = (o->given & OPT_PRECISION) && o->precision == PRECISION_DOUBLE};
  TRY(cli_open_runtime(o, &needs, &rt));
  BenchRequest request = {.rt = rt,
                          .precision_given = (o->given & OPT_PRECISION) != 0,
                          .precision = o->precision,
                          .size = o->size,
                          .out = stdout};
  TRY(hcl_par_agree(entry->run(&request)));
  TRY(hcl_runtime_profile_report(rt, stderr));
cleanup:
  hcl_runtime_destroy(&rt);
  return status;
}
