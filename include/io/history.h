/* SPDX-License-Identifier: BSD-3-Clause */
/* history.h: the history file, time series at gauges in the CF timeSeries layout (orthogonal multidimensional
 * arrays: station_name with cf_role timeseries_id, x and y of each station, data(station, time)).
 *
 * A gauge's value is the bilinear interpolation of the four grid points around it; points owned by different ranks
 * are read on their ranks and summed on rank 0, so no ghost layer is needed. All calls are collective. */
#ifndef HYDROCL_HISTORY_H
#define HYDROCL_HISTORY_H

#include "casefile.h"
#include "decomp.h"
#include "field.h"
#include "output.h"
#include "status.h"

/* A gauge: name, x, y (metres, in the grid's coordinates: x of column i is x0 + i dx, output.h) and origin. */
typedef NamedPoint Gauge;
enum { GAUGE_NAME_MAX = NAMED_POINT_NAME_MAX };

/* Reads "name,x,y" lines of any length, names without the blanks around them; '#' comments and blank lines are
 * skipped, and the first other line is a header where its first column is "name": "name,x,y", or with units
 * that convert x and y to metres (UDUNITS-2), "name,x [km],y [km]". Mistakes are HCL_EDATA with file:line; a
 * missing file HCL_ENOINPUT. Caller frees *gauges. */
HclStatus hcl_gauges_read_csv(const char *path, Gauge **gauges, int *count);

typedef struct HistoryFile HistoryFile;

/* Creates the file for gauges[0..ngauges) (copied) and vars[0..nvars). A gauge outside the grid is HCL_EDATA. A
 * failure on any rank removes the file again, so it never blocks the next run. */
HclStatus hcl_history_create(Runtime *rt, const Decomp *decomp, const OutputSpec *spec, const Gauge *gauges,
                             int ngauges, const OutputVariable *vars, int nvars, HistoryFile **out);
/* Appends the values at time of fields[i] (2D, one per variable). */
HclStatus hcl_history_write(HistoryFile *h, double time, Field *const *fields);
/* Writes a variable that does not change (the bed level) at every gauge, on station without time: scale times the
 * 2D field f interpolated as the samples are. Defined on first use, written again on a continued run's file. */
HclStatus hcl_history_write_static(HistoryFile *h, const OutputVariable *var, Field *f, double scale);
/* Flushes what the file holds to it (nc_sync), so that a copy of it is whole (checkpoint.h). */
HclStatus hcl_history_sync(HistoryFile *h);
void hcl_history_close(HistoryFile **h);

/* For a continued run, before its files are touched: the stations of the history file at path (when there is one;
 * the checkpoint the continuation will put back, where it has one) are gauges[0..ngauges), by name and position, in
 * order. A gauge added, removed, renamed or moved would have its samples appended under another station's name and
 * place: HCL_EDATA naming the gauge, what the file holds and what this run has, and what to do, the file named as
 * shown. Rank 0 reads; collective. */
HclStatus hcl_history_check_stations(const char *path, const char *shown, const Gauge *gauges, int ngauges);

enum { STATION_VARIABLE_NAME_SIZE = 257 }; /* a netCDF name and its NUL (NC_MAX_NAME + 1) */

/* A record of one variable at the stations of a history or kinematics file, as read back: times in the file's time
 * units (seconds since its reference), values[station * ntimes + k] with NaN where a value is missing (a dry gauge),
 * the stations' names and positions. Files of either layout, (time, station) or the earlier (station, time). */
typedef struct {
  int nstations, ntimes;
  double *time;                              /* [ntimes] */
  double *values;                            /* [nstations][ntimes] */
  char (*names)[GAUGE_NAME_MAX];             /* [nstations] */
  double *x, *y;                             /* [nstations] */
  char variable[STATION_VARIABLE_NAME_SIZE]; /* the variable read */
  char units[64], time_units[128];           /* the variable's and the time's */
} StationRecord;

/* Reads variable (NULL: eta, else zeta, whichever the file has) of the file at path. HCL_ENOINPUT for a missing
 * file; HCL_EDATA naming the file and what is wrong for one without stations, time or the variable, or a variable
 * on other dimensions. Caller frees with hcl_station_record_free. */
HclStatus hcl_station_record_read(const char *path, const char *variable, StationRecord *out);
void hcl_station_record_free(StationRecord *r);

#endif
