/* SPDX-License-Identifier: BSD-3-Clause */
/* test_inputs.c: grids and time series from CSV and netCDF: values read exactly, packed netCDF values
 * unpacked, wrong shapes, missing points and bad lines refused with file:line, both shapes or the point, missing
 * files as missing input, headers after comments, and linear interpolation of a series. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "history.h"
#include "inputs.h"
#include "../support/tap.h"

#ifdef HYDROCL_HAVE_NETCDF
#include <netcdf.h>
#endif

static char folder[] = "/tmp/hydrocl-inputs-XXXXXX";
static const double START = 946684800.0; /* the run's t = 0: 2000-01-01 00:00:00 UTC, seconds since 1970 */

static const char *write_file(const char *name, const char *text) {
  static char path[512];
  snprintf(path, sizeof path, "%s/%s", folder, name);
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
  return path;
}

static HclStatus grid(const char *path, const char *variable, int nx, int ny, double *values) {
  hcl_status_clear();
  return hcl_input_read_grid(path, variable, nx, ny, NULL, values, NULL);
}

static HclStatus series(const char *path, double **t, double **v, int *n) {
  hcl_status_clear();
  free(*t);
  free(*v);
  *t = *v = NULL;
  return hcl_input_read_series(path, START, "m", t, v, n);
}

/* Dates against values from Python's datetime (calendar.timegm). */
static void test_dates(void) {
  const struct {
    const char *text;
    double seconds;
  } good[] = {{"1970-01-01", 0},
              {"2000-01-01 00:00:00", 946684800},
              {"2024-02-29T12:30:15Z", 1709209815},
              {"1969-12-31 23:59", -60},
              {"2023-06-01 06:00:00 UTC", 1685599200},
              {"2023-06-01T00:00:00+02:00", 1685570400},
              {"2023-06-01T08:00:00+0200", 1685599200},
              {"2023-06-01 00:30-05:30", 1685599200},
              {"2023-06-01T06:00+00", 1685599200},
              {"2024-01-01T00:00:00-12:00", 1704110400}};
  bool all = true;
  for (size_t k = 0; k < sizeof good / sizeof good[0]; k++) {
    double seconds = NAN;
    all = all && hcl_input_parse_date(good[k].text, &seconds) && seconds == good[k].seconds;
  }
  TAP_OK(all, "dates parse to their seconds since 1970 (leap days, before 1970, 'T', 'Z', ' UTC', UTC offsets)");
  const char *const bad[] = {"2023-02-29",
                             "2023-06-31",
                             "2023-13-01",
                             "2023-06-01 24:00",
                             "01/06/2023",
                             "2023-06-01x",
                             "",
                             "2023-06-01T00:00+2",
                             "2023-06-01T00:00+02:0",
                             "2023-06-01T00:00+15:00",
                             "2023-06-01T00:00+02:60",
                             "2023-06-01T00:00+02:00Z",
                             "2023-06-01T00:00 +02:00"};
  bool none = true;
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    double seconds = 0;
    none = none && !hcl_input_parse_date(bad[k], &seconds);
  }
  TAP_OK(none, "days that do not exist, offsets beyond +-14:00 or of other forms, and other forms are refused");
  /* Issue 27, fuzz_casefile: time.start '2000-01-01 00:00:nan' parsed to NaN seconds, and run_time_units cast NaN to
   * time_t (undefined behaviour). */
  const char *const not_times[] = {"2000-01-01 00:00:nan", "2000-01-01 00:00:inf", "2000-01-01 00:00: 5",
                                   "2000-01-01 00:00:-0",  "2000-01-01 -1:00",     "2000-01-01 00:-5:00"};
  none = true;
  for (size_t k = 0; k < sizeof not_times / sizeof not_times[0]; k++) {
    double seconds = 0;
    none = none && !hcl_input_parse_date(not_times[k], &seconds);
  }
  TAP_OK(none, "a time whose seconds are not a number from 0 to 61, or whose hour or minute is negative, is refused");
}

#ifdef HYDROCL_HAVE_NETCDF
/* Writes folder/name with a 2 x 3 (y, x) variable 'level' of type type, holding values unless values is NULL (then
 * never written), with the double attributes names[i] = numbers[i]; _FillValue and missing_value in the variable's
 * type, as CF asks. Returns the path. */
static const char *write_level_nc(const char *name, nc_type type, const double *values, int natts,
                                  const char *const *names, const double *numbers) {
  static char path[512];
  int ncid, dims[2], var;
  snprintf(path, sizeof path, "%s/%s", folder, name);
  nc_create(path, NC_NETCDF4 | NC_CLOBBER, &ncid);
  nc_def_dim(ncid, "y", 2, &dims[0]);
  nc_def_dim(ncid, "x", 3, &dims[1]);
  nc_def_var(ncid, "level", type, 2, dims, &var);
  for (int i = 0; i < natts; i++) {
    bool packing = strcmp(names[i], "scale_factor") == 0 || strcmp(names[i], "add_offset") == 0;
    nc_put_att_double(ncid, var, names[i], packing ? NC_DOUBLE : type, 1, &numbers[i]);
  }
  nc_enddef(ncid);
  if (values) {
    nc_put_var_double(ncid, var, values);
  }
  nc_close(ncid);
  return path;
}

/* Writes folder/name with a series 'level(time)' of n samples and its coordinate 'time(time)' in units and calendar
 * (NULL: none); a missing_value of -999 on level. Returns the path. */
static const char *write_series_nc_calendar(const char *name, const char *units, const char *calendar,
                                            const double *times, const double *levels, size_t n) {
  static char path[512];
  int ncid, dim, time_var, level_var;
  double missing = -999;
  snprintf(path, sizeof path, "%s/%s", folder, name);
  nc_create(path, NC_NETCDF4 | NC_CLOBBER, &ncid);
  nc_def_dim(ncid, "time", n, &dim);
  nc_def_var(ncid, "time", NC_DOUBLE, 1, &dim, &time_var);
  if (units) {
    nc_put_att_text(ncid, time_var, "units", strlen(units), units);
  }
  if (calendar) {
    nc_put_att_text(ncid, time_var, "calendar", strlen(calendar), calendar);
  }
  nc_def_var(ncid, "level", NC_DOUBLE, 1, &dim, &level_var);
  nc_put_att_double(ncid, level_var, "missing_value", NC_DOUBLE, 1, &missing);
  nc_enddef(ncid);
  nc_put_var_double(ncid, time_var, times);
  nc_put_var_double(ncid, level_var, levels);
  nc_close(ncid);
  return path;
}

static const char *write_series_nc(const char *name, const char *units, const double *times, const double *levels,
                                   size_t n) {
  return write_series_nc_calendar(name, units, NULL, times, levels, n);
}

/* A time series from netCDF: the times of its coordinate variable in seconds, whatever the unit; other references,
 * missing units, decreasing times and missing samples refused. */
static void test_netcdf_series(void) {
  const double hours[3] = {0, 0.5, 2}, levels[3] = {1, 2.5, -0.25}, back[3] = {0, 2, 1}, gap[3] = {1, -999, 2};
  double *t = NULL, *v = NULL;
  int n = 0;
  HclStatus s = series(write_series_nc("tide.nc", "hours", hours, levels, 3), &t, &v, &n);
  TAP_OK(s == HCL_OK && n == 3 && t[1] == 1800 && t[2] == 7200 && v[1] == 2.5 && v[2] == -0.25,
         "a netCDF series reads its times in hours as seconds %s", hcl_status_message());
  s = series(write_series_nc("since.nc", "seconds since 2000-01-01 00:00:00", hours, levels, 3), &t, &v, &n);
  TAP_OK(s == HCL_OK && n == 3 && t[1] == 0.5, "seconds since the model's reference %s", hcl_status_message());
  s = series(write_series_nc("dated.nc", "hours since 2000-01-01 06:00", hours, levels, 3), &t, &v, &n);
  TAP_OK(s == HCL_OK && n == 3 && t[0] == 21600 && t[2] == 28800,
         "a series dated since another time lines up with the run's start (6 h later: +21600 s) %s",
         hcl_status_message());
  s = series(write_series_nc("epoch.nc", "days since 1999-12-31", hours, levels, 3), &t, &v, &n);
  TAP_OK(s == HCL_OK && t[0] == -86400 && t[1] == -43200, "one that starts before it, too %s", hcl_status_message());
  s = series(write_series_nc("baddate.nc", "hours since yesterday", hours, levels, 3), &t, &v, &n);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "are not units UDUNITS-2 reads"),
         "an unreadable date is refused: %s", hcl_status_message());
  /* Issue 32, 3: every form UDUNITS-2 reads (an ISO 8601 origin with its zone, symbols, singular names, any unit
   * of time), and a unit that is not a time refused. */
  static const struct {
    const char *units;
    double t1; /* the run's seconds of the second sample, 0.5 of the unit */
  } forms[] = {{"hours since 2000-01-01T00:00:00+00:00", 1800},
               {"hours since 2000-01-01T01:00:00+01:00", 1800},
               {"h", 1800},
               {"hour", 1800},
               {"min since 2000-01-01 00:00:00 UTC", 30},
               {"fortnights", 604800}};
  for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
    s = series(write_series_nc("forms.nc", forms[f].units, hours, levels, 3), &t, &v, &n);
    TAP_OK(s == HCL_OK && n == 3 && t[0] == 0 && t[1] == forms[f].t1, "time units '%s': t = %g s, want %g %s",
           forms[f].units, s == HCL_OK ? t[1] : NAN, forms[f].t1, hcl_status_message());
  }
  s = series(write_series_nc_calendar("proleptic.nc", "hours", "proleptic_gregorian", hours, levels, 3), &t, &v, &n);
  TAP_OK(s == HCL_OK && t[1] == 1800, "the proleptic Gregorian calendar is the standard one %s", hcl_status_message());
  s = series(write_series_nc_calendar("360.nc", "days since 2000-01-01", "360_day", hours, levels, 3), &t, &v, &n);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "calendar is '360_day'"),
         "a 360-day calendar is refused with what to do: %s", hcl_status_message());
  static const char *const no_dates[] = {"seconds since 2000-13-45", "seconds since 2023-02-29",
                                         "days since 2000-1-32"};
  for (size_t d = 0; d < sizeof no_dates / sizeof no_dates[0]; d++) {
    s = series(write_series_nc("nodate.nc", no_dates[d], hours, levels, 3), &t, &v, &n);
    TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "count from a date that does not exist"),
           "time units '%s' are refused: %s", no_dates[d], hcl_status_message());
  }
  s = series(write_series_nc("metres.nc", "metres", hours, levels, 3), &t, &v, &n);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "are not a time"),
         "a unit that is not a time is refused: %s", hcl_status_message());
  s = series(write_series_nc("bare.nc", NULL, hours, levels, 3), &t, &v, &n);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "has no units"), "times without units: %s",
         hcl_status_message());
  s = series(write_series_nc("back.nc", "s", back, levels, 3), &t, &v, &n);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "time 1 s at index 2 does not follow 2 s"),
         "decreasing times: %s", hcl_status_message());
  s = series(write_series_nc("gap.nc", "s", hours, gap, 3), &t, &v, &n);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "'level' is missing (missing_value) at t = 0.5 s"),
         "a missing sample: %s", hcl_status_message());
  const double nan[3] = {1, NAN, 2}, inf[3] = {1, 2, INFINITY};
  s = series(write_series_nc("nan.nc", "s", hours, nan, 3), &t, &v, &n);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "'level' is nan at t = 0.5 s; a series needs finite"),
         "a NaN sample (issue 27, 3): %s", hcl_status_message());
  s = series(write_series_nc("inf.nc", "s", hours, inf, 3), &t, &v, &n);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "'level' is inf at t = 2 s"), "an infinite one: %s",
         hcl_status_message());
  free(t);
  free(v);
}

/* Writes folder/name: a series 'level(time)' of 4 samples whose coordinate is the bounds-style 'time(time, nv)' (CF
 * cell bounds in the coordinate itself). */
static const char *write_bounds_time_nc(const char *name) {
  static char path[512];
  int ncid, dims[2], time_var, level_var;
  const double times[8] = {0, 1, 1, 2, 2, 3, 3, 4}, levels[4] = {0, 1, 2, 3};
  snprintf(path, sizeof path, "%s/%s", folder, name);
  nc_create(path, NC_NETCDF4 | NC_CLOBBER, &ncid);
  nc_def_dim(ncid, "time", 4, &dims[0]);
  nc_def_dim(ncid, "nv", 2, &dims[1]);
  nc_def_var(ncid, "time", NC_DOUBLE, 2, dims, &time_var);
  nc_put_att_text(ncid, time_var, "units", 1, "s");
  nc_def_var(ncid, "level", NC_DOUBLE, 1, dims, &level_var);
  nc_enddef(ncid);
  nc_put_var_double(ncid, time_var, times);
  nc_put_var_double(ncid, level_var, levels);
  nc_close(ncid);
  return path;
}

/* Writes folder/name: the series of write_series_nc in seconds with one thing wrong: what = "text" (level is a char
 * variable), "scale" (a text scale_factor), "units" (numeric units). */
static const char *write_wrong_type_nc(const char *name, const char *what) {
  static char path[512];
  int ncid, dim, time_var, level_var;
  const double times[2] = {0, 1}, levels[2] = {1, 2}, numeric_units = 1;
  snprintf(path, sizeof path, "%s/%s", folder, name);
  nc_create(path, NC_NETCDF4 | NC_CLOBBER, &ncid);
  nc_def_dim(ncid, "time", 2, &dim);
  nc_def_var(ncid, "time", NC_DOUBLE, 1, &dim, &time_var);
  if (strcmp(what, "units") == 0) {
    nc_put_att_double(ncid, time_var, "units", NC_DOUBLE, 1, &numeric_units);
  } else {
    nc_put_att_text(ncid, time_var, "units", 1, "s");
  }
  nc_def_var(ncid, "level", strcmp(what, "text") == 0 ? NC_CHAR : NC_DOUBLE, 1, &dim, &level_var);
  if (strcmp(what, "scale") == 0) {
    nc_put_att_text(ncid, level_var, "scale_factor", 3, "0.1");
  }
  nc_enddef(ncid);
  nc_put_var_double(ncid, time_var, times);
  if (strcmp(what, "text") != 0) {
    nc_put_var_double(ncid, level_var, levels);
  }
  nc_close(ncid);
  return path;
}

/* Inputs that are not what a series is (issue 27, 1 and 12): refused with the variable and what was expected, before
 * anything is read into a buffer of the wrong size. */
static void test_netcdf_shapes_and_types(void) {
  double *t = NULL, *v = NULL;
  int n = 0;
  HclStatus s = series(write_bounds_time_nc("bounds.nc"), &t, &v, &n);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "the time coordinate 'time' has 2 dimensions"),
         "a 2D time coordinate is refused, not overflowed: %s", hcl_status_message());
  s = series(write_wrong_type_nc("text.nc", "text"), &t, &v, &n);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "variable 'level' (the series) holds text, not numbers"),
         "a char series: %s", hcl_status_message());
  s = series(write_wrong_type_nc("scale.nc", "scale"), &t, &v, &n);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "attribute scale_factor of 'level' must be one number"),
         "a text scale_factor: %s", hcl_status_message());
  s = series(write_wrong_type_nc("units.nc", "units"), &t, &v, &n);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "the time coordinate's units must be text"),
         "numeric units: %s", hcl_status_message());
  free(t);
  free(v);
}

/* netCDF's conventions for missing points and packed values (NUG attribute conventions, CF 1.8 sections 2.5.1 and
 * 8.1): unpacked on reading, missing points refused with the file, the variable, the first index and the fix. */
static void test_netcdf_conventions(void) {
  double g[6] = {0};
  const double packed[6] = {0, 1, 2, -4, 8, 100};
  const char *const scale_offset[] = {"scale_factor", "add_offset"};
  const double scale_offset_values[] = {0.25, -2.0};
  HclStatus s =
      grid(write_level_nc("packed.nc", NC_SHORT, packed, 2, scale_offset, scale_offset_values), NULL, 3, 2, g);
  TAP_OK(s == HCL_OK && g[0] == -2.0 && g[1] == -1.75 && g[3] == -3.0 && g[5] == 23.0,
         "scale_factor and add_offset unpack a short grid %s", hcl_status_message());
  s = grid(write_level_nc("chars.nc", NC_CHAR, NULL, 0, NULL, NULL), NULL, 3, 2, g); /* issue 27, 12 */
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "variable 'level' (the grid) holds text, not numbers"),
         "a char grid is bad input, named: %s", hcl_status_message());

  const double gap[6] = {1, 2, 3, 4, 5, -999};
  const char *const fill[] = {"_FillValue"};
  const double fill_value[] = {-999};
  s = grid(write_level_nc("fill.nc", NC_DOUBLE, gap, 1, fill, fill_value), NULL, 3, 2, g);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "fill.nc: variable 'level'") &&
             tap_contains(hcl_status_message(), "_FillValue") && tap_contains(hcl_status_message(), "y=1, x=2") &&
             tap_contains(hcl_status_message(), "fill the gaps"),
         "a _FillValue point is refused with file, variable, index and fix: %s", hcl_status_message());

  const double packed_gap[6] = {0, 1, -32767, 3, 4, 5};
  const char *const packed_fill[] = {"scale_factor", "_FillValue"};
  const double packed_fill_values[] = {0.5, -32767};
  s = grid(write_level_nc("packed_fill.nc", NC_SHORT, packed_gap, 2, packed_fill, packed_fill_values), NULL, 3, 2, g);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "y=0, x=2"),
         "a packed grid's fill is found before unpacking: %s", hcl_status_message());

  const double hole[6] = {1, 1e20, 3, 4, 5, 6};
  const char *const missing[] = {"missing_value"};
  const double missing_value[] = {1e20};
  s = grid(write_level_nc("missing.nc", NC_FLOAT, hole, 1, missing, missing_value), NULL, 3, 2, g);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "missing_value") &&
             tap_contains(hcl_status_message(), "y=0, x=1"),
         "a missing_value point is refused: %s", hcl_status_message());

  s = grid(write_level_nc("unwritten.nc", NC_FLOAT, NULL, 0, NULL, NULL), NULL, 3, 2, g);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "_FillValue") &&
             tap_contains(hcl_status_message(), "y=0, x=0"),
         "points never written hold the default fill and are refused: %s", hcl_status_message());
}

/* A 3 x 3 grid file: variable depth over dimensions dims (in its order), raw values in that order; where coords[d]
 * is given, a coordinate variable of dimension d with those values and axis attribute axes[d] (NULL: none). */
static const char *write_grid_nc(const char *name, const char *const dims[2], const double *const coords[2],
                                 const char *const axes[2], const double raw[9]) {
  static char path[512];
  int ncid, ids[2], var;
  snprintf(path, sizeof path, "%s/%s", folder, name);
  nc_create(path, NC_NETCDF4 | NC_CLOBBER, &ncid);
  for (int d = 0; d < 2; d++) {
    nc_def_dim(ncid, dims[d], 3, &ids[d]);
  }
  for (int d = 0; d < 2; d++) {
    if (coords[d]) {
      nc_def_var(ncid, dims[d], NC_DOUBLE, 1, &ids[d], &var);
      if (axes[d]) {
        nc_put_att_text(ncid, var, "axis", 1, axes[d]);
      }
      nc_put_var_double(ncid, var, coords[d]);
    }
  }
  nc_def_var(ncid, "depth", NC_DOUBLE, 2, ids, &var);
  nc_put_var_double(ncid, var, raw);
  nc_close(ncid);
  return path;
}

/* netCDF grids read by their dimensions and coordinates onto a model grid of 3 x 3 cells of 1 m from (0, 0): the
 * value at cell (i, j) is 1 + i + 3 j. */
static void test_netcdf_orientation(void) {
  const InputAxes cells = {.x0 = 0.5, .dx = 1, .y0 = 0.5, .dy = 1, .keys = "the test's cells"};
  const double up[3] = {0.5, 1.5, 2.5}, down[3] = {2.5, 1.5, 0.5}, away[3] = {100.5, 101.5, 102.5};
  double want[9], transposed[9], north_up[9], got[9];
  for (int j = 0; j < 3; j++) {
    for (int i = 0; i < 3; i++) {
      want[3 * j + i] = 1 + i + 3 * j;
      transposed[3 * i + j] = want[3 * j + i];
      north_up[3 * (2 - j) + i] = want[3 * j + i];
    }
  }
  const char *yx[2] = {"y", "x"}, *xy[2] = {"x", "y"}, *ab[2] = {"a", "b"}, *none[2] = {NULL, NULL};
  const double *no_coords[2] = {NULL, NULL};
  hcl_status_clear();
  HclStatus s =
      hcl_input_read_grid(write_grid_nc("xy.nc", xy, no_coords, none, transposed), NULL, 3, 3, &cells, got, NULL);
  TAP_OK(s == HCL_OK && memcmp(got, want, sizeof want) == 0, "depth(x, y) is read transposed onto (y, x) %s",
         hcl_status_message());
  const double *raster[2] = {down, up};
  s = hcl_input_read_grid(write_grid_nc("northup.nc", yx, raster, none, north_up), NULL, 3, 3, &cells, got, NULL);
  TAP_OK(s == HCL_OK && memcmp(got, want, sizeof want) == 0,
         "a north-up raster (y decreasing) is flipped onto the model's y %s", hcl_status_message());
  const char *named[2] = {"northing_index", "easting_index"}, *by_axis[2] = {"X", "Y"};
  const double *along[2] = {up, up};
  const char *swapped[2] = {named[1], named[0]};
  s = hcl_input_read_grid(write_grid_nc("axis.nc", swapped, along, by_axis, transposed), NULL, 3, 3, &cells, got, NULL);
  TAP_OK(s == HCL_OK && memcmp(got, want, sizeof want) == 0,
         "coordinate variables' axis attributes say which dimension is x whatever their names %s",
         hcl_status_message());
  const double *elsewhere[2] = {up, away};
  hcl_status_clear();
  s = hcl_input_read_grid(write_grid_nc("away.nc", yx, elsewhere, none, want), NULL, 3, 3, &cells, got, NULL);
  TAP_OK(s == HCL_EDATA &&
             tap_contains(hcl_status_message(), "away.nc: variable 'depth': its coordinate 'x' runs 100.5 to "
                                                "102.5, the model grid's x 0.5 to 2.5 (the test's cells)"),
         "a grid covering another area is refused: %s", hcl_status_message());
  const double half[3] = {0, 1, 2};
  const double *shifted[2] = {half, up};
  hcl_status_clear();
  s = hcl_input_read_grid(write_grid_nc("corners.nc", yx, shifted, none, want), NULL, 3, 3, &cells, got, NULL);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "'y'[0] is 0 where 0.5 is expected (within 0.01)"),
         "corners given for cell centres, half a cell off, are refused: %s", hcl_status_message());
  hcl_status_clear();
  s = hcl_input_read_grid(write_grid_nc("ab.nc", ab, no_coords, none, want), NULL, 3, 3, &cells, got, NULL);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "dimensions 'a' and 'b', which do not say which is x"),
         "dimensions that do not say which is x are refused: %s", hcl_status_message());
  s = hcl_input_read_grid(write_grid_nc("ab.nc", ab, no_coords, none, want), NULL, 3, 3, NULL, got, NULL);
  TAP_OK(s == HCL_EDATA, "whether the model's points are known or not");
}

/* Units in a CSV series' header convert its columns (UDUNITS-2); a unit unknown or of another dimension is refused
 * naming the file, line, column and unit. */
static void test_csv_units(void) {
  double *t = NULL, *v = NULL;
  int n = 0;
  HclStatus s = series(write_file("units.csv", "time [h],level [cm]\n0,100\n1,150\n"), &t, &v, &n);
  TAP_OK(s == HCL_OK && n == 2 && t[1] == 3600 && fabs(v[1] - 1.5) < 1e-15 && fabs(v[0] - 1) < 1e-15,
         "'time [h],level [cm]' reads hours and centimetres as seconds and metres %s", hcl_status_message());
  s = series(write_file("since.csv", "# dated\ntime [hours since 1999-12-31 23:00:00], level [m]\n0,1\n2,2\n"), &t, &v,
             &n);
  TAP_OK(s == HCL_OK && n == 2 && t[0] == -3600 && t[1] == 3600, "a time column in hours since a date %s",
         hcl_status_message());
  s = series(write_file("unknown.csv", "time,level [blargh]\n0,1\n"), &t, &v, &n);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "unknown.csv:1: column 2: 'blargh' is not a unit"),
         "an unknown unit: %s", hcl_status_message());
  s = series(write_file("dimension.csv", "time [m],level\n0,1\n"), &t, &v, &n);
  TAP_OK(s == HCL_EDATA &&
             tap_contains(hcl_status_message(), "dimension.csv:1: column 1: time units 'm' are not a time"),
         "a time column in metres: %s", hcl_status_message());
  s = series(write_file("notlevel.csv", "time,level [s]\n0,1\n"), &t, &v, &n);
  TAP_OK(s == HCL_EDATA &&
             tap_contains(hcl_status_message(), "notlevel.csv:1: column 2: unit 's' does not convert to m"),
         "a level in seconds: %s", hcl_status_message());
  free(t);
  free(v);
}
#endif

/* Paths that are not regular files are refused before they are read, saying what they are; lines longer than
 * INPUT_LINE_MAX are refused with their line. */
static void test_not_files(void) {
  double *t = NULL, *v = NULL, g[6];
  int n = 0;
  HclStatus s = series(folder, &t, &v, &n);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "is a folder"), "a folder as a series: %s",
         hcl_status_message());
  s = grid(folder, NULL, 3, 2, g);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "is a folder"), "a folder as a grid: %s",
         hcl_status_message());
  s = grid("/dev/zero", NULL, 3, 2, g);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "it is a device"), "/dev/zero as a grid: %s",
         hcl_status_message());
  hcl_status_clear();
  s = hcl_input_check_file("/dev/null", "case.yml:3:9: bed.file", NULL);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(),
                                        "case.yml:3:9: bed.file names '/dev/null', which is not a readable file"),
         "a device named by an input: %s", hcl_status_message());
  char path[600];
  snprintf(path, sizeof path, "%s/huge.csv", folder);
  FILE *f = fopen(path, "w");
  static char block[1 << 20];
  memset(block, '1', sizeof block);
  fputs("time,level\n", f);
  for (int k = 0; k <= INPUT_LINE_MAX >> 20; k++) {
    fwrite(block, 1, sizeof block, f);
  }
  fclose(f);
  s = series(path, &t, &v, &n);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "huge.csv:2: a line longer than 16 MiB"),
         "a line of 17 MiB: %s", hcl_status_message());
  unlink(path);
  free(t);
  free(v);
}

/* Gauge files: a header after comments, units in it, names without the blanks around them. */
static void test_gauges(void) {
  Gauge *gauges = NULL;
  int n = 0;
  hcl_status_clear();
  HclStatus s = hcl_gauges_read_csv(write_file("g1.csv", "# harbour gauges\nname,x,y\nG1,10,20\n"), &gauges, &n);
  TAP_OK(s == HCL_OK && n == 1 && strcmp(gauges[0].name, "G1") == 0 && gauges[0].y == 20,
         "a gauge file's header after a comment %s", hcl_status_message());
  free(gauges);
  gauges = NULL;
  s = hcl_gauges_read_csv(write_file("g2.csv", "name,x [km],y [km]\n a ,1.5,2\n"), &gauges, &n);
  TAP_OK(s == HCL_OK && n == 1 && strcmp(gauges[0].name, "a") == 0 && gauges[0].x == 1500 && gauges[0].y == 2000,
         "'x [km]' in the header, the name's blanks dropped ('%s', %g) %s", s ? "" : gauges[0].name,
         s ? 0 : gauges[0].x, hcl_status_message());
  free(gauges);
  gauges = NULL;
  hcl_status_clear();
  s = hcl_gauges_read_csv(write_file("g3.csv", "name,x [s],y\na,1,2\n"), &gauges, &n);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "g3.csv:1: column 2: unit 's' does not convert to m"),
         "x in seconds: %s", hcl_status_message());
  hcl_status_clear();
  s = hcl_gauges_read_csv(write_file("g4.csv", "name,x,y\n ,1,2\n"), &gauges, &n);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "g4.csv:2: expected 'name,x,y'"),
         "a gauge without a name: %s", hcl_status_message());
  free(gauges);
}

int main(void) {
  if (!mkdtemp(folder)) {
    return 1;
  }
  double g[6] = {0};
  HclStatus s = grid(write_file("bed.csv", "# bed level, m\n1, 2, 3\n4 5 6.5\n"), NULL, 3, 2, g);
  TAP_OK(s == HCL_OK && g[0] == 1 && g[2] == 3 && g[3] == 4 && g[5] == 6.5,
         "a CSV grid reads row by row, commas or spaces %s", hcl_status_message());
  s = grid(write_file("short.csv", "1,2,3\n4,5\n"), NULL, 3, 2, g);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "short.csv:2: 2 values, the grid has 3 points in x"),
         "a short row: %s", hcl_status_message());
  s = grid(write_file("rows.csv", "1,2,3\n"), NULL, 3, 2, g);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "1 rows, the grid has 2 points in y"), "too few rows: %s",
         hcl_status_message());
  s = grid(write_file("text.csv", "1,2,x\n4,5,6\n"), NULL, 3, 2, g);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "text.csv:1: not a list of numbers"), "not numbers: %s",
         hcl_status_message());
  s = grid("/nonexistent/bed.csv", NULL, 3, 2, g);
  TAP_OK(s == HCL_ENOINPUT, "a missing grid file is missing input");

#ifdef HYDROCL_HAVE_NETCDF
  char path[600];
  snprintf(path, sizeof path, "%s/bed.nc", folder);
  int ncid, dims[2], var;
  double want[6] = {-1, -2, -3, 0.5, 0.25, 0.125};
  nc_create(path, NC_NETCDF4, &ncid);
  nc_def_dim(ncid, "y", 2, &dims[0]);
  nc_def_dim(ncid, "x", 3, &dims[1]);
  nc_def_var(ncid, "bed", NC_DOUBLE, 2, dims, &var);
  nc_enddef(ncid);
  nc_put_var_double(ncid, var, want);
  nc_close(ncid);
  s = grid(path, NULL, 3, 2, g);
  TAP_OK(s == HCL_OK && memcmp(g, want, sizeof want) == 0, "a netCDF grid reads exactly (its only 2D variable) %s",
         hcl_status_message());
  s = grid(path, "bed", 2, 3, g);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "'bed' is 2 x 3 (y, x), the grid is 3 x 2"),
         "a netCDF grid of the wrong shape: %s", hcl_status_message());
  s = grid(path, "depth", 3, 2, g);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "no variable 'depth'"), "a missing variable: %s",
         hcl_status_message());
  test_netcdf_conventions();
  test_netcdf_series();
  test_netcdf_shapes_and_types();
  test_csv_units();
  test_netcdf_orientation();
#endif
  test_dates();
  test_not_files();
  test_gauges();

  double *t = NULL, *v = NULL;
  int n = 0;
  hcl_status_clear();
  s = hcl_input_read_series(write_file("tide.csv", "time,level\n0,1.0\n3600, 2.0\n7200,1.5\n"), START, "m", &t, &v, &n);
  TAP_OK(s == HCL_OK && n == 3 && t[1] == 3600 && v[2] == 1.5, "a time series with a header %s", hcl_status_message());
  if (s == HCL_OK) {
    TAP_OK(hcl_input_series_at(t, v, n, 1800) == 1.5 && hcl_input_series_at(t, v, n, 5400) == 1.75,
           "linear interpolation between samples");
    TAP_OK(hcl_input_series_at(t, v, n, -10) == 1.0 && hcl_input_series_at(t, v, n, 1e9) == 1.5,
           "held constant beyond the ends");
  }
  free(t);
  free(v);
  /* Issue 32, 3: ISO 8601 times (UTC), with 'T' or a blank, 'Z' or none, before the run's start too. */
  s = hcl_input_read_series(write_file("dated.csv", "time,level\n1999-12-31T23:00:00Z,1\n2000-01-01 00:10,2\n"
                                                    "2000-01-01T01:00:30,3\n"),
                            START, "m", &t, &v, &n);
  TAP_OK(s == HCL_OK && n == 3 && t[0] == -3600 && t[1] == 600 && t[2] == 3630 && v[2] == 3,
         "a CSV series with ISO 8601 times lines up with the run's start %s", hcl_status_message());
  free(t);
  free(v);
  s = hcl_input_read_series(write_file("baddated.csv", "time,level\n2000-02-30T00:00:00,1\n"), START, "m", &t, &v, &n);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "baddated.csv:2: expected 'time,value'"),
         "a date that does not exist is refused with the line: %s", hcl_status_message());
  hcl_status_clear();
  s = hcl_input_read_series(write_file("noted.csv", "# tide gauge, levels in m\n\ntime,level\n0,1\n60,2\n"), START, "m",
                            &t, &v, &n);
  TAP_OK(s == HCL_OK && n == 2 && v[1] == 2, "a header after comments and blank lines %s", hcl_status_message());
  free(t);
  free(v);
  hcl_status_clear();
  s = hcl_input_read_series(write_file("late.csv", "# levels\n0,1\ntime,level\n60,2\n"), START, "m", &t, &v, &n);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "late.csv:3: expected 'time,value'"),
         "a header after the first sample is refused: %s", hcl_status_message());
  hcl_status_clear();
  s = hcl_input_read_series(write_file("back.csv", "0,1\n60,2\n30,3\n"), START, "m", &t, &v, &n);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "back.csv:3: time 30 s does not follow 60 s"),
         "times must increase: %s", hcl_status_message());
  hcl_status_clear();
  s = hcl_input_read_series(write_file("one.csv", "0,1\n60\n"), START, "m", &t, &v, &n);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "one.csv:2: expected 'time,value'"), "a short line: %s",
         hcl_status_message());
  hcl_status_clear(); /* issue 27, 9: a malformed first row is data, not a header */
  s = hcl_input_read_series(write_file("malformed.csv", "0,abc\n60,2\n"), START, "m", &t, &v, &n);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "malformed.csv:1: expected 'time,value'"),
         "a malformed first row without a header is refused, not skipped: %s", hcl_status_message());
  hcl_status_clear(); /* issue 27, 3 */
  s = hcl_input_read_series(write_file("nan.csv", "time,level\n0,1\n60,nan\n"), START, "m", &t, &v, &n);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "nan.csv:3: time 60 s, value nan: both must be finite"),
         "a NaN sample: %s", hcl_status_message());
  char *long_comment = malloc(5000); /* issue 27, 8: lines of any length, the line numbers right after them */
  memset(long_comment, 'x', 4998);
  long_comment[0] = '#';
  long_comment[4998] = '\n';
  long_comment[4999] = '\0';
  char text[5100];
  snprintf(text, sizeof text, "%s0,1\n60\n", long_comment);
  free(long_comment);
  hcl_status_clear();
  s = hcl_input_read_series(write_file("long.csv", text), START, "m", &t, &v, &n);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), "long.csv:3: expected 'time,value'"),
         "a 5000-character comment line counts as one line: %s", hcl_status_message());
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf %s", folder);
  if (system(cmd) != 0) {
    tap_note("could not remove %s", folder);
  }
  return tap_done();
}
