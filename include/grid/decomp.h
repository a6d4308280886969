/* SPDX-License-Identifier: BSD-3-Clause */
/* decomp.h: the 2D Cartesian split of a horizontal grid over MPI ranks. Knows nothing of fields or physics.
 *
 * Each of the px x py ranks owns a block of the global nx x ny points; blocks differ by at most one point per
 * direction (the first nx mod px columns of ranks get one more), except on the coarse grids of multigrid, whose
 * blocks follow the fine grid's (hcl_decomp_create_coarse). A side is periodic or closed; closed sides have no
 * neighbour and their ghost layers are left to the models. */
#ifndef HYDROCL_DECOMP_H
#define HYDROCL_DECOMP_H

#include "par.h"
#include "status.h"

#include <stdbool.h>

typedef struct {
  int nx, ny;      /* global points */
  int px, py;      /* process grid; 0: chosen for the shortest halo on this grid, see decomp.c */
  bool periodic_x; /* x sides (west/east) periodic, else closed */
  bool periodic_y; /* y sides (south/north) periodic, else closed */
} DecompSpec;

/* This rank's part. Neighbours are indexed neighbor[dy + 1][dx + 1] for dx, dy in {-1, 0, 1}: the rank owning the
 * block at that offset (this rank itself across a periodic side with one rank in that direction), or -1 where a
 * closed side has none. */
typedef struct {
  int nx, ny; /* owned points */
  int x0, y0; /* global index of the first owned point */
  int px, py; /* process grid */
  int cx, cy; /* this rank's coordinates in it */
  int rank;
  int neighbor[3][3];
} DecompLocal;

typedef struct Decomp Decomp;

/* Splits the grid over the world communicator. A grid too small for the process grid (a rank with no point) is
 * HCL_EDATA with the numbers. Collective. */
HclStatus hcl_decomp_create(const DecompSpec *spec, Decomp **out);
void hcl_decomp_destroy(Decomp **decomp);

const DecompSpec *hcl_decomp_spec(const Decomp *decomp); /* the global grid, with px, py filled in */
const DecompLocal *hcl_decomp_local(const Decomp *decomp);
/* The owned block of any rank, for gathering to rank 0. */
void hcl_decomp_block_of(const Decomp *decomp, int rank, int *x0, int *y0, int *nx, int *ny);

/* The grid of every other point in the directions halved (point I is the fine grid's 2 I), on the same process grid,
 * each rank owning the coarse points of its fine block: grid transfers between the two never cross a rank boundary
 * by more than one point. Halving needs nx odd on a closed side (the end points stay) and even on a periodic one,
 * and leaves every rank a point: hcl_decomp_can_coarsen says whether it does. Collective. */
bool hcl_decomp_can_coarsen(const Decomp *fine, bool halve_x, bool halve_y);
HclStatus hcl_decomp_create_coarse(const Decomp *fine, bool halve_x, bool halve_y, Decomp **out);

/* The grid of the odd points in the directions halved (point I is the fine grid's 2 I + 1; floor(n / 2) points): the
 * coarse grids of the 5-point multigrid (mg5.h), whose unknowns are interior points with the boundary values outside
 * the grid. A periodic side needs n even; every rank must keep a point. Collective. */
bool hcl_decomp_can_halve_odd(const Decomp *fine, bool halve_x, bool halve_y);
HclStatus hcl_decomp_create_odd(const Decomp *fine, bool halve_x, bool halve_y, Decomp **out);

/* A grid of nx x ny points that every rank of split's process grid holds whole (the coarse levels of a multigrid
 * gathered onto every rank): px = py = 1, split's sides, and across a periodic side this rank its own neighbour.
 * Nothing is exchanged between ranks on it. Collective over split's ranks. */
HclStatus hcl_decomp_create_replicated(const Decomp *split, int nx, int ny, Decomp **out);

const ParComm *hcl_decomp_comm(const Decomp *decomp); /* the process grid's communicator; ranks as in the world */

#endif
