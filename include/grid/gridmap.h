/* SPDX-License-Identifier: BSD-3-Clause */
/* gridmap.h: the geometry of curvilinear horizontal grids on the host: a map from the grid's global index (i, j) to
 * the physical plane, (x, y) = X(i, j), the built-in maps (a skewed rectangle, the polar O-grid around a cylinder),
 * and the way back from a physical point to its fractional index (gauges). The metric terms the solvers need are
 * laplace/mapping.h's. The map is a function of the global index, defined beyond the grid as far as the stencils
 * reach: across a periodic side it continues the grid, across a wall it extends the grid smoothly. */
#ifndef HYDROCL_GRIDMAP_H
#define HYDROCL_GRIDMAP_H

#include <stdbool.h>

/* (x, y) [m] of global point (i, j), any i and j the stencils reach (ghosts included). */
typedef void (*MappingPoint)(const void *ctx, long i, long j, double *x, double *y);

typedef struct {
  MappingPoint point;
  const void *ctx;  /* borrowed */
  const char *name; /* for messages: "polar grid", "grid file basin.nc" (static or outliving the mapping) */
} Mapping;

/* A smooth non-orthogonal map of the rectangle [x0, x0 + lx] x [y0, y0 + ly] onto itself (the mapped basin of the
 * tests, the benchmark and cases): with u = i dx, v = j dy (dx = lx / (nx - 1) between walls, lx / nx periodic),
 *   x = x0 + u + sin(2 pi u / lx) (stretch + skew cos(2 pi v / ly)) lx / (2 pi),
 *   y = y0 + v + sin(2 pi v / ly) (stretch + skew cos(2 pi u / lx)) ly / (2 pi).
 * The spacing varies from 1 - stretch - skew to 1 + stretch + skew times the mean; the grid lines cross at right
 * angles on the sides and, on a square, up to asin(2 skew / (1 + skew^2)) from square inside (17 degrees at skew
 * 0.15). The sides map onto themselves, the map is its own mirror image across them (mirrored fields hold exactly)
 * and continues with period lx, ly. stretch + skew < 1 keeps it one-to-one. */
typedef struct {
  double x0, y0, lx, ly, dx, dy, stretch, skew;
} MappingRectangle;

void hcl_mapping_rectangle_point(const void *ctx, long i, long j, double *x, double *y); /* ctx: a MappingRectangle */

/* The O-grid around a bottom-mounted vertical cylinder of radius `radius` centred at (cx, cy), out to radius `outer`:
 * i along the radius (nr points, i = 0 on the cylinder: closed sides, the cylinder a wall), j along the angle
 * (ntheta points, periodic, theta_j = 2 pi j / ntheta anticlockwise from the +x direction), so that the map turns as x
 * and y do:
 *   r_i = radius + (outer - radius) (exp(stretching s) - 1) / (exp(stretching) - 1),  s = i / (nr - 1),
 * uniform in r when stretching is 0 (its limit), geometric when stretching = ln(outer / radius) (r_i = radius
 * (outer / radius)^s), whose cells are square everywhere when nr - 1 = ln(outer / radius) ntheta / (2 pi): the
 * conformal O-grid, the multigrid's best case. Beyond i = 0 and nr - 1 the same formula continues (for the
 * stencils' reach; it must stay positive). */
typedef struct {
  double cx, cy, radius, outer, stretching;
  int nr, ntheta;
} MappingPolar;

void hcl_mapping_polar_point(const void *ctx, long i, long j, double *x, double *y); /* ctx: a MappingPolar */
double hcl_mapping_polar_radius(const MappingPolar *polar, double i);                /* r at (fractional) index i */

/* A grid given by its points (a grid file): (x[j nx + i], y[j nx + i]) for the nx x ny points. Beyond a wall it
 * continues along each grid line by the polynomial through the line's first degree + 1 points from the wall (Lagrange
 * extrapolation), so that the metric terms keep the order of differences of that degree up to the wall; a periodic
 * direction closes on itself (an O-grid's angle: point n is point 0 again). n must exceed degree along a wall. */
typedef struct {
  int nx, ny;
  bool periodic_x, periodic_y;
  int degree;          /* of the extrapolation beyond walls: the solver's order */
  const double *x, *y; /* borrowed */
} MappingTable;

void hcl_mapping_table_point(const void *ctx, long i, long j, double *x, double *y); /* ctx: a MappingTable */

/* The sums over the block of nx x ny points from (i0, j0) of the distances to the next point along i and along j,
 * |X(i + 1, j) - X(i, j)| into sums[0] and |X(i, j + 1) - X(i, j)| into sums[1]: divided by the points, the mean
 * spacings. */
void hcl_mapping_spacing_sums(const Mapping *map, long i0, long j0, int nx, int ny, double sums[2]);

/* The largest g11 + g22 + 2 |g12| over the map's nx x ny points (second-order differences of the map, on the host):
 * pi^2 times it bounds the squared wavenumber the grid resolves, as pi^2 (1/dx^2 + 1/dy^2) does on a Cartesian grid
 * (the wave model's step limit). */
double hcl_mapping_largest_wavenumber2(const Mapping *map, int nx, int ny);

/* The fractional index (fi, fj) of the physical point (x, y) on the map's nx x ny grid: the cell (i, j)..(i + 1,
 * j + 1) whose bilinear image holds the point, and the point's bilinear coordinates in it (Newton's method), so that
 * fi = i + s, fj = j + t. A periodic direction wraps: its last cell joins point n - 1 to point 0 (fj then lies in
 * [ny - 1, ny)). False when no cell holds the point (it lies outside the grid). On the host; the nearest grid
 * point's four cells are tried first, then every cell. */
bool hcl_mapping_locate(const Mapping *map, int nx, int ny, bool periodic_x, bool periodic_y, double x, double y,
                        double *fi, double *fj);

#endif
