/* SPDX-License-Identifier: BSD-3-Clause */
/* stencil5.cl: the 5-point symmetric operator of src/solver/stencil5.c on the distributed grid
 * (../shared/papers/rrb-pcg-gpu.txt, section 3):
 *
 *   (S x)_p = c_p x_p + e_p x_E + e_W x_W + n_p x_N + n_S x_S
 *
 * e_p couples p with its east neighbour E and n_p with its north neighbour N; the couplings with the west and south
 * neighbours are those neighbours' own e and n (symmetry), read from ghost cells at rank boundaries and zero outside
 * the grid. Kernels: apply_stencil (y = S x), residual_stencil (r = b - S x), black_jacobi (x += r / c at the black
 * points). Macros: REAL (common.clh).
 * Layout: a[j + g][i + g] with row pitch `pitch`, g the fields' ghost width (origin = g pitch + g, the place of point
 * (0, 0)); one work-item per owned point. */

#define AT(a, i, j) (a)[origin + (j)*pitch + (i)]
#define OWNED_ARGS const int nx, const int ny, const int pitch, const int origin

INLINE REAL stencil(__global const REAL *restrict c, __global const REAL *restrict east,
                    __global const REAL *restrict north, __global const REAL *restrict x, const int i, const int j,
                    const int pitch, const int origin) {
  return AT(c, i, j) * AT(x, i, j) + AT(east, i, j) * AT(x, i + 1, j) + AT(east, i - 1, j) * AT(x, i - 1, j) +
         AT(north, i, j) * AT(x, i, j + 1) + AT(north, i, j - 1) * AT(x, i, j - 1);
}

/* y = S x (x's ghosts exchanged). */
__kernel void apply_stencil(__global const REAL *restrict c, __global const REAL *restrict east,
                            __global const REAL *restrict north, __global const REAL *restrict x,
                            __global REAL *restrict y, OWNED_ARGS) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (!OUTSIDE(i, j)) {
    AT(y, i, j) = stencil(c, east, north, x, i, j, pitch, origin);
  }
}

/* r = b - S x (x's ghosts exchanged). */
__kernel void residual_stencil(__global const REAL *restrict c, __global const REAL *restrict east,
                               __global const REAL *restrict north, __global const REAL *restrict x,
                               __global const REAL *restrict b, __global REAL *restrict r, OWNED_ARGS) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (!OUTSIDE(i, j)) {
    AT(r, i, j) = AT(b, i, j) - stencil(c, east, north, x, i, j, pitch, origin);
  }
}

/* x += r / c at the black points ((i + j + parity) odd; parity: that of the block's first point's global indices):
 * with r = b - S x, the black rows are then satisfied exactly (no two black points are neighbours). CG from such an
 * x with the RRB preconditioner of the whole system keeps them so, and is the CG on the first Schur complement that
 * one rank runs (rrb_precond.c). */
__kernel void black_jacobi(__global REAL *restrict x, __global const REAL *restrict r, __global const REAL *restrict c,
                           OWNED_ARGS, const int parity) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (!OUTSIDE(i, j) && ((i + j + parity) & 1)) {
    AT(x, i, j) += AT(r, i, j) / AT(c, i, j);
  }
}
