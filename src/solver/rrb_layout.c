/* SPDX-License-Identifier: BSD-3-Clause */
/* rrb_layout.c: the r1/r2/b1/b2 storage of the RRB solver (see rrb_layout.h). */
#include "rrb_layout.h"

#include <stdlib.h>
#include <string.h>

#include "clerror.h"
#include "kernel.h"
#include "program.h"

HclStatus hcl_rrb_layout_create(int nx, int ny, int max_levels, int final_nodes, RrbLayout *layout) {
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

size_t hcl_rrb_layout_index(const RrbLayout *layout, int i, int j) {
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

enum { PERMUTE_TO, PERMUTE_FROM, PERMUTE_KERNELS, WG_X = 32, WG_Y = 4 };
static const char *const permute_names[PERMUTE_KERNELS] = {"to_layout", "from_layout"};

struct RrbPermute {
  Runtime *rt;
  RrbLayout layout;
  Precision precision;
  cl_program program;
  cl_kernel kernels[PERMUTE_KERNELS];
};

HclStatus hcl_rrb_permute_create(Runtime *rt, const RrbLayout *layout, Precision precision, RrbPermute **out) {
  HclStatus status = HCL_OK;
  RrbPermute *p = NULL;
  *out = NULL;
  TRY_ALLOC(p, 1);
  p->rt = rt;
  p->layout = *layout;
  p->precision = precision;
  KernelConfig config = {.precision = precision, .wg_x = WG_X, .wg_y = WG_Y};
  TRY(hcl_program_build_kernels(rt, "rrb", &config, permute_names, PERMUTE_KERNELS, &p->program, p->kernels));
  *out = p;
  p = NULL;
cleanup:
  hcl_rrb_permute_destroy(&p);
  return status;
}

void hcl_rrb_permute_destroy(RrbPermute **permute) {
  if (!permute || !*permute) {
    return;
  }
  hcl_program_release(&(*permute)->program, (*permute)->kernels, PERMUTE_KERNELS);
  free(*permute);
  *permute = NULL;
}

/* Launches one of the two kernels: source and destination buffers, then the block's shape. */
static HclStatus launch_permute(RrbPermute *p, int k, cl_mem from, cl_mem to, Field *natural) {
  HclStatus status = HCL_OK;
  int nx = p->layout.nlevels > 0 ? p->layout.levels[0].nx : p->layout.final_nx;
  int ny = p->layout.nlevels > 0 ? p->layout.levels[0].ny : p->layout.final_ny;
  ASSERT(hcl_field_nx(natural) == nx && hcl_field_ny(natural) == ny && hcl_field_nz(natural) == 1 &&
         hcl_field_precision(natural) == p->precision);
  KernelArgs a = hcl_kernel_args(p->kernels[k]);
  hcl_arg_mem(&a, from);
  hcl_arg_mem(&a, to);
  hcl_arg_int(&a, nx);
  hcl_arg_int(&a, ny);
  hcl_arg_int(&a, hcl_field_ghost(natural));
  hcl_arg_int(&a, hcl_field_pitch(natural));
  hcl_arg_int(&a, p->layout.nlevels);
  TRY(hcl_kernel_launch(p->rt, &a, hcl_kernel_grid(p->rt, nx, ny, WG_X, WG_Y),
                        2.0 * nx * ny * hcl_precision_bytes(p->precision)));
cleanup:
  return status;
}

HclStatus hcl_rrb_to_layout(RrbPermute *permute, Field *natural, cl_mem layout) {
  return launch_permute(permute, PERMUTE_TO, hcl_field_buffer(natural), layout, natural);
}

HclStatus hcl_rrb_from_layout(RrbPermute *permute, cl_mem layout, Field *natural) {
  return launch_permute(permute, PERMUTE_FROM, layout, hcl_field_buffer(natural), natural);
}
