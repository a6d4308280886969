/* SPDX-License-Identifier: BSD-3-Clause */
/* mirror.cl: ghost layers on closed sides filled by mirror symmetry about the boundary point (src/grid/mirror.c):
 * f(-m) = f(m) on the west side, f(n - 1 + m) = f(n - 1 - m) on the east, likewise south and north; a direction of
 * one point (a flume in x alone) repeats it. Precision-blind: moves 32-bit words, `words` per element.
 *
 * Kernels: mirror_x(f, words, nx, g, pitch, west, east, single) over (g, rows, planes): every row, also the ghost
 *            rows, so that mirror_y afterwards copies corners right
 *          mirror_y(f, words, ny, g, pitch, rows, south, north, single) over (pitch, g, planes)
 * Layout: f[k][j][i] of field.h: rows of pitch elements, planes of rows rows, owned (i, j) at (j + g) pitch + i + g. */

inline void copy_element(__global uint *f, const int words, const ulong to, const ulong from) {
  for (int w = 0; w < words; w++) {
    f[to * words + w] = f[from * words + w];
  }
}

__kernel void mirror_x(__global uint *f, const int words, const int nx, const int g, const int pitch, const int west,
                       const int east, const int single) {
  const int m = get_global_id(0) + 1, j = get_global_id(1);
  const ulong row = ((ulong)get_global_id(2) * get_global_size(1) + j) * pitch;
  const int away = single ? 0 : m; /* the owned point m away from the boundary */
  if (west) {
    copy_element(f, words, row + g - m, row + g + away);
  }
  if (east) {
    copy_element(f, words, row + g + nx - 1 + m, row + g + nx - 1 - away);
  }
}

__kernel void mirror_y(__global uint *f, const int words, const int ny, const int g, const int pitch, const int rows,
                       const int south, const int north, const int single) {
  const int i = get_global_id(0), m = get_global_id(1) + 1;
  const ulong plane = (ulong)get_global_id(2) * rows * pitch;
  const int away = single ? 0 : m;
  if (south) {
    copy_element(f, words, plane + (ulong)(g - m) * pitch + i, plane + (ulong)(g + away) * pitch + i);
  }
  if (north) {
    copy_element(f, words, plane + (ulong)(g + ny - 1 + m) * pitch + i, plane + (ulong)(g + ny - 1 - away) * pitch + i);
  }
}
