/* mapfile.c: the CF netCDF map file (see mapfile.h). */
#include "mapfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ncutil.h"
#include "par.h"

struct MapFile {
  const Decomp *decomp;
  char *path;
  int ncid;
  int time_var;
  int *vars;
  int *types; /* each variable's storage type (nc_output_type) */
  int nvars;
  int frames;
  bool double_precision;
  bool created; /* rank 0 made the file (and removes it if the set-up fails) */
  bool failed;  /* a write failed (a full disk): the file is left as its last sync left it, not closed */
#ifdef HYDROCL_HAVE_NETCDF
  NcIdentity identity; /* rank 0: the file opened */
#endif
};

#ifdef HYDROCL_HAVE_NETCDF
/* Rank 0's part of map_create: the file, its dimensions, variables and attributes. */
static HclStatus define_file(MapFile *m, const OutputSpec *spec, const OutputVariable *vars, int nvars) {
  HclStatus status = HCL_OK;
  const DecompSpec *g = decomp_spec(m->decomp);
  int dim_t, dim_y, dim_x, var_x, var_y;
  TRY(nc_output_create(spec, &m->ncid));
  m->created = true;
  TRY_NC(nc_def_dim(m->ncid, "time", NC_UNLIMITED, &dim_t), m->path);
  TRY_NC(nc_def_dim(m->ncid, "y", (size_t)g->ny, &dim_y), m->path);
  TRY_NC(nc_def_dim(m->ncid, "x", (size_t)g->nx, &dim_x), m->path);
  TRY(nc_output_time(m->ncid, spec, dim_t, &m->time_var));
  TRY(nc_output_axis(m->ncid, m->path, "y", dim_y, spec->points, spec->crs, &var_y));
  TRY(nc_output_axis(m->ncid, m->path, "x", dim_x, spec->points, spec->crs, &var_x));
  if (spec->crs) {
    TRY(nc_output_crs(m->ncid, m->path, spec->crs));
  }
  int dims[3] = {dim_t, dim_y, dim_x};
  /* A frame in chunks of whole rows, up to 2^20 values (4 MiB in float): a whole frame of a large grid would be one
   * chunk beyond HDF5's limit of 4 GiB, and a reader of a small region decompresses only the rows it needs. */
  size_t rows = ((size_t)1 << 20) / (size_t)g->nx;
  size_t chunks[3] = {1, rows < 1 ? 1 : rows > (size_t)g->ny ? (size_t)g->ny : rows, (size_t)g->nx};
  for (int i = 0; i < nvars; i++) {
    TRY(nc_output_variable(m->ncid, spec, &vars[i], 3, dims, &m->vars[i]));
    TRY_NC(nc_def_var_chunking(m->ncid, m->vars[i], NC_CHUNKED, chunks), m->path);
    TRY_NC(nc_def_var_deflate(m->ncid, m->vars[i], 1, 1, 1), m->path);
  }
  TRY(nc_output_globals(m->ncid, spec, NULL));
  TRY_NC(nc_enddef(m->ncid), m->path);
  TRY(nc_output_axis_values(m->ncid, m->path, var_y, spec->y0, spec->dy, g->ny));
  TRY(nc_output_axis_values(m->ncid, m->path, var_x, spec->x0, spec->dx, g->nx));
  TRY_NC(nc_sync(m->ncid), m->path);
cleanup:
  return status;
}

/* Rank 0's part of map_create for a continued run: the existing file when there is one, else a new one. */
static HclStatus open_file(MapFile *m, const OutputSpec *spec, const OutputVariable *vars, int nvars) {
  const DecompSpec *g = decomp_spec(m->decomp);
  static const char *const dims[] = {"y", "x"};
  size_t lengths[] = {(size_t)g->ny, (size_t)g->nx};
  if (!spec->resume || access(spec->path, F_OK) != 0) {
    return define_file(m, spec, vars, nvars);
  }
  return nc_output_reopen(spec, dims, lengths, 2, vars, nvars, &m->ncid, &m->time_var, m->vars, &m->frames);
}

/* Every rank's copy of what map_write needs; allocation can fail on some ranks only. */
static HclStatus create_local(const Decomp *decomp, const OutputSpec *spec, const OutputVariable *vars, int nvars,
                              MapFile **out) {
  HclStatus status = HCL_OK;
  MapFile *m = NULL;
  TRY_ALLOC(m, 1);
  m->decomp = decomp;
  m->ncid = -1;
  m->nvars = nvars;
  m->double_precision = spec->double_precision;
  m->path = strdup(spec->path);
  REQUIRE(m->path != NULL, HCL_ENOMEM, "cannot copy the map file name");
  TRY_ALLOC(m->vars, nvars);
  TRY_ALLOC(m->types, nvars);
  for (int i = 0; i < nvars; i++) {
    m->types[i] = nc_output_type(&vars[i], spec->double_precision);
  }
  *out = m;
  m = NULL;
cleanup:
  map_close(&m);
  return status;
}

/* Rank 0's buffers of one frame: the gathered field and its copy in the storage type (nc_output_put). */
static HclStatus allocate_frame(size_t n, double **global, float **narrow) {
  HclStatus status = HCL_OK;
  if (par_rank() != 0) {
    goto cleanup;
  }
  TRY_ALLOC(*global, n);
  TRY_ALLOC(*narrow, n);
cleanup:
  return status;
}
#endif

HclStatus map_create(const Decomp *decomp, const OutputSpec *spec, const OutputVariable *vars, int nvars,
                     MapFile **out) {
  HclStatus status = HCL_OK;
  MapFile *m = NULL;
  *out = NULL;
#ifndef HYDROCL_HAVE_NETCDF
  (void)decomp;
  (void)vars;
  (void)nvars;
  FAIL(HCL_EUSAGE,
       "this hydrocl was built without netCDF, so it cannot write '%s'; install libnetcdf-dev and "
       "rebuild (meson setup --reconfigure -Dnetcdf=enabled build)",
       spec->path);
#else
  HclStatus local = create_local(decomp, spec, vars, nvars, &m);
  if (local == HCL_OK && par_rank() == 0) {
    local = open_file(m, spec, vars, nvars);
  }
  if (local == HCL_OK && par_rank() == 0) {
    local = nc_take_identity(m->path, &m->identity);
  }
  TRY(par_agree(local));
  TRY(par_broadcast_int(&m->frames));
  *out = m;
  m = NULL;
#endif
cleanup:
  if (m && m->created) {
    unlink(m->path); /* rank 0 created the file, closed below: a partial one would block the next run */
  }
  map_close(&m);
  return status;
}

HclStatus map_write_static(MapFile *m, const OutputVariable *var, Field *f, double scale) {
  HclStatus status = HCL_OK;
  HclStatus local = HCL_OK;
  double *global = NULL;
  float *narrow = NULL;
#ifdef HYDROCL_HAVE_NETCDF
  const DecompSpec *g = decomp_spec(m->decomp);
  size_t n = (size_t)g->nx * g->ny;
  TRY(par_agree(allocate_frame(n, &global, &narrow)));
  ASSERT(field_nz(f) == 1);
  TRY(field_gather(f, global));
  if (par_rank() == 0) {
    for (size_t p = 0; p < n; p++) {
      global[p] *= scale;
    }
    static const char *const dims[] = {"y", "x"};
    local = nc_output_static(m->ncid, m->path, m->double_precision, var, dims, 2, NULL, global, narrow);
  }
  m->failed = m->failed || local != HCL_OK;
  TRY(par_agree(local));
#else
  (void)m;
  (void)var;
  (void)f;
  (void)scale;
  (void)local;
  FAIL(HCL_EINTERNAL, "map_write_static without netCDF");
#endif
cleanup:
  free(global);
  free(narrow);
  return status;
}

HclStatus map_write(MapFile *m, double time, Field *const *fields) {
  HclStatus status = HCL_OK;
  HclStatus local = HCL_OK;
  double *global = NULL;
  float *narrow = NULL;
#ifdef HYDROCL_HAVE_NETCDF
  const DecompSpec *g = decomp_spec(m->decomp);
  size_t n = (size_t)g->nx * g->ny;
  bool root = par_rank() == 0;
  TRY(par_agree(allocate_frame(n, &global, &narrow)));
  if (root) {
    local = nc_check_identity(m->path, &m->identity);
  }
  for (int i = 0; i < m->nvars; i++) {
    ASSERT(field_nz(fields[i]) == 1);
    TRY(field_gather(fields[i], global));
    if (!root || local != HCL_OK) {
      continue;
    }
    size_t start[3] = {(size_t)m->frames, 0, 0}, count[3] = {1, (size_t)g->ny, (size_t)g->nx};
    local = nc_output_put(m->ncid, m->vars[i], m->path, m->types[i], start, count, global, n, narrow);
  }
  if (root && local == HCL_OK) {
    local = nc_finish_frame(m->ncid, m->path, m->time_var, (size_t)m->frames, time);
  }
  m->failed = local != HCL_OK;
  TRY(par_agree(local));
  m->frames++;
#else
  (void)m;
  (void)time;
  (void)fields;
  (void)local;
  FAIL(HCL_EINTERNAL, "map_write without netCDF");
#endif
cleanup:
  free(global);
  free(narrow);
  return status;
}

int map_frames(const MapFile *m) {
  return m->frames;
}

void map_close(MapFile **m) {
  if (!m || !*m) {
    return;
  }
#ifdef HYDROCL_HAVE_NETCDF
  /* After a failed write HDF5 cannot close the file, and netCDF-C 4.9's nc_abort then crashes listing its open
   * objects: the file stays as its last sync left it (every finished frame), the descriptor goes at exit, and
   * HDF5's own clean-up at exit is off (output_library_init). */
  if ((*m)->ncid >= 0 && !(*m)->failed) {
    nc_close((*m)->ncid);
  }
#endif
  free((*m)->vars);
  free((*m)->types);
  free((*m)->path);
  free(*m);
  *m = NULL;
}
