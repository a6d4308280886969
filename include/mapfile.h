/* mapfile.h: the map file, CF-1.8 netCDF-4 snapshots of 2D fields every output interval.
 *
 * Dimensions time (unlimited), y, x; coordinate variables with units, axis and standard_name; data variables float32
 * by default, deflate level 1 with shuffle, chunked one frame per chunk; global attributes Conventions, title,
 * source, history and the effective case (hydrocl_case). Rank 0 gathers and writes; every frame ends with nc_sync,
 * so a killed run leaves a readable file. All calls are collective over the decomposition. */
#ifndef HYDROCL_MAPFILE_H
#define HYDROCL_MAPFILE_H

#include "decomp.h"
#include "field.h"
#include "status.h"

#include <stdbool.h>

typedef struct {
  const char *path;
  bool overwrite;          /* replace an existing file; otherwise an existing file is HCL_ECANTCREAT */
  const char *title;       /* global attributes */
  const char *source;      /* "hydrocl 0.1.0 (git), device, precision" */
  const char *history;     /* the command line */
  const char *case_yaml;   /* the effective case */
  const char *time_units;  /* "seconds since 2000-01-01 00:00:00" */
  double x0, dx, y0, dy;   /* x of global column i is x0 + i dx, in metres; likewise y */
  bool double_precision;   /* store data as double instead of float32 */
} MapSpec;

typedef struct {
  const char *name;          /* "zeta" */
  const char *standard_name; /* CF standard name, or NULL where CF has none */
  const char *long_name;
  const char *units;
} MapVariable;

typedef struct MapFile MapFile;

/* Creates the file with vars[0..nvars) (borrowed only during the call). */
HclStatus map_create(const Decomp *decomp, const MapSpec *spec, const MapVariable *vars, int nvars, MapFile **out);
/* Appends one frame at time (seconds since the reference): fields[i] holds vars[i] (2D fields). */
HclStatus map_write(MapFile *m, double time, Field *const *fields);
int map_frames(const MapFile *m);
/* Closes the file (rank 0) and frees; NULL-safe. */
void map_close(MapFile **m);

#endif
