/* SPDX-License-Identifier: BSD-3-Clause */
/* wave.cl: the surface conditions and time stepping of the potential-flow wave model (src/wave/wave.c;
 * fnpf-gpu-model.txt eqs. 1a, 1b), the relaxation zones, the stability guard and the column velocities.
 *
 * Kernels: stage, energy_integrands, relax, guard, column_velocity, lagrange, extremes, smooth
 * Macros: REAL (the state's precision), RADIUS (order / 2: the ghost width of every field here), WIDTH (order + 1,
 *   the centred stencils), LINEAR (1: the linear surface conditions), VWIDTH (order + 2: the sigma stencils, fd.h),
 *   NZ (sigma points), VFIRST (the first node of each of the NZ + 1 nodes' sigma stencils), CURVILINEAR (defined on
 *   a curvilinear grid: d1 is then unscaled, along the index directions, and the kernels take the grid's planes,
 *   below), common.clh
 * Layout: 2D fields f[j][i] with ghost RADIUS, rows of pitch: owned (i, j) at (j + RADIUS) pitch + i + RADIUS; Phi
 *   (laplace.h) has NZ + 1 such planes of `plane` elements, plane 0 the ghost below the bottom. d1: the centred
 *   first-derivative weights along x, then along y, scaled by the spacing (zero along a direction of one point). */

#define AT(j, i) ((ulong)((j) + RADIUS) * pitch + (i) + RADIUS)
#define VSTRIDE (2 * VWIDTH + 1) /* a node's sigma stencils in laplace_sigma_stencils: d1, d2, sigma */

__constant int vertical_first[NZ + 1] = {VFIRST};

/* sum_m w[m] f(centre + (m - RADIUS) step): the centred first derivative along x (step 1) or y (step pitch). */
INLINE REAL along(__global const REAL *f, const ulong at, const long step, __constant const REAL *w) {
  REAL sum = 0;
  for (int m = 0; m < WIDTH; m++) {
    sum += w[m] * f[at + (m - RADIUS) * step];
  }
  return sum;
}

/* The horizontal gradient of a 2D plane at element index at. On a curvilinear grid the kernels take the grid's
 * planes (GRID_PARAMS: mapping.h's metric terms in its plane order, then the points' x and y, planes of gplane
 * elements in the 2D fields' layout) and the gradient is mapping.h's eq. 6 of the derivatives along the index
 * directions. */
#ifdef CURVILINEAR
#define GRID_PARAMS , __global const REAL *grid, const ulong gplane
#define GRID_PASS , grid, gplane
#define GRID_X 10
#define GRID_Y 11
INLINE REAL2 gradient(__global const REAL *f, const ulong at, const int pitch, __constant const REAL *d1 GRID_PARAMS) {
  const REAL f_xi = along(f, at, 1, d1), f_gamma = along(f, at, pitch, d1 + WIDTH);
  const REAL xi_x = grid[at], xi_y = grid[gplane + at], gamma_x = grid[2 * gplane + at];
  const REAL gamma_y = grid[3 * gplane + at];
  return (REAL2)(xi_x * f_xi + gamma_x * f_gamma, xi_y * f_xi + gamma_y * f_gamma);
}
#else
#define GRID_PARAMS
#define GRID_PASS
INLINE REAL2 gradient(__global const REAL *f, const ulong at, const int pitch, __constant const REAL *d1) {
  return (REAL2)(along(f, at, 1, d1), along(f, at, pitch, d1 + WIDTH));
}
#endif

/* The right-hand sides of eqs. 1a and 1b at one point (eta, phi ghosts filled; w the surface velocity there). */
INLINE void surface_rates(__global const REAL *eta, __global const REAL *phi, const REAL w, const ulong at,
                          const int pitch, const REAL g, __constant const REAL *d1 GRID_PARAMS, REAL *eta_t,
                          REAL *phi_t) {
#if LINEAR
  *eta_t = w;
  *phi_t = -g * eta[at];
#else
  const REAL2 grad_eta = gradient(eta, at, pitch, d1 GRID_PASS), grad_phi = gradient(phi, at, pitch, d1 GRID_PASS);
  const REAL ex = grad_eta.x, ey = grad_eta.y, px = grad_phi.x, py = grad_phi.y;
  const REAL slope = 1 + ex * ex + ey * ey;
  *eta_t = w * slope - (ex * px + ey * py);
  *phi_t = -g * eta[at] - (REAL)0.5 * (px * px + py * py - w * w * slope);
#endif
}

/* One ERK4 stage: k = F(eta, phi) at the stage's state, then
 *   kind 0 (the first stage):  acc = y + b_dt k,   next = y + a_dt k
 *   kind 1 (the middle ones):  acc += b_dt k,      next = y + a_dt k
 *   kind 2 (the last):         y = acc + b_dt k.
 * The first stage's state is y itself (eta, phi alias y_eta, y_phi; y is only written by the last stage, whose
 * state is another buffer). */
__kernel void stage(__global const REAL *eta, __global const REAL *phi, __global const REAL *w, __global REAL *y_eta,
                    __global REAL *y_phi, __global REAL *acc_eta, __global REAL *acc_phi, __global REAL *next_eta,
                    __global REAL *next_phi, const int nx, const int ny, const int pitch, const REAL g, const REAL b_dt,
                    const REAL a_dt, const int kind, __constant const REAL *d1 GRID_PARAMS) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (OUTSIDE(i, j)) {
    return;
  }
  const ulong at = AT(j, i);
  REAL eta_t, phi_t;
  surface_rates(eta, phi, w[at], at, pitch, g, d1 GRID_PASS, &eta_t, &phi_t);
  if (kind == 2) {
    y_eta[at] = acc_eta[at] + b_dt * eta_t;
    y_phi[at] = acc_phi[at] + b_dt * phi_t;
    return;
  }
  const REAL ye = y_eta[at], yp = y_phi[at];
  acc_eta[at] = (kind == 0 ? ye : acc_eta[at]) + b_dt * eta_t;
  acc_phi[at] = (kind == 0 ? yp : acc_phi[at]) + b_dt * phi_t;
  next_eta[at] = ye + a_dt * eta_t;
  next_phi[at] = yp + a_dt * phi_t;
}

/* The energy's integrands times each point's area: area eta_t (eq. 1a or its linear form) and area eta. */
__kernel void energy_integrands(__global REAL *area_eta_t, __global REAL *area_eta, __global const REAL *area,
                                __global const REAL *eta, __global const REAL *phi, __global const REAL *w,
                                const int nx, const int ny, const int pitch, const REAL g,
                                __constant const REAL *d1 GRID_PARAMS) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (OUTSIDE(i, j)) {
    return;
  }
  const ulong at = AT(j, i);
  REAL eta_t, phi_t;
  surface_rates(eta, phi, w[at], at, pitch, g, d1 GRID_PASS, &eta_t, &phi_t);
  area_eta_t[at] = area[at] * eta_t;
  area_eta[at] = area[at] * eta[at];
}

/* The filter along one direction (0: x, 1: y) of eta and phi, ghosts filled: out = sum_m w[m] in(at + (m - RADIUS)
 * step) with weights w along that direction (wave_filter). */
__kernel void smooth(__global const REAL *eta, __global const REAL *phi, __global REAL *eta_out, __global REAL *phi_out,
                     const int nx, const int ny, const int pitch, const int direction, __constant const REAL *weights) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (OUTSIDE(i, j)) {
    return;
  }
  const ulong at = AT(j, i);
  const long step = direction == 0 ? 1 : pitch;
  __constant const REAL *w = weights + direction * WIDTH;
  eta_out[at] = along(eta, at, step, w);
  phi_out[at] = along(phi, at, step, w);
}

/* The extremes of eta since tracking began (wave_track_extremes). */
__kernel void extremes(__global const REAL *eta, __global REAL *eta_max, __global REAL *eta_min, const int nx,
                       const int ny, const int pitch) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (OUTSIDE(i, j)) {
    return;
  }
  const ulong at = AT(j, i);
  eta_max[at] = fmax(eta_max[at], eta[at]);
  eta_min[at] = fmin(eta_min[at], eta[at]);
}

/* The relaxation zones: eta = G eta + (1 - G) eta_target and the same for phi, G = weight (1 outside every zone).
 * Where generate is 1 the target is the incident wave (wave.h) times the ramp; elsewhere rest (eta 0, phi the
 * wave's uniform potential ramp A t). components: per component kx, ky, omega, epsilon, E, P. */
__kernel void relax(__global REAL *y_eta, __global REAL *y_phi, __global const REAL *weight,
                    __global const REAL *generate, const int nx, const int ny, const int pitch, const int x_first,
                    const int y_first, const REAL x0, const REAL y0, const REAL dx, const REAL dy, const REAL t,
                    const REAL ramp, __global const REAL *components, const int ncomponents, const REAL current_x,
                    const REAL current_y, const REAL rate GRID_PARAMS) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (OUTSIDE(i, j)) {
    return;
  }
  const ulong at = AT(j, i);
  const REAL G = weight[at];
  if (G == 1) {
    return;
  }
  REAL eta_target = 0, phi_target = ramp * rate * t;
  if (generate[at] != 0) {
#ifdef CURVILINEAR
    const REAL x = grid[GRID_X * gplane + at], y = grid[GRID_Y * gplane + at];
#else
    const REAL x = x0 + (x_first + i) * dx, y = y0 + (y_first + j) * dy;
#endif
    REAL e = 0, p = current_x * x + current_y * y + rate * t;
    for (int c = 0; c < ncomponents; c++) {
      __global const REAL *k = components + 6 * c;
      const REAL psi = k[0] * x + k[1] * y - k[2] * t + k[3];
      e += k[4] * cos(psi);
      p += k[5] * sin(psi);
    }
    eta_target = ramp * e;
    phi_target = ramp * p;
  }
  y_eta[at] = G * y_eta[at] + (1 - G) * eta_target;
  y_phi[at] = G * y_phi[at] + (1 - G) * phi_target;
}

/* out = |eta| / h, NaN where eta or phi is not finite (0 * inf and 0 * NaN are NaN): the guard's measure. */
__kernel void guard(__global REAL *out, __global const REAL *eta, __global const REAL *phi, __global const REAL *h,
                    const int nx, const int ny, const int pitch) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (OUTSIDE(i, j)) {
    return;
  }
  const ulong at = AT(j, i);
  out[at] = fabs(eta[at]) / h[at] + 0 * phi[at];
}

/* u, v, w and z at the NZ sigma nodes of the listed columns (cols: i, j pairs), from Phi and the eta the solve used
 * (ghosts filled), h (ghosts mirrored): u = Phi_x + sigma_x Phi_s, v likewise, w = Phi_s / d, z = sigma d - h, with
 * sigma_x = ((1 - sigma) h_x - sigma eta_x) / d (eq. 5a). vertical: the Laplace solver's sigma stencils (VSTRIDE
 * per node p = 0 .. NZ, p = 0 the ghost: d/dsigma on the nodes from vertical_first[p], d2/dsigma2, sigma). out:
 * [column][NZ][4]. */
__kernel void column_velocity(__global REAL *out, __global const int *cols, const int ncolumns,
                              __global const REAL *Phi, __global const REAL *eta, __global const REAL *h,
                              const int pitch, const ulong plane, __constant const REAL *d1,
                              __global const REAL *vertical GRID_PARAMS) {
  const int c = get_global_id(0), k = get_global_id(1);
  if (c >= ncolumns || k >= NZ) {
    return;
  }
  const ulong at = AT(cols[2 * c + 1], cols[2 * c]);
  const REAL d = eta[at] + h[at];
  const REAL2 grad_h = gradient(h, at, pitch, d1 GRID_PASS), grad_eta = gradient(eta, at, pitch, d1 GRID_PASS);
  const REAL hx = grad_h.x, hy = grad_h.y, ex = grad_eta.x, ey = grad_eta.y;
  const int p = k + 1;
  __global const REAL *v = vertical + p * VSTRIDE;
  const REAL sigma = v[2 * VWIDTH];
  REAL phi_s = 0;
  for (int m = 0; m < VWIDTH; m++) {
    phi_s += v[m] * Phi[(vertical_first[p] + m) * plane + at];
  }
  const REAL sx = ((1 - sigma) * hx - sigma * ex) / d, sy = ((1 - sigma) * hy - sigma * ey) / d;
  __global REAL *o = out + 4 * ((ulong)c * NZ + k);
  o[0] = sigma * d - h[at];
  const REAL2 grad_phi = gradient(Phi + p * plane, at, pitch, d1 GRID_PASS);
  o[1] = grad_phi.x + sx * phi_s;
  o[2] = grad_phi.y + sy * phi_s;
  o[3] = phi_s / d;
}

/* out = sum_m c[m] in_m over n elements (m < count <= 3): the extrapolated initial guess of a solve. */
__kernel void lagrange(__global REAL *out, __global const REAL *a, __global const REAL *b, __global const REAL *c,
                       const REAL ca, const REAL cb, const REAL cc, const int count, const ulong n) {
  const ulong e = get_global_id(0);
  if (e >= n) {
    return;
  }
  REAL sum = ca * a[e];
  if (count > 1) {
    sum += cb * b[e];
  }
  if (count > 2) {
    sum += cc * c[e];
  }
  out[e] = sum;
}
