/* test_history.c: gauge time series on any number of ranks (meson: 1, 2 and 3). The fields are linear in x and y,
 * which bilinear interpolation reproduces exactly, so every gauge (inside cells, on points, on the domain edge, on
 * rank boundaries) must read the analytic value to rounding. Also: the CF timeSeries layout read back, the CSV
 * reader with its errors, and a gauge outside the grid refused with its origin. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <netcdf.h>

#include "history.h"
#include "../support.h"
#include "../tap.h"

enum { NX = 31, NY = 17, FRAMES = 2, NGAUGES = 5 };
static const double X0 = 5.0, DX = 10.0, Y0 = 2.5, DY = 5.0;

static double linear(double x, double y, int frame, int var) {
  return 0.25 * x - 0.5 * y + frame + 100.0 * var;
}

static HclStatus fill(Field *f, int frame, int var) {
  HclStatus status = HCL_OK;
  double *host = NULL;
  const DecompLocal *l = decomp_local(field_decomp(f));
  TRY_ALLOC(host, (size_t)field_nx(f) * field_ny(f));
  for (int j = 0; j < field_ny(f); j++) {
    for (int i = 0; i < field_nx(f); i++) {
      host[(size_t)j * field_nx(f) + i] = linear(X0 + (l->x0 + i) * DX, Y0 + (l->y0 + j) * DY, frame, var);
    }
  }
  TRY(field_write_owned(f, host));
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

int main(int argc, char **argv) {
  Runtime *rt = NULL;
  Decomp *decomp = NULL;
  Field *fields[2] = {NULL};
  HistoryFile *history = NULL;
  Gauge *gauges = NULL;
  int ngauges = 0;
  HclStatus s = par_init(&argc, &argv);
  if (par_rank() != 0) {
    freopen("/dev/null", "w", stdout);
  }
  char path[256] = "", csv[300] = "";
  if (par_rank() == 0) {
    snprintf(path, sizeof path, "/tmp/hydrocl-history-%d-%d.nc", (int)getpid(), par_size());
  }
#ifdef HYDROCL_HAVE_MPI
  MPI_Bcast(path, sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);
#endif
  snprintf(csv, sizeof csv, "%s.%d.csv", path, par_rank());
  /* inside a cell; on a grid point; the last point (domain corner); the middle (a rank boundary when split);
   * the first point. */
  write_text(csv, "name,x,y\n# a comment\ncell,17.5,8.75\npoint,105,42.5\ncorner,305,82.5\nmiddle,155,40\n"
                  "origin,5,2.5\n");
  status_clear();
  s = gauges_read_csv(csv, &gauges, &ngauges);
  TAP_OK(s == HCL_OK && ngauges == NGAUGES && strcmp(gauges[3].name, "middle") == 0 && gauges[3].x == 155.0,
         "the gauge CSV reads %d gauges %s", ngauges, status_message());
  DecompSpec grid = {.nx = NX, .ny = NY};
  if (s == HCL_OK) {
    s = test_open_runtime(false, &rt);
  }
  if (s == HCL_OK) {
    s = decomp_create(&grid, &decomp);
  }
  for (int v = 0; v < 2 && s == HCL_OK; v++) {
    FieldSpec fs = {.name = "f", .nz = 1, .ghost = v + 1, .precision = v ? PRECISION_SINGLE : PRECISION_DOUBLE};
    s = field_create(rt, decomp, &fs, &fields[v]);
  }
  OutputSpec spec = {.path = path, .title = "gauges", .source = "test", .history = "test_history",
                     .case_yaml = "", .time_units = "seconds since 2000-01-01 00:00:00",
                     .x0 = X0, .dx = DX, .y0 = Y0, .dy = DY, .double_precision = true};
  OutputVariable vars[2] = {{"zeta", "sea_surface_height_above_geoid", "water level", "m"},
                            {"u", NULL, "velocity in x", "m s-1"}};
  if (s == HCL_OK) {
    s = history_create(rt, decomp, &spec, gauges, ngauges, vars, 2, &history);
  }
  for (int t = 0; t < FRAMES && s == HCL_OK; t++) {
    s = fill(fields[0], t, 0);
    if (s == HCL_OK) {
      s = fill(fields[1], t, 1);
    }
    if (s == HCL_OK) {
      s = history_write(history, 60.0 * t, fields);
    }
  }
  TAP_OK(all_ranks(s == HCL_OK), "%d frames of %d gauges on %d ranks %s", FRAMES, ngauges, par_size(),
         status_message());
  history_close(&history);

  if (par_rank() == 0 && s == HCL_OK) {
    int ncid = -1, var = -1;
    char names[NGAUGES][GAUGE_NAME_MAX];
    char feature[32] = "";
    double values[NGAUGES][FRAMES];
    TAP_OK(nc_open(path, NC_NOWRITE, &ncid) == NC_NOERR && nc_get_att_text(ncid, NC_GLOBAL, "featureType", feature) ==
                                                                NC_NOERR && strncmp(feature, "timeSeries", 10) == 0,
           "CF featureType timeSeries");
    TAP_OK(nc_inq_varid(ncid, "station_name", &var) == NC_NOERR && nc_get_var_text(ncid, var, &names[0][0]) ==
                                                                        NC_NOERR && strcmp(names[2], "corner") == 0,
           "station names");
    for (int v = 0; v < 2; v++) {
      double worst = 0;
      bool read = nc_inq_varid(ncid, v ? "u" : "zeta", &var) == NC_NOERR &&
                  nc_get_var_double(ncid, var, &values[0][0]) == NC_NOERR;
      for (int k = 0; read && k < NGAUGES; k++) {
        for (int t = 0; t < FRAMES; t++) {
          double want = linear(gauges[k].x, gauges[k].y, t, v);
          worst = fmax(worst, fabs(values[k][t] - want) / (1.0 + fabs(want)));
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
  status_clear();
  s = history_create(rt, decomp, &spec, &outside, 1, vars, 1, &history);
  TAP_OK(all_ranks(s == HCL_EDATA && tap_contains(status_message(), "case.yml:9:5: gauge 'far'") &&
                   tap_contains(status_message(), "outside the grid")),
         "a gauge outside the grid is refused: %s", status_message());
  history_close(&history);
  if (par_rank() == 0) {
    unlink(path);
  }

  write_text(csv, "a,1,2\nb,3\n");
  free(gauges);
  gauges = NULL;
  status_clear();
  s = gauges_read_csv(csv, &gauges, &ngauges);
  TAP_OK(s == HCL_EDATA && tap_contains(status_message(), ".csv:2: expected 'name,x,y'"),
         "a short CSV line is refused with file:line: %s", status_message());
  unlink(csv);
  free(gauges);
  for (int v = 0; v < 2; v++) {
    field_destroy(&fields[v]);
  }
  decomp_destroy(&decomp);
  runtime_destroy(&rt);
  int result = tap_done();
  par_finalize();
  return result;
}
