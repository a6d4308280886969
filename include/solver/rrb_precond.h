/* SPDX-License-Identifier: BSD-3-Clause */
/* rrb_precond.h: the repeated red-black preconditioner (rrb.h on one rank, rrb_dist.h on several) as a
 * preconditioner of a 5-point stencil operator (stencil5.h), for CG (krylov.h), as ../shared/papers/rrb-pcg-gpu.txt
 * section 3 runs it.
 *
 * On one rank the method runs on the first Schur complement: presolve moves b and x into the RRB layout, forms the
 * Schur system's right-hand side b_r - S_rb D_b^-1 b_b, and gives the method the Schur complement S1 on the red nodes
 * with M1 from the factorization (vectors: the layout's red places, half the unknowns); postsolve finds the black
 * nodes exactly from the red and moves x back. The residual of S1's system is the whole system's (its black rows are
 * then satisfied exactly), so the stopping test reads the same. On several ranks M is applied to the whole system by
 * the distributed factorization, and presolve first satisfies the black rows (hcl_stencil5_black_jacobi): CG from there is
 * the same CG, so the iterations do not depend on the number of ranks.
 *
 * The factorization is made at every setup (after every assembly), of the operator it is set up with, as deep as
 * depth says (rrb.h; a depth out of range, or one whose exact level would be too big, is HCL_EDATA there). */
#ifndef HYDROCL_RRB_PRECOND_H
#define HYDROCL_RRB_PRECOND_H

#include "precond.h"
#include "rrb.h"
#include "status.h"

HclStatus hcl_rrb_precond_create(RrbDepth depth, Precond **out);

/* The factorization in float under a system in double (mixed-precision CG: CG's recurrences in double, M^-1 in
 * float): a float copy of the matrix converted at every setup, factorized as on several ranks (the whole system,
 * rrb_dist.h, on any number of ranks, one included), r and z converted on the way in and out. CG then iterates on the
 * whole system from its black rows satisfied, which is the Schur complement's CG (the same iterations as in
 * double). */
HclStatus hcl_rrb_precond_create_mixed(RrbDepth depth,
                                       Precond **out); /* under a float system: hcl_rrb_precond_create's */

/* The one-rank factorization of a preconditioner set up on one rank (NULL otherwise): for benchmarks' timing of
 * its parts. */
Rrb *hcl_rrb_precond_factor(Precond *pc);

#endif
