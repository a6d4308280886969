/* rrb.cl: kernels of the RRB solver (src/solver/rrb_layout.c, issue 6): between a field's natural order and the
 * r1/r2/b1/b2 storage (rrb_layout.h), whose place for a point is computed here as rrb_layout_index does on the
 * host: down the levels while the point is an r2 point, then its group's array (or the last level's).
 * Kernels: to_layout, from_layout. Macros: REAL (common.clh). One work-item per point of the nx x ny block; the
 * natural field has ghost width `ghost` and row pitch `pitch`. */

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
