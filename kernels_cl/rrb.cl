/* SPDX-License-Identifier: BSD-3-Clause */
/* rrb.cl: kernels of the repeated red-black (RRB) solver (src/solver/rrb_layout.c, rrb.c, rrb_dist.c;
 * ../shared/papers/rrb-pcg-gpu.txt sections 2 to 4): the r1/r2/b1/b2 storage (rrb_layout.h), whose place for a point
 * is computed here as rrb_layout_index does on the host (down the levels while the point is an r2 point, then its
 * group's array, or the last level's), the factorization, its application, the first Schur complement, and the same
 * on a rank's block of the distributed levels.
 *
 * Kernels:
 *   layout        to_layout, from_layout (one work-item per point of the nx x ny block; the natural field has ghost
 *                 width `ghost` and row pitch `pitch`)
 *   factorization setup_a, setup_b (one level's elimination), setup_exact, exact_product (the exact last level)
 *   application   forward_r1_level, forward_r2_level, backward_r1_level, backward_black_level, backward_first (z =
 *                 M^-1 r level by level), apply_coarse (every level from the coarse one in one work-group)
 *   Schur         schur_apply (q = S1 p on the red nodes)
 *   distributed   dist_copy, dist_setup_a, dist_setup_b, dist_forward_red, dist_forward_r2, dist_backward_r1,
 *                 dist_backward_black, dist_pack, dist_unpack
 * Macros: REAL (common.clh), COARSE_GROUP (apply_coarse's work-group), and the layout tables' strides below.
 * Layout: each section's comment below says its arrays'. */

INLINE ulong layout_index(int i, int j, int nx, int ny, const int nlevels) {
  ulong offset = 0;
  for (int k = 0; k < nlevels; k++) {
    const int down_x = nx / 2, up_x = (nx + 1) / 2, down_y = ny / 2, up_y = (ny + 1) / 2;
    const ulong b1 = (ulong)down_x * up_y, b2 = (ulong)up_x * down_y, r1 = (ulong)down_x * down_y;
    const int odd_i = i % 2, odd_j = j % 2;
    if (odd_i && !odd_j) {
      return offset + (ulong)(j / 2) * down_x + i / 2;
    }
    if (!odd_i && odd_j) {
      return offset + b1 + (ulong)(j / 2) * up_x + i / 2;
    }
    if (odd_i && odd_j) {
      return offset + b1 + b2 + (ulong)(j / 2) * down_x + i / 2;
    }
    offset += b1 + b2 + r1;
    i /= 2;
    j /= 2;
    nx = up_x;
    ny = up_y;
  }
  return offset + (ulong)j * nx + i;
}

/* layout[place of (i, j)] = natural(i, j). */
__kernel void to_layout(__global const REAL *restrict natural, __global REAL *restrict layout, const int nx,
                        const int ny, const int ghost, const int pitch, const int nlevels) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (!OUTSIDE(i, j)) {
    layout[layout_index(i, j, nx, ny, nlevels)] = natural[(j + ghost) * pitch + i + ghost];
  }
}

/* natural(i, j) = layout[place of (i, j)]. */
__kernel void from_layout(__global const REAL *restrict layout, __global REAL *restrict natural, const int nx,
                          const int ny, const int ghost, const int pitch, const int nlevels) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (!OUTSIDE(i, j)) {
    natural[(j + ghost) * pitch + i + ghost] = layout[layout_index(i, j, nx, ny, nlevels)];
  }
}

/* ---- The RRB factorization and preconditioner (src/solver/rrb.c; rrb-pcg-gpu.txt sections 3.1, 3.2 and 4).
 *
 * Level k of the factorization has an nx x ny grid; node (i, j) is black when i + j is odd, r1 when i and j are odd,
 * r2 when both are even: the r2 nodes are level k + 1's grid, node (i / 2, j / 2). A vector is stored in the
 * r1/r2/b1/b2 layout (rrb_layout.h), described to the kernels by the table `lt` of LT_FIELDS uints per level (in
 * global memory, not __constant: neighbouring work-items read different levels' entries, which constant memory
 * serializes):
 * the offsets of its b1, b2 and r1 groups, the offset of the next level, nx and ny; entry `levels` is the last level
 * (its offset in LT_B1, stored row-major). Every node is stored once, on the level where it is eliminated.
 *
 * The factor M = L D L^T is stored in FACTOR_PLANES planes of `count` REALs, at each eliminated node's own place:
 *   black node b:  1 / d_b, and l = a(b, n) / d_b towards its west, east, south and north neighbours n;
 *   r1 node p:     1 / d_p, and l = rot(p, n) / d_p towards its (i -+ 1, j - 1) and (i -+ 1, j + 1) neighbours;
 * The last level (m nodes, stored row-major) is factorized exactly: its inverse, an m x m matrix, is kept apart
 * (the paper's RRB-k; setup_exact).
 * Forward substitution L x = r is x_n -= l(p -> n) x_p for each eliminated p, level by level; the diagonal and
 * backward substitution L^T z = D^-1 x is z_p = x_p / d_p - sum_n l(p -> n) z_n, in reverse. The same l serve both.
 *
 * The first Schur complement S1 = D_r - S_rb D_b^-1 S_br of level 0 (a 9-point stencil on its red nodes, on which
 * CG runs; section 3) is stored exactly in SCHUR_PLANES planes at the red nodes' places in the vector layout
 * (below): the centre and the couplings to (i + 1, j + 1), (i - 1, j + 1), (i + 2, j) and (i, j + 2), each stored
 * once, at the lower node. */

#define LT_FIELDS 6
#define LT_B1 0
#define LT_B2 1
#define LT_R1 2
#define LT_NEXT 3
#define LT_NX 4
#define LT_NY 5

#define FACTOR_PLANES 5
#define F_INVD 0
#define F_W 1 /* black: l towards (i - 1, j); r1: towards (i - 1, j - 1) */
#define F_E 2 /* black: (i + 1, j); r1: (i + 1, j - 1) */
#define F_S 3 /* black: (i, j - 1); r1: (i - 1, j + 1) */
#define F_N 4 /* black: (i, j + 1); r1: (i + 1, j + 1) */

#define SCHUR_PLANES 5
#define S_C 0
#define S_NE 1
#define S_NW 2
#define S_E2 3
#define S_N2 4

#define PLANE(a, plane, at) (a)[(ulong)(plane)*count + (at)]

typedef struct {
  int nx, ny;
  uint b1, b2, r1;
} Level;

INLINE Level level_of(__global const uint *restrict lt, const int k) {
  Level l;
  l.b1 = lt[LT_FIELDS * k + LT_B1];
  l.b2 = lt[LT_FIELDS * k + LT_B2];
  l.r1 = lt[LT_FIELDS * k + LT_R1];
  l.nx = (int)lt[LT_FIELDS * k + LT_NX];
  l.ny = (int)lt[LT_FIELDS * k + LT_NY];
  return l;
}

/* Places of a level's nodes of known colour: b1 (i odd, j even), b2 (i even, j odd), r1 (both odd). */
INLINE uint b1_at(const Level l, const int i, const int j) {
  return l.b1 + (uint)(j >> 1) * (uint)(l.nx >> 1) + (uint)(i >> 1);
}
INLINE uint b2_at(const Level l, const int i, const int j) {
  return l.b2 + (uint)(j >> 1) * (uint)((l.nx + 1) >> 1) + (uint)(i >> 1);
}
INLINE uint r1_at(const Level l, const int i, const int j) {
  return l.r1 + (uint)(j >> 1) * (uint)(l.nx >> 1) + (uint)(i >> 1);
}
INLINE uint black_at(const Level l, const int i, const int j) {
  return (i & 1) ? b1_at(l, i, j) : b2_at(l, i, j);
}

/* The place of any node (i, j) of level k: it is eliminated on level k + t, t the number of trailing zero bits
 * common to i and j (an r2 node moves down a level per common factor 2), or it is on the last level. */
INLINE uint node_at(__global const uint *restrict lt, const int levels, const int k, int i, int j) {
  const uint both = (uint)(i | j);
  const int common = both == 0 ? levels : (int)(31 - clz(both & (~both + 1u)));
  const int down = min(common, levels - k);
  const Level l = level_of(lt, k + down);
  i >>= down;
  j >>= down;
  if (k + down == levels) {
    return l.b1 + (uint)j * (uint)l.nx + (uint)i;
  }
  return (i & 1) ? ((j & 1) ? r1_at(l, i, j) : b1_at(l, i, j)) : b2_at(l, i, j);
}

/* The vectors of CG and of the preconditioner's interface are in the vector layout (rrb.h): level 0's b1, b2 and r1
 * groups as above, then level 1's grid row-major where the recursive layout starts level 1 (table entry 1), so the
 * red nodes of level 0 are two plain arrays. Only the preconditioner's work vector, from level 1 on, and the factor
 * are in the recursive layout. Level 0's red node (i, j) in the vector layout: */
typedef struct {
  uint r1, r1_pitch; /* level 0's r1 group: (i / 2, j / 2) for i, j odd */
  uint r2, r2_pitch; /* level 1's grid row-major: (i / 2, j / 2) for i, j even */
} Reds;

INLINE Reds reds_of(__global const uint *restrict lt, const int levels) {
  Reds r = {0, 0, 0, 0};
  if (levels > 0) { /* else a 1 x 1 grid: its one node at 0 */
    const Level l0 = level_of(lt, 0);
    r.r1 = l0.r1;
    r.r1_pitch = (uint)(l0.nx >> 1);
    r.r2 = lt[LT_FIELDS + LT_B1];
    r.r2_pitch = lt[LT_FIELDS + LT_NX];
  }
  return r;
}

INLINE uint red0_at(const Reds r, const int i, const int j) {
  return (i & 1) ? r.r1 + (uint)(j >> 1) * r.r1_pitch + (uint)(i >> 1)
                 : r.r2 + (uint)(j >> 1) * r.r2_pitch + (uint)(i >> 1);
}

/* ---- Setup: one level's straight 5-point stencil (c, e, n; natural order, (i, j) at base + j pitch + i, 0
 * outside) gives its rotated stencil on the red nodes (step A: black nodes eliminated, the straight fill at distance
 * 2 lumped onto the two nodes between), which gives the next level's straight stencil (step B: r1 nodes eliminated,
 * the diagonal fill lumped likewise). Both in gather form: one node's new coefficients from the old stencil alone,
 * as tests/unit/rrb_reference.c (rrb_gather_step_a, rrb_gather_step_b) computes them on the host. */

/* Where a level's node (i, j) is kept in a natural-order array: base + j pitch + i step (step 1 in one rank's
 * scratch; 2^k in the distributed levels, which keep level k in the first level's array); nx x ny is the level's
 * whole grid, outside which nothing is read. */
typedef struct {
  long base, pitch;
  int step, nx, ny;
} Place;

INLINE long place(const Place g, const int i, const int j) {
  return g.base + (long)j * g.pitch + (long)i * g.step;
}

typedef struct {
  __global const REAL *c, *e, *n;
  Place at;
} Straight;

INLINE bool inside(const int i, const int j, const int nx, const int ny) {
  return i >= 0 && i < nx && j >= 0 && j < ny;
}
INLINE REAL st_c(const Straight s, const int i, const int j) {
  return inside(i, j, s.at.nx, s.at.ny) ? s.c[place(s.at, i, j)] : (REAL)1;
}
INLINE REAL st_e(const Straight s, const int i, const int j) {
  return inside(i, j, s.at.nx, s.at.ny) && i + 1 < s.at.nx ? s.e[place(s.at, i, j)] : (REAL)0;
}
INLINE REAL st_n(const Straight s, const int i, const int j) {
  return inside(i, j, s.at.nx, s.at.ny) && j + 1 < s.at.ny ? s.n[place(s.at, i, j)] : (REAL)0;
}

/* The fill between red nodes (i, j) and (i + 2, j) through the black node between (0 without the pair), and between
 * (i, j) and (i, j + 2). */
INLINE REAL fill_x(const Straight s, const int i, const int j) {
  return inside(i, j, s.at.nx, s.at.ny) && inside(i + 2, j, s.at.nx, s.at.ny)
             ? -st_e(s, i, j) * st_e(s, i + 1, j) / st_c(s, i + 1, j)
             : (REAL)0;
}
INLINE REAL fill_y(const Straight s, const int i, const int j) {
  return inside(i, j, s.at.nx, s.at.ny) && inside(i, j + 2, s.at.nx, s.at.ny)
             ? -st_n(s, i, j) * st_n(s, i, j + 1) / st_c(s, i, j + 1)
             : (REAL)0;
}

/* a^2 / d for the black neighbour (bi, bj) coupled by a (0 outside). */
INLINE REAL diagonal_fill(const Straight s, const int bi, const int bj, const REAL a) {
  return inside(bi, bj, s.at.nx, s.at.ny) ? a * a / st_c(s, bi, bj) : (REAL)0;
}

/* The exact Schur complement at red node (i, j) (centre, couplings to (i + 1, j + 1) and (i - 1, j + 1) through
 * the black nodes between), before any lumping. */
INLINE REAL schur_centre(const Straight s, const int i, const int j) {
  return st_c(s, i, j) - (diagonal_fill(s, i + 1, j, st_e(s, i, j)) + diagonal_fill(s, i - 1, j, st_e(s, i - 1, j)) +
                          diagonal_fill(s, i, j + 1, st_n(s, i, j)) + diagonal_fill(s, i, j - 1, st_n(s, i, j - 1)));
}
INLINE REAL schur_ne(const Straight s, const int i, const int j) {
  return inside(i + 1, j + 1, s.at.nx, s.at.ny) ? -(st_e(s, i, j) * st_n(s, i + 1, j) / st_c(s, i + 1, j) +
                                                    st_n(s, i, j) * st_e(s, i, j + 1) / st_c(s, i, j + 1))
                                                : (REAL)0;
}
INLINE REAL schur_nw(const Straight s, const int i, const int j) {
  return inside(i - 1, j + 1, s.at.nx, s.at.ny) ? -(st_e(s, i - 1, j) * st_n(s, i - 1, j) / st_c(s, i - 1, j) +
                                                    st_n(s, i, j) * st_e(s, i - 1, j + 1) / st_c(s, i, j + 1))
                                                : (REAL)0;
}

/* Step A at red node (i, j): the exact Schur complement, then the lumping of the straight fill at distance 2 seen
 * from this node: as an end of a pair, half the fill for each node between the pair that is outside the grid; as a
 * node between two, minus the fill; half the fill on its couplings to the ends of such pairs. */
INLINE void step_a(const Straight s, const int i, const int j, REAL *centre, REAL *ne, REAL *nw) {
  REAL c = schur_centre(s, i, j), to_ne = schur_ne(s, i, j), to_nw = schur_nw(s, i, j);
  const REAL ends[4] = {fill_x(s, i, j), fill_x(s, i - 2, j), fill_y(s, i, j), fill_y(s, i, j - 2)};
  const int between[4][4] = {{1, 1, 1, -1}, {-1, 1, -1, -1}, {1, 1, -1, 1}, {1, -1, -1, -1}};
  for (int e = 0; e < 4; e++) {
    for (int m = 0; m < 2; m++) {
      c += inside(i + between[e][2 * m], j + between[e][2 * m + 1], s.at.nx, s.at.ny) ? (REAL)0 : ends[e] / 2;
    }
  }
  c -= fill_x(s, i - 1, j - 1) + fill_x(s, i - 1, j + 1) + fill_y(s, i - 1, j - 1) + fill_y(s, i + 1, j - 1);
  if (inside(i + 1, j + 1, s.at.nx, s.at.ny)) {
    to_ne += (fill_x(s, i, j) + fill_y(s, i, j) + fill_x(s, i - 1, j + 1) + fill_y(s, i + 1, j - 1)) / 2;
  }
  if (inside(i - 1, j + 1, s.at.nx, s.at.ny)) {
    to_nw += (fill_x(s, i - 2, j) + fill_x(s, i - 1, j + 1) + fill_y(s, i, j) + fill_y(s, i - 1, j - 1)) / 2;
  }
  *centre = c;
  *ne = to_ne;
  *nw = to_nw;
}

/* A level's rotated stencil after step A: natural order, pitch nx, meaningful at red nodes, 0 outside. */
typedef struct {
  __global const REAL *c, *ne, *nw;
  Place at;
} Rotated;

INLINE REAL rot(const Rotated r, __global const REAL *a, const int i, const int j) {
  return inside(i, j, r.at.nx, r.at.ny) ? a[place(r.at, i, j)] : (REAL)0;
}
/* The diagonal fill between red nodes (i, j) and (i + 2, j + 2) through the r1 node between, and between (i, j) and
 * (i - 2, j + 2) (0 without the pair). */
INLINE REAL fill_ne(const Rotated r, const int i, const int j) {
  return inside(i, j, r.at.nx, r.at.ny) && inside(i + 2, j + 2, r.at.nx, r.at.ny)
             ? -rot(r, r.ne, i, j) * rot(r, r.ne, i + 1, j + 1) / rot(r, r.c, i + 1, j + 1)
             : (REAL)0;
}
INLINE REAL fill_nw(const Rotated r, const int i, const int j) {
  return inside(i, j, r.at.nx, r.at.ny) && inside(i - 2, j + 2, r.at.nx, r.at.ny)
             ? -rot(r, r.nw, i, j) * rot(r, r.nw, i - 1, j + 1) / rot(r, r.c, i - 1, j + 1)
             : (REAL)0;
}
/* to_q / d_q * from_q through the r1 node q (0 when q is outside). */
INLINE REAL through(const Rotated r, const int qi, const int qj, const REAL to_q, const REAL from_q) {
  return inside(qi, qj, r.at.nx, r.at.ny) ? to_q * from_q / rot(r, r.c, qi, qj) : (REAL)0;
}

/* Step B at r2 node (i, j) = next-level node (i / 2, j / 2): its straight stencil there. */
INLINE void step_b(const Rotated r, const int i, const int j, REAL *centre, REAL *east, REAL *north) {
  const REAL to_ne = rot(r, r.ne, i, j), to_nw = rot(r, r.nw, i, j);
  const REAL to_se = rot(r, r.nw, i + 1, j - 1), to_sw = rot(r, r.ne, i - 1, j - 1);
  REAL c = rot(r, r.c, i, j) - through(r, i + 1, j + 1, to_ne, to_ne) - through(r, i - 1, j + 1, to_nw, to_nw) -
           through(r, i + 1, j - 1, to_se, to_se) - through(r, i - 1, j - 1, to_sw, to_sw);
  REAL e = 0, n = 0;
  if (inside(i + 2, j, r.at.nx, r.at.ny)) {
    e = -(through(r, i + 1, j + 1, to_ne, rot(r, r.nw, i + 2, j)) +
          through(r, i + 1, j - 1, to_se, rot(r, r.ne, i + 1, j - 1)));
    e += (fill_ne(r, i, j) + fill_ne(r, i, j - 2) + fill_nw(r, i + 2, j - 2) + fill_nw(r, i + 2, j)) / 2;
  }
  if (inside(i, j + 2, r.at.nx, r.at.ny)) {
    n = -(through(r, i + 1, j + 1, to_ne, rot(r, r.nw, i + 1, j + 1)) +
          through(r, i - 1, j + 1, to_nw, rot(r, r.ne, i - 1, j + 1)));
    n += (fill_ne(r, i, j) + fill_ne(r, i - 2, j) + fill_nw(r, i, j) + fill_nw(r, i + 2, j)) / 2;
  }
  c -= fill_ne(r, i - 2, j) + fill_ne(r, i, j - 2) + fill_nw(r, i + 2, j) + fill_nw(r, i, j - 2);
  *centre = c;
  *east = e;
  *north = n;
}

/* A pivot that is not positive (or NaN) marks the level in *failed (the smallest such level wins). */
INLINE REAL inverse_pivot(const REAL d, const int k, volatile __global int *failed) {
  if (!(d > 0)) {
    atomic_min(failed, k);
  }
  return (REAL)1 / d;
}

#define SETUP_ARGS                                                                                                     \
  __global const uint *restrict lt, const int levels, const uint count, __global REAL *factor,                         \
      volatile __global int *failed

/* Step A on level k over its nx x ny nodes: black nodes store their pivot and l; red nodes their rotated stencil
 * (rot_*, natural order); with `schur`, red nodes of level 0 also store the exact S1. */
__kernel void setup_a(__global const REAL *c, __global const REAL *e, __global const REAL *n, const long base,
                      const int pitch, const int k, __global REAL *rot_c, __global REAL *rot_ne, __global REAL *rot_nw,
                      __global REAL *schur, const int with_schur, SETUP_ARGS) {
  const int i = get_global_id(0), j = get_global_id(1);
  const Level l = level_of(lt, k);
  const int nx = l.nx, ny = l.ny;
  if (OUTSIDE(i, j)) {
    return;
  }
  const Straight s = {c, e, n, {base, pitch, 1, nx, ny}};
  if ((i + j) & 1) {
    const uint at = black_at(l, i, j);
    const REAL inv = inverse_pivot(st_c(s, i, j), k, failed);
    PLANE(factor, F_INVD, at) = inv;
    PLANE(factor, F_W, at) = st_e(s, i - 1, j) * inv;
    PLANE(factor, F_E, at) = st_e(s, i, j) * inv;
    PLANE(factor, F_S, at) = st_n(s, i, j - 1) * inv;
    PLANE(factor, F_N, at) = st_n(s, i, j) * inv;
    return;
  }
  REAL centre, ne, nw;
  step_a(s, i, j, &centre, &ne, &nw);
  const ulong p = (ulong)j * nx + i;
  rot_c[p] = centre;
  rot_ne[p] = ne;
  rot_nw[p] = nw;
  if (with_schur) {
    const uint at = red0_at(reds_of(lt, levels), i, j);
    PLANE(schur, S_C, at) = schur_centre(s, i, j);
    PLANE(schur, S_NE, at) = schur_ne(s, i, j);
    PLANE(schur, S_NW, at) = schur_nw(s, i, j);
    PLANE(schur, S_E2, at) = fill_x(s, i, j);
    PLANE(schur, S_N2, at) = fill_y(s, i, j);
  }
}

/* Step B on level k over its cells (ceil(nx / 2) x ceil(ny / 2)): the r1 node (2a + 1, 2b + 1) stores its pivot
 * and l; the r2 node (2a, 2b) gives the next level's straight stencil at (a, b) (natural order, pitch ceil(nx / 2)). */
__kernel void setup_b(__global const REAL *rot_c, __global const REAL *rot_ne, __global const REAL *rot_nw, const int k,
                      __global REAL *next_c, __global REAL *next_e, __global REAL *next_n, SETUP_ARGS) {
  const int a = get_global_id(0), b = get_global_id(1);
  const Level l = level_of(lt, k);
  const int nx = (l.nx + 1) / 2, ny = (l.ny + 1) / 2;
  if (OUTSIDE(a, b)) {
    return;
  }
  const Rotated r = {rot_c, rot_ne, rot_nw, {0, l.nx, 1, l.nx, l.ny}};
  REAL centre, east, north;
  step_b(r, 2 * a, 2 * b, &centre, &east, &north);
  const ulong p = (ulong)b * nx + a;
  next_c[p] = centre;
  next_e[p] = east;
  next_n[p] = north;
  const int i = 2 * a + 1, j = 2 * b + 1;
  if (i < l.nx && j < l.ny) {
    const uint at = r1_at(l, i, j);
    const REAL inv = inverse_pivot(rot(r, r.c, i, j), k, failed);
    PLANE(factor, F_INVD, at) = inv;
    PLANE(factor, F_W, at) = rot(r, r.ne, i - 1, j - 1) * inv;
    PLANE(factor, F_E, at) = rot(r, r.nw, i + 1, j - 1) * inv;
    PLANE(factor, F_S, at) = rot(r, r.nw, i, j) * inv;
    PLANE(factor, F_N, at) = rot(r, r.ne, i, j) * inv;
  }
}

/* ---- The exact last level (the paper's RRB-k, section 2): a straight 5-point stencil on fx x fy nodes, whose
 * inverse A^-1 is formed once per setup and applied as a dense product. Its nodes are numbered along the shorter
 * side (row by row when fx <= fy, column by column otherwise), which makes A a band matrix of half-bandwidth
 * bw = min(fx, fy) <= EXACT_BAND_MAX (the last level has at most RRB_EXACT_MAX = 256 nodes: rrb.h). setup_exact
 * factorizes A = L D L^T in its band, in local memory, and sweeps Z = D^-1/2 L^-1 column by column (one
 * work-item per column; Z is lower triangular); exact_product forms A^-1 = Z^T Z, one work-item per entry. */
#define EXACT_BAND_MAX 16
#define BAND_STRIDE (EXACT_BAND_MAX + 1)
#define REAL8 HCL_CAT(REAL, 8)
#define REAL16 HCL_CAT(REAL, 16)

/* The band order of last-level node (i, j), and back. */
INLINE int exact_order(const int i, const int j, const int fx, const int fy) {
  return fx <= fy ? j * fx + i : i * fy + j;
}
INLINE int exact_row_major(const int r, const int fx, const int fy) {
  return fx <= fy ? r : (r % fy) * fx + r / fy;
}

/* Row r of the band, entry d: A(r, r - d), then L(r, r - d) (D at d = 0); 0 where r - d < 0 or d > bw, so a row's
 * entries 1 .. EXACT_BAND_MAX are one vector. */
#define BAND(d, r) band[(r)*BAND_STRIDE + (d)]
#define MATRIX(a, r, q) (a)[(ulong)(r)*m + (q)]

INLINE REAL sum16(const REAL16 v) {
  const REAL8 a = v.lo + v.hi;
  const REAL4 b = a.lo + a.hi;
  const REAL2 c = b.lo + b.hi;
  return c.x + c.y;
}

/* A = L D L^T, right-looking: step t removes column t from rows t + 1 .. t + bw (one barrier a step: the m steps are
 * the sequential part), then L's entries are divided by D. */
INLINE void exact_factor(__local REAL *band, const int m, const int bw, const int levels,
                         volatile __global int *failed) {
  const int lid = get_local_id(0), size = get_local_size(0);
  for (int t = 0; t < m; t++) {
    const REAL inverse_d = 1 / BAND(0, t);
    if (lid == 0 && !(BAND(0, t) > 0)) {
      atomic_min(failed, levels);
    }
    const int w = min(bw, m - 1 - t);
    for (int u = lid; u < EXACT_BAND_MAX * EXACT_BAND_MAX; u += size) {
      const int io = u / EXACT_BAND_MAX + 1, jo = u % EXACT_BAND_MAX + 1;
      if (jo <= io && io <= w) { /* A(t + io, t + jo) -= A(t + io, t) A(t + jo, t) / d */
        BAND(io - jo, t + io) -= BAND(io, t + io) * BAND(jo, t + jo) * inverse_d;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int u = lid; u < m * EXACT_BAND_MAX; u += size) {
    const int r = u / EXACT_BAND_MAX, d = u % EXACT_BAND_MAX + 1;
    if (d <= bw && r >= d) {
      BAND(d, r) /= BAND(0, r - d);
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

/* Column q of Z = D^-1/2 L^-1: forward L y = e_q from row q (y is 0 above), the last EXACT_BAND_MAX values of y in
 * a vector register (recent.s0: the row before). */
INLINE void exact_sweep(__local const REAL *band, __global REAL *z, const int m, const int q) {
  REAL16 recent = (REAL16)0;
  for (int r = q; r < m; r++) {
    const REAL y = (r == q ? (REAL)1 : (REAL)0) - sum16(vload16(0, band + r * BAND_STRIDE + 1) * recent);
    recent = (REAL16)(y, recent.s012, recent.s3456, recent.s789a, recent.sbcde);
    MATRIX(z, r, q) = y / sqrt(BAND(0, r));
  }
}

/* Z of the last level from its straight stencil (c, e, n at base + j pitch + i), by one work-group (band:
 * m BAND_STRIDE REALs of local memory); a pivot that is not positive marks level `levels` failed. With `schur` and
 * no level before it (a 1 x 1 grid), S1 is that node. */
__kernel void setup_exact(__global const REAL *c, __global const REAL *e, __global const REAL *n, const long base,
                          const int pitch, __global REAL *schur, const int with_schur, const int bw, __global REAL *z,
                          __local REAL *band, SETUP_ARGS) {
  const int lid = get_local_id(0), size = get_local_size(0);
  const Level l = level_of(lt, levels);
  const int fx = l.nx, fy = l.ny, m = fx * fy;
  const int dx = exact_order(1, 0, fx, fy), dy = exact_order(0, 1, fx, fy); /* the band offsets of west, south */
  for (int u = lid; u < m * BAND_STRIDE; u += size) {
    band[u] = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int p = lid; p < m; p += size) { /* dx and dy coincide on a one-row grid, where one coupling is absent */
    const int i = p % fx, j = p / fx, r = exact_order(i, j, fx, fy);
    const long at = base + (long)j * pitch + i;
    BAND(0, r) = c[at];
    if (i > 0) {
      BAND(dx, r) = e[at - 1];
    }
    if (j > 0) {
      BAND(dy, r) = n[at - pitch];
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  exact_factor(band, m, bw, levels, failed);
  for (int q = lid; q < m; q += size) {
    exact_sweep(band, z, m, q);
  }
  if (with_schur && lid == 0) {
    PLANE(schur, S_C, l.b1) = c[base];
    PLANE(schur, S_NE, l.b1) = PLANE(schur, S_NW, l.b1) = PLANE(schur, S_E2, l.b1) = PLANE(schur, S_N2, l.b1) = 0;
  }
}

/* A^-1(i, j) = sum over k >= max(i, j) of Z(k, i) Z(k, j), one work-item per entry of the m x m matrix. */
__kernel void exact_product(__global const REAL *z, __global REAL *inverse, const int m) {
  const int j = get_global_id(0), i = get_global_id(1);
  if (i >= m || j >= m) {
    return;
  }
  REAL sum = 0;
  for (int k = max(i, j); k < m; k++) {
    sum += MATRIX(z, k, i) * MATRIX(z, k, j);
  }
  MATRIX(inverse, i, j) = sum;
}

/* x = A^-1 x on the last level, by the work-group. Each of the size / m parts of the group (at least one) sums its
 * slice of every row's product, which spreads the m^2 loads of A^-1 over all the work-items (local memory: the m
 * REALs of the right-hand side, then max(size, m) partial sums). */
INLINE void exact_apply(__global REAL *x, const Level l, __global const REAL *inverse, __local REAL *scratch) {
  const int lid = get_local_id(0), size = get_local_size(0);
  const int fx = l.nx, fy = l.ny, m = fx * fy;
  const int parts = max(size / m, 1), slice = (m + parts - 1) / parts;
  __local REAL *rhs = scratch, *partial = scratch + m;
  for (int p = lid; p < m; p += size) {
    rhs[exact_order(p % fx, p / fx, fx, fy)] = x[l.b1 + p];
  }
  /* x is read above and written below, a place by other work-items where the two orders differ (the last level of a
   * 24 x 16 grid: Oclgrind's data-race check, tests/kernels/test_oclgrind.sh vbm): the global fence too. */
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  for (int t = lid; t < m * parts; t += size) {
    const int r = t % m, first = t / m * slice, end = min(first + slice, m);
    REAL sum = 0;
    for (int q = first; q < end; q++) {
      sum += MATRIX(inverse, q, r) * rhs[q];
    }
    partial[t] = sum;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int r = lid; r < m; r += size) {
    REAL sum = 0;
    for (int part = 0; part < parts; part++) {
      sum += partial[part * m + r];
    }
    x[l.b1 + exact_row_major(r, fx, fy)] = sum;
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
}

/* ---- Applying M^-1 (section 3.2): forward substitution level by level, the pivots, backward substitution, on a
 * vector in the layout. Each stage is a function of one node, launched one work-item per node by its kernel on large
 * levels and looped over by one work-group (apply_coarse) on the small ones. `src` holds the vector before the
 * stage and `dst` receives it (the same buffer except on level 0, which reads the residual and writes z).
 * The forward values of the r1 nodes, x_p - sum of l x_b over p's black neighbours b, are not stored: the r2 nodes
 * that need them and the r1 node's own backward stage compute them again (forward_value). So a level's forward
 * substitution is one stage, which writes only its r2 nodes while the others read their neighbours: the launches,
 * not the loads, bound the small levels. */

#define APPLY_ARGS                                                                                                     \
  __global const uint *restrict lt, const int levels, const uint count, __global const REAL *restrict factor

/* sum over the black neighbours n of red node (i, j) of l(n -> (i, j)) x_n. */
INLINE REAL from_black(const Level l, __global const REAL *factor, const uint count, __global const REAL *x,
                       const int i, const int j) {
  REAL sum = 0;
  if (i > 0) {
    const uint w = black_at(l, i - 1, j);
    sum += PLANE(factor, F_E, w) * x[w];
  }
  if (i + 1 < l.nx) {
    const uint e = black_at(l, i + 1, j);
    sum += PLANE(factor, F_W, e) * x[e];
  }
  if (j > 0) {
    const uint s = black_at(l, i, j - 1);
    sum += PLANE(factor, F_N, s) * x[s];
  }
  if (j + 1 < l.ny) {
    const uint n = black_at(l, i, j + 1);
    sum += PLANE(factor, F_S, n) * x[n];
  }
  return sum;
}

/* sum over the r1 neighbours p of r2 node (i, j) of l(p -> (i, j)) x_p. */
/* The forward value of r1 node (i, j) of level k: x less its black neighbours' contributions (none on level 0, whose
 * black nodes the Schur complement took exactly). */
INLINE REAL forward_value(const Level l, __global const REAL *factor, const uint count, __global const REAL *x,
                          const int k, const int i, const int j) {
  const REAL value = x[r1_at(l, i, j)];
  return k == 0 ? value : value - from_black(l, factor, count, x, i, j);
}

/* sum over the r1 neighbours p of r2 node (i, j) of l(p -> (i, j)) times p's forward value. */
INLINE REAL from_r1(const Level l, __global const REAL *factor, const uint count, __global const REAL *x, const int k,
                    const int i, const int j) {
  REAL sum = 0;
  if (i > 0 && j > 0) {
    sum += PLANE(factor, F_N, r1_at(l, i - 1, j - 1)) * forward_value(l, factor, count, x, k, i - 1, j - 1);
  }
  if (i + 1 < l.nx && j > 0) {
    sum += PLANE(factor, F_S, r1_at(l, i + 1, j - 1)) * forward_value(l, factor, count, x, k, i + 1, j - 1);
  }
  if (i > 0 && j + 1 < l.ny) {
    sum += PLANE(factor, F_E, r1_at(l, i - 1, j + 1)) * forward_value(l, factor, count, x, k, i - 1, j + 1);
  }
  if (i + 1 < l.nx && j + 1 < l.ny) {
    sum += PLANE(factor, F_W, r1_at(l, i + 1, j + 1)) * forward_value(l, factor, count, x, k, i + 1, j + 1);
  }
  return sum;
}

#define TERMS_BLACK 1
#define TERMS_R1 2
#define TO_WORK 4 /* level 0: write the r2 nodes into the work vector (the recursive layout) */

/* The place of red node (i, j) of level k: on level 0 in the vector layout (the caller's vectors), below in the
 * recursive one (the work vector). */
INLINE uint red_at(__global const uint *restrict lt, const int levels, const int k, const int i, const int j) {
  return k == 0 ? red0_at(reds_of(lt, levels), i, j) : node_at(lt, levels, k, i, j);
}

/* Forward, r1 node (i, j) of level k: x -= the black nodes' contributions (stored: the Schur complement's
 * right-hand side on level 0). */
INLINE void forward_r1(APPLY_ARGS, __global const REAL *src, __global REAL *dst, const int k, const int i,
                       const int j) {
  const Level l = level_of(lt, k);
  const uint at = r1_at(l, i, j);
  dst[at] = src[at] - from_black(l, factor, count, src, i, j);
}

/* Forward, r2 node (i, j) of level k: x -= the black nodes' contributions and the r1 nodes' (their forward values),
 * as `terms` says; on level 0 from the vector layout to itself or (TO_WORK) to the work vector. */
INLINE void forward_r2(APPLY_ARGS, __global const REAL *src, __global REAL *dst, const int k, const int terms,
                       const int i, const int j) {
  const Level l = level_of(lt, k);
  const uint from = red_at(lt, levels, k, i, j);
  const uint to = (terms & TO_WORK) ? node_at(lt, levels, k, i, j) : from;
  REAL sum = (terms & TERMS_BLACK) ? from_black(l, factor, count, src, i, j) : (REAL)0;
  sum += (terms & TERMS_R1) ? from_r1(l, factor, count, src, k, i, j) : (REAL)0;
  dst[to] = src[from] - sum;
}

/* Backward, r1 node (i, j) of level k: z = (its forward value) / d - sum of l z over its r2 neighbours (done, in the
 * work vector), before its black neighbours change. */
INLINE void backward_r1(APPLY_ARGS, __global const REAL *src, __global const REAL *done, __global REAL *dst,
                        const int k, const int i, const int j) {
  const Level l = level_of(lt, k);
  const uint at = r1_at(l, i, j);
  REAL sum = PLANE(factor, F_W, at) * done[node_at(lt, levels, k, i - 1, j - 1)];
  if (i + 1 < l.nx) {
    sum += PLANE(factor, F_E, at) * done[node_at(lt, levels, k, i + 1, j - 1)];
  }
  if (j + 1 < l.ny) {
    sum += PLANE(factor, F_S, at) * done[node_at(lt, levels, k, i - 1, j + 1)];
  }
  if (i + 1 < l.nx && j + 1 < l.ny) {
    sum += PLANE(factor, F_N, at) * done[node_at(lt, levels, k, i + 1, j + 1)];
  }
  dst[at] = PLANE(factor, F_INVD, at) * forward_value(l, factor, count, src, k, i, j) - sum;
}

/* Backward, black node (i, j) of level k: z = x / d - sum of l z over its red neighbours (done; on level 0 in the
 * vector layout). */
INLINE void backward_black(APPLY_ARGS, __global const REAL *src, __global REAL *dst, const int k, const int i,
                           const int j) {
  const Level l = level_of(lt, k);
  const uint at = black_at(l, i, j);
  REAL sum = 0;
  if (i > 0) {
    sum += PLANE(factor, F_W, at) * dst[red_at(lt, levels, k, i - 1, j)];
  }
  if (i + 1 < l.nx) {
    sum += PLANE(factor, F_E, at) * dst[red_at(lt, levels, k, i + 1, j)];
  }
  if (j > 0) {
    sum += PLANE(factor, F_S, at) * dst[red_at(lt, levels, k, i, j - 1)];
  }
  if (j + 1 < l.ny) {
    sum += PLANE(factor, F_N, at) * dst[red_at(lt, levels, k, i, j + 1)];
  }
  dst[at] = PLANE(factor, F_INVD, at) * src[at] - sum;
}

/* The stage kernels, one work-item per node: r1 nodes over the (nx / 2) x (ny / 2) r1 grid, r2 nodes over the
 * ceil(nx / 2) x ceil(ny / 2) cells, black nodes over ceil(nx / 2) x ny (row j's black nodes, i = 2u + 1 - j % 2). */
__kernel void forward_r1_level(APPLY_ARGS, __global const REAL *src, __global REAL *dst, const int k) {
  const int u = get_global_id(0), v = get_global_id(1);
  const Level l = level_of(lt, k);
  const int nx = l.nx / 2, ny = l.ny / 2;
  if (!OUTSIDE(u, v)) {
    forward_r1(lt, levels, count, factor, src, dst, k, 2 * u + 1, 2 * v + 1);
  }
}

__kernel void forward_r2_level(APPLY_ARGS, __global const REAL *src, __global REAL *dst, const int k, const int terms) {
  const int u = get_global_id(0), v = get_global_id(1);
  const Level l = level_of(lt, k);
  const int nx = (l.nx + 1) / 2, ny = (l.ny + 1) / 2;
  if (!OUTSIDE(u, v)) {
    forward_r2(lt, levels, count, factor, src, dst, k, terms, 2 * u, 2 * v);
  }
}

__kernel void backward_r1_level(APPLY_ARGS, __global const REAL *src, __global REAL *dst, const int k) {
  const int u = get_global_id(0), v = get_global_id(1);
  const Level l = level_of(lt, k);
  const int nx = l.nx / 2, ny = l.ny / 2;
  if (!OUTSIDE(u, v)) {
    backward_r1(lt, levels, count, factor, src, dst, dst, k, 2 * u + 1, 2 * v + 1);
  }
}

__kernel void backward_black_level(APPLY_ARGS, __global const REAL *src, __global REAL *dst, const int k) {
  const int u = get_global_id(0), j = get_global_id(1);
  const Level l = level_of(lt, k);
  const int nx = (l.nx + 1) / 2, ny = l.ny;
  const int i = 2 * u + 1 - (j & 1);
  if (!OUTSIDE(u, j) && i < l.nx) {
    backward_black(lt, levels, count, factor, src, dst, k, i, j);
  }
}

/* Level 0's backward stage, out of the work vector: over level 0's cells, r1 node (2u + 1, 2v + 1) gets
 * z = r / d - sum of l z over its r2 neighbours (in work) and r2 node (2u, 2v) its value in work; r and z in the
 * vector layout. */
__kernel void backward_first(APPLY_ARGS, __global const REAL *r, __global const REAL *work, __global REAL *z) {
  const int u = get_global_id(0), v = get_global_id(1);
  const Level l = level_of(lt, 0);
  const int nx = (l.nx + 1) / 2, ny = (l.ny + 1) / 2;
  if (OUTSIDE(u, v)) {
    return;
  }
  const int i = 2 * u, j = 2 * v;
  z[red0_at(reds_of(lt, levels), i, j)] = work[node_at(lt, levels, 0, i, j)];
  if (i + 1 < l.nx && j + 1 < l.ny) {
    backward_r1(lt, levels, count, factor, r, work, z, 0, i + 1, j + 1);
  }
}

/* Levels first_level .. the last, forward and back, in place on x, by one work-group of COARSE_GROUP work-items
 * (rrb.c sets it from the device; the other users of this file do not launch this kernel): the small levels would
 * otherwise cost a launch per stage and leave the device idle (the paper does its last six levels so). */
#ifndef COARSE_GROUP
#define COARSE_GROUP 1
#endif
__kernel __attribute__((reqd_work_group_size(COARSE_GROUP, 1, 1))) void
apply_coarse(APPLY_ARGS, __global REAL *x, const int first_level, __global const REAL *inverse, __local REAL *scratch) {
  const int lid = get_local_id(0), size = get_local_size(0);
  for (int k = first_level; k < levels; k++) {
    const Level l = level_of(lt, k);
    const int cx = (l.nx + 1) / 2, cy = (l.ny + 1) / 2;
    for (int t = lid; t < cx * cy; t += size) {
      forward_r2(lt, levels, count, factor, x, x, k, TERMS_BLACK | TERMS_R1, 2 * (t % cx), 2 * (t / cx));
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
  exact_apply(x, level_of(lt, levels), inverse, scratch);
  for (int k = levels - 1; k >= first_level; k--) {
    const Level l = level_of(lt, k);
    const int r1x = l.nx / 2, r1y = l.ny / 2, cx = (l.nx + 1) / 2;
    for (int t = lid; t < r1x * r1y; t += size) {
      backward_r1(lt, levels, count, factor, x, x, x, k, 2 * (t % r1x) + 1, 2 * (t / r1x) + 1);
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (int t = lid; t < cx * l.ny; t += size) {
      const int j = t / cx, i = 2 * (t % cx) + 1 - (j & 1);
      if (i < l.nx) {
        backward_black(lt, levels, count, factor, x, x, k, i, j);
      }
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
}

/* ---- CG on the first Schur complement (section 3): its vectors are the red nodes of level 0, the places from
 * level 0's r1 offset on. */

/* q = S1 p at red node (i, j) of level 0 (every place in the vector layout: two plain arrays). */
INLINE void schur_at(const Level l, const Reds reds, const uint count, __global const REAL *restrict schur,
                     __global const REAL *restrict p, __global REAL *restrict q, const int i, const int j) {
  const uint at = red0_at(reds, i, j);
  REAL sum = PLANE(schur, S_C, at) * p[at];
  if (i + 1 < l.nx && j + 1 < l.ny) {
    sum += PLANE(schur, S_NE, at) * p[red0_at(reds, i + 1, j + 1)];
  }
  if (i > 0 && j > 0) {
    const uint n = red0_at(reds, i - 1, j - 1);
    sum += PLANE(schur, S_NE, n) * p[n];
  }
  if (i > 0 && j + 1 < l.ny) {
    sum += PLANE(schur, S_NW, at) * p[red0_at(reds, i - 1, j + 1)];
  }
  if (i + 1 < l.nx && j > 0) {
    const uint n = red0_at(reds, i + 1, j - 1);
    sum += PLANE(schur, S_NW, n) * p[n];
  }
  if (i + 2 < l.nx) {
    sum += PLANE(schur, S_E2, at) * p[red0_at(reds, i + 2, j)];
  }
  if (i >= 2) {
    const uint n = red0_at(reds, i - 2, j);
    sum += PLANE(schur, S_E2, n) * p[n];
  }
  if (j + 2 < l.ny) {
    sum += PLANE(schur, S_N2, at) * p[red0_at(reds, i, j + 2)];
  }
  if (j >= 2) {
    const uint n = red0_at(reds, i, j - 2);
    sum += PLANE(schur, S_N2, n) * p[n];
  }
  q[at] = sum;
}

/* q = S1 p over level 0's cells: r2 node (2u, 2v) and r1 node (2u + 1, 2v + 1) (on a 1 x 1 grid, its one node). */
__kernel void schur_apply(__global const uint *restrict lt, const int levels, const uint count,
                          __global const REAL *restrict schur, __global const REAL *restrict p,
                          __global REAL *restrict q) {
  const int u = get_global_id(0), v = get_global_id(1);
  const Level l = level_of(lt, 0);
  const int nx = (l.nx + 1) / 2, ny = (l.ny + 1) / 2;
  if (OUTSIDE(u, v)) {
    return;
  }
  const Reds reds = reds_of(lt, levels);
  schur_at(l, reds, count, schur, p, q, 2 * u, 2 * v);
  if (2 * u + 1 < l.nx && 2 * v + 1 < l.ny) {
    schur_at(l, reds, count, schur, p, q, 2 * u + 1, 2 * v + 1);
  }
}

/* ---- The distributed levels (src/solver/rrb_dist.c): the same factorization and substitutions on a rank's block
 * of the first level's grid, in natural order with ghost layers. Level k's node (i, j) is the first level's point
 * (i 2^k, j 2^k), kept in place in the first level's arrays (Place: step 2^k); its neighbours on other ranks are in
 * the ghost layers, exchanged before each stage. A kernel runs one work-item per level-k node (i0 + u, j0 + v) of
 * the nx x ny nodes it is given and acts on the nodes of one class, the others idle. The factor is five arrays:
 * 1 / d and l towards west, east, south, north (black nodes) or the four diagonals (r1 nodes), as FACTOR_PLANES. */

#define LEVEL_ARGS                                                                                                     \
  const long base, const long pitch, const int step, const int gnx, const int gny, const int i0, const int j0,         \
      const int nx, const int ny
#define FACTOR_ARGS                                                                                                    \
  __global REAL *f_invd, __global REAL *f_w, __global REAL *f_e, __global REAL *f_s, __global REAL *f_n
#define LEVEL_NODE                                                                                                     \
  const int u = get_global_id(0), v = get_global_id(1);                                                                \
  if (OUTSIDE(u, v)) {                                                                                                 \
    return;                                                                                                            \
  }                                                                                                                    \
  const Place at = {base, pitch, step, gnx, gny};                                                                      \
  const int i = i0 + u, j = j0 + v;                                                                                    \
  const long p = place(at, i, j)

/* dst = src over an nx x ny block of points, each array with its own offset and pitch. */
__kernel void dist_copy(__global const REAL *restrict src, const long src_base, const int src_pitch,
                        __global REAL *restrict dst, const long dst_base, const int dst_pitch, const int nx,
                        const int ny) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (!OUTSIDE(i, j)) {
    dst[dst_base + (long)j * dst_pitch + i] = src[src_base + (long)j * src_pitch + i];
  }
}

/* Step A of level k: black nodes store their pivot and l, red nodes their rotated stencil (as setup_a). */
__kernel void dist_setup_a(__global const REAL *c, __global const REAL *e, __global const REAL *n, __global REAL *rot_c,
                           __global REAL *rot_ne, __global REAL *rot_nw, FACTOR_ARGS, LEVEL_ARGS, const int k,
                           volatile __global int *failed) {
  LEVEL_NODE;
  const Straight s = {c, e, n, at};
  if ((i + j) & 1) {
    const REAL inv = inverse_pivot(st_c(s, i, j), k, failed);
    f_invd[p] = inv;
    f_w[p] = st_e(s, i - 1, j) * inv;
    f_e[p] = st_e(s, i, j) * inv;
    f_s[p] = st_n(s, i, j - 1) * inv;
    f_n[p] = st_n(s, i, j) * inv;
    return;
  }
  REAL centre, ne, nw;
  step_a(s, i, j, &centre, &ne, &nw);
  rot_c[p] = centre;
  rot_ne[p] = ne;
  rot_nw[p] = nw;
}

/* Step B of level k: r1 nodes store their pivot and l, r2 nodes the next level's straight stencil (as setup_b). */
__kernel void dist_setup_b(__global const REAL *rot_c, __global const REAL *rot_ne, __global const REAL *rot_nw,
                           __global REAL *c, __global REAL *e, __global REAL *n, FACTOR_ARGS, LEVEL_ARGS, const int k,
                           volatile __global int *failed) {
  LEVEL_NODE;
  const Rotated r = {rot_c, rot_ne, rot_nw, at};
  if (!(i & 1) && !(j & 1)) {
    REAL centre, east, north;
    step_b(r, i, j, &centre, &east, &north);
    c[p] = centre;
    e[p] = east;
    n[p] = north;
  } else if ((i & 1) && (j & 1)) {
    const REAL inv = inverse_pivot(rot(r, r.c, i, j), k, failed);
    f_invd[p] = inv;
    f_w[p] = rot(r, r.ne, i - 1, j - 1) * inv;
    f_e[p] = rot(r, r.nw, i + 1, j - 1) * inv;
    f_s[p] = rot(r, r.nw, i, j) * inv;
    f_n[p] = rot(r, r.ne, i, j) * inv;
  }
}

/* f(n) x(n) at node (ni, nj) of the level (0 outside its grid): a neighbour's l towards this node times its value,
 * or this node's l towards the neighbour times the neighbour's value. */
INLINE REAL term(const Place at, __global const REAL *f, __global const REAL *x, const int ni, const int nj) {
  return inside(ni, nj, at.nx, at.ny) ? f[place(at, ni, nj)] * x[place(at, ni, nj)] : (REAL)0;
}
INLINE REAL times(const Place at, const REAL l, __global const REAL *x, const int ni, const int nj) {
  return inside(ni, nj, at.nx, at.ny) ? l * x[place(at, ni, nj)] : (REAL)0;
}

/* Forward, level k, red nodes: x -= l(b -> node) x_b over the black neighbours b. */
__kernel void dist_forward_red(__global REAL *x, FACTOR_ARGS, LEVEL_ARGS) {
  LEVEL_NODE;
  if (!((i + j) & 1)) {
    x[p] -= term(at, f_e, x, i - 1, j) + term(at, f_w, x, i + 1, j) + term(at, f_n, x, i, j - 1) +
            term(at, f_s, x, i, j + 1);
  }
}

/* Forward, level k, r2 nodes: x -= l(q -> node) x_q over the diagonal r1 neighbours q. */
__kernel void dist_forward_r2(__global REAL *x, FACTOR_ARGS, LEVEL_ARGS) {
  LEVEL_NODE;
  if (!(i & 1) && !(j & 1)) {
    x[p] -= term(at, f_n, x, i - 1, j - 1) + term(at, f_s, x, i + 1, j - 1) + term(at, f_e, x, i - 1, j + 1) +
            term(at, f_w, x, i + 1, j + 1);
  }
}

/* Backward, level k, r1 nodes: z = x / d - sum of l z over the diagonal r2 neighbours (done). */
__kernel void dist_backward_r1(__global REAL *x, FACTOR_ARGS, LEVEL_ARGS) {
  LEVEL_NODE;
  if ((i & 1) && (j & 1)) {
    x[p] = f_invd[p] * x[p] - (times(at, f_w[p], x, i - 1, j - 1) + times(at, f_e[p], x, i + 1, j - 1) +
                               times(at, f_s[p], x, i - 1, j + 1) + times(at, f_n[p], x, i + 1, j + 1));
  }
}

/* Backward, level k, black nodes: z = x / d - sum of l z over the red neighbours (done). */
__kernel void dist_backward_black(__global REAL *x, FACTOR_ARGS, LEVEL_ARGS) {
  LEVEL_NODE;
  if ((i + j) & 1) {
    x[p] = f_invd[p] * x[p] - (times(at, f_w[p], x, i - 1, j) + times(at, f_e[p], x, i + 1, j) +
                               times(at, f_s[p], x, i, j - 1) + times(at, f_n[p], x, i, j + 1));
  }
}

/* The coarse level's nodes of this rank's block, packed row by row (nx per row), for the gather. */
__kernel void dist_pack(__global const REAL *restrict x, __global REAL *restrict packed, LEVEL_ARGS) {
  LEVEL_NODE;
  packed[(long)v * nx + u] = x[p];
}

/* x = the coarse level's solution (its whole grid, natural order) at the nodes given that are in the grid: the
 * block's and its ghost layers'. */
__kernel void dist_unpack(__global REAL *restrict x, __global const REAL *restrict coarse, LEVEL_ARGS) {
  LEVEL_NODE;
  if (inside(i, j, gnx, gny)) {
    x[p] = coarse[(long)j * gnx + i];
  }
}
