/* SPDX-License-Identifier: BSD-3-Clause */
/* test_restart.c: restart files on any number of ranks (meson: 1, 2 and 4): the file holds the global fields
 * whatever the split (checked value by value on rank 0), reads back bitwise into other decompositions of the same
 * ranks, keeps only the newest restarts with no temporary file left, leaves alone (and never rotates against)
 * restarts of later steps left from an earlier run, finds the latest, and refuses a restart of another grid or
 * number of planes, a value stored as an array, or a missing file. */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <netcdf.h>

#include "restart.h"
#include "../support/support.h"
#include "../support/tap.h"

enum { NX = 21, NY = 18, NZ = 3 };

/* What the two fields are: the file describes them (CF-1.8). */
static const OutputVariable described[2] = {
    {"zeta", "water_surface_height_above_reference_datum", "water level", "m", NULL, false},
    {"phi", NULL, "velocity potential", "m2 s-1", NULL, false},
};
static const RestartSpec described_grid = {.frame = {.source = "test",
                                                     .title = "restart test",
                                                     .time_units = "seconds since 2000-01-01 00:00:00",
                                                     .x0 = 0.5,
                                                     .dx = 2,
                                                     .y0 = -1,
                                                     .dy = 0.25},
                                           .fields = described};

/* A spec writing into folder, keeping keep. */
static RestartSpec spec_of(const char *folder, int keep) {
  RestartSpec spec = described_grid;
  spec.folder = folder;
  spec.prefix = "restart";
  spec.keep = keep;
  return spec;
}

static double value(int gx, int gy, int k, int which) {
  return exp(0.01 * gx) * sin(0.7 * gy + k) + which;
}

/* The value a field of precision p holds. */
static double held(Precision p, double v) {
  return p == PRECISION_SINGLE ? (double)(float)v : v;
}

/* zeta (2D, float) and phi (nz planes, double). */
static HclStatus make_fields_of(Runtime *rt, const Decomp *decomp, int nz, Field *fields[2]) {
  HclStatus status = HCL_OK;
  FieldSpec zeta = {.name = "zeta", .nz = 1, .ghost = 2, .precision = PRECISION_SINGLE};
  FieldSpec phi = {.name = "phi", .nz = nz, .ghost = 1, .precision = PRECISION_DOUBLE};
  TRY(hcl_field_create(rt, decomp, &zeta, &fields[0]));
  TRY(hcl_field_create(rt, decomp, &phi, &fields[1]));
cleanup:
  return status;
}

static HclStatus make_fields(Runtime *rt, const Decomp *decomp, Field *fields[2]) {
  return make_fields_of(rt, decomp, NZ, fields);
}

/* Fills (write) or checks (count wrong points of) the fields against the formula. */
static HclStatus fill_or_check(Field *const fields[2], bool write, long *wrong) {
  HclStatus status = HCL_OK;
  double *host = NULL;
  *wrong = 0;
  for (int w = 0; w < 2; w++) {
    Field *f = fields[w];
    const DecompLocal *l = hcl_decomp_local(hcl_field_decomp(f));
    size_t n = (size_t)hcl_field_nz(f) * hcl_field_ny(f) * hcl_field_nx(f);
    free(host);
    host = NULL;
    TRY_ALLOC(host, n);
    if (!write) {
      TRY(hcl_field_read_owned(f, host));
    }
    for (int k = 0; k < hcl_field_nz(f); k++) {
      for (int j = 0; j < hcl_field_ny(f); j++) {
        for (int i = 0; i < hcl_field_nx(f); i++) {
          double *v = &host[((size_t)k * hcl_field_ny(f) + j) * hcl_field_nx(f) + i];
          double want = held(hcl_field_precision(f), value(l->x0 + i, l->y0 + j, k, w));
          if (write) {
            *v = want;
          } else {
            *wrong += *v != want;
          }
        }
      }
    }
    if (write) {
      TRY(hcl_field_write_owned(f, host));
    }
  }
cleanup:
  free(host);
  return status;
}

static void destroy_fields(Field *fields[2]) {
  hcl_field_destroy(&fields[0]);
  hcl_field_destroy(&fields[1]);
}

/* Whether text attribute name of var (NC_GLOBAL or a variable's name) is want. */
static bool has_text(int ncid, const char *var, const char *name, const char *want) {
  int id = NC_GLOBAL;
  size_t length = 0;
  char text[256] = "";
  return (!var || nc_inq_varid(ncid, var, &id) == NC_NOERR) && nc_inq_attlen(ncid, id, name, &length) == NC_NOERR &&
         length < sizeof text && nc_get_att_text(ncid, id, name, text) == NC_NOERR && strcmp(text, want) == 0;
}

/* Rank 0: the file describes itself (issue 26, 6): CF-1.8, what each variable is, the grid's coordinates, the step
 * as a double (the IOOS checker refuses 64-bit integers in CF-1.8), the fields deflated. */
static bool check_file_metadata(int ncid, double step) {
  int var = -1, deflate = 0, shuffle = 0, level = 0;
  nc_type type = NC_NAT;
  double x[NX], stored_step = -1;
  bool described_ok = has_text(ncid, NULL, "Conventions", "CF-1.8") && has_text(ncid, "zeta", "units", "m") &&
                      has_text(ncid, "phi", "long_name", "velocity potential") &&
                      has_text(ncid, "time", "units", "seconds since 2000-01-01 00:00:00") &&
                      has_text(ncid, "x", "standard_name", "projection_x_coordinate") &&
                      has_text(ncid, "step", "units", "1");
  bool step_ok = nc_inq_varid(ncid, "step", &var) == NC_NOERR && nc_inq_vartype(ncid, var, &type) == NC_NOERR &&
                 type == NC_DOUBLE && nc_get_var_double(ncid, var, &stored_step) == NC_NOERR && stored_step == step;
  bool x_ok = nc_inq_varid(ncid, "x", &var) == NC_NOERR && nc_get_var_double(ncid, var, x) == NC_NOERR && x[0] == 0.5 &&
              x[NX - 1] == 0.5 + 2 * (NX - 1);
  bool deflated = nc_inq_varid(ncid, "phi", &var) == NC_NOERR &&
                  nc_inq_var_deflate(ncid, var, &shuffle, &deflate, &level) == NC_NOERR && deflate && shuffle;
  return described_ok && step_ok && x_ok && deflated;
}

/* Rank 0: the file holds the global arrays exactly, however they were split, and describes them. */
static long check_file_contents(const char *path, double step) {
  int ncid = -1, var = -1;
  long wrong = 0;
  double *data = calloc((size_t)NZ * NY * NX, sizeof *data);
  if (!data || nc_open(path, NC_NOWRITE, &ncid) != NC_NOERR) {
    free(data);
    return -1;
  }
  wrong += !check_file_metadata(ncid, step);
  for (int w = 0; w < 2; w++) {
    int nz = w ? NZ : 1;
    if (nc_inq_varid(ncid, w ? "phi" : "zeta", &var) != NC_NOERR || nc_get_var_double(ncid, var, data) != NC_NOERR) {
      wrong++;
      continue;
    }
    for (int k = 0; k < nz; k++) {
      for (int j = 0; j < NY; j++) {
        for (int i = 0; i < NX; i++) {
          double want = held(w ? PRECISION_DOUBLE : PRECISION_SINGLE, value(i, j, k, w));
          wrong += data[((size_t)k * NY + j) * NX + i] != want;
        }
      }
    }
  }
  nc_close(ncid);
  free(data);
  return wrong;
}

/* Rank 0: the names in folder, space-separated, sorted. */
static void folder_listing(const char *folder, char *out, size_t size) {
  char names[8][256];
  int n = 0;
  DIR *dir = opendir(folder);
  out[0] = '\0';
  for (struct dirent *e = dir ? readdir(dir) : NULL; e && n < 8; e = readdir(dir)) {
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) { /* hidden temporaries count */
      snprintf(names[n++], sizeof names[0], "%s", e->d_name);
    }
  }
  if (dir) {
    closedir(dir);
  }
  qsort(names, (size_t)n, sizeof names[0], (int (*)(const void *, const void *))strcmp);
  for (int i = 0; i < n; i++) {
    size_t used = strlen(out);
    snprintf(out + used, size - used, "%s%s", i ? " " : "", names[i]);
  }
}

/* Regression: with restart-100.nc left from an earlier, longer run, writing step 10 with keep 1 removed the file
 * just written (the newest by step was 100). Later steps stay untouched; rotation runs among the steps up to the
 * one written. */
static void check_leftover_later_step(Runtime *rt, const char *parent) {
  Decomp *decomp = NULL;
  Field *fields[2] = {NULL};
  char folder[300], listing[2][2048] = {"", ""};
  DecompSpec split = {.nx = NX, .ny = NY};
  RestartScalar scalars[1] = {{.name = "time", .value = 1.0}};
  snprintf(folder, sizeof folder, "%s/leftover", parent);
  RestartSpec spec = spec_of(folder, 1);
  hcl_status_clear();
  HclStatus s = hcl_par_rank() != 0 || mkdir(folder, 0700) == 0 ? HCL_OK : HCL_EIO;
  if (all_ranks(s == HCL_OK)) {
    s = hcl_decomp_create(&split, &decomp);
  }
  if (s == HCL_OK) {
    s = make_fields(rt, decomp, fields);
  }
  int64_t steps[3] = {100, 10, 20};
  for (int i = 0; i < 3 && s == HCL_OK; i++) {
    s = hcl_restart_write(&spec, steps[i], fields, 2, scalars, 1, NULL, 0);
    if (i > 0 && hcl_par_rank() == 0) {
      folder_listing(folder, listing[i - 1], sizeof listing[0]);
    }
  }
  TAP_OK(all_ranks(s == HCL_OK), "restarts 100, 10, 20 written with keep 1 %s", hcl_status_message());
  if (hcl_par_rank() == 0) {
    TAP_OK(strcmp(listing[0], "restart-10.nc restart-100.nc") == 0, "step 10 is kept next to a leftover step 100: '%s'",
           listing[0]);
    TAP_OK(strcmp(listing[1], "restart-100.nc restart-20.nc") == 0, "step 20 replaces step 10 only: '%s'", listing[1]);
  }
  destroy_fields(fields);
  hcl_decomp_destroy(&decomp);
}

/* Regression: a restart of other planes, or with a value stored as an array, was read anyway (a netCDF error, or
 * an array written over one double). */
static void check_wrong_shapes(Runtime *rt, const char *path) {
  Decomp *decomp = NULL;
  Field *fields[2] = {NULL};
  DecompSpec split = {.nx = NX, .ny = NY};
  RestartScalar time[1] = {{.name = "time"}}, array[1] = {{.name = "zeta"}};
  char want[96];
  snprintf(want, sizeof want, "has %d planes (nz_phi) of field 'phi', the case has %d", NZ, NZ + 1);
  hcl_status_clear();
  HclStatus s = hcl_decomp_create(&split, &decomp);
  if (s == HCL_OK) {
    s = make_fields_of(rt, decomp, NZ + 1, fields);
  }
  if (s == HCL_OK) {
    s = hcl_restart_read(path, fields, 2, time, 1);
  }
  TAP_OK(all_ranks(s == HCL_EDATA && tap_contains(hcl_status_message(), want)),
         "a restart of other planes is refused: %s", hcl_status_message());
  destroy_fields(fields);
  hcl_status_clear();
  s = make_fields(rt, decomp, fields);
  if (s == HCL_OK) {
    s = hcl_restart_read(path, fields, 0, array, 1);
  }
  TAP_OK(all_ranks(s == HCL_EDATA && tap_contains(hcl_status_message(), "holds 'zeta' as an array of 2 dimensions")),
         "a value stored as an array is refused: %s", hcl_status_message());
  destroy_fields(fields);
  hcl_decomp_destroy(&decomp);
}

int main(int argc, char **argv) {
  Runtime *rt = NULL;
  Decomp *decomp = NULL;
  Field *fields[2] = {NULL};
  HclStatus s = test_start(&argc, &argv, NULL, NULL);
  int size = hcl_par_size();
  char folder[256] = "/tmp/hydrocl-restart-XXXXXX", latest[4200] = "", path[4200] = "";
  if (hcl_par_rank() == 0 && !mkdtemp(folder)) {
    folder[0] = '\0';
  }
#ifdef HYDROCL_HAVE_MPI
  MPI_Bcast(folder, sizeof folder, MPI_CHAR, 0, MPI_COMM_WORLD);
#endif
  if (s == HCL_OK) {
    s = test_open_runtime(true, &rt);
  }
  DecompSpec split = {.nx = NX, .ny = NY, .px = size, .py = 1};
  if (s == HCL_OK) {
    s = hcl_decomp_create(&split, &decomp);
  }
  if (s == HCL_OK) {
    s = make_fields(rt, decomp, fields);
  }
  long wrong = 0;
  if (s == HCL_OK) {
    s = fill_or_check(fields, true, &wrong);
  }
  RestartSpec spec = spec_of(folder, 2);
  RestartScalar scalars[2] = {{"time", 123.456789012345, "time", NULL}, {"dt", 0.1, "time step", "s"}};
  for (int step = 10; step <= 30 && s == HCL_OK; step += 10) {
    s = hcl_restart_write(&spec, step, fields, 2, scalars, 2, path, sizeof path);
  }
  TAP_OK(all_ranks(s == HCL_OK), "three restarts written from %d x 1 ranks %s", size, hcl_status_message());
  destroy_fields(fields);
  hcl_decomp_destroy(&decomp);
  if (hcl_par_rank() == 0) {
    char listing[2048];
    folder_listing(folder, listing, sizeof listing);
    TAP_OK(strcmp(listing, "restart-20.nc restart-30.nc") == 0, "the newest two are kept, nothing else: '%s'", listing);
    TAP_OK(check_file_contents(path, 30) == 0, "the file holds the global fields exactly and describes them");
  }
  hcl_status_clear();
  s = hcl_restart_latest(folder, "restart", latest, sizeof latest);
  TAP_OK(s == HCL_OK && strcmp(latest, path) == 0, "the latest restart is %s", latest);

  /* Read into other splits of the same ranks: 1 x size, and 2 x size/2 where size is even. */
  int layouts[2][2] = {{1, size}, {size % 2 == 0 ? 2 : 1, size % 2 == 0 ? size / 2 : size}};
  for (int t = 0; t < 2; t++) {
    DecompSpec other = {.nx = NX, .ny = NY, .px = layouts[t][0], .py = layouts[t][1]};
    RestartScalar back[2] = {{.name = "time"}, {.name = "dt"}};
    hcl_status_clear();
    s = hcl_decomp_create(&other, &decomp);
    if (s == HCL_OK) {
      s = make_fields(rt, decomp, fields);
    }
    if (s == HCL_OK) {
      s = hcl_restart_read(latest, fields, 2, back, 2);
    }
    if (s == HCL_OK) {
      s = fill_or_check(fields, false, &wrong);
    }
    TAP_OK(all_ranks(s == HCL_OK && wrong == 0 && back[0].value == scalars[0].value && back[1].value == 0.1),
           "read back bitwise into a %d x %d split (%ld wrong) %s", layouts[t][0], layouts[t][1], wrong,
           hcl_status_message());
    destroy_fields(fields);
    hcl_decomp_destroy(&decomp);
  }

  DecompSpec wider = {.nx = NX + 1, .ny = NY};
  RestartScalar none[1] = {{.name = "time"}};
  hcl_status_clear();
  s = hcl_decomp_create(&wider, &decomp);
  if (s == HCL_OK) {
    s = make_fields(rt, decomp, fields);
  }
  if (s == HCL_OK) {
    s = hcl_restart_read(latest, fields, 2, none, 1);
  }
  TAP_OK(all_ranks(s == HCL_EDATA && tap_contains(hcl_status_message(), "points in x")),
         "a restart of another grid is refused: %s", hcl_status_message());
  hcl_status_clear();
  snprintf(path, sizeof path, "%s/restart-99.nc", folder);
  s = hcl_restart_read(path, fields, 2, none, 1);
  TAP_OK(all_ranks(s == HCL_ENOINPUT), "a missing restart is missing input: %s", hcl_status_message());
  destroy_fields(fields);
  hcl_decomp_destroy(&decomp);
  check_wrong_shapes(rt, latest);
  check_leftover_later_step(rt, folder);
  hcl_runtime_destroy(&rt);
  if (hcl_par_rank() == 0) {
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf %s", folder);
    if (system(cmd) != 0) {
      tap_note("could not remove %s", folder);
    }
  }
  int result = tap_done();
  hcl_par_finalize();
  return result;
}
