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
#include "output.h"
#include "status.h"

typedef struct MapFile MapFile;

/* Creates the file with vars[0..nvars) (borrowed only during the call). A failure on any rank removes the file
 * again, so it never blocks the next run. */
HclStatus map_create(const Decomp *decomp, const OutputSpec *spec, const OutputVariable *vars, int nvars,
                     MapFile **out);
/* Appends one frame at time (seconds since the reference): fields[i] holds vars[i] (2D fields). */
HclStatus map_write(MapFile *m, double time, Field *const *fields);
/* Writes a variable that does not change (the bed level), on (y, x) without time: scale times the 2D field f (-1:
 * a depth positive down as a level positive up). Defined on first use; a continued run's file that has it gets it
 * again. */
HclStatus map_write_static(MapFile *m, const OutputVariable *var, Field *f, double scale);
int map_frames(const MapFile *m);
/* Closes the file (rank 0) and frees; NULL-safe. */
void map_close(MapFile **m);

#endif
