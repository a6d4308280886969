/* SPDX-License-Identifier: BSD-3-Clause */
/* cli_main.c: the hydrocl command (cli.h: cli_main). Maps every failure to one message and a sysexits(3) status; all
 * ranks agree. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "help.h"
#include "log.h"
#include "output.h"
#include "par.h"
#include "version.h"

/* Several ranks on one host must not share PoCL's kernel cache folder: concurrent builds of the same program race
 * on it. Give each node-local rank its own unless the user chose one. */
static void separate_pocl_caches(void) {
  char folder[512];
  if (hcl_par_node_size() == 1 || getenv("POCL_CACHE_DIR")) {
    return;
  }
  const char *tmp = getenv("TMPDIR") && getenv("TMPDIR")[0] ? getenv("TMPDIR") : "/tmp";
  snprintf(folder, sizeof folder, "%s/hydrocl-pocl-cache-%d-rank%d", tmp, (int)getuid(), hcl_par_node_rank());
  setenv("POCL_CACHE_DIR", folder, 0);
}

static HclStatus cmd_version(const CliOptions *o) {
  (void)o;
  if (hcl_par_rank() == 0) {
    printf("hydrocl %s (%s)\n", HYDROCL_VERSION, HYDROCL_GIT);
  }
  return HCL_OK;
}

/* Also `hydrocl COMMAND [args] --help`: COMMAND is then the argument. */
static HclStatus cmd_help(const CliOptions *o) {
  bool known = o->nargs == 0 || hcl_par_rank() != 0 || help_print_command(o->args[0], stdout);
  if (o->nargs == 0 && hcl_par_rank() == 0) {
    help_print_usage(stdout);
  }
  return known ? HCL_OK
               : hcl_status_set(HCL_EUSAGE, __FILE__, __LINE__, "no command '%s' (see hydrocl help)", o->args[0]);
}

static const struct {
  const char *name;
  HclStatus (*run)(const CliOptions *o);
} commands[] = {{"info", cmd_info},
                {"bench", cmd_bench},
                {"run", cmd_run},
                {"validate", cmd_validate},
                {"defaults", cmd_defaults},
                {"analyze", cmd_analyze},
                {"solve-poisson", cmd_solve_poisson},
                {"version", cmd_version},
                {"help", cmd_help}};

static HclStatus dispatch(const CliOptions *o) {
  for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++) {
    if (strcmp(o->command, commands[k].name) == 0) {
      return commands[k].run(o);
    }
  }
  return hcl_status_set(HCL_EUSAGE, __FILE__, __LINE__, "unknown command '%s' (see hydrocl help)", o->command);
}

/* The ranks agree on every failure and rank 0 holds its message (hcl_par_agree), so rank 0 says it once; the others say
 * it with -vv, for a failure that was not agreed. */
static void report_failure(HclStatus status) {
  const char *message = hcl_status_message()[0] ? hcl_status_message() : hcl_status_summary(status);
  if (hcl_par_rank() == 0) {
    hcl_log_error("%s", message);
  } else {
    hcl_log_debug("%s", message);
  }
  hcl_log_debug("failure recorded at %s (%s)", hcl_status_origin(), hcl_status_name(status));
}

int cli_main(int argc, char **argv) {
  CliOptions options;
  hcl_output_library_init();
  HclStatus status = hcl_par_init(&argc, &argv);
  if (status == HCL_OK) {
    status = cli_parse(argc, argv, &options);
    hcl_log_setup(status == HCL_OK ? (LogLevel)options.verbosity : LOG_INFO, hcl_par_rank(), hcl_par_size());
  }
  if (status == HCL_OK) {
    separate_pocl_caches();
    status = dispatch(&options);
  }
  if (status != HCL_OK) {
    report_failure(status);
  }
  hcl_par_finalize();
  return hcl_status_exit_code(status);
}
