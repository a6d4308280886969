/* SPDX-License-Identifier: BSD-3-Clause */
/* test_mapfile.c: the CF map file on any number of ranks (meson: 1, 2 and 3), gathered to rank 0 and, where netCDF-C
 * has parallel I/O, written by every rank block by block (the same bits): frames from every rank read back exactly (float32 storage: compared with the value rounded to float), coordinates, CF attributes, chunking
 * and compression as documented, an existing file refused without --overwrite on every rank, and a failed set-up
 * leaving no file behind. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <netcdf.h>
#include <netcdf_meta.h>

#include "mapfile.h"
#include "../support/support.h"
#include "../support/tap.h"

enum { NX = 29, NY = 13, FRAMES = 3 };

/* Whether the netCDF-C this test was built with writes in parallel. */
static bool nc_has_parallel(void) {
  return NC_HAS_PARALLEL4 != 0;
}

static double value(int gx, int gy, int frame, int var) {
  return sin(0.3 * gx) * cos(0.2 * gy) + 0.5 * frame + 10.0 * var;
}

static HclStatus fill(Field *f, int frame, int var) {
  HclStatus status = HCL_OK;
  double *host = NULL;
  const DecompLocal *l = hcl_decomp_local(hcl_field_decomp(f));
  TRY_ALLOC(host, (size_t)hcl_field_nx(f) * hcl_field_ny(f));
  for (int j = 0; j < hcl_field_ny(f); j++) {
    for (int i = 0; i < hcl_field_nx(f); i++) {
      host[(size_t)j * hcl_field_nx(f) + i] = value(l->x0 + i, l->y0 + j, frame, var);
    }
  }
  TRY(hcl_field_write_owned(f, host));
cleanup:
  free(host);
  return status;
}

static bool text_attribute_is(int ncid, int var, const char *name, const char *want) {
  char text[4096] = "";
  size_t length = 0;
  if (nc_inq_attlen(ncid, var, name, &length) != NC_NOERR || length >= sizeof text ||
      nc_get_att_text(ncid, var, name, text) != NC_NOERR) {
    return false;
  }
  text[length] = '\0';
  return strcmp(text, want) == 0;
}

/* Rank 0 reads the file back. */
static void check_file(const char *path) {
  int ncid = -1, dim = -1, var = -1, storage = 0, shuffle = 0, deflate = 0, level = 0;
  size_t n = 0, chunks[3] = {0};
  TAP_OK(nc_open(path, NC_NOWRITE, &ncid) == NC_NOERR, "the map file opens");
  TAP_OK(text_attribute_is(ncid, NC_GLOBAL, "Conventions", "CF-1.8") &&
             text_attribute_is(ncid, NC_GLOBAL, "title", "test map") &&
             text_attribute_is(ncid, NC_GLOBAL, "hydrocl_case", "grid:\n  nx: 29\n"),
         "global attributes: Conventions, title, the effective case");
  TAP_OK(nc_inq_dimid(ncid, "time", &dim) == NC_NOERR && nc_inq_dimlen(ncid, dim, &n) == NC_NOERR && n == FRAMES,
         "%zu frames", n);
  double x[NX], time[FRAMES];
  TAP_OK(nc_inq_varid(ncid, "x", &var) == NC_NOERR && nc_get_var_double(ncid, var, x) == NC_NOERR && x[0] == 0.25 &&
             x[NX - 1] == 0.25 + 0.5 * (NX - 1) && text_attribute_is(ncid, var, "axis", "X") &&
             text_attribute_is(ncid, var, "units", "m") &&
             text_attribute_is(ncid, var, "standard_name", "projection_x_coordinate"),
         "x coordinate: values, axis, units, standard_name");
  TAP_OK(nc_inq_varid(ncid, "time", &var) == NC_NOERR && nc_get_var_double(ncid, var, time) == NC_NOERR &&
             time[2] == 20.0 && text_attribute_is(ncid, var, "units", "seconds since 2000-01-01 00:00:00"),
         "time values and units");
  TAP_OK(nc_inq_varid(ncid, "zeta", &var) == NC_NOERR &&
             text_attribute_is(ncid, var, "standard_name", "sea_surface_height_above_geoid") &&
             text_attribute_is(ncid, var, "units", "m"),
         "zeta has its standard_name and units");
  TAP_OK(nc_inq_var_chunking(ncid, var, &storage, chunks) == NC_NOERR && storage == NC_CHUNKED && chunks[0] == 1 &&
             chunks[1] == NY && chunks[2] == NX &&
             nc_inq_var_deflate(ncid, var, &shuffle, &deflate, &level) == NC_NOERR && shuffle && deflate,
         "one frame per chunk, deflate with shuffle");
  long wrong = 0;
  for (int v = 0; v < 2; v++) {
    float *data = calloc((size_t)FRAMES * NX * NY, sizeof *data);
    if (!data || nc_inq_varid(ncid, v ? "flag" : "zeta", &var) != NC_NOERR ||
        nc_get_var_float(ncid, var, data) != NC_NOERR) {
      wrong++;
    }
    for (int t = 0; data && t < FRAMES; t++) {
      for (int j = 0; j < NY; j++) {
        for (int i = 0; i < NX; i++) {
          wrong += data[((size_t)t * NY + j) * NX + i] != (float)value(i, j, t, v);
        }
      }
    }
    free(data);
  }
  TAP_OK(wrong == 0, "every value of every frame, gathered from every rank (%ld wrong)", wrong);
  nc_close(ncid);
}

/* Regression: a set-up failing after the file was created left it behind, and the next run then needed
 * --overwrite. A variable name netCDF refuses makes the definition fail after the create. */
static void check_failed_setup_removes_file(const Decomp *decomp, OutputSpec spec) {
  MapFile *map = NULL;
  OutputVariable bad = {"bad/name", NULL, "a name netCDF refuses", "m", NULL, false};
  OutputVariable good = {"zeta", NULL, "water level", "m", NULL, false};
  spec.overwrite = false;
  hcl_status_clear();
  HclStatus s = hcl_map_create(decomp, &spec, &bad, 1, &map);
  bool gone = hcl_par_rank() != 0 || access(spec.path, F_OK) != 0;
  TAP_OK(all_ranks(s == HCL_EIO && map == NULL && gone), "a failed set-up leaves no file: %s", hcl_status_message());
  hcl_status_clear();
  s = hcl_map_create(decomp, &spec, &good, 1, &map);
  TAP_OK(all_ranks(s == HCL_OK), "so the next one needs no --overwrite %s", hcl_status_message());
  hcl_map_close(&map);
  if (hcl_par_rank() == 0) {
    unlink(spec.path);
  }
}

/* Writes FRAMES frames of both fields into spec->path. */
static HclStatus write_frames(const Decomp *decomp, const OutputSpec *spec, const OutputVariable vars[2],
                              Field *fields[2]) {
  HclStatus status = HCL_OK;
  MapFile *map = NULL;
  TRY(hcl_map_create(decomp, spec, vars, 2, &map));
  ASSERT(hcl_map_collective(map) == (hcl_par_size() > 1 && spec->parallel_write && nc_has_parallel()));
  for (int t = 0; t < FRAMES; t++) {
    TRY(fill(fields[0], t, 0));
    TRY(fill(fields[1], t, 1));
    TRY(hcl_map_write(map, 10.0 * t, fields));
  }
  ASSERT(hcl_map_frames(map) == FRAMES);
cleanup:
  hcl_map_close(&map);
  return status;
}

/* Rank 0: whether two map files hold the same bits in zeta, flag and time. */
static bool same_data(const char *a, const char *b) {
  int ids[2] = {-1, -1};
  bool same = nc_open(a, NC_NOWRITE, &ids[0]) == NC_NOERR && nc_open(b, NC_NOWRITE, &ids[1]) == NC_NOERR;
  static const char *const names[] = {"zeta", "flag", "time"};
  double *data[2] = {calloc((size_t)FRAMES * NX * NY, sizeof(double)),
                     calloc((size_t)FRAMES * NX * NY, sizeof(double))};
  for (int v = 0; v < 3 && same && data[0] && data[1]; v++) {
    for (int f = 0; f < 2 && same; f++) {
      int var = -1;
      same = nc_inq_varid(ids[f], names[v], &var) == NC_NOERR && nc_get_var_double(ids[f], var, data[f]) == NC_NOERR;
    }
    size_t n = v == 2 ? FRAMES : (size_t)FRAMES * NX * NY;
    same = same && memcmp(data[0], data[1], n * sizeof(double)) == 0;
  }
  for (int f = 0; f < 2; f++) {
    if (ids[f] >= 0) {
      nc_close(ids[f]);
    }
    free(data[f]);
  }
  return same && data[0] && data[1];
}

int main(int argc, char **argv) {
  Runtime *rt = NULL;
  Decomp *decomp = NULL;
  Field *fields[2] = {NULL};
  MapFile *map = NULL;
  HclStatus s = test_start(&argc, &argv, NULL, NULL);
  char path[256] = "";
  if (hcl_par_rank() == 0) {
    snprintf(path, sizeof path, "/tmp/hydrocl-map-%d-%d.nc", (int)getpid(), hcl_par_size());
  }
#ifdef HYDROCL_HAVE_MPI
  MPI_Bcast(path, sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);
#endif
  DecompSpec grid = {.nx = NX, .ny = NY};
  if (s == HCL_OK) {
    s = test_open_runtime(false, &rt);
  }
  if (s == HCL_OK) {
    s = hcl_decomp_create(&grid, &decomp);
  }
  for (int v = 0; v < 2 && s == HCL_OK; v++) {
    FieldSpec fs = {.name = v ? "flag" : "zeta", .nz = 1, .ghost = 1, .precision = PRECISION_DOUBLE};
    s = hcl_field_create(rt, decomp, &fs, &fields[v]);
  }
  OutputSpec spec = {.path = path,
                     .frame = {.title = "test map",
                               .source = "hydrocl test",
                               .time_units = "seconds since 2000-01-01 00:00:00",
                               .x0 = 0.25,
                               .dx = 0.5,
                               .y0 = 0.25,
                               .dy = 0.5},
                     .history = "test_mapfile",
                     .case_yaml = "grid:\n  nx: 29\n"};
  OutputVariable vars[2] = {{"zeta", "sea_surface_height_above_geoid", "water level", "m", NULL, false},
                            {"flag", NULL, "a second variable", "1", NULL, false}};
  /* Gathered to rank 0, then written by every rank, each its own block (where netCDF-C has parallel I/O and there
   * are several ranks): the same file. */
  char gathered[300];
  snprintf(gathered, sizeof gathered, "%s.gathered.nc", path);
  for (int parallel = 0; parallel < 2 && s == HCL_OK; parallel++) {
    OutputSpec way = spec;
    way.parallel_write = parallel;
    way.path = parallel ? path : gathered;
    s = write_frames(decomp, &way, vars, fields);
    bool collective = hcl_par_size() > 1 && parallel && nc_has_parallel();
    TAP_OK(all_ranks(s == HCL_OK), "%d frames written on %d ranks, %s %s", FRAMES, hcl_par_size(),
           collective ? "every rank its block" : "gathered to rank 0", hcl_status_message());
    if (hcl_par_rank() == 0) {
      check_file(way.path);
    }
  }
  if (hcl_par_rank() == 0) {
    TAP_OK(same_data(gathered, path), "the file written block by block holds the bits of the gathered one");
    unlink(gathered);
  }
  hcl_status_clear();
  spec.parallel_write = true; /* the refusals below, collectively where every rank opens the file */
  s = hcl_map_create(decomp, &spec, vars, 2, &map);
  /* Rank 0 owns the file and says why; the others learn that rank 0 failed. */
  TAP_OK(all_ranks(s == HCL_ECANTCREAT && map == NULL &&
                   (hcl_par_rank() != 0 || tap_contains(hcl_status_message(), "--overwrite"))),
         "an existing file is refused without --overwrite: %s", hcl_status_message());
  spec.overwrite = true;
  hcl_status_clear();
  s = hcl_map_create(decomp, &spec, vars, 2, &map);
  TAP_OK(all_ranks(s == HCL_OK), "and replaced with it %s", hcl_status_message());
  hcl_map_close(&map);
  if (hcl_par_rank() == 0) {
    unlink(path);
  }
  check_failed_setup_removes_file(decomp, spec);
  for (int v = 0; v < 2; v++) {
    hcl_field_destroy(&fields[v]);
  }
  hcl_decomp_destroy(&decomp);
  hcl_runtime_destroy(&rt);
  int result = tap_done();
  hcl_par_finalize();
  return result;
}
