/* rrb.h: the repeated red-black (RRB) incomplete factorization of a 5-point SPD matrix on the device and its
 * application as a preconditioner, with the first Schur complement on which CG runs (../shared/papers/
 * rrb-pcg-gpu.txt, sections 3 and 4; Brand's RRB method). The algorithm, level by level, is the host reference's
 * (tests/unit/rrb_reference.h), which the tests compare with; the storage is the r1/r2/b1/b2 layout (rrb_layout.h).
 *
 * The system S x = b splits by the red-black colouring of level 0 into black rows, solved exactly once the red
 * nodes are known, and the first Schur complement S1 x_r = b_r - S_rb D_b^-1 b_b on the red nodes: the vectors of
 * CG are half as long (section 3). M1 = L D L^T approximates S1: the r1 nodes of level 0 eliminated, then on every
 * further level the black and the r1 nodes, the fill lumped back to 5-point stencils, down to one node.
 *
 * Vectors here are device buffers in the layout (rrb_layout(...)->count REALs); the red nodes are the places from
 * rrb_red_first to count. One rank's block; calls are not collective. */
#ifndef HYDROCL_RRB_H
#define HYDROCL_RRB_H

#include "field.h"
#include "rrb_layout.h"
#include "runtime.h"
#include "status.h"

typedef struct Rrb Rrb;

/* For an nx x ny grid in precision; borrows rt. Builds the kernels and allocates the factor (FACTOR_PLANES + 5
 * planes of the layout) and the setup's scratch. */
HclStatus rrb_create(Runtime *rt, int nx, int ny, Precision precision, Rrb **out);
void rrb_destroy(Rrb **rrb);

const RrbLayout *rrb_layout(const Rrb *rrb);
size_t rrb_red_first(const Rrb *rrb); /* the place of level 0's first red node */

/* Factorizes the matrix given by the natural fields centre, east and north (ghosted, of the grid and precision;
 * east 0 on the last column and north on the last row): the Schur complement S1 exactly and M1 level by level. A
 * pivot that is not positive, in S or in its lumped approximation, is HCL_EDATA naming the level. */
HclStatus rrb_setup(Rrb *rrb, Field *centre, Field *east, Field *north);

/* The same from a matrix in natural order anywhere on the device: coefficient a of point (i, j) at
 * coefficients[a][base + j pitch + i] (centre, east, north). */
typedef struct {
  cl_mem coefficients[3];
  size_t base;
  int pitch;
} RrbMatrix;
HclStatus rrb_setup_matrix(Rrb *rrb, const RrbMatrix *matrix);

/* z = M1^-1 r on the red nodes (r is left as it was; z's black places are not touched). */
HclStatus rrb_apply(Rrb *rrb, cl_mem r, cl_mem z);
/* q = S1 p on the red nodes. */
HclStatus rrb_schur_apply(Rrb *rrb, cl_mem p, cl_mem q);
/* r = b_r - S_rb D_b^-1 b_b on the red nodes: the right-hand side of the Schur complement's system. */
HclStatus rrb_schur_rhs(Rrb *rrb, cl_mem b, cl_mem r);
/* x_b = D_b^-1 (b_b - S_br x_r) on the black nodes: the rest of the solution once the red nodes are known. */
HclStatus rrb_recover_black(Rrb *rrb, cl_mem b, cl_mem x);

/* z = M^-1 r for the whole system, M = L D L^T with level 0's black nodes eliminated exactly: S1's right-hand
 * side, M1^-1 on the red nodes, the black nodes back (r's red places are overwritten). */
HclStatus rrb_apply_full(Rrb *rrb, cl_mem r, cl_mem z);

/* The first level whose stages run in one work-group (apply_coarse): every level from it on is small. */
int rrb_coarse_level(const Rrb *rrb);
/* rrb_apply with each kernel waited for and its time (event timestamps) added to level_seconds[level]; the levels
 * from rrb_coarse_level on are counted at that level. For the benchmark's Table 3. */
HclStatus rrb_apply_timed(Rrb *rrb, cl_mem r, cl_mem z, double level_seconds[RRB_MAX_LEVELS + 1]);

#endif
