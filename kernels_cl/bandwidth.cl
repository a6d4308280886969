/* SPDX-License-Identifier: BSD-3-Clause */
/* bandwidth.cl: the STREAM-style copy and triad kernels of `hydrocl bench bandwidth` (bench/bandwidth.c). Their
 * rates are the yardstick every other benchmark's effective bandwidth is divided by.
 *
 * Kernels: copy(dst, src, nvec), triad(a, b, c, scalar, nvec), pattern(x, n, modulus), bump(x, n)
 * Macros: VEC (REALs per access, so each work-item moves 16 bytes: 4 in float, 2 in double)
 * Layout: flat arrays of n REALs, n a multiple of VEC, read as n/VEC vectors; one vector per work-item (bump: one
 * REAL per work-item, any n). */
#define REALV HCL_CAT(REAL, VEC)

/* dst = src: 2 n sizeof(REAL) bytes of traffic. */
__kernel void copy(__global REALV *restrict dst, __global const REALV *restrict src, const ulong nvec) {
  const size_t i = get_global_id(0);
  if (i < nvec) {
    dst[i] = src[i];
  }
}

/* a = b + scalar c: 3 n sizeof(REAL) bytes of traffic. */
__kernel void triad(__global REALV *restrict a, __global const REALV *restrict b, __global const REALV *restrict c,
                    const REAL scalar, const ulong nvec) {
  const size_t i = get_global_id(0);
  if (i < nvec) {
    a[i] = b[i] + scalar * c[i];
  }
}

/* x[i] = i mod modulus: the exactly representable pattern the host checks copy and triad against. */
__kernel void pattern(__global REAL *restrict x, const ulong n, const uint modulus) {
  const size_t i = get_global_id(0);
  if (i < n) {
    x[i] = (REAL)(i % modulus);
  }
}

/* x[i] += 1: `hydrocl bench launch`'s kernel (bench/launch.c), small enough that its launch is all it costs. */
__kernel void bump(__global REAL *restrict x, const ulong n) {
  const size_t i = get_global_id(0);
  if (i < n) {
    x[i] += (REAL)1;
  }
}
