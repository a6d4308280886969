/* SPDX-License-Identifier: BSD-3-Clause */
/* stencil5.h: the 5-point symmetric variable-coefficient operator on the distributed grid (hypre's StructMatrix
 * role; kernels_cl/stencil5.cl): (S x)_p = c_p x_p + e_p x_E + e_W x_W + n_p x_N + n_S x_S, the system of the
 * semi-implicit models, solved by CG with the RRB preconditioner (rrb_precond.h), Jacobi or none (precond.h).
 *
 * The model assembles the matrix on the device into three fields of ghost width 1 (hcl_stencil5_fields): the centre c,
 * the coupling east of each point with its east neighbour (0 on the grid's last column) and north with its north
 * neighbour (0 on the last row); Dirichlet and Neumann rows are the model's to fold in. hcl_operator_setup after every
 * assembly exchanges the matrix's ghosts (one message a neighbour) and refuses a centre that is not positive (no SPD matrix has one; HCL_EDATA
 * with the smallest). Its vectors are 2D fields of ghost width 1 in its precision (hcl_operator_space); of a wider one
 * where made by hcl_stencil5_create_ghosted. Every call is collective. */
#ifndef HYDROCL_STENCIL5_H
#define HYDROCL_STENCIL5_H

#include "decomp.h"
#include "field.h"
#include "operator.h"
#include "precond.h"
#include "runtime.h"
#include "status.h"

/* Borrows rt and decomp. */
HclStatus hcl_stencil5_create(Runtime *rt, const Decomp *decomp, Precision precision, Operator **out);
/* The same with fields and vectors of a wider ghost width (the 5-point multigrid's communication-avoiding levels). */
HclStatus hcl_stencil5_create_ghosted(Runtime *rt, const Decomp *decomp, Precision precision, int ghost,
                                      Operator **out);

/* The matrix fields of a 5-point operator, centre, east and north (borrowed, for the model's assembly); HCL_EDATA
 * naming the operator when op is not one (a preconditioner that needs the stencil's coefficients). */
HclStatus hcl_stencil5_fields(Operator *op, Field *fields[3]);
Runtime *hcl_stencil5_runtime(Operator *op);
const Decomp *hcl_stencil5_decomp(Operator *op);

/* to's matrix = from's, converted to to's precision (both 5-point operators on one decomposition), and to set up
 * (hcl_operator_setup): a preconditioner's float copy of a double system. */
HclStatus hcl_stencil5_convert_matrix(Operator *to, Operator *from);

/* x += r / c at the points (i, j) with i + j odd (global indices: the black points of the red-black colouring):
 * with r = b - S x, the black rows are then satisfied exactly (rrb_precond.h). */
HclStatus hcl_stencil5_black_jacobi(Operator *op, Vec *x, Vec *r);

#endif
