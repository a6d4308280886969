/* pcg.h: preconditioned conjugate gradients on the device for a symmetric positive definite 5-point system on the
 * distributed grid (../shared/papers/rrb-pcg-gpu.txt, Algorithm 1): the solver of the semi-implicit models, with
 * the RRB preconditioner (rrb.h) and, as baselines, none (plain CG) and Jacobi.
 *
 * With RRB, CG runs as the paper's section 3 does on the first Schur complement S1 (the red nodes of a red-black
 * colouring, half the unknowns) with M1 from the RRB factorization, and the black nodes follow exactly at the end;
 * the residual of S1's system is the full system's residual (its black rows are then satisfied exactly). On several
 * ranks the same M is applied to the whole system by the distributed RRB (rrb_dist.h), CG starting from the black
 * rows satisfied, which is the same CG: the iterations do not depend on the number of ranks.
 *
 * The model assembles the matrix on the device into three fields of ghost width 1 (pcg_matrix): the centre c, the
 * coupling east of each point with its east neighbour (0 on the grid's last column) and north with its north
 * neighbour (0 on the last row); Dirichlet and Neumann rows are the model's to fold in. pcg_set_matrix is called
 * after every assembly (with RRB it factorizes the matrix again). A solve starts from the x it is given (warm
 * start) and stops when the 2-norm of the residual b - S x falls to tolerance times that of b (from x = 0, the
 * paper's ||r_i|| / ||r_0||; from a good x, fewer iterations), or with PCG_NORM_M when ||r||_M^-1 falls to tolerance
 * times its first value (the paper's criterion in section 3.3, and hypre's PCG default; relative to the start, so a
 * warm start gains nothing by it: models use the 2-norm). Dot products go through the reduction layer and the operand's ghosts
 * through the halo layer, so a solve on several ranks is the same solve. Every call is collective. */
#ifndef HYDROCL_PCG_H
#define HYDROCL_PCG_H

#include <stdbool.h>

#include "decomp.h"
#include "field.h"
#include "rrb.h"
#include "runtime.h"
#include "status.h"

typedef enum { PCG_PLAIN, PCG_JACOBI, PCG_RRB } PcgPreconditioner;
typedef enum { PCG_NORM_2, PCG_NORM_M } PcgNorm;

typedef struct {
  int iterations;
  double initial_residual, final_residual; /* 2-norms of b - S x at the start and at the return, computed afresh */
  bool converged;                          /* the criterion was met within the iterations allowed */
} PcgResult;

typedef struct {
  PcgPreconditioner preconditioner;
  RrbDepth rrb; /* with PCG_RRB: how deep the factorization goes (RRB_DEPTH_DEFAULT unless chosen) */
} PcgOptions;

typedef struct Pcg Pcg;

/* Borrows rt and decomp. A depth out of range, or one whose exact level would be too big, is HCL_EDATA. */
HclStatus pcg_create(Runtime *rt, const Decomp *decomp, Precision precision, const PcgOptions *options, Pcg **out);
/* The stopping criterion (PCG_NORM_2 unless set). */
void pcg_set_norm(Pcg *pcg, PcgNorm norm);
void pcg_destroy(Pcg **pcg);

/* The matrix fields for the model's assembly kernel: centre, east, north (borrowed). */
void pcg_matrix(Pcg *pcg, Field *fields[3]);
/* After assembly: exchanges the couplings' ghosts; a centre that is not positive (no SPD matrix has one) is
 * HCL_EDATA with the smallest centre. With RRB, factorizes (a pivot that is not positive: HCL_EDATA). */
HclStatus pcg_set_matrix(Pcg *pcg);

/* Solves S x = b from the x given; b and x are fields of this precision with ghost width 1 on the solver's
 * decomposition. */
HclStatus pcg_solve(Pcg *pcg, Field *b, Field *x, double tolerance, int max_iterations, PcgResult *result);

#endif
