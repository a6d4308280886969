/* SPDX-License-Identifier: BSD-3-Clause */
/* mapfile.c: the CF netCDF map file (see mapfile.h). */
#include "mapfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "ncutil.h"
#include "par.h"

enum { TEXTS = 6 }; /* the spec's texts, rank 0's on every rank: path, title, source, history, case, time units */

struct MapFile {
  const Decomp *decomp;
  OutputSpec spec; /* the caller's, with rank 0's texts (a collective file's attributes must agree) */
  char *texts[TEXTS];
  char *path;
  int ncid;
  int time_var;
  int *vars;
  int *types; /* each variable's storage type (nc_output_type) */
  int nvars;
  int frames;
  bool collective; /* every rank writes its own block (parallel netCDF); else rank 0 gathers and writes */
  bool writer;     /* this rank calls netCDF: every rank of a collective file, else rank 0 */
  bool created;    /* the writers made the file (rank 0 removes it if the set-up fails) */
  bool failed;     /* a write failed (a full disk): the file is left as its last sync left it, not closed */
#ifdef HYDROCL_HAVE_NETCDF
  NcIdentity identity; /* the writers: the file opened */
#endif
};

#ifdef HYDROCL_HAVE_NETCDF
/* The writers' part of hcl_map_create: the file, its dimensions, variables and attributes. */
static HclStatus define_file(MapFile *m, const OutputVariable *vars, int nvars) {
  HclStatus status = HCL_OK;
  const OutputSpec *spec = &m->spec;
  const DecompSpec *g = hcl_decomp_spec(m->decomp);
  int dim_t;
  NcGrid grid;
  TRY(nc_output_create(spec, &m->ncid));
  m->created = true;
  TRY_NC(nc_def_dim(m->ncid, "time", NC_UNLIMITED, &dim_t), m->path);
  TRY(nc_output_time(m->ncid, spec, dim_t, &m->time_var));
  TRY(nc_output_define_grid(m->ncid, spec, g->ny, g->nx, &grid));
  if (spec->frame.crs) {
    TRY(nc_output_crs(m->ncid, m->path, spec->frame.crs));
  }
  int dims[3] = {dim_t, grid.dims[0], grid.dims[1]};
  /* A frame in chunks of whole rows, up to 2^20 values (4 MiB in float): a whole frame of a large grid would be one
   * chunk beyond HDF5's limit of 4 GiB, and a reader of a small region decompresses only the rows it needs. */
  size_t rows = ((size_t)1 << 20) / (size_t)g->nx;
  size_t chunks[3] = {1, rows < 1 ? 1 : rows > (size_t)g->ny ? (size_t)g->ny : rows, (size_t)g->nx};
  for (int i = 0; i < nvars; i++) {
    TRY(nc_output_variable(m->ncid, spec, &vars[i], 3, dims, &m->vars[i]));
    TRY_NC(nc_def_var_chunking(m->ncid, m->vars[i], NC_CHUNKED, chunks), m->path);
    TRY_NC(nc_def_var_deflate(m->ncid, m->vars[i], 1, 1, 1), m->path);
    if (spec->frame.map) {
      TRY_NC(NC_TEXT_ATT(m->ncid, m->vars[i], "coordinates", "y x"), m->path);
    }
  }
  TRY(nc_output_globals(m->ncid, spec, NULL));
  TRY_NC(nc_enddef(m->ncid), m->path);
  TRY(nc_output_write_grid(m->ncid, spec, g->ny, g->nx, &grid));
  TRY_NC(nc_sync(m->ncid), m->path);
cleanup:
  return status;
}

/* The writers' part of hcl_map_create for a continued run: the existing file when there is one, else a new one. */
static HclStatus open_file(MapFile *m, const OutputVariable *vars, int nvars) {
  const DecompSpec *g = hcl_decomp_spec(m->decomp);
  const char *dims[2];
  size_t lengths[] = {(size_t)g->ny, (size_t)g->nx};
  nc_output_grid_dims(&m->spec, dims);
  if (!m->spec.resume || access(m->path, F_OK) != 0) {
    return define_file(m, vars, nvars);
  }
  return nc_output_reopen(&m->spec, dims, lengths, 2, vars, nvars, &m->ncid, &m->time_var, m->vars, &m->frames);
}

/* m->spec: spec with rank 0's texts (the command line's time and the device name may differ between ranks). */
static HclStatus agree_on_spec(MapFile *m, const OutputSpec *spec) {
  HclStatus status = HCL_OK;
  const char *mine[TEXTS] = {spec->path,    spec->frame.title, spec->frame.source,
                             spec->history, spec->case_yaml,   spec->frame.time_units};
  for (int t = 0; t < TEXTS; t++) {
    TRY(hcl_par_broadcast_text(mine[t], &m->texts[t]));
  }
  m->spec = *spec;
  m->spec.path = m->path = m->texts[0];
  m->spec.frame.title = m->texts[1];
  m->spec.frame.source = m->texts[2];
  m->spec.history = m->texts[3];
  m->spec.case_yaml = m->texts[4];
  m->spec.frame.time_units = m->texts[5];
  m->collective = spec->parallel_write && nc_output_can_write_collectively() && hcl_par_size() > 1;
  m->spec.collective = m->collective ? hcl_decomp_comm(m->decomp) : NULL;
  m->writer = m->collective || hcl_par_rank() == 0;
cleanup:
  return status;
}

/* Every rank's copy of what hcl_map_write needs; allocation can fail on some ranks only. */
static HclStatus create_local(MapFile *m, const OutputVariable *vars, int nvars) {
  HclStatus status = HCL_OK;
  m->ncid = -1;
  m->nvars = nvars;
  TRY_ALLOC(m->vars, nvars);
  TRY_ALLOC(m->types, nvars);
  for (int i = 0; i < nvars; i++) {
    m->types[i] = nc_output_type(&vars[i], m->spec.double_precision);
  }
cleanup:
  return status;
}

/* The buffers of one frame: the values this rank writes (the whole grid on rank 0 when it gathers, the rank's
 * block in a collective file, none elsewhere) and their copy in the storage type (nc_output_put). */
static HclStatus allocate_frame(const MapFile *m, double **values, float **narrow, size_t *n) {
  HclStatus status = HCL_OK;
  const DecompSpec *g = hcl_decomp_spec(m->decomp);
  const DecompLocal *l = hcl_decomp_local(m->decomp);
  *n = m->collective ? (size_t)l->nx * l->ny : (size_t)g->nx * g->ny;
  if (!m->writer) {
    goto cleanup;
  }
  TRY_ALLOC(*values, *n);
  TRY_ALLOC(*narrow, *n);
cleanup:
  return status;
}

/* Field f's values that this rank writes: its block (collective) or, gathered, the whole grid on rank 0. */
static HclStatus values_to_write(const MapFile *m, Field *f, double *values) {
  HclStatus status = HCL_OK;
  ASSERT(hcl_field_nz(f) == 1);
  TRY(m->collective ? hcl_field_read_owned(f, values) : hcl_field_gather(f, values));
cleanup:
  return status;
}

/* Every rank's verdict on a write: a file that any writer failed on (a full disk) is left as its last sync left it,
 * by every rank (hcl_map_close). */
static HclStatus conclude(MapFile *m, HclStatus local) {
  HclStatus all = hcl_par_agree(local);
  m->failed = m->failed || all != HCL_OK;
  return all;
}

/* A frame's bytes before deflate: what a collective write must find room for. A disk that fills within a collective
 * write fails it on some ranks only, and HDF5 then leaves the others waiting in MPI-IO; checked before each frame, a
 * disk filling up stops the run between frames instead (issue 26, 8). */
static double frame_bytes(const MapFile *m) {
  const DecompSpec *g = hcl_decomp_spec(m->decomp);
  double per_point = 0;
  for (int i = 0; i < m->nvars; i++) {
    per_point += m->types[i] == NC_BYTE ? 1 : m->types[i] == NC_DOUBLE ? 8 : 4;
  }
  return per_point * (double)g->nx * g->ny;
}

/* How the steps of a write are agreed: over the ranks of a collective file, not at all when rank 0 writes alone. */
static NcAgree agreement(const MapFile *m) {
  return m->collective ? hcl_par_agree : NULL;
}

/* Where this rank's values go: the frame, then the start and count of its block or of the whole grid. */
static void block_of(const MapFile *m, size_t start[3], size_t count[3]) {
  const DecompSpec *g = hcl_decomp_spec(m->decomp);
  const DecompLocal *l = hcl_decomp_local(m->decomp);
  start[0] = (size_t)m->frames;
  count[0] = 1;
  start[1] = m->collective ? (size_t)l->y0 : 0;
  start[2] = m->collective ? (size_t)l->x0 : 0;
  count[1] = m->collective ? (size_t)l->ny : (size_t)g->ny;
  count[2] = m->collective ? (size_t)l->nx : (size_t)g->nx;
}
#endif

HclStatus hcl_map_create(const Decomp *decomp, const OutputSpec *spec, const OutputVariable *vars, int nvars,
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
  m = calloc(1, sizeof *m);
  TRY(hcl_par_agree(m ? HCL_OK : hcl_status_set(HCL_ENOMEM, __FILE__, __LINE__, "cannot hold the map file's state")));
  m->decomp = decomp;
  TRY(agree_on_spec(m, spec));
  HclStatus local = create_local(m, vars, nvars);
  if (m->collective) { /* every rank takes part in every call on the file from here on */
    TRY(hcl_par_agree(local));
  }
  if (local == HCL_OK && m->writer) {
    local = open_file(m, vars, nvars);
  }
  if (local == HCL_OK && m->writer) {
    local = nc_take_identity(m->path, &m->identity);
  }
  TRY(hcl_par_agree(local));
  TRY(hcl_par_broadcast_int(&m->frames));
  hcl_log_verbose("%s: %s", m->path,
                  m->collective ? "every rank writes its own block (parallel netCDF)" : "rank 0 gathers and writes");
  *out = m;
  m = NULL;
#endif
cleanup:
  if (m && m->created && hcl_par_rank() == 0) {
    unlink(m->path); /* the file made here, closed below: a partial one would block the next run */
  }
  hcl_map_close(&m);
  return status;
}

HclStatus hcl_map_write_static(MapFile *m, const OutputVariable *var, Field *f, double scale) {
  HclStatus status = HCL_OK;
  HclStatus local = HCL_OK;
  double *values = NULL;
  float *narrow = NULL;
#ifdef HYDROCL_HAVE_NETCDF
  const char *dims[2];
  size_t n = 0, start[3], count[3];
  nc_output_grid_dims(&m->spec, dims);
  TRY(hcl_par_agree(allocate_frame(m, &values, &narrow, &n)));
  TRY(values_to_write(m, f, values));
  block_of(m, start, count);
  NcPart part = {start + 1, count + 1, agreement(m)};
  if (m->writer) {
    for (size_t p = 0; p < n; p++) {
      values[p] *= scale;
    }
    local = nc_output_static(m->ncid, &m->spec, var, dims, 2, m->spec.frame.map ? "y x" : NULL, &part, values, narrow);
  }
  TRY(conclude(m, local));
#else
  (void)m;
  (void)var;
  (void)f;
  (void)scale;
  (void)local;
  FAIL(HCL_EINTERNAL, "hcl_map_write_static without netCDF");
#endif
cleanup:
  free(values);
  free(narrow);
  return status;
}

HclStatus hcl_map_write(MapFile *m, double time, Field *const *fields) {
  HclStatus status = HCL_OK;
  HclStatus local = HCL_OK;
  double *values = NULL;
  float *narrow = NULL;
#ifdef HYDROCL_HAVE_NETCDF
  size_t n = 0, start[3], count[3];
  TRY(hcl_par_agree(allocate_frame(m, &values, &narrow, &n)));
  if (m->writer) {
    local = nc_check_identity(m->path, &m->identity);
  }
  if (m->collective && hcl_par_rank() == 0 && local == HCL_OK) {
    local = nc_check_room(m->path, frame_bytes(m));
  }
  if (m->collective) { /* a rank that stopped would leave the others waiting in a collective write */
    TRY(conclude(m, local));
  }
  block_of(m, start, count);
  for (int i = 0; i < m->nvars; i++) {
    TRY(values_to_write(m, fields[i], values));
    if (m->writer && local == HCL_OK) {
      local = nc_output_put(m->ncid, m->vars[i], m->path, m->types[i], start, count, values, n, narrow);
    }
    if (m->collective) {
      TRY(conclude(m, local));
    }
  }
  if (m->writer && local == HCL_OK) {
    local = nc_finish_frame(m->ncid, m->path, m->time_var, (size_t)m->frames, time, agreement(m));
  }
  TRY(conclude(m, local));
  m->frames++;
#else
  (void)m;
  (void)time;
  (void)fields;
  (void)local;
  FAIL(HCL_EINTERNAL, "hcl_map_write without netCDF");
#endif
cleanup:
  free(values);
  free(narrow);
  return status;
}

HclStatus hcl_map_sync(MapFile *m) {
#ifdef HYDROCL_HAVE_NETCDF
  HclStatus local = HCL_OK;
  if (m->writer && !m->failed) { /* collective in a collective file */
    errno = 0;
    int err = nc_sync(m->ncid);
    if (err != NC_NOERR) {
      local =
          hcl_status_set(HCL_EIO, __FILE__, __LINE__, "cannot flush '%s': %s", m->path, nc_reason(err, errno, m->path));
    }
  }
  return conclude(m, local);
#else
  (void)m;
  return HCL_OK;
#endif
}

int hcl_map_frames(const MapFile *m) {
  return m->frames;
}

bool hcl_map_collective(const MapFile *m) {
  return m->collective;
}

bool hcl_map_can_write_collectively(void) {
#ifdef HYDROCL_HAVE_NETCDF
  return nc_output_can_write_collectively();
#else
  return false;
#endif
}

void hcl_map_close(MapFile **m) {
  if (!m || !*m) {
    return;
  }
#ifdef HYDROCL_HAVE_NETCDF
  /* After a failed write HDF5 cannot close the file, and netCDF-C 4.9's nc_abort then crashes listing its open
   * objects: the file stays as its last sync left it (every finished frame), the descriptor goes at exit, and
   * HDF5's own clean-up at exit is off (hcl_output_library_init). A collective file is closed by every rank. */
  if ((*m)->ncid >= 0 && !(*m)->failed) {
    nc_close((*m)->ncid);
  }
#endif
  for (int t = 0; t < TEXTS; t++) {
    free((*m)->texts[t]);
  }
  free((*m)->vars);
  free((*m)->types);
  free(*m);
  *m = NULL;
}
