/* SPDX-License-Identifier: BSD-3-Clause */
/* options.c: command-line parsing for hydrocl. */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "krylov.h"
#include "rrb.h"
#include "stencil5_precond.h"

/* A whole number from lo to hi for option (what it counts, for the message). */
static HclStatus parse_whole(const char *text, long lo, long hi, const char *option, const char *what, int *out) {
  HclStatus status = HCL_OK;
  char *end = NULL;
  errno = 0;
  long value = strtol(text, &end, 10);
  REQUIRE(errno == 0 && end != text && *end == '\0' && value >= lo && value <= hi, HCL_EUSAGE,
          "%s '%s' must be a whole number of %s from %ld to %ld", option, text, what, lo, hi);
  *out = (int)value;
cleanup:
  return status;
}

/* A time in seconds (positive where it must be). */
static HclStatus parse_seconds(const char *text, const char *option, bool positive, double *out) {
  HclStatus status = HCL_OK;
  char *end = NULL;
  errno = 0;
  *out = strtod(text, &end);
  REQUIRE(end != text && *end == '\0' && errno == 0 && isfinite(*out) && (!positive || *out > 0), HCL_EUSAGE,
          "%s '%s' must be %snumber of seconds", option, text, positive ? "a positive " : "a ");
cleanup:
  return status;
}

static HclStatus parse_size(const char *text, size_t *out) {
  HclStatus status = HCL_OK;
  char *end = NULL;
  errno = 0;
  unsigned long long value = strtoull(text, &end, 10);
  REQUIRE(errno == 0 && end != text && text[0] != '-', HCL_EUSAGE,
          "--size '%s' is not a positive integer (suffixes K, M, G allowed)", text);
  unsigned shift = 0;
  if (*end == 'K' || *end == 'k') {
    shift = 10;
  } else if (*end == 'M' || *end == 'm') {
    shift = 20;
  } else if (*end == 'G' || *end == 'g') {
    shift = 30;
  }
  end += shift ? 1 : 0;
  REQUIRE(*end == '\0' && value > 0 && value <= (~0ULL >> shift), HCL_EUSAGE,
          "--size '%s' is not a positive integer (suffixes K, M, G allowed)", text);
  *out = (size_t)(value << shift);
cleanup:
  return status;
}

/* The history attribute's line (CF 1.8 section 2.6.2): "2026-11-23T10:00:00Z: hydrocl run case.yml ...", the
 * command as a shell would take it again, arguments holding spaces or quotes in single quotes; cut at size. */
static void join_command_line(int argc, char **argv, char *out, size_t size) {
  size_t used = 0;
  time_t now = time(NULL);
  struct tm utc;
  gmtime_r(&now, &utc);
  used = strftime(out, size, "%Y-%m-%dT%H:%M:%SZ:", &utc);
  for (int i = 0; i < argc && used + 1 < size; i++) {
    bool plain = argv[i][0] != '\0' && strpbrk(argv[i], " \t'\"\\$`*?[]{}();&|<>#~") == NULL;
    int n = snprintf(out + used, size - used, plain ? " %s" : " '", argv[i]);
    used += n > 0 ? (size_t)n : 0;
    for (const char *c = argv[i]; !plain && *c && used + 5 < size; c++) { /* ' becomes '\'' */
      n = snprintf(out + used, size - used, *c == '\'' ? "'\\''" : "%c", *c);
      used += n > 0 ? (size_t)n : 0;
    }
    if (!plain && used + 1 < size) {
      out[used++] = '\'';
      out[used] = '\0';
    }
  }
}

HclStatus cli_parse(int argc, char **argv, CliOptions *o) {
  HclStatus status = HCL_OK;
  enum {
    LONG_KERNEL_DIR = 256,
    LONG_PROFILE,
    LONG_JSON,
    LONG_PRECISION,
    LONG_SIZE,
    LONG_LIST,
    LONG_VERSION,
    LONG_OVERWRITE,
    LONG_RESTART,
    LONG_SET,
    LONG_N,
    LONG_PRECONDITIONER,
    LONG_TOLERANCE,
    LONG_NORM,
    LONG_RRB_LEVELS,
    LONG_RRB_EXACT,
    LONG_METHOD,
    LONG_FORCE,
    LONG_PERIOD,
    LONG_WINDOW,
    LONG_HARMONICS,
    LONG_VARIABLE,
    LONG_REALTIME
  };
  static const struct option long_options[] = {
      {"device", required_argument, NULL, 'd'},
      {"kernel-dir", required_argument, NULL, LONG_KERNEL_DIR},
      {"profile", no_argument, NULL, LONG_PROFILE},
      {"json", no_argument, NULL, LONG_JSON},
      {"precision", required_argument, NULL, LONG_PRECISION},
      {"size", required_argument, NULL, LONG_SIZE},
      {"list", no_argument, NULL, LONG_LIST},
      {"output", required_argument, NULL, 'o'},
      {"overwrite", no_argument, NULL, LONG_OVERWRITE},
      {"force", no_argument, NULL, LONG_FORCE},
      {"realtime", no_argument, NULL, LONG_REALTIME},
      {"period", required_argument, NULL, LONG_PERIOD},
      {"window", required_argument, NULL, LONG_WINDOW},
      {"harmonics", required_argument, NULL, LONG_HARMONICS},
      {"variable", required_argument, NULL, LONG_VARIABLE},
      {"restart", required_argument, NULL, LONG_RESTART},
      {"set", required_argument, NULL, LONG_SET},
      {"n", required_argument, NULL, LONG_N},
      {"method", required_argument, NULL, LONG_METHOD},
      {"preconditioner", required_argument, NULL, LONG_PRECONDITIONER},
      {"tolerance", required_argument, NULL, LONG_TOLERANCE},
      {"norm", required_argument, NULL, LONG_NORM},
      {"rrb-levels", required_argument, NULL, LONG_RRB_LEVELS},
      {"rrb-exact", required_argument, NULL, LONG_RRB_EXACT},
      {"quiet", no_argument, NULL, 'q'},
      {"verbose", no_argument, NULL, 'v'},
      {"help", no_argument, NULL, 'h'},
      {"version", no_argument, NULL, LONG_VERSION},
      {NULL, 0, NULL, 0},
  };
  memset(o, 0, sizeof *o);
  o->device = getenv("HYDROCL_DEVICE") && getenv("HYDROCL_DEVICE")[0] ? getenv("HYDROCL_DEVICE") : "auto";
  o->kernel_dir = getenv("HYDROCL_KERNEL_DIR") && getenv("HYDROCL_KERNEL_DIR")[0] ? getenv("HYDROCL_KERNEL_DIR") : NULL;
  o->precision = hcl_precision_default();
  o->method = "cg";
  o->preconditioner = "rrb";
  o->tolerance = 1e-5;
  o->norm = "2";
  o->rrb_exact = RRB_EXACT_AUTO;
  o->harmonics = 3;
  join_command_line(argc, argv, o->command_line, sizeof o->command_line);
  opterr = 0;
  optind = 1;
  int c;
  while ((c = getopt_long(argc, argv, ":d:o:qvh", long_options, NULL)) != -1) {
    switch (c) {
    case 'd':
      o->device = optarg;
      o->given |= OPT_DEVICE;
      break;
    case LONG_KERNEL_DIR:
      o->kernel_dir = optarg;
      o->given |= OPT_KERNEL_DIR;
      break;
    case LONG_PROFILE:
      o->profile = true;
      o->given |= OPT_PROFILE;
      break;
    case LONG_JSON:
      o->json = true;
      o->given |= OPT_JSON;
      break;
    case LONG_PRECISION:
      if (strcmp(optarg, "mixed") == 0) { /* mixed keeps its fields in double (laplace.h) */
        o->precision = PRECISION_DOUBLE;
        o->given |= OPT_MIXED;
      } else {
        REQUIRE(strcmp(optarg, "single") == 0 || strcmp(optarg, "float") == 0 || strcmp(optarg, "double") == 0,
                HCL_EUSAGE,
                "unknown precision '%s' (allowed: single, double; mixed for a potential-flow case and solve-poisson)",
                optarg);
        TRY(hcl_precision_parse(optarg, &o->precision));
      }
      o->given |= OPT_PRECISION;
      break;
    case LONG_SIZE:
      TRY(parse_size(optarg, &o->size));
      o->given |= OPT_SIZE;
      break;
    case LONG_LIST:
      o->list = true;
      o->given |= OPT_LIST;
      break;
    case 'o':
      o->output_dir = optarg;
      o->given |= OPT_OUTPUT;
      break;
    case LONG_OVERWRITE:
      o->overwrite = true;
      o->given |= OPT_OVERWRITE;
      break;
    case LONG_FORCE:
      o->force = true;
      o->given |= OPT_FORCE;
      break;
    case LONG_REALTIME:
      o->realtime = true;
      o->given |= OPT_REALTIME;
      break;
    case LONG_RESTART:
      o->restart = optarg;
      o->given |= OPT_RESTART;
      break;
    case LONG_SET:
      REQUIRE(o->nsets < CLI_MAX_SETS, HCL_EUSAGE, "more than %d --set options", CLI_MAX_SETS);
      o->sets[o->nsets++] = optarg;
      o->given |= OPT_SET;
      break;
    case LONG_N:
      TRY(parse_whole(optarg, 1, 100000, "--n", "interior points", &o->n));
      o->given |= OPT_N;
      break;
    case LONG_RRB_LEVELS:
      TRY(parse_whole(optarg, 0, RRB_MAX_LEVELS, "--rrb-levels", "levels (0: no limit, else 2 or more)",
                      &o->rrb_levels));
      REQUIRE(o->rrb_levels != 1, HCL_EUSAGE,
              "--rrb-levels 1: level 1 is always eliminated (CG runs on its Schur complement); use 2 or more, or 0");
      o->given |= OPT_RRB_LEVELS;
      break;
    case LONG_RRB_EXACT:
      TRY(parse_whole(optarg, 0, RRB_EXACT_MAX, "--rrb-exact", "nodes (0: as many as the device holds)",
                      &o->rrb_exact));
      o->given |= OPT_RRB_EXACT;
      break;
    case LONG_PRECONDITIONER:
      o->preconditioner = strcmp(optarg, "plain") == 0 ? "none" : optarg;
      REQUIRE(hcl_stencil5_precond_find(o->preconditioner), HCL_EUSAGE, "--preconditioner '%s': use %s (plain is none)",
              optarg, hcl_stencil5_precond_names(false));
      o->given |= OPT_PRECONDITIONER;
      break;
    case LONG_METHOD: {
      KrylovMethod method;
      REQUIRE(hcl_krylov_method_parse(optarg, &method), HCL_EUSAGE, "--method '%s': use one of %s", optarg,
              hcl_krylov_method_choices());
      o->method = optarg;
      o->given |= OPT_METHOD;
      break;
    }
    case LONG_TOLERANCE: {
      char *end = NULL;
      o->tolerance = strtod(optarg, &end);
      REQUIRE(end != optarg && *end == '\0' && o->tolerance > 0 && o->tolerance < 1, HCL_EUSAGE,
              "--tolerance '%s' must be a number between 0 and 1 (a relative residual)", optarg);
      o->given |= OPT_TOLERANCE;
      break;
    }
    case LONG_NORM:
      REQUIRE(strcmp(optarg, "2") == 0 || strcmp(optarg, "m") == 0, HCL_EUSAGE,
              "--norm '%s': use 2 (the residual's 2-norm against ||b||) or m (its M^-1-norm against the first)",
              optarg);
      o->norm = optarg;
      o->given |= OPT_NORM;
      break;
    case LONG_PERIOD:
      TRY(parse_seconds(optarg, "--period", true, &o->period));
      o->given |= OPT_PERIOD;
      break;
    case LONG_WINDOW: /* two values: T0 here, T1 the next argument, taken before getopt sees it */
      REQUIRE(optind < argc, HCL_EUSAGE, "--window needs two times, T0 and T1 (seconds of the file's time axis)");
      TRY(parse_seconds(optarg, "--window", false, &o->window[0]));
      TRY(parse_seconds(argv[optind++], "--window", false, &o->window[1]));
      REQUIRE(o->window[1] > o->window[0], HCL_EUSAGE, "--window %s %s: T1 must come after T0", optarg,
              argv[optind - 1]);
      o->given |= OPT_WINDOW;
      break;
    case LONG_HARMONICS:
      TRY(parse_whole(optarg, 1, 32, "--harmonics", "harmonics", &o->harmonics));
      o->given |= OPT_HARMONICS;
      break;
    case LONG_VARIABLE:
      o->variable = optarg;
      o->given |= OPT_VARIABLE;
      break;
    case 'q':
      o->verbosity = -1;
      break;
    case 'v':
      o->verbosity = o->verbosity < 0 ? 1 : o->verbosity + 1;
      break;
    case 'h':
      o->command = "help";
      break;
    case LONG_VERSION:
      o->command = "version";
      break;
    case ':':
      FAIL(HCL_EUSAGE, "option '%s' needs a value (see hydrocl --help)", argv[optind - 1]);
    default: /* getopt names an unknown short option in optopt; a long one is the argument just read */
      if (optopt > 0 && optopt < 256) {
        FAIL(HCL_EUSAGE, "unknown option '-%c' (see hydrocl --help)", optopt);
      }
      FAIL(HCL_EUSAGE, "unknown option '%s' (see hydrocl --help)", argv[optind - 1]);
    }
  }
  if (!o->command) {
    REQUIRE(optind < argc, HCL_EUSAGE, "no command given (try: hydrocl info, hydrocl bench --list, hydrocl help)");
    o->command = argv[optind++];
  }
  o->args = argv + optind;
  o->nargs = argc - optind;
cleanup:
  return status;
}

static const char *option_name(unsigned bit) {
  static const char *const names[] = {
      "--device",    "--kernel-dir", "--profile",         "--json",    "--precision", "--size",           "--list",
      "--output",    "--overwrite",  "--restart",         "--set",     "--n",         "--preconditioner", "--tolerance",
      "--norm",      "--rrb-levels", "--rrb-exact",       "--method",  "--force",     "--period",         "--window",
      "--harmonics", "--variable",   "--precision mixed", "--realtime"};
  for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
    if (bit == 1u << i) {
      return names[i];
    }
  }
  return "?";
}

HclStatus cli_require_only(const CliOptions *o, unsigned allowed) {
  HclStatus status = HCL_OK;
  unsigned unused = o->given & ~allowed;
  REQUIRE(unused == 0, HCL_EUSAGE, "option %s has no effect on 'hydrocl %s' (see hydrocl --help)",
          option_name(unused & -unused), o->command);
cleanup:
  return status;
}
