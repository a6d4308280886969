/* SPDX-License-Identifier: BSD-3-Clause */
/* multigrid.cl: the multigrid preconditioner of the potential-flow Laplace solver (src/laplace/mg.c): the
 * second-order discretization of the linearized sigma-transformed Laplace operator (eta = 0, so d = h;
 * fnpf-gpu-model.txt section 4), zebra-line Gauss-Seidel with the modified Thomas algorithm (eqs. 11-14),
 * full-weighting restriction and linear prolongation.
 *
 * Kernels: level_columns, smooth, smooth_level, residual_low, restrict_residual, prolong_add, vcycle_tail
 * Macros: REAL (the V-cycle's precision), NZ_MAX (the finest level's nz), MIRROR_* (mirror.h's side bits),
 *   CURVILINEAR (defined on a curvilinear grid: below), common.clh
 * Layout: 3D fields f[p][j][i], p = 0 the ghost plane below the bottom, p = k + 1 sigma_k (k = 0 .. nz - 1, the
 *   surface p = nz), rows of pitch elements, planes of `plane` elements, owned (i, j) at (j + g) pitch + i + g
 *   for a level's ghost width g: the kernels take `origin` = (g - 1) (pitch + 1) and move their pointers by it, so
 *   that AT's ghost width 1 addresses the field (mg.c: wider ghosts on several ranks). col holds four 2D planes per column: 1/h, h_x, h_y, lap(h). vertical holds VERT_STRIDE values
 *   per node p: the 3-point weights of d/dsigma and d2/dsigma2 on nodes p - 1, p, p + 1, and sigma.
 * Closed sides: `walls` holds mirror.h's MIRROR_* bits of this rank's sides; the kernels read across them the mirror
 *   image (f(-1) = f(1), f(n) = f(n - 2); one point: itself), so the V-cycle fills no ghosts there; ghosts towards
 *   other ranks and across periodic sides come from the halo.
 *
 * The linearized operator at eta = 0 (laplace.h, fnpf-gpu-model eq. 5 with d = h): with s = 1 - sigma,
 *   sigma_x = s h_x / h, lap(sigma) = s (lap(h) / h - 2 |grad h|^2 / h^2), and in row p >= 1
 *   (M u)_p = u_xx + u_yy + lap(sigma) u_s + 2 (sigma_x u_xs + sigma_y u_ys) + (|grad sigma|^2 + 1 / h^2) u_ss,
 *   and in the ghost row (the bottom condition) (M u)_0 = (1 + |grad h|^2) / h u_s + h_x u_x + h_y u_y at sigma = 0;
 *   centred differences everywhere. u is 0 at the surface (a correction to Dirichlet data).
 *
 * On a curvilinear grid (mapping.h) the differences act along the index directions at unit spacing: u_xx + u_yy
 *   = g11 u_xixi + g22 u_gammagamma + L_xi u_xi + L_gamma u_gamma (the term 2 g12 u_xigamma left out: mg.h), and
 *   grad(sigma) . grad(u_s) = s / h (h^xi u_xis + h^gamma u_gammas), h_x u_x + h_y u_y = h^xi u_xi + h^gamma u_gamma
 *   with h^xi = grad h . grad xi and h^gamma = grad h . grad gamma; col holds nine planes per column: 1/h, h^xi,
 *   h^gamma, lap(h), |grad h|^2, g11, g22, L_xi, L_gamma, from the level's depth and metric terms (level_columns).
 *   The spacing arguments idx2 .. i2dy are then unused.
 * Spills on AMD (tools/kernels-offline, LLVM 15; budget exceptions): in double on gfx1100 (wave32) the one-work-group
 *   coarse-level kernels and the residual hold a column's lines (NZ_MAX planes unrolled) beyond its registers:
 *   gfx1100 spills: smooth_level, vcycle_tail, residual_low: 14 to 66 VGPRs, to at most 108 bytes of scratch.
 *   In float they spill SGPRs into VGPR lanes (no memory) on every AMD target: the kernel arguments and the vertical
 *   weights hoisted out of the sweep loops. smooth_level and vcycle_tail run one work-group (the coarse levels),
 *   where the launch sets the time; the zebra sweep of the fine levels, smooth, does not spill. */

#define VERT_STRIDE 8 /* w1[3], w2[3], sigma, unused */

/* Signed: on a wide level, a kernel reaches ghosts beyond the first (origin moves the pointer past them). */
#define AT(f, p, j, i) f[(long)(p) * (long)plane + (long)((j) + 1) * pitch + (i) + 1]

/* A work-item beyond its launch's box (first i, first j, end i, end j): as OUTSIDE, none on CPUs. */
#if EXACT_GRID
#define BOX_OUTSIDE(i, j, box) false
#else
#define BOX_OUTSIDE(i, j, box) ((i) >= (box).z || (j) >= (box).w)
#endif

/* The local index read for index i in [-1, n] along a direction of n local points: i itself, or across a closed
 * side its mirror image. */
INLINE int mirrored(const int i, const int n, const int walls, const int low, const int high, const int single) {
  if (walls & single) {
    return 0;
  }
  if (i < 0 && (walls & low)) {
    return -i;
  }
  if (i >= n && (walls & high)) {
    return 2 * (n - 1) - i;
  }
  return i;
}

/* The four neighbouring columns of (i, j), mirrored across closed sides. */
typedef struct {
  int w, e, s, n;
} Around;

INLINE Around around(const int i, const int j, const int nx, const int ny, const int walls) {
  Around a;
  a.w = mirrored(i - 1, nx, walls, MIRROR_WEST, MIRROR_EAST, MIRROR_SINGLE_X);
  a.e = mirrored(i + 1, nx, walls, MIRROR_WEST, MIRROR_EAST, MIRROR_SINGLE_X);
  a.s = mirrored(j - 1, ny, walls, MIRROR_SOUTH, MIRROR_NORTH, MIRROR_SINGLE_Y);
  a.n = mirrored(j + 1, ny, walls, MIRROR_SOUTH, MIRROR_NORTH, MIRROR_SINGLE_Y);
  return a;
}

#ifdef CURVILINEAR
/* hx, hy: h^xi and h^gamma (grad h . grad xi, grad h . grad gamma); the horizontal difference weights per column */
typedef struct {
  REAL inv_h, hx, hy, lap_h, grad_h2, g11, g22, l_xi, l_gamma;
} Column;

INLINE Column load_column(__global const REAL *col, const int i, const int j, const int pitch, const ulong plane) {
  Column c;
  c.inv_h = AT(col, 0, j, i);
  c.hx = AT(col, 1, j, i);
  c.hy = AT(col, 2, j, i);
  c.lap_h = AT(col, 3, j, i);
  c.grad_h2 = AT(col, 4, j, i);
  c.g11 = AT(col, 5, j, i);
  c.g22 = AT(col, 6, j, i);
  c.l_xi = AT(col, 7, j, i);
  c.l_gamma = AT(col, 8, j, i);
  return c;
}

/* The horizontal second differences' weights of the column: g11 and g22 on a curvilinear grid, the uniform 1/dx^2
 * and 1/dy^2 on a Cartesian one; the first differences' (1/2 on unit spacing, 1/(2 dx) on a Cartesian grid). */
#define WEIGHT_XX(c, idx2) (c).g11
#define WEIGHT_YY(c, idy2) (c).g22
#define HALF_X(i2dx) ((REAL)0.5f)
#define HALF_Y(i2dy) ((REAL)0.5f)
#else
typedef struct {
  REAL inv_h, hx, hy, lap_h;
} Column;

INLINE Column load_column(__global const REAL *col, const int i, const int j, const int pitch, const ulong plane) {
  Column c;
  c.inv_h = AT(col, 0, j, i);
  c.hx = AT(col, 1, j, i);
  c.hy = AT(col, 2, j, i);
  c.lap_h = AT(col, 3, j, i);
  return c;
}

#define WEIGHT_XX(c, idx2) (idx2)
#define WEIGHT_YY(c, idy2) (idy2)
#define HALF_X(i2dx) (i2dx)
#define HALF_Y(i2dy) (i2dy)
#endif

/* The coefficients of row p >= 1 at sigma: lap(sigma) and |grad sigma|^2 + 1/h^2, and 2 grad(sigma) (on a
 * curvilinear grid its components along grad xi and grad gamma). */
typedef struct {
  REAL lap_sigma, square, two_sx, two_sy;
} Row;

INLINE Row row_at(const Column c, const REAL sigma) {
  const REAL s = 1 - sigma, sx = s * c.hx * c.inv_h, sy = s * c.hy * c.inv_h;
  Row r;
#ifdef CURVILINEAR
  r.lap_sigma = s * (c.lap_h * c.inv_h - 2 * c.grad_h2 * c.inv_h * c.inv_h);
  r.square = s * s * c.grad_h2 * c.inv_h * c.inv_h + c.inv_h * c.inv_h;
#else
  r.lap_sigma = s * (c.lap_h * c.inv_h - 2 * (c.hx * c.hx + c.hy * c.hy) * c.inv_h * c.inv_h);
  r.square = sx * sx + sy * sy + c.inv_h * c.inv_h;
#endif
  r.two_sx = 2 * sx;
  r.two_sy = 2 * sy;
  return r;
}

/* The bottom condition's factor of u_s: 1/h + grad(h) . grad(sigma) at sigma = 0. */
INLINE REAL bottom_factor(const Column c) {
#ifdef CURVILINEAR
  return (1 + c.grad_h2) * c.inv_h;
#else
  return (1 + c.hx * c.hx + c.hy * c.hy) * c.inv_h;
#endif
}

/* A column's values on planes 0 .. nz, loaded once for all the rows that use them (zero: all taken as 0, for a first
 * half-sweep, or across a direction of one point, whose weights are 0 and whose values need not be read). Up to 17
 * sigma points the plane loops are unrolled to NZ_MAX and guarded by nz, so the indices are constants and the values
 * stay in registers; a taller column would spill them anyway and takes minutes to compile unrolled. */
#if NZ_MAX <= 17
#define UNROLL_PLANES _Pragma("unroll")
#else
#define UNROLL_PLANES _Pragma("unroll 1")
#endif

typedef struct {
  REAL at[NZ_MAX + 1];
} Line;

INLINE Line load_line(__global const REAL *u, const int i, const int j, const int pitch, const ulong plane,
                      const int nz, const bool zero) {
  Line l;
  UNROLL_PLANES
  for (int p = 0; p <= NZ_MAX; p++) {
    l.at[p] = p < nz && !zero ? AT(u, p, j, i) : 0; /* u (a correction) is 0 at the surface, p = nz */
  }
  return l;
}

/* The coupling of row p to the neighbouring columns (w, e, s, n): what moves to the right-hand side of the line
 * solve. */
INLINE REAL neighbours(const Line *w, const Line *e, const Line *s, const Line *n, const int p, const Column c,
                       __constant const REAL *vertical, const REAL idx2, const REAL idy2, const REAL i2dx,
                       const REAL i2dy) {
  if (p == 0) { /* h_x u_x + h_y u_y at sigma = 0 (node 1) */
    return c.hx * HALF_X(i2dx) * (e->at[1] - w->at[1]) + c.hy * HALF_Y(i2dy) * (n->at[1] - s->at[1]);
  }
  __constant const REAL *v = vertical + p * VERT_STRIDE;
  const Row r = row_at(c, v[6]);
  REAL xs = 0, ys = 0;
#pragma unroll
  for (int q = 0; q < 3; q++) {
    xs += v[q] * (e->at[p - 1 + q] - w->at[p - 1 + q]);
    ys += v[q] * (n->at[p - 1 + q] - s->at[p - 1 + q]);
  }
  const REAL coupling = (e->at[p] + w->at[p]) * WEIGHT_XX(c, idx2) + (n->at[p] + s->at[p]) * WEIGHT_YY(c, idy2) +
                        r.two_sx * HALF_X(i2dx) * xs + r.two_sy * HALF_Y(i2dy) * ys;
#ifdef CURVILINEAR
  return coupling + (c.l_xi * (e->at[p] - w->at[p]) + c.l_gamma * (n->at[p] - s->at[p])) * 0.5f;
#else
  return coupling;
#endif
}

/* The own-column part of row p: the line system's row. */
INLINE REAL own_column(const Line *o, const int p, const Column c, __constant const REAL *vertical, const REAL idx2,
                       const REAL idy2) {
  if (p == 0) {
    __constant const REAL *v = vertical + VERT_STRIDE; /* d/dsigma at node 1 */
    return bottom_factor(c) * (v[0] * o->at[0] + v[1] * o->at[1] + v[2] * o->at[2]);
  }
  __constant const REAL *v = vertical + p * VERT_STRIDE;
  const Row r = row_at(c, v[6]);
  REAL sum = -2 * (WEIGHT_XX(c, idx2) + WEIGHT_YY(c, idy2)) * o->at[p];
#pragma unroll
  for (int q = 0; q < 3; q++) {
    sum += (r.lap_sigma * v[q] + r.square * v[3 + q]) * o->at[p - 1 + q];
  }
  return sum;
}

#ifdef CURVILINEAR
/* col from the level's depth h (ghosts filled) and the metric terms of its grid (mapping.h's planes, ghost width 1):
 * the derivatives of h along the index directions by centred differences (the mixed one by the four corners), then
 * mapping.h's eq. 6 and Laplacian. */
__kernel void level_columns(__global REAL *col, __global const REAL *h, __global const REAL *metric, const int nx,
                            const int ny, const int pitch, const ulong plane, const int origin, const REAL idx2,
                            const REAL idy2, const REAL i2dx, const REAL i2dy) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (OUTSIDE(i, j)) {
    return;
  }
  col += origin;
  h += origin;
  metric += origin;
  const ulong p2 = 0; /* h is 2D: plane 0 */
  const REAL hc = AT(h, p2, j, i), he = AT(h, p2, j, i + 1), hw = AT(h, p2, j, i - 1);
  const REAL hn = AT(h, p2, j + 1, i), hs = AT(h, p2, j - 1, i);
  const REAL h_xigamma =
      (AT(h, p2, j + 1, i + 1) - AT(h, p2, j + 1, i - 1) - AT(h, p2, j - 1, i + 1) + AT(h, p2, j - 1, i - 1)) * 0.25f;
  const REAL h_xi = (he - hw) * 0.5f, h_gamma = (hn - hs) * 0.5f;
  const REAL xi_x = AT(metric, 0, j, i), xi_y = AT(metric, 1, j, i);
  const REAL gamma_x = AT(metric, 2, j, i), gamma_y = AT(metric, 3, j, i);
  const REAL g11 = AT(metric, 4, j, i), g12 = AT(metric, 5, j, i), g22 = AT(metric, 6, j, i);
  const REAL l_xi = AT(metric, 7, j, i), l_gamma = AT(metric, 8, j, i);
  const REAL hx = xi_x * h_xi + gamma_x * h_gamma, hy = xi_y * h_xi + gamma_y * h_gamma;
  AT(col, 0, j, i) = 1 / hc;
  AT(col, 1, j, i) = hx * xi_x + hy * xi_y;
  AT(col, 2, j, i) = hx * gamma_x + hy * gamma_y;
  AT(col, 3, j, i) =
      g11 * (he - 2 * hc + hw) + 2 * g12 * h_xigamma + g22 * (hn - 2 * hc + hs) + l_xi * h_xi + l_gamma * h_gamma;
  AT(col, 4, j, i) = hx * hx + hy * hy;
  AT(col, 5, j, i) = g11;
  AT(col, 6, j, i) = g22;
  AT(col, 7, j, i) = l_xi;
  AT(col, 8, j, i) = l_gamma;
}
#else
/* col from the level's depth h (ghosts filled): 1/h, h_x, h_y, lap(h) by centred differences. */
__kernel void level_columns(__global REAL *col, __global const REAL *h, const int nx, const int ny, const int pitch,
                            const ulong plane, const int origin, const REAL idx2, const REAL idy2, const REAL i2dx,
                            const REAL i2dy) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (OUTSIDE(i, j)) {
    return;
  }
  col += origin;
  h += origin;
  const ulong p2 = 0; /* h is 2D: plane 0 */
  const REAL hc = AT(h, p2, j, i), he = AT(h, p2, j, i + 1), hw = AT(h, p2, j, i - 1);
  const REAL hn = AT(h, p2, j + 1, i), hs = AT(h, p2, j - 1, i);
  AT(col, 0, j, i) = 1 / hc;
  AT(col, 1, j, i) = (he - hw) * i2dx;
  AT(col, 2, j, i) = (hn - hs) * i2dy;
  AT(col, 3, j, i) = (he - 2 * hc + hw) * idx2 + (hn - 2 * hc + hs) * idy2;
}
#endif

/* Zebra-line Gauss-Seidel: the line of column (i, j) solved exactly with the other colour's columns as they are
 * (zero: as if all were zero, the first half-sweep of a V-cycle level, which then needs no zeroing: a column's own
 * values are written before they are read).
 *
 * The line system, numbered from the top as in fnpf-gpu-model eq. 11: x_t at node p = nz - t, t = 1 .. m = nz (the
 * surface is known); row t < m has a_t on x_{t-1}, b_t on x_t, c_t on x_{t+1}; row m (the bottom condition on the
 * ghost) has e_m on x_{m-2}, a_m on x_{m-1}, b_m on x_m. Forward elimination (eqs. 12, 13) with
 * c'_t = c_t / (b_t - c'_{t-1} a_t), d'_t = (d_t - a_t d'_{t-1}) / (b_t - c'_{t-1} a_t), a_m' = a_m - e_m c'_{m-2} and
 * d_m' = d_m - e_m d'_{m-2} in the last row; back substitution (eq. 14) x_t = d'_t - c'_t x_{t+1}. The factors are
 * formed here from the column's four coefficients rather than stored: a few operations per row against three
 * values per row read from memory (the sweep is bandwidth-bound). They are formed in the V-cycle's precision: the
 * line systems are diagonally dominant, and float pivots are as good as the float preconditioner they serve. The
 * four neighbouring columns, c' and d' are held in registers (Line); u is written once. */
INLINE void solve_line(__global REAL *u, __global const REAL *rhs, __global const REAL *col, const int i, const int j,
                       const int nx, const int ny, const int pitch, const ulong plane, const int nz, const int walls,
                       const bool zero, __constant const REAL *vertical, const REAL idx2, const REAL idy2,
                       const REAL i2dx, const REAL i2dy) {
  const Column c = load_column(col, i, j, pitch, plane);
  const Around a = around(i, j, nx, ny, walls);
  const bool flat_x = zero || (walls & MIRROR_SINGLE_X), flat_y = zero || (walls & MIRROR_SINGLE_Y);
  const Line w = load_line(u, a.w, j, pitch, plane, nz, flat_x), e = load_line(u, a.e, j, pitch, plane, nz, flat_x);
  const Line s = load_line(u, i, a.s, pitch, plane, nz, flat_y), n = load_line(u, i, a.n, pitch, plane, nz, flat_y);
  REAL upper[NZ_MAX], dprime[NZ_MAX];          /* c'_t and d'_t at node p = nz - t */
  REAL d1 = 0, d2 = 0, upper1 = 0, upper2 = 0; /* d'_{t-1}, d'_{t-2}, c'_{t-1}, c'_{t-2} */
  UNROLL_PLANES
  for (int p = NZ_MAX - 1; p >= 1; p--) {
    if (p < nz) {
      __constant const REAL *v = vertical + p * VERT_STRIDE;
      const Row r = row_at(c, v[6]);
      const REAL at = p == nz - 1 ? 0 : r.lap_sigma * v[2] + r.square * v[5]; /* on node p + 1 */
      const REAL bt = -2 * (WEIGHT_XX(c, idx2) + WEIGHT_YY(c, idy2)) + r.lap_sigma * v[1] + r.square * v[4];
      const REAL ct = r.lap_sigma * v[0] + r.square * v[3]; /* on node p - 1 */
      const REAL d = AT(rhs, p, j, i) - neighbours(&w, &e, &s, &n, p, c, vertical, idx2, idy2, i2dx, i2dy);
      const REAL inv_pivot = 1 / (bt - upper1 * at);
      dprime[p] = (d - at * d1) * inv_pivot;
      upper[p] = ct * inv_pivot;
      upper2 = upper1;
      upper1 = upper[p];
      d2 = d1;
      d1 = dprime[p];
    }
  }
  __constant const REAL *v = vertical + VERT_STRIDE; /* row m: the bottom condition, d/dsigma at node 1 */
  const REAL f = bottom_factor(c), bm = f * v[0], em = f * v[2], am = f * v[1] - em * upper2;
  const REAL dm = AT(rhs, 0, j, i) - neighbours(&w, &e, &s, &n, 0, c, vertical, idx2, idy2, i2dx, i2dy);
  REAL below = (dm - em * d2 - am * d1) / (bm - upper1 * am); /* x_m */
  AT(u, 0, j, i) = below;
  UNROLL_PLANES
  for (int p = 1; p < NZ_MAX; p++) {
    if (p < nz) {
      below = dprime[p] - upper[p] * below;
      AT(u, p, j, i) = below;
    }
  }
}

/* One half-sweep: every column of one colour ((x0 + i + y0 + j) % 2 == colour for the rank's first point x0, y0:
 * global, so the sweep is the same on any number of ranks; parity = (x0 + y0 + colour) % 2). Launched over
 * ((nx + 1) / 2, ny). */
__kernel void smooth(__global REAL *u, __global const REAL *rhs, __global const REAL *col, const int nx, const int ny,
                     const int pitch, const ulong plane, const int origin, const int nz, const int parity,
                     const int walls, const int zero_guess, __constant const REAL *vertical, const REAL idx2,
                     const REAL idy2, const REAL i2dx, const REAL i2dy, const int4 box) {
  /* the columns of the colour in box (first i, first j, end i, end j; ghosts of a wide level included), exactly:
   * the sweep is in place */
  const int j = box.y + get_global_id(1), i = (box.x & ~1) + 2 * (int)get_global_id(0) + ((parity + j) & 1);
  if (i < box.x || i >= box.z || j >= box.w) {
    return;
  }
  u += origin;
  rhs += origin;
  col += origin;
  solve_line(u, rhs, col, i, j, nx, ny, pitch, plane, nz, walls, zero_guess, vertical, idx2, idy2, i2dx, i2dy);
}

/* `sweeps` zebra sweeps of a level on one rank without periodic sides by one work-group (a coarse level, where
 * launches would cost more than the work): the work-items stride over each colour's columns and meet at a barrier,
 * which makes the global writes of the half-sweep visible to the whole group, before the next. */
INLINE void group_sweeps(__global REAL *u, __global const REAL *rhs, __global const REAL *col, const int nx,
                         const int ny, const int pitch, const ulong plane, const int nz, const int sweeps,
                         const int walls, const bool zero_guess, __constant const REAL *vertical, const REAL idx2,
                         const REAL idy2, const REAL i2dx, const REAL i2dy) {
  const int per_row = (nx + 1) / 2; /* columns of one colour in a row, at most; one rank: x0 = y0 = 0 */
  for (int sweep = 0; sweep < sweeps; sweep++) {
    for (int colour = 0; colour < 2; colour++) {
      const bool zero = zero_guess && sweep == 0 && colour == 0;
      for (int k = get_local_id(0); k < per_row * ny; k += get_local_size(0)) {
        const int j = k / per_row, i = 2 * (k % per_row) + ((j + colour) & 1);
        if (i < nx) {
          solve_line(u, rhs, col, i, j, nx, ny, pitch, plane, nz, walls, zero, vertical, idx2, idy2, i2dx, i2dy);
        }
      }
      barrier(CLK_GLOBAL_MEM_FENCE);
    }
  }
}

/* A level's sweeps of one visit in one launch of one work-group. */
__kernel void smooth_level(__global REAL *u, __global const REAL *rhs, __global const REAL *col, const int nx,
                           const int ny, const int pitch, const ulong plane, const int origin, const int nz,
                           const int sweeps, const int walls, const int zero_guess, __constant const REAL *vertical,
                           const REAL idx2, const REAL idy2, const REAL i2dx, const REAL i2dy) {
  u += origin;
  rhs += origin;
  col += origin;
  group_sweeps(u, rhs, col, nx, ny, pitch, plane, nz, sweeps, walls, zero_guess, vertical, idx2, idy2, i2dx, i2dy);
}

/* res = rhs - M u in column (i, j), every row (0 at the surface). */
INLINE void residual_column(__global REAL *res, __global const REAL *u, __global const REAL *rhs,
                            __global const REAL *col, const int i, const int j, const int nx, const int ny,
                            const int pitch, const ulong plane, const int nz, const int walls,
                            __constant const REAL *vertical, const REAL idx2, const REAL idy2, const REAL i2dx,
                            const REAL i2dy) {
  const Column c = load_column(col, i, j, pitch, plane);
  const Around a = around(i, j, nx, ny, walls);
  const Line o = load_line(u, i, j, pitch, plane, nz, false);
  const bool flat_x = walls & MIRROR_SINGLE_X, flat_y = walls & MIRROR_SINGLE_Y;
  const Line w = load_line(u, a.w, j, pitch, plane, nz, flat_x), e = load_line(u, a.e, j, pitch, plane, nz, flat_x);
  const Line s = load_line(u, i, a.s, pitch, plane, nz, flat_y), n = load_line(u, i, a.n, pitch, plane, nz, flat_y);
  UNROLL_PLANES
  for (int p = 0; p < NZ_MAX; p++) {
    if (p < nz) {
      AT(res, p, j, i) = AT(rhs, p, j, i) - own_column(&o, p, c, vertical, idx2, idy2) -
                         neighbours(&w, &e, &s, &n, p, c, vertical, idx2, idy2, i2dx, i2dy);
    }
  }
  AT(res, nz, j, i) = 0;
}

/* Launched over the columns of box (first i, first j, end i, end j; ghosts of a wide level included). */
__kernel void residual_low(__global REAL *res, __global const REAL *u, __global const REAL *rhs,
                           __global const REAL *col, const int nx, const int ny, const int pitch, const ulong plane,
                           const int origin, const int nz, const int walls, __constant const REAL *vertical,
                           const REAL idx2, const REAL idy2, const REAL i2dx, const REAL i2dy, const int4 box) {
  const int i = box.x + get_global_id(0), j = box.y + get_global_id(1);
  if (BOX_OUTSIDE(i, j, box)) {
    return;
  }
  res += origin;
  u += origin;
  rhs += origin;
  col += origin;
  residual_column(res, u, rhs, col, i, j, nx, ny, pitch, plane, nz, walls, vertical, idx2, idy2, i2dx, i2dy);
}

/* Full weighting: coarse rhs at (I, J, P) from the fine residual around fine point (fx I + off_x, fy J + off_y) in
 * local indices (fine_nx x fine_ny owned, mirrored across the fine level's closed sides fine_walls, halo ghosts
 * elsewhere), weights 1/4 1/2 1/4 in a halved direction and 1 in a kept one; vertically from transfer[4 P ..]: the
 * fine centre node and three weights (mg.c: the bottom condition's row is injected, the bottom row weighs the row
 * above it only). Launched over the coarse owned points. */
INLINE void restrict_point(__global REAL *coarse, __global const REAL *fine, const int i, const int j, const int pitch,
                           const ulong plane, const int nz, const int fine_nx, const int fine_ny, const int fine_walls,
                           const int fine_pitch, const ulong fine_plane, const int fx, const int fy, const int off_x,
                           const int off_y, __constant const REAL *transfer) {
  const REAL halved[3] = {0.25f, 0.5f, 0.25f}, kept[3] = {0, 1, 0};
  const int fi = fx * i + off_x, fj = fy * j + off_y;
  int columns[3], rows[3]; /* the fine points read at offsets -1, 0, 1 (ghost offset included) */
  for (int b = 0; b < 3; b++) {
    columns[b] = mirrored(fi - 1 + b, fine_nx, fine_walls, MIRROR_WEST, MIRROR_EAST, MIRROR_SINGLE_X) + 1;
    rows[b] = mirrored(fj - 1 + b, fine_ny, fine_walls, MIRROR_SOUTH, MIRROR_NORTH, MIRROR_SINGLE_Y) + 1;
  }
  for (int p = 0; p <= nz; p++) {
    __constant const REAL *t = transfer + 4 * p;
    const int centre = (int)t[0];
    REAL sum = 0;
    for (int q = 0; q < 3; q++) {
      if (t[1 + q] == 0) {
        continue;
      }
      REAL plane_sum = 0;
      for (int b = 0; b < 3; b++) {
        const REAL wy = fy == 2 ? halved[b] : kept[b];
        for (int a = 0; a < 3; a++) {
          const REAL wx = fx == 2 ? halved[a] : kept[a];
          if (wx * wy != 0) {
            const ulong at = (ulong)(centre - 1 + q) * fine_plane + (ulong)rows[b] * fine_pitch + columns[a];
            plane_sum += wx * wy * fine[at];
          }
        }
      }
      sum += t[1 + q] * plane_sum;
    }
    AT(coarse, p, j, i) = sum;
  }
}

/* Launched over nx x ny coarse points; coarse += origin may place them anywhere in the coarse field (mg.c: a rank's
 * block of a level every rank holds whole). */
__kernel void restrict_residual(__global REAL *coarse, __global const REAL *fine, const int nx, const int ny,
                                const int pitch, const ulong plane, const int origin, const int nz, const int fine_nx,
                                const int fine_ny, const int fine_walls, const int fine_pitch, const ulong fine_plane,
                                const int fine_origin, const int fx, const int fy, const int off_x, const int off_y,
                                __constant const REAL *transfer) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (OUTSIDE(i, j)) {
    return;
  }
  coarse += origin;
  fine += fine_origin;
  restrict_point(coarse, fine, i, j, pitch, plane, nz, fine_nx, fine_ny, fine_walls, fine_pitch, fine_plane, fx, fy,
                 off_x, off_y, transfer);
}

/* Linear interpolation of the coarse correction (halo ghosts filled; it never reads across a closed side) added to
 * the fine one at every fine node below the surface: horizontally from the coarse points around global fine index
 * (even: the one coarse point; odd: the two either side), vertically from transfer[2 p ..]: the coarse node below
 * and the weight of the one above. Launched over the fine owned points. */
INLINE void prolong_point(__global REAL *fine, __global const REAL *coarse, const int i, const int j, const int pitch,
                          const ulong plane, const int nz, const int coarse_pitch, const ulong coarse_plane,
                          const int fx, const int fy, const int x0, const int y0, const int coarse_x0,
                          const int coarse_y0, __constant const REAL *transfer) {
  const int gi = x0 + i, gj = y0 + j;
  /* the coarse points to the west/south (local, ghost -1 allowed) and the weight of the next one */
  const int ci = (fx == 2 ? (gi - (gi & 1)) / 2 : gi) - coarse_x0; /* floor: gi < 0 in a periodic ghost */
  const int cj = (fy == 2 ? (gj - (gj & 1)) / 2 : gj) - coarse_y0;
  const REAL wx = fx == 2 && (gi & 1) ? 0.5f : 0, wy = fy == 2 && (gj & 1) ? 0.5f : 0;
  for (int p = 0; p < nz; p++) {
    __constant const REAL *t = transfer + 2 * p;
    const int below = (int)t[0];
    const REAL wz = t[1];
    REAL sum = 0;
    for (int c = 0; c < 2; c++) {
      const REAL weight_z = c ? wz : 1 - wz;
      if (weight_z == 0) {
        continue;
      }
      const long base = (long)(below + c) * (long)coarse_plane;
      const long row0 = base + (long)(cj + 1) * coarse_pitch + ci + 1, row1 = row0 + coarse_pitch;
      REAL v = (1 - wx) * coarse[row0] + (wx != 0 ? wx * coarse[row0 + 1] : 0);
      if (wy != 0) {
        v = (1 - wy) * v + wy * ((1 - wx) * coarse[row1] + (wx != 0 ? wx * coarse[row1 + 1] : 0));
      }
      sum += weight_z * v;
    }
    AT(fine, p, j, i) += sum;
  }
}

/* Launched over the fine columns of box (first i, first j, end i, end j; ghosts of a wide level included). */
__kernel void prolong_add(__global REAL *fine, __global const REAL *coarse, const int nx, const int ny, const int pitch,
                          const ulong plane, const int origin, const int nz, const int coarse_pitch,
                          const ulong coarse_plane, const int coarse_origin, const int fx, const int fy, const int x0,
                          const int y0, const int coarse_x0, const int coarse_y0, __constant const REAL *transfer,
                          const int4 box) {
  const int i = box.x + get_global_id(0), j = box.y + get_global_id(1);
  if (BOX_OUTSIDE(i, j, box)) {
    return;
  }
  fine += origin;
  coarse += coarse_origin;
  prolong_point(fine, coarse, i, j, pitch, plane, nz, coarse_pitch, coarse_plane, fx, fy, x0, y0, coarse_x0, coarse_y0,
                transfer);
}

/* ---- the coarse levels in one launch ---- */

/* A level of the tail (mg.c: plan_tail): its row of TAIL_FIELDS ints in table, its u, rhs, res and col at their
 * offsets in pack (the layout of the level's fields), its spacing (idx2, idy2, i2dx, i2dy), sigma weights and the
 * transfers from the level above at their offsets in tables. One rank, closed sides: no ghosts to exchange, and
 * every level starts at the origin. */
enum {
  TAIL_NX,
  TAIL_NY,
  TAIL_PITCH,
  TAIL_PLANE,
  TAIL_NZ,
  TAIL_WALLS,
  TAIL_FX,
  TAIL_FY,
  TAIL_COUNT,
  TAIL_U,
  TAIL_RHS,
  TAIL_RES,
  TAIL_COL,
  TAIL_SPACING,
  TAIL_VERTICAL,
  TAIL_RESTRICTION,
  TAIL_PROLONGATION,
  TAIL_FIELDS
};

#define ROW(l, f) table[(l)*TAIL_FIELDS + (f)]
#define ARRAY(l, f) (pack + ROW(l, f))
#define TABLE(l, f) (tables + ROW(l, f))
#define STEP() barrier(CLK_GLOBAL_MEM_FENCE)
#define TAIL_SWEEPS(l, count, zero_guess)                                                                              \
  group_sweeps(ARRAY(l, TAIL_U), ARRAY(l, TAIL_RHS), ARRAY(l, TAIL_COL), ROW(l, TAIL_NX), ROW(l, TAIL_NY),             \
               ROW(l, TAIL_PITCH), ROW(l, TAIL_PLANE), ROW(l, TAIL_NZ), count, ROW(l, TAIL_WALLS), zero_guess,         \
               TABLE(l, TAIL_VERTICAL), TABLE(l, TAIL_SPACING)[0], TABLE(l, TAIL_SPACING)[1],                          \
               TABLE(l, TAIL_SPACING)[2], TABLE(l, TAIL_SPACING)[3])
#define FOR_COLUMNS(l, i, j)                                                                                           \
  for (int k_ = get_local_id(0); k_ < ROW(l, TAIL_NX) * ROW(l, TAIL_NY); k_ += get_local_size(0))                      \
    for (int i = k_ % ROW(l, TAIL_NX), j = k_ / ROW(l, TAIL_NX), once_ = 1; once_; once_ = 0)

/* The V-cycle of tail levels 0 .. levels - 1 by one work-group, what the level-by-level kernels do in the same order
 * with barriers between the steps: rhs of the first copied in from rhs_top, u of the first out to u_top (whole
 * fields, the layout of the tail's first level). */
__kernel void vcycle_tail(__global REAL *pack, __global const int *table, __constant const REAL *tables,
                          const int levels, const int pre_sweeps, const int post_sweeps, const int coarse_sweeps,
                          __global const REAL *rhs_top, __global REAL *u_top) {
  for (int k = get_local_id(0); k < ROW(0, TAIL_COUNT); k += get_local_size(0)) {
    ARRAY(0, TAIL_RHS)[k] = rhs_top[k];
  }
  STEP();
  for (int l = 0; l < levels; l++) { /* down: smooth, residual, restrict */
    const int last = l == levels - 1, first = last ? coarse_sweeps : pre_sweeps;
    if (first == 0) {
      for (int k = get_local_id(0); k < ROW(l, TAIL_COUNT); k += get_local_size(0)) {
        ARRAY(l, TAIL_U)[k] = 0;
      }
      STEP();
    }
    TAIL_SWEEPS(l, first, true);
    if (last) {
      break;
    }
    __constant const REAL *spacing = TABLE(l, TAIL_SPACING);
    FOR_COLUMNS(l, i, j) {
      residual_column(ARRAY(l, TAIL_RES), ARRAY(l, TAIL_U), ARRAY(l, TAIL_RHS), ARRAY(l, TAIL_COL), i, j,
                      ROW(l, TAIL_NX), ROW(l, TAIL_NY), ROW(l, TAIL_PITCH), ROW(l, TAIL_PLANE), ROW(l, TAIL_NZ),
                      ROW(l, TAIL_WALLS), TABLE(l, TAIL_VERTICAL), spacing[0], spacing[1], spacing[2], spacing[3]);
    }
    STEP();
    FOR_COLUMNS(l + 1, i, j) {
      restrict_point(ARRAY(l + 1, TAIL_RHS), ARRAY(l, TAIL_RES), i, j, ROW(l + 1, TAIL_PITCH), ROW(l + 1, TAIL_PLANE),
                     ROW(l + 1, TAIL_NZ), ROW(l, TAIL_NX), ROW(l, TAIL_NY), ROW(l, TAIL_WALLS), ROW(l, TAIL_PITCH),
                     ROW(l, TAIL_PLANE), ROW(l + 1, TAIL_FX), ROW(l + 1, TAIL_FY), 0, 0,
                     TABLE(l + 1, TAIL_RESTRICTION));
    }
    STEP();
  }
  for (int l = levels - 2; l >= 0; l--) { /* up: prolong, smooth */
    FOR_COLUMNS(l, i, j) {
      prolong_point(ARRAY(l, TAIL_U), ARRAY(l + 1, TAIL_U), i, j, ROW(l, TAIL_PITCH), ROW(l, TAIL_PLANE),
                    ROW(l, TAIL_NZ), ROW(l + 1, TAIL_PITCH), ROW(l + 1, TAIL_PLANE), ROW(l + 1, TAIL_FX),
                    ROW(l + 1, TAIL_FY), 0, 0, 0, 0, TABLE(l + 1, TAIL_PROLONGATION));
    }
    STEP();
    TAIL_SWEEPS(l, post_sweeps, false);
  }
  for (int k = get_local_id(0); k < ROW(0, TAIL_COUNT); k += get_local_size(0)) {
    u_top[k] = ARRAY(0, TAIL_U)[k];
  }
}
