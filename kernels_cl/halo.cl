/* SPDX-License-Identifier: BSD-3-Clause */
/* halo.cl: the box copies of the halo exchange (src/grid/halo.c), one launch per field and message: packing the
 * strips a neighbour needs into a contiguous staging buffer, unpacking them into ghost layers, and the device-only
 * copies across a periodic side owned by one rank. Precision-blind: they move 32-bit words, a double being two.
 *
 * Kernels: pack_boxes(staging, field, table, nboxes, total, unpack), copy_boxes(field, table, nboxes, total)
 * Macros: none beyond common.clh
 * Layout: table holds BOX_WORDS ulongs per box (see the BOX_ offsets below); a box is depth planes x height rows x
 *   width words of the field f[k][j][i] (x fastest, field.h), at field_offset + z plane + y row + x; in staging it
 *   is contiguous from staging_offset; box b's words are the flat range [prefix_b, prefix_b + size_b) of the launch. */
#define BOX_WORDS 8
#define BOX_FIELD 0 /* pack: offset of the box in the field; copy: offset of the destination (ghost) box */
#define BOX_ROW 1   /* words from one row of the field to the next */
#define BOX_PLANE 2 /* words from one plane of the field to the next */
#define BOX_OTHER 3 /* pack: offset in staging; copy: offset of the source (owned) box in the field */
#define BOX_WIDTH 4
#define BOX_HEIGHT 5
#define BOX_PREFIX 6 /* words of the boxes before this one */

/* The box holding flat word w, and w's offset within it. Tables are short (at most eight boxes): a linear scan. */
inline uint find_box(__global const ulong *table, const uint nboxes, const ulong w) {
  uint b = 0;
  while (b + 1 < nboxes && table[(b + 1) * BOX_WORDS + BOX_PREFIX] <= w) {
    b++;
  }
  return b;
}

/* The field offset of word `within` of box b (counted from the box start base). */
inline ulong field_word(__global const ulong *box, const ulong base, const ulong within) {
  const ulong width = box[BOX_WIDTH], height = box[BOX_HEIGHT];
  const ulong x = within % width, t = within / width;
  return base + (t / height) * box[BOX_PLANE] + (t % height) * box[BOX_ROW] + x;
}

/* unpack == 0: staging = field boxes; unpack == 1: field boxes = staging. */
__kernel void pack_boxes(__global uint *restrict staging, __global uint *restrict field,
                         __global const ulong *restrict table, const uint nboxes, const ulong total, const int unpack) {
  const ulong w = get_global_id(0);
  if (w >= total) {
    return;
  }
  __global const ulong *box = table + find_box(table, nboxes, w) * BOX_WORDS;
  const ulong within = w - box[BOX_PREFIX];
  const ulong f = field_word(box, box[BOX_FIELD], within), s = box[BOX_OTHER] + within;
  if (unpack) {
    field[f] = staging[s];
  } else {
    staging[s] = field[f];
  }
}

/* Ghost boxes = owned boxes of the same field (a periodic side owned by this rank alone). */
__kernel void copy_boxes(__global uint *field, __global const ulong *restrict table, const uint nboxes,
                         const ulong total) {
  const ulong w = get_global_id(0);
  if (w >= total) {
    return;
  }
  __global const ulong *box = table + find_box(table, nboxes, w) * BOX_WORDS;
  const ulong within = w - box[BOX_PREFIX];
  field[field_word(box, box[BOX_FIELD], within)] = field[field_word(box, box[BOX_OTHER], within)];
}
