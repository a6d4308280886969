/* SPDX-License-Identifier: BSD-3-Clause */
/* operator.h: a linear operator A on a space of device vectors (vec.h), as the Krylov methods (krylov.h) and the
 * preconditioners (precond.h) see it: PETSc's Mat as KSP sees it, hypre's StructMatrix. An implementation is a table
 * of functions and a context; this module holds them and says once who owns what.
 *
 * Implementations: the 5-point variable-coefficient stencil (stencil5.h), the first Schur complement of RRB on the
 * red nodes (inside rrb_precond.c), the sigma-transformed Laplace operator of the potential-flow solver (laplace.h).
 * An operator with its own right-hand side (affine: the Laplace problem's Dirichlet surface values and sources) gives
 * it through rhs, and its residual then takes b = NULL. Every call is collective over the vectors' ranks. */
#ifndef HYDROCL_OPERATOR_H
#define HYDROCL_OPERATOR_H

#include <stdbool.h>

#include "status.h"
#include "vec.h"

typedef struct Operator Operator;

typedef struct {
  const char *name; /* in messages: "the 5-point stencil" */
  /* After the operator's coefficients change (a model assembled them): exchange their ghosts, check them. NULL:
   * nothing to do. */
  HclStatus (*setup)(void *ctx);
  HclStatus (*apply)(void *ctx, Vec *x, Vec *y); /* y = A x; y's space may be x's only */
  /* r = b - A x (b NULL: the operator's own right-hand side). r may be of another space of the same grid where the
   * operator says it can write there (the V-cycle's, for defect correction). NULL: apply and hcl_vec_waxpby. */
  HclStatus (*residual)(void *ctx, Vec *b, Vec *x, Vec *r);
  HclStatus (*rhs)(void *ctx, Vec *r);      /* r = the operator's own right-hand side; NULL: it has none */
  HclStatus (*diagonal)(void *ctx, Vec *d); /* d = diag(A); NULL: not offered (Jacobi does not apply) */
  void (*destroy)(void *ctx);               /* frees ctx; NULL: nothing to free */
} OperatorOps;

/* An operator on space (borrowed) from ops (static) and ctx, whose ownership it takes (ops->destroy frees it, also
 * when the creation fails). symmetric: A = A^T, which CG needs. */
HclStatus hcl_operator_create(const OperatorOps *ops, void *ctx, VecSpace *space, bool symmetric, Operator **out);
void hcl_operator_destroy(Operator **op);

const char *hcl_operator_name(const Operator *op);
VecSpace *hcl_operator_space(const Operator *op);
bool hcl_operator_symmetric(const Operator *op);
bool hcl_operator_has_rhs(const Operator *op);
bool hcl_operator_has_diagonal(const Operator *op);
const OperatorOps *hcl_operator_ops(const Operator *op); /* to recognise an implementation (hcl_stencil5_fields) */
void *hcl_operator_context(const Operator *op);

HclStatus hcl_operator_setup(Operator *op);
HclStatus hcl_operator_apply(Operator *op, Vec *x, Vec *y);
/* r = b - A x; work: a vector of the space apply may use where the operator has no residual of its own. */
HclStatus hcl_operator_residual(Operator *op, Vec *b, Vec *x, Vec *r, Vec *work);
HclStatus hcl_operator_rhs(Operator *op, Vec *r);
HclStatus hcl_operator_diagonal(Operator *op, Vec *d);

#endif
