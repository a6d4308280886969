/* SPDX-License-Identifier: BSD-3-Clause */
/* sample.cl: reading scattered points of a field into a short list, for gauges (src/io/history.c).
 *
 * Kernels: gather_points(src, index, n, dst)
 * Macros: REAL (common.clh)
 * Layout: index[p] is the flat index of point p in the ghosted field array (field.h); dst[p] = src[index[p]]. */
__kernel void gather_points(__global const REAL *restrict src, __global const ulong *restrict index, const uint n,
                            __global REAL *restrict dst) {
  const uint p = get_global_id(0);
  if (p < n) {
    dst[p] = src[index[p]];
  }
}
