/* SPDX-License-Identifier: BSD-3-Clause */
/* reduce.cl: partial reductions over the places of spans (field.h's Span; src/grid/reduce.c): sum, min, max, the
 * dot product of two spans, the two dot products a.b and a.c in one pass, and a.b, a.c and b.b in one pass. Over spans of several rows each
 * work-group walks whole rows in a fixed order; over a span of one row (a plain range) each group takes its own
 * chunk of it. Each group reduces in a fixed tree, so one device and one decomposition give bitwise-repeatable
 * results; the host then combines the partials in group order. Accumulation is in ACC (double where the device has
 * fp64) whatever REAL is. min and max propagate NaN, so a stability check built on them sees a NaN anywhere.
 *
 * Kernels: over rows reduce_sum(a, b, ...), reduce_min, reduce_max, reduce_dot (b is read by reduce_dot only),
 *   reduce_dot2 (a b and a c, partials interleaved), reduce_dot3 (a b, a c and b b); over one row's chunks
 *   reduce_dot_range, reduce_dot2_range, reduce_dot3_range.
 * Macros: REAL, ACC (common.clh), WG_X (the work-group size, a power of two)
 * Layout: a span's row r (plane r / ny, row r % ny) starts at base + (r / ny) plane + (r % ny) pitch; a range's
 *   places are [first, end). */

#define COMBINE_SUM(x, y) ((x) + (y))
#define COMBINE_MIN(x, y) ((isnan(x) || (x) <= (y)) ? (x) : (y))
#define COMBINE_MAX(x, y) ((isnan(x) || (x) >= (y)) ? (x) : (y))
#define LOAD_ONE(i) ((ACC)a[i])
#define LOAD_PRODUCT(i) ((ACC)a[i] * (ACC)b[i])

/* A work-group's share of one row into acc: on GPUs every WG_X-th place, so neighbouring work-items read
 * neighbouring places. On CPUs (EXACT_GRID) a contiguous run per work-item, combined into four running values so
 * that a combine need not wait for the one before: PoCL runs a work-group as a loop over its work-items, each to the
 * end of its own loop, and a work-item striding alone over its group's rows used one value of each cache line it read
 * (a dot product of two 4096^2 fields took 25 ms on 2 cores; 5.5 ms in runs). */
#if EXACT_GRID
#define ROW_COMBINE(acc, IDENTITY, COMBINE, LOAD, start, nx)                                                           \
  {                                                                                                                    \
    const uint run_ = ((nx) + WG_X - 1) / WG_X, from_ = min(lid * run_, (nx)), to_ = min(from_ + run_, (nx));          \
    ACC part_[4] = {(acc), (IDENTITY), (IDENTITY), (IDENTITY)};                                                        \
    uint x_ = from_;                                                                                                   \
    for (; x_ + 4 <= to_; x_ += 4) {                                                                                   \
      for (int k_ = 0; k_ < 4; k_++) {                                                                                 \
        part_[k_] = COMBINE(part_[k_], LOAD((start) + x_ + k_));                                                       \
      }                                                                                                                \
    }                                                                                                                  \
    for (; x_ < to_; x_++) {                                                                                           \
      part_[0] = COMBINE(part_[0], LOAD((start) + x_));                                                                \
    }                                                                                                                  \
    acc = COMBINE(COMBINE(part_[0], part_[1]), COMBINE(part_[2], part_[3]));                                           \
  }
#else
#define ROW_COMBINE(acc, IDENTITY, COMBINE, LOAD, start, nx)                                                           \
  for (uint x_ = lid; x_ < (nx); x_ += WG_X) {                                                                         \
    acc = COMBINE(acc, LOAD((start) + x_));                                                                            \
  }
#endif

/* The group's tree reduction of count values a work-item (1 to 3: b, c, d), in a fixed order (bitwise repeatable):
 * work-item 0 writes the sums of every work-item's values to out[0 .. count - 1]. scratch: count x WG_X values. */
INLINE void group_sums(__local ACC *scratch, const uint count, const ACC b, const ACC c, const ACC d,
                       __global ACC *out) {
  const uint lid = get_local_id(0);
  const ACC values[3] = {b, c, d};
  for (uint v = 0; v < count; v++) {
    scratch[v * WG_X + lid] = values[v];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = WG_X / 2; s > 0; s >>= 1) {
    if (lid < s) {
      for (uint v = 0; v < count; v++) {
        scratch[v * WG_X + lid] += scratch[v * WG_X + lid + s];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    for (uint v = 0; v < count; v++) {
      out[v] = scratch[v * WG_X];
    }
  }
}

#define SPAN_ARGS const uint nx, const uint ny, const uint nz, const ulong base, const uint pitch, const ulong plane
#define ROW_START(r) (base + (ulong)((r) / ny) * plane + (ulong)((r) % ny) * pitch)

#define REDUCE_KERNEL(NAME, IDENTITY, COMBINE, LOAD)                                                                   \
  __kernel __attribute__((reqd_work_group_size(WG_X, 1, 1))) void NAME(                                                \
      __global const REAL *restrict a, __global const REAL *restrict b, SPAN_ARGS, __global ACC *restrict partials) {  \
    __local ACC scratch[WG_X];                                                                                         \
    const uint lid = get_local_id(0);                                                                                  \
    ACC acc = (IDENTITY);                                                                                              \
    for (uint r = get_group_id(0); r < ny * nz; r += get_num_groups(0)) {                                              \
      const ulong start = ROW_START(r);                                                                                \
      ROW_COMBINE(acc, IDENTITY, COMBINE, LOAD, start, nx)                                                             \
    }                                                                                                                  \
    scratch[lid] = acc;                                                                                                \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                                      \
    for (uint s = WG_X / 2; s > 0; s >>= 1) {                                                                          \
      if (lid < s) {                                                                                                   \
        scratch[lid] = COMBINE(scratch[lid], scratch[lid + s]);                                                        \
      }                                                                                                                \
      barrier(CLK_LOCAL_MEM_FENCE);                                                                                    \
    }                                                                                                                  \
    if (lid == 0) {                                                                                                    \
      partials[get_group_id(0)] = scratch[0];                                                                          \
    }                                                                                                                  \
  }

REDUCE_KERNEL(reduce_sum, (ACC)0, COMBINE_SUM, LOAD_ONE)
REDUCE_KERNEL(reduce_min, (ACC)INFINITY, COMBINE_MIN, LOAD_ONE)
REDUCE_KERNEL(reduce_max, (ACC)(-INFINITY), COMBINE_MAX, LOAD_ONE)
REDUCE_KERNEL(reduce_dot, (ACC)0, COMBINE_SUM, LOAD_PRODUCT)

/* a b and a c over rows, each summed exactly as reduce_dot sums it (the second pass over a row reads it from cache):
 * CG's <r, z> and <r, r>. */
#define LOAD_AC(i) ((ACC)a[i] * (ACC)c[i])
__kernel __attribute__((reqd_work_group_size(WG_X, 1, 1))) void reduce_dot2(__global const REAL *restrict a,
                                                                            __global const REAL *restrict b,
                                                                            __global const REAL *restrict c, SPAN_ARGS,
                                                                            __global ACC *restrict partials) {
  __local ACC scratch[2 * WG_X];
  const uint lid = get_local_id(0);
  ACC acc_b = 0, acc_c = 0;
  for (uint r = get_group_id(0); r < ny * nz; r += get_num_groups(0)) {
    const ulong start = ROW_START(r);
    ROW_COMBINE(acc_b, (ACC)0, COMBINE_SUM, LOAD_PRODUCT, start, nx)
    ROW_COMBINE(acc_c, (ACC)0, COMBINE_SUM, LOAD_AC, start, nx)
  }
  group_sums(scratch, 2, acc_b, acc_c, 0, partials + 2 * get_group_id(0));
}

/* a b, a c and b b over rows, each summed as reduce_dot sums it: pipelined CG's <u, r>, <u, w> and <r, r>. */
#define LOAD_BB(i) ((ACC)b[i] * (ACC)b[i])
__kernel __attribute__((reqd_work_group_size(WG_X, 1, 1))) void reduce_dot3(__global const REAL *restrict a,
                                                                            __global const REAL *restrict b,
                                                                            __global const REAL *restrict c, SPAN_ARGS,
                                                                            __global ACC *restrict partials) {
  __local ACC scratch[3 * WG_X];
  const uint lid = get_local_id(0);
  ACC acc_b = 0, acc_c = 0, acc_d = 0;
  for (uint r = get_group_id(0); r < ny * nz; r += get_num_groups(0)) {
    const ulong start = ROW_START(r);
    ROW_COMBINE(acc_b, (ACC)0, COMBINE_SUM, LOAD_PRODUCT, start, nx)
    ROW_COMBINE(acc_c, (ACC)0, COMBINE_SUM, LOAD_AC, start, nx)
    ROW_COMBINE(acc_d, (ACC)0, COMBINE_SUM, LOAD_BB, start, nx)
  }
  group_sums(scratch, 3, acc_b, acc_c, acc_d, partials + 3 * get_group_id(0));
}

/* The range kernels' work-items: on GPUs each takes every WG_X-th place of its group's chunk, so neighbouring
 * work-items read neighbouring places. On CPUs (EXACT_GRID) each sums a contiguous run of the chunk, four places at a
 * time in explicit vectors: PoCL runs a work-group as a loop over its work-items, each to the end of its own loop, and
 * a work-item striding alone through a chunk of millions of places used one value of each cache line it read (over
 * RRB's 8M red places of 4096^2 a dot product took 20 ms on 2 cores, a vector update 2.4 ms; 2.0 ms in runs). The
 * order of the sums is fixed either way, so results repeat bitwise on one device. */
#define ACC4 HCL_CAT(ACC, 4)
#define TO_ACC4 HCL_CAT(convert_, ACC4)
#if EXACT_GRID
/* A work-item's run on CPUs: the chunk [start, stop) in WG_X runs of a multiple of four places. */
#define RUN_LENGTH(start, stop) (((stop) - (start) + WG_X * 4 - 1) / (WG_X * 4) * 4)
#endif

__kernel __attribute__((reqd_work_group_size(WG_X, 1, 1))) void
reduce_dot_range(__global const REAL *restrict a, __global const REAL *restrict b, const uint first, const uint end,
                 const uint chunk, __global ACC *restrict partials) {
  __local ACC scratch[WG_X];
  const uint lid = get_local_id(0);
  const uint start = first + get_group_id(0) * chunk, stop = min(start + chunk, end);
  ACC acc = 0;
#if EXACT_GRID
  const uint run = RUN_LENGTH(start, stop), run_end = min(start + (lid + 1) * run, stop);
  uint x = start + lid * run;
  ACC4 acc4 = 0;
  for (; x + 4 <= run_end; x += 4) {
    acc4 += TO_ACC4(vload4(0, a + x)) * TO_ACC4(vload4(0, b + x));
  }
  acc = (acc4.s0 + acc4.s1) + (acc4.s2 + acc4.s3);
  for (; x < run_end; x++) {
    acc += LOAD_PRODUCT(x);
  }
#else
  for (uint x = start + lid; x < stop; x += WG_X) {
    acc += LOAD_PRODUCT(x);
  }
#endif
  group_sums(scratch, 1, acc, 0, 0, partials + get_group_id(0));
}

__kernel __attribute__((reqd_work_group_size(WG_X, 1, 1))) void
reduce_dot2_range(__global const REAL *restrict a, __global const REAL *restrict b, __global const REAL *restrict c,
                  const uint first, const uint end, const uint chunk, __global ACC *restrict partials) {
  __local ACC scratch[2 * WG_X];
  const uint lid = get_local_id(0);
  const uint start = first + get_group_id(0) * chunk, stop = min(start + chunk, end);
  ACC acc_b = 0, acc_c = 0;
#if EXACT_GRID
  const uint run = RUN_LENGTH(start, stop), run_end = min(start + (lid + 1) * run, stop);
  uint x = start + lid * run;
  ACC4 acc4_b = 0, acc4_c = 0;
  for (; x + 4 <= run_end; x += 4) {
    const ACC4 ax = TO_ACC4(vload4(0, a + x));
    acc4_b += ax * TO_ACC4(vload4(0, b + x));
    acc4_c += ax * TO_ACC4(vload4(0, c + x));
  }
  acc_b = (acc4_b.s0 + acc4_b.s1) + (acc4_b.s2 + acc4_b.s3);
  acc_c = (acc4_c.s0 + acc4_c.s1) + (acc4_c.s2 + acc4_c.s3);
  for (; x < run_end; x++) {
    const ACC ax = (ACC)a[x];
    acc_b += ax * (ACC)b[x];
    acc_c += ax * (ACC)c[x];
  }
#else
  for (uint x = start + lid; x < stop; x += WG_X) {
    const ACC ax = (ACC)a[x];
    acc_b += ax * (ACC)b[x];
    acc_c += ax * (ACC)c[x];
  }
#endif
  group_sums(scratch, 2, acc_b, acc_c, 0, partials + 2 * get_group_id(0));
}

__kernel __attribute__((reqd_work_group_size(WG_X, 1, 1))) void
reduce_dot3_range(__global const REAL *restrict a, __global const REAL *restrict b, __global const REAL *restrict c,
                  const uint first, const uint end, const uint chunk, __global ACC *restrict partials) {
  __local ACC scratch[3 * WG_X];
  const uint lid = get_local_id(0);
  const uint start = first + get_group_id(0) * chunk, stop = min(start + chunk, end);
  ACC acc_b = 0, acc_c = 0, acc_d = 0;
#if EXACT_GRID
  const uint run = RUN_LENGTH(start, stop), run_end = min(start + (lid + 1) * run, stop);
  uint x = start + lid * run;
  ACC4 acc4_b = 0, acc4_c = 0, acc4_d = 0;
  for (; x + 4 <= run_end; x += 4) {
    const ACC4 ax = TO_ACC4(vload4(0, a + x)), bx = TO_ACC4(vload4(0, b + x));
    acc4_b += ax * bx;
    acc4_c += ax * TO_ACC4(vload4(0, c + x));
    acc4_d += bx * bx;
  }
  acc_b = (acc4_b.s0 + acc4_b.s1) + (acc4_b.s2 + acc4_b.s3);
  acc_c = (acc4_c.s0 + acc4_c.s1) + (acc4_c.s2 + acc4_c.s3);
  acc_d = (acc4_d.s0 + acc4_d.s1) + (acc4_d.s2 + acc4_d.s3);
  for (; x < run_end; x++) {
    const ACC ax = (ACC)a[x], bx = (ACC)b[x];
    acc_b += ax * bx;
    acc_c += ax * (ACC)c[x];
    acc_d += bx * bx;
  }
#else
  for (uint x = start + lid; x < stop; x += WG_X) {
    const ACC ax = (ACC)a[x], bx = (ACC)b[x];
    acc_b += ax * bx;
    acc_c += ax * (ACC)c[x];
    acc_d += bx * bx;
  }
#endif
  group_sums(scratch, 3, acc_b, acc_c, acc_d, partials + 3 * get_group_id(0));
}
