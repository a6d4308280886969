/* SPDX-License-Identifier: BSD-3-Clause */
/* mirror.h: ghost layers on the closed sides of the global grid filled by mirror symmetry about the boundary point,
 * f(-m) = f(m): the no-flux walls of the potential-flow solver (a wall is a plane of symmetry, so the normal
 * derivative of every mirrored field vanishes there to any order of the stencils). Ghosts towards other ranks and
 * across periodic sides are the halo's (halo.h): exchange first, then mirror, and the corners come out right.
 *
 * A closed direction needs at least ghost + 1 points globally, or exactly one point (a flume in x alone: the ghosts
 * repeat it, and every centred derivative across it is zero). */
#ifndef HYDROCL_MIRROR_H
#define HYDROCL_MIRROR_H

#include "field.h"
#include "halo.h"
#include "runtime.h"
#include "status.h"

typedef struct Mirror Mirror;

/* The closed sides of this rank as bits (kernels that read across them instead of filling ghosts use the same
 * values): a wall is not periodic and lies at the global grid's edge; SINGLE marks a closed direction of one
 * point. */
enum {
  MIRROR_WEST = 1,
  MIRROR_EAST = 2,
  MIRROR_SOUTH = 4,
  MIRROR_NORTH = 8,
  MIRROR_SINGLE_X = 16,
  MIRROR_SINGLE_Y = 32
};
int hcl_mirror_sides(const Decomp *decomp);

/* Builds the kernels once; borrows rt. */
HclStatus hcl_mirror_create(Runtime *rt, Mirror **out);
void hcl_mirror_destroy(Mirror **mirror);

/* Fills f's ghost layers on this rank's closed sides (all planes); nothing on a rank with none. A closed direction
 * shorter than the ghost width is HCL_EDATA. */
HclStatus hcl_mirror_fill(Mirror *mirror, Field *f);

/* The ghosts of f made valid everywhere: hcl_halo_exchange(halo) (halo.h: other ranks, periodic sides), then
 * hcl_mirror_fill. Collective. */
HclStatus hcl_mirror_exchange(Mirror *mirror, Halo *halo, Field *f);

#endif
