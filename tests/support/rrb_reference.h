/* SPDX-License-Identifier: BSD-3-Clause */
/* rrb_reference.h: a plain-C reference of the repeated red-black (RRB) incomplete factorization of a 5-point SPD
 * matrix and of PCG with it (../shared/papers/rrb-pcg-gpu.txt, section 3; Brand 1992), in double precision on the
 * host. It fixes the algorithm, level by level, that the device solver of issue 6 implements, and is the oracle its
 * tests compare with.
 *
 * The matrix: on an nx x ny grid, row p = j nx + i; centre c[p], coupling east[p] with p + 1 (0 in the last column)
 * and north[p] with p + nx (0 in the last row); symmetric by construction.
 *
 * One RRB level of a grid with a straight 5-point stencil: (A) eliminate the black nodes ((i + j) odd; no two are
 * neighbours), which leaves a 9-point stencil on the red nodes: the diagonal neighbours (i +- 1, j +- 1) are kept
 * as a rotated 5-point stencil and the fill to the straight ones at distance 2 is lumped, row sums kept, onto the
 * two nodes between (rrb_reference.c, lump_rotated, says why not into the centre); (B) eliminate the red nodes
 * with i odd (r1), which leaves on the red nodes with i and j even (r2) a straight 5-point stencil at distance 2
 * plus diagonal fill, lumped likewise. The r2 nodes, (i / 2, j / 2), are
 * the next level's grid. The last level (at most final_nodes nodes, or level max_levels) is factorized exactly
 * (dense Cholesky). M = L D L^T with L unit lower triangular, L(n, p) = a(n, p) / d_p for each eliminated p; a
 * pivot d_p <= 0 means the matrix (or its lumped approximation) is not positive definite. */
#ifndef HYDROCL_RRB_REFERENCE_H
#define HYDROCL_RRB_REFERENCE_H

#include <stdbool.h>

typedef struct {
  int nx, ny;
  double *c, *east, *north; /* nx * ny each, owned */
} Stencil5;

typedef struct RrbLevel RrbLevel;

typedef struct {
  int nx, ny;       /* the first level's grid */
  int nlevels;      /* levels with eliminations, before the exact last one */
  RrbLevel *levels; /* nlevels of them */
  int final_nx, final_ny, final_stride;
  double *final_cholesky; /* dense lower Cholesky factor of the last level, (final_nx final_ny)^2 */
} RrbFactor;

/* A reproducible uniform number in [0, 1) (a 64-bit LCG: tests must not depend on the C library's rand). */
double test_uniform(unsigned long long *state);

/* The random diagonally dominant SPD stencils of the solver tests: couplings -(0.05 + spread u) times ax along x and
 * ay along y (u uniform in [0, 1)); with cut_every > 0, every cut_every-th node (from cut_at) cut off from its east and
 * north neighbours (islands of zero-flux faces); centres the magnitudes of their couplings plus margin (0.01 + u), or
 * with margin 0 a margin that varies over three decades, 10^(-3 + 3 (p mod 11) / 10) (where Jacobi pays). */
typedef struct {
  double ax, ay, spread;
  int cut_every, cut_at;
  double margin;
} RandomStencil;
void test_random_stencil(Stencil5 *s, const RandomStencil *shape, unsigned long long *state);
/* The reference's and the device factorization's test systems: spread 1, with islands every seventh node from the
 * fourth, margin > 0, from seed. */
void test_islands_stencil(Stencil5 *s, double ax, double ay, double margin, bool islands, unsigned long long seed);

/* A stencil of nx x ny zeros; false when out of memory. */
bool stencil_alloc(int nx, int ny, Stencil5 *s);
void stencil_free(Stencil5 *s);
/* y = S x. */
void stencil_apply(const Stencil5 *s, const double *x, double *y);

/* Factorizes s: eliminations level by level while a level has more than final_nodes (>= 1) nodes and fewer than
 * max_levels levels are made (max_levels 1: the whole matrix exactly), then the exact last level. False, with *why
 * set, when a pivot is not positive; reference_free cleans up either way. */
bool reference_factor(const Stencil5 *s, int max_levels, int final_nodes, RrbFactor *f, const char **why);
void reference_free(RrbFactor *f);
/* z = M^-1 r: forward substitution level by level, the pivots, backward substitution. */
void reference_apply(const RrbFactor *f, const double *r, double *z);

/* Step A of one level in gather form, as a device kernel computes it, one red point (i, j) at a time from the
 * level's straight stencil s alone: the centre, the coupling to (i + 1, j + 1) and to (i - 1, j + 1) after the black
 * points' elimination and the lumping (0 where that neighbour is outside the grid). The factorization computes the
 * same by scattering each black point's fill; test_rrb_reference compares the two. */
void reference_gather_step_a(const Stencil5 *s, int i, int j, double *centre, double *ne, double *nw);
/* Step B in gather form: the next level's straight stencil at its point (ni, nj) (the level's red point
 * (2 ni, 2 nj)) from the level's rotated stencil alone (nx x ny, centre, ne, nw as step A left them): centre, east
 * and north couplings (0 where that neighbour is outside the next grid). */
void reference_gather_step_b(int nx, int ny, const double *centre, const double *ne, const double *nw, int ni, int nj,
                             double *next_centre, double *next_east, double *next_north);
/* The rotated stencil that reference_factor's step A made on level k (borrowed; NULL beyond the levels). */
void reference_level_rotated(const RrbFactor *f, int k, const Stencil5 **straight, const double **centre,
                             const double **ne, const double **nw);

/* PCG (the paper's Algorithm 1) for S x = b from the x given, preconditioned by f (NULL: plain CG), until
 * ||r||_M^-1 <= tolerance ||r0||_M^-1 (the paper's criterion; the 2-norm for plain CG) or max_iterations.
 * Returns the iterations taken. */
int reference_pcg(const Stencil5 *s, const RrbFactor *f, const double *b, double *x, double tolerance,
                  int max_iterations);

#endif
