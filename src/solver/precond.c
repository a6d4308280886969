/* SPDX-License-Identifier: BSD-3-Clause */
/* precond.c: the preconditioner interface, and the two preconditioners that need nothing of the operator's
 * structure: none and Jacobi (see precond.h). */
#include "precond.h"

#include <stdlib.h>
#include <string.h>

struct Precond {
  const PrecondOps *ops;
  void *ctx;
  bool symmetric;
};

HclStatus hcl_precond_create(const PrecondOps *ops, void *ctx, bool symmetric, Precond **out) {
  HclStatus status = HCL_OK;
  Precond *pc = NULL;
  *out = NULL;
  TRY_ALLOC(pc, 1);
  *pc = (Precond){ops, ctx, symmetric};
  ctx = NULL;
  *out = pc;
cleanup:
  if (ctx && ops->destroy) {
    ops->destroy(ctx);
  }
  return status;
}

void hcl_precond_destroy(Precond **pc) {
  if (!pc || !*pc) {
    return;
  }
  if ((*pc)->ops->destroy) {
    (*pc)->ops->destroy((*pc)->ctx);
  }
  free(*pc);
  *pc = NULL;
}

const char *hcl_precond_name(const Precond *pc) {
  return pc->ops->name;
}

bool hcl_precond_symmetric(const Precond *pc) {
  return pc->symmetric;
}

bool hcl_precond_is_identity(const Precond *pc) {
  return pc->ops->apply == NULL;
}

void *hcl_precond_context(const Precond *pc) {
  return pc->ctx;
}

const PrecondOps *hcl_precond_ops(const Precond *pc) {
  return pc->ops;
}

HclStatus hcl_precond_setup(Precond *pc, Operator *op) {
  return pc->ops->setup ? pc->ops->setup(pc->ctx, op) : HCL_OK;
}

HclStatus hcl_precond_apply(Precond *pc, Vec *r, Vec *z) {
  return pc->ops->apply ? pc->ops->apply(pc->ctx, r, z) : hcl_vec_copy(z, r);
}

Vec *hcl_precond_input(Precond *pc) {
  return pc->ops->input ? pc->ops->input(pc->ctx) : NULL;
}

Vec *hcl_precond_output(Precond *pc) {
  return pc->ops->output ? pc->ops->output(pc->ctx) : NULL;
}

HclStatus hcl_precond_presolve(Precond *pc, KrylovSystem *system) {
  return pc->ops->presolve ? pc->ops->presolve(pc->ctx, system) : HCL_OK;
}

HclStatus hcl_precond_postsolve(Precond *pc, Vec *b, Vec *x) {
  return pc->ops->postsolve ? pc->ops->postsolve(pc->ctx, b, x) : HCL_OK;
}

void hcl_precond_hint(const Precond *pc, char *text, size_t size) {
  text[0] = '\0';
  if (pc->ops->hint) {
    pc->ops->hint(pc->ctx, text, size);
  }
}

/* ---- none ---- */

static const PrecondOps NONE_OPS = {.name = "none"};

HclStatus hcl_precond_none(Precond **out) {
  return hcl_precond_create(&NONE_OPS, NULL, true, out);
}

/* ---- Jacobi: z = r / diag(A) ---- */

typedef struct {
  Vec *diagonal; /* of the operator it was set up with */
} Jacobi;

static void jacobi_destroy(void *ctx) {
  Jacobi *j = ctx;
  hcl_vec_destroy(&j->diagonal);
  free(j);
}

static HclStatus jacobi_setup(void *ctx, Operator *op) {
  HclStatus status = HCL_OK;
  Jacobi *j = ctx;
  if (j->diagonal && hcl_vec_space(j->diagonal) != hcl_operator_space(op)) {
    hcl_vec_destroy(&j->diagonal);
  }
  if (!j->diagonal) {
    TRY(hcl_vec_create(hcl_operator_space(op), "Jacobi diagonal", &j->diagonal));
  }
  TRY(hcl_operator_diagonal(op, j->diagonal));
cleanup:
  return status;
}

static HclStatus jacobi_apply(void *ctx, Vec *r, Vec *z) {
  Jacobi *j = ctx;
  return hcl_vec_divide(z, r, j->diagonal);
}

static const PrecondOps JACOBI_OPS = {
    .name = "jacobi", .setup = jacobi_setup, .apply = jacobi_apply, .destroy = jacobi_destroy};

HclStatus hcl_precond_jacobi(Precond **out) {
  HclStatus status = HCL_OK;
  Jacobi *j = NULL;
  *out = NULL;
  TRY_ALLOC(j, 1);
  TRY(hcl_precond_create(&JACOBI_OPS, j, true, out));
cleanup:
  return status;
}
