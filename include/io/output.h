/* SPDX-License-Identifier: BSD-3-Clause */
/* output.h: what the map and history files share: file-level metadata and the description of a variable. */
#ifndef HYDROCL_OUTPUT_H
#define HYDROCL_OUTPUT_H

#include <stdbool.h>

#include "crs.h"
#include "gridmap.h"
#include "status.h"

/* Where a run's files place their values and what they say of themselves, the same in every file a run writes (map,
 * history, series and restart files). All borrowed. */
typedef struct {
  const char *title;      /* global attributes */
  const char *source;     /* "hydrocl 0.1.0 (git), device, precision" */
  const char *time_units; /* "seconds since 2000-01-01 00:00:00" */
  double x0, dx, y0, dy;  /* x of global column i is x0 + i dx, in metres; likewise y */
  const Mapping *map;     /* a curvilinear grid: point (i, j) at map's (x, y) instead (x0, dx, y0, dy unused);
                             NULL: Cartesian */
  const char *points;     /* what the coordinates locate, for their long_name; NULL: "cell centre" */
  const Crs *crs;         /* the grid's coordinate reference system (grid.crs): every file gets the grid mapping
                             variable crs and every data variable its grid_mapping; NULL: local Cartesian metres */
} OutputFrame;

typedef struct {
  const char *path;
  bool overwrite; /* replace an existing file; otherwise an existing file is HCL_ECANTCREAT */
  OutputFrame frame;
  const char *history;   /* global attributes: the command line */
  const char *case_yaml; /* the effective case */
  bool double_precision; /* store data as double instead of float32 */
  bool resume;           /* a continued run: reopen an existing file of the same grid and variables instead of
                              creating one; frames after resume_time (from a run that went on past the restart it
                              continues from) are overwritten, the caller having taken away those they would not
                              (nc_output_trim, run.c) */
  double resume_time;
  bool parallel_write; /* the map file: every rank writes its own block, collectively, where netCDF-C has parallel
                          I/O (output.parallel_write); false, or without it: rank 0 gathers and writes */
  const struct ParComm *collective; /* set by the writer: the file is opened and written collectively over these
                                       ranks (parallel netCDF-4); NULL: by rank 0 alone */
} OutputSpec;

typedef struct {
  const char *name;          /* "zeta" */
  const char *standard_name; /* CF standard name, or NULL where CF has none */
  const char *long_name;
  const char *units;
  const char *flag_meanings; /* "dry wet" for a flag taking the values 0, 1, ...: stored as bytes (CF 3.5); NULL for
                                a measured quantity */
  bool missing_where_nan;    /* a NaN from the model marks a value that does not exist (a dry cell's level): stored as
                                the storage type's default fill value, declared in _FillValue */
} OutputVariable;

/* Before any netCDF call and before hcl_par_init: HDF5's clean-up at exit (or, for an HDF5 built for MPI, at
 * MPI_Finalize) is turned off. After a write that failed (a full disk) HDF5 cannot
 * close the file, and its clean-up at exit then crashes (HDF5 1.10); every file hydrocl writes is closed or
 * abandoned by hydrocl itself, and each finished frame is already on disk. */
void hcl_output_library_init(void);

/* Whether blocks of ranks may be written collectively into the existing netCDF-4 file at path, judged by its
 * variable `variable`: only where its chunks were allocated when the file grew (HDF5's early allocation, which a
 * file made by parallel netCDF has). A file made by one rank allocates chunks as they are written, and HDF5 (1.10)
 * then fails a collective write of a chunk shared by ranks on some ranks only, leaving the others waiting; such a
 * file is continued by rank 0 alone. true without HDF5 (no collective writes then). Rank 0's answer; not
 * collective. */
bool hcl_output_continues_collectively(const char *path, const char *variable);

/* Creates every missing folder of path (mkdir -p) on rank 0; HCL_ECANTCREAT when one cannot be made. Collective. */
HclStatus hcl_output_make_folders(const char *path);

/* Rank 0, before a continued run reopens the file at path: takes away the frames after t and those cut short
 * (nc_output_trim in ncutil.h says how); *dropped, how many went. */
HclStatus hcl_output_trim(const char *path, double t, int *dropped);

#endif
