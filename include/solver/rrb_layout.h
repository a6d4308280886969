/* SPDX-License-Identifier: BSD-3-Clause */
/* rrb_layout.h: the r1/r2/b1/b2 storage of the RRB solver (../shared/papers/rrb-pcg-gpu.txt, section 4, Figure 10),
 * which lets every level of the preconditioner and every vector operation of CG read memory with unit stride.
 *
 * A level's nx x ny grid splits by the parity of (i, j) into four groups, each stored as its own row-major array
 * indexed by (i / 2, j / 2):
 *   b1: i odd,  j even   floor(nx/2) x ceil(ny/2)     black nodes, eliminated first (with b2)
 *   b2: i even, j odd    ceil(nx/2)  x floor(ny/2)
 *   r1: i odd,  j odd    floor(nx/2) x floor(ny/2)    red nodes eliminated second
 *   r2: i even, j even   ceil(nx/2)  x ceil(ny/2)     the next level's grid, stored the same way, recursively
 * A vector is [b1 | b2 | r1 | next level ...], the last level (factorized exactly) in its own row-major order. The
 * first level's red nodes, on which CG runs (the first Schur complement), are the contiguous tail from r1 on. */
#ifndef HYDROCL_RRB_LAYOUT_H
#define HYDROCL_RRB_LAYOUT_H

#include <stddef.h>

#include "status.h"

enum { RRB_MAX_LEVELS = 40, RRB_GROUPS = 3 }; /* 2^40 points per side are beyond any grid */
enum { RRB_B1 = 0, RRB_B2 = 1, RRB_R1 = 2 };  /* the eliminated groups of a level, in storage order */

typedef struct {
  int nx, ny;               /* the level's grid */
  int group_nx[RRB_GROUPS]; /* each group's array: group_nx x group_ny, at offset[] */
  int group_ny[RRB_GROUPS];
  size_t offset[RRB_GROUPS];
} RrbLevelLayout;

typedef struct {
  int nlevels; /* levels with eliminations */
  RrbLevelLayout levels[RRB_MAX_LEVELS];
  int final_nx, final_ny; /* the last level, stored row-major at final_offset */
  size_t final_offset;
  size_t count; /* nx ny: every point once */
} RrbLayout;

/* The layout of an nx x ny grid whose levels are eliminated while a level has more than final_nodes (>= 1) points
 * and fewer than max_levels (>= 1) levels are made; the rest is the last level. HCL_EDATA for an empty grid or
 * bad limits. */
HclStatus hcl_rrb_layout_create(int nx, int ny, int max_levels, int final_nodes, RrbLayout *layout);

/* Where point (i, j) of the first level is stored. */
size_t hcl_rrb_layout_index(const RrbLayout *layout, int i, int j);

#include "field.h"

/* The device side: copies between a 2D field (this rank's block, which the layout must describe) and a buffer in
 * the layout (layout->count REALs of the field's precision), by the kernels of kernels_cl/rrb.cl. */
typedef struct RrbPermute RrbPermute;

HclStatus hcl_rrb_permute_create(Runtime *rt, const RrbLayout *layout, Precision precision, RrbPermute **out);
void hcl_rrb_permute_destroy(RrbPermute **permute);
HclStatus hcl_rrb_to_layout(RrbPermute *permute, Field *natural, cl_mem layout);
HclStatus hcl_rrb_from_layout(RrbPermute *permute, cl_mem layout, Field *natural);

#endif
