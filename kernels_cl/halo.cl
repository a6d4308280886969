/* halo.cl: the box copies of the halo exchange (src/grid/halo.c): packing a region of a field into a contiguous
 * staging buffer, unpacking it into ghost layers, and the device-only copy across a periodic side owned by one
 * rank. Precision-blind: it moves 32-bit words, a double being two.
 *
 * Kernels: box_copy
 * Macros: none beyond common.clh
 * Layout: a box of depth planes x height rows x width words; element (x, y, z) of a side sits at
 *   offset + z plane_pitch + y row_pitch + x, in words. Fields are f[k][j][i] with x fastest (field.h). */

/* dst box = src box. Work-item (x, y, z) copies one word; get_global_size(0) may exceed width. */
__kernel void box_copy(__global uint *restrict dst, const ulong dst_offset, const uint dst_row_pitch,
                       const ulong dst_plane_pitch, __global const uint *restrict src, const ulong src_offset,
                       const uint src_row_pitch, const ulong src_plane_pitch, const uint width) {
  const uint x = get_global_id(0);
  const ulong y = get_global_id(1), z = get_global_id(2);
  if (x < width) {
    dst[dst_offset + z * dst_plane_pitch + y * dst_row_pitch + x] =
        src[src_offset + z * src_plane_pitch + y * src_row_pitch + x];
  }
}
