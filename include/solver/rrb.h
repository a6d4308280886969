/* SPDX-License-Identifier: BSD-3-Clause */
/* rrb.h: the repeated red-black (RRB) incomplete factorization of a 5-point SPD matrix on the device and its
 * application as a preconditioner, with the first Schur complement on which CG runs (../shared/papers/
 * rrb-pcg-gpu.txt, sections 3 and 4; Brand's RRB method). The algorithm, level by level, is the host reference's
 * (tests/unit/rrb_reference.h), which the tests compare with; the storage is the r1/r2/b1/b2 layout (rrb_layout.h).
 *
 * The system S x = b splits by the red-black colouring of level 0 into black rows, solved exactly once the red
 * nodes are known, and the first Schur complement S1 x_r = b_r - S_rb D_b^-1 b_b on the red nodes: the vectors of
 * CG are half as long (section 3). M1 = L D L^T approximates S1: the r1 nodes of level 0 eliminated, then on every
 * further level the black and the r1 nodes, the fill lumped back to 5-point stencils, down to the last level, which
 * is factorized exactly (the paper's RRB-k, section 2: its dense inverse, applied by one work-group).
 *
 * Vectors here are device buffers in the vector layout (hcl_rrb_vector_layout(...)->count REALs): level 0's b1, b2 and r1
 * groups, then level 1's grid row-major (the layout of rrb_layout.h with one level), so CG's vectors, the red nodes
 * from hcl_rrb_red_first to count, are two plain arrays and the Schur complement's product reads them with unit stride.
 * The factor and the preconditioner's own work vector keep the recursive layout from level 1 on
 * (hcl_rrb_factor_layout), which each level reads with unit stride. One rank's block; calls are not collective. */
#ifndef HYDROCL_RRB_H
#define HYDROCL_RRB_H

#include "field.h"
#include "rrb_layout.h"
#include "runtime.h"
#include "status.h"

typedef struct Rrb Rrb;

/* How deep the factorization goes (RRB-k). Level 0 is always eliminated (CG runs on its Schur complement; a 1 x 1
 * grid has none), then further levels while the remaining grid has more than exact_nodes nodes and, with levels > 0,
 * until levels - 1 are eliminated (the paper's k: level k is the exact one). The last level, at most RRB_EXACT_MAX
 * nodes, is factorized exactly. Each level of lumping costs about one CG iteration on the model problem
 * (bench/README.md): a bigger exact level converges in fewer iterations and takes longer to set up and apply. */
enum { RRB_EXACT_MAX = 256, RRB_EXACT_AUTO = 0 };
typedef struct {
  int levels;      /* k >= 2, or 0: no limit */
  int exact_nodes; /* 1 .. RRB_EXACT_MAX, or RRB_EXACT_AUTO: the most the device's local memory holds (hcl_rrb_exact_fit) */
} RrbDepth;
#define RRB_DEPTH_DEFAULT ((RrbDepth){.levels = 0, .exact_nodes = RRB_EXACT_AUTO})

/* The levels with eliminations that depth makes on an nx x ny grid, whatever the size of the last level;
 * HCL_EDATA when depth is out of range or the last level would be bigger than RRB_EXACT_MAX (naming the fewest
 * levels that would do). RRB_EXACT_AUTO counts as RRB_EXACT_MAX here: resolve it first (hcl_rrb_depth_on) where a
 * device will hold the exact level. */
HclStatus hcl_rrb_depth_levels(int nx, int ny, RrbDepth depth, int *eliminated);

/* The largest exact level, at most RRB_EXACT_MAX nodes, whose setup (its band, EXACT_BAND_MAX + 1 REALs a node) and
 * application (its right-hand side and one partial sum a work-item) fit the local memory of rt's device in
 * precision; 1 when not even one node does (hcl_rrb_create then refuses, saying so). */
int hcl_rrb_exact_fit(const Runtime *rt, Precision precision);
/* depth, its RRB_EXACT_AUTO replaced by hcl_rrb_exact_fit. */
RrbDepth hcl_rrb_depth_on(const Runtime *rt, Precision precision, RrbDepth depth);

/* For an nx x ny grid in precision, as deep as depth says; borrows rt. Builds the kernels and allocates the factor
 * (FACTOR_PLANES + 5 planes of the layout), the last level's inverse and the setup's scratch. */
HclStatus hcl_rrb_create(Runtime *rt, int nx, int ny, Precision precision, RrbDepth depth, Rrb **out);
void hcl_rrb_destroy(Rrb **rrb);

const RrbLayout *hcl_rrb_vector_layout(const Rrb *rrb); /* of the vectors the calls below take */
const RrbLayout *hcl_rrb_factor_layout(const Rrb *rrb); /* of the factorization: its levels and the last one */
size_t hcl_rrb_red_first(const Rrb *rrb);               /* the place of level 0's first red node */

/* Factorizes the matrix given by the natural fields centre, east and north (ghosted, of the grid and precision;
 * east 0 on the last column and north on the last row): the Schur complement S1 exactly and M1 level by level. A
 * pivot that is not positive, in S or in its lumped approximation, is HCL_EDATA naming the level. */
HclStatus hcl_rrb_setup(Rrb *rrb, Field *centre, Field *east, Field *north);

/* The same from a matrix in natural order anywhere on the device: coefficient a of point (i, j) at
 * coefficients[a][base + j pitch + i] (centre, east, north). */
typedef struct {
  cl_mem coefficients[3];
  size_t base;
  int pitch;
} RrbMatrix;
HclStatus hcl_rrb_setup_matrix(Rrb *rrb, const RrbMatrix *matrix);

/* z = M1^-1 r on the red nodes (r is left as it was; z's black places are not touched). */
HclStatus hcl_rrb_apply(Rrb *rrb, cl_mem r, cl_mem z);
/* q = S1 p on the red nodes. */
HclStatus hcl_rrb_schur_apply(Rrb *rrb, cl_mem p, cl_mem q);
/* r = b_r - S_rb D_b^-1 b_b on the red nodes: the right-hand side of the Schur complement's system. */
HclStatus hcl_rrb_schur_rhs(Rrb *rrb, cl_mem b, cl_mem r);
/* x_b = D_b^-1 (b_b - S_br x_r) on the black nodes: the rest of the solution once the red nodes are known. */
HclStatus hcl_rrb_recover_black(Rrb *rrb, cl_mem b, cl_mem x);

/* z = M^-1 r for the whole system, M = L D L^T with level 0's black nodes eliminated exactly: S1's right-hand
 * side, M1^-1 on the red nodes, the black nodes back (r's red places are overwritten). */
HclStatus hcl_rrb_apply_full(Rrb *rrb, cl_mem r, cl_mem z);

/* The first level whose stages run in one work-group (apply_coarse): every level from it on is small. */
int hcl_rrb_coarse_level(const Rrb *rrb);
/* hcl_rrb_apply with each kernel waited for and its time (event timestamps) added to level_seconds[level]; the levels
 * from hcl_rrb_coarse_level on are counted at that level. For the benchmark's Table 3. */
HclStatus hcl_rrb_apply_timed(Rrb *rrb, cl_mem r, cl_mem z, double level_seconds[RRB_MAX_LEVELS + 1]);

#endif
