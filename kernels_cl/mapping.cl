/* SPDX-License-Identifier: BSD-3-Clause */
/* mapping.cl: the metric terms of a curvilinear horizontal grid (src/laplace/mapping.c, include/laplace/mapping.h;
 * fnpf-multigpu-scalability.txt eqs. 6-9) from the coordinates of its points.
 *
 * Kernels: metrics
 * Macros: REAL (the metric field's precision), RADIUS (order / 2), WIDTH (order + 1: the centred stencils), common.clh
 * Layout: xy holds x (plane 0) and y (plane 1) with ghost RADIUS, rows of pitch, planes of `plane`; the metric
 *   field m has its own ghost width (its owned (i, j) at mbase + j mpitch + i, planes of mplane). weights holds the
 *   centred first and second derivative weights on unit spacing, WIDTH each. */

/* The map's derivatives at one point. */
typedef struct {
  REAL xi, gamma, xixi, gammagamma, xigamma;
} Derivatives;

/* The derivatives along the index directions of the plane at element index at of the point (i, j). */
INLINE Derivatives derivatives(__global const REAL *f, const ulong at, const int pitch,
                               __constant const REAL *weights) {
  __constant const REAL *d1 = weights, *d2 = weights + WIDTH;
  Derivatives d = {0, 0, 0, 0, 0};
  for (int m = 0; m < WIDTH; m++) {
    const long along_i = m - RADIUS, along_j = (long)(m - RADIUS) * pitch;
    d.xi += d1[m] * f[at + along_i];
    d.gamma += d1[m] * f[at + along_j];
    d.xixi += d2[m] * f[at + along_i];
    d.gammagamma += d2[m] * f[at + along_j];
    REAL row = 0; /* the mixed derivative: d1 along i of d1 along j (their tensor product) */
    for (int n = 0; n < WIDTH; n++) {
      row += d1[n] * f[at + along_j + n - RADIUS];
    }
    d.xigamma += d1[m] * row;
  }
  return d;
}

/* Eqs. 7 and 8, g11, g12, g22, and L_xi, L_gamma from x_xi L_xi + x_gamma L_gamma = -(g11 x_xixi + 2 g12 x_xigamma
 * + g22 x_gammagamma) and its y counterpart, solved by the inverse Jacobian matrix (whose rows are grad xi and grad
 * gamma). */
__kernel void metrics(__global REAL *m, const ulong mbase, const int mpitch, const ulong mplane,
                      __global const REAL *xy, const int nx, const int ny, const int pitch, const ulong plane,
                      __constant const REAL *weights) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (OUTSIDE(i, j)) {
    return;
  }
  const ulong at = (ulong)(j + RADIUS) * pitch + i + RADIUS;
  const Derivatives x = derivatives(xy, at, pitch, weights), y = derivatives(xy + plane, at, pitch, weights);
  const REAL jacobian = x.xi * y.gamma - x.gamma * y.xi;
  const REAL xi_x = y.gamma / jacobian, xi_y = -x.gamma / jacobian;
  const REAL gamma_x = -y.xi / jacobian, gamma_y = x.xi / jacobian;
  const REAL g11 = xi_x * xi_x + xi_y * xi_y, g12 = xi_x * gamma_x + xi_y * gamma_y;
  const REAL g22 = gamma_x * gamma_x + gamma_y * gamma_y;
  const REAL rx = g11 * x.xixi + 2 * g12 * x.xigamma + g22 * x.gammagamma;
  const REAL ry = g11 * y.xixi + 2 * g12 * y.xigamma + g22 * y.gammagamma;
  const REAL values[10] = {
      xi_x, xi_y, gamma_x, gamma_y, g11, g12, g22, -(xi_x * rx + xi_y * ry), -(gamma_x * rx + gamma_y * ry), jacobian};
  const ulong out = mbase + (ulong)j * mpitch + i;
  for (int p = 0; p < 10; p++) {
    m[out + p * mplane] = values[p];
  }
}
