/* SPDX-License-Identifier: BSD-3-Clause */
/* precond.h: a preconditioner M ~ A, applied as z = M^-1 r (PETSc's PC, hypre's SetPrecond pair): a table of
 * functions and a context, which the preconditioner owns (its factorization, its levels).
 *
 * Implementations: none (M = I), Jacobi (M = diag(A), from any operator that offers its diagonal), RRB (rrb_precond.h:
 * the repeated red-black incomplete factorization of a 5-point stencil, one rank or several) and the multigrid V-cycle
 * of the potential-flow Laplace solver (laplace.h).
 *
 * Two optional parts let a preconditioner do more than apply M^-1:
 * - input and output: the vectors apply reads r from and leaves z in without a copy (the V-cycle's right-hand side and
 *   correction, in its own precision). A method that computes a residual only to precondition it (defect correction)
 *   writes it straight into input.
 * - presolve and postsolve (PETSc's PCPreSolve): a preconditioner that eliminates part of the system exactly gives
 *   the method the system it should iterate on instead (RRB on one rank: CG on the first Schur complement's red nodes,
 *   in its own vectors), and maps the solution back afterwards.
 * Every call is collective over the vectors' ranks. */
#ifndef HYDROCL_PRECOND_H
#define HYDROCL_PRECOND_H

#include <stdbool.h>
#include <stddef.h>

#include "operator.h"
#include "status.h"
#include "vec.h"

typedef struct Precond Precond;

/* The system a Krylov method iterates on: A x = b preconditioned by M. */
typedef struct {
  Operator *op;
  Precond *pc; /* NULL: none */
  Vec *b, *x;
} KrylovSystem;

typedef struct {
  const char *name; /* the case files' word: "rrb", "jacobi", "mg", "none" */
  /* After the operator changed (its setup done): factorize. NULL: nothing to do. */
  HclStatus (*setup)(void *ctx, Operator *op);
  HclStatus (*apply)(void *ctx, Vec *r, Vec *z); /* z = M^-1 r; NULL: M = I (the method uses r itself) */
  Vec *(*input)(void *ctx);                      /* NULL: none */
  Vec *(*output)(void *ctx);                     /* NULL: none */
  /* system holds {op, this preconditioner, b, x} on entry; a presolve may replace it. */
  HclStatus (*presolve)(void *ctx, KrylovSystem *system);
  HclStatus (*postsolve)(void *ctx, Vec *b, Vec *x); /* the solution x from the replaced system's */
  /* What to change when a solve does not converge, appended to the message ("more multigrid restrictions
   * (solver.levels: 3 now)"). NULL: nothing to say. */
  void (*hint)(void *ctx, char *text, size_t size);
  void (*destroy)(void *ctx);
} PrecondOps;

/* A preconditioner from ops (static) and ctx, whose ownership it takes (also when the creation fails). symmetric:
 * M = M^T positive definite, which CG needs. */
HclStatus hcl_precond_create(const PrecondOps *ops, void *ctx, bool symmetric, Precond **out);
void hcl_precond_destroy(Precond **pc);

/* M = I. */
HclStatus hcl_precond_none(Precond **out);
/* M = diag(A) of the operator it is set up with (hcl_operator_diagonal); z = r / diag(A). */
HclStatus hcl_precond_jacobi(Precond **out);

const char *hcl_precond_name(const Precond *pc);
bool hcl_precond_symmetric(const Precond *pc);
bool hcl_precond_is_identity(const Precond *pc);
void *hcl_precond_context(const Precond *pc);
const PrecondOps *hcl_precond_ops(const Precond *pc);

HclStatus hcl_precond_setup(Precond *pc, Operator *op);
HclStatus hcl_precond_apply(Precond *pc, Vec *r, Vec *z);
Vec *hcl_precond_input(Precond *pc);  /* NULL when it has none */
Vec *hcl_precond_output(Precond *pc); /* NULL when it has none */
HclStatus hcl_precond_presolve(Precond *pc, KrylovSystem *system);
HclStatus hcl_precond_postsolve(Precond *pc, Vec *b, Vec *x);
void hcl_precond_hint(const Precond *pc, char *text, size_t size);

#endif
