/* pcg.cl: the vector kernels of conjugate gradients (src/solver/pcg.c; ../shared/papers/rrb-pcg-gpu.txt,
 * Algorithm 1) for a 5-point symmetric system on the distributed grid.
 *
 *   (S x)_p = c_p x_p + e_p x_E + e_W x_W + n_p x_N + n_S x_S
 *
 * e_p couples p with its east neighbour E and n_p with its north neighbour N; the couplings with the west and south
 * neighbours are those neighbours' own e and n (symmetry), read from ghost cells at rank boundaries and zero outside
 * the grid. Kernels: apply_stencil, residual, update_solution, jacobi, update_direction; subtract_range,
 * update_solution_range, update_direction_range (1D, over places of plain buffers). Macros: REAL (common.clh).
 * Layout: a[j + 1][i + 1] with row pitch `pitch` (every field has ghost width 1); one work-item per owned point. */

#define AT(a, i, j) (a)[((j) + 1) * pitch + (i) + 1]
#define OWNED_ARGS const int nx, const int ny, const int pitch

/* y = S x (x's ghosts exchanged). */
__kernel void apply_stencil(__global const REAL *restrict c, __global const REAL *restrict east,
                            __global const REAL *restrict north, __global const REAL *restrict x,
                            __global REAL *restrict y, OWNED_ARGS) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (OUTSIDE(i, j)) {
    return;
  }
  AT(y, i, j) = AT(c, i, j) * AT(x, i, j) + AT(east, i, j) * AT(x, i + 1, j) + AT(east, i - 1, j) * AT(x, i - 1, j) +
                AT(north, i, j) * AT(x, i, j + 1) + AT(north, i, j - 1) * AT(x, i, j - 1);
}

/* r = b - y. */
__kernel void residual(__global const REAL *restrict b, __global const REAL *restrict y, __global REAL *restrict r,
                       OWNED_ARGS) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (!OUTSIDE(i, j)) {
    AT(r, i, j) = AT(b, i, j) - AT(y, i, j);
  }
}

/* x += alpha p, r -= alpha q. */
__kernel void update_solution(__global REAL *restrict x, __global const REAL *restrict p,
                              __global REAL *restrict r, __global const REAL *restrict q, const REAL alpha,
                              OWNED_ARGS) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (!OUTSIDE(i, j)) {
    AT(x, i, j) += alpha * AT(p, i, j);
    AT(r, i, j) -= alpha * AT(q, i, j);
  }
}

/* z = r / c: the Jacobi (diagonal) preconditioner. */
__kernel void jacobi(__global const REAL *restrict r, __global const REAL *restrict c, __global REAL *restrict z,
                     OWNED_ARGS) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (!OUTSIDE(i, j)) {
    AT(z, i, j) = AT(r, i, j) / AT(c, i, j);
  }
}

/* p = z + beta p. */
__kernel void update_direction(__global const REAL *restrict z, __global REAL *restrict p, const REAL beta,
                               OWNED_ARGS) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (!OUTSIDE(i, j)) {
    AT(p, i, j) = AT(z, i, j) + beta * AT(p, i, j);
  }
}

/* The same updates over the places [first, end) of plain buffers: CG on the RRB solver's red nodes (rrb.h). */
#define RANGE_ARGS const uint first, const uint end
#define RANGE_PLACE                                                                                                  \
  const uint k = first + (uint)get_global_id(0);                                                                     \
  if (k >= end) {                                                                                                    \
    return;                                                                                                          \
  }

/* r -= q. */
__kernel void subtract_range(__global REAL *restrict r, __global const REAL *restrict q, RANGE_ARGS) {
  RANGE_PLACE
  r[k] -= q[k];
}

/* x += alpha p, r -= alpha q. */
__kernel void update_solution_range(__global REAL *restrict x, __global const REAL *restrict p,
                                    __global REAL *restrict r, __global const REAL *restrict q, const REAL alpha,
                                    RANGE_ARGS) {
  RANGE_PLACE
  x[k] += alpha * p[k];
  r[k] -= alpha * q[k];
}

/* p = z + beta p. */
__kernel void update_direction_range(__global const REAL *restrict z, __global REAL *restrict p, const REAL beta,
                                     RANGE_ARGS) {
  RANGE_PLACE
  p[k] = z[k] + beta * p[k];
}

/* x += r / c at the black points ((i + j + parity) odd; parity: that of the block's first point's global indices):
 * with r = b - S x, the black rows are then satisfied exactly (no two black points are neighbours). CG from such an
 * x with the RRB preconditioner of the whole system keeps them so, and is the CG on the first Schur complement that
 * one rank runs. */
__kernel void satisfy_black(__global REAL *restrict x, __global const REAL *restrict r,
                            __global const REAL *restrict c, OWNED_ARGS, const int parity) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (!OUTSIDE(i, j) && ((i + j + parity) & 1)) {
    AT(x, i, j) += AT(r, i, j) / AT(c, i, j);
  }
}
