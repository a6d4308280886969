/* SPDX-License-Identifier: BSD-3-Clause */
/* test_rrb_layout.c: the r1/r2/b1/b2 storage (rrb_layout.h) on grids of many shapes: every point has its own place
 * and every place is used; each group is read with unit stride (x neighbours two apart on the grid are one apart in
 * memory); the first level's red points, where CG runs, are one contiguous tail; the levels are those the host
 * reference factorization makes (tests/support/rrb_reference.h), and a 1024^2 grid taken down to one point has the
 * paper's 11 levels (kmax = 1 + log2(1024), its equation 6). Bad limits are refused. */
#include <stdlib.h>
#include <string.h>

#include "rrb_layout.h"
#include "../support/rrb_reference.h"
#include "../support/tap.h"

/* Every check of one grid and its limits; reports one line. */
static void check_grid(int nx, int ny, int max_levels, int final_nodes) {
  RrbLayout layout;
  HclStatus s = hcl_rrb_layout_create(nx, ny, max_levels, final_nodes, &layout);
  size_t n = (size_t)nx * ny;
  unsigned char *used = calloc(n, 1);
  bool bijective = s == HCL_OK && layout.count == n, unit_stride = true, red_tail = true;
  size_t red_start = layout.nlevels > 0 ? layout.levels[0].offset[RRB_R1] : 0;
  for (int j = 0; j < ny && bijective; j++) {
    for (int i = 0; i < nx; i++) {
      size_t at = hcl_rrb_layout_index(&layout, i, j);
      bijective = bijective && at < n && !used[at];
      if (at < n) {
        used[at] = 1;
      }
      if (i + 2 < nx && layout.nlevels > 0 && (i % 2 || j % 2)) { /* eliminated at level 1: same group as i + 2 */
        unit_stride = unit_stride && hcl_rrb_layout_index(&layout, i + 2, j) == at + 1;
      }
      bool red = (i + j) % 2 == 0;
      red_tail = red_tail && (layout.nlevels == 0 || red == (at >= red_start));
    }
  }
  /* The reference factorization of a matrix on the same grid makes as many levels. */
  Stencil5 stencil;
  RrbFactor factor;
  const char *why = "";
  stencil_alloc(nx, ny, &stencil);
  for (size_t p = 0; p < n; p++) {
    stencil.c[p] = 4;
    stencil.east[p] = (int)(p % nx) + 1 < nx ? -1 : 0;
    stencil.north[p] = p + nx < n ? -1 : 0;
  }
  bool factored = reference_factor(&stencil, max_levels, final_nodes, &factor, &why);
  bool same_levels = factored && factor.nlevels == layout.nlevels && factor.final_nx == layout.final_nx &&
                     factor.final_ny == layout.final_ny;
  TAP_OK(bijective && unit_stride && red_tail && same_levels,
         "%d x %d (levels up to %d, last at most %d points): %d levels and a %d x %d last one; one place each %s, unit "
         "stride %s, reds a tail %s, as the reference %s",
         nx, ny, max_levels, final_nodes, layout.nlevels, layout.final_nx, layout.final_ny, bijective ? "yes" : "NO",
         unit_stride ? "yes" : "NO", red_tail ? "yes" : "NO", same_levels ? "yes" : "NO");
  reference_free(&factor);
  stencil_free(&stencil);
  free(used);
}

int main(void) {
  const int shapes[][4] = {{1, 1, 99, 1},   {1, 37, 99, 1},   {37, 1, 99, 1},   {2, 2, 99, 1},  {13, 9, 99, 1},
                           {64, 64, 99, 1}, {97, 89, 99, 16}, {1000, 3, 99, 1}, {31, 17, 3, 1}, {8, 8, 1, 1}};
  for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
    check_grid(shapes[k][0], shapes[k][1], shapes[k][2], shapes[k][3]);
  }
  RrbLayout layout;
  HclStatus s = hcl_rrb_layout_create(1024, 1024, 99, 1, &layout);
  TAP_OK(s == HCL_OK && layout.nlevels + 1 == 11 && layout.final_nx == 1,
         "1024 x 1024 down to one point: %d levels with the last (the paper's kmax = 11)", layout.nlevels + 1);
  hcl_status_clear();
  s = hcl_rrb_layout_create(0, 5, 99, 1, &layout);
  TAP_OK(s == HCL_EDATA && strstr(hcl_status_message(), "0 x 5") != NULL, "an empty grid is refused: %s",
         hcl_status_message());
  hcl_status_clear();
  s = hcl_rrb_layout_create(5, 5, 99, 0, &layout);
  TAP_OK(s == HCL_EDATA, "final_nodes 0 is refused: %s", hcl_status_message());
  return tap_done();
}
