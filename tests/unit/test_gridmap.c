/* SPDX-License-Identifier: BSD-3-Clause */
/* test_gridmap.c: the host geometry of curvilinear grids (gridmap.h). hcl_mapping_locate finds the fractional index of
 * any point of the polar O-grid and of the mapped rectangle: the bilinear image of a fractional index (i + s, j + t)
 * locates back to it to 1e-9 (Newton's method to rounding; the tolerance allows for the cells' 1e-3 to 10 m size),
 * the closing cell of the periodic angle included; points inside the cylinder and beyond the outer edge are not
 * found. hcl_mapping_table_point continues a table of points beyond its walls by extrapolation along the grid lines:
 * exact for a grid whose points are polynomials of the index up to the degree (to rounding, 1e-12 of the extent), and
 * for the geometric O-grid close to the polar formula's own continuation (its truncation error). */
#include <math.h>
#include <stdlib.h>

#include "gridmap.h"
#include "../support/tap.h"

#define PI 3.14159265358979323846

/* The bilinear image of (i + s, j + t) in the map's cell (i, j), the last cell of a periodic direction wrapping. */
static void bilinear(const Mapping *map, long i, long j, double s, double t, double *x, double *y) {
  double cx[4], cy[4];
  for (int c = 0; c < 4; c++) {
    map->point(map->ctx, i + (c & 1), j + (c >> 1), &cx[c], &cy[c]);
  }
  *x = (1 - s) * (1 - t) * cx[0] + s * (1 - t) * cx[1] + (1 - s) * t * cx[2] + s * t * cx[3];
  *y = (1 - s) * (1 - t) * cy[0] + s * (1 - t) * cy[1] + (1 - s) * t * cy[2] + s * t * cy[3];
}

/* Fractional indices spread over every cell, located back from their images: the worst error in index units. */
static double round_trip(const Mapping *map, int nx, int ny, bool periodic_y, int *lost) {
  double worst = 0;
  *lost = 0;
  for (long j = 0; j < (periodic_y ? ny : ny - 1); j += 3) {
    for (long i = 0; i < nx - 1; i += 2) {
      double s = 0.1 + 0.8 * ((i * 7 + j * 3) % 11) / 10.0, t = 0.05 + 0.9 * ((i * 5 + j) % 13) / 12.0, x, y, fi, fj;
      bilinear(map, i, j, s, t, &x, &y);
      if (!hcl_mapping_locate(map, nx, ny, false, periodic_y, x, y, &fi, &fj)) {
        (*lost)++;
        continue;
      }
      worst = fmax(worst, fmax(fabs(fi - (i + s)), fabs(fj - (j + t))));
    }
  }
  return worst;
}

static void locate_polar(void) {
  MappingPolar polar = {.cx = 1,
                        .cy = -2,
                        .radius = 0.1625,
                        .outer = 11.0825,
                        .stretching = log(11.0825 / 0.1625),
                        .nr = 45,
                        .ntheta = 64};
  Mapping map = {hcl_mapping_polar_point, &polar, "polar grid"};
  int lost;
  double worst = round_trip(&map, 45, 64, true, &lost);
  TAP_OK(lost == 0 && worst < 1e-9,
         "polar O-grid: every point of every cell, the periodic seam's too, locates back "
         "to its index (worst %.2g, %d lost)",
         worst, lost);
  double fi, fj;
  bool inside = hcl_mapping_locate(&map, 45, 64, false, true, 1.05, -2, &fi, &fj);
  bool beyond = hcl_mapping_locate(&map, 45, 64, false, true, 1 + 12, -2, &fi, &fj);
  TAP_OK(!inside && !beyond, "a point inside the cylinder and one beyond the outer edge are not found");
  bool wall = hcl_mapping_locate(&map, 45, 64, false, true, 1 + 0.1625 * cos(2 * PI * 63 / 64),
                                 -2 + 0.1625 * sin(2 * PI * 63 / 64), &fi, &fj);
  TAP_OK(wall && fabs(fi) < 1e-9 && fabs(fj - 63) < 1e-9, "a point of the wall is its own index (%g, %g)", fi, fj);
}

static void locate_rectangle(void) {
  MappingRectangle rect = {
      .x0 = -3, .y0 = 5, .lx = 2, .ly = 1, .dx = 2.0 / 32, .dy = 1.0 / 16, .stretch = 0.1, .skew = 0.15};
  Mapping map = {hcl_mapping_rectangle_point, &rect, "mapped rectangle"};
  int lost;
  double worst = round_trip(&map, 33, 17, false, &lost);
  TAP_OK(lost == 0 && worst < 1e-9, "mapped rectangle: every cell's points locate back (worst %.2g, %d lost)", worst,
         lost);
}

/* The table of a map's points, nx x ny, into x, y. */
static void tabulate(const Mapping *map, int nx, int ny, double *x, double *y) {
  for (int j = 0; j < ny; j++) {
    for (int i = 0; i < nx; i++) {
      map->point(map->ctx, i, j, &x[j * nx + i], &y[j * nx + i]);
    }
  }
}

/* A map whose points are cubic in i and quadratic in j. */
static void polynomial_point(const void *ctx, long i, long j, double *x, double *y) {
  (void)ctx;
  double u = (double)i, v = (double)j;
  *x = 0.5 * u + 0.01 * u * u * u - 0.02 * v * v + 0.003 * u * v;
  *y = v + 0.004 * u * u + 0.01 * v * v;
}

/* The sum of |Lagrange weights| of nodes 0..degree at t: how much extrapolation there amplifies rounding. */
static double amplification(int degree, double t) {
  double sum = 0;
  for (int m = 0; m <= degree; m++) {
    double w = 1;
    for (int l = 0; l <= degree; l++) {
      w *= l == m ? 1 : (t - l) / (m - l);
    }
    sum += fabs(w);
  }
  return sum;
}

static void table_extension(void) {
  enum { NX = 12, NY = 10 };
  double x[NX * NY], y[NX * NY], worst = 0, largest = 0;
  Mapping exact = {polynomial_point, NULL, "polynomial"};
  tabulate(&exact, NX, NY, x, y);
  MappingTable table = {NX, NY, false, false, 6, x, y};
  for (long j = -4; j < NY + 4; j++) {
    for (long i = -4; i < NX + 4; i++) {
      double tx, ty, ex, ey;
      hcl_mapping_table_point(&table, i, j, &tx, &ty);
      polynomial_point(NULL, i, j, &ex, &ey);
      worst = fmax(worst, hypot(tx - ex, ty - ey));
      largest = fmax(largest, hypot(ex, ey));
    }
  }
  /* exact but for rounding, amplified by the weights four points out (1716 at degree 6), squared at the corners */
  double a = amplification(6, -4), bound = 4 * 2.2e-16 * largest * a * a;
  TAP_OK(worst < bound,
         "a table of cubic points continues exactly beyond its four walls and corners (%.2g, rounding "
         "bound %.2g)",
         worst, bound);

  MappingPolar polar = {
      .radius = 0.1625, .outer = 11.0825, .stretching = log(11.0825 / 0.1625), .nr = 23, .ntheta = 32};
  Mapping ring = {hcl_mapping_polar_point, &polar, "polar grid"};
  double *px = malloc(sizeof *px * 23 * 32), *py = malloc(sizeof *py * 23 * 32);
  tabulate(&ring, 23, 32, px, py);
  MappingTable o_grid = {23, 32, false, true, 6, px, py};
  double inner = 0, seam = 0;
  for (long k = 1; k <= 3; k++) { /* three points inside the wall, against the formula's own continuation */
    double tx, ty, ex, ey;
    hcl_mapping_table_point(&o_grid, -k, 5, &tx, &ty);
    hcl_mapping_polar_point(&polar, -k, 5, &ex, &ey);
    inner = fmax(inner, hypot(tx - ex, ty - ey) / (hcl_mapping_polar_radius(&polar, 1) - polar.radius));
    hcl_mapping_table_point(&o_grid, 4, 32 + k - 1, &tx, &ty);
    hcl_mapping_polar_point(&polar, 4, k - 1, &ex, &ey);
    seam = fmax(seam, hypot(tx - ex, ty - ey));
  }
  /* geometric radii extrapolated by a sixth-degree polynomial: the error is the 7th difference of a q^i, q = 1.21,
   * times its Lagrange factor, about 1e-3 of the first spacing at 3 points out */
  TAP_OK(inner < 1e-2 && seam == 0,
         "an O-grid table continues inside the cylinder within %.2g of its first spacing "
         "and wraps its angle exactly",
         inner);
  free(px);
  free(py);
}

int main(void) {
  locate_polar();
  locate_rectangle();
  table_extension();
  return tap_done();
}
