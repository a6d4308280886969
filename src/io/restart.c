/* SPDX-License-Identifier: BSD-3-Clause */
/* restart.c: rank- and device-independent restart files (see restart.h). */
#include "restart.h"

#include <math.h>
#include <stdbool.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checkpoint.h"
#include "log.h"
#include "ncutil.h"
#include "par.h"

#ifdef HYDROCL_HAVE_NETCDF
/* A restart found in a folder: its step and its name as it is there ("restart-0020.nc" is step 20). */
typedef struct {
  int64_t step;
  char name[256];
} RestartEntry;

/* The step of a file named PREFIX-DIGITS.nc, or -1 when the name is not strictly that (a sign, a space or no digit
 * is some other file, never a restart to read or remove). */
static int64_t step_of(const char *name, const char *prefix) {
  size_t n = strlen(prefix);
  if (strncmp(name, prefix, n) != 0 || name[n] != '-') {
    return -1;
  }
  const char *digits = name + n + 1, *end = digits;
  int64_t step = 0;
  for (; *end >= '0' && *end <= '9'; end++) {
    if (step > (INT64_MAX - (*end - '0')) / 10) {
      return -1;
    }
    step = 10 * step + (*end - '0');
  }
  return end != digits && strcmp(end, ".nc") == 0 ? step : -1;
}

/* Newest first; of one step (restart-20.nc and restart-0020.nc), by name so the order never depends on readdir. */
static bool comes_before(const RestartEntry *a, const RestartEntry *b) {
  return a->step != b->step ? a->step > b->step : strcmp(a->name, b->name) < 0;
}

/* The restarts of prefix in folder, newest first, with their names as found. Caller frees *entries. */
static HclStatus list_restarts(const char *folder, const char *prefix, RestartEntry **entries, int *count) {
  HclStatus status = HCL_OK;
  DIR *dir = opendir(folder);
  RestartEntry *list = NULL;
  int n = 0, capacity = 0;
  REQUIRE(dir != NULL, HCL_ENOINPUT, "cannot read folder '%s': %s", folder, strerror(errno));
  for (struct dirent *entry = readdir(dir); entry; entry = readdir(dir)) {
    RestartEntry found = {.step = step_of(entry->d_name, prefix)};
    if (found.step < 0 || strlen(entry->d_name) >= sizeof found.name) {
      continue;
    }
    snprintf(found.name, sizeof found.name, "%s", entry->d_name);
    if (n == capacity) {
      capacity = capacity ? 2 * capacity : 8;
      RestartEntry *bigger = realloc(list, (size_t)capacity * sizeof *list);
      REQUIRE(bigger != NULL, HCL_ENOMEM, "cannot list the restarts in '%s'", folder);
      list = bigger;
    }
    int i = n++;
    while (i > 0 && comes_before(&found, &list[i - 1])) { /* insertion keeps newest first */
      list[i] = list[i - 1];
      i--;
    }
    list[i] = found;
  }
  *entries = list;
  *count = n;
  list = NULL;
cleanup:
  if (dir) {
    closedir(dir);
  }
  free(list);
  return status;
}

/* Chunks of whole rows, about 1 MiB each (deflate compresses a chunk at a time; HDF5 refuses chunks of 4 GiB). */
static HclStatus chunk_rows(int ncid, const char *path, int var, int ndims, int ny, int nx) {
  HclStatus status = HCL_OK;
  size_t rows = ((size_t)1 << 17) / (size_t)nx; /* 2^17 doubles */
  size_t chunks[3] = {1, rows < 1 ? 1 : rows > (size_t)ny ? (size_t)ny : rows, (size_t)nx};
  TRY_NC(nc_def_var_chunking(ncid, var, NC_CHUNKED, ndims == 3 ? chunks : chunks + 1), path);
  TRY_NC(nc_def_var_deflate(ncid, var, 1, 1, 1), path);
cleanup:
  return status;
}

/* A field's variable: double on (nz_NAME,) y, x, or bytes for a flag, with what it is (what). */
static HclStatus define_field(int ncid, const char *path, Field *f, const OutputVariable *what, const int yx[2],
                              int *var) {
  HclStatus status = HCL_OK;
  const DecompSpec *g = hcl_decomp_spec(hcl_field_decomp(f));
  OutputSpec storage = {.path = path, .double_precision = true};
  int dims[3], ndims = 0;
  ASSERT(strcmp(what->name, hcl_field_name(f)) == 0);
  if (hcl_field_nz(f) > 1) {
    char name[96];
    snprintf(name, sizeof name, "nz_%s", hcl_field_name(f));
    TRY_NC(nc_def_dim(ncid, name, (size_t)hcl_field_nz(f), &dims[ndims++]), path);
  }
  dims[ndims++] = yx[0];
  dims[ndims++] = yx[1];
  OutputVariable unmasked = *what; /* a restart holds the state as the model does: nothing is missing */
  unmasked.missing_where_nan = false;
  TRY(nc_output_variable(ncid, &storage, &unmasked, ndims, dims, var));
  TRY(chunk_rows(ncid, path, *var, ndims, g->ny, g->nx));
cleanup:
  return status;
}

/* A scalar double with its long_name and units (the time's from spec). */
static HclStatus define_scalar(int ncid, const char *path, const RestartSpec *spec, const RestartScalar *scalar,
                               int *var) {
  HclStatus status = HCL_OK;
  bool is_time = strcmp(scalar->name, "time") == 0;
  TRY_NC(nc_def_var(ncid, scalar->name, NC_DOUBLE, 0, NULL, var), path);
  TRY_NC(NC_TEXT_ATT(ncid, *var, "long_name", scalar->long_name ? scalar->long_name : scalar->name), path);
  TRY_NC(NC_TEXT_ATT(ncid, *var, "units",
                     is_time         ? spec->frame.time_units
                     : scalar->units ? scalar->units
                                     : "1"),
         path);
  if (is_time) {
    TRY_NC(NC_TEXT_ATT(ncid, *var, "standard_name", "time"), path);
    TRY_NC(NC_TEXT_ATT(ncid, *var, "calendar", "standard"), path);
  }
cleanup:
  return status;
}

/* 64-bit FNV-1a over values[0..n) rounded to float: the same bed gives the same text in every precision (a single
 * precision run holds its bed rounded so) on any machine of one byte order. */
static void bed_checksum(const double *values, size_t n, char text[17]) {
  uint64_t hash = 14695981039346656037ULL;
  for (size_t p = 0; p < n; p++) {
    float value = (float)values[p];
    unsigned char bytes[sizeof value];
    memcpy(bytes, &value, sizeof value);
    for (size_t b = 0; b < sizeof value; b++) {
      hash = (hash ^ bytes[b]) * 1099511628211ULL;
    }
  }
  snprintf(text, 17, "%016" PRIx64, hash);
}

/* spec->bed's checksum on rank 0 ("" elsewhere and without a bed). Collective. */
static HclStatus checksum_bed(const RestartSpec *spec, char text[17]) {
  HclStatus status = HCL_OK;
  double *bed = NULL;
  text[0] = '\0';
  if (!spec->bed) {
    goto cleanup;
  }
  const DecompSpec *g = hcl_decomp_spec(hcl_field_decomp(spec->bed));
  size_t n = (size_t)g->nx * g->ny;
  HclStatus local = HCL_OK;
  if (hcl_par_rank() == 0) {
    bed = malloc(n * sizeof *bed);
    local = bed ? HCL_OK : hcl_status_set(HCL_ENOMEM, __FILE__, __LINE__, "cannot hold the bed to check the restart");
  }
  TRY(hcl_par_agree(local));
  TRY(hcl_field_gather(spec->bed, bed));
  if (hcl_par_rank() == 0) {
    bed_checksum(bed, n, text);
  }
cleanup:
  free(bed);
  return status;
}

static HclStatus define_globals(int ncid, const char *path, const RestartSpec *spec, const char *checksum) {
  HclStatus status = HCL_OK;
  char title[512];
  snprintf(title, sizeof title, "hydrocl restart: %s", spec->frame.title);
  TRY_NC(NC_TEXT_ATT(ncid, NC_GLOBAL, "Conventions", "CF-1.8"), path);
  TRY_NC(NC_TEXT_ATT(ncid, NC_GLOBAL, "title", title), path);
  TRY_NC(NC_TEXT_ATT(ncid, NC_GLOBAL, "source", spec->frame.source), path);
  if (spec->history) {
    TRY_NC(NC_TEXT_ATT(ncid, NC_GLOBAL, "history", spec->history), path);
  }
  if (spec->model) {
    TRY_NC(NC_TEXT_ATT(ncid, NC_GLOBAL, "hydrocl_model", spec->model), path);
  }
  if (spec->precision) {
    TRY_NC(NC_TEXT_ATT(ncid, NC_GLOBAL, "hydrocl_precision", spec->precision), path);
  }
  if (checksum[0]) {
    TRY_NC(NC_TEXT_ATT(ncid, NC_GLOBAL, "hydrocl_bed_checksum", checksum), path);
  }
cleanup:
  return status;
}

/* Rank 0: the netCDF file of one restart, at path. */
static HclStatus write_file(const char *path, const RestartSpec *spec, const char *checksum, int64_t step,
                            Field *const *fields, int nfields, double *const *globals, const RestartScalar *scalars,
                            int nscalars) {
  HclStatus status = HCL_OK;
  int ncid = -1, step_var;
  NcGrid grid;
  OutputSpec where = {.path = path, .frame = spec->frame}; /* the grid's coordinates, as the output files have them */
  const DecompSpec *g = hcl_decomp_spec(hcl_field_decomp(fields[0]));
  int *vars = NULL;
  float *scratch = NULL;
  size_t largest = 0;
  TRY_ALLOC(vars, nfields + nscalars);
  errno = 0;
  int err = nc_create(path, NC_NETCDF4 | NC_CLOBBER, &ncid);
  REQUIRE(err == NC_NOERR, HCL_ECANTCREAT, "cannot create restart '%s': %s", path, nc_reason(err, errno, path));
  TRY(nc_output_define_grid(ncid, &where, g->ny, g->nx, &grid));
  if (spec->frame.crs) {
    TRY(nc_output_crs(ncid, path, spec->frame.crs));
  }
  for (int i = 0; i < nfields; i++) {
    TRY(define_field(ncid, path, fields[i], &spec->fields[i], grid.dims, &vars[i]));
    size_t n = (size_t)hcl_field_nz(fields[i]) * g->ny * g->nx;
    largest = n > largest ? n : largest;
  }
  for (int i = 0; i < nscalars; i++) {
    TRY(define_scalar(ncid, path, spec, &scalars[i], &vars[nfields + i]));
    if (strcmp(scalars[i].name, "time") == 0) { /* the instant the fields hold: their scalar coordinate */
      for (int f = 0; f < nfields; f++) {
        TRY_NC(NC_TEXT_ATT(ncid, vars[f], "coordinates", spec->frame.map ? "time y x" : "time"), path);
      }
    }
  }
  RestartScalar step_scalar = {"step", (double)step, "number of time steps taken", "1"};
  TRY(define_scalar(ncid, path, spec, &step_scalar, &step_var));
  TRY(define_globals(ncid, path, spec, checksum));
  TRY_NC(nc_enddef(ncid), path);
  TRY(nc_output_write_grid(ncid, &where, g->ny, g->nx, &grid));
  TRY_ALLOC(scratch, largest);
  for (int i = 0; i < nfields; i++) {
    size_t start[3] = {0}, count[3] = {(size_t)hcl_field_nz(fields[i]), (size_t)g->ny, (size_t)g->nx};
    bool planes = hcl_field_nz(fields[i]) > 1;
    nc_type type = nc_output_type(&spec->fields[i], true);
    TRY(nc_output_put(ncid, vars[i], path, type, start, planes ? count : count + 1, globals[i],
                      count[0] * count[1] * count[2], scratch));
  }
  for (int i = 0; i < nscalars; i++) {
    TRY_NC(nc_put_var_double(ncid, vars[nfields + i], &scalars[i].value), path);
  }
  TRY_NC(nc_put_var_double(ncid, step_var, &step_scalar.value), path);
cleanup:
  if (ncid >= 0) {
    errno = 0;
    int closed = nc_close(ncid);
    if (status == HCL_OK && closed != NC_NOERR) {
      status = hcl_status_set(HCL_EIO, __FILE__, __LINE__, "cannot finish restart '%s': %s", path,
                              nc_reason(closed, errno, path));
    }
  }
  free(vars);
  free(scratch);
  return status;
}

/* Flushes path (a file, or a folder's entries) to the disk: the data of a restart must be there before its rename
 * is, or a crash of the machine could leave the new name on an empty file; older restarts go only after that. */
static HclStatus flush_to_disk(const char *path) {
  HclStatus status = HCL_OK;
  int fd = open(path, O_RDONLY);
  REQUIRE(fd >= 0, HCL_EIO, "cannot open '%s' to flush it: %s", path, strerror(errno));
  int flushed = fsync(fd);
  int error = errno;
  close(fd);
  REQUIRE(flushed == 0 || error == EINVAL, HCL_EIO, "cannot flush '%s' to the disk: %s", path, strerror(error));
cleanup:
  return status;
}

/* Rank 0: write to a hidden temporary name, flush it, take the output files' checkpoints, rename, flush the folder,
 * then remove all but the newest spec->keep of the steps up to this one and the checkpoints of other steps. */
static HclStatus write_and_rotate(const RestartSpec *spec, const char *checksum, int64_t step, Field *const *fields,
                                  int nfields, double *const *globals, const RestartScalar *scalars, int nscalars,
                                  const char *path) {
  HclStatus status = HCL_OK;
  RestartEntry *restarts = NULL;
  int count = 0;
  char temporary[4200], old[4200];
  snprintf(temporary, sizeof temporary, "%s/.%s-%" PRId64 ".nc.tmp", spec->folder, spec->prefix, step);
  status = write_file(temporary, spec, checksum, step, fields, nfields, globals, scalars, nscalars);
  if (status == HCL_OK) {
    status = flush_to_disk(temporary);
  }
  for (int i = 0; status == HCL_OK && i < spec->ncheckpoints; i++) {
    status = hcl_checkpoint_take(spec->checkpoints[i], step);
  }
  if (status != HCL_OK) {
    unlink(temporary);
    goto cleanup;
  }
  REQUIRE(rename(temporary, path) == 0, HCL_EIO, "cannot rename '%s' to '%s': %s", temporary, path, strerror(errno));
  TRY(flush_to_disk(spec->folder)); /* EINVAL: a file system that cannot flush a folder has nothing to flush */
  for (int i = 0; i < spec->ncheckpoints; i++) {
    TRY(hcl_checkpoint_discard(spec->checkpoints[i], step));
  }
  TRY(list_restarts(spec->folder, spec->prefix, &restarts, &count));
  for (int i = 0, kept = 0; i < count; i++) {
    /* Later steps are left from an earlier, longer run: not this run's to rotate. Of the rest this step is the
     * newest, so it is always kept. */
    if (restarts[i].step > step || kept++ < spec->keep) {
      continue;
    }
    snprintf(old, sizeof old, "%s/%s", spec->folder, restarts[i].name);
    REQUIRE(unlink(old) == 0, HCL_EIO, "cannot remove old restart '%s': %s", old, strerror(errno));
  }
cleanup:
  free(restarts);
  return status;
}

/* One global array per field on rank 0; NULL rows elsewhere. */
static HclStatus allocate_globals(Field *const *fields, int nfields, double ***globals) {
  HclStatus status = HCL_OK;
  const DecompSpec *g = hcl_decomp_spec(hcl_field_decomp(fields[0]));
  TRY_ALLOC(*globals, nfields);
  for (int i = 0; i < nfields && hcl_par_rank() == 0; i++) {
    TRY_ALLOC((*globals)[i], (size_t)hcl_field_nz(fields[i]) * g->ny * g->nx);
  }
cleanup:
  return status;
}
#endif

HclStatus hcl_restart_write(const RestartSpec *spec, int64_t step, Field *const *fields, int nfields,
                            const RestartScalar *scalars, int nscalars, char *path_out, size_t path_size) {
  HclStatus status = HCL_OK;
  double **globals = NULL;
  char path[4200];
  snprintf(path, sizeof path, "%s/%s-%" PRId64 ".nc", spec->folder, spec->prefix, step);
#ifndef HYDROCL_HAVE_NETCDF
  (void)fields;
  (void)nfields;
  (void)scalars;
  (void)nscalars;
  (void)path_out;
  (void)path_size;
  FAIL(HCL_EUSAGE,
       "this hydrocl was built without netCDF, so it cannot write restart '%s'; install libnetcdf-dev "
       "and rebuild (meson setup --reconfigure -Dnetcdf=enabled build)",
       path);
#else
  HclStatus local = HCL_OK;
  bool root = hcl_par_rank() == 0;
  char checksum[17];
  ASSERT(nfields > 0 && spec->keep >= 1);
  TRY(checksum_bed(spec, checksum));
  /* Rank 0 may fail to allocate the global arrays: agree before the gathers. */
  TRY(hcl_par_agree(allocate_globals(fields, nfields, &globals)));
  for (int i = 0; i < nfields; i++) {
    TRY(hcl_field_gather(fields[i], globals[i]));
  }
  if (root) {
    local = write_and_rotate(spec, checksum, step, fields, nfields, globals, scalars, nscalars, path);
  }
  TRY(hcl_par_agree(local));
  if (path_out) {
    snprintf(path_out, path_size, "%s", path);
  }
#endif
cleanup:
  for (int i = 0; globals && i < nfields; i++) {
    free(globals[i]);
  }
  free(globals);
  return status;
}

HclStatus hcl_restart_latest(const char *folder, const char *prefix, char *path, size_t path_size) {
  HclStatus status = HCL_OK;
#ifdef HYDROCL_HAVE_NETCDF
  RestartEntry *restarts = NULL;
  int count = 0;
  TRY(list_restarts(folder, prefix, &restarts, &count));
  REQUIRE(count > 0, HCL_ENOINPUT, "no restart %s-STEP.nc in '%s' to continue from", prefix, folder);
  snprintf(path, path_size, "%s/%s", folder, restarts[0].name);
cleanup:
  free(restarts);
#else
  (void)path;
  (void)path_size;
  FAIL(HCL_EUSAGE, "this hydrocl was built without netCDF, so it cannot read restarts in '%s' (%s-STEP.nc)", folder,
       prefix);
cleanup:
#endif
  return status;
}

#ifdef HYDROCL_HAVE_NETCDF
/* Rank 0's part of hcl_restart_discard_after. */
static HclStatus discard_after(const char *folder, const char *prefix, int64_t step) {
  HclStatus status = HCL_OK;
  RestartEntry *restarts = NULL;
  int count = 0;
  char path[4200];
  TRY(list_restarts(folder, prefix, &restarts, &count));
  for (int i = 0; i < count && restarts[i].step > step; i++) {
    snprintf(path, sizeof path, "%s/%s", folder, restarts[i].name);
    REQUIRE(unlink(path) == 0, HCL_EIO, "cannot remove restart '%s': %s", path, strerror(errno));
  }
cleanup:
  free(restarts);
  return status;
}
#endif

HclStatus hcl_restart_discard_after(const char *folder, const char *prefix, int64_t step) {
  HclStatus local = HCL_OK;
#ifdef HYDROCL_HAVE_NETCDF
  if (hcl_par_rank() == 0) {
    local = discard_after(folder, prefix, step);
  }
#else
  (void)folder;
  (void)prefix;
  (void)step;
#endif
  return hcl_par_agree(local);
}

HclStatus hcl_restart_count(const char *folder, const char *prefix, int *count) {
  HclStatus status = HCL_OK;
  *count = 0;
#ifdef HYDROCL_HAVE_NETCDF
  RestartEntry *restarts = NULL;
  if (access(folder, F_OK) == 0) {
    TRY(list_restarts(folder, prefix, &restarts, count));
  }
cleanup:
  free(restarts);
#else
  (void)folder;
  (void)prefix;
#endif
  return status;
}

#ifdef HYDROCL_HAVE_NETCDF
/* Every rank: its own block of each field and the scalars. */
static HclStatus read_file(const char *path, Field *const *fields, int nfields, RestartScalar *scalars, int nscalars) {
  HclStatus status = HCL_OK;
  int ncid = -1, var = -1, dim = -1;
  size_t length = 0;
  double *block = NULL;
  int err = nc_open(path, NC_NOWRITE, &ncid);
  REQUIRE(err == NC_NOERR, err == ENOENT ? HCL_ENOINPUT : HCL_EDATA, "cannot open restart '%s': %s", path,
          nc_strerror(err));
  const DecompSpec *g = hcl_decomp_spec(hcl_field_decomp(fields[0]));
  const char *axes[2] = {"y", "x"}, *curvilinear_axes[2] = {"gamma", "xi"}; /* nc_output_define_grid */
  int want[2] = {g->ny, g->nx};
  for (int a = 0; a < 2; a++) {
    bool found =
        nc_inq_dimid(ncid, axes[a], &dim) == NC_NOERR || nc_inq_dimid(ncid, curvilinear_axes[a], &dim) == NC_NOERR;
    REQUIRE(found && nc_inq_dimlen(ncid, dim, &length) == NC_NOERR && length == (size_t)want[a], HCL_EDATA,
            "restart '%s' has %zu points in %s, the case has %d; restart from a run of the same grid", path, length,
            axes[a], want[a]);
  }
  for (int i = 0; i < nfields; i++) {
    Field *f = fields[i];
    const DecompLocal *l = hcl_decomp_local(hcl_field_decomp(f));
    int ndims = 0, dims[NC_MAX_VAR_DIMS];
    REQUIRE(nc_inq_varid(ncid, hcl_field_name(f), &var) == NC_NOERR && nc_inq_varndims(ncid, var, &ndims) == NC_NOERR &&
                ndims == (hcl_field_nz(f) > 1 ? 3 : 2),
            HCL_EDATA, "restart '%s' has no field '%s' of %d planes", path, hcl_field_name(f), hcl_field_nz(f));
    length = 1;
    REQUIRE(ndims == 2 || (nc_inq_vardimid(ncid, var, dims) == NC_NOERR &&
                           nc_inq_dimlen(ncid, dims[0], &length) == NC_NOERR && length == (size_t)hcl_field_nz(f)),
            HCL_EDATA,
            "restart '%s' has %zu planes (nz_%s) of field '%s', the case has %d; restart from a run of the "
            "same vertical resolution",
            path, length, hcl_field_name(f), hcl_field_name(f), hcl_field_nz(f));
    size_t start[3] = {0, (size_t)l->y0, (size_t)l->x0},
           count[3] = {(size_t)hcl_field_nz(f), (size_t)l->ny, (size_t)l->nx};
    free(block);
    block = NULL;
    TRY_ALLOC(block, count[0] * count[1] * count[2]);
    TRY_NC(nc_get_vara_double(ncid, var, ndims == 3 ? start : start + 1, ndims == 3 ? count : count + 1, block), path);
    for (size_t p = 0; p < count[0] * count[1] * count[2]; p++) {
      REQUIRE(isfinite(block[p]), HCL_EDATA,
              "restart '%s': field '%s' holds %g (plane %zu, y %zu, x %zu); a state to "
              "continue from is finite",
              path, hcl_field_name(f), block[p], p / (count[1] * count[2]), (size_t)l->y0 + p / count[2] % count[1],
              (size_t)l->x0 + p % count[2]);
    }
    TRY(hcl_field_write_owned(f, block));
  }
  for (int i = 0; i < nscalars; i++) {
    int ndims = -1;
    REQUIRE(nc_inq_varid(ncid, scalars[i].name, &var) == NC_NOERR, HCL_EDATA, "restart '%s' has no value '%s'", path,
            scalars[i].name);
    REQUIRE(nc_inq_varndims(ncid, var, &ndims) == NC_NOERR && ndims == 0, HCL_EDATA,
            "restart '%s' holds '%s' as an array of %d dimensions, not as one value", path, scalars[i].name, ndims);
    TRY_NC(nc_get_var_double(ncid, var, &scalars[i].value), path);
    REQUIRE(isfinite(scalars[i].value), HCL_EDATA, "restart '%s': '%s' is %g", path, scalars[i].name, scalars[i].value);
  }
cleanup:
  if (ncid >= 0) {
    nc_close(ncid);
  }
  free(block);
  return status;
}
#endif

#ifdef HYDROCL_HAVE_NETCDF
/* The global attribute name of ncid as text, "" when it has none. */
static void read_global_text(int ncid, const char *name, char *text, size_t size) {
  size_t length = 0;
  text[0] = '\0';
  if (nc_inq_attlen(ncid, NC_GLOBAL, name, &length) == NC_NOERR && length < size &&
      nc_get_att_text(ncid, NC_GLOBAL, name, text) == NC_NOERR) {
    text[length] = '\0';
  }
}

/* Appends "; " and the formatted text to differences. */
static void add_difference(char *differences, size_t size, const char *format, ...) {
  size_t used = strlen(differences);
  if (used + 3 >= size) {
    return;
  }
  if (used > 0) {
    used += (size_t)snprintf(differences + used, size - used, "; ");
  }
  va_list args;
  va_start(args, format);
  vsnprintf(differences + used, size - used, format, args);
  va_end(args);
}

/* The first grid point where the restart's coordinates differ from spec's (beyond rounding), into differences. */
static HclStatus compare_grid(int ncid, const char *path, const RestartSpec *spec, int nx, int ny, char *differences,
                              size_t size) {
  HclStatus status = HCL_OK;
  int var_x, var_y, ndims = 0;
  size_t n = spec->frame.map ? (size_t)nx * ny : (size_t)(nx > ny ? nx : ny);
  double *x = NULL, *y = NULL;
  if (nc_inq_varid(ncid, "x", &var_x) != NC_NOERR || nc_inq_varid(ncid, "y", &var_y) != NC_NOERR ||
      nc_inq_varndims(ncid, var_x, &ndims) != NC_NOERR || ndims != (spec->frame.map ? 2 : 1)) {
    add_difference(differences, size, "its grid is %s, this case's %s", spec->frame.map ? "Cartesian" : "curvilinear",
                   spec->frame.map ? "curvilinear" : "Cartesian");
    goto cleanup;
  }
  int dims[2];
  size_t nx_file = 0, ny_file = 0;
  TRY_NC(nc_inq_vardimid(ncid, var_x, dims), path); /* x(gamma, xi) on a curvilinear grid, x(x) and y(y) else */
  if (spec->frame.map) {
    TRY_NC(nc_inq_dimlen(ncid, dims[0], &ny_file), path);
    TRY_NC(nc_inq_dimlen(ncid, dims[1], &nx_file), path);
  } else {
    TRY_NC(nc_inq_dimlen(ncid, dims[0], &nx_file), path);
    TRY_NC(nc_inq_vardimid(ncid, var_y, dims), path);
    TRY_NC(nc_inq_dimlen(ncid, dims[0], &ny_file), path);
  }
  if (nx_file != (size_t)nx || ny_file != (size_t)ny) {
    add_difference(differences, size, "its grid has %zu x %zu points, this case's %d x %d (grid.nx, grid.ny)", nx_file,
                   ny_file, nx, ny);
    goto cleanup;
  }
  TRY_ALLOC(x, n);
  TRY_ALLOC(y, n);
  TRY_NC(nc_get_var_double(ncid, var_x, x), path);
  TRY_NC(nc_get_var_double(ncid, var_y, y), path);
  double scale = fabs(spec->frame.dx) + fabs(spec->frame.dy);
  for (size_t p = 0; p < (spec->frame.map ? n : (size_t)nx + ny); p++) {
    long i = spec->frame.map ? (long)(p % (size_t)nx) : p < (size_t)nx ? (long)p : 0;
    long j = spec->frame.map ? (long)(p / (size_t)nx) : p < (size_t)nx ? 0 : (long)(p - (size_t)nx);
    double want_x = spec->frame.x0 + (double)i * spec->frame.dx, want_y = spec->frame.y0 + (double)j * spec->frame.dy;
    double got_x = spec->frame.map ? x[p] : x[i], got_y = spec->frame.map ? y[p] : y[j];
    if (spec->frame.map) {
      spec->frame.map->point(spec->frame.map->ctx, i, j, &want_x, &want_y);
      scale = fabs(want_x) + fabs(want_y) + 1;
    }
    if (fabs(got_x - want_x) > 1e-9 * scale || fabs(got_y - want_y) > 1e-9 * scale) {
      add_difference(differences, size,
                     "its grid point (%ld, %ld) lies at (%.10g, %.10g) m, this case's at (%.10g, %.10g) m (grid.lx, "
                     "grid.ly, grid.x0, grid.y0 or the grid file differ)",
                     i, j, got_x, got_y, want_x, want_y);
      break;
    }
  }
cleanup:
  free(x);
  free(y);
  return status;
}

/* Rank 0's part of hcl_restart_check_case: what differs, in differences; *other_model when the model does. */
static HclStatus compare_case(const char *path, const RestartSpec *spec, const char *checksum, int nx, int ny,
                              char *differences, size_t size, bool *other_model) {
  HclStatus status = HCL_OK;
  int ncid = -1;
  char theirs[256];
  int err = nc_open(path, NC_NOWRITE, &ncid);
  REQUIRE(err == NC_NOERR, err == ENOENT ? HCL_ENOINPUT : HCL_EDATA, "cannot open restart '%s': %s", path,
          nc_strerror(err));
  read_global_text(ncid, "hydrocl_model", theirs, sizeof theirs);
  if (theirs[0] && spec->model && strcmp(theirs, spec->model) != 0) {
    add_difference(differences, size, "it is of the %s model, this case of the %s model", theirs, spec->model);
    *other_model = true;
  }
  read_global_text(ncid, "hydrocl_precision", theirs, sizeof theirs);
  if (theirs[0] && spec->precision && strcmp(theirs, spec->precision) != 0) {
    add_difference(differences, size, "it was computed in %s precision, this run's is %s", theirs, spec->precision);
  }
  read_global_text(ncid, "hydrocl_bed_checksum", theirs, sizeof theirs);
  if (theirs[0] && checksum[0] && strcmp(theirs, checksum) != 0) {
    add_difference(differences, size, "its bed differs from this case's (bed checksum %s, this case's %s)", theirs,
                   checksum);
  }
  if (!*other_model) {
    TRY(compare_grid(ncid, path, spec, nx, ny, differences, size));
  }
cleanup:
  if (ncid >= 0) {
    nc_close(ncid);
  }
  return status;
}
#endif

HclStatus hcl_restart_check_case(const char *path, const RestartSpec *spec, const DecompSpec *grid, bool force) {
  HclStatus status = HCL_OK;
#ifdef HYDROCL_HAVE_NETCDF
  char checksum[17], differences[2048] = "";
  bool other_model = false;
  HclStatus local = HCL_OK;
  TRY(checksum_bed(spec, checksum));
  if (hcl_par_rank() == 0) {
    local = compare_case(path, spec, checksum, grid->nx, grid->ny, differences, sizeof differences, &other_model);
    if (local == HCL_OK && differences[0] && (!force || other_model)) {
      local = hcl_status_set(
          HCL_EDATA, __FILE__, __LINE__, "restart '%s' is of another case: %s. Continue from a restart of this case%s",
          path, differences,
          other_model ? ""
                      : ", or pass --force to start this case from that restart's state (its fields, "
                        "time and step, on this case's grid, bed, model and precision)");
    } else if (local == HCL_OK && differences[0]) {
      hcl_log_warn("restart '%s' is of another case: %s. Continuing anyway (--force): this run keeps that restart's "
                   "fields, time and step, and takes them on this case's grid, bed, model and precision",
                   path, differences);
    }
  }
  TRY(hcl_par_agree(local));
#else
  (void)spec;
  (void)grid;
  (void)force;
  FAIL(HCL_EUSAGE, "this hydrocl was built without netCDF, so it cannot read restart '%s'", path);
#endif
cleanup:
  return status;
}

HclStatus hcl_restart_holds(const char *path, const char *const *names, int count, bool *holds) {
  HclStatus status = HCL_OK;
  int all = 0;
#ifdef HYDROCL_HAVE_NETCDF
  int ncid = -1, var;
  if (hcl_par_rank() == 0 && nc_open(path, NC_NOWRITE, &ncid) == NC_NOERR) {
    all = 1;
    for (int i = 0; i < count && all; i++) {
      all = nc_inq_varid(ncid, names[i], &var) == NC_NOERR;
    }
    nc_close(ncid);
  }
#else
  (void)path;
  (void)names;
  (void)count;
#endif
  TRY(hcl_par_broadcast_int(&all));
cleanup:
  *holds = all != 0;
  return status;
}

HclStatus hcl_restart_read(const char *path, Field *const *fields, int nfields, RestartScalar *scalars, int nscalars) {
  HclStatus status = HCL_OK;
#ifdef HYDROCL_HAVE_NETCDF
  TRY(hcl_par_agree(read_file(path, fields, nfields, scalars, nscalars)));
#else
  (void)fields;
  (void)nfields;
  (void)scalars;
  (void)nscalars;
  FAIL(HCL_EUSAGE, "this hydrocl was built without netCDF, so it cannot read restart '%s'", path);
#endif
cleanup:
  return status;
}
