/* SPDX-License-Identifier: BSD-3-Clause */
/* run.h: the pieces the harness (harness.h) builds every model's `hydrocl run` and `hydrocl validate` from, besides
 * the timeline (schedule.h): the output's time units from time.start, named points of a case (gauges, kinematics
 * lines) and their check against the grid, the decomposition with its mistakes traced to grid.px and grid.py, the
 * device-memory check made before anything is allocated, the output folder's claims (an earlier run's restarts and
 * files), the restarts' and output files' metadata from a model's frame, and the files themselves. Models call the
 * case's helpers from their set-up. */
#ifndef HYDROCL_RUN_H
#define HYDROCL_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "casefile.h"
#include "decomp.h"
#include "history.h"
#include "inputs.h"
#include "mapfile.h"
#include "model.h"
#include "restart.h"
#include "runtime.h"
#include "schedule.h"
#include "seriesfile.h"
#include "status.h"

/* The calendar time of t = 0 from the case's key ('YYYY-MM-DD hh:mm:ss' UTC, a whole second) as seconds since
 * 1970-01-01 UTC, and the output's time units "seconds since ..." written from it. HCL_EDATA naming the key. */
HclStatus run_time_units(const Case *c, const char *key, double *start, char *units, size_t size);

/* The grid's coordinate reference system from the case's key (grid.crs, crs.h): NULL when the key is empty (local
 * Cartesian metres). */
HclStatus run_read_crs(const Case *c, const char *key, Crs **crs);
/* validate's line on it: "coordinates: EPSG:32631 (WGS 84 / UTM zone 31N), CF transverse_mercator". */
void run_print_crs(const Crs *crs, FILE *out);

/* A key that only some choices of another key use: key is used when chooser is one of choices ("a|b"). */
typedef struct {
  const char *key, *chooser, *choices;
} RunKeyUse;

/* Given a value other than its default under another choice such a key does nothing, which rank 0 says (a warning,
 * not a refusal: switching a shape with --set leaves the old shape's keys in the file). */
void run_warn_unused_keys(const Case *c, const RunKeyUse *uses, int count);

/* The depths (positive down) of bed.file (bed.variable, bed.positive; inputs.h), a grid of nx x ny values, when
 * bed.shape is file; a netCDF file's coordinates checked against axes, a raster warped onto them (NULL: a
 * curvilinear grid), and what the file was into *source. HCL_EDATA naming the key when bed.file is not given, the
 * value that is not a number. Caller frees *values. */
HclStatus run_read_bed_file(const Case *c, int nx, int ny, const InputAxes *axes, double **values, InputSource *source);

/* "bed.file: dem.tif: GeoTIFF raster, ...", validate's line for a grid file that key named (none where it names
 * none). */
void run_print_source(const Case *c, const char *key, const InputSource *source, FILE *out);

/* The points of points_key and, when file_key is not NULL and names a file, of that CSV 'name,x,y'
 * (hcl_gauges_read_csv). Caller frees *points. */
HclStatus run_read_points(const Case *c, const char *points_key, const char *file_key, NamedPoint **points, int *count);

/* Every point within [x_first, x_last] x [y_first, y_last]: HCL_EDATA naming the point's origin, what it is
 * ("gauge"), the box and what the box is ("the cell centres"). */
HclStatus run_check_points(const NamedPoint *points, int count, const char *what, const char *box, double x_first,
                           double x_last, double y_first, double y_last);

/* The grid of grid.nx x grid.ny points on grid.px x grid.py ranks (0: chosen), as most models read it. */
DecompSpec run_read_grid(const Case *c);

/* hcl_decomp_create, with a process grid it refuses traced to the case's grid.px and grid.py. Collective. */
HclStatus run_create_decomp(const Case *c, const DecompSpec *spec, Decomp **out);

/* Refuses (HCL_ENODEVICE, on every rank) a block that needs more device memory than the device has, or a field
 * larger than its largest buffer, with the sizes and what to do; `point` names the grid's unit ("cell").
 * Collective. */
HclStatus run_check_device_memory(Runtime *rt, const Decomp *decomp, double needed, double largest_field,
                                  const char *point);

/* The restarts of prefix in the output folder that this run replaces: those after `step` for a continued run
 * (request->restart), all of them with --overwrite; a fresh run into a folder that holds restarts, without
 * --overwrite, is HCL_ECANTCREAT. Collective. */
HclStatus run_claim_restarts(const RunRequest *request, const char *prefix, int64_t step);

/* A fresh run that writes no file at path: one already there belongs to an earlier run; it goes with --overwrite
 * and is HCL_ECANTCREAT without it. Nothing for a continued run. Collective. */
HclStatus run_remove_stale(const RunRequest *request, const char *path);

/* The frame of a grid of cells of dx x dy whose south-west corner is (x0, y0): its points are the cells' centres;
 * the title is c's model.title. */
OutputFrame run_cell_frame(const Case *c, const char *source, const char *time_units, double x0, double y0, double dx,
                           double dy, const Crs *crs);
/* A restart's metadata in frame: what its fields are (NULL: set by the caller) and the bed a continued run must
 * share. */
RestartSpec run_restart_spec(const OutputFrame *frame, const OutputVariable *fields, Field *bed);
/* The output files' metadata in frame, stored as output.double and output.parallel_write of c say. */
OutputSpec run_output_spec(const OutputFrame *frame, const Case *c);

/* A run's output files in the output folder: map.nc, history.nc (with gauges) and a series file (seriesfile.h) for
 * a model that writes one. */
enum { RUN_PATH_SIZE = 1100 }; /* the output folder (-o, checked to be below 960 characters) and a file name */
typedef struct {
  MapFile *map;
  HistoryFile *history;
  SeriesFile *series;
  char lock[RUN_PATH_SIZE];     /* the output folder's lock file this run holds (rank 0), "" when none */
  char paths[3][RUN_PATH_SIZE]; /* the files open, which every restart checkpoints (checkpoint.h) */
  int npaths;
} RunFiles;

/* What goes into them: map.nc holds variables[0..nmap), history.nc the first nhistory of them at the gauges, the
 * series file series_name ("kinematics.nc"; NULL: none) the layout series. All borrowed during the call. */
typedef struct {
  const OutputVariable *variables;
  int nmap, nhistory;
  const Gauge *gauges;
  int ngauges;
  const char *series_name;
  const SeriesLayout *series;
  int restart_fields; /* the fields a restart holds, in double over the whole grid */
} RunOutputs;

/* The most a run writes into its output folder from tl's time to its end, in bytes, uncompressed (netCDF's metadata
 * aside): a map frame at every map event (and at the start of a fresh run), a sample of the history and series files
 * at every history event, the restart.keep newest restarts (fewer where the run writes fewer), and the checkpoints
 * of the newest restart, a copy of the map, history and series files (checkpoint.h). */
typedef struct {
  double map, history, series, restarts, checkpoints;
} RunOutputSize;
RunOutputSize run_output_size(const Decomp *decomp, const Case *c, const Timeline *tl, const RunOutputs *outputs,
                              bool double_precision, bool fresh);

/* Warns (rank 0) where the output may exceed output.size_warning, and refuses it with HCL_ECANTCREAT where it cannot
 * fit the space left on the file system of the output folder (or of its nearest existing parent: statvfs, what an
 * unprivileged writer may use), unless request->force. Prints the estimate and the space to out (rank 0) when out
 * is not NULL: what validate says. Collective. */
HclStatus run_check_output_size(const Case *c, const RunRequest *request, const RunOutputSize *size, FILE *out);

/* Opens a run's output: checks that it fits (run_check_output_size), makes the folder, claims its restarts of prefix (run_claim_restarts, after tl's step),
 * creates the files, or for a continued run reopens them from tl's time on, and for a fresh run without gauges takes
 * away an earlier run's history.nc (run_remove_stale). A continued run first puts back each file's checkpoint of
 * tl's step (checkpoint.h) where the restart continued from lies in the output folder and has one, so the file holds
 * exactly the frames that restart covers whatever happened to it after; without one, a file holding frames after
 * tl's time or frames cut short (the fill value for a time) is rewritten without them (hcl_output_trim), so no frame
 * of an abandoned run stays behind the continued run's. The checkpoints of other steps go (all of them for a fresh
 * run). base: the files' title, source, time units, coordinates and
 * storage; path, overwrite, history, the case and resuming are set here. A fresh run that fails leaves none of the
 * files this call made. Before anything in the folder is touched, the run takes its lock, RUN_LOCK_NAME: a file
 * holding the owner's host and pid, made exclusively; a folder locked by a live job (or one on another host) is
 * HCL_ECANTCREAT naming it, a lock left by a dead process of this host is taken over. run_close_files releases it.
 * Collective. */
HclStatus run_open_files(Runtime *rt, const Decomp *decomp, const Case *c, const RunRequest *request,
                         const char *prefix, const Timeline *tl, const OutputSpec *base, const RunOutputs *outputs,
                         RunFiles *files);
void run_close_files(RunFiles *files);
#define RUN_LOCK_NAME ".hydrocl.lock"

/* Writes a restart PREFIX-STEP.nc of fields and scalars (scalars[0] the time) into the output folder, keeping the
 * newest restart.keep, with the checkpoints of files (synced first), taken before the restart is renamed into place.
 * base: the file's metadata (source, title, what the fields are, time units, coordinates); the folder, prefix, how
 * many to keep and the checkpoints are set here. Collective. */
HclStatus run_write_restart(const Case *c, const RunRequest *request, RunFiles *files, const char *prefix,
                            const RestartSpec *base, int64_t step, Field *const *fields, int nfields,
                            const RestartScalar *scalars, int nscalars);

/* Refuses (HCL_EDATA, listing what differs) a restart at path of another case than c: another model, precision,
 * bed or grid (hcl_restart_check_case; base as for run_write_restart, grid the global one); with --force (request->force) only
 * another model is refused, the rest warned of. Collective. */
HclStatus run_check_restart(const Case *c, const RunRequest *request, const char *path, const RestartSpec *base,
                            const DecompSpec *grid);

/* The restart a continued run reads (request->restart): the newest of prefix in the output folder for "latest",
 * else the file named. Collective. */
HclStatus run_restart_path(const RunRequest *request, const char *prefix, char *path, size_t size);
/* Restarts the timeline's events after (t, step), read from the restart at path; HCL_EDATA when that is at or past
 * the end. */
HclStatus run_resume(Timeline *tl, const char *path, double t, int64_t step);

#endif
