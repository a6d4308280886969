/* SPDX-License-Identifier: BSD-3-Clause */
/* seriesfile.c: host-computed profiles at stations and scalar series in a CF file (see seriesfile.h). */
#include "seriesfile.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ncutil.h"
#include "par.h"

struct SeriesFile {
  char *path;
  int ncid, time_var, frames;
  int nstations, nodes, nprofiles, nstation_series, nscalars;
  bool moving; /* SeriesLayout's */
  bool double_precision;
  int *vars; /* profiles, station series, then scalars */
  bool created;
#ifdef HYDROCL_HAVE_NETCDF
  NcIdentity identity; /* rank 0: the file opened */
#endif
};

#ifdef HYDROCL_HAVE_NETCDF
/* station_name, x and y of the stations, on the dimensions station and name_strlen. */
static HclStatus define_stations(SeriesFile *s, int dim_station, int dim_strlen, int var[3]) {
  HclStatus status = HCL_OK;
  static const char *const axes[] = {"x", "y"};
  static const char *const at_start[] = {"x at t = 0", "y at t = 0"};
  static const char *const names[] = {"projection_x_coordinate", "projection_y_coordinate"};
  int name_dims[2] = {dim_station, dim_strlen};
  TRY_NC(nc_def_var(s->ncid, "station_name", NC_CHAR, 2, name_dims, &var[0]), s->path);
  TRY_NC(NC_TEXT_ATT(s->ncid, var[0], "cf_role", "timeseries_id"), s->path);
  TRY_NC(NC_TEXT_ATT(s->ncid, var[0], "long_name", "station name"), s->path);
  TRY_NC(NC_TEXT_ATT(s->ncid, var[0], "_Encoding", "utf-8"), s->path); /* xarray decodes the names to text */
  for (int a = 0; a < 2; a++) {
    TRY_NC(nc_def_var(s->ncid, axes[a], NC_DOUBLE, 1, &dim_station, &var[1 + a]), s->path);
    TRY_NC(NC_TEXT_ATT(s->ncid, var[1 + a], "units", "m"), s->path);
    TRY_NC(NC_TEXT_ATT(s->ncid, var[1 + a], "standard_name", names[a]), s->path);
    if (s->moving) {
      TRY_NC(NC_TEXT_ATT(s->ncid, var[1 + a], "long_name", at_start[a]), s->path);
    }
  }
cleanup:
  return status;
}

static HclStatus write_stations(const SeriesFile *s, const NamedPoint *stations, const int var[3]) {
  HclStatus status = HCL_OK;
  char *names = NULL;
  double *xy = NULL;
  TRY_ALLOC(names, (size_t)s->nstations * NAMED_POINT_NAME_MAX);
  TRY_ALLOC(xy, 2 * (size_t)s->nstations);
  for (int k = 0; k < s->nstations; k++) {
    strncpy(names + (size_t)k * NAMED_POINT_NAME_MAX, stations[k].name, NAMED_POINT_NAME_MAX);
    xy[k] = stations[k].x;
    xy[s->nstations + k] = stations[k].y;
  }
  TRY_NC(nc_put_var_text(s->ncid, var[0], names), s->path);
  TRY_NC(nc_put_var_double(s->ncid, var[1], xy), s->path);
  TRY_NC(nc_put_var_double(s->ncid, var[2], xy + s->nstations), s->path);
cleanup:
  free(names);
  free(xy);
  return status;
}

/* The coordinate of dimension node: the sigma points' index, 0 at the bed, nodes - 1 at the free surface (z gives
 * their height at each sample). */
static HclStatus define_node(SeriesFile *s, int dim_node, int *var) {
  HclStatus status = HCL_OK;
  TRY_NC(nc_def_var(s->ncid, "node", NC_INT, 1, &dim_node, var), s->path);
  TRY_NC(NC_TEXT_ATT(s->ncid, *var, "long_name", "sigma point, 0 at the bed to the free surface (its height: z)"),
         s->path);
  TRY_NC(NC_TEXT_ATT(s->ncid, *var, "units", "1"), s->path);
cleanup:
  return status;
}

static HclStatus write_node(const SeriesFile *s, int var) {
  HclStatus status = HCL_OK;
  int *index = NULL;
  TRY_ALLOC(index, (size_t)s->nodes);
  for (int k = 0; k < s->nodes; k++) {
    index[k] = k;
  }
  TRY_NC(nc_put_var_int(s->ncid, var, index), s->path);
cleanup:
  free(index);
  return status;
}

/* Samples a chunk holds: up to 16384 values (64 KiB in float32) of every station and node over many samples (one
 * sample a chunk, the library's default for an unlimited dimension, makes a long series thousands of tiny chunks). */
static size_t samples_per_chunk(size_t values_per_sample) {
  size_t samples = 16384 / values_per_sample + 1;
  return samples > 1024 ? 1024 : samples;
}

/* The profile variables on (time, station, node): z the vertical coordinate, the others located by it. */
static HclStatus define_profiles(SeriesFile *s, const OutputSpec *spec, const SeriesLayout *layout, const int dims[3]) {
  HclStatus status = HCL_OK;
  size_t chunks[3] = {samples_per_chunk((size_t)s->nstations * s->nodes), (size_t)s->nstations, (size_t)s->nodes};
  for (int v = 0; v < s->nprofiles; v++) {
    TRY(nc_output_variable(s->ncid, spec, &layout->profiles[v], 3, dims, &s->vars[v]));
    TRY_NC(nc_def_var_chunking(s->ncid, s->vars[v], NC_CHUNKED, chunks), s->path);
    TRY_NC(nc_def_var_deflate(s->ncid, s->vars[v], 1, 1, 1), s->path);
    if (v > 0) { /* z is the profiles' vertical coordinate, located by them */
      TRY_NC(NC_TEXT_ATT(s->ncid, s->vars[v], "coordinates", "z x y station_name"), s->path);
    }
  }
  TRY_NC(NC_TEXT_ATT(s->ncid, s->vars[0], "positive", "up"), s->path);
  TRY_NC(NC_TEXT_ATT(s->ncid, s->vars[0], "axis", "Z"), s->path);
cleanup:
  return status;
}

/* The station series on (time, station). */
static HclStatus define_station_series(SeriesFile *s, const OutputSpec *spec, const SeriesLayout *layout,
                                       const int dims[2]) {
  HclStatus status = HCL_OK;
  size_t chunks[2] = {samples_per_chunk((size_t)s->nstations), (size_t)s->nstations};
  for (int v = 0; v < s->nstation_series; v++) {
    int *var = &s->vars[s->nprofiles + v];
    TRY(nc_output_variable(s->ncid, spec, &layout->station_series[v], 2, dims, var));
    TRY_NC(nc_def_var_chunking(s->ncid, *var, NC_CHUNKED, chunks), s->path);
    TRY_NC(nc_def_var_deflate(s->ncid, *var, 1, 1, 1), s->path);
    TRY_NC(NC_TEXT_ATT(s->ncid, *var, "coordinates", s->moving ? "station_name" : "x y station_name"), s->path);
  }
cleanup:
  return status;
}

/* Rank 0: the constants of each station, defined when the file lacks them (a continued run's older file). */
static HclStatus write_station_constants(const SeriesFile *s, const SeriesLayout *layout) {
  HclStatus status = HCL_OK;
  static const char *const dims[] = {"station"};
  OutputSpec spec = {.path = s->path, .double_precision = s->double_precision};
  double *values = NULL;
  float *scratch = NULL;
  TRY_ALLOC(values, (size_t)s->nstations);
  TRY_ALLOC(scratch, (size_t)s->nstations);
  for (int v = 0; v < layout->nstation_constants; v++) {
    memcpy(values, layout->constant_values + (size_t)v * s->nstations, sizeof *values * s->nstations);
    TRY(nc_output_static(s->ncid, &spec, &layout->station_constants[v], dims, 1, "x y station_name", NULL, values,
                         scratch));
  }
cleanup:
  free(values);
  free(scratch);
  return status;
}

/* Rank 0: the file, its dimensions, variables and attributes. */
static HclStatus define_file(SeriesFile *s, const OutputSpec *spec, const SeriesLayout *layout) {
  HclStatus status = HCL_OK;
  int dim_time, dim_station, dim_strlen, dim_node, station_vars[3], node_var = -1;
  TRY(nc_output_create(spec, &s->ncid));
  s->created = true;
  TRY_NC(nc_def_dim(s->ncid, "time", NC_UNLIMITED, &dim_time), s->path);
  TRY(nc_output_time(s->ncid, spec, dim_time, &s->time_var));
  if (spec->frame.crs && s->nstations > 0) {
    TRY(nc_output_crs(s->ncid, s->path, spec->frame.crs));
  }
  if (s->nstations > 0) {
    TRY_NC(nc_def_dim(s->ncid, "station", (size_t)s->nstations, &dim_station), s->path);
    TRY_NC(nc_def_dim(s->ncid, "name_strlen", NAMED_POINT_NAME_MAX, &dim_strlen), s->path);
    if (s->nodes > 0) {
      TRY_NC(nc_def_dim(s->ncid, "node", (size_t)s->nodes, &dim_node), s->path);
      TRY(define_node(s, dim_node, &node_var));
    }
    TRY(define_stations(s, dim_station, dim_strlen, station_vars));
    if (s->nodes > 0) {
      TRY(define_profiles(s, spec, layout, (int[]){dim_time, dim_station, dim_node}));
    }
    TRY(define_station_series(s, spec, layout, (int[]){dim_time, dim_station}));
  }
  for (int v = 0; v < s->nscalars; v++) {
    int *var = &s->vars[s->nprofiles + s->nstation_series + v];
    TRY(nc_output_variable(s->ncid, spec, &layout->scalars[v], 1, &dim_time, var));
  }
  TRY(nc_output_globals(s->ncid, spec, s->nstations == 0 ? NULL : s->nodes > 0 ? "timeSeriesProfile" : "timeSeries"));
  TRY_NC(nc_enddef(s->ncid), s->path);
  if (s->nstations > 0) {
    TRY(write_stations(s, layout->stations, station_vars));
  }
  if (node_var >= 0) {
    TRY(write_node(s, node_var));
  }
  TRY_NC(nc_sync(s->ncid), s->path);
cleanup:
  return status;
}

/* Rank 0's part of hcl_series_create: a new file, or the existing one of a continued run; then the station constants. */
static HclStatus open_file(SeriesFile *s, const OutputSpec *spec, const SeriesLayout *layout) {
  HclStatus status = HCL_OK;
  static const char *const dims[] = {"station", "node"};
  size_t lengths[] = {(size_t)s->nstations, (size_t)s->nodes};
  int nvars = s->nprofiles + s->nstation_series + s->nscalars;
  OutputVariable *vars = NULL;
  if (!spec->resume || access(spec->path, F_OK) != 0) {
    TRY(define_file(s, spec, layout));
  } else {
    TRY_ALLOC(vars, nvars + 1);
    /* A layout without some kind holds NULL there; memcpy from NULL is undefined even for 0 bytes. */
    if (s->nprofiles > 0)
      memcpy(vars, layout->profiles, sizeof *vars * s->nprofiles);
    if (s->nstation_series > 0)
      memcpy(vars + s->nprofiles, layout->station_series, sizeof *vars * s->nstation_series);
    if (s->nscalars > 0)
      memcpy(vars + s->nprofiles + s->nstation_series, layout->scalars, sizeof *vars * s->nscalars);
    TRY(nc_output_reopen(spec, dims, lengths,
                         s->nstations == 0 ? 0
                         : s->nodes > 0    ? 2
                                           : 1,
                         vars, nvars, &s->ncid, &s->time_var, s->vars, &s->frames));
  }
  if (s->nstations > 0) {
    TRY(write_station_constants(s, layout));
  }
cleanup:
  free(vars);
  return status;
}

static HclStatus write_sample(SeriesFile *s, double time, const SeriesSample *sample) {
  HclStatus status = HCL_OK;
  size_t start[3] = {(size_t)s->frames, 0, 0}, count[3] = {1, (size_t)s->nstations, (size_t)s->nodes};
  size_t index = (size_t)s->frames;
  size_t per_profile = (size_t)s->nstations * s->nodes;
  TRY(nc_check_identity(s->path, &s->identity));
  for (int v = 0; v < s->nprofiles; v++) {
    TRY_NC(nc_put_vara_double(s->ncid, s->vars[v], start, count, sample->profiles + v * per_profile), s->path);
  }
  for (int v = 0; v < s->nstation_series; v++) {
    TRY_NC(nc_put_vara_double(s->ncid, s->vars[s->nprofiles + v], start, count,
                              sample->station_values + (size_t)v * s->nstations),
           s->path);
  }
  for (int v = 0; v < s->nscalars; v++) {
    int var = s->vars[s->nprofiles + s->nstation_series + v];
    TRY_NC(nc_put_var1_double(s->ncid, var, &index, &sample->scalars[v]), s->path);
  }
  TRY(nc_finish_frame(s->ncid, s->path, s->time_var, index, time, NULL));
cleanup:
  return status;
}

static HclStatus create_local(const OutputSpec *spec, const SeriesLayout *layout, SeriesFile **out) {
  HclStatus status = HCL_OK;
  SeriesFile *s = NULL;
  TRY_ALLOC(s, 1);
  s->ncid = -1;
  s->nstations = layout->nstations;
  s->nodes = layout->nodes;
  s->moving = layout->moving;
  s->nprofiles = layout->nstations > 0 ? layout->nprofiles : 0;
  s->nstation_series = layout->nstations > 0 ? layout->nstation_series : 0;
  s->nscalars = layout->nscalars;
  s->double_precision = spec->double_precision;
  s->path = strdup(spec->path);
  REQUIRE(s->path != NULL, HCL_ENOMEM, "cannot copy the series file name");
  TRY_ALLOC(s->vars, s->nprofiles + s->nstation_series + s->nscalars + 1);
  *out = s;
  s = NULL;
cleanup:
  hcl_series_close(&s);
  return status;
}
#endif

HclStatus hcl_series_create(const OutputSpec *spec, const SeriesLayout *layout, SeriesFile **out) {
  HclStatus status = HCL_OK;
  SeriesFile *s = NULL;
  *out = NULL;
#ifndef HYDROCL_HAVE_NETCDF
  (void)layout;
  FAIL(HCL_EUSAGE,
       "this hydrocl was built without netCDF, so it cannot write '%s'; install libnetcdf-dev and "
       "rebuild (meson setup --reconfigure -Dnetcdf=enabled build)",
       spec->path);
#else
  HclStatus local = create_local(spec, layout, &s);
  if (local == HCL_OK && hcl_par_rank() == 0) {
    local = open_file(s, spec, layout);
  }
  if (local == HCL_OK && hcl_par_rank() == 0) {
    local = nc_take_identity(s->path, &s->identity);
  }
  TRY(hcl_par_agree(local));
  TRY(hcl_par_broadcast_int(&s->frames));
  *out = s;
  s = NULL;
#endif
cleanup:
  if (s && s->created) {
    unlink(s->path); /* rank 0 created the file, closed below: a partial one would block the next run */
  }
  hcl_series_close(&s);
  return status;
}

HclStatus hcl_series_write(SeriesFile *s, double time, const SeriesSample *sample) {
  HclStatus local = HCL_OK;
#ifdef HYDROCL_HAVE_NETCDF
  if (hcl_par_rank() == 0) {
    local = write_sample(s, time, sample);
  }
#else
  (void)time;
  (void)sample;
  local = hcl_status_set(HCL_EINTERNAL, __FILE__, __LINE__, "hcl_series_write without netCDF");
#endif
  HclStatus status = hcl_par_agree(local);
  if (status == HCL_OK) {
    s->frames++;
  }
  return status;
}

HclStatus hcl_series_sync(SeriesFile *s) {
  HclStatus local = HCL_OK;
#ifdef HYDROCL_HAVE_NETCDF
  if (hcl_par_rank() == 0) {
    errno = 0;
    int err = nc_sync(s->ncid);
    if (err != NC_NOERR) {
      local =
          hcl_status_set(HCL_EIO, __FILE__, __LINE__, "cannot flush '%s': %s", s->path, nc_reason(err, errno, s->path));
    }
  }
#else
  (void)s;
#endif
  return hcl_par_agree(local);
}

void hcl_series_close(SeriesFile **s) {
  if (!s || !*s) {
    return;
  }
#ifdef HYDROCL_HAVE_NETCDF
  if ((*s)->ncid >= 0) {
    nc_close((*s)->ncid);
  }
#endif
  free((*s)->vars);
  free((*s)->path);
  free(*s);
  *s = NULL;
}
