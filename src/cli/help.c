/* SPDX-License-Identifier: BSD-3-Clause */
/* help.c: the text of `hydrocl help`, `hydrocl help COMMAND` (`hydrocl COMMAND --help`) and the man page, from one
 * table of commands and one of options, so the three never disagree (see help.h). Text only: no device, no MPI. */
#include "help.h"

#include <string.h>

#include "krylov.h"
#include "model.h"
#include "stencil5_precond.h"

typedef struct {
  unsigned bit; /* the option's OPT_* bit (cli.h), 0 for those every command takes */
  const char *flag;
  const char *text;
} OptionHelp;

static const OptionHelp option_help[] = {
    {OPT_DEVICE, "-d, --device S",
     "auto (default), gpu, cpu, P:D, or part of a platform/device name (default from HYDROCL_DEVICE)"},
    {OPT_PRECISION, "--precision P",
     "single or double (default: the build's -Dprecision); for a {models:mixed} case also mixed (its "
     "solver.precision by default)"},
    {OPT_KERNEL_DIR, "--kernel-dir D",
     "read kernels_cl sources from D instead of the embedded copies (default from HYDROCL_KERNEL_DIR)"},
    {OPT_PROFILE, "--profile", "time every kernel; print calls, time and GB/s per kernel at exit"},
    {OPT_JSON, "--json", "print JSON instead of a table"},
    {OPT_SIZE, "--size N", "problem size (suffixes K, M, G = 2^10, 2^20, 2^30); 'bench --list' says what it counts"},
    {OPT_LIST, "--list", "list the benchmarks"},
    {OPT_OUTPUT, "-o, --output DIR", "output folder (default out/CASE, CASE the case file's name)"},
    {OPT_OVERWRITE, "--overwrite", "replace the output of an earlier run in that folder"},
    {OPT_FORCE, "--force",
     "go on where the output may not fit the output folder's file system, or (with --restart) from a restart of "
     "another grid, bed or precision: the run keeps that restart's fields, time and step on this case's grid, bed "
     "and precision"},
    {OPT_REALTIME, "--realtime",
     "a {models:realtime} case: keep simulated time in step with the wall clock (a simulator's frames) and "
     "report frames that miss their deadline"},
    {OPT_RESTART, "--restart R", "continue from 'latest' (the newest restart in the output folder) or a file"},
    {OPT_SET, "--set K=V", "override a case key, e.g. --set grid.nx=400 (repeatable)"},
    {OPT_N, "--n N", "N x N interior points (required)"},
    {OPT_METHOD, "--method M", "{methods} (default cg)"},
    {OPT_PRECONDITIONER, "--preconditioner P", "{preconditioners} (default rrb; plain is none)"},
    {OPT_TOLERANCE, "--tolerance T", "stop at ||r|| <= T ||b|| (default 1e-5)"},
    {OPT_NORM, "--norm N",
     "2 (default: ||r||_2 <= T ||b||_2) or m (the paper's criterion: ||r||_M^-1 <= T ||r0||_M^-1, M the "
     "preconditioner)"},
    {OPT_RRB_LEVELS, "--rrb-levels K", "RRB-K, level K factorized exactly (default 0: as deep as --rrb-exact asks)"},
    {OPT_PERIOD, "--period T", "the fundamental period in seconds (the wave maker's)"},
    {OPT_WINDOW, "--window T0 T1",
     "fit the samples from T0 to T1 only, seconds of the file's time axis (default: all)"},
    {OPT_HARMONICS, "--harmonics N", "fit harmonics 1 to N, 1 to 32 (default 3)"},
    {OPT_VARIABLE, "--variable V", "the station variable to analyze (default: eta, else zeta)"},
    {OPT_RRB_EXACT, "--rrb-exact N",
     "eliminate levels until at most N nodes are left, then factorize exactly (1 to 256; default 0: as many as the "
     "device's local memory holds)"},
    {0, "-q, -v, -vv", "quieter, more verbose, debug"},
    {0, "-h, --help", "print this text; with a command (or 'hydrocl help COMMAND'), that command's"},
};

typedef struct {
  const char *name;
  const char *args;    /* what follows the command */
  const char *summary; /* one line, for the list of commands */
  const char *text;    /* a paragraph, for the command's own help */
  unsigned options;
} CommandHelp;

static const unsigned RUN_OPTIONS = OPT_DEVICE | OPT_KERNEL_DIR | OPT_PRECISION | OPT_SET | OPT_OUTPUT | OPT_FORCE;

static const CommandHelp command_help[] = {
    {"info", "", "list every OpenCL device with the --device string that selects it",
     "Lists the OpenCL platforms and devices this machine has, with the --device string that selects each, their "
     "memory, compute units, fp64 and OpenCL C version, and which device a run would take; with --json, also the "
     "OpenCL version, sub-groups and command buffers of each. The first line names the build: precision, MPI, "
     "netCDF (with or without parallel I/O) and PROJ.",
     OPT_DEVICE | OPT_JSON | OPT_PRECISION},
    {"run", "CASE", "run a case file (see cases/): map, history and restart files in -o DIR",
     "Runs the case file CASE (a {models} model, from its model.name) and writes map.nc, "
     "history.nc (and kinematics.nc for the wave model) and restarts into the output folder. Ctrl-C, SIGTERM or "
     "SIGUSR1 stop it with a restart (exit 75); --restart latest continues it bit for bit. Every mistake of the case "
     "is reported in one pass, with the file, line and key.",
     RUN_OPTIONS | OPT_PROFILE | OPT_OVERWRITE | OPT_RESTART | OPT_REALTIME},
    {"validate", "CASE", "check a case file and print the grid, time step, memory and output sizes",
     "Reads and checks the case file CASE as run would, allocates nothing on the device, and prints the grid, the "
     "coordinate reference system, the time step, the device memory the run needs and the output it writes against "
     "the space left.",
     RUN_OPTIONS},
    {"defaults", "MODEL", "print a commented case template with every key (MODEL: {models})",
     "Prints a case file for MODEL ({models}) with every key, its default, unit, allowed "
     "range and what it means, commented; the required keys are marked.",
     0},
    {"bench", "NAME", "run a benchmark (JSON lines on stdout); 'hydrocl bench --list' names them",
     "Runs the benchmark NAME and prints one JSON object per result on stdout, each with its effective bandwidth "
     "against the copy rate measured in the same run (bench/README.md). --list names the benchmarks and what --size "
     "means for each.",
     OPT_DEVICE | OPT_KERNEL_DIR | OPT_PROFILE | OPT_PRECISION | OPT_SIZE | OPT_LIST},
    {"analyze", "harmonics FILE",
     "amplitudes and phases of harmonics 1..N at every station of a history or kinematics file",
     "Fits mean + sum over n of A_n cos(n omega t - theta_n), omega = 2 pi / period, to the samples of a variable at "
     "every station of FILE (a history.nc or kinematics.nc) within the window, by least squares (exact for such a "
     "signal at any sampling), and prints the mean, A_n and theta_n (degrees) and the rms residual of each station as "
     "a table, or one JSON object a station with --json. A station with too few samples (a dry gauge) says why.",
     OPT_PERIOD | OPT_WINDOW | OPT_HARMONICS | OPT_VARIABLE | OPT_JSON},
    {"solve-poisson", "",
     "solve the RRB paper's model problem, -Laplace u = f on the unit square, and print iterations, residuals and "
     "the error against the exact solution",
     "Solves the RRB paper's model problem, -Laplace u = f on the unit square with N x N interior points, by CG, "
     "GMRES or defect correction with a preconditioner ({preconditioners}), and prints the iterations, the "
     "true residuals and the error against the exact solution. --precision mixed: the method in double, the "
     "preconditioner in float.",
     OPT_DEVICE | OPT_KERNEL_DIR | OPT_PROFILE | OPT_PRECISION | OPT_MIXED | OPT_N | OPT_PRECONDITIONER |
         OPT_TOLERANCE | OPT_NORM | OPT_RRB_LEVELS | OPT_RRB_EXACT | OPT_METHOD},
    {"version", "", "print the version", "Prints the version and the git commit it was built from.", 0},
    {"help", "[COMMAND]", "print this text, or a command's", "Prints the commands and options, or COMMAND's.", 0},
};

static const char *const exit_statuses[][2] = {
    {"0", "ok"},
    {"64", "usage error (an unknown option or command, a missing argument)"},
    {"65", "bad input data (every mistake of a case file, with file, line and key)"},
    {"66", "missing input (a case or input file that does not exist)"},
    {"69", "no suitable device (none found, no fp64 for double, not enough memory)"},
    {"70", "internal error or kernel build failure"},
    {"71", "system error (no host memory, MPI)"},
    {"73", "cannot create output (an existing output folder without --overwrite, one in use by another run)"},
    {"74", "I/O error (a full disk, an output file replaced under the run)"},
    {"75", "stopped by Ctrl-C, SIGTERM or SIGUSR1 after writing a restart; continue with --restart latest"},
    {"78", "an iterative solver did not converge; a run's last good state was written as a restart"},
    {"79", "the run diverged; its last good state was written as a restart"},
};

enum { COLUMN = 24, WIDTH = 100, TEXT_MAX = 2048 };

static const char *all_models(void) {
  return hcl_model_names(0);
}

static const char *mixed_models(void) {
  return hcl_model_names(MODEL_MIXED_PRECISION);
}

static const char *realtime_models(void) {
  return hcl_model_names(MODEL_REALTIME);
}

static const char *preconditioners(void) {
  return hcl_stencil5_precond_names(false);
}

static const char *methods(void) {
  return hcl_krylov_method_list();
}

/* text with the registries' lists in place of its placeholders: {models}, {models:mixed} and {models:realtime}, the
 * models (model.h) and those with that capability; {preconditioners}, the 5-point operator's (stencil5_precond.h);
 * {methods}, the Krylov methods (krylov.h).
 * Returns text itself when it has none, else buf. */
static const char *expand(const char *text, char *buf, size_t size) {
  static const struct {
    const char *placeholder;
    const char *(*list)(void);
  } lists[] = {{"{models}", all_models},
               {"{models:mixed}", mixed_models},
               {"{models:realtime}", realtime_models},
               {"{preconditioners}", preconditioners},
               {"{methods}", methods}};
  if (!strchr(text, '{')) {
    return text;
  }
  size_t used = 0;
  while (*text && used + 1 < size) {
    size_t k = 0, n = sizeof lists / sizeof lists[0];
    while (k < n && strncmp(text, lists[k].placeholder, strlen(lists[k].placeholder)) != 0) {
      k++;
    }
    if (k < n) {
      used += (size_t)snprintf(buf + used, size - used, "%s", lists[k].list());
      used = used < size ? used : size - 1;
      text += strlen(lists[k].placeholder);
    } else {
      buf[used++] = *text++;
    }
  }
  buf[used] = '\0';
  return buf;
}

/* Prints text from column `at` of the current line, wrapped at WIDTH, continuing lines indented by indent. */
static void print_wrapped(FILE *out, const char *text, int at, int indent) {
  char expanded[TEXT_MAX];
  text = expand(text, expanded, sizeof expanded);
  while (*text) {
    int room = WIDTH - at, length = (int)strlen(text);
    int cut = length;
    if (length > room) {
      cut = room;
      while (cut > 0 && text[cut] != ' ') {
        cut--;
      }
      cut = cut > 0 ? cut : room;
    }
    fprintf(out, "%.*s\n", cut, text);
    text += cut;
    text += strspn(text, " ");
    if (*text) {
      fprintf(out, "%*s", indent, "");
      at = indent;
    }
  }
}

/* "  flag" and its text from COLUMN (on the next line when the flag is longer). */
static void print_item(FILE *out, const char *flag, const char *text) {
  int used = fprintf(out, "  %s", flag);
  if (used >= COLUMN) {
    fprintf(out, "\n%*s", COLUMN, "");
  } else {
    fprintf(out, "%*s", COLUMN - used, "");
  }
  print_wrapped(out, text, COLUMN, COLUMN);
}

static void print_exit_statuses(FILE *out) {
  fprintf(out, "\nexit status:\n");
  for (size_t i = 0; i < sizeof exit_statuses / sizeof exit_statuses[0]; i++) {
    print_item(out, exit_statuses[i][0], exit_statuses[i][1]);
  }
}

static void print_options(FILE *out, unsigned options, bool all) {
  fprintf(out, "\noptions:\n");
  for (size_t i = 0; i < sizeof option_help / sizeof option_help[0]; i++) {
    const OptionHelp *h = &option_help[i];
    if (all || h->bit == 0 || (options & h->bit)) {
      print_item(out, h->flag, h->text);
    }
  }
}

void help_print_usage(FILE *out) {
  fprintf(out, "usage: hydrocl [options] COMMAND [args]\n\ncommands:\n");
  for (size_t i = 0; i < sizeof command_help / sizeof command_help[0]; i++) {
    char flag[64];
    snprintf(flag, sizeof flag, "%s%s%s", command_help[i].name, command_help[i].args[0] ? " " : "",
             command_help[i].args);
    print_item(out, flag, command_help[i].summary);
  }
  print_options(out, 0, true);
  fprintf(out, "\n'hydrocl help COMMAND' (or 'hydrocl COMMAND --help') says which options a command takes.\n");
  print_exit_statuses(out);
}

static const CommandHelp *find_command(const char *name) {
  for (size_t i = 0; i < sizeof command_help / sizeof command_help[0]; i++) {
    if (strcmp(command_help[i].name, name) == 0) {
      return &command_help[i];
    }
  }
  return NULL;
}

bool help_print_command(const char *name, FILE *out) {
  const CommandHelp *c = find_command(name);
  if (!c) {
    return false;
  }
  fprintf(out, "usage: hydrocl [options] %s%s%s\n\n", c->name, c->args[0] ? " " : "", c->args);
  print_wrapped(out, c->text, 0, 0);
  print_options(out, c->options, false);
  print_exit_statuses(out);
  return true;
}

/* Text for roff: a backslash doubled, a leading dot or quote escaped, hyphens of options as minus signs. */
static void print_roff(FILE *out, const char *text) {
  char expanded[TEXT_MAX];
  text = expand(text, expanded, sizeof expanded);
  for (const char *c = text; *c; c++) {
    if (*c == '\\') {
      fputs("\\e", out);
    } else if (*c == '-') {
      fputs("\\-", out);
    } else if ((*c == '.' || *c == '\'') && c == text) {
      fprintf(out, "\\&%c", *c);
    } else {
      fputc(*c, out);
    }
  }
}

static void print_roff_item(FILE *out, const char *flag, const char *text) {
  fputs(".TP\n.B ", out);
  print_roff(out, flag);
  fputc('\n', out);
  print_roff(out, text);
  fputc('\n', out);
}

void help_print_man_page(FILE *out, const char *version) {
  fprintf(out, ".TH HYDROCL 1 \"\" \"hydrocl %s\" \"User Commands\"\n", version);
  fputs(".SH NAME\nhydrocl \\- fully nonlinear waves and shallow-water flow on GPUs and CPUs (OpenCL)\n", out);
  fputs(".SH SYNOPSIS\n.B hydrocl\n[\\fIoptions\\fR] \\fICOMMAND\\fR [\\fIargs\\fR]\n.SH COMMANDS\n", out);
  for (size_t i = 0; i < sizeof command_help / sizeof command_help[0]; i++) {
    const CommandHelp *c = &command_help[i];
    char flag[64];
    snprintf(flag, sizeof flag, "%s%s%s", c->name, c->args[0] ? " " : "", c->args);
    print_roff_item(out, flag, c->text);
    fputs(".br\nOptions: ", out);
    bool first = true;
    for (size_t k = 0; k < sizeof option_help / sizeof option_help[0]; k++) {
      if (option_help[k].bit && (c->options & option_help[k].bit)) {
        fprintf(out, "%s", first ? "" : ", ");
        print_roff(out, option_help[k].flag);
        first = false;
      }
    }
    fputs(first ? "none of its own.\n" : ".\n", out);
  }
  fputs(".SH OPTIONS\n", out);
  for (size_t i = 0; i < sizeof option_help / sizeof option_help[0]; i++) {
    print_roff_item(out, option_help[i].flag, option_help[i].text);
  }
  fputs(".SH EXIT STATUS\n", out);
  for (size_t i = 0; i < sizeof exit_statuses / sizeof exit_statuses[0]; i++) {
    print_roff_item(out, exit_statuses[i][0], exit_statuses[i][1]);
  }
  fputs(".SH ENVIRONMENT\n", out);
  print_roff_item(out, "HYDROCL_DEVICE", "the default of --device");
  print_roff_item(out, "HYDROCL_KERNEL_DIR", "the default of --kernel-dir");
  fputs(".SH SEE ALSO\nThe README and bench/README.md of the source tree; tools/hydrocl-plot draws the output.\n", out);
}
