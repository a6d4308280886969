/* SPDX-License-Identifier: BSD-3-Clause */
/* blas1.cl: the vector updates of the solvers' vectors (src/solver/vec.c, include/vec.h). Each operation is written
 * once, as the statement on one place k of its vectors, and instantiated twice: NAME_grid over the owned points of
 * fields (a 2D launch over nx x ny points, each work-item down the nz planes) and NAME_range over the places
 * [first, end) of plain buffers (a padded 1D launch). The dot products are reductions (reduce.cl).
 *
 * Kernels (_grid and _range each): set (y = value), scale (y = a y), axpy (y += a x), aypx (y = x + b y),
 *   axpby (y = a x + b y), waxpby (w = a x + b y), axpy_pair (y += a x and v += b u, CG's x += alpha p,
 *   r -= alpha q), divide (z = x / y, the Jacobi preconditioner); across two layouts and precisions (grid only):
 *   convert_copy (y = x), convert_axpy (y += a x), x of type XREAL.
 * Macros: REAL (the vectors written, and the scalars), XREAL (the vector read by the convert_ kernels; REAL unless
 *   given), common.clh
 * Layout: a grid vector's place (i, j, k) at base + k plane + j pitch + i (field.h's Span: owned points of a field,
 *   x fastest); a range vector's places first .. end - 1. Every vector of a grid kernel shares the layout, except
 *   the convert_ kernels' x, which has its own (xbase, xpitch, xplane). */

#ifndef XREAL
#define XREAL REAL
#endif

#define COMMA , /* separates parameters inside one macro argument (OpenCL C has no variadic macros) */
#define GRID_ARGS const int nx, const int ny, const int nz, const ulong base, const int pitch, const ulong plane
#define RANGE_ARGS const uint first, const uint end

/* A grid kernel's work: work-item (i, j) down the nz planes, k the place in the grid layout of plane p. */
#define FOR_GRID_PLACES(BODY)                                                                                          \
  const int i = get_global_id(0), j = get_global_id(1);                                                                \
  if (OUTSIDE(i, j)) {                                                                                                 \
    return;                                                                                                            \
  }                                                                                                                    \
  for (int p = 0; p < nz; p++) {                                                                                       \
    const ulong k = base + (ulong)p * plane + (ulong)j * pitch + (ulong)i;                                             \
    BODY;                                                                                                              \
  }

/* One definition, two kernels: PARAMS the vector and scalar parameters (separated by COMMA), BODY the statement on
 * place k. */
#define BLAS1(NAME, PARAMS, BODY)                                                                                      \
  __kernel void NAME##_grid(PARAMS, GRID_ARGS) {                                                                       \
    FOR_GRID_PLACES(BODY);                                                                                             \
  }                                                                                                                    \
  __kernel void NAME##_range(PARAMS, RANGE_ARGS) {                                                                     \
    const uint k = first + (uint)get_global_id(0);                                                                     \
    if (k < end) {                                                                                                     \
      BODY;                                                                                                            \
    }                                                                                                                  \
  }

#define OUT(v) __global REAL *restrict v
#define IN(v) __global const REAL *restrict v

BLAS1(set, OUT(y) COMMA const REAL value, y[k] = value)
BLAS1(scale, OUT(y) COMMA const REAL a, y[k] = a * y[k])
BLAS1(axpy, OUT(y) COMMA IN(x) COMMA const REAL a, y[k] += a * x[k])
BLAS1(aypx, OUT(y) COMMA IN(x) COMMA const REAL b, y[k] = x[k] + b * y[k])
BLAS1(axpby, OUT(y) COMMA IN(x) COMMA const REAL a COMMA const REAL b, y[k] = a * x[k] + b * y[k])
BLAS1(waxpby, OUT(w) COMMA IN(x) COMMA IN(y) COMMA const REAL a COMMA const REAL b, w[k] = a * x[k] + b * y[k])
BLAS1(axpy_pair, OUT(y) COMMA IN(x) COMMA OUT(v) COMMA IN(u) COMMA const REAL a COMMA const REAL b, y[k] += a * x[k];
      v[k] += b * u[k])
BLAS1(divide, OUT(z) COMMA IN(x) COMMA IN(y), z[k] = x[k] / y[k])

/* Across layouts and precisions: y (REAL, the grid layout) from x (XREAL, its own layout). */
#define CONVERT(NAME, PARAMS, BODY)                                                                                    \
  __kernel void NAME(PARAMS, GRID_ARGS, const ulong xbase, const int xpitch, const ulong xplane) {                     \
    FOR_GRID_PLACES(const REAL xk = (REAL)x[xbase + (ulong)p * xplane + (ulong)j * xpitch + (ulong)i]; BODY);          \
  }

CONVERT(convert_copy, OUT(y) COMMA __global const XREAL *restrict x, y[k] = xk)
CONVERT(convert_axpy, OUT(y) COMMA __global const XREAL *restrict x COMMA const REAL a, y[k] += a * xk)
