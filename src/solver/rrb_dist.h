/* SPDX-License-Identifier: BSD-3-Clause */
/* rrb_dist.h: the RRB preconditioner of the whole system on several ranks: the same factorization and the same
 * M = L D L^T as rrb.h's on one rank (the host reference's, tests/unit/rrb_reference.h), so CG takes the same
 * iterations on any number of ranks.
 *
 * How it crosses rank boundaries: the first levels are distributed. Each rank keeps its block of the first level's
 * grid in natural order with ghost layers of width 2^K (K the distributed levels); level k's nodes are the points
 * (i 2^k, j 2^k), coloured by their global indices, so every rank's elimination is the one-rank elimination. Before
 * each stage (setup steps A and B, forward and backward substitution) the ghost layers are exchanged through the
 * halo layer, so a node on a block's edge sees its neighbours on other ranks (the substitutions exchange once per
 * group of levels and direction: each level also runs on the ghost nodes it can still compute, so the next level of
 * the group needs no exchange; rrb_dist.c says how far; the exchange travels while the group's first stage updates
 * the nodes whose neighbours are the rank's own). Below level K the remaining grid
 * (at most coarse_nodes nodes) is gathered onto every rank (MPI_Allgatherv), factorized and solved redundantly by
 * the one-rank solver (rrb.h), and every rank takes back the values of its block and ghost layers: a coarse level
 * needs no further exchange. K also stops where 2^(K+1) exceeds the smallest block, and may be 0: then the whole
 * grid is gathered (small grids). Cost per application: one gather of the coarse grid and 2 ghost exchanges for
 * K = 1, 4 for K = 2 to 5 (2 K level by level; rrb_dist_exchanges). The setup exchanges twice per level, once.
 *
 * Vectors are fields of ghost width 1 on the decomposition (pcg.h's); every call is collective. */
#ifndef HYDROCL_RRB_DIST_H
#define HYDROCL_RRB_DIST_H

#include "decomp.h"
#include "field.h"
#include "rrb.h"
#include "runtime.h"
#include "status.h"

typedef struct RrbDist RrbDist;

/* The factorization of hcl_rrb_create's depth on the whole grid. Levels are distributed while the remaining grid has
 * more than coarse_nodes nodes (RRB_DIST_COARSE_NODES: the default) and the blocks are wide enough, and the coarse
 * solver has a level left to eliminate before its exact one (so the factorization is the one-rank one). Borrows rt
 * and decomp. */
enum { RRB_DIST_COARSE_NODES = 16384 };
HclStatus rrb_dist_create(Runtime *rt, const Decomp *decomp, Precision precision, RrbDepth depth, int coarse_nodes,
                          RrbDist **out);
void rrb_dist_destroy(RrbDist **rrb);

int rrb_dist_levels(const RrbDist *rrb);    /* K: the distributed levels */
int rrb_dist_exchanges(const RrbDist *rrb); /* ghost exchanges of the last application */

/* Factorizes the matrix of the fields centre, east, north (ghost width 1, east 0 on the grid's last column and north
 * on its last row). A pivot that is not positive is HCL_EDATA naming the level, on every rank. */
HclStatus rrb_dist_setup(RrbDist *rrb, Field *centre, Field *east, Field *north);

/* z = M^-1 r (r is left as it was). */
HclStatus rrb_dist_apply(RrbDist *rrb, Field *r, Field *z);

#endif
