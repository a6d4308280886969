/* SPDX-License-Identifier: BSD-3-Clause */
/* ncutil.c: what every CF output file of hydrocl shares (see ncutil.h). */
#include "ncutil.h"

#include "checkpoint.h"
#include "par.h"
#ifdef HYDROCL_HAVE_NETCDF_PARALLEL
#include <netcdf_par.h>
#endif

#ifdef HYDROCL_HAVE_NETCDF
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* statvfs of the folder of path. */
static bool folder_statvfs(const char *path, struct statvfs *info) {
  char folder[4096];
  snprintf(folder, sizeof folder, "%s", path);
  char *slash = strrchr(folder, '/');
  if (slash) {
    *slash = '\0';
  } else {
    snprintf(folder, sizeof folder, ".");
  }
  return statvfs(folder[0] ? folder : "/", info) == 0;
}

/* The bytes an unprivileged writer may still put on the file system holding path (its folder); HUGE_VAL where
 * statvfs cannot tell. */
static double room_left(const char *path) {
  struct statvfs info;
  return folder_statvfs(path, &info) ? (double)info.f_bavail * (double)info.f_frsize : HUGE_VAL;
}

/* Whether the file system holding path has no block left for an unprivileged writer; a read-only one, which says it
 * has none, is not full. */
static bool file_system_full(const char *path) {
  struct statvfs info;
  return folder_statvfs(path, &info) && info.f_bavail == 0 && !(info.f_flag & ST_RDONLY);
}

HclStatus nc_check_room(const char *path, double bytes) {
  HclStatus status = HCL_OK;
  double left = room_left(path);
  REQUIRE(left >= bytes, HCL_EIO,
          "no space left on device for the next frame of '%s': it may take up to %.3g MB, the file system has %.3g MB "
          "left; this run stops here with the frames written so far",
          path, bytes * 1e-6, left * 1e-6);
cleanup:
  return status;
}

const char *nc_reason(int nc_err, int saved_errno, const char *path) {
  if (saved_errno == ENOSPC || saved_errno == EDQUOT || (nc_err != NC_NOERR && file_system_full(path))) {
    return saved_errno == EDQUOT ? "no space left on device (disk quota exceeded)" : "no space left on device";
  }
  return nc_strerror(nc_err);
}

bool nc_output_can_write_collectively(void) {
#ifdef HYDROCL_HAVE_NETCDF_PARALLEL
  return true;
#else
  return false;
#endif
}

/* nc_create, collectively over comm when it is not NULL. */
static int create_file(const char *path, int mode, const ParComm *comm, int *ncid) {
#ifdef HYDROCL_HAVE_NETCDF_PARALLEL
  if (comm) {
    return nc_create_par(path, mode, hcl_par_comm_mpi(comm), MPI_INFO_NULL, ncid);
  }
#endif
  return comm ? NC_ENOPAR : nc_create(path, mode, ncid);
}

/* nc_open, collectively over comm when it is not NULL. */
static int open_file(const char *path, int mode, const ParComm *comm, int *ncid) {
#ifdef HYDROCL_HAVE_NETCDF_PARALLEL
  if (comm) {
    return nc_open_par(path, mode, hcl_par_comm_mpi(comm), MPI_INFO_NULL, ncid);
  }
#endif
  return comm ? NC_ENOPAR : nc_open(path, mode, ncid);
}

/* A variable of a collective file is written by every rank at once (HDF5's filters need it). */
static HclStatus write_collectively(int ncid, const OutputSpec *spec, int var) {
  HclStatus status = HCL_OK;
#ifdef HYDROCL_HAVE_NETCDF_PARALLEL
  if (spec->collective) {
    TRY_NC(nc_var_par_access(ncid, var, NC_COLLECTIVE), spec->path);
  }
#else
  (void)ncid;
  (void)spec;
  (void)var;
  goto cleanup;
#endif
cleanup:
  return status;
}

HclStatus nc_output_create(const OutputSpec *spec, int *ncid) {
  HclStatus status = HCL_OK;
  errno = 0;
  int mode = NC_NETCDF4 | (spec->overwrite ? NC_CLOBBER : NC_NOCLOBBER);
  int err = create_file(spec->path, mode, spec->collective, ncid);
  REQUIRE(err != NC_EEXIST, HCL_ECANTCREAT,
          "output '%s' exists; pass --overwrite to replace it, or choose another output folder", spec->path);
  REQUIRE(err == NC_NOERR, HCL_ECANTCREAT, "cannot create '%s': %s", spec->path, nc_reason(err, errno, spec->path));
cleanup:
  return status;
}

HclStatus nc_take_identity(const char *path, NcIdentity *id) {
  HclStatus status = HCL_OK;
  struct stat info;
  REQUIRE(stat(path, &info) == 0, HCL_EIO, "cannot read what '%s' is: %s", path, strerror(errno));
  *id = (NcIdentity){.device = info.st_dev, .inode = info.st_ino};
cleanup:
  return status;
}

HclStatus nc_check_identity(const char *path, const NcIdentity *id) {
  HclStatus status = HCL_OK;
  struct stat info;
  bool gone = stat(path, &info) != 0;
  REQUIRE(!gone && info.st_dev == id->device && info.st_ino == id->inode, HCL_EIO,
          "output '%s' was %s while this run was writing it: another job or a person changed the output folder; "
          "this run stops here and leaves that folder's files alone (its restarts so far are there)",
          path, gone ? "removed" : "replaced by another file");
cleanup:
  return status;
}

/* A step's status, agreed over the ranks of a collective file (agree not NULL). */
static HclStatus agreed(NcAgree agree, HclStatus local) {
  return agree ? agree(local) : local;
}

static HclStatus sync_file(int ncid, const char *path) {
  HclStatus status = HCL_OK;
  TRY_NC(nc_sync(ncid), path);
cleanup:
  return status;
}

static HclStatus put_time(int ncid, const char *path, int time_var, size_t index, double time) {
  HclStatus status = HCL_OK;
  TRY_NC(nc_put_var1_double(ncid, time_var, &index, &time), path);
cleanup:
  return status;
}

HclStatus nc_finish_frame(int ncid, const char *path, int time_var, size_t index, double time, NcAgree agree) {
  HclStatus status = HCL_OK;
  TRY(agreed(agree, sync_file(ncid, path)));
  TRY(agreed(agree, put_time(ncid, path, time_var, index, time)));
  TRY(agreed(agree, sync_file(ncid, path))); /* a killed run keeps every finished frame */
cleanup:
  return status;
}

/* How many frames of the file lie at or before t (those after it are overwritten; nc_output_trim has taken away
 * any that the continued run would not overwrite). */
static HclStatus frames_until(int ncid, const char *path, int time_var, double t, int *frames) {
  HclStatus status = HCL_OK;
  int dim;
  size_t count = 0;
  double *times = NULL;
  TRY_NC(nc_inq_vardimid(ncid, time_var, &dim), path);
  TRY_NC(nc_inq_dimlen(ncid, dim, &count), path);
  TRY_ALLOC(times, count);
  if (count > 0) {
    TRY_NC(nc_get_var_double(ncid, time_var, times), path);
  }
  *frames = 0;
  while ((size_t)*frames < count && times[*frames] <= t + 1e-9 * (1 + fabs(t))) {
    (*frames)++;
  }
cleanup:
  free(times);
  return status;
}

/* CF 1.8 section 2.6.2: a program that changes a file appends its line to the global history attribute; the
 * effective case becomes the continuing run's. */
static HclStatus append_history(int ncid, const OutputSpec *spec) {
  HclStatus status = HCL_OK;
  size_t length = 0;
  char *text = NULL;
  if (nc_inq_attlen(ncid, NC_GLOBAL, "history", &length) != NC_NOERR) {
    length = 0;
  }
  TRY_ALLOC(text, length + strlen(spec->history) + 2);
  if (length > 0) {
    TRY_NC(nc_get_att_text(ncid, NC_GLOBAL, "history", text), spec->path);
    text[length++] = '\n';
  }
  strcpy(text + length, spec->history);
  TRY_NC(nc_redef(ncid), spec->path);
  TRY_NC(NC_TEXT_ATT(ncid, NC_GLOBAL, "history", text), spec->path);
  TRY_NC(NC_TEXT_ATT(ncid, NC_GLOBAL, "hydrocl_case", spec->case_yaml), spec->path); /* the continuing run's case */
  TRY_NC(nc_enddef(ncid), spec->path);
cleanup:
  free(text);
  return status;
}

HclStatus nc_output_reopen(const OutputSpec *spec, const char *const *dim_names, const size_t *dim_lengths, int ndims,
                           const OutputVariable *vars, int nvars, int *ncid, int *time_var, int *var_ids, int *frames) {
  HclStatus status = HCL_OK;
  TRY_NC(open_file(spec->path, NC_WRITE, spec->collective, ncid), spec->path);
  for (int d = 0; d < ndims; d++) {
    int dim;
    size_t length = 0;
    REQUIRE(nc_inq_dimid(*ncid, dim_names[d], &dim) == NC_NOERR && nc_inq_dimlen(*ncid, dim, &length) == NC_NOERR &&
                length == dim_lengths[d],
            HCL_EDATA,
            "cannot continue '%s': its dimension %s is %zu, this run's is %zu (another case? use a new "
            "output folder or --overwrite)",
            spec->path, dim_names[d], length, dim_lengths[d]);
  }
  REQUIRE(nc_inq_varid(*ncid, "time", time_var) == NC_NOERR, HCL_EDATA, "cannot continue '%s': it has no time",
          spec->path);
  TRY(write_collectively(*ncid, spec, *time_var));
  for (int v = 0; v < nvars; v++) {
    REQUIRE(nc_inq_varid(*ncid, vars[v].name, &var_ids[v]) == NC_NOERR, HCL_EDATA,
            "cannot continue '%s': it has no variable '%s'", spec->path, vars[v].name);
    TRY(write_collectively(*ncid, spec, var_ids[v]));
  }
  TRY(frames_until(*ncid, spec->path, *time_var, spec->resume_time, frames));
  TRY(append_history(*ncid, spec));
cleanup:
  return status;
}

/* Defines in out every dimension (the unlimited one unlimited), global attribute and variable of in, each variable
 * with its type, dimensions, chunks, filters, fill and attributes. */
static HclStatus copy_definitions(int in, const char *path, int out, const char *copy) {
  HclStatus status = HCL_OK;
  int ndims = 0, nvars = 0, natts = 0, unlimited = -1;
  char name[NC_MAX_NAME + 1];
  TRY_NC(nc_inq(in, &ndims, &nvars, &natts, &unlimited), path);
  for (int d = 0; d < ndims; d++) { /* in order, so a dimension keeps its id */
    size_t length = 0;
    int id = -1;
    TRY_NC(nc_inq_dim(in, d, name, &length), path);
    TRY_NC(nc_def_dim(out, name, d == unlimited ? NC_UNLIMITED : length, &id), copy);
    ASSERT(id == d);
  }
  for (int a = 0; a < natts; a++) {
    TRY_NC(nc_inq_attname(in, NC_GLOBAL, a, name), path);
    TRY_NC(nc_copy_att(in, NC_GLOBAL, name, out, NC_GLOBAL), copy);
  }
  for (int v = 0; v < nvars; v++) {
    nc_type type;
    int nd = 0, dims[NC_MAX_VAR_DIMS], n_atts = 0, id = -1, storage = 0, shuffle = 0, deflate = 0, level = 0;
    int no_fill = 0;
    size_t chunks[NC_MAX_VAR_DIMS];
    TRY_NC(nc_inq_var(in, v, name, &type, &nd, dims, &n_atts), path);
    TRY_NC(nc_def_var(out, name, type, nd, dims, &id), copy);
    ASSERT(id == v);
    TRY_NC(nc_inq_var_chunking(in, v, &storage, chunks), path);
    if (storage == NC_CHUNKED) {
      TRY_NC(nc_def_var_chunking(out, id, NC_CHUNKED, chunks), copy);
    }
    TRY_NC(nc_inq_var_deflate(in, v, &shuffle, &deflate, &level), path);
    if (shuffle || deflate) {
      TRY_NC(nc_def_var_deflate(out, id, shuffle, deflate, level), copy);
    }
    TRY_NC(nc_inq_var_fill(in, v, &no_fill, NULL), path);
    if (no_fill) {
      TRY_NC(nc_def_var_fill(out, id, 1, NULL), copy);
    }
    for (int a = 0; a < n_atts; a++) { /* _FillValue among them */
      TRY_NC(nc_inq_attname(in, v, a, name), path);
      TRY_NC(nc_copy_att(in, v, name, out, id), copy);
    }
  }
cleanup:
  return status;
}

/* Copies the values of every variable of in to out (defined alike): of a variable along the unlimited dimension its
 * first `frames` records, one at a time (a frame of a map file may be large), of any other all of it. */
static HclStatus copy_values(int in, const char *path, int out, const char *copy, size_t frames) {
  HclStatus status = HCL_OK;
  int nvars = 0, unlimited = -1;
  void *buffer = NULL;
  TRY_NC(nc_inq_nvars(in, &nvars), path);
  TRY_NC(nc_inq_unlimdim(in, &unlimited), path);
  for (int v = 0; v < nvars; v++) {
    nc_type type;
    int nd = 0, dims[NC_MAX_VAR_DIMS];
    size_t start[NC_MAX_VAR_DIMS] = {0}, count[NC_MAX_VAR_DIMS], size = 0, values = 1;
    TRY_NC(nc_inq_var(in, v, NULL, &type, &nd, dims, NULL), path);
    TRY_NC(nc_inq_type(in, type, NULL, &size), path);
    for (int d = 0; d < nd; d++) {
      TRY_NC(nc_inq_dimlen(in, dims[d], &count[d]), path);
    }
    bool record = nd > 0 && dims[0] == unlimited;
    size_t records = record ? (frames < count[0] ? frames : count[0]) : 1;
    if (record) {
      count[0] = 1;
    }
    for (int d = 0; d < nd; d++) {
      values *= count[d];
    }
    free(buffer);
    buffer = NULL;
    TRY_ALLOC_BYTES(buffer, values * size + 1);
    for (size_t r = 0; r < records && values > 0; r++) {
      start[0] = record ? r : 0;
      TRY_NC(nc_get_vara(in, v, start, count, buffer), path);
      TRY_NC(nc_put_vara(out, v, start, count, buffer), copy);
    }
  }
cleanup:
  free(buffer);
  return status;
}

/* Rank 0: path's frames [0, frames) and everything else into a new file at copy. */
static HclStatus copy_frames(int in, const char *path, const char *copy, size_t frames) {
  HclStatus status = HCL_OK;
  int out = -1;
  errno = 0;
  int err = nc_create(copy, NC_NETCDF4 | NC_CLOBBER, &out);
  REQUIRE(err == NC_NOERR, HCL_EIO, "cannot create '%s': %s", copy, nc_reason(err, errno, copy));
  TRY(copy_definitions(in, path, out, copy));
  TRY_NC(nc_enddef(out), copy);
  TRY(copy_values(in, path, out, copy, frames));
cleanup:
  if (out >= 0) {
    errno = 0;
    err = nc_close(out);
    if (status == HCL_OK && err != NC_NOERR) {
      status = hcl_status_set(HCL_EIO, __FILE__, __LINE__, "cannot finish '%s': %s", copy, nc_reason(err, errno, copy));
    }
  }
  return status;
}

HclStatus nc_output_trim(const char *path, double t, int *dropped) {
  HclStatus status = HCL_OK;
  int ncid = -1, time_var = -1, frames = 0, dim = -1;
  size_t count = 0;
  char copy[4200];
  *dropped = 0;
  errno = 0;
  int err = nc_open(path, NC_NOWRITE, &ncid);
  REQUIRE(err == NC_NOERR, HCL_EDATA,
          "cannot continue '%s': it does not open (%s), as a run killed while HDF5 rewrote the file's metadata can "
          "leave it, and the restart continued from has no copy of it (only the newest restart has one); continue "
          "from the newest restart (--restart latest), or start afresh (--overwrite)",
          path, nc_reason(err, errno, path));
  if (nc_inq_varid(ncid, "time", &time_var) != NC_NOERR || nc_inq_vardimid(ncid, time_var, &dim) != NC_NOERR) {
    goto cleanup; /* not a file of frames: nc_output_reopen says what it lacks */
  }
  TRY_NC(nc_inq_dimlen(ncid, dim, &count), path);
  TRY(frames_until(ncid, path, time_var, t, &frames));
  if ((size_t)frames == count) {
    goto cleanup;
  }
  hcl_checkpoint_temporary(path, copy, sizeof copy);
  unlink(copy); /* one a killed run left, or a link: never written through */
  status = copy_frames(ncid, path, copy, (size_t)frames);
  nc_close(ncid);
  ncid = -1;
  if (status == HCL_OK && rename(copy, path) != 0) {
    status = hcl_status_set(HCL_EIO, __FILE__, __LINE__, "cannot rename '%s' to '%s': %s", copy, path, strerror(errno));
  }
  if (status != HCL_OK) {
    unlink(copy);
    goto cleanup;
  }
  *dropped = (int)(count - (size_t)frames);
cleanup:
  if (ncid >= 0) {
    nc_close(ncid);
  }
  return status;
}

HclStatus nc_output_globals(int ncid, const OutputSpec *spec, const char *feature_type) {
  HclStatus status = HCL_OK;
  TRY_NC(NC_TEXT_ATT(ncid, NC_GLOBAL, "Conventions", "CF-1.8"), spec->path);
  TRY_NC(NC_TEXT_ATT(ncid, NC_GLOBAL, "title", spec->frame.title), spec->path);
  TRY_NC(NC_TEXT_ATT(ncid, NC_GLOBAL, "source", spec->frame.source), spec->path);
  TRY_NC(NC_TEXT_ATT(ncid, NC_GLOBAL, "history", spec->history), spec->path);
  TRY_NC(NC_TEXT_ATT(ncid, NC_GLOBAL, "hydrocl_case", spec->case_yaml), spec->path);
  if (feature_type) {
    TRY_NC(NC_TEXT_ATT(ncid, NC_GLOBAL, "featureType", feature_type), spec->path);
  }
cleanup:
  return status;
}

HclStatus nc_output_axis(int ncid, const char *path, const char *name, int ndims, const int *dims, const char *points,
                         const Crs *crs, int *var) {
  HclStatus status = HCL_OK;
  bool is_x = strcmp(name, "x") == 0;
  char long_name[192];
  snprintf(long_name, sizeof long_name, "%s coordinate of %s%s", name, points ? points : "cell centre",
           crs ? "" : " (local Cartesian metres, no geographic reference: grid.crs is not set)");
  TRY_NC(nc_def_var(ncid, name, NC_DOUBLE, ndims, dims, var), path);
  TRY_NC(NC_TEXT_ATT(ncid, *var, "units", "m"), path);
  if (ndims == 1) { /* a coordinate variable; a 2D auxiliary coordinate has no axis (CF 1.8 section 4) */
    TRY_NC(NC_TEXT_ATT(ncid, *var, "axis", is_x ? "X" : "Y"), path);
  }
  TRY_NC(NC_TEXT_ATT(ncid, *var, "standard_name", is_x ? "projection_x_coordinate" : "projection_y_coordinate"), path);
  TRY_NC(NC_TEXT_ATT(ncid, *var, "long_name", long_name), path);
cleanup:
  return status;
}

HclStatus nc_output_axis_values(int ncid, const char *path, int var, double origin, double spacing, int n) {
  HclStatus status = HCL_OK;
  double *values = NULL;
  TRY_ALLOC(values, n);
  for (int i = 0; i < n; i++) {
    values[i] = origin + i * spacing;
  }
  TRY_NC(nc_put_var_double(ncid, var, values), path);
cleanup:
  free(values);
  return status;
}

void nc_output_grid_dims(const OutputSpec *spec, const char *names[2]) {
  names[0] = spec->frame.map ? "gamma" : "y";
  names[1] = spec->frame.map ? "xi" : "x";
}

/* A curvilinear grid's index variable along dimension dim: the grid's own index, what xi and gamma count. */
static HclStatus define_index(int ncid, const char *path, const char *name, int dim, const char *long_name, int *var) {
  HclStatus status = HCL_OK;
  TRY_NC(nc_def_var(ncid, name, NC_INT, 1, &dim, var), path);
  TRY_NC(NC_TEXT_ATT(ncid, *var, "units", "1"), path);
  TRY_NC(NC_TEXT_ATT(ncid, *var, "long_name", long_name), path);
cleanup:
  return status;
}

HclStatus nc_output_define_grid(int ncid, const OutputSpec *spec, int ny, int nx, NcGrid *grid) {
  HclStatus status = HCL_OK;
  const char *names[2];
  nc_output_grid_dims(spec, names);
  TRY_NC(nc_def_dim(ncid, names[0], (size_t)ny, &grid->dims[0]), spec->path);
  TRY_NC(nc_def_dim(ncid, names[1], (size_t)nx, &grid->dims[1]), spec->path);
  if (spec->frame.map) {
    TRY(define_index(ncid, spec->path, "gamma", grid->dims[0], "grid index j (the second index direction)",
                     &grid->index[0]));
    TRY(define_index(ncid, spec->path, "xi", grid->dims[1], "grid index i (the first index direction)",
                     &grid->index[1]));
    TRY(nc_output_axis(ncid, spec->path, "y", 2, grid->dims, spec->frame.points, spec->frame.crs, &grid->vars[0]));
    TRY(nc_output_axis(ncid, spec->path, "x", 2, grid->dims, spec->frame.points, spec->frame.crs, &grid->vars[1]));
  } else {
    TRY(nc_output_axis(ncid, spec->path, "y", 1, &grid->dims[0], spec->frame.points, spec->frame.crs, &grid->vars[0]));
    TRY(nc_output_axis(ncid, spec->path, "x", 1, &grid->dims[1], spec->frame.points, spec->frame.crs, &grid->vars[1]));
  }
cleanup:
  return status;
}

/* x and y of every point of a curvilinear grid, and its index variables. */
static HclStatus write_mapped_grid(int ncid, const OutputSpec *spec, int ny, int nx, const NcGrid *grid) {
  HclStatus status = HCL_OK;
  size_t n = (size_t)nx * ny;
  double *x = NULL, *y = NULL;
  int *index = NULL;
  TRY_ALLOC(x, n);
  TRY_ALLOC(y, n);
  TRY_ALLOC(index, (size_t)(nx > ny ? nx : ny));
  for (size_t p = 0; p < n; p++) {
    spec->frame.map->point(spec->frame.map->ctx, (long)(p % (size_t)nx), (long)(p / (size_t)nx), &x[p], &y[p]);
  }
  for (int k = 0; k < (nx > ny ? nx : ny); k++) {
    index[k] = k;
  }
  TRY_NC(nc_put_var_double(ncid, grid->vars[0], y), spec->path);
  TRY_NC(nc_put_var_double(ncid, grid->vars[1], x), spec->path);
  TRY_NC(nc_put_var_int(ncid, grid->index[0], index), spec->path);
  TRY_NC(nc_put_var_int(ncid, grid->index[1], index), spec->path);
cleanup:
  free(x);
  free(y);
  free(index);
  return status;
}

HclStatus nc_output_write_grid(int ncid, const OutputSpec *spec, int ny, int nx, const NcGrid *grid) {
  HclStatus status = HCL_OK;
  if (spec->frame.map) {
    TRY(write_mapped_grid(ncid, spec, ny, nx, grid));
  } else {
    TRY(nc_output_axis_values(ncid, spec->path, grid->vars[0], spec->frame.y0, spec->frame.dy, ny));
    TRY(nc_output_axis_values(ncid, spec->path, grid->vars[1], spec->frame.x0, spec->frame.dx, nx));
  }
cleanup:
  return status;
}

HclStatus nc_output_crs(int ncid, const char *path, const Crs *crs) {
  HclStatus status = HCL_OK;
  int var = -1;
  TRY_NC(nc_def_var(ncid, "crs", NC_INT, 0, NULL, &var), path);
  if (crs->grid_mapping_name) {
    TRY_NC(NC_TEXT_ATT(ncid, var, "grid_mapping_name", crs->grid_mapping_name), path);
  }
  for (int p = 0; p < crs->nparameters; p++) {
    const CrsParameter *parameter = &crs->parameters[p];
    TRY_NC(nc_put_att_double(ncid, var, parameter->name, NC_DOUBLE, (size_t)parameter->count, parameter->values), path);
  }
  TRY_NC(nc_put_att_double(ncid, var, "semi_major_axis", NC_DOUBLE, 1, &crs->semi_major_axis), path);
  TRY_NC(nc_put_att_double(ncid, var, "inverse_flattening", NC_DOUBLE, 1, &crs->inverse_flattening), path);
  TRY_NC(nc_put_att_double(ncid, var, "longitude_of_prime_meridian", NC_DOUBLE, 1, &crs->longitude_of_prime_meridian),
         path);
  TRY_NC(NC_TEXT_ATT(ncid, var, "long_name", crs->name), path);
  TRY_NC(NC_TEXT_ATT(ncid, var, "crs_wkt", crs->wkt), path);
  if (crs->epsg[0]) {
    TRY_NC(NC_TEXT_ATT(ncid, var, "epsg_code", crs->epsg), path);
  }
cleanup:
  return status;
}

HclStatus nc_output_time(int ncid, const OutputSpec *spec, int dim, int *var) {
  HclStatus status = HCL_OK;
  TRY_NC(nc_def_var(ncid, "time", NC_DOUBLE, 1, &dim, var), spec->path);
  TRY_NC(NC_TEXT_ATT(ncid, *var, "units", spec->frame.time_units), spec->path);
  TRY_NC(NC_TEXT_ATT(ncid, *var, "standard_name", "time"), spec->path);
  TRY_NC(NC_TEXT_ATT(ncid, *var, "axis", "T"), spec->path);
  TRY_NC(NC_TEXT_ATT(ncid, *var, "calendar", "standard"), spec->path);
  TRY(write_collectively(ncid, spec, *var)); /* a record variable: extending it is collective */
cleanup:
  return status;
}

nc_type nc_output_type(const OutputVariable *v, bool double_precision) {
  /* A coordinate (a moving ship's place) in double whatever output.double says: float32 holds a UTM northing to
   * 0.5 m. */
  bool coordinate = v->standard_name && (strcmp(v->standard_name, "projection_x_coordinate") == 0 ||
                                         strcmp(v->standard_name, "projection_y_coordinate") == 0);
  return v->flag_meanings ? NC_BYTE : double_precision || coordinate ? NC_DOUBLE : NC_FLOAT;
}

HclStatus nc_output_put(int ncid, int var, const char *path, nc_type type, const size_t *start, const size_t *count,
                        double *values, size_t n, float *scratch) {
  HclStatus status = HCL_OK;
  int err = NC_NOERR;
  errno = 0;
  if (type == NC_BYTE) {
    signed char *flags = (signed char *)scratch;
    for (size_t p = 0; p < n; p++) {
      flags[p] = (signed char)(isfinite(values[p]) ? floor(values[p] + 1e-9) : 0);
    }
    err = nc_put_vara_schar(ncid, var, start, count, flags);
  } else if (type == NC_FLOAT) {
    for (size_t p = 0; p < n; p++) {
      scratch[p] = isnan(values[p]) ? NC_FILL_FLOAT : (float)values[p];
    }
    err = nc_put_vara_float(ncid, var, start, count, scratch);
  } else {
    for (size_t p = 0; p < n; p++) {
      values[p] = isnan(values[p]) ? NC_FILL_DOUBLE : values[p];
    }
    err = nc_put_vara_double(ncid, var, start, count, values);
  }
  REQUIRE(err == NC_NOERR, HCL_EIO, "cannot write '%s': %s", path, nc_reason(err, errno, path));
cleanup:
  return status;
}

HclStatus nc_output_variable(int ncid, const OutputSpec *spec, const OutputVariable *v, int ndims, const int *dims,
                             int *var) {
  HclStatus status = HCL_OK;
  nc_type type = nc_output_type(v, spec->double_precision);
  TRY_NC(nc_def_var(ncid, v->name, type, ndims, dims, var), spec->path);
  if (v->missing_where_nan && type == NC_FLOAT) {
    float fill = NC_FILL_FLOAT;
    TRY_NC(nc_def_var_fill(ncid, *var, 0, &fill), spec->path);
  } else if (v->missing_where_nan) {
    double fill = NC_FILL_DOUBLE;
    TRY_NC(nc_def_var_fill(ncid, *var, 0, &fill), spec->path);
  }
  TRY_NC(NC_TEXT_ATT(ncid, *var, "long_name", v->long_name), spec->path);
  TRY_NC(NC_TEXT_ATT(ncid, *var, "units", v->units), spec->path);
  if (v->standard_name) {
    TRY_NC(NC_TEXT_ATT(ncid, *var, "standard_name", v->standard_name), spec->path);
  }
  if (v->standard_name && strcmp(v->standard_name, "altitude") == 0) { /* a height: CF 4.3 asks which way is up */
    TRY_NC(NC_TEXT_ATT(ncid, *var, "positive", "up"), spec->path);
  }
  int crs = -1, record = -1;
  bool located = !(ndims == 1 && nc_inq_unlimdim(ncid, &record) == NC_NOERR && dims[0] == record); /* not time only */
  if (located && nc_inq_varid(ncid, "crs", &crs) == NC_NOERR) {
    TRY_NC(NC_TEXT_ATT(ncid, *var, "grid_mapping", "crs"), spec->path);
  }
  TRY(write_collectively(ncid, spec, *var));
  if (v->flag_meanings) { /* CF section 3.5: flag_values, one per word of flag_meanings, counting from 0 */
    signed char values[8];
    int nflags = 0;
    for (const char *c = v->flag_meanings; *c && nflags < 8; nflags++) {
      values[nflags] = (signed char)nflags;
      c += strcspn(c, " ");
      c += strspn(c, " ");
    }
    TRY_NC(nc_put_att_schar(ncid, *var, "flag_values", NC_BYTE, (size_t)nflags, values), spec->path);
    TRY_NC(NC_TEXT_ATT(ncid, *var, "flag_meanings", v->flag_meanings), spec->path);
  }
cleanup:
  return status;
}
/* nc_output_static's variable: its id, defined when the file lacks it. */
static HclStatus static_variable(int ncid, const OutputSpec *spec, const OutputVariable *var, const int *dims,
                                 int ndims, const char *coordinates, int *id) {
  HclStatus status = HCL_OK;
  if (nc_inq_varid(ncid, var->name, id) == NC_NOERR) {
    TRY(write_collectively(ncid, spec, *id)); /* a continued run's file */
    goto cleanup;
  }
  TRY_NC(nc_redef(ncid), spec->path);
  TRY(nc_output_variable(ncid, spec, var, ndims, dims, id));
  TRY_NC(nc_def_var_deflate(ncid, *id, 1, 1, 1), spec->path);
  if (coordinates) {
    TRY_NC(NC_TEXT_ATT(ncid, *id, "coordinates", coordinates), spec->path);
  }
  TRY_NC(nc_enddef(ncid), spec->path);
cleanup:
  return status;
}

HclStatus nc_output_static(int ncid, const OutputSpec *spec, const OutputVariable *var, const char *const *dim_names,
                           int ndims, const char *coordinates, const NcPart *part, double *values, float *scratch) {
  HclStatus status = HCL_OK;
  int id = -1, dims[NC_MAX_VAR_DIMS];
  size_t start[NC_MAX_VAR_DIMS] = {0}, count[NC_MAX_VAR_DIMS], n = 1;
  NcAgree agree = part ? part->agree : NULL;
  ASSERT(ndims > 0 && ndims <= NC_MAX_VAR_DIMS);
  for (int d = 0; d < ndims; d++) {
    TRY_NC(nc_inq_dimid(ncid, dim_names[d], &dims[d]), spec->path);
    TRY_NC(nc_inq_dimlen(ncid, dims[d], &count[d]), spec->path);
    start[d] = part ? part->start[d] : 0;
    count[d] = part ? part->count[d] : count[d];
    n *= count[d];
  }
  TRY(agreed(agree, static_variable(ncid, spec, var, dims, ndims, coordinates, &id)));
  nc_type type = nc_output_type(var, spec->double_precision);
  TRY(agreed(agree, nc_output_put(ncid, id, spec->path, type, start, count, values, n, scratch)));
  TRY(agreed(agree, sync_file(ncid, spec->path)));
cleanup:
  return status;
}
#endif
