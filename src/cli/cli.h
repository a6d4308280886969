/* SPDX-License-Identifier: BSD-3-Clause */
/* cli.h: the command-line front end shared by the hydrocl subcommands. */
#ifndef HYDROCL_CLI_H
#define HYDROCL_CLI_H

#include "device.h"
#include "precision.h"
#include "runtime.h"
#include "status.h"

#include <stdbool.h>
#include <stddef.h>

/* Options, each a bit, so every command can refuse the ones it does not use. */
enum {
  OPT_DEVICE = 1 << 0,
  OPT_KERNEL_DIR = 1 << 1,
  OPT_PROFILE = 1 << 2,
  OPT_JSON = 1 << 3,
  OPT_PRECISION = 1 << 4,
  OPT_SIZE = 1 << 5,
  OPT_LIST = 1 << 6,
  OPT_OUTPUT = 1 << 7,
  OPT_OVERWRITE = 1 << 8,
  OPT_RESTART = 1 << 9,
  OPT_SET = 1 << 10,
  OPT_N = 1 << 11,
  OPT_PRECONDITIONER = 1 << 12,
  OPT_TOLERANCE = 1 << 13,
  OPT_NORM = 1 << 14,
  OPT_RRB_LEVELS = 1 << 15,
  OPT_RRB_EXACT = 1 << 16,
  OPT_METHOD = 1 << 17,
  OPT_FORCE = 1 << 18,
  OPT_PERIOD = 1 << 19,
  OPT_WINDOW = 1 << 20,
  OPT_HARMONICS = 1 << 21,
  OPT_VARIABLE = 1 << 22,
  OPT_MIXED = 1 << 23, /* --precision mixed, with OPT_PRECISION: the potential-flow solver's mixed precision */
  OPT_REALTIME = 1 << 24,
};

enum { CLI_MAX_SETS = 64, CLI_COMMAND_LINE = 2048 };

typedef struct {
  const char *command; /* "info", "bench", ... */
  char **args;         /* positional arguments after the command (borrowed from argv) */
  int nargs;
  unsigned given;         /* OPT_* bits the user set on the command line */
  const char *device;     /* --device, else HYDROCL_DEVICE, else "auto" */
  const char *kernel_dir; /* --kernel-dir, else HYDROCL_KERNEL_DIR, else NULL (embedded) */
  bool profile;
  bool json;
  bool list;
  Precision precision;            /* --precision, else the build's default (double for mixed: the fields' precision) */
  size_t size;                    /* --size, 0 when not given */
  const char *output_dir;         /* -o, --output; NULL: out/CASE */
  bool overwrite;                 /* --overwrite */
  bool force;                     /* --force */
  bool realtime;                  /* --realtime */
  const char *restart;            /* --restart latest|FILE; NULL when not given */
  const char *sets[CLI_MAX_SETS]; /* --set section.key=value, in order */
  int nsets;
  int n;                               /* --n: interior points per side of solve-poisson's grid; 0 when not given */
  const char *method;                  /* --method: a name of hcl_krylov_method_parse */
  const char *preconditioner;          /* --preconditioner: a name of stencil5_precond.h's registry, "rrb" by default */
  double tolerance;                    /* --tolerance, 1e-5 when not given */
  const char *norm;                    /* --norm: "2" (default) or "m", the residual norm the tolerance applies to */
  int rrb_levels;                      /* --rrb-levels: the RRB-k of the preconditioner, 0 (default): no limit */
  int rrb_exact;                       /* --rrb-exact: its exact last level's most nodes (default RRB_EXACT_AUTO) */
  double period;                       /* --period: analyze's fundamental period [s] */
  double window[2];                    /* --window T0 T1: analyze's samples from T0 to T1 [s] */
  int harmonics;                       /* --harmonics: how many analyze fits (default 3) */
  const char *variable;                /* --variable: analyze's variable (NULL: eta, else zeta) */
  int verbosity;                       /* -q: -1, default 0, -v: 1, -vv: 2 */
  char command_line[CLI_COMMAND_LINE]; /* "UTC time: argv", quoted for a shell (cut at the end when longer) */
} CliOptions;

/* Parses argv into o. Usage errors are HCL_EUSAGE with the message to print. */
/* The whole command: parses, dispatches, reports a failure; returns the process's exit status. A program that
 * registers a component of its own (a preconditioner: stencil5_precond.h) calls it after registering. */
int cli_main(int argc, char **argv);

HclStatus cli_parse(int argc, char **argv, CliOptions *o);
/* Refuses options that command does not use (PETSc's rule: an unused option is an error). */
HclStatus cli_require_only(const CliOptions *o, unsigned allowed);

/* Lists the devices, lets each rank take its own by node-local rank, prints the rank -> host -> device table
 * (rank 0, when there are several ranks or with -v), warns when ranks share a GPU, and creates the runtime.
 * All ranks agree on failure. Collective. */
HclStatus cli_open_runtime(const CliOptions *o, const DeviceNeeds *needs, Runtime **rt);

HclStatus cmd_info(const CliOptions *o);
HclStatus cmd_analyze(const CliOptions *o);
HclStatus cmd_bench(const CliOptions *o);
HclStatus cmd_run(const CliOptions *o);
HclStatus cmd_validate(const CliOptions *o);
HclStatus cmd_defaults(const CliOptions *o);
HclStatus cmd_solve_poisson(const CliOptions *o);

#endif
