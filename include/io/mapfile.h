/* SPDX-License-Identifier: BSD-3-Clause */
/* mapfile.h: the map file, CF-1.8 netCDF-4 snapshots of 2D fields every output interval.
 *
 * Dimensions time (unlimited), y, x; coordinate variables with units, axis and standard_name; data variables float32
 * by default, deflate level 1 with shuffle, a frame chunked in whole rows of up to 4 MiB; global attributes
 * Conventions, title, source, history and the effective case (hydrocl_case), rank 0's on every rank. On several
 * ranks with spec->parallel_write and a netCDF-C with parallel I/O (HDF5 over MPI-IO), every rank writes its own
 * block of each frame, collectively; otherwise rank 0 gathers the fields and writes. The file is the same either way.
 * Every frame ends with nc_sync, so a killed run leaves a readable file. All calls are collective over the
 * decomposition. */
#ifndef HYDROCL_MAPFILE_H
#define HYDROCL_MAPFILE_H

#include "decomp.h"
#include "field.h"
#include "output.h"
#include "status.h"

typedef struct MapFile MapFile;

/* Creates the file with vars[0..nvars) (borrowed only during the call). A failure on any rank removes the file
 * again, so it never blocks the next run. */
HclStatus hcl_map_create(const Decomp *decomp, const OutputSpec *spec, const OutputVariable *vars, int nvars,
                         MapFile **out);
/* Appends one frame at time (seconds since the reference): fields[i] holds vars[i] (2D fields). */
HclStatus hcl_map_write(MapFile *m, double time, Field *const *fields);
/* Writes a variable that does not change (the bed level), on (y, x) without time: scale times the 2D field f (-1:
 * a depth positive down as a level positive up). Defined on first use; a continued run's file that has it gets it
 * again. */
HclStatus hcl_map_write_static(MapFile *m, const OutputVariable *var, Field *f, double scale);
/* Flushes what the file holds to it (nc_sync), so that a copy of it is whole (checkpoint.h). */
HclStatus hcl_map_sync(MapFile *m);
int hcl_map_frames(const MapFile *m);
bool hcl_map_collective(const MapFile *m); /* whether every rank writes its own block */
bool hcl_map_can_write_collectively(void); /* whether this build's netCDF-C has parallel I/O */
/* Closes the file (rank 0) and frees; NULL-safe. */
void hcl_map_close(MapFile **m);

#endif
