/* SPDX-License-Identifier: BSD-3-Clause */
/* operator.c: the operator interface (see operator.h). */
#include "operator.h"

#include <stdlib.h>

struct Operator {
  const OperatorOps *ops;
  void *ctx;
  VecSpace *space;
  bool symmetric;
};

HclStatus hcl_operator_create(const OperatorOps *ops, void *ctx, VecSpace *space, bool symmetric, Operator **out) {
  HclStatus status = HCL_OK;
  Operator *op = NULL;
  *out = NULL;
  TRY_ALLOC(op, 1);
  *op = (Operator){ops, ctx, space, symmetric};
  ctx = NULL;
  *out = op;
cleanup:
  if (ctx && ops->destroy) {
    ops->destroy(ctx);
  }
  return status;
}

void hcl_operator_destroy(Operator **op) {
  if (!op || !*op) {
    return;
  }
  if ((*op)->ops->destroy) {
    (*op)->ops->destroy((*op)->ctx);
  }
  free(*op);
  *op = NULL;
}

const char *hcl_operator_name(const Operator *op) {
  return op->ops->name;
}

VecSpace *hcl_operator_space(const Operator *op) {
  return op->space;
}

bool hcl_operator_symmetric(const Operator *op) {
  return op->symmetric;
}

bool hcl_operator_has_rhs(const Operator *op) {
  return op->ops->rhs != NULL;
}

bool hcl_operator_has_diagonal(const Operator *op) {
  return op->ops->diagonal != NULL;
}

const OperatorOps *hcl_operator_ops(const Operator *op) {
  return op->ops;
}

void *hcl_operator_context(const Operator *op) {
  return op->ctx;
}

HclStatus hcl_operator_setup(Operator *op) {
  return op->ops->setup ? op->ops->setup(op->ctx) : HCL_OK;
}

HclStatus hcl_operator_apply(Operator *op, Vec *x, Vec *y) {
  return op->ops->apply(op->ctx, x, y);
}

HclStatus hcl_operator_residual(Operator *op, Vec *b, Vec *x, Vec *r, Vec *work) {
  HclStatus status = HCL_OK;
  if (op->ops->residual) {
    TRY(op->ops->residual(op->ctx, b, x, r));
    goto cleanup;
  }
  ASSERT(b != NULL && work != NULL);
  TRY(op->ops->apply(op->ctx, x, work));
  TRY(hcl_vec_waxpby(r, 1, b, -1, work));
cleanup:
  return status;
}

HclStatus hcl_operator_rhs(Operator *op, Vec *r) {
  HclStatus status = HCL_OK;
  ASSERT(op->ops->rhs != NULL);
  TRY(op->ops->rhs(op->ctx, r));
cleanup:
  return status;
}

HclStatus hcl_operator_diagonal(Operator *op, Vec *d) {
  HclStatus status = HCL_OK;
  REQUIRE(op->ops->diagonal != NULL, HCL_EDATA,
          "the Jacobi preconditioner needs the operator's diagonal, which %s does not offer", op->ops->name);
  TRY(op->ops->diagonal(op->ctx, d));
cleanup:
  return status;
}
