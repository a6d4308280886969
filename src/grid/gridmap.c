/* SPDX-License-Identifier: BSD-3-Clause */
/* gridmap.c: curvilinear grids' geometry on the host (see gridmap.h). */
#include "gridmap.h"

#include <math.h>
#include <stddef.h>

static const double PI = 3.14159265358979323846;

void hcl_mapping_spacing_sums(const Mapping *map, long i0, long j0, int nx, int ny, double sums[2]) {
  sums[0] = sums[1] = 0;
  for (long j = j0; j < j0 + ny; j++) {
    for (long i = i0; i < i0 + nx; i++) {
      double x, y, xe, ye, xn, yn;
      map->point(map->ctx, i, j, &x, &y);
      map->point(map->ctx, i + 1, j, &xe, &ye);
      map->point(map->ctx, i, j + 1, &xn, &yn);
      sums[0] += hypot(xe - x, ye - y);
      sums[1] += hypot(xn - x, yn - y);
    }
  }
}

double hcl_mapping_largest_wavenumber2(const Mapping *map, int nx, int ny) {
  double largest = 0;
  for (long j = 0; j < ny; j++) {
    for (long i = 0; i < nx; i++) {
      double xe, ye, xw, yw, xn, yn, xs, ys;
      map->point(map->ctx, i + 1, j, &xe, &ye);
      map->point(map->ctx, i - 1, j, &xw, &yw);
      map->point(map->ctx, i, j + 1, &xn, &yn);
      map->point(map->ctx, i, j - 1, &xs, &ys);
      double x_xi = 0.5 * (xe - xw), y_xi = 0.5 * (ye - yw), x_gamma = 0.5 * (xn - xs), y_gamma = 0.5 * (yn - ys);
      double jacobian = x_xi * y_gamma - x_gamma * y_xi;
      double g11 = (y_gamma * y_gamma + x_gamma * x_gamma) / (jacobian * jacobian);
      double g22 = (y_xi * y_xi + x_xi * x_xi) / (jacobian * jacobian);
      double g12 = -(y_gamma * y_xi + x_gamma * x_xi) / (jacobian * jacobian);
      largest = fmax(largest, g11 + g22 + 2 * fabs(g12));
    }
  }
  return largest;
}

/* The bilinear coordinates (s, t) of (x, y) in cell (i, j) by Newton's method from its middle; true when they lie in
 * the cell, [0, 1]^2 up to rounding. */
static bool locate_in_cell(const Mapping *map, long i, long j, double x, double y, double *s, double *t) {
  double cx[4], cy[4]; /* corners (i, j), (i + 1, j), (i, j + 1), (i + 1, j + 1) */
  for (int c = 0; c < 4; c++) {
    map->point(map->ctx, i + (c & 1), j + (c >> 1), &cx[c], &cy[c]);
  }
  double u = 0.5, v = 0.5;
  for (int iteration = 0; iteration < 30; iteration++) {
    double px = (1 - u) * (1 - v) * cx[0] + u * (1 - v) * cx[1] + (1 - u) * v * cx[2] + u * v * cx[3];
    double py = (1 - u) * (1 - v) * cy[0] + u * (1 - v) * cy[1] + (1 - u) * v * cy[2] + u * v * cy[3];
    double xu = (1 - v) * (cx[1] - cx[0]) + v * (cx[3] - cx[2]), xv = (1 - u) * (cx[2] - cx[0]) + u * (cx[3] - cx[1]);
    double yu = (1 - v) * (cy[1] - cy[0]) + v * (cy[3] - cy[2]), yv = (1 - u) * (cy[2] - cy[0]) + u * (cy[3] - cy[1]);
    double det = xu * yv - xv * yu;
    if (det == 0 || !isfinite(det)) {
      return false;
    }
    double du = ((x - px) * yv - (y - py) * xv) / det, dv = ((y - py) * xu - (x - px) * yu) / det;
    u += du;
    v += dv;
    if (fabs(du) + fabs(dv) < 1e-13) {
      break;
    }
  }
  const double slack = 1e-9;
  *s = fmin(fmax(u, 0), 1);
  *t = fmin(fmax(v, 0), 1);
  return u >= -slack && u <= 1 + slack && v >= -slack && v <= 1 + slack;
}

/* The cells of one direction of n points: n - 1 between walls, n when periodic (the last wraps). */
static long cells_along(int n, bool periodic) {
  return periodic ? n : n - 1;
}

static bool try_cell(const Mapping *map, long i, long j, long cells_x, long cells_y, double x, double y, double *fi,
                     double *fj) {
  double s, t;
  if (i < 0 || j < 0 || i >= cells_x || j >= cells_y || !locate_in_cell(map, i, j, x, y, &s, &t)) {
    return false;
  }
  *fi = (double)i + s;
  *fj = (double)j + t;
  return true;
}

bool hcl_mapping_locate(const Mapping *map, int nx, int ny, bool periodic_x, bool periodic_y, double x, double y,
                        double *fi, double *fj) {
  long cells_x = cells_along(nx, periodic_x), cells_y = cells_along(ny, periodic_y), near_i = 0, near_j = 0;
  double nearest = HUGE_VAL;
  for (long j = 0; j < ny; j++) {
    for (long i = 0; i < nx; i++) {
      double px, py;
      map->point(map->ctx, i, j, &px, &py);
      double d = hypot(px - x, py - y);
      if (d < nearest) {
        nearest = d;
        near_i = i;
        near_j = j;
      }
    }
  }
  for (int c = 0; c < 4; c++) {
    long i = near_i - (c & 1), j = near_j - (c >> 1);
    i = periodic_x && i < 0 ? i + nx : i;
    j = periodic_y && j < 0 ? j + ny : j;
    if (try_cell(map, i, j, cells_x, cells_y, x, y, fi, fj)) {
      return true;
    }
  }
  for (long j = 0; j < cells_y; j++) {
    for (long i = 0; i < cells_x; i++) {
      if (try_cell(map, i, j, cells_x, cells_y, x, y, fi, fj)) {
        return true;
      }
    }
  }
  return false;
}

void hcl_mapping_rectangle_point(const void *ctx, long i, long j, double *x, double *y) {
  const MappingRectangle *m = ctx;
  double u = i * m->dx, v = j * m->dy, kx = 2 * PI / m->lx, ky = 2 * PI / m->ly;
  *x = m->x0 + u + sin(kx * u) * (m->stretch + m->skew * cos(ky * v)) / kx;
  *y = m->y0 + v + sin(ky * v) * (m->stretch + m->skew * cos(kx * u)) / ky;
}

double hcl_mapping_polar_radius(const MappingPolar *m, double i) {
  double s = i / (m->nr - 1), b = m->stretching;
  double fraction = fabs(b) < 1e-12 ? s : expm1(b * s) / expm1(b);
  return m->radius + (m->outer - m->radius) * fraction;
}

void hcl_mapping_polar_point(const void *ctx, long i, long j, double *x, double *y) {
  const MappingPolar *m = ctx;
  double r = hcl_mapping_polar_radius(m, (double)i), theta = 2 * PI * (double)j / m->ntheta;
  *x = m->cx + r * cos(theta);
  *y = m->cy + r * sin(theta);
}

/* The weight of node m of the nodes 0..degree in the Lagrange polynomial's value at t. */
static double lagrange_weight(int degree, int m, double t) {
  double w = 1;
  for (int l = 0; l <= degree; l++) {
    w *= l == m ? 1 : (t - l) / (m - l);
  }
  return w;
}

/* A point of the table, continued beyond walls by extrapolation along the grid line and across periodic sides by
 * wrapping. */
void hcl_mapping_table_point(const void *ctx, long i, long j, double *x, double *y) {
  const MappingTable *m = ctx;
  bool beyond_x = (i < 0 || i >= m->nx) && !m->periodic_x, beyond_y = (j < 0 || j >= m->ny) && !m->periodic_y;
  if (beyond_x || beyond_y) { /* from the wall inwards: node q at index wall + q inward */
    long n = beyond_x ? m->nx : m->ny, at = beyond_x ? i : j, wall = at < 0 ? 0 : n - 1, inward = at < 0 ? 1 : -1;
    double t = (double)(at - wall) * inward, px, py;
    *x = *y = 0;
    for (int q = 0; q <= m->degree; q++) {
      long node = wall + inward * q;
      hcl_mapping_table_point(ctx, beyond_x ? node : i, beyond_x ? j : node, &px, &py);
      double w = lagrange_weight(m->degree, q, t);
      *x += w * px;
      *y += w * py;
    }
    return;
  }
  i = ((i % m->nx) + m->nx) % m->nx;
  j = ((j % m->ny) + m->ny) % m->ny;
  *x = m->x[(size_t)j * m->nx + i];
  *y = m->y[(size_t)j * m->nx + i];
}
