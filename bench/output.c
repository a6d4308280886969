/* SPDX-License-Identifier: BSD-3-Clause */
/* output.c: `hydrocl bench output`, one frame of the shallow-water map file (zeta, h, u, v as float32 and the wet
 * flag as bytes, deflated as a run writes them) of size x size cells (default 4096) split over the run's ranks,
 * written both ways the map writer has (mapfile.h): gathered to rank 0, which writes, and, where netCDF-C has
 * parallel I/O and there are several ranks, every rank writing its own block collectively. The fields hold a smooth
 * wave field with a dry quarter, so deflate meets data like a model's, not zeros.
 *
 * Reported per way: seconds to create the file and write the frame (the slowest rank's, the file closed and synced
 * to the page cache, as a run's frame is), "gbs" = the frame's bytes in storage / time, its fraction of the copy
 * rate measured in the same run, and the file's size after deflate. The file goes to $TMPDIR (default /tmp) and is
 * removed. */
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "mapfile.h"
#include "par.h"

enum { DEFAULT_SIDE = 4096, FIELDS = 5 };

static const OutputVariable frame_variables[FIELDS] = {
    {"zeta", "water_surface_height_above_reference_datum", "water level above the reference", "m", NULL, true},
    {"h", "sea_floor_depth_below_sea_surface", "total water depth", "m", NULL, false},
    {"u", "sea_water_x_velocity", "x velocity at cell centres", "m s-1", NULL, true},
    {"v", "sea_water_y_velocity", "y velocity at cell centres", "m s-1", NULL, true},
    {"wet", NULL, "wet flag (1 wet, 0 dry)", "1", "dry wet", false},
};

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Field k at global cell (i, j) of a side x side grid: a wave over 1 m of water, dry (missing) where i and j both
 * lie in the first quarter. */
static double value_at(int k, int i, int j, int side) {
  double x = (double)i / side, y = (double)j / side;
  bool dry = x < 0.25 && y < 0.25;
  double eta = 0.1 * sin(37.0 * x + 0.3) * cos(23.0 * y) + 0.02 * sin(401.0 * x * y);
  double values[FIELDS] = {eta, 1.0 + eta, 0.5 * cos(31.0 * x) * sin(17.0 * y), 0.4 * sin(29.0 * x + 11.0 * y), 1};
  return dry ? (k == 1 || k == 4 ? 0.0 : NAN) : values[k];
}

static HclStatus fill_fields(Field *const *fields, const Decomp *decomp, int side) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = hcl_decomp_local(decomp);
  double *host = NULL;
  TRY_ALLOC(host, (size_t)l->nx * l->ny);
  for (int k = 0; k < FIELDS; k++) {
    for (int j = 0; j < l->ny; j++) {
      for (int i = 0; i < l->nx; i++) {
        host[(size_t)j * l->nx + i] = value_at(k, l->x0 + i, l->y0 + j, side);
      }
    }
    TRY(hcl_field_write_owned(fields[k], host));
  }
cleanup:
  free(host);
  return status;
}

/* Creates path, writes one frame of fields and closes it: the slowest rank's seconds; the file's size. */
static HclStatus write_frame(const Decomp *decomp, const OutputSpec *spec, Field *const *fields, bool *collective,
                             double *seconds, double *file_bytes) {
  HclStatus status = HCL_OK;
  MapFile *map = NULL;
  struct stat info;
  TRY(hcl_par_barrier());
  double start = now();
  TRY(hcl_map_create(decomp, spec, frame_variables, FIELDS, &map));
  *collective = hcl_map_collective(map);
  TRY(hcl_map_write(map, 0.0, fields));
  hcl_map_close(&map);
  TRY(hcl_par_barrier());
  *seconds = now() - start;
  TRY(hcl_par_max_double(seconds));
  *file_bytes = hcl_par_rank() == 0 && stat(spec->path, &info) == 0 ? (double)info.st_size : 0.0;
  TRY(hcl_par_max_double(file_bytes));
cleanup:
  hcl_map_close(&map);
  return status;
}

static void print_result(const BenchRequest *request, int side, const Decomp *decomp, bool collective, double seconds,
                         double file_bytes, double copy_gbs) {
  const DecompLocal *l = hcl_decomp_local(decomp);
  double cells = (double)side * side, bytes = cells * (4.0 * 4 + 1); /* four float fields and the byte flag */
  JsonObject j;
  bench_json_begin(&j, request, "output", collective ? "map-frame-collective" : "map-frame-gathered", PRECISION_SINGLE);
  hcl_json_integer(&j, "size", side);
  hcl_json_integer(&j, "ranks", hcl_par_size());
  hcl_json_integer(&j, "px", l->px);
  hcl_json_integer(&j, "py", l->py);
  hcl_json_number(&j, "seconds", seconds);
  hcl_json_number(&j, "bytes", bytes);
  hcl_json_number(&j, "file_bytes", file_bytes);
  hcl_json_number(&j, "gbs", bytes / seconds * 1e-9);
  hcl_json_number(&j, "fraction_of_copy", bytes / seconds * 1e-9 / copy_gbs);
  hcl_json_number(&j, "copy_gbs", copy_gbs);
  hcl_json_print(&j, request->out);
}

static HclStatus run_side(const BenchRequest *request, int side) {
  HclStatus status = HCL_OK;
  Decomp *decomp = NULL;
  Field *fields[FIELDS] = {NULL};
  double copy_gbs = 0;
  char path[1024];
  const char *folder = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
  snprintf(path, sizeof path, "%s/hydrocl-bench-output-%d.nc", folder, (int)getpid());
  TRY(bench_copy_rate(request->rt, PRECISION_SINGLE, &copy_gbs));
  DecompSpec grid = {.nx = side, .ny = side};
  TRY(hcl_decomp_create(&grid, &decomp));
  for (int k = 0; k < FIELDS; k++) {
    FieldSpec fs = {.name = frame_variables[k].name, .nz = 1, .ghost = 0, .precision = PRECISION_SINGLE};
    TRY(hcl_field_create(request->rt, decomp, &fs, &fields[k]));
  }
  TRY(fill_fields(fields, decomp, side));
  OutputSpec spec = {.path = path, /* rank 0's names the file (hcl_map_create) */
                     .frame = {.title = "hydrocl bench output",
                               .source = "hydrocl bench",
                               .time_units = "seconds since 2000-01-01 00:00:00",
                               .dx = 1,
                               .dy = 1},
                     .overwrite = true,
                     .history = "hydrocl bench output",
                     .case_yaml = ""};
  for (int parallel = 0; parallel < 2; parallel++) {
    bool collective = false;
    double seconds = 0, file_bytes = 0;
    spec.parallel_write = parallel;
    if (parallel && !(hcl_map_can_write_collectively() && hcl_par_size() > 1)) {
      break; /* one way only: gathering is all this build or this single rank has */
    }
    TRY(write_frame(decomp, &spec, fields, &collective, &seconds, &file_bytes));
    if (hcl_par_rank() == 0) {
      print_result(request, side, decomp, collective, seconds, file_bytes, copy_gbs);
      unlink(path);
    }
  }
cleanup:
  for (int k = 0; k < FIELDS; k++) {
    hcl_field_destroy(&fields[k]);
  }
  hcl_decomp_destroy(&decomp);
  return status;
}

HclStatus bench_output(const BenchRequest *request) {
  HclStatus status = HCL_OK;
  int side = DEFAULT_SIDE;
  if (request->size) {
    TRY(bench_side(request, "output", &side));
  }
  TRY(run_side(request, side));
cleanup:
  return status;
}
