/* SPDX-License-Identifier: BSD-3-Clause */
/* test_history.c: gauge time series on any number of ranks (meson: 1, 2 and 3). The fields are linear in x and y,
 * which bilinear interpolation reproduces exactly, so every gauge (inside cells, on points, on the domain edge, and
 * between two ranks' points, placed from the decomposition) must read the analytic value to rounding. Also: the CF
 * timeSeries layout read back, the CSV reader with its errors, a gauge outside the grid refused with its origin, a
 * failed set-up leaving no file, and a kernel build failing on rank 0 alone failing every rank and being retried.
 * Usage: test_history KERNELS_CL_DIR */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <netcdf.h>

#include "history.h"
#include "../support/support.h"
#include "../support/tap.h"

enum { NX = 31, NY = 17, FRAMES = 2, NGAUGES = 5, MAX_GAUGES = 16 };
static const double X0 = 5.0, DX = 10.0, Y0 = 2.5, DY = 5.0;

static double linear(double x, double y, int frame, int var) {
  return 0.25 * x - 0.5 * y + frame + 100.0 * var;
}

static HclStatus fill(Field *f, int frame, int var) {
  HclStatus status = HCL_OK;
  double *host = NULL;
  const DecompLocal *l = hcl_decomp_local(hcl_field_decomp(f));
  TRY_ALLOC(host, (size_t)hcl_field_nx(f) * hcl_field_ny(f));
  for (int j = 0; j < hcl_field_ny(f); j++) {
    for (int i = 0; i < hcl_field_nx(f); i++) {
      host[(size_t)j * hcl_field_nx(f) + i] = linear(X0 + (l->x0 + i) * DX, Y0 + (l->y0 + j) * DY, frame, var);
    }
  }
  TRY(hcl_field_write_owned(f, host));
cleanup:
  free(host);
  return status;
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

static Gauge gauge_at(const char *name, int index, double x, double y) {
  Gauge g = {.x = x, .y = y};
  snprintf(g.name, sizeof g.name, "%s-%d", name, index);
  snprintf(g.origin, sizeof g.origin, "test:%s-%d", name, index);
  return g;
}

/* Appends gauges whose bilinear stencil spans two ranks: halfway between the last row (column) of one block and the
 * first of the next, at every block boundary; where both directions are split, one more across four blocks.
 * Returns how many it added. */
static int add_boundary_gauges(const Decomp *decomp, Gauge *gauges, int *ngauges) {
  const DecompSpec *g = hcl_decomp_spec(decomp);
  int x0, y0, nx, ny, added = 0;
  for (int cy = 1; cy < g->py && *ngauges < MAX_GAUGES; cy++) {
    hcl_decomp_block_of(decomp, cy * g->px, &x0, &y0, &nx, &ny);
    gauges[(*ngauges)++] = gauge_at("rows", cy, X0 + 7.3 * DX, Y0 + (y0 - 0.5) * DY);
    added++;
  }
  for (int cx = 1; cx < g->px && *ngauges < MAX_GAUGES; cx++) {
    hcl_decomp_block_of(decomp, cx, &x0, &y0, &nx, &ny);
    gauges[(*ngauges)++] = gauge_at("columns", cx, X0 + (x0 - 0.25) * DX, Y0 + 3.6 * DY);
    added++;
  }
  if (g->px > 1 && g->py > 1 && *ngauges < MAX_GAUGES) {
    hcl_decomp_block_of(decomp, g->px + 1, &x0, &y0, &nx, &ny);
    gauges[(*ngauges)++] = gauge_at("blocks", 4, X0 + (x0 - 0.5) * DX, Y0 + (y0 - 0.5) * DY);
    added++;
  }
  return added;
}

/* Regression: a name longer than the limit was reported as a malformed line. */
static void check_long_name(const char *csv) {
  Gauge *gauges = NULL;
  int ngauges = 0;
  write_text(csv, "name,x,y\nharbour_entrance_north_pier_tide_gauge_installed_in_1987_by_the_port,1,2\n");
  hcl_status_clear();
  HclStatus s = hcl_gauges_read_csv(csv, &gauges, &ngauges);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), ".csv:2: gauge name 'harbour_entrance_nor...'") &&
             tap_contains(hcl_status_message(), "is longer than 63 characters"),
         "a gauge name over 63 characters is refused as such: %s", hcl_status_message());
  free(gauges);
}

/* Regression: a set-up failing after the file was created left it behind, and the next run then needed
 * --overwrite. A variable name netCDF refuses makes the definition fail after the create. */
static void check_failed_setup_removes_file(Runtime *rt, const Decomp *decomp, OutputSpec spec, const Gauge *gauges) {
  HistoryFile *history = NULL;
  OutputVariable bad = {"bad/name", NULL, "a name netCDF refuses", "m", NULL, false};
  OutputVariable good = {"zeta", NULL, "water level", "m", NULL, false};
  spec.overwrite = false;
  hcl_status_clear();
  HclStatus s = hcl_history_create(rt, decomp, &spec, gauges, 1, &bad, 1, &history);
  bool gone = hcl_par_rank() != 0 || access(spec.path, F_OK) != 0;
  TAP_OK(all_ranks(s == HCL_EIO && history == NULL && gone), "a failed set-up leaves no file: %s",
         hcl_status_message());
  hcl_status_clear();
  s = hcl_history_create(rt, decomp, &spec, gauges, 1, &good, 1, &history);
  TAP_OK(all_ranks(s == HCL_OK), "so the next one needs no --overwrite %s", hcl_status_message());
  hcl_history_close(&history);
  if (hcl_par_rank() == 0) {
    unlink(spec.path);
  }
}

/* One frame of a double field filled as variable 0 at time 0. */
static HclStatus write_one_frame(HistoryFile *history, Field *f) {
  HclStatus status = HCL_OK;
  TRY(fill(f, 0, 0));
  TRY(hcl_history_write(history, 0.0, &f));
cleanup:
  return status;
}

/* Regression: rank 0 reads kernels from a copy whose sample.cl lacks gather_points, and only rank 0 holds the one
 * gauge's points. That used to leave the other ranks waiting in the sum, and a program without its kernel cached on
 * rank 0. Every rank must fail, and once the kernel is back the build is retried. */
static void check_failed_build(Runtime *rt, const Decomp *decomp, OutputSpec spec, const char *kernels) {
  Runtime *own = NULL;
  Field *f = NULL;
  HistoryFile *history = NULL;
  Gauge origin = gauge_at("origin", 0, X0 + 0.5 * DX, Y0 + 0.5 * DY);
  OutputVariable var = {"zeta", NULL, "water level", "m", NULL, false};
  FieldSpec fs = {.name = "zeta", .nz = 1, .ghost = 1, .precision = PRECISION_DOUBLE};
  char folder[256], command[1024];
  snprintf(folder, sizeof folder, "/tmp/hydrocl-sample-kernels-%d", (int)getpid());
  snprintf(command, sizeof command,
           "rm -rf %s && cp -r %s %s && sed -i 's/void gather_points(/void gather_points_gone(/' %s/sample.cl", folder,
           kernels, folder, folder);
  RuntimeOptions options = {.kernel_dir = hcl_par_rank() == 0 ? folder : kernels};
  spec.overwrite = true;
  hcl_status_clear();
  HclStatus s = hcl_par_rank() != 0 || system(command) == 0 ? HCL_OK : HCL_EIO;
  if (s == HCL_OK) {
    s = hcl_runtime_create(hcl_runtime_device(rt), &options, &own);
  }
  if (all_ranks(s == HCL_OK)) {
    s = hcl_field_create(own, decomp, &fs, &f);
  }
  if (s == HCL_OK) {
    s = hcl_history_create(own, decomp, &spec, &origin, 1, &var, 1, &history);
  }
  TAP_OK(all_ranks(s == HCL_OK), "a history on a broken sample.cl on rank 0 %s", hcl_status_message());
  hcl_status_clear();
  s = history ? write_one_frame(history, f) : HCL_EINTERNAL;
  TAP_OK(all_ranks(s == HCL_EINTERNAL && tap_contains(hcl_status_message(), "'gather_points' not found") &&
                   (hcl_par_rank() == 0 || tap_contains(hcl_status_message(), "rank 0 failed"))),
         "a kernel missing on rank 0 fails every rank: %s", hcl_status_message());
  snprintf(command, sizeof command, "cp %s/sample.cl %s/sample.cl", kernels, folder);
  hcl_status_clear();
  s = hcl_par_rank() != 0 || system(command) == 0 ? HCL_OK : HCL_EIO;
  if (history && s == HCL_OK) {
    s = write_one_frame(history, f);
  }
  TAP_OK(all_ranks(s == HCL_OK), "with the kernel back the build is retried %s", hcl_status_message());
  hcl_history_close(&history);
  hcl_field_destroy(&f);
  hcl_runtime_destroy(&own);
  if (hcl_par_rank() == 0) {
    unlink(spec.path);
    snprintf(command, sizeof command, "rm -rf %s", folder);
    if (system(command) != 0) {
      tap_note("could not remove %s", folder);
    }
  }
}

int main(int argc, char **argv) {
  Runtime *rt = NULL;
  Decomp *decomp = NULL;
  Field *fields[2] = {NULL};
  HistoryFile *history = NULL;
  Gauge *gauges = NULL;
  int ngauges = 0;
  HclStatus s = test_start(&argc, &argv, NULL, NULL);
  char path[256] = "", csv[300] = "";
  if (hcl_par_rank() == 0) {
    snprintf(path, sizeof path, "/tmp/hydrocl-history-%d-%d.nc", (int)getpid(), hcl_par_size());
  }
#ifdef HYDROCL_HAVE_MPI
  MPI_Bcast(path, sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);
#endif
  snprintf(csv, sizeof csv, "%s.%d.csv", path, hcl_par_rank());
  /* inside a cell; on a grid point; the last point (domain corner); the middle; the first point. */
  write_text(csv, "name,x,y\n# a comment\ncell,17.5,8.75\npoint,105,42.5\ncorner,305,82.5\nmiddle,155,40\n"
                  "origin,5,2.5\n");
  hcl_status_clear();
  s = hcl_gauges_read_csv(csv, &gauges, &ngauges);
  TAP_OK(s == HCL_OK && ngauges == NGAUGES && strcmp(gauges[3].name, "middle") == 0 && gauges[3].x == 155.0,
         "the gauge CSV reads %d gauges %s", ngauges, hcl_status_message());
  DecompSpec grid = {.nx = NX, .ny = NY};
  if (s == HCL_OK) {
    s = test_open_runtime(false, &rt);
  }
  if (s == HCL_OK) {
    s = hcl_decomp_create(&grid, &decomp);
  }
  if (s == HCL_OK) {
    Gauge *more = realloc(gauges, MAX_GAUGES * sizeof *gauges);
    s = more ? HCL_OK : HCL_ENOMEM;
    gauges = more ? more : gauges;
  }
  if (s == HCL_OK) {
    int added = add_boundary_gauges(decomp, gauges, &ngauges);
    TAP_OK(hcl_par_size() == 1 || added > 0, "%d gauges between the points of two ranks", added);
  }
  for (int v = 0; v < 2 && s == HCL_OK; v++) {
    FieldSpec fs = {.name = "f", .nz = 1, .ghost = v + 1, .precision = v ? PRECISION_SINGLE : PRECISION_DOUBLE};
    s = hcl_field_create(rt, decomp, &fs, &fields[v]);
  }
  OutputSpec spec = {.path = path,
                     .frame = {.title = "gauges",
                               .source = "test",
                               .time_units = "seconds since 2000-01-01 00:00:00",
                               .x0 = X0,
                               .dx = DX,
                               .y0 = Y0,
                               .dy = DY},
                     .history = "test_history",
                     .case_yaml = "",
                     .double_precision = true};
  OutputVariable vars[2] = {{"zeta", "sea_surface_height_above_geoid", "water level", "m", NULL, false},
                            {"u", NULL, "velocity in x", "m s-1", NULL, false}};
  if (s == HCL_OK) {
    s = hcl_history_create(rt, decomp, &spec, gauges, ngauges, vars, 2, &history);
  }
  for (int t = 0; t < FRAMES && s == HCL_OK; t++) {
    s = fill(fields[0], t, 0);
    if (s == HCL_OK) {
      s = fill(fields[1], t, 1);
    }
    if (s == HCL_OK) {
      s = hcl_history_write(history, 60.0 * t, fields);
    }
  }
  TAP_OK(all_ranks(s == HCL_OK), "%d frames of %d gauges on %d ranks %s", FRAMES, ngauges, hcl_par_size(),
         hcl_status_message());
  hcl_history_close(&history);

  if (hcl_par_rank() == 0 && s == HCL_OK) {
    int ncid = -1, var = -1;
    char names[MAX_GAUGES][GAUGE_NAME_MAX];
    char feature[32] = "";
    double values[FRAMES * MAX_GAUGES]; /* (time, station): time first */
    TAP_OK(nc_open(path, NC_NOWRITE, &ncid) == NC_NOERR &&
               nc_get_att_text(ncid, NC_GLOBAL, "featureType", feature) == NC_NOERR &&
               strncmp(feature, "timeSeries", 10) == 0,
           "CF featureType timeSeries");
    TAP_OK(nc_inq_varid(ncid, "station_name", &var) == NC_NOERR &&
               nc_get_var_text(ncid, var, &names[0][0]) == NC_NOERR && strcmp(names[2], "corner") == 0,
           "station names");
    for (int v = 0; v < 2; v++) {
      double worst = 0;
      bool read =
          nc_inq_varid(ncid, v ? "u" : "zeta", &var) == NC_NOERR && nc_get_var_double(ncid, var, values) == NC_NOERR;
      for (int k = 0; read && k < ngauges; k++) {
        for (int t = 0; t < FRAMES; t++) {
          double want = linear(gauges[k].x, gauges[k].y, t, v);
          worst = fmax(worst, fabs(values[t * ngauges + k] - want) / (1.0 + fabs(want)));
        }
      }
      /* Bilinear interpolation of a linear field is exact; the stored values carry the field's rounding, float for
       * u (2^-24 relative to values near 100) and double for zeta. */
      double tolerance = v ? 4 * 6e-8 : 64 * 2.2e-16;
      TAP_OK(read && worst <= tolerance, "%s at every gauge matches the linear field (worst %.3g, allowed %.3g)",
             v ? "u" : "zeta", worst, tolerance);
    }
    nc_close(ncid);
    unlink(path);
  }

  Gauge outside = {.name = "far", .x = 1000.0, .y = 10.0};
  snprintf(outside.origin, sizeof outside.origin, "case.yml:9:5");
  spec.overwrite = true;
  hcl_status_clear();
  s = hcl_history_create(rt, decomp, &spec, &outside, 1, vars, 1, &history);
  TAP_OK(all_ranks(s == HCL_EDATA && tap_contains(hcl_status_message(), "case.yml:9:5: gauge 'far'") &&
                   tap_contains(hcl_status_message(), "outside the grid")),
         "a gauge outside the grid is refused: %s", hcl_status_message());
  hcl_history_close(&history);
  if (hcl_par_rank() == 0) {
    unlink(path);
  }

  check_long_name(csv);
  check_failed_setup_removes_file(rt, decomp, spec, gauges);
  check_failed_build(rt, decomp, spec, argc == 2 ? argv[1] : "(missing argument)");
  write_text(csv, "a,1,2\nb,3\n");
  free(gauges);
  gauges = NULL;
  hcl_status_clear();
  s = hcl_gauges_read_csv(csv, &gauges, &ngauges);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), ".csv:2: expected 'name,x,y'"),
         "a short CSV line is refused with file:line: %s", hcl_status_message());
  /* Issue 27, fuzz_gauges: a line longer than the reader's 1024-byte buffer was read as two lines, two gauges. */
  char *long_line = malloc(2100);
  if (long_line) {
    snprintf(long_line, 2100, "name,x,y\na,1,2%2000sb,3,4\n", "");
    write_text(csv, long_line);
    free(long_line);
  }
  free(gauges);
  gauges = NULL;
  hcl_status_clear();
  s = hcl_gauges_read_csv(csv, &gauges, &ngauges);
  TAP_OK(s == HCL_EDATA && tap_contains(hcl_status_message(), ".csv:2: expected 'name,x,y'"),
         "a line of 2000 characters is one line, refused as a whole: %s", hcl_status_message());
  unlink(csv);
  free(gauges);
  for (int v = 0; v < 2; v++) {
    hcl_field_destroy(&fields[v]);
  }
  hcl_decomp_destroy(&decomp);
  hcl_runtime_destroy(&rt);
  int result = tap_done();
  hcl_par_finalize();
  return result;
}
