/* rrb_layout.c: the r1/r2/b1/b2 storage of the RRB solver (see rrb_layout.h). */
#include "rrb_layout.h"

#include <string.h>

HclStatus rrb_layout_create(int nx, int ny, int max_levels, int final_nodes, RrbLayout *layout) {
  HclStatus status = HCL_OK;
  memset(layout, 0, sizeof *layout);
  REQUIRE(nx >= 1 && ny >= 1, HCL_EDATA, "an RRB layout needs a grid of at least 1 x 1 points (got %d x %d)", nx, ny);
  REQUIRE(max_levels >= 1 && final_nodes >= 1, HCL_EDATA,
          "an RRB layout needs max_levels >= 1 and final_nodes >= 1 (got %d and %d)", max_levels, final_nodes);
  size_t offset = 0;
  /* A 1 x 1 level has nothing to eliminate: it is always the last. */
  while ((long)nx * ny > final_nodes && layout->nlevels + 1 < max_levels && (long)nx * ny > 1 &&
         layout->nlevels < RRB_MAX_LEVELS) {
    RrbLevelLayout *l = &layout->levels[layout->nlevels++];
    int half_down_x = nx / 2, half_up_x = (nx + 1) / 2, half_down_y = ny / 2, half_up_y = (ny + 1) / 2;
    const int group_nx[RRB_GROUPS] = {half_down_x, half_up_x, half_down_x};
    const int group_ny[RRB_GROUPS] = {half_up_y, half_down_y, half_down_y};
    l->nx = nx;
    l->ny = ny;
    for (int g = 0; g < RRB_GROUPS; g++) {
      l->group_nx[g] = group_nx[g];
      l->group_ny[g] = group_ny[g];
      l->offset[g] = offset;
      offset += (size_t)group_nx[g] * group_ny[g];
    }
    nx = half_up_x;
    ny = half_up_y;
  }
  layout->final_nx = nx;
  layout->final_ny = ny;
  layout->final_offset = offset;
  layout->count = offset + (size_t)nx * ny;
cleanup:
  return status;
}

size_t rrb_layout_index(const RrbLayout *layout, int i, int j) {
  for (int k = 0; k < layout->nlevels; k++) {
    const RrbLevelLayout *l = &layout->levels[k];
    int odd_i = i % 2, odd_j = j % 2;
    if (odd_i || odd_j) {
      int g = odd_i && odd_j ? RRB_R1 : (odd_i ? RRB_B1 : RRB_B2);
      return l->offset[g] + (size_t)(j / 2) * l->group_nx[g] + (size_t)(i / 2);
    }
    i /= 2; /* an r2 point: on to the next level */
    j /= 2;
  }
  return layout->final_offset + (size_t)j * layout->final_nx + (size_t)i;
}
