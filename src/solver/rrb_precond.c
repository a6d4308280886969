/* SPDX-License-Identifier: BSD-3-Clause */
/* rrb_precond.c: the RRB preconditioner of a 5-point operator (see rrb_precond.h): on one rank the Schur complement
 * system it hands the Krylov method, on several the distributed factorization. */
#include "rrb_precond.h"

#include <stdlib.h>

#include "clerror.h"
#include "rrb_dist.h"
#include "stencil5.h"

/* The RRB layout's vectors of the one-rank path: b and x moved there, and the Schur system's right-hand side. */
enum { L_B, L_X, L_B1, L_VECTORS };

typedef struct {
  RrbDepth depth;
  bool in_float; /* the factorization in float under a double system (hcl_rrb_precond_create_mixed) */
  /* one rank */
  Rrb *rrb;
  RrbPermute *permute;
  VecSpace *red; /* the red places [hcl_rrb_red_first, count) of the layout */
  cl_mem layout[L_VECTORS];
  Vec *b1, *x1;
  Operator *schur; /* S1 on the red places */
  Precond *m1;     /* M1 ~ S1 */
  /* several ranks */
  RrbDist *dist;
  Operator *op;  /* the 5-point operator it was set up with (borrowed) */
  Vec *residual; /* of the whole system, for presolve */
  /* in float: the matrix's float copy (a 5-point operator: its fields and their ghosts), r and z in float */
  Operator *copy;
  Vec *r_float, *z_float;
} RrbPc;

static void destroy(void *ctx) {
  RrbPc *p = ctx;
  if (!p) {
    return;
  }
  hcl_vec_destroy(&p->b1);
  hcl_vec_destroy(&p->x1);
  hcl_vec_destroy(&p->residual);
  hcl_vec_destroy(&p->r_float);
  hcl_vec_destroy(&p->z_float);
  hcl_operator_destroy(&p->copy);
  hcl_precond_destroy(&p->m1);
  hcl_operator_destroy(&p->schur);
  for (int v = 0; v < L_VECTORS; v++) {
    if (p->layout[v]) {
      clReleaseMemObject(p->layout[v]);
    }
  }
  hcl_vspace_destroy(&p->red);
  hcl_rrb_permute_destroy(&p->permute);
  hcl_rrb_destroy(&p->rrb);
  rrb_dist_destroy(&p->dist);
  free(p);
}

/* ---- S1 and M1 on the red places ---- */

static HclStatus schur_apply(void *ctx, Vec *x, Vec *y) {
  return hcl_rrb_schur_apply(ctx, hcl_vec_buffer(x), hcl_vec_buffer(y));
}

static const OperatorOps SCHUR_OPS = {.name = "the first Schur complement of RRB", .apply = schur_apply};

static HclStatus m1_apply(void *ctx, Vec *r, Vec *z) {
  return hcl_rrb_apply(ctx, hcl_vec_buffer(r), hcl_vec_buffer(z));
}

static const PrecondOps M1_OPS = {.name = "rrb", .apply = m1_apply};

/* ---- set-up ---- */

/* The one-rank factorization of the operator's block, its layout copies, the red places' vectors, S1 and M1. */
static HclStatus create_one_rank(RrbPc *p, Operator *op) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = hcl_decomp_local(hcl_stencil5_decomp(op));
  Runtime *rt = hcl_stencil5_runtime(op);
  Precision precision = hcl_vspace_precision(hcl_operator_space(op));
  TRY(hcl_rrb_create(rt, l->nx, l->ny, precision, p->depth, &p->rrb));
  const RrbLayout *layout = hcl_rrb_vector_layout(p->rrb);
  TRY(hcl_rrb_permute_create(rt, layout, precision, &p->permute));
  TRY(hcl_vspace_create_range(rt, hcl_stencil5_decomp(op), precision, layout->count, hcl_rrb_red_first(p->rrb),
                              layout->count, &p->red));
  for (int v = 0; v < L_VECTORS; v++) {
    TRY(hcl_runtime_buffer(rt, layout->count * hcl_precision_bytes(precision), "RRB layout vector", &p->layout[v]));
  }
  TRY(hcl_vec_wrap_buffer(p->red, p->layout[L_B1], &p->b1));
  TRY(hcl_vec_wrap_buffer(p->red, p->layout[L_X], &p->x1));
  TRY(hcl_operator_create(&SCHUR_OPS, p->rrb, p->red, true, &p->schur));
  TRY(hcl_precond_create(&M1_OPS, p->rrb, true, &p->m1));
cleanup:
  return status;
}

static HclStatus create_distributed(RrbPc *p, Operator *op) {
  HclStatus status = HCL_OK;
  Precision precision = p->in_float ? PRECISION_SINGLE : hcl_vspace_precision(hcl_operator_space(op));
  TRY(rrb_dist_create(hcl_stencil5_runtime(op), hcl_stencil5_decomp(op), precision, p->depth, RRB_DIST_COARSE_NODES,
                      &p->dist));
  TRY(hcl_vec_create(hcl_operator_space(op), "RRB presolve residual", &p->residual));
cleanup:
  return status;
}

/* In float: the float copy of the operator's matrix, r and z. */
static HclStatus create_float_copy(RrbPc *p, Operator *op) {
  HclStatus status = HCL_OK;
  TRY(hcl_stencil5_create(hcl_stencil5_runtime(op), hcl_stencil5_decomp(op), PRECISION_SINGLE, &p->copy));
  TRY(hcl_vec_create(hcl_operator_space(p->copy), "RRB residual in float", &p->r_float));
  TRY(hcl_vec_create(hcl_operator_space(p->copy), "RRB correction in float", &p->z_float));
cleanup:
  return status;
}

/* The matrix the factorization is made of: the operator's, or its float copy converted (couplings' ghosts
 * exchanged). */
static HclStatus factor_matrix(RrbPc *p, Operator *op, Field *matrix[3]) {
  HclStatus status = HCL_OK;
  if (!p->in_float) {
    TRY(hcl_stencil5_fields(op, matrix));
    goto cleanup;
  }
  TRY(hcl_stencil5_convert_matrix(p->copy, op));
  TRY(hcl_stencil5_fields(p->copy, matrix));
cleanup:
  return status;
}

static HclStatus setup(void *ctx, Operator *op) {
  HclStatus status = HCL_OK;
  RrbPc *p = ctx;
  Field *matrix[3];
  TRY(hcl_stencil5_fields(op, matrix)); /* a 5-point operator, or HCL_EDATA naming it */
  if (!p->rrb && !p->dist) {
    const DecompLocal *l = hcl_decomp_local(hcl_stencil5_decomp(op));
    p->in_float =
        p->in_float && hcl_vspace_precision(hcl_operator_space(op)) == PRECISION_DOUBLE; /* a float system: as is */
    if (p->in_float) {
      TRY(create_float_copy(p, op));
    }
    TRY(l->px * l->py > 1 || p->in_float ? create_distributed(p, op) : create_one_rank(p, op));
  }
  TRY(factor_matrix(p, op, matrix));
  p->op = op;
  if (p->rrb) {
    TRY(hcl_rrb_setup(p->rrb, matrix[0], matrix[1], matrix[2]));
  } else {
    TRY(rrb_dist_setup(p->dist, matrix[0], matrix[1], matrix[2]));
  }
cleanup:
  return status;
}

/* ---- the solve ---- */

/* Several ranks: z = M^-1 r for the whole system. */
static HclStatus apply(void *ctx, Vec *r, Vec *z) {
  HclStatus status = HCL_OK;
  RrbPc *p = ctx;
  ASSERT(p->dist != NULL); /* one rank iterates on the Schur complement, with M1 */
  if (p->in_float) {
    TRY(hcl_vec_convert(p->r_float, r));
    TRY(rrb_dist_apply(p->dist, hcl_vec_field(p->r_float), hcl_vec_field(p->z_float)));
    hcl_vec_touch(p->z_float);
    TRY(hcl_vec_convert(z, p->z_float));
    goto cleanup;
  }
  TRY(rrb_dist_apply(p->dist, hcl_vec_field(r), hcl_vec_field(z)));
  hcl_vec_touch(z);
cleanup:
  return status;
}

static HclStatus presolve(void *ctx, KrylovSystem *system) {
  HclStatus status = HCL_OK;
  RrbPc *p = ctx;
  if (p->dist) { /* the black rows satisfied: CG on the whole system is then the Schur complement's */
    TRY(hcl_operator_residual(system->op, system->b, system->x, p->residual, NULL));
    TRY(hcl_stencil5_black_jacobi(system->op, system->x, p->residual));
    goto cleanup;
  }
  TRY(hcl_rrb_to_layout(p->permute, hcl_vec_field(system->b), p->layout[L_B]));
  TRY(hcl_rrb_to_layout(p->permute, hcl_vec_field(system->x), p->layout[L_X]));
  TRY(hcl_rrb_schur_rhs(p->rrb, p->layout[L_B], p->layout[L_B1]));
  *system = (KrylovSystem){p->schur, p->m1, p->b1, p->x1};
cleanup:
  return status;
}

static HclStatus postsolve(void *ctx, Vec *b, Vec *x) {
  HclStatus status = HCL_OK;
  RrbPc *p = ctx;
  (void)b;
  if (p->rrb) { /* the black nodes from the red, exactly, and x back */
    TRY(hcl_rrb_recover_black(p->rrb, p->layout[L_B], p->layout[L_X]));
    TRY(hcl_rrb_from_layout(p->permute, p->layout[L_X], hcl_vec_field(x)));
    hcl_vec_touch(x);
  }
cleanup:
  return status;
}

static const PrecondOps OPS = {
    .name = "rrb", .setup = setup, .apply = apply, .presolve = presolve, .postsolve = postsolve, .destroy = destroy};

HclStatus hcl_rrb_precond_create(RrbDepth depth, Precond **out) {
  HclStatus status = HCL_OK;
  RrbPc *p = NULL;
  *out = NULL;
  TRY_ALLOC(p, 1);
  p->depth = depth;
  TRY(hcl_precond_create(&OPS, p, true, out));
cleanup:
  return status;
}

HclStatus hcl_rrb_precond_create_mixed(RrbDepth depth, Precond **out) {
  HclStatus status = HCL_OK;
  RrbPc *p = NULL;
  *out = NULL;
  TRY_ALLOC(p, 1);
  p->depth = depth;
  p->in_float = true;
  TRY(hcl_precond_create(&OPS, p, true, out));
cleanup:
  return status;
}

Rrb *hcl_rrb_precond_factor(Precond *pc) {
  return hcl_precond_ops(pc) == &OPS ? ((RrbPc *)hcl_precond_context(pc))->rrb : NULL;
}
