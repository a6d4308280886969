/* SPDX-License-Identifier: BSD-3-Clause */
/* ncutil.h: netCDF-C calls in the error idiom of status.h (only in builds with netCDF). */
#ifndef HYDROCL_NCUTIL_H
#define HYDROCL_NCUTIL_H

#ifdef HYDROCL_HAVE_NETCDF
#include <errno.h>
#include <netcdf.h>
#include <sys/types.h>

#include "status.h"

/* Calls a netCDF function; on failure records the call, the file and the reason (nc_reason), and jumps to cleanup. */
#define TRY_NC(call, path)                                                                                             \
  do {                                                                                                                 \
    errno = 0;                                                                                                         \
    int nc_err_ = (call);                                                                                              \
    if (nc_err_ != NC_NOERR) {                                                                                         \
      FAIL(HCL_EIO, "netCDF error on '%s': %s (%s)", (path), nc_reason(nc_err_, errno, (path)), #call);                \
    }                                                                                                                  \
  } while (0)

/* Why a netCDF call on path failed: "no space left on device" when the system said so (saved_errno, the errno
 * right after the call: HDF5's own message is only "NetCDF: HDF error") or when the file system holding path has no
 * block left for an unprivileged writer, else netCDF's message. Static text or netCDF's. */
const char *nc_reason(int nc_err, int saved_errno, const char *path);

/* Writes a text attribute (NC_GLOBAL or a variable's). */
#define NC_TEXT_ATT(ncid, var, name, text) nc_put_att_text((ncid), (var), (name), strlen(text), (text))

#include "output.h"

/* Whether this netCDF-C writes files collectively (built with parallel I/O: HYDROCL_HAVE_NETCDF_PARALLEL). */
bool nc_output_can_write_collectively(void);
/* Creates spec->path as netCDF-4 in define mode (collectively over spec->collective when set); an existing file
 * without spec->overwrite is HCL_ECANTCREAT (the check and the creation are one call: NC_NOCLOBBER). */
HclStatus nc_output_create(const OutputSpec *spec, int *ncid);
/* Reopens spec->path to continue it (spec->resume; collectively over spec->collective when set): checks that dimension dim_names[k] has length dim_lengths[k]
 * and that the time variable and every variable of vars exist (HCL_EDATA naming the file and what differs), and
 * returns their ids and the number of frames at or before spec->resume_time, where the next frame goes. */
HclStatus nc_output_reopen(const OutputSpec *spec, const char *const *dim_names, const size_t *dim_lengths, int ndims,
                           const OutputVariable *vars, int nvars, int *ncid, int *time_var, int *var_ids, int *frames);
/* Rank 0, before a continued run reopens path: a file holding frames after t (of a run that went on past the
 * restart continued from and was abandoned: a continued run writing frames at other times would leave them behind)
 * or frames a full disk cut short (time missing, or the fill value) is rewritten with its frames up to t only and
 * every other variable whole, under a temporary name (hcl_checkpoint_temporary) renamed over it. *dropped: how many
 * frames went (0: the file was left alone). A file without time is left to nc_output_reopen's checks; one that does
 * not open is HCL_EDATA saying what to do. */
HclStatus nc_output_trim(const char *path, double t, int *dropped);
/* Which file a writer opened: checked before each frame, so that a file replaced or removed under a running job
 * (by another job in the same folder, or by hand) stops the run instead of going on into a file nobody will read. */
typedef struct {
  dev_t device;
  ino_t inode;
} NcIdentity;

/* The identity of the file at path now (HCL_EIO when it cannot be read). */
HclStatus nc_take_identity(const char *path, NcIdentity *id);
/* HCL_EIO naming path when the file there is no longer the one of id. */
HclStatus nc_check_identity(const char *path, const NcIdentity *id);

/* HCL_EIO naming path unless the file system holding it has room for bytes more (statvfs, as an unprivileged writer
 * sees it; where statvfs cannot tell, there is room). */
HclStatus nc_check_room(const char *path, double bytes);

/* In a collective file every rank must learn of a step that failed on any (a full disk) before the next collective
 * call, or the others would wait in it for the rank that stopped: agree (hcl_par_agree) is called on each step's status
 * where it is not NULL. */
typedef HclStatus (*NcAgree)(HclStatus local);

/* Ends a frame whose data are written: flushed to the file first, then its time written and flushed, so that a
 * failure (a full disk) never leaves a frame with a time and missing data; a frame cut short keeps a time that is
 * the fill value, which CF readers mask, and a continued run writes over it. */
HclStatus nc_finish_frame(int ncid, const char *path, int time_var, size_t index, double time, NcAgree agree);
/* The global attributes every output file carries: Conventions, title, source, history, hydrocl_case, and
 * featureType when feature_type is not NULL. */
HclStatus nc_output_globals(int ncid, const OutputSpec *spec, const char *feature_type);
/* The coordinate variable "x" or "y" (name) on dims[0..ndims): metres, its standard_name, a long_name saying what
 * its values locate (points; NULL: "cell centre") and, without a CRS, that they are local Cartesian coordinates;
 * on one dimension also its axis. */
HclStatus nc_output_axis(int ncid, const char *path, const char *name, int ndims, const int *dims, const char *points,
                         const Crs *crs, int *var);
/* The grid mapping variable "crs" (CF 1.8 section 5.6): grid_mapping_name and the projection's parameters, the
 * ellipsoid, crs_wkt and epsg_code. Defined before the data variables, which then name it (nc_output_variable). */
HclStatus nc_output_crs(int ncid, const char *path, const Crs *crs);
/* Its values: origin + i spacing for i < n. */
HclStatus nc_output_axis_values(int ncid, const char *path, int var, double origin, double spacing, int n);
/* The horizontal grid of a map or restart file, ny x nx points. Cartesian (spec->map NULL): dimensions y, x and the
 * coordinate variables y, x of x0 + i dx, y0 + j dy. Curvilinear: dimensions gamma, xi (along the grid's index
 * directions j and i) with their index variables, and x(gamma, xi), y(gamma, xi) as 2D auxiliary coordinates (CF 1.8
 * section 5.2) that the data variables name in their coordinates attribute ("y x"), so that xarray, ncview and
 * ParaView draw the physical grid. Defined before nc_enddef, written after. dims: along j, along i. */
typedef struct {
  int dims[2], vars[2], index[2]; /* dimensions, coordinates y and x, index variables gamma and xi (curvilinear) */
} NcGrid;
HclStatus nc_output_define_grid(int ncid, const OutputSpec *spec, int ny, int nx, NcGrid *grid);
HclStatus nc_output_write_grid(int ncid, const OutputSpec *spec, int ny, int nx, const NcGrid *grid);
/* The names of the dimensions along j and i: gamma, xi (the paper's computational coordinates) on a curvilinear grid, else y, x. */
void nc_output_grid_dims(const OutputSpec *spec, const char *names[2]);
/* The CF time coordinate variable on dimension dim. */
HclStatus nc_output_time(int ncid, const OutputSpec *spec, int dim, int *var);
/* A data variable of its storage type (nc_output_type) with its long_name, units and standard_name, a flag's
 * flag_values and flag_meanings, a variable with missing values its _FillValue, and grid_mapping where the file has
 * the variable crs (nc_output_crs); written collectively in a collective file (deflate requires it). */
HclStatus nc_output_variable(int ncid, const OutputSpec *spec, const OutputVariable *v, int ndims, const int *dims,
                             int *var);
/* How a variable is stored: bytes for a flag, else double or float as the output asks. */
nc_type nc_output_type(const OutputVariable *v, bool double_precision);
/* Writes a variable without time on the dimensions dim_names[0..ndims) (a quantity that does not change, or one
 * rewritten whole, as the maxima), holding values (as nc_output_put; scratch holds as many floats): defined, deflated
 * and given coordinates (when not NULL) on first use, so a continued run's file that lacks it gains it; synced.
 * part: this writer's share of a collective file, start and count per dimension (its block) and the agreement of
 * its steps; NULL: all of the variable, by one writer. */
typedef struct {
  const size_t *start, *count;
  NcAgree agree;
} NcPart;
HclStatus nc_output_static(int ncid, const OutputSpec *spec, const OutputVariable *var, const char *const *dim_names,
                           int ndims, const char *coordinates, const NcPart *part, double *values, float *scratch);
/* Writes n values of a variable of type (nc_output_type) at start/count from doubles: a flag as the lowest value its
 * interpolation could stand for (floor, within 1e-9: a gauge between a wet and a dry cell is dry), a NaN as the
 * type's fill value (in values itself for double storage). scratch holds n floats. */
HclStatus nc_output_put(int ncid, int var, const char *path, nc_type type, const size_t *start, const size_t *count,
                        double *values, size_t n, float *scratch);
#endif

#endif
