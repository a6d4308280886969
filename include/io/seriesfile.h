/* SPDX-License-Identifier: BSD-3-Clause */
/* seriesfile.h: time series that the host computes, in a CF-1.8 netCDF-4 file: vertical profiles at stations (CF
 * timeSeriesProfile, orthogonal multidimensional layout (CF 1.8 appendix H.5.1): data(time, station, node) with the
 * station's station_name (cf_role timeseries_id), x and y, and the nodes' heights z(time, station, node), which move
 * with the free surface), values at the stations (data(time, station)) and constants of each station
 * (data(station)), and scalars of the whole domain (data(time)); without profiles (nodes 0) a CF timeSeries of the
 * stations, which may move (a ship's track). Time comes first, the record dimension, so that
 * NCO's ncrcat joins files. The wave model writes its kinematics, volume
 * and energy here. Rank 0 writes what the caller holds there; every sample ends with nc_sync, so a killed run leaves
 * a readable file. All calls are collective. */
#ifndef HYDROCL_SERIESFILE_H
#define HYDROCL_SERIESFILE_H

#include "casefile.h"
#include "output.h"
#include "status.h"

typedef struct {
  const NamedPoint *stations; /* name, x, y of each station (copied); may be none */
  int nstations;
  int nodes;                      /* points of each profile */
  const OutputVariable *profiles; /* profiles[0] is z, the nodes' height (positive up, axis Z) */
  int nprofiles;
  const OutputVariable *station_series; /* one value a station a sample (the free surface) */
  int nstation_series;
  const OutputVariable *station_constants; /* one value a station, written once (the still-water depth) */
  int nstation_constants;
  const double *constant_values; /* [nstation_constants][nstations] */
  const OutputVariable *scalars;
  int nscalars;
  bool moving; /* the stations move (ships): their x and y are where they were at t = 0, and the station series say
                  where they are (no fixed coordinates attached) */
} SeriesLayout;

typedef struct SeriesFile SeriesFile;

/* Creates spec->path (or, for spec->resume, reopens it when it exists: the samples after spec->resume_time are
 * overwritten). A failure on any rank removes a file this call created. */
HclStatus hcl_series_create(const OutputSpec *spec, const SeriesLayout *layout, SeriesFile **out);
/* One sample, read on rank 0 only: profiles [nprofiles][nstations][nodes], station values
 * [nstation_series][nstations] and scalars [nscalars]. */
typedef struct {
  const double *profiles;
  const double *station_values;
  const double *scalars;
} SeriesSample;

/* Appends one sample at time (seconds since the reference). */
HclStatus hcl_series_write(SeriesFile *s, double time, const SeriesSample *sample);
/* Flushes what the file holds to it (nc_sync), so that a copy of it is whole (checkpoint.h). */
HclStatus hcl_series_sync(SeriesFile *s);
void hcl_series_close(SeriesFile **s); /* NULL-safe */

#endif
