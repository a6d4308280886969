/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_gridfile.c: structure-aware libFuzzer target of the potential-flow model's curvilinear grid file (grid.type
 * file: wave_case.c's read_points, check_points, check_cells and warn_smoothness over hcl_input_grid_shape and
 * hcl_input_read_grid). As in fuzz_netcdf, raw bytes into nc_open would fuzz netCDF-C and HDF5, so the bytes describe a
 * small file instead, which netCDF-C writes ("grid.nc" in the scratch folder), and the case that names it:
 *
 *   dimensions   (eta_rho, xi_rho) or (y, x), each of 1 to 12 points
 *   x, y         named x_rho and y_rho, x and y, or lon and lat (given by grid.x_variable and grid.y_variable), or
 *                one of them missing; of type double, float, int or short; over both dimensions, swapped, or one
 *   points       a rectangle, a ring around the origin (an O-grid), either mirrored (turning clockwise), a ring
 *                whose last angle repeats its first, or all at one point; then up to 8 points replaced by 0, NaN,
 *                +-inf, +-1e300, 1e10, their neighbour's point (a cell without area) or raw bytes
 *   attributes   a _FillValue of the type's default, or none
 *   the case     grid.periodic_x, grid.periodic_y, solver.order 2, 4 or 6, a flat bed 1 m deep
 *
 * wave_setup_from_case reads the case, and with it the grid. A refusal is a pass. Checked besides the sanitizers: an
 * accepted grid has the file's nx x ny points, every one finite and within the 1e9 m wave_case.c allows. */
#include <math.h>
#include <netcdf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casefile.h"
#include "model.h"
#include "caseload.h"
#include "fuzz_support.h"
#include "wave_case.h"

enum { SIDE_MAX = 12, SPOILS_MAX = 8 };

static const char *const dim_names[2][2] = {{"eta_rho", "xi_rho"}, {"y", "x"}};
static const char *const var_names[3][2] = {{"x_rho", "y_rho"}, {"x", "y"}, {"lon", "lat"}};
static const nc_type types[] = {NC_DOUBLE, NC_FLOAT, NC_INT, NC_SHORT};
#define COUNT(a) ((unsigned)(sizeof(a) / sizeof((a)[0])))

/* The points of the base shape, x fastest: a 10 m x 5 m rectangle, a ring from r = 1 to 3 m, mirrored or not, a
 * ring whose seam is closed twice, or one point. */
static void base_points(unsigned shape, int nx, int ny, double *x, double *y) {
  for (int j = 0; j < ny; j++) {
    for (int i = 0; i < nx; i++) {
      size_t p = (size_t)j * nx + i;
      double radius = 1 + 2.0 * i / (nx > 1 ? nx - 1 : 1), angle = 2 * 3.14159265358979323846 * j / ny;
      switch (shape) {
      case 0:
      case 1:
        x[p] = 10.0 * i / nx;
        y[p] = (shape == 0 ? 5.0 : -5.0) * j / ny;
        break;
      case 2:
      case 3:
        x[p] = radius * cos(angle);
        y[p] = (shape == 2 ? 1 : -1) * radius * sin(angle);
        break;
      case 4:
        angle = 2 * 3.14159265358979323846 * j / (ny > 1 ? ny - 1 : 1);
        x[p] = radius * cos(angle);
        y[p] = radius * sin(angle);
        break;
      default:
        x[p] = y[p] = 1;
      }
    }
  }
}

/* Replaces up to SPOILS_MAX values of x or y. */
static void spoil_points(FuzzBytes *b, int nx, int ny, double *x, double *y) {
  size_t n = (size_t)nx * ny;
  for (unsigned s = fuzz_take(b, SPOILS_MAX + 1); s > 0; s--) {
    size_t p = fuzz_take(b, (unsigned)n);
    double *a = fuzz_bool(b) ? x : y;
    switch (fuzz_take(b, 8)) {
    case 0:
      a[p] = 0;
      break;
    case 1:
      a[p] = NAN;
      break;
    case 2:
      a[p] = fuzz_bool(b) ? INFINITY : -INFINITY;
      break;
    case 3:
      a[p] = fuzz_bool(b) ? 1e300 : -1e300;
      break;
    case 4:
      a[p] = 1e10;
      break;
    case 5: /* the next point in x: the cells between them have no area */
      x[p] = x[(p + 1) % n];
      y[p] = y[(p + 1) % n];
      break;
    default:
      fuzz_raw(b, &a[p], sizeof a[p]);
    }
  }
}

/* Writes the described file; false where netCDF-C refuses it (the description is then left out of the run). */
static bool write_grid(FuzzBytes *b, const char *path, unsigned names, int *nx_out, int *ny_out) {
  double x[SIDE_MAX * SIDE_MAX], y[SIDE_MAX * SIDE_MAX];
  int ncid, dims[2], vars[2];
  unsigned dim_set = fuzz_take(b, 2), shape = fuzz_take(b, 6), missing = fuzz_take(b, 6);
  int ny = 1 + (int)fuzz_take(b, SIDE_MAX), nx = 1 + (int)fuzz_take(b, SIDE_MAX);
  base_points(shape, nx, ny, x, y);
  spoil_points(b, nx, ny, x, y);
  if (nc_create(path, NC_CLOBBER | NC_NETCDF4, &ncid) != NC_NOERR) {
    return false;
  }
  bool ok = nc_def_dim(ncid, dim_names[dim_set][0], (size_t)ny, &dims[0]) == NC_NOERR &&
            nc_def_dim(ncid, dim_names[dim_set][1], (size_t)nx, &dims[1]) == NC_NOERR;
  for (int a = 0; ok && a < 2; a++) {
    vars[a] = -1;
    if (missing == (unsigned)a + 1) { /* 1: no x, 2: no y */
      continue;
    }
    nc_type type = types[fuzz_take(b, COUNT(types))];
    int layout = (int)fuzz_take(b, 5); /* 0-2: (y, x); 3: swapped; 4: over x only */
    int order[2] = {dims[layout == 3 ? 1 : 0], dims[layout == 3 ? 0 : 1]};
    ok = nc_def_var(ncid, var_names[names][a], type, layout == 4 ? 1 : 2, layout == 4 ? &dims[1] : order, &vars[a]) ==
         NC_NOERR;
    if (ok && fuzz_bool(b)) {
      ok = nc_def_var_fill(ncid, vars[a], NC_FILL, NULL) == NC_NOERR;
    }
  }
  ok = ok && nc_enddef(ncid) == NC_NOERR;
  for (int a = 0; ok && a < 2; a++) {
    if (vars[a] >= 0 && fuzz_take(b, 8) != 0) { /* 1 in 8 left to its fill */
      /* values beyond an integer type's range are NC_ERANGE, the rest written: the file is read as it stands */
      (void)nc_put_var_double(ncid, vars[a], a == 0 ? x : y);
    }
  }
  ok = nc_close(ncid) == NC_NOERR && ok;
  *nx_out = nx;
  *ny_out = ny;
  return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzBytes b = {data, size};
  char path[600], yaml[1024];
  int nx = 0, ny = 0;
  unsigned names = fuzz_take(&b, COUNT(var_names));
  snprintf(path, sizeof path, "%s/grid.nc", fuzz_dir());
  if (!write_grid(&b, path, names, &nx, &ny)) {
    return 0;
  }
  static const int orders[] = {2, 4, 6};
  bool periodic_x = fuzz_bool(&b), periodic_y = fuzz_bool(&b);
  snprintf(yaml, sizeof yaml,
           "model: {name: potential-flow}\ngrid: {type: file, file: grid.nc, periodic_x: %s, periodic_y: %s%s}\n"
           "solver: {order: %d}\nbed: {depth: 1}\ntime: {end: 1, dt: 0.1}\n",
           periodic_x ? "true" : "false", periodic_y ? "true" : "false",
           names == 2 ? ", x_variable: lon, y_variable: lat" : "", orders[fuzz_take(&b, COUNT(orders))]);
  const char *hcl_case_path = fuzz_write("case.yml", (const uint8_t *)yaml, strlen(yaml));
  CaseSchema *schema = NULL;
  Case *c = NULL;
  FUZZ_CHECK(hcl_case_schema_create(&schema) == HCL_OK &&
                 hcl_model_schema(hcl_model_find("potential-flow"), schema) == HCL_OK,
             "the schema: %s", hcl_status_message());
  HclStatus status = hcl_case_load(hcl_case_schema_keys(schema), hcl_case_schema_count(schema), hcl_case_path, &c);
  FUZZ_CHECK(status == HCL_OK, "the fixed case does not load: %s\n%s", hcl_status_message(), yaml);
  hcl_case_adopt_schema(c, schema);
  status = hcl_case_finish(c);
  FUZZ_CHECK(status == HCL_OK, "the fixed case does not finish: %s\n%s", hcl_status_message(), yaml);
  WaveSetup setup;
  status = wave_setup_from_case(c, NULL, &setup);
  if (status == HCL_OK) {
    FUZZ_CHECK(setup.grid.nx == nx && setup.grid.ny == ny, "a grid of %d x %d from a file of %d x %d", setup.grid.nx,
               setup.grid.ny, nx, ny);
    for (size_t p = 0; p < (size_t)nx * ny; p++) {
      FUZZ_CHECK(fabs(setup.geometry.x[p]) <= 1e9 && fabs(setup.geometry.y[p]) <= 1e9, "point %zu at (%g, %g) m", p,
                 setup.geometry.x[p], setup.geometry.y[p]);
    }
  }
  fuzz_accept(status);
  wave_setup_free(&setup);
  hcl_case_destroy(&c);
  return 0;
}
