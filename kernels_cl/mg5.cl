/* SPDX-License-Identifier: BSD-3-Clause */
/* mg5.cl: the semicoarsening multigrid of src/solver/mg5.c for the 5-point symmetric systems of stencil5.cl,
 *
 *   (S x)_p = c_p x_p + e_p x_E + e_W x_W + n_p x_N + n_S x_S,
 *
 * in the manner of hypre's PFMG (Ashby & Falgout 1996; Falgout & Jones 2000): each level halves one direction d,
 * keeping the points of odd global index along d (coarse point I is fine point 2 I + 1; the unknowns are interior
 * points, the boundary values outside the grid). Kernels:
 *
 * - mg_weights: the interpolation to the even (F) points from their two odd (C) neighbours along d, the stencil
 *   collapsed across d (Dendy's black-box rule, PFMG's): w_- = -a_- / (c + a_perp- + a_perp+), w_+ likewise, so a
 *   mass term (c above the couplings' sum) or a Dirichlet neighbour weakens the interpolation, and a zero coupling
 *   (a dry cell) stops it.
 * - mg_rap: the Galerkin coarse operator R S P with R = P^T, a 9-point stencil, row by row; mg_collapse folds its
 *   corner couplings back onto a 5-point one: a corner coupling a between the diagonal corners p, q of a coarse cell
 *   adds a / 2 to each of the cell's four edges, and the centre keeps the row sum. That keeps the energy of every
 *   linear function, p and q's a (x_p - x_q)^2 being (x_p - x_r)^2 + (x_r - x_q)^2 averaged over the two paths around
 *   the cell, so the collapsed operator is the Galerkin one on the smooth errors the coarse grid exists for
 *   (on Poisson's 5-point operator it is the 5-point operator of the coarse spacing exactly), and keeps S's sign
 *   pattern: the Galerkin corners of an M-matrix with these weights are <= 0, so the collapsed one is an M-matrix
 *   again. Every level is then 5-point, relaxed by the same red-black Gauss-Seidel.
 * - mg_restrict (b_c = P^T r), mg_prolong (x += P e_c, or x = P e_c), mg_smooth (a red-black Gauss-Seidel
 *   half-sweep) and mg_smooth_first (the first red and black half-sweeps from x = 0, in one pass).
 *
 * The direction is (sx, sy) = (1, 0) or (0, 1). Coarse point (ci, cj) (local indices) is fine point
 * (sx ? 2 ci : ci) + ox, (sy ? 2 cj : cj) + oy (local; the offsets place the coarse block in the fine one: a split
 * level's coarse block is the coarse points of its fine block, a level gathered onto every rank (mg5.c) the whole
 * level); ci0, cj0 the first coarse point a launch computes; f0 and c0 the blocks' global origins along d, "across"
 * the coarse local index across d of fine local index 0; x0, y0 the first point of a launch over a box of a level
 * that may reach into its ghosts (mg5.c's communication-avoiding cycle: the sweeps, the residual and the
 * prolongation also compute ghost points, from ghosts exchanged wider). Layout: stencil5.cl's; the ghosts of the
 * arrays a kernel reads beside its point are exchanged by the host first. AT addresses ghost width 1: a kernel on a
 * level of wider ghosts g first moves its arrays' pointers by shift = (g - 1) (pitch + 1) (shift_f, shift_c: the
 * fine and the coarse level's). Macros: REAL (common.clh). */

#define AT(a, i, j, pitch) (a)[((j) + 1) * (pitch) + (i) + 1]
#define MATRIX __global const REAL *restrict c, __global const REAL *restrict e, __global const REAL *restrict n
/* A kernel's matrix moved by shift (a level of wider ghosts). */
#define SHIFT_MATRIX(shift) (c += (shift), e += (shift), n += (shift))

/* The entry of S in row (i, j) for its neighbour (i + dx, j + dy), |dx| + |dy| <= 1. */
INLINE REAL entry(MATRIX, const int i, const int j, const int dx, const int dy, const int pitch) {
  if (dx == 1) {
    return AT(e, i, j, pitch);
  }
  if (dx == -1) {
    return AT(e, i - 1, j, pitch);
  }
  if (dy == 1) {
    return AT(n, i, j, pitch);
  }
  if (dy == -1) {
    return AT(n, i, j - 1, pitch);
  }
  return AT(c, i, j, pitch);
}

/* The interpolation weights of the fine points from the coarse points at -d (wm) and +d (wp): at an F point (even
 * global index along d) from its two C neighbours, at a C point (odd; parity is the block's global origin along d,
 * mod 2) 1 from itself, which the prolongation reads as its +d parent: point g's parents are g / 2 - 1 and g / 2. */
__kernel void mg_weights(MATRIX, __global REAL *restrict wm, __global REAL *restrict wp, const int nx, const int ny,
                         const int pitch, const int sx, const int sy, const int parity, const int shift) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (OUTSIDE(i, j)) {
    return;
  }
  SHIFT_MATRIX(shift);
  wm += shift;
  wp += shift;
  REAL minus = 0, plus = 1;
  const int k = sx ? i : j;
  if (((k + parity) & 1) == 0) {
    const REAL collapsed =
        AT(c, i, j, pitch) + entry(c, e, n, i, j, -sy, -sx, pitch) + entry(c, e, n, i, j, sy, sx, pitch);
    minus = collapsed > 0 ? -entry(c, e, n, i, j, -sx, -sy, pitch) / collapsed : 0;
    plus = collapsed > 0 ? -entry(c, e, n, i, j, sx, sy, pitch) / collapsed : 0;
  }
  AT(wm, i, j, pitch) = minus;
  AT(wp, i, j, pitch) = plus;
}

/* Row I of R S P: the coarse centre, east and north couplings into cc, ce, cn, the corners north-east and north-west
 * into cne, cnw (the other four are the neighbours' rows). The fine points f = X - d, X, X + d carry row I's P^T
 * weights; each f's stencil neighbour g spreads to its coarse parents. A g two fine points back along d (t = -2)
 * only adds to the coupling with the coarse point behind, which that point's row holds: skipped. */
__kernel void mg_rap(MATRIX, __global const REAL *restrict wm, __global const REAL *restrict wp,
                     __global REAL *restrict cc, __global REAL *restrict ce, __global REAL *restrict cn,
                     __global REAL *restrict cne, __global REAL *restrict cnw, const int nx, const int ny,
                     const int pitch_f, const int pitch_c, const int sx, const int sy, const int ox, const int oy,
                     const int ci0, const int cj0, const int shift_f, const int shift_c) {
  if (OUTSIDE(get_global_id(0), get_global_id(1))) {
    return;
  }
  SHIFT_MATRIX(shift_f);
  wm += shift_f;
  wp += shift_f;
  cc += shift_c;
  ce += shift_c;
  cn += shift_c;
  cne += shift_c;
  cnw += shift_c;
  const int ci = ci0 + get_global_id(0), cj = cj0 + get_global_id(1);
  const int fi = (sx ? 2 * ci : ci) + ox, fj = (sy ? 2 * cj : cj) + oy;
  REAL s[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}; /* s[q + 1][o + 1]: o along d, q across it */
  const int offsets[5][2] = {{0, 0}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  for (int df = -1; df <= 1; df++) {
    const int fx = fi + df * sx, fy = fj + df * sy;
    const REAL pf = df == 0 ? 1 : df < 0 ? AT(wp, fx, fy, pitch_f) : AT(wm, fx, fy, pitch_f);
    for (int g = 0; g < 5; g++) {
      const int dx = offsets[g][0], dy = offsets[g][1];
      const int t = df + dx * sx + dy * sy, q = dx * sy + dy * sx;
      if (t == -2) {
        continue;
      }
      const REAL a = pf * entry(c, e, n, fx, fy, dx, dy, pitch_f);
      if ((t & 1) == 0) {
        s[q + 1][t / 2 + 1] += a;
      } else {
        s[q + 1][(t - 1) / 2 + 1] += a * AT(wm, fx + dx, fy + dy, pitch_f);
        s[q + 1][(t + 1) / 2 + 1] += a * AT(wp, fx + dx, fy + dy, pitch_f);
      }
    }
  }
#define S(dx, dy) (sx ? s[(dy) + 1][(dx) + 1] : s[(dx) + 1][(dy) + 1])
  AT(cc, ci, cj, pitch_c) = S(0, 0);
  AT(ce, ci, cj, pitch_c) = S(1, 0);
  AT(cn, ci, cj, pitch_c) = S(0, 1);
  AT(cne, ci, cj, pitch_c) = S(1, 1);
  AT(cnw, ci, cj, pitch_c) = S(-1, 1);
#undef S
}

/* What the corners of the two cells beside the edge east of (i, j) add to it, and north of it. */
INLINE REAL added_east(__global const REAL *cne, __global const REAL *cnw, const int i, const int j, const int pitch) {
  return (AT(cne, i, j, pitch) + AT(cnw, i + 1, j, pitch) + AT(cne, i, j - 1, pitch) + AT(cnw, i + 1, j - 1, pitch)) /
         2;
}

INLINE REAL added_north(__global const REAL *cne, __global const REAL *cnw, const int i, const int j, const int pitch) {
  return (AT(cne, i, j, pitch) + AT(cnw, i + 1, j, pitch) + AT(cne, i - 1, j, pitch) + AT(cnw, i, j, pitch)) / 2;
}

/* The 9-point coarse stencil (c, e, n and the corners, their ghosts exchanged) folded onto 5 points, in place. */
__kernel void mg_collapse(__global REAL *restrict c, __global REAL *restrict e, __global REAL *restrict n,
                          __global const REAL *restrict cne, __global const REAL *restrict cnw, const int nx,
                          const int ny, const int pitch, const int shift) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (OUTSIDE(i, j)) {
    return;
  }
  SHIFT_MATRIX(shift);
  cne += shift;
  cnw += shift;
  const REAL corners =
      AT(cne, i, j, pitch) + AT(cnw, i, j, pitch) + AT(cne, i - 1, j - 1, pitch) + AT(cnw, i + 1, j - 1, pitch);
  const REAL east = added_east(cne, cnw, i, j, pitch), north = added_north(cne, cnw, i, j, pitch);
  const REAL edges = east + added_east(cne, cnw, i - 1, j, pitch) + north + added_north(cne, cnw, i, j - 1, pitch);
  AT(c, i, j, pitch) += corners - edges;
  AT(e, i, j, pitch) += east;
  AT(n, i, j, pitch) += north;
}

/* ---- the V-cycle's steps at one point, shared by the level-by-level kernels and the one-launch tail ---- */

/* b_c at coarse point (ci, cj) = P^T r. */
INLINE void restrict_point(__global const REAL *r, __global const REAL *wm, __global const REAL *wp, __global REAL *b,
                           const int ci, const int cj, const int pitch_f, const int pitch_c, const int sx, const int sy,
                           const int ox, const int oy) {
  const int fi = (sx ? 2 * ci : ci) + ox, fj = (sy ? 2 * cj : cj) + oy;
  AT(b, ci, cj, pitch_c) = AT(r, fi, fj, pitch_f) +
                           AT(wp, fi - sx, fj - sy, pitch_f) * AT(r, fi - sx, fj - sy, pitch_f) +
                           AT(wm, fi + sx, fj + sy, pitch_f) * AT(r, fi + sx, fj + sy, pitch_f);
}

/* x += P e_c (add) or x = P e_c at fine point (i, j); g the point's global index along d, c0 the coarse block's
 * origin along d; across d the coarse index is the fine one. The parents are g / 2 - 1 and g / 2 (mg_weights: a C
 * point's are 0 and 1). */
INLINE void prolong_point(__global REAL *x, __global const REAL *ec, __global const REAL *wm, __global const REAL *wp,
                          const int i, const int j, const int pitch_f, const int pitch_c, const int sx, const int g,
                          const int c0, const int add) {
  const int k = g / 2 - c0;
  const REAL correction =
      sx ? AT(wm, i, j, pitch_f) * AT(ec, k - 1, j, pitch_c) + AT(wp, i, j, pitch_f) * AT(ec, k, j, pitch_c)
         : AT(wm, i, j, pitch_f) * AT(ec, i, k - 1, pitch_c) + AT(wp, i, j, pitch_f) * AT(ec, i, k, pitch_c);
  AT(x, i, j, pitch_f) = add ? AT(x, i, j, pitch_f) + correction : correction;
}

/* The couplings' part of row (i, j) of S x. */
INLINE REAL off_diagonal(MATRIX, __global const REAL *x, const int i, const int j, const int pitch) {
  return AT(e, i, j, pitch) * AT(x, i + 1, j, pitch) + AT(e, i - 1, j, pitch) * AT(x, i - 1, j, pitch) +
         AT(n, i, j, pitch) * AT(x, i, j + 1, pitch) + AT(n, i, j - 1, pitch) * AT(x, i, j - 1, pitch);
}

INLINE void smooth_point(MATRIX, __global const REAL *b, __global REAL *x, const int i, const int j, const int pitch) {
  AT(x, i, j, pitch) = (AT(b, i, j, pitch) - off_diagonal(c, e, n, x, i, j, pitch)) / AT(c, i, j, pitch);
}

/* b / c, 0 beyond a closed side (where c's ghost is 0). */
INLINE REAL first_value(__global const REAL *c, __global const REAL *b, const int i, const int j, const int pitch) {
  return AT(c, i, j, pitch) != 0 ? AT(b, i, j, pitch) / AT(c, i, j, pitch) : 0;
}

/* The red and the black half-sweep from x = 0 at one point: b / c on colour, and the Gauss-Seidel update from those
 * values elsewhere. */
INLINE void smooth_first_point(MATRIX, __global const REAL *b, __global REAL *x, const int i, const int j,
                               const int pitch, const int on_colour) {
  if (on_colour) {
    AT(x, i, j, pitch) = first_value(c, b, i, j, pitch);
    return;
  }
  const REAL off = AT(e, i, j, pitch) * first_value(c, b, i + 1, j, pitch) +
                   AT(e, i - 1, j, pitch) * first_value(c, b, i - 1, j, pitch) +
                   AT(n, i, j, pitch) * first_value(c, b, i, j + 1, pitch) +
                   AT(n, i, j - 1, pitch) * first_value(c, b, i, j - 1, pitch);
  AT(x, i, j, pitch) = (AT(b, i, j, pitch) - off) / AT(c, i, j, pitch);
}

/* ---- the level-by-level kernels ---- */

/* b_c = P^T r (r's ghosts exchanged). */
__kernel void mg_restrict(__global const REAL *restrict r, __global const REAL *restrict wm,
                          __global const REAL *restrict wp, __global REAL *restrict b, const int nx, const int ny,
                          const int pitch_f, const int pitch_c, const int sx, const int sy, const int ox, const int oy,
                          const int ci0, const int cj0, const int shift_f, const int shift_c) {
  if (OUTSIDE(get_global_id(0), get_global_id(1))) {
    return;
  }
  r += shift_f; /* moved in place, keeping restrict */
  wm += shift_f;
  wp += shift_f;
  b += shift_c;
  restrict_point(r, wm, wp, b, ci0 + get_global_id(0), cj0 + get_global_id(1), pitch_f, pitch_c, sx, sy, ox, oy);
}

/* x += P e_c over the box's fine points (add), or x = P e_c (e_c's ghosts exchanged). */
__kernel void mg_prolong(__global REAL *restrict x, __global const REAL *restrict ec, __global const REAL *restrict wm,
                         __global const REAL *restrict wp, const int nx, const int ny, const int pitch_f,
                         const int pitch_c, const int sx, const int sy, const int f0, const int c0, const int across,
                         const int add, const int x0, const int y0, const int shift_f, const int shift_c) {
  const int i = x0 + get_global_id(0), j = y0 + get_global_id(1);
  if (OUTSIDE(get_global_id(0), get_global_id(1))) {
    return;
  }
  x += shift_f;
  /* across d, fine index j is coarse index j + across: moved here once (inside the point's sums the offset made the
   * kernel a third slower on an H200) */
  ec += shift_c + (sx ? across * pitch_c : across);
  wm += shift_f;
  wp += shift_f;
  prolong_point(x, ec, wm, wp, i, j, pitch_f, pitch_c, sx, f0 + (sx ? i : j), c0, add);
}

/* r = b - S x over the box, in stencil5.cl's order of sums (x's ghosts exchanged). */
__kernel void mg_residual(MATRIX, __global const REAL *restrict b, __global const REAL *restrict x,
                          __global REAL *restrict r, const int nx, const int ny, const int pitch, const int x0,
                          const int y0, const int shift) {
  const int i = x0 + get_global_id(0), j = y0 + get_global_id(1);
  if (OUTSIDE(get_global_id(0), get_global_id(1))) {
    return;
  }
  SHIFT_MATRIX(shift);
  b += shift;
  x += shift;
  r += shift;
  AT(r, i, j, pitch) = AT(b, i, j, pitch) -
                       (AT(c, i, j, pitch) * AT(x, i, j, pitch) + AT(e, i, j, pitch) * AT(x, i + 1, j, pitch) +
                        AT(e, i - 1, j, pitch) * AT(x, i - 1, j, pitch) + AT(n, i, j, pitch) * AT(x, i, j + 1, pitch) +
                        AT(n, i, j - 1, pitch) * AT(x, i, j - 1, pitch));
}

/* A red-black Gauss-Seidel half-sweep over the box: x_p = (b_p - sum of the couplings times x) / c_p at the points
 * of the colour ((i + j + parity) mod 2 == colour; parity: the block's global origin's), x's ghosts exchanged. */
__kernel void mg_smooth(MATRIX, __global const REAL *restrict b, __global REAL *restrict x, const int nx, const int ny,
                        const int pitch, const int parity, const int colour, const int x0, const int y0,
                        const int shift) {
  const int i = x0 + get_global_id(0), j = y0 + get_global_id(1);
  if (OUTSIDE(get_global_id(0), get_global_id(1)) || ((i + j + parity) & 1) != colour) {
    return;
  }
  SHIFT_MATRIX(shift);
  b += shift;
  x += shift;
  smooth_point(c, e, n, b, x, i, j, pitch);
}

/* The first red and black half-sweeps from x = 0 in one pass over the box (b's and c's ghosts exchanged). */
__kernel void mg_smooth_first(MATRIX, __global const REAL *restrict b, __global REAL *restrict x, const int nx,
                              const int ny, const int pitch, const int parity, const int colour, const int x0,
                              const int y0, const int shift) {
  const int i = x0 + get_global_id(0), j = y0 + get_global_id(1);
  if (OUTSIDE(get_global_id(0), get_global_id(1))) {
    return;
  }
  SHIFT_MATRIX(shift);
  b += shift;
  x += shift;
  smooth_first_point(c, e, n, b, x, i, j, pitch, ((i + j + parity) & 1) == colour);
}

/* ---- the coarse levels in one launch ---- */

/* A level of the tail in the packed buffer: its table row (TAIL_* fields), the arrays at their offsets. One rank or
 * gathered onto every rank, closed sides: every block is the whole level, and the first coarse point of a halved
 * direction is fine point 1. */
enum {
  TAIL_NX,
  TAIL_NY,
  TAIL_PITCH,
  TAIL_HALVES,
  TAIL_RELAXED,
  TAIL_C,
  TAIL_E,
  TAIL_N,
  TAIL_WM,
  TAIL_WP,
  TAIL_B,
  TAIL_X,
  TAIL_R,
  TAIL_FIELDS
};

#define ROW(l, f) table[(l)*TAIL_FIELDS + (f)]
#define ARRAY(l, f) (pack + ROW(l, f))
#define FOR_POINTS(l, i, j)                                                                                            \
  for (int p_ = get_local_id(0); p_ < ROW(l, TAIL_NX) * ROW(l, TAIL_NY); p_ += get_local_size(0))                      \
    for (int i = p_ % ROW(l, TAIL_NX), j = p_ / ROW(l, TAIL_NX), once_ = 1; once_; once_ = 0)
#define STEP() barrier(CLK_GLOBAL_MEM_FENCE)

INLINE void tail_sweep(__global REAL *pack, __global const int *table, const int l, const int colour) {
  FOR_POINTS(l, i, j) {
    if (((i + j) & 1) == colour) {
      smooth_point(ARRAY(l, TAIL_C), ARRAY(l, TAIL_E), ARRAY(l, TAIL_N), ARRAY(l, TAIL_B), ARRAY(l, TAIL_X), i, j,
                   ROW(l, TAIL_PITCH));
    }
  }
  STEP();
}

/* The V-cycle of levels 0 .. levels - 1 of the table (the tail of the hierarchy) by one work-group, barriers between
 * its steps: b of the first copied in from b_top, x of the first copied out to x_top (their pitch: the first level's).
 * What the level-by-level kernels do, point by point, in the same order. */
__kernel void mg_tail(__global REAL *restrict pack, __global const int *restrict table, const int levels,
                      const int coarse_sweeps, __global const REAL *restrict b_top, __global REAL *restrict x_top) {
  FOR_POINTS(0, i, j) {
    AT(ARRAY(0, TAIL_B), i, j, ROW(0, TAIL_PITCH)) = AT(b_top, i, j, ROW(0, TAIL_PITCH));
  }
  STEP();
  for (int l = 0; l < levels; l++) { /* down: smooth, residual, restrict */
    const int pitch = ROW(l, TAIL_PITCH), halves = ROW(l, TAIL_HALVES), last = l == levels - 1;
    __global REAL *b = ARRAY(l, TAIL_B), *x = ARRAY(l, TAIL_X);
    __global const REAL *c = ARRAY(l, TAIL_C), *e = ARRAY(l, TAIL_E), *n = ARRAY(l, TAIL_N);
    __global const REAL *r = b;
    if (ROW(l, TAIL_RELAXED)) {
      FOR_POINTS(l, i, j) {
        smooth_first_point(c, e, n, b, x, i, j, pitch, ((i + j) & 1) == 0);
      }
      STEP();
      for (int s = 1; last && s < coarse_sweeps; s++) {
        tail_sweep(pack, table, l, 0);
        tail_sweep(pack, table, l, 1);
      }
      if (!last) {
        __global REAL *residual = ARRAY(l, TAIL_R);
        FOR_POINTS(l, i, j) {
          AT(residual, i, j, pitch) =
              AT(b, i, j, pitch) - AT(c, i, j, pitch) * AT(x, i, j, pitch) - off_diagonal(c, e, n, x, i, j, pitch);
        }
        STEP();
        r = residual;
      }
    }
    if (!last) {
      FOR_POINTS(l + 1, ci, cj) {
        restrict_point(r, ARRAY(l, TAIL_WM), ARRAY(l, TAIL_WP), ARRAY(l + 1, TAIL_B), ci, cj, pitch,
                       ROW(l + 1, TAIL_PITCH), halves == 0, halves == 1, halves == 0, halves == 1);
      }
      STEP();
    }
  }
  for (int l = levels - 1; l >= 0; l--) { /* up: prolong, smooth */
    const int pitch = ROW(l, TAIL_PITCH), halves = ROW(l, TAIL_HALVES), relaxed = ROW(l, TAIL_RELAXED);
    if (l < levels - 1) {
      FOR_POINTS(l, i, j) {
        prolong_point(ARRAY(l, TAIL_X), ARRAY(l + 1, TAIL_X), ARRAY(l, TAIL_WM), ARRAY(l, TAIL_WP), i, j, pitch,
                      ROW(l + 1, TAIL_PITCH), halves == 0, halves == 0 ? i : j, 0, relaxed);
      }
      STEP();
    }
    const int pairs = l == levels - 1 ? coarse_sweeps : 1;
    for (int s = 0; relaxed && s < pairs; s++) {
      tail_sweep(pack, table, l, 1);
      tail_sweep(pack, table, l, 0);
    }
  }
  FOR_POINTS(0, i, j) {
    AT(x_top, i, j, ROW(0, TAIL_PITCH)) = AT(ARRAY(0, TAIL_X), i, j, ROW(0, TAIL_PITCH));
  }
}
