/* pcg.cl: the vector kernels of conjugate gradients (src/solver/pcg.c; ../shared/papers/rrb-pcg-gpu.txt,
 * Algorithm 1) for a 5-point symmetric system on the distributed grid.
 *
 *   (S x)_p = c_p x_p + e_p x_E + e_W x_W + n_p x_N + n_S x_S
 *
 * e_p couples p with its east neighbour E and n_p with its north neighbour N; the couplings with the west and south
 * neighbours are those neighbours' own e and n (symmetry), read from ghost cells at rank boundaries and zero outside
 * the grid. Kernels: apply_stencil, residual, update_solution, jacobi, update_direction; subtract_range,
 * update_solution_range, update_direction_range (1D, over places of plain buffers), cg_alpha and cg_beta (CG's
 * scalars on the device). Macros: REAL, ACC (common.clh).
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

/* ---- CG's scalars on the device (one rank with RRB: pcg.c, solve_schur). The dot products' partial sums (reduce.cl,
 * in ACC) are combined by one work-group in a fixed order, and alpha, beta and the stopping test are kept in
 * `state`, so an iteration never waits for the host: the host reads the state behind the device to stop. */
#define SCALAR_GROUP 256
#define ST_RHO 0        /* <r, z> of the current residual */
#define ST_RR 1         /* <r, r> */
#define ST_ALPHA 2
#define ST_BETA 3
#define ST_TARGET 4     /* the squared threshold of the criterion, which compares rr (2-norm) or rho (M-norm) */
#define ST_ITERATIONS 5
#define ST_DONE 6       /* 0 while iterating, else one of: */
#define DONE_MET 1      /* the criterion is met (or not a number) */
#define DONE_LIMIT 2    /* the iterations allowed are done */
#define DONE_CURVATURE 3 /* p^T S p <= 0: the matrix is not positive definite */
#define ST_PQ 7         /* the last p^T S p */

/* The sum over `groups` partials (`values` interleaved per group) of value v, in a fixed order; every work-item of
 * the group gets it. */
INLINE ACC combine_partials(__global const ACC *restrict partials, const uint groups, const int values, const int v,
                            __local ACC *scratch) {
  const uint lid = get_local_id(0);
  ACC sum = 0;
  for (uint g = lid; g < groups; g += SCALAR_GROUP) {
    sum += partials[g * values + v];
  }
  scratch[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = SCALAR_GROUP / 2; s > 0; s >>= 1) {
    if (lid < s) {
      scratch[lid] += scratch[lid + s];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const ACC total = scratch[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  return total;
}

/* Stops when the criterion is met (or not a number: a NaN stops too, and is not converged) or the iterations
 * allowed are done. */
INLINE void test_stop(__global ACC *state, const int norm_m, const int max_iterations) {
  const ACC criterion = norm_m ? state[ST_RHO] : state[ST_RR];
  if (!(criterion > state[ST_TARGET])) {
    state[ST_DONE] = DONE_MET;
  } else if (state[ST_ITERATIONS] >= max_iterations) {
    state[ST_DONE] = DONE_LIMIT;
  }
}

/* alpha = rho / p^T S p from the partials of <p, q>; 0 once done (an iteration the host queued past the end leaves x
 * and r as they are). */
__kernel __attribute__((reqd_work_group_size(SCALAR_GROUP, 1, 1))) void cg_alpha(
    __global const ACC *restrict partials, const uint groups, __global ACC *restrict state) {
  __local ACC scratch[SCALAR_GROUP];
  const ACC pq = combine_partials(partials, groups, 1, 0, scratch);
  if (get_local_id(0) == 0) {
    if (state[ST_DONE] == 0) {
      state[ST_PQ] = pq;
      state[ST_DONE] = pq > 0 ? 0 : DONE_CURVATURE;
    }
    state[ST_ALPHA] = state[ST_DONE] == 0 ? state[ST_RHO] / pq : 0;
  }
}

/* rho = <r, z> and rr = <r, r> of the new residual from the partials of both: beta = rho / the last rho, one more
 * iteration, and the stopping test. At the start (first) the first rho and rr, and with the M-norm the threshold
 * made relative to that rho (the host wrote tolerance^2 there). */
__kernel __attribute__((reqd_work_group_size(SCALAR_GROUP, 1, 1))) void cg_beta(
    __global const ACC *restrict partials, const uint groups, __global ACC *restrict state, const int norm_m,
    const int max_iterations, const int first) {
  __local ACC scratch[SCALAR_GROUP];
  const ACC rho = combine_partials(partials, groups, 2, 0, scratch);
  const ACC rr = combine_partials(partials, groups, 2, 1, scratch);
  if (get_local_id(0) != 0) {
    return;
  }
  if (first) {
    state[ST_TARGET] *= norm_m ? rho : (ACC)1;
    state[ST_RHO] = rho;
    state[ST_RR] = rr;
    test_stop(state, norm_m, max_iterations);
  } else if (state[ST_DONE] == 0) {
    state[ST_BETA] = rho / state[ST_RHO];
    state[ST_RHO] = rho;
    state[ST_RR] = rr;
    state[ST_ITERATIONS] += 1;
    test_stop(state, norm_m, max_iterations);
  } else {
    state[ST_BETA] = 0;
  }
}

/* x += alpha p, r -= alpha q (alpha from the state). */
__kernel void update_solution_range(__global REAL *restrict x, __global const REAL *restrict p,
                                    __global REAL *restrict r, __global const REAL *restrict q,
                                    __global const ACC *restrict state, RANGE_ARGS) {
  RANGE_PLACE
  const REAL alpha = (REAL)state[ST_ALPHA];
  x[k] += alpha * p[k];
  r[k] -= alpha * q[k];
}

/* p = z + beta p (beta from the state). */
__kernel void update_direction_range(__global const REAL *restrict z, __global REAL *restrict p,
                                     __global const ACC *restrict state, RANGE_ARGS) {
  RANGE_PLACE
  p[k] = z[k] + (REAL)state[ST_BETA] * p[k];
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
