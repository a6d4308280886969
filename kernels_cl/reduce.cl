/* reduce.cl: partial reductions over the owned points of a field (src/grid/reduce.c): sum, min, max and the dot
 * product of two fields. Each work-group walks whole rows in a fixed order and reduces them in a fixed tree, so one
 * device and one decomposition give bitwise-repeatable results; the host then combines the partials in group order.
 * Accumulation is in ACC (double where the device has fp64) whatever REAL is. min and max propagate NaN, so a
 * stability check built on them sees a NaN anywhere.
 *
 * Kernels: reduce_sum(a, b, ...), reduce_min, reduce_max, reduce_dot (b is read by reduce_dot only); reduce_dot_range
 * over the places [first, end) of two plain buffers, each group over its own chunk of them, and reduce_dot2_range,
 * a b and a c in one pass (partials interleaved).
 * Macros: REAL, ACC (common.clh), WG_X (the work-group size, a power of two)
 * Layout: a[k][j][i] with ghosts, as field.h: owned row (j, k) starts at ((k rows + j + ghost) pitch + ghost). */

#define COMBINE_SUM(x, y) ((x) + (y))
#define COMBINE_MIN(x, y) ((isnan(x) || (x) <= (y)) ? (x) : (y))
#define COMBINE_MAX(x, y) ((isnan(x) || (x) >= (y)) ? (x) : (y))
#define LOAD_ONE(i) ((ACC)a[i])
#define LOAD_PRODUCT(i) ((ACC)a[i] * (ACC)b[i])

#define REDUCE_KERNEL(NAME, IDENTITY, COMBINE, LOAD)                                                          \
  __kernel __attribute__((reqd_work_group_size(WG_X, 1, 1))) void NAME(                                     \
      __global const REAL *restrict a, __global const REAL *restrict b, const uint nx, const uint ny,          \
      const uint nz, const uint ghost, const uint pitch, const uint rows, __global ACC *restrict partials) {   \
    __local ACC scratch[WG_X];                                                                                \
    const uint lid = get_local_id(0);                                                                         \
    ACC acc = (IDENTITY);                                                                                     \
    for (uint r = get_group_id(0); r < ny * nz; r += get_num_groups(0)) {                                     \
      const ulong start = ((ulong)(r / ny) * rows + r % ny + ghost) * pitch + ghost;                          \
      for (uint x = lid; x < nx; x += WG_X) {                                                                 \
        acc = COMBINE(acc, LOAD(start + x));                                                                  \
      }                                                                                                       \
    }                                                                                                         \
    scratch[lid] = acc;                                                                                       \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                             \
    for (uint s = WG_X / 2; s > 0; s >>= 1) {                                                                 \
      if (lid < s) {                                                                                          \
        scratch[lid] = COMBINE(scratch[lid], scratch[lid + s]);                                               \
      }                                                                                                       \
      barrier(CLK_LOCAL_MEM_FENCE);                                                                           \
    }                                                                                                         \
    if (lid == 0) {                                                                                           \
      partials[get_group_id(0)] = scratch[0];                                                                 \
    }                                                                                                         \
  }

REDUCE_KERNEL(reduce_sum, (ACC)0, COMBINE_SUM, LOAD_ONE)
REDUCE_KERNEL(reduce_min, (ACC)INFINITY, COMBINE_MIN, LOAD_ONE)
REDUCE_KERNEL(reduce_max, (ACC)(-INFINITY), COMBINE_MAX, LOAD_ONE)
REDUCE_KERNEL(reduce_dot, (ACC)0, COMBINE_SUM, LOAD_PRODUCT)

__kernel __attribute__((reqd_work_group_size(WG_X, 1, 1))) void reduce_dot_range(
    __global const REAL *restrict a, __global const REAL *restrict b, const uint first, const uint end,
    const uint chunk, __global ACC *restrict partials) {
  __local ACC scratch[WG_X];
  const uint lid = get_local_id(0);
  const uint start = first + get_group_id(0) * chunk, stop = min(start + chunk, end);
  ACC acc = 0;
  for (uint x = start + lid; x < stop; x += WG_X) {
    acc += LOAD_PRODUCT(x);
  }
  scratch[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = WG_X / 2; s > 0; s >>= 1) {
    if (lid < s) {
      scratch[lid] += scratch[lid + s];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    partials[get_group_id(0)] = scratch[0];
  }
}

__kernel __attribute__((reqd_work_group_size(WG_X, 1, 1))) void reduce_dot2_range(
    __global const REAL *restrict a, __global const REAL *restrict b, __global const REAL *restrict c,
    const uint first, const uint end, const uint chunk, __global ACC *restrict partials) {
  __local ACC scratch_b[WG_X], scratch_c[WG_X];
  const uint lid = get_local_id(0);
  const uint start = first + get_group_id(0) * chunk, stop = min(start + chunk, end);
  ACC acc_b = 0, acc_c = 0;
  for (uint x = start + lid; x < stop; x += WG_X) {
    const ACC ax = (ACC)a[x];
    acc_b += ax * (ACC)b[x];
    acc_c += ax * (ACC)c[x];
  }
  scratch_b[lid] = acc_b;
  scratch_c[lid] = acc_c;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = WG_X / 2; s > 0; s >>= 1) {
    if (lid < s) {
      scratch_b[lid] += scratch_b[lid + s];
      scratch_c[lid] += scratch_c[lid + s];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    partials[2 * get_group_id(0)] = scratch_b[0];
    partials[2 * get_group_id(0) + 1] = scratch_c[0];
  }
}
