/* SPDX-License-Identifier: BSD-3-Clause */
/* krylov.h: the iterative methods, one implementation each, over the operator and preconditioner interfaces
 * (operator.h, precond.h) and the vector interface (vec.h), in the spirit of PETSc's KSP and hypre's Struct solvers:
 *
 * - CG, preconditioned conjugate gradients for symmetric positive definite A and M (../shared/papers/rrb-pcg-gpu.txt,
 *   Algorithm 1). <r, z> and <r, r> come from one fused reduction; the updates are separate launches.
 * - GMRES(m), right-preconditioned (Saad, Iterative Methods for Sparse Linear Systems, Algorithm 9.5), modified
 *   Gram-Schmidt, restarted every m steps, the true residual computed at every restart.
 * - defect correction, x += M^-1 (b - A x) (fnpf-gpu-model.txt Algorithm 1): with a preconditioner that has its own
 *   input vector (the V-cycle), the residual is written straight into it.
 * - pipelined CG (Ghysels and Vanroose 2014, Algorithm 4): CG with one reduction an iteration, its exchange between
 *   ranks overlapped with the preconditioner and the operator; five work vectors more than CG.
 *
 * Stopping: measure(r) <= rtol * reference + atol, where measure is the 2-norm of r, its RMS over the vector's
 * length (2-norm / sqrt(n): the Laplace solver's units, fnpf-multigpu-scalability eq. 14), or (CG) the preconditioned
 * norm sqrt(<r, M^-1 r>); reference is measure(b) (an operator with its own right-hand side: measure of it), or with
 * the preconditioned norm its first value (the paper's criterion, section 3.3; hypre's PCG default). A preconditioner
 * that replaces the system (RRB's Schur complement) is measured against the whole system's b. history[k] is the
 * measure before iteration k; a solve that ends without meeting the criterion is HCL_ENOTCONVERGED with the history
 * and what to change, in the keys of the case file (the options' prefix), the result filled all the same.
 *
 * Ownership: a solver borrows its operator and owns its preconditioner. Every call is collective. */
#ifndef HYDROCL_KRYLOV_H
#define HYDROCL_KRYLOV_H

#include <stdbool.h>

#include "casefile.h"
#include "operator.h"
#include "precond.h"
#include "status.h"
#include "vec.h"

typedef enum { KRYLOV_CG, KRYLOV_GMRES, KRYLOV_DC, KRYLOV_PIPECG } KrylovMethod;
typedef enum { KRYLOV_NORM_2, KRYLOV_NORM_RMS, KRYLOV_NORM_M } KrylovNorm;

enum { KRYLOV_RESTART_MAX = 100 };

typedef struct {
  KrylovMethod method;
  int restart; /* m of GMRES(m), 1 .. KRYLOV_RESTART_MAX */
  double rtol, atol;
  int max_iterations;
  KrylovNorm norm;
  const char *prefix; /* of the keys that set these, for messages: "solver." (static) */
} KrylovOptions;

/* CG, the 2-norm, rtol 1e-8, atol 0, 1000 iterations, GMRES(10) when chosen, prefix "solver.". */
KrylovOptions hcl_krylov_options_default(void);

/* The case-file keys of a Krylov solver, under prefix ("solver."): method, gmres_restart, rtol, atol,
 * max_iterations, norm, with defaults from defaults. */
HclStatus hcl_krylov_add_keys(CaseSchema *schema, const char *prefix, const KrylovOptions *defaults);
/* The options a finished case sets under prefix (prefix static, kept in the options); rtol and atol both zero is
 * HCL_EDATA naming the case's line. */
HclStatus hcl_krylov_options_from_case(const Case *c, const char *prefix, KrylovOptions *out);

typedef struct {
  int iterations; /* preconditioner applications (CG, defect correction) or Arnoldi steps (GMRES) */
  int restarts;   /* pipelined CG: starts from the true residual after the first */
  bool converged;
  double reference;      /* the measure the relative tolerance multiplies */
  double target;         /* rtol reference + atol */
  double first, last;    /* history[0] and history[iterations], kept here beyond the solver's life */
  const double *history; /* iterations + 1 measures; borrowed from the solver until its next solve or its end */
} KrylovResult;

typedef struct Krylov Krylov;

/* Checks the options (ranges, the norm and the method) and creates the solver; HCL_EDATA names the key. */
HclStatus hcl_krylov_create(const KrylovOptions *options, Krylov **out);
void hcl_krylov_destroy(Krylov **ks);

/* New stopping rules (PETSc's KSPSetTolerances), checked as hcl_krylov_create checks them. */
HclStatus hcl_krylov_set_tolerances(Krylov *ks, double rtol, double atol, int max_iterations);

/* The operator (borrowed) and the preconditioner (owned from here on; NULL: none). */
void hcl_krylov_set_operator(Krylov *ks, Operator *op);
void hcl_krylov_set_precond(Krylov *ks, Precond *pc);
Operator *hcl_krylov_operator(const Krylov *ks);
Precond *hcl_krylov_precond(const Krylov *ks);
const KrylovOptions *hcl_krylov_options(const Krylov *ks);

/* Whether the method applies to an operator and a preconditioner of these kinds (CG: both symmetric; the
 * preconditioned norm: CG only): HCL_EDATA naming what does, after where c (NULL: none) set the key. */
HclStatus hcl_krylov_check(const KrylovOptions *options, const Case *c, const char *op_name, bool op_symmetric,
                           const char *pc_name, bool pc_symmetric);

/* After the operator changed: its setup, the method's check, the preconditioner's setup, the work vectors. */
HclStatus hcl_krylov_setup(Krylov *ks);

/* Solves A x = b from the x given (b NULL: the operator's own right-hand side). */
HclStatus hcl_krylov_solve(Krylov *ks, Vec *b, Vec *x, KrylovResult *result);

/* ||b - A x||_2 of the whole system (b NULL as above), computed afresh: for reports and tests. */
HclStatus hcl_krylov_true_residual(Krylov *ks, Vec *b, Vec *x, double *norm);
/* The same relative to ||b||_2 (b given): what a solve's report states, whatever its stopping rule measured. */
HclStatus hcl_krylov_relative_residual(Krylov *ks, Vec *b, Vec *x, double *relative);

/* The methods are one table (krylov.c): a method is its solve plus one line there. */
const char *hcl_krylov_method_name(KrylovMethod method);  /* "cg", "gmres", "dc", "pipecg" */
const char *hcl_krylov_method_title(KrylovMethod method); /* "CG", "GMRES", "defect correction", "pipelined CG" */
const char *hcl_krylov_method_list(void);                 /* "cg, gmres, dc or pipecg", for messages; static */
/* Whether the method is CG or pipelined CG, those for symmetric positive definite systems. */
bool hcl_krylov_method_is_cg(KrylovMethod method);
/* The method of that name (false: none), and every name, as "cg|gmres|...". */
bool hcl_krylov_method_parse(const char *name, KrylovMethod *method);
const char *hcl_krylov_method_choices(void);

#endif
