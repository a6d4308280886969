/* SPDX-License-Identifier: BSD-3-Clause */
/* test_fd.c: finite-difference weights (fd.h): Fornberg's algorithm against the classic formulas; every stencil of
 * orders 2 to 8, centred and off-centre, on uniform and stretched grids, reproduces the first and second derivatives
 * of polynomials up to its design degree; on uniform grids the error on a smooth function falls at the design
 * order under refinement; bad grids and orders are refused. */
#include <math.h>
#include <stdlib.h>

#include "fd.h"
#include "../support/tap.h"

/* x_i on [0, 1] for n points: uniform, or clustered towards 1 as sigma grids are towards the surface, by the
 * smooth map x = (1 - e^-u) / (1 - e^-1) (the spacing shrinks by e = 2.7 from end to end). */
static void grid(int n, bool stretched, double *x) {
  for (int i = 0; i < n; i++) {
    double u = (double)i / (n - 1);
    x[i] = stretched ? (1 - exp(-u)) / (1 - exp(-1.0)) : u;
  }
}

#define PI 3.14159265358979323846
#define WAVENUMBER (8 * PI) /* four wavelengths on [0, 1] */

static void classic_formulas(void) {
  const double x3[3] = {-1, 0, 1}, x5[5] = {-2, -1, 0, 1, 2};
  double w3[9], w5[15];
  HclStatus st = hcl_fd_weights(0, x3, 3, 2, w3);
  TAP_OK(st == HCL_OK && w3[3] == -0.5 && w3[4] == 0 && w3[5] == 0.5 && w3[6] == 1 && w3[7] == -2 && w3[8] == 1,
         "3 points: f' = (f1 - f-1) / 2, f'' = f-1 - 2 f0 + f1 (%g %g %g; %g %g %g)", w3[3], w3[4], w3[5], w3[6], w3[7],
         w3[8]);
  st = hcl_fd_weights(0, x5, 5, 2, w5);
  const double d1[5] = {1.0 / 12, -2.0 / 3, 0, 2.0 / 3, -1.0 / 12},
               d2[5] = {-1.0 / 12, 4.0 / 3, -2.5, 4.0 / 3, -1.0 / 12};
  double worst = 0;
  for (int j = 0; j < 5; j++) {
    worst = fmax(worst, fmax(fabs(w5[5 + j] - d1[j]), fabs(w5[10 + j] - d2[j])));
  }
  /* Exact in rational arithmetic; a few roundings of O(1) numbers. */
  TAP_OK(st == HCL_OK && worst < 1e-14, "5 points: the fourth-order formulas (%.1e)", worst);
}

/* Every stencil of the grid applied to (x - 0.3)^d for d = 0 .. order: the first and second derivatives exactly. */
static void polynomials(int order, bool stretched) {
  enum { N = 23 };
  double x[N], f[N];
  FdStencils s;
  grid(N, stretched, x);
  HclStatus st = hcl_fd_stencils_create(x, N, order, &s);
  double worst = 0;
  for (int d = 0; st == HCL_OK && d <= order; d++) {
    for (int i = 0; i < N; i++) {
      f[i] = pow(x[i] - 0.3, d);
    }
    for (int i = 0; i < N; i++) {
      double t = x[i] - 0.3;
      double want1 = d >= 1 ? d * pow(t, d - 1) : 0, want2 = d >= 2 ? d * (d - 1) * pow(t, d - 2) : 0;
      double got1 = 0, got2 = 0, size1 = 0, size2 = 0;
      for (int j = 0; j < s.width; j++) {
        double v = f[s.first[i] + j];
        got1 += s.d1[i * s.width + j] * v;
        got2 += s.d2[i * s.width + j] * v;
        size1 += fabs(s.d1[i * s.width + j] * v);
        size2 += fabs(s.d2[i * s.width + j] * v);
      }
      /* Relative to the terms summed: rounding in the weights (Fornberg's recursion over at most 9 nodes) and in
       * the sum, times the cancellation between terms; 1e-11 of them leaves 1e4 ulps for the recursion. */
      worst = fmax(worst, fmax(fabs(got1 - want1) / (size1 + 1e-300), fabs(got2 - want2) / (size2 + 1e-300)));
    }
  }
  TAP_OK(st == HCL_OK && worst < 1e-11,
         "order %d, %s grid: f' and f'' of every polynomial of degree <= %d exact at every point (%.1e of the terms)",
         order, stretched ? "stretched" : "uniform", order, worst);
  hcl_fd_stencils_free(&s);
}

/* On a uniform grid of n points, the largest error of f' and f'' for f = sin(k x + 0.3) over the interior points (centred stencils) and over the
 * points next to the ends (off-centre). */
static void errors(int n, int order, double interior[2], double edge[2]) {
  double *x = malloc(n * sizeof *x), *f = malloc(n * sizeof *f);
  FdStencils s;
  grid(n, false, x);
  for (int i = 0; i < n; i++) {
    f[i] = sin(WAVENUMBER * x[i] + 0.3);
  }
  hcl_fd_stencils_create(x, n, order, &s);
  interior[0] = interior[1] = edge[0] = edge[1] = 0;
  for (int i = 0; i < n; i++) {
    double got1 = 0, got2 = 0;
    for (int j = 0; j < s.width; j++) {
      got1 += s.d1[i * s.width + j] * f[s.first[i] + j];
      got2 += s.d2[i * s.width + j] * f[s.first[i] + j];
    }
    const double k = WAVENUMBER;
    double e1 = fabs(got1 - k * cos(k * x[i] + 0.3)), e2 = fabs(got2 + k * k * sin(k * x[i] + 0.3));
    double *into = i >= order / 2 && i < n - order / 2 ? interior : edge;
    into[0] = fmax(into[0], e1);
    into[1] = fmax(into[1], e2);
  }
  hcl_fd_stencils_free(&s);
  free(x);
  free(f);
}

/* Grids of 129 and 257 points (32 and 64 points per wavelength, k h = 0.2 and 0.1: in the asymptotic range, and
 * the eighth-order off-centre error of f'' at 257 points, about (k h)^7 k^2 = 6e-5, far above its rounding, 2e-16 /
 * h^2 times the weights' sum, below 1e-8): the slope of log error against log h. Centred stencils are of order r - 1 = order for both
 * derivatives, off-centre ones of order r - q (the paper's section 3) with r = order + 2 (fd.h): order + 1 for f',
 * order for f''. A slope more than 0.2 below the design order fails. */
static void convergence(int order) {
  double interior[2][2], edge[2][2];
  const int sizes[2] = {129, 257};
  for (int k = 0; k < 2; k++) {
    errors(sizes[k], order, interior[k], edge[k]);
  }
  double slope[4];
  for (int q = 0; q < 2; q++) {
    slope[q] = log(interior[0][q] / interior[1][q]) / log(2);
    slope[2 + q] = log(edge[0][q] / edge[1][q]) / log(2);
  }
  double slack = 0.2;
  TAP_OK(slope[0] >= order - slack && slope[1] >= order - slack && slope[2] >= order - slack &&
             slope[3] >= order - slack,
         "order %d, uniform grid: error slopes f' %.2f, f'' %.2f centred, %.2f, %.2f off-centre (errors %.1e, %.1e at "
         "257 points)",
         order, slope[0], slope[1], slope[2], slope[3], interior[1][0], interior[1][1]);
}

static void refusals(void) {
  double x[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8}, bad[5] = {0, 1, 1, 2, 3};
  FdStencils s;
  HclStatus st = hcl_fd_stencils_create(x, 9, 3, &s);
  TAP_OK(st == HCL_EDATA && tap_contains(hcl_status_message(), "allowed are 2, 4, 6 and 8"), "order 3 refused: %s",
         hcl_status_message());
  hcl_status_clear();
  st = hcl_fd_stencils_create(x, 9, 8, &s);
  TAP_OK(st == HCL_EDATA && tap_contains(hcl_status_message(), "need 10"), "9 points for order 8 refused: %s",
         hcl_status_message());
  hcl_status_clear();
  st = hcl_fd_stencils_create(bad, 5, 2, &s);
  TAP_OK(st == HCL_EDATA && tap_contains(hcl_status_message(), "not increasing"), "a repeated point refused: %s",
         hcl_status_message());
  hcl_status_clear();
}

int main(void) {
  classic_formulas();
  for (int order = 2; order <= FD_ORDER_MAX; order += 2) {
    for (int stretched = 0; stretched < 2; stretched++) {
      polynomials(order, stretched);
    }
    /* On uniform grids only: on the stretched one the off-centre stencils at its coarse end are still short of the
     * asymptotic range at these sizes (slopes 5.2, then 5.8 from 257 to 513 points at order 6, where order 8 meets
     * rounding); exactness on polynomials above is what fixes the weights there. */
    convergence(order);
  }
  refusals();
  return tap_done();
}
