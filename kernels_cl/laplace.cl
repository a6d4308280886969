/* SPDX-License-Identifier: BSD-3-Clause */
/* laplace.cl: the high-order sigma-transformed Laplace operator of the potential-flow solver (src/laplace/laplace.c;
 * fnpf-gpu-model.txt eqs. 4-8): the column coefficients from eta and h, the defect f - A Phi and the product A Phi,
 * and the surface velocity w. The vector updates of the Krylov methods are blas1.cl's.
 *
 * Kernels: columns; defect_v, defect_o (f - A Phi), surface_v, surface_o (the right-hand side b), apply_o (A Phi);
 *   copy_plane, surface_w
 * Macros: REAL (the outer precision: Phi, eta, h), VREAL (the V-cycle's: the _v kernels write in it), RADIUS
 *   (order / 2, the ghost width of the REAL fields), WIDTH (order + 1: the centred horizontal stencils), VWIDTH (order
 *   + 2: the sigma stencils, fd.h), NZ (sigma points), VFIRST (the first node of each of the NZ + 1 nodes' sigma
 *   stencils, comma-separated: fd_stencils), CURVILINEAR (defined on a curvilinear horizontal grid, mapping.h: the
 *   horizontal stencils act along the index directions at unit spacing and the metric terms in col turn them into
 *   physical derivatives; undefined on a Cartesian grid, whose kernels carry no metric term), common.clh
 * Layout: REAL fields f[p][j][i] with ghost RADIUS: rows of pitch, planes of `plane`, owned (i, j) at
 *   (j + RADIUS) pitch + i + RADIUS; Phi's plane 0 is the ghost below the bottom, plane k + 1 sigma_k, plane nz the
 *   surface. The defect kernels write any layout (obase, opitch, oplane). col holds COL_PLANES 2D planes (COL_* below).
 *   horizontal: d1x, d2x, d1y, d2y, WIDTH weights each, scaled by the spacing (zero along a direction of one point;
 *   unscaled on a curvilinear grid).
 *   vertical: per node p = 0 .. nz, VSTRIDE values: VWIDTH weights of d/dsigma, VWIDTH of d2/dsigma2 on the nodes
 *   from vertical_first[p], sigma (fd.h: centred, shifted inside near the ends).
 * Spills on AMD (tools/kernels-offline, LLVM 15; budget exceptions, to be fixed): the column kernels keep the own
 *   column and the four neighbouring lines, NZ + 1 planes each, in registers (the plane loops unrolled), with the
 *   WIDTH-wide stencils, more than the 256 VGPRs a work-item addresses; fewer planes at once (a second pass over
 *   them) or the horizontal neighbours from local-memory tiles would fit. In double at every order:
 *   gfx90a spills: apply_o, defect_o, defect_v: 20 VGPRs at order 6 with nz 9, to 84 bytes of scratch.
 *   gfx940 spills: apply_o, defect_o, defect_v: the same.
 *   gfx1100 spills: apply_o, defect_o, defect_v, surface_o, surface_v: up to 850 VGPRs in double, 425 in float
 *   (wave32 code of LLVM 15). */

#define VSTRIDE (2 * VWIDTH + 1)
#define NP (NZ + 1) /* planes: the ghost below the bottom, the nz sigma nodes */

__constant int vertical_first[NP] = {VFIRST};

/* The loops over a column's planes are unrolled, so that Line's indices are constants and its values stay in
 * registers, up to 17 sigma points; a taller column would spill them anyway and takes minutes to compile unrolled. */
#if NZ <= 17
#define UNROLL_PLANES _Pragma("unroll")
#else
#define UNROLL_PLANES _Pragma("unroll 1")
#endif
#define COL_INV_D 0 /* 1/d, d = eta + h */
#define COL_AX 1    /* grad(sigma) = a + sigma b (eq. 5a): a = grad(h) / d */
#define COL_AY 2
#define COL_BX 3 /* b = -grad(d) / d */
#define COL_BY 4
#define COL_C 5 /* lap(sigma) = c + sigma e (eq. 5b) */
#define COL_E 6
#define COL_HX 7
#define COL_HY 8
#define COL_PLANES 9
#ifdef CURVILINEAR
/* The metric terms (mapping.h, its planes' order), written once at set-up after the coefficients above. */
#define COL_XI_X (COL_PLANES + 0)
#define COL_XI_Y (COL_PLANES + 1)
#define COL_GAMMA_X (COL_PLANES + 2)
#define COL_GAMMA_Y (COL_PLANES + 3)
#define COL_G11 (COL_PLANES + 4)
#define COL_G12 (COL_PLANES + 5)
#define COL_G22 (COL_PLANES + 6)
#define COL_L_XI (COL_PLANES + 7)
#define COL_L_GAMMA (COL_PLANES + 8)

typedef struct {
  REAL xi_x, xi_y, gamma_x, gamma_y, g11, g12, g22, l_xi, l_gamma;
} Metric;

INLINE Metric load_metric(__global const REAL *col, const ulong at, const ulong plane) {
  Metric g;
  g.xi_x = col[COL_XI_X * plane + at];
  g.xi_y = col[COL_XI_Y * plane + at];
  g.gamma_x = col[COL_GAMMA_X * plane + at];
  g.gamma_y = col[COL_GAMMA_Y * plane + at];
  g.g11 = col[COL_G11 * plane + at];
  g.g12 = col[COL_G12 * plane + at];
  g.g22 = col[COL_G22 * plane + at];
  g.l_xi = col[COL_L_XI * plane + at];
  g.l_gamma = col[COL_L_GAMMA * plane + at];
  return g;
}
#endif

#define AT(f, p, j, i) f[(ulong)(p)*plane + (ulong)((j) + RADIUS) * pitch + (i) + RADIUS]

/* sum_m w[m] f(i - RADIUS + m) along x (step 1) or y (step pitch), at element index at of the centre. */
INLINE REAL along(__global const REAL *f, const ulong at, const long step, __constant const REAL *w) {
  REAL sum = 0;
  for (int m = 0; m < WIDTH; m++) {
    sum += w[m] * f[at + (m - RADIUS) * step];
  }
  return sum;
}

/* The gradient and Laplacian of a 2D field at element index at: along x and y on a Cartesian grid; on a
 * curvilinear one from the derivatives along the index directions by mapping.h's eq. 6 and its second-order
 * counterpart, the mixed derivative by the tensor product of the first-derivative stencils. */
typedef struct {
  REAL x, y, lap;
} Slope;

INLINE Slope slope(__global const REAL *f, const ulong at, const int pitch, __constant const REAL *horizontal,
                   __global const REAL *col, const ulong plane) {
  __constant const REAL *d1x = horizontal, *d2x = d1x + WIDTH, *d1y = d2x + WIDTH, *d2y = d1y + WIDTH;
  Slope s;
#ifdef CURVILINEAR
  const Metric g = load_metric(col, at, plane);
  REAL mixed = 0;
  for (int b = 0; b < WIDTH; b++) {
    mixed += d1y[b] * along(f, at + (long)(b - RADIUS) * pitch, 1, d1x);
  }
  const REAL f_xi = along(f, at, 1, d1x), f_gamma = along(f, at, pitch, d1y);
  s.x = g.xi_x * f_xi + g.gamma_x * f_gamma;
  s.y = g.xi_y * f_xi + g.gamma_y * f_gamma;
  s.lap = g.g11 * along(f, at, 1, d2x) + 2 * g.g12 * mixed + g.g22 * along(f, at, pitch, d2y) + g.l_xi * f_xi +
          g.l_gamma * f_gamma;
#else
  s.x = along(f, at, 1, d1x);
  s.y = along(f, at, pitch, d1y);
  s.lap = along(f, at, 1, d2x) + along(f, at, pitch, d2y);
#endif
  return s;
}

/* The coefficients of eq. 5 from eta and h (2D, ghosts filled): with D = grad(d), lap(d) = lap(h) + lap(eta),
 *   grad(sigma) = grad(h)/d - sigma D/d,
 *   lap(sigma) = lap(h)/d - 2 grad(h).D/d^2 + sigma (2 |D|^2/d^2 - lap(d)/d)      (eq. 5b, rearranged in sigma).
 * depth receives d for the check that the water column is positive. */
__kernel void columns(__global REAL *col, __global REAL *depth, __global const REAL *eta, __global const REAL *h,
                      const int nx, const int ny, const int pitch, const ulong plane,
                      __constant const REAL *horizontal) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (OUTSIDE(i, j)) {
    return;
  }
  const ulong at = (ulong)(j + RADIUS) * pitch + i + RADIUS;
  const Slope sh = slope(h, at, pitch, horizontal, col, plane), se = slope(eta, at, pitch, horizontal, col, plane);
  const REAL hx = sh.x, hy = sh.y, lap_h = sh.lap;
  const REAL dx_ = hx + se.x, dy_ = hy + se.y, lap_d = lap_h + se.lap;
  /* a column that is not there (eta + h <= 0, or not finite) poisons its coefficients, so the solve that meets it
   * fails at its first residual, and laplace_solve finds it and says so (rather than reducing over the depths before
   * every solve) */
  const REAL d = h[at] + eta[at], inv_d = d > 0 ? 1 / d : (REAL)NAN;
  depth[at] = d;
  AT(col, COL_INV_D, j, i) = inv_d;
  AT(col, COL_AX, j, i) = hx * inv_d;
  AT(col, COL_AY, j, i) = hy * inv_d;
  AT(col, COL_BX, j, i) = -dx_ * inv_d;
  AT(col, COL_BY, j, i) = -dy_ * inv_d;
  AT(col, COL_C, j, i) = lap_h * inv_d - 2 * (hx * dx_ + hy * dy_) * inv_d * inv_d;
  AT(col, COL_E, j, i) = 2 * (dx_ * dx_ + dy_ * dy_) * inv_d * inv_d - lap_d * inv_d;
  AT(col, COL_HX, j, i) = hx;
  AT(col, COL_HY, j, i) = hy;
}

/* sum_n w[n] Phi(first + n) down the column at element index at (plane 0). */
INLINE REAL down(__global const REAL *phi, const ulong at, const ulong plane, const int first,
                 __constant const REAL *w) {
  REAL sum = 0;
  for (int n = 0; n < VWIDTH; n++) {
    sum += w[n] * phi[at + (ulong)(first + n) * plane];
  }
  return sum;
}

typedef struct {
  REAL inv_d, ax, ay, bx, by, c, e, hx, hy;
} Coefficients;

INLINE Coefficients load_coefficients(__global const REAL *col, const ulong at, const ulong plane) {
  Coefficients k;
  k.inv_d = col[COL_INV_D * plane + at];
  k.ax = col[COL_AX * plane + at];
  k.ay = col[COL_AY * plane + at];
  k.bx = col[COL_BX * plane + at];
  k.by = col[COL_BY * plane + at];
  k.c = col[COL_C * plane + at];
  k.e = col[COL_E * plane + at];
  k.hx = col[COL_HX * plane + at];
  k.hy = col[COL_HY * plane + at];
  return k;
}

/* A column's NP values, read once for all the rows that use them (in registers up to 17 sigma points:
 * UNROLL_PLANES). */
typedef struct {
  REAL at[NP];
} Line;

INLINE Line load_line(__global const REAL *f, const ulong at, const ulong plane) {
  Line l;
  UNROLL_PLANES
  for (int p = 0; p < NP; p++) {
    l.at[p] = f[at + (ulong)p * plane];
  }
  return l;
}

/* sum_n w[n] l(first + n), the sigma stencil of node p */
INLINE REAL line_down(const Line *l, const int p, __constant const REAL *w) {
  REAL sum = 0;
#pragma unroll
  for (int n = 0; n < VWIDTH; n++) {
    sum += w[n] * l->at[vertical_first[p] + n];
  }
  return sum;
}

#ifdef CURVILINEAR
/* Phi_x, Phi_y and Phi_xx + Phi_yy on every plane of the column at element index at (Phi zero below first_plane),
 * from the derivatives along the index directions (mapping.h): the centred stencils along i and j, then the mixed
 * derivative's tensor product of the first-derivative stencils (its centre row and column weigh zero, skipped),
 * then the metric terms, which are the same on every plane of a column. */
INLINE void horizontal_derivatives(__global const REAL *phi, const ulong at, const int pitch, const ulong plane,
                                   const int first_plane, const Metric g, __constant const REAL *horizontal,
                                   Line *phi_x, Line *phi_y, Line *lap) {
  __constant const REAL *d1x = horizontal, *d2x = d1x + WIDTH, *d1y = d2x + WIDTH, *d2y = d1y + WIDTH;
#pragma unroll
  for (int m = 0; m < WIDTH; m++) {
    const ulong west = at + (long)(m - RADIUS), south = at + (long)(m - RADIUS) * pitch;
    const REAL wxx = g.g11 * d2x[m], wyy = g.g22 * d2y[m];
    UNROLL_PLANES
    for (int q = 0; q < NP; q++) {
      const REAL fx = q < first_plane ? 0 : phi[west + (ulong)q * plane];
      const REAL fy = q < first_plane ? 0 : phi[south + (ulong)q * plane];
      phi_x->at[q] += d1x[m] * fx;
      phi_y->at[q] += d1y[m] * fy;
      lap->at[q] += wxx * fx + wyy * fy;
    }
  }
#pragma unroll
  for (int b = 0; b < WIDTH; b++) {
    if (b == RADIUS) {
      continue;
    }
#pragma unroll
    for (int a = 0; a < WIDTH; a++) {
      if (a == RADIUS) {
        continue;
      }
      const ulong corner = at + (long)(a - RADIUS) + (long)(b - RADIUS) * pitch;
      const REAL w = 2 * g.g12 * d1y[b] * d1x[a];
      UNROLL_PLANES
      for (int q = 0; q < NP; q++) {
        lap->at[q] += w * (q < first_plane ? 0 : phi[corner + (ulong)q * plane]);
      }
    }
  }
  UNROLL_PLANES
  for (int q = 0; q < NP; q++) {
    const REAL f_xi = phi_x->at[q], f_gamma = phi_y->at[q];
    lap->at[q] += g.l_xi * f_xi + g.l_gamma * f_gamma;
    phi_x->at[q] = g.xi_x * f_xi + g.gamma_x * f_gamma;
    phi_y->at[q] = g.xi_y * f_xi + g.gamma_y * f_gamma;
  }
}
#endif

/* (A Phi) in rows p = 0 .. nz - 1 of the column at element index at (plane 0), into ap: the bottom condition in the
 * ghost row (p = 0), eq. 4b at sigma_{p-1} for p >= 1, with Phi taken as zero below plane first_plane (0: all of
 * it; NZ: the surface values alone, whose image moved to the right-hand side is b). Phi's ghosts must be filled. The horizontal stencils are
 * summed first, plane by plane, as each of the 4 RADIUS + 1 columns is read once (Phi_x, Phi_y, Phi_xx + Phi_yy on
 * every plane); the mixed derivatives (eq. 8) are then the sigma stencils of Phi_x and Phi_y, which commute with
 * the horizontal ones. */
INLINE void apply_column(__global const REAL *phi, __global const REAL *col, const ulong at, const int pitch,
                         const ulong plane, const int first_plane, const Coefficients k,
                         __constant const REAL *horizontal, __constant const REAL *vertical, REAL *ap) {
  Line phi_x, phi_y, lap;
  UNROLL_PLANES
  for (int q = 0; q < NP; q++) {
    phi_x.at[q] = phi_y.at[q] = lap.at[q] = 0;
  }
#ifdef CURVILINEAR
  horizontal_derivatives(phi, at, pitch, plane, first_plane, load_metric(col, at, plane), horizontal, &phi_x, &phi_y,
                         &lap);
#else
  __constant const REAL *d1x = horizontal, *d2x = d1x + WIDTH, *d1y = d2x + WIDTH, *d2y = d1y + WIDTH;
#pragma unroll
  for (int m = 0; m < WIDTH; m++) {
    const ulong west = at + (long)(m - RADIUS), south = at + (long)(m - RADIUS) * pitch;
    UNROLL_PLANES
    for (int q = 0; q < NP; q++) {
      const REAL fx = q < first_plane ? 0 : phi[west + (ulong)q * plane];
      const REAL fy = q < first_plane ? 0 : phi[south + (ulong)q * plane];
      phi_x.at[q] += d1x[m] * fx;
      phi_y.at[q] += d1y[m] * fy;
      lap.at[q] += d2x[m] * fx + d2y[m] * fy;
    }
  }
#endif
  Line o = load_line(phi, at, plane);
  UNROLL_PLANES
  for (int q = 0; q < NP; q++) {
    o.at[q] = q < first_plane ? 0 : o.at[q];
  }
  /* row 0: (1/d + grad(h).grad(sigma)) Phi_s + grad(h).grad(Phi) at sigma = 0 (node 1), grad(sigma) = a */
  ap[0] = (k.inv_d + k.hx * k.ax + k.hy * k.ay) * line_down(&o, 1, vertical + VSTRIDE) + k.hx * phi_x.at[1] +
          k.hy * phi_y.at[1];
  UNROLL_PLANES
  for (int p = 1; p < NZ; p++) {
    __constant const REAL *v = vertical + p * VSTRIDE;
    const REAL sigma = v[2 * VWIDTH];
    const REAL sx = k.ax + sigma * k.bx, sy = k.ay + sigma * k.by, lap_sigma = k.c + sigma * k.e;
    const REAL phi_s = line_down(&o, p, v), phi_ss = line_down(&o, p, v + VWIDTH);
    const REAL phi_xs = line_down(&phi_x, p, v), phi_ys = line_down(&phi_y, p, v);
    ap[p] = lap.at[p] + lap_sigma * phi_s + 2 * (sx * phi_xs + sy * phi_ys) +
            (sx * sx + sy * sy + k.inv_d * k.inv_d) * phi_ss;
  }
}

/* f - A Phi in rows 0 .. nz - 1 of the column at element index at, into r (Phi zero below first_plane); f is the
 * source where has_source (plane 0 f_b, plane p f), else 0. */
INLINE void column_defect(__global const REAL *phi, __global const REAL *col, __global const REAL *source,
                          const int has_source, const ulong at, const int pitch, const ulong plane,
                          const int first_plane, __constant const REAL *horizontal, __constant const REAL *vertical,
                          REAL *r) {
  apply_column(phi, col, at, pitch, plane, first_plane, load_coefficients(col, at, plane), horizontal, vertical, r);
  UNROLL_PLANES
  for (int p = 0; p < NZ; p++) {
    r[p] = (has_source ? source[at + p * plane] : 0) - r[p];
  }
}

/* res = SIGN (f - A Phi) on every row, 0 in the Dirichlet row (p = nz), into any layout of type OUT (the V-cycle's
 * precision or Phi's: res's owned point (i, j) of plane p at obase + p oplane + j opitch + i, field.h's Span), Phi
 * taken as zero below first_plane (a constant in each kernel below, so that no branch divides the work-items: PoCL
 * then vectorizes across them, 2.5 times faster on a CPU). */
#define DEFECT_KERNEL(NAME, FIRST_PLANE, OUT, SIGN)                                                                    \
  __kernel void NAME(__global OUT *res, __global const REAL *phi, __global const REAL *col,                            \
                     __global const REAL *source, const int has_source, const int nx, const int ny, const int pitch,   \
                     const ulong plane, const ulong obase, const int opitch, const ulong oplane,                       \
                     __constant const REAL *horizontal, __constant const REAL *vertical) {                             \
    const int i = get_global_id(0), j = get_global_id(1);                                                              \
    if (OUTSIDE(i, j)) {                                                                                               \
      return;                                                                                                          \
    }                                                                                                                  \
    const ulong at = (ulong)(j + RADIUS) * pitch + i + RADIUS, out = obase + (ulong)j * opitch + i;                    \
    REAL r[NZ];                                                                                                        \
    column_defect(phi, col, source, has_source, at, pitch, plane, FIRST_PLANE, horizontal, vertical, r);               \
    UNROLL_PLANES                                                                                                      \
    for (int p = 0; p < NZ; p++) {                                                                                     \
      res[out + p * oplane] = (OUT)(SIGN r[p]);                                                                        \
    }                                                                                                                  \
    res[out + NZ * oplane] = 0;                                                                                        \
  }

/* The defect of Algorithm 1 line 4, in the V-cycle's precision (defect correction) and in Phi's (GMRES). */
DEFECT_KERNEL(defect_v, 0, VREAL, +)
DEFECT_KERNEL(defect_o, 0, REAL, +)
/* b, the right-hand side of the rows below the surface once the surface values are moved over (fnpf-gpu-model eq.
 * 9's b, "accounting for in-homogenous boundary conditions"): the defect of the surface values alone. */
DEFECT_KERNEL(surface_v, NZ, VREAL, +)
DEFECT_KERNEL(surface_o, NZ, REAL, +)
/* A Phi, no source: the operator's product (GMRES's Arnoldi vectors). */
DEFECT_KERNEL(apply_o, 0, REAL, -)

/* dst plane dst_p (this file's layout) = src plane 0 of a 2D field of the same precision with ghost src_ghost. */
__kernel void copy_plane(__global REAL *dst, const int dst_p, __global const REAL *src, const int src_pitch,
                         const int src_ghost, const int nx, const int ny, const int pitch, const ulong plane) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (OUTSIDE(i, j)) {
    return;
  }
  AT(dst, dst_p, j, i) = src[(ulong)(j + src_ghost) * src_pitch + i + src_ghost];
}

/* w = Phi_s / d at the surface (eq. 6: w = sigma_z Phi_s, sigma_z = 1/d). */
__kernel void surface_w(__global REAL *w, __global const REAL *phi, __global const REAL *col, const int nx,
                        const int ny, const int pitch, const ulong plane, const int nz,
                        __constant const REAL *vertical) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (OUTSIDE(i, j)) {
    return;
  }
  const ulong at = (ulong)(j + RADIUS) * pitch + i + RADIUS;
  w[at] = col[COL_INV_D * plane + at] * down(phi, at, plane, vertical_first[nz], vertical + nz * VSTRIDE);
}
