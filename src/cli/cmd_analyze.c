/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_analyze.c: `hydrocl analyze harmonics FILE --period T [--window T0 T1] [--harmonics N] [--variable V]
 * [--json]`: the amplitudes and phases of harmonics 1..N of a variable at every station of a history or kinematics
 * file, by the least-squares fit of src/wave/harmonics.c (harmonics.h), as a table or JSON lines. */
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harmonics.h"
#include "history.h"
#include "json.h"
#include "par.h"

static const double PI = 3.14159265358979323846;

/* Station s's samples within the window that have a value (a dry gauge's are missing), into t and y. */
static int window_samples(const StationRecord *r, int s, const CliOptions *o, double *t, double *y) {
  int n = 0;
  bool windowed = (o->given & OPT_WINDOW) != 0;
  for (int k = 0; k < r->ntimes; k++) {
    double v = r->values[(size_t)s * r->ntimes + k];
    bool inside = !windowed || (r->time[k] >= o->window[0] && r->time[k] <= o->window[1]);
    if (inside && isfinite(v)) {
      t[n] = r->time[k];
      y[n++] = v;
    }
  }
  return n;
}

static void print_header(const StationRecord *r, const CliOptions *o, const char *path) {
  printf("harmonics of %s [%s] at the stations of %s: period %g s, ", r->variable, r->units, path, o->period);
  if (o->given & OPT_WINDOW) {
    printf("samples from t = %g s to %g s", o->window[0], o->window[1]);
  } else {
    printf("every sample");
  }
  printf(" (%s)\n%-16s %10s %10s %12s", r->time_units, "station", "x [m]", "y [m]", "mean");
  for (int h = 1; h <= o->harmonics; h++) {
    char a[16], p[32];
    snprintf(a, sizeof a, "A%d", h);
    snprintf(p, sizeof p, "phase%d [deg]", h);
    printf(" %12s %13s", a, p);
  }
  printf(" %12s %8s\n", "rms residual", "samples");
}

static void print_row(const StationRecord *r, int s, const Harmonics *fit, const CliOptions *o) {
  printf("%-16s %10.4f %10.4f %12.6g", r->names[s], r->x[s], r->y[s], fit->mean);
  for (int h = 1; h <= o->harmonics; h++) {
    printf(" %12.6g %13.4f", fit->amplitude[h], fit->phase[h] * 180.0 / PI);
  }
  printf(" %12.4g %8d\n", fit->rms_residual, fit->samples);
}

static void print_json(const StationRecord *r, int s, const Harmonics *fit, HclStatus fitted, const CliOptions *o,
                       const char *path) {
  JsonObject j;
  double amplitude[HARMONICS_MAX], phase[HARMONICS_MAX];
  hcl_json_begin(&j);
  hcl_json_string(&j, "file", path);
  hcl_json_string(&j, "station", r->names[s]);
  hcl_json_number(&j, "x", r->x[s]);
  hcl_json_number(&j, "y", r->y[s]);
  hcl_json_string(&j, "variable", r->variable);
  hcl_json_string(&j, "units", r->units);
  hcl_json_number(&j, "period", o->period);
  if (fitted != HCL_OK) {
    hcl_json_string(&j, "error", hcl_status_message());
    hcl_json_print(&j, stdout);
    return;
  }
  for (int h = 0; h < o->harmonics; h++) {
    amplitude[h] = fit->amplitude[h + 1];
    phase[h] = fit->phase[h + 1] * 180.0 / PI;
  }
  hcl_json_integer(&j, "samples", fit->samples);
  hcl_json_number(&j, "mean", fit->mean);
  hcl_json_numbers(&j, "amplitude", amplitude, o->harmonics);
  hcl_json_numbers(&j, "phase_deg", phase, o->harmonics);
  hcl_json_number(&j, "rms_residual", fit->rms_residual);
  hcl_json_print(&j, stdout);
}

/* Fits and prints every station; a station the fit cannot use (dry, too few samples) says why and the rest go on.
 * HCL_EDATA when no station has a fit: a script must not take an empty table for a result. */
static HclStatus analyze_stations(const StationRecord *r, const CliOptions *o, const char *path) {
  HclStatus status = HCL_OK;
  double *t = NULL, *y = NULL;
  int fits = 0;
  TRY_ALLOC(t, (size_t)r->ntimes + 1);
  TRY_ALLOC(y, (size_t)r->ntimes + 1);
  if (!o->json) {
    print_header(r, o, path);
  }
  for (int s = 0; s < r->nstations; s++) {
    Harmonics fit;
    int n = window_samples(r, s, o, t, y);
    HclStatus fitted = hcl_harmonics_fit(t, y, n, 2 * PI / o->period, o->harmonics, &fit);
    REQUIRE(fitted == HCL_OK || fitted == HCL_EDATA, fitted, "%s", hcl_status_message());
    fits += fitted == HCL_OK;
    if (o->json) {
      print_json(r, s, &fit, fitted, o, path);
    } else if (fitted == HCL_OK) {
      print_row(r, s, &fit, o);
    } else {
      printf("%-16s %10.4f %10.4f  no fit: %s\n", r->names[s], r->x[s], r->y[s], hcl_status_message());
    }
    hcl_status_clear();
  }
  REQUIRE(fits > 0, HCL_EDATA,
          "%s: none of its %d stations has a fit of %d harmonics of %s; each station's line says why", path,
          r->nstations, o->harmonics, r->variable);
cleanup:
  free(t);
  free(y);
  return status;
}

HclStatus cmd_analyze(const CliOptions *o) {
  HclStatus status = HCL_OK;
  StationRecord record = {0};
  TRY(cli_require_only(o, OPT_PERIOD | OPT_WINDOW | OPT_HARMONICS | OPT_VARIABLE | OPT_JSON));
  REQUIRE(o->nargs == 2 && strcmp(o->args[0], "harmonics") == 0, HCL_EUSAGE,
          "usage: hydrocl analyze harmonics FILE --period T [--window T0 T1] [--harmonics N] [--variable V] [--json]");
  REQUIRE(o->given & OPT_PERIOD, HCL_EUSAGE, "'hydrocl analyze harmonics' needs --period T, the fundamental in s");
  TRY(hcl_station_record_read(o->args[1], o->variable, &record));
  if (hcl_par_rank() == 0) {
    TRY(analyze_stations(&record, o, o->args[1]));
  }
cleanup:
  hcl_station_record_free(&record);
  return status;
}
