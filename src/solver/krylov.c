/* SPDX-License-Identifier: BSD-3-Clause */
/* krylov.c: CG, GMRES(m) and defect correction over the operator, preconditioner and vector interfaces (see
 * krylov.h). */
#include "krylov.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "textlist.h"

enum { HISTORY_SHOWN_FIRST = 12, HISTORY_SHOWN_LAST = 4, MESSAGE_HISTORY = 1024 };

/* Pipelined CG: the true residual's measure at a check above this fraction of the last check's is stagnation, the
 * attainable accuracy (pipelined_cg). A tenth: in float at 2047^2 the checks' residuals fall from 6e-2 to 4e-2 of
 * ||b||, where a half went on checking for ten times CG's iterations; in double a check that misses the criterion
 * is followed by one that meets it. */
static const double PIPECG_STAGNATION = 0.1;

/* The methods, in KrylovMethod's order: the case files' and --method's word, the reports' title, what it is. */
static const struct {
  const char *name, *title, *summary;
} METHODS[] = {
    {"cg", "CG", "symmetric positive definite systems"},
    {"gmres", "GMRES", "GMRES(gmres_restart), right-preconditioned"},
    {"dc", "defect correction", "defect correction, x += M^-1 (b - A x)"},
    {"pipecg", "pipelined CG",
     "CG pipelined: one reduction an iteration, its exchange between ranks behind the preconditioner and the "
     "operator"},
};
enum { NMETHODS = sizeof METHODS / sizeof METHODS[0] };
static const char *const NORM_NAMES[] = {"2", "rms", "m"};

/* The work vectors of one space (the system's, which a presolve may replace): CG's r, z, p, q; pipelined CG's r,
 * z (u = M^-1 r), p, q (s = A p) and w, m, n, ms, ams; GMRES's basis v[0 .. m] and z; defect correction's r and z. */
typedef struct {
  VecSpace *space;
  Vec *r, *z, *p, *q;
  Vec *w, *m, *n, *ms, *ams; /* pipelined CG: A u, M^-1 w, A m, M^-1 s, A M^-1 s */
  Vec **basis;               /* GMRES: restart + 1 */
  int nbasis;
} Work;

struct Krylov {
  KrylovOptions options;
  Operator *op; /* borrowed */
  Precond *pc;  /* owned; NULL: none */
  Work system;  /* of the space iterated on */
  Work full;    /* of the operator's space: the right-hand side's measure and the true residual (r, q) */
  double *history;
  double *hess, *cs, *sn, *g, *y; /* GMRES's least-squares problem */
  double count;                   /* the whole system's length: the RMS measure's n */
};

KrylovOptions hcl_krylov_options_default(void) {
  return (KrylovOptions){.method = KRYLOV_CG,
                         .restart = 10,
                         .rtol = 1e-8,
                         .atol = 0,
                         .max_iterations = 1000,
                         .norm = KRYLOV_NORM_2,
                         .prefix = "solver."};
}

const char *hcl_krylov_method_name(KrylovMethod method) {
  return METHODS[method].name;
}

const char *hcl_krylov_method_title(KrylovMethod method) {
  return METHODS[method].title;
}

/* The methods joined: names or "name (summary)" items, by separator, the last by last. */
static const char *joined(char *text, size_t size, bool with_summary, const char *separator, const char *last) {
  for (int m = 0; m < NMETHODS; m++) {
    hcl_textlist_append(text, size, m, NMETHODS, separator, last, with_summary ? "%s (%s)" : "%s", METHODS[m].name,
                        METHODS[m].summary);
  }
  return text;
}

const char *hcl_krylov_method_list(void) {
  static char text[128];
  return joined(text, sizeof text, false, ", ", " or ");
}

bool hcl_krylov_method_is_cg(KrylovMethod method) {
  return method == KRYLOV_CG || method == KRYLOV_PIPECG;
}

bool hcl_krylov_method_parse(const char *name, KrylovMethod *method) {
  for (int m = 0; m < NMETHODS; m++) {
    if (strcmp(name, METHODS[m].name) == 0) {
      *method = (KrylovMethod)m;
      return true;
    }
  }
  return false;
}

const char *hcl_krylov_method_choices(void) {
  static char choices[64];
  return joined(choices, sizeof choices, false, "|", "|");
}

/* ---- options and case keys ---- */

/* The ranges of the options, the keys named after where c (NULL: none) set them. */
static HclStatus check_options(const KrylovOptions *o, const Case *c) {
  HclStatus status = HCL_OK;
  char at[CASE_WHERE_MAX];
  REQUIRE(o->rtol >= 0 && o->atol >= 0 && o->rtol + o->atol > 0 && isfinite(o->rtol) && isfinite(o->atol), HCL_EDATA,
          "%s%srtol = %g and %satol = %g: both >= 0 and not both 0 (a solve would never stop)",
          hcl_case_where(c, o->prefix, "rtol", at), o->prefix, o->rtol, o->prefix, o->atol);
  REQUIRE(o->max_iterations >= 1, HCL_EDATA, "%s%smax_iterations = %d: at least 1",
          hcl_case_where(c, o->prefix, "max_iterations", at), o->prefix, o->max_iterations);
  REQUIRE(o->method != KRYLOV_GMRES || (o->restart >= 1 && o->restart <= KRYLOV_RESTART_MAX), HCL_EDATA,
          "%s%sgmres_restart = %d: allowed 1 to %d", hcl_case_where(c, o->prefix, "gmres_restart", at), o->prefix,
          o->restart, KRYLOV_RESTART_MAX);
cleanup:
  return status;
}

HclStatus hcl_krylov_add_keys(CaseSchema *schema, const char *prefix, const KrylovOptions *d) {
  char restart[16], rtol[32], atol[32], iterations[16];
  snprintf(restart, sizeof restart, "%d", d->restart);
  snprintf(rtol, sizeof rtol, "%g", d->rtol);
  snprintf(atol, sizeof atol, "%g", d->atol);
  snprintf(iterations, sizeof iterations, "%d", d->max_iterations);
  static char methods[512], method_help[600];
  snprintf(method_help, sizeof method_help, "the Krylov method: %s",
           joined(methods, sizeof methods, true, ", ", " or "));
  const CaseKey keys[] = {
      {"method", CASE_CHOICE, "", METHODS[d->method].name, CASE_UNBOUNDED, hcl_krylov_method_choices(), method_help},
      {"gmres_restart", CASE_INT, "", restart, 1, KRYLOV_RESTART_MAX, NULL,
       "gmres: the Krylov vectors before a restart"},
      {"rtol", CASE_REAL, "", rtol, 0, 1, NULL,
       "stop when the residual's measure falls to rtol times that of the right-hand side, plus atol"},
      {"atol", CASE_REAL, "", atol, 0, 1e6, NULL, "the absolute part of the stopping test, in the residual's units"},
      {"max_iterations", CASE_INT, "", iterations, 1, 1e6, NULL,
       "preconditioner applications before a solve counts as not converged"},
      {"norm", CASE_CHOICE, "", NORM_NAMES[d->norm], CASE_UNBOUNDED, "2|rms|m",
       "the residual's measure: its 2-norm, its rms over the unknowns, or (cg) sqrt(r^T M^-1 r) relative to its "
       "first value"},
  };
  return hcl_case_schema_add(schema, prefix, keys, (int)(sizeof keys / sizeof keys[0]));
}

HclStatus hcl_krylov_options_from_case(const Case *c, const char *prefix, KrylovOptions *out) {
  HclStatus status = HCL_OK;
  char key[CASE_KEY_MAX];
  KrylovOptions o = hcl_krylov_options_default();
  o.prefix = prefix;
  o.method = (KrylovMethod)hcl_case_choice(c, hcl_case_key(key, prefix, "method"));
  o.restart = (int)hcl_case_int(c, hcl_case_key(key, prefix, "gmres_restart"));
  o.rtol = hcl_case_real(c, hcl_case_key(key, prefix, "rtol"));
  o.atol = hcl_case_real(c, hcl_case_key(key, prefix, "atol"));
  o.max_iterations = (int)hcl_case_int(c, hcl_case_key(key, prefix, "max_iterations"));
  o.norm = (KrylovNorm)hcl_case_choice(c, hcl_case_key(key, prefix, "norm"));
  TRY(check_options(&o, c));
  *out = o;
cleanup:
  return status;
}

HclStatus hcl_krylov_check(const KrylovOptions *o, const Case *c, const char *op_name, bool op_symmetric,
                           const char *pc_name, bool pc_symmetric) {
  HclStatus status = HCL_OK;
  char at[CASE_WHERE_MAX];
  const bool cg = hcl_krylov_method_is_cg(o->method);
  REQUIRE(!cg || op_symmetric, HCL_EDATA,
          "%s%smethod = %s: conjugate gradients need a symmetric positive definite operator, and %s is not "
          "symmetric; use %smethod gmres or dc",
          hcl_case_where(c, o->prefix, "method", at), o->prefix, METHODS[o->method].name, op_name, o->prefix);
  REQUIRE(!cg || pc_symmetric, HCL_EDATA,
          "%s%smethod = %s: conjugate gradients need a symmetric preconditioner, and %s is not; use %smethod "
          "gmres or dc, or a symmetric preconditioner",
          hcl_case_where(c, o->prefix, "method", at), o->prefix, METHODS[o->method].name, pc_name, o->prefix);
  REQUIRE(o->norm != KRYLOV_NORM_M || cg, HCL_EDATA,
          "%s%snorm = m: the preconditioned norm is CG's (it comes with its <r, M^-1 r>); with %smethod %s use "
          "%snorm 2 or rms",
          hcl_case_where(c, o->prefix, "norm", at), o->prefix, o->prefix, METHODS[o->method].name, o->prefix);
cleanup:
  return status;
}

/* ---- life cycle ---- */

static void work_free(Work *w) {
  Vec **vectors[] = {&w->r, &w->z, &w->p, &w->q, &w->w, &w->m, &w->n, &w->ms, &w->ams};
  for (size_t v = 0; v < sizeof vectors / sizeof vectors[0]; v++) {
    hcl_vec_destroy(vectors[v]);
  }
  for (int v = 0; v < w->nbasis; v++) {
    hcl_vec_destroy(&w->basis[v]);
  }
  free(w->basis);
  memset(w, 0, sizeof *w);
}

HclStatus hcl_krylov_create(const KrylovOptions *options, Krylov **out) {
  HclStatus status = HCL_OK;
  Krylov *ks = NULL;
  *out = NULL;
  TRY(check_options(options, NULL));
  TRY_ALLOC(ks, 1);
  ks->options = *options;
  int m = options->restart;
  TRY_ALLOC(ks->history, (size_t)options->max_iterations + 1);
  TRY_ALLOC(ks->hess, (size_t)(m + 1) * m);
  TRY_ALLOC(ks->cs, m);
  TRY_ALLOC(ks->sn, m);
  TRY_ALLOC(ks->g, m + 1);
  TRY_ALLOC(ks->y, m);
  *out = ks;
  ks = NULL;
cleanup:
  hcl_krylov_destroy(&ks);
  return status;
}

void hcl_krylov_destroy(Krylov **krylov) {
  if (!krylov || !*krylov) {
    return;
  }
  Krylov *ks = *krylov;
  work_free(&ks->system);
  work_free(&ks->full);
  hcl_precond_destroy(&ks->pc);
  free(ks->history);
  free(ks->hess);
  free(ks->cs);
  free(ks->sn);
  free(ks->g);
  free(ks->y);
  free(ks);
  *krylov = NULL;
}

HclStatus hcl_krylov_set_tolerances(Krylov *ks, double rtol, double atol, int max_iterations) {
  HclStatus status = HCL_OK;
  KrylovOptions o = ks->options;
  o.rtol = rtol;
  o.atol = atol;
  o.max_iterations = max_iterations;
  TRY(check_options(&o, NULL));
  if (max_iterations > ks->options.max_iterations) {
    double *grown = realloc(ks->history, sizeof *grown * ((size_t)max_iterations + 1));
    REQUIRE(grown != NULL, HCL_ENOMEM, "cannot grow a solver's history to %d iterations", max_iterations);
    ks->history = grown;
  }
  ks->options = o;
cleanup:
  return status;
}

void hcl_krylov_set_operator(Krylov *ks, Operator *op) {
  ks->op = op;
}

void hcl_krylov_set_precond(Krylov *ks, Precond *pc) {
  if (pc != ks->pc) {
    hcl_precond_destroy(&ks->pc);
  }
  ks->pc = pc;
}

Operator *hcl_krylov_operator(const Krylov *ks) {
  return ks->op;
}

Precond *hcl_krylov_precond(const Krylov *ks) {
  return ks->pc;
}

const KrylovOptions *hcl_krylov_options(const Krylov *ks) {
  return &ks->options;
}

/* Work on space (the space iterated on, or the whole system's): forgets the vectors of another space. */
static void work_on(Work *w, VecSpace *space) {
  if (w->space != space) {
    work_free(w);
    w->space = space;
  }
}

/* The vector in slot, made on first use: each method makes only the vectors it uses. */
static HclStatus work_vec(Work *w, Vec **slot, const char *name, Vec **out) {
  HclStatus status = HCL_OK;
  if (!*slot) {
    TRY(hcl_vec_create(w->space, name, slot));
  }
  *out = *slot;
cleanup:
  return status;
}

/* A vector the operator's residual may use as scratch: none where it computes its residual itself. */
static HclStatus residual_work(Work *w, Operator *op, Vec **out) {
  *out = NULL;
  return hcl_operator_ops(op)->residual ? HCL_OK : work_vec(w, &w->q, "solver product", out);
}

/* GMRES's basis v[0 .. restart]. */
static HclStatus work_basis(Work *w, int restart) {
  HclStatus status = HCL_OK;
  if (w->basis) {
    goto cleanup;
  }
  TRY_ALLOC(w->basis, restart + 1);
  w->nbasis = restart + 1;
  for (int v = 0; v <= restart; v++) {
    TRY(hcl_vec_create(w->space, "solver Krylov vector", &w->basis[v]));
  }
cleanup:
  return status;
}

HclStatus hcl_krylov_setup(Krylov *ks) {
  HclStatus status = HCL_OK;
  ASSERT(ks->op != NULL);
  if (!ks->pc) {
    TRY(hcl_precond_none(&ks->pc));
  }
  TRY(hcl_krylov_check(&ks->options, NULL, hcl_operator_name(ks->op), hcl_operator_symmetric(ks->op),
                       hcl_precond_name(ks->pc), hcl_precond_symmetric(ks->pc)));
  REQUIRE(ks->options.method != KRYLOV_PIPECG || hcl_vspace_precision(hcl_operator_space(ks->op)) == PRECISION_DOUBLE,
          HCL_EDATA,
          "%smethod = pipecg: pipelined CG needs its vectors in double (in float its recurrences drift from the true "
          "residual faster than starting again from it repairs: RRB-CG at 4095^2 did not converge); use %smethod "
          "cg, or double or mixed precision",
          ks->options.prefix, ks->options.prefix);
  TRY(hcl_operator_setup(ks->op));
  TRY(hcl_precond_setup(ks->pc, ks->op));
  ks->count = hcl_vspace_global_count(hcl_operator_space(ks->op));
cleanup:
  return status;
}

/* ---- stopping ---- */

/* The measure of a residual from its squares (and with the preconditioned norm, from rho = <r, M^-1 r>). */
static double measure(const Krylov *ks, double squares, double rho) {
  switch (ks->options.norm) {
  case KRYLOV_NORM_M:
    return sqrt(rho);
  case KRYLOV_NORM_RMS:
    return sqrt(squares / ks->count);
  default:
    return sqrt(squares);
  }
}

static HclStatus squares_of(Vec *v, double *squares) {
  return hcl_vec_dot(v, v, squares);
}

/* The message of a solve that did not converge: the history, and what to change in the case's keys. */
static HclStatus not_converged(const Krylov *ks, const KrylovResult *r) {
  const KrylovOptions *o = &ks->options;
  char history[MESSAGE_HISTORY] = "", hint[512];
  size_t used = 0;
  for (int k = 0; k <= r->iterations && used + 16 < sizeof history; k++) {
    if (k == HISTORY_SHOWN_FIRST && r->iterations > HISTORY_SHOWN_FIRST + HISTORY_SHOWN_LAST) {
      used += (size_t)snprintf(history + used, sizeof history - used, " ...");
      k = r->iterations - HISTORY_SHOWN_LAST;
    }
    used += (size_t)snprintf(history + used, sizeof history - used, " %.3g", r->history[k]);
  }
  hcl_precond_hint(ks->pc, hint, sizeof hint);
  char method_hint[128] = "";
  if (o->method == KRYLOV_GMRES) {
    snprintf(method_hint, sizeof method_hint, "a longer %sgmres_restart, ", o->prefix);
  } else if (o->method == KRYLOV_DC) {
    snprintf(method_hint, sizeof method_hint, "%smethod gmres, ", o->prefix);
  }
  return hcl_status_set(HCL_ENOTCONVERGED, __FILE__, __LINE__,
                        "the solve of %s (%s, preconditioner %s) did not converge: %s residual%s after %d iterations, "
                        "target %.3g (%srtol %g x %.3g + %satol %g). Try %s%s%sa larger %smax_iterations",
                        hcl_operator_name(ks->op), METHODS[o->method].name, hcl_precond_name(ks->pc),
                        o->norm == KRYLOV_NORM_RMS ? "rms"
                        : o->norm == KRYLOV_NORM_M ? "preconditioned"
                                                   : "2-norm",
                        history, r->iterations, r->target, o->prefix, o->rtol, r->reference, o->prefix, o->atol, hint,
                        hint[0] ? ", " : "", method_hint, o->prefix);
}

/* ---- the methods, on the system a presolve left (its b, x, operator and preconditioner) ---- */

static bool identity(const KrylovSystem *s) {
  return !s->pc || hcl_precond_is_identity(s->pc);
}

/* M^-1 r into *out: z, or r itself without a preconditioner (no copy). */
static HclStatus precondition(const KrylovSystem *s, Vec *r, Vec *z, Vec **out) {
  *out = identity(s) ? r : z;
  return identity(s) ? HCL_OK : hcl_precond_apply(s->pc, r, z);
}

/* z = M^-1 r, and rho = <r, z>, rr = <r, r> in one pass (z is r itself without a preconditioner). */
static HclStatus cg_precondition(const KrylovSystem *s, Vec *r, Vec *z, double *rho, double *rr) {
  HclStatus status = HCL_OK;
  if (identity(s)) {
    TRY(hcl_vec_dot(r, r, rr));
    *rho = *rr;
    goto cleanup;
  }
  double dots[2];
  TRY(hcl_precond_apply(s->pc, r, z));
  TRY(hcl_vec_dot2(r, z, r, dots));
  *rho = dots[0];
  *rr = dots[1];
cleanup:
  return status;
}

/* Conjugate gradients, ../shared/papers/rrb-pcg-gpu.txt Algorithm 1. */
static HclStatus cg(Krylov *ks, const KrylovSystem *s, KrylovResult *result) {
  HclStatus status = HCL_OK;
  Work *w = &ks->system;
  double rho = 0, rr = 0;
  Vec *r = NULL, *z = NULL, *p = NULL, *q = NULL;
  TRY(work_vec(w, &w->r, "solver residual", &r));
  TRY(work_vec(w, &w->p, "solver direction", &p));
  TRY(work_vec(w, &w->q, "solver product", &q));
  z = r;
  if (!identity(s)) {
    TRY(work_vec(w, &w->z, "solver preconditioned residual", &z));
  }
  TRY(hcl_operator_residual(s->op, s->b, s->x, r, q));
  TRY(cg_precondition(s, r, z, &rho, &rr));
  TRY(hcl_vec_copy(p, z));
  if (ks->options.norm == KRYLOV_NORM_M) {
    result->reference = sqrt(rho);
    result->target = ks->options.rtol * result->reference + ks->options.atol;
  }
  int k = 0;
  ks->history[0] = measure(ks, rr, rho);
  while (ks->history[k] > result->target && k < ks->options.max_iterations) {
    double pq = 0, rho_next = 0;
    TRY(hcl_operator_apply(s->op, p, q));
    TRY(hcl_vec_dot(p, q, &pq));
    REQUIRE(pq > 0, HCL_EDATA,
            "conjugate gradients met p^T A p = %g at iteration %d: %s is not positive definite (or the "
            "preconditioner is not)",
            pq, k + 1, hcl_operator_name(s->op));
    double alpha = rho / pq;
    TRY(hcl_vec_axpy_pair(s->x, alpha, p, r, -alpha, q)); /* x += alpha p, r -= alpha q */
    TRY(cg_precondition(s, r, z, &rho_next, &rr));
    TRY(hcl_vec_aypx(p, rho_next / rho, z)); /* p = z + beta p */
    rho = rho_next;
    ks->history[++k] = measure(ks, rr, rho);
  }
  result->iterations = k;
cleanup:
  return status;
}

/* M^-1 x into y (a copy without a preconditioner: pipelined CG keeps u and r apart, as it updates both). */
static HclStatus apply_or_copy(const KrylovSystem *s, Vec *x, Vec *y) {
  return identity(s) ? hcl_vec_copy(y, x) : hcl_precond_apply(s->pc, x, y);
}

/* Pipelined CG's vectors: r and u = M^-1 r; w = A u; the direction p and s = A p; m = M^-1 w and n = A m, computed
 * while the reduction travels; ms = M^-1 s and ams = A ms. */
typedef struct {
  Vec *r, *u, *w, *p, *s, *m, *n, *ms, *ams;
} PipeVectors;

static HclStatus pipe_vectors(Work *wk, PipeVectors *v) {
  HclStatus status = HCL_OK;
  TRY(work_vec(wk, &wk->r, "solver residual", &v->r));
  TRY(work_vec(wk, &wk->z, "solver preconditioned residual", &v->u));
  TRY(work_vec(wk, &wk->w, "solver product of the preconditioned residual", &v->w));
  TRY(work_vec(wk, &wk->p, "solver direction", &v->p));
  TRY(work_vec(wk, &wk->q, "solver product", &v->s));
  TRY(work_vec(wk, &wk->m, "solver preconditioned product", &v->m));
  TRY(work_vec(wk, &wk->n, "solver product of the preconditioned product", &v->n));
  TRY(work_vec(wk, &wk->ms, "solver preconditioned direction product", &v->ms));
  TRY(work_vec(wk, &wk->ams, "solver product of the preconditioned direction product", &v->ams));
cleanup:
  return status;
}

/* The residual from x afresh, r = b - A x, with u = M^-1 r and w = A u: where pipelined CG starts, and where it
 * starts again when its recurrences have drifted (s scratch). */
static HclStatus pipe_restart(const KrylovSystem *s, PipeVectors *v) {
  HclStatus status = HCL_OK;
  TRY(hcl_operator_residual(s->op, s->b, s->x, v->r, v->s));
  TRY(apply_or_copy(s, v->r, v->u));
  TRY(hcl_operator_apply(s->op, v->u, v->w));
cleanup:
  return status;
}

/* Pipelined CG (Ghysels and Vanroose, Hiding global synchronization latency in the preconditioned conjugate gradient
 * algorithm, Parallel Computing 2014, Algorithm 4): CG's recurrences rearranged so that an iteration's three inner
 * products <u, r>, <u, w>, <r, r> are one reduction, and the exchange of its values between ranks travels while
 * the preconditioner and the operator run (m = M^-1 w, n = A m). beta = gamma / gamma_old, alpha = gamma / (delta -
 * beta gamma / alpha_old), then
 *   ams = n + beta ams, ms = m + beta ms, s = w + beta s, p = u + beta p,
 *   x += alpha p, r -= alpha s, u -= alpha ms, w -= alpha ams.
 * In exact arithmetic the iterates are CG's. In floating point the recurrences for r, u and w drift from b - A x,
 * M^-1 r and A u further than CG's (Cools, Yetkin, Agullo, Giraud and Vanroose, Analysing the effect of local rounding
 * error propagation on the maximal attainable accuracy of the pipelined conjugate gradient method, SIAM J. Matrix
 * Anal. Appl. 2018), and a preconditioner in a lower precision is not exactly linear, which the recurrence for u
 * assumes. So the solve starts again from the true residual (pipe_restart, beta = 0) where the recurrences broke
 * down (p^T A p or <r, M^-1 r> not positive), and where the recursive residual met the criterion, which then holds
 * only if the true residual meets it too. Where the true residual no longer falls at such a check (to a tenth of what
 * it was at the one before: PIPECG_STAGNATION), it has reached the precision's attainable accuracy, and the solve
 * ends as CG's does there: converged on its recursive residual (in float at large sizes, after about twice CG's
 * iterations: the second check). Each start costs
 * two operator products and a preconditioner application, and every step one of each more than CG's last. */
static HclStatus pipelined_cg(Krylov *ks, const KrylovSystem *s, KrylovResult *result) {
  HclStatus status = HCL_OK;
  PipeVectors v;
  TRY(pipe_vectors(&ks->system, &v));
  TRY(pipe_restart(s, &v));
  double gamma_old = 0, alpha_old = 0;
  bool fresh = true;         /* r, u, w just computed from x: the next direction is u itself (beta = 0) */
  bool measured = true;      /* the reference of the preconditioned norm still to be set */
  bool checking = false;     /* r is the true residual of a check of the recursive one's convergence */
  double checked = INFINITY; /* the true residual's measure at the last such check */
  double recursive = 0;      /* the recursive residual's measure that met the criterion before the check */
  int k = 0, restarts = 0;
  for (;;) {
    double dots[3]; /* <u, r>, <u, w>, <r, r> */
    TRY(hcl_vec_dot3_start(v.u, v.r, v.w));
    TRY(apply_or_copy(s, v.w, v.m));
    TRY(hcl_operator_apply(s->op, v.m, v.n));
    TRY(hcl_vec_dot3_wait(hcl_vec_space(v.u), dots));
    const double gamma = dots[0], delta = dots[1];
    if (measured && ks->options.norm == KRYLOV_NORM_M) {
      result->reference = sqrt(gamma);
      result->target = ks->options.rtol * result->reference + ks->options.atol;
    }
    measured = false;
    ks->history[k] = measure(ks, dots[2], gamma);
    const bool stagnated = checking && ks->history[k] > PIPECG_STAGNATION * checked;
    if (checking) {
      checked = ks->history[k];
      checking = false;
    }
    if (stagnated) {
      ks->history[k] = recursive; /* CG's end: converged on its recursive residual */
    }
    if (!isfinite(ks->history[k]) || k == ks->options.max_iterations || (ks->history[k] <= result->target && fresh) ||
        stagnated) {
      break;
    }
    const double beta = fresh ? 0 : gamma / gamma_old;
    const double denominator = fresh ? delta : delta - beta * gamma / alpha_old; /* p^T A p */
    if (ks->history[k] <= result->target || !(denominator > 0 && gamma > 0)) {
      REQUIRE(!fresh, HCL_EDATA,
              "pipelined conjugate gradients met p^T A p = %g and r^T M^-1 r = %g at iteration %d: %s is not "
              "positive definite (or the preconditioner is not)",
              denominator, gamma, k + 1, hcl_operator_name(s->op));
      TRY(pipe_restart(s, &v)); /* the same iteration again, from the true residual */
      checking = ks->history[k] <= result->target;
      recursive = ks->history[k];
      fresh = true;
      restarts++;
      continue;
    }
    const double alpha = gamma / denominator;
    if (fresh) { /* the recurrences start from n, m, w, u: copies, so that no old value is carried in */
      TRY(hcl_vec_copy(v.ams, v.n));
      TRY(hcl_vec_copy(v.ms, v.m));
      TRY(hcl_vec_copy(v.s, v.w));
      TRY(hcl_vec_copy(v.p, v.u));
    } else {
      TRY(hcl_vec_aypx(v.ams, beta, v.n));
      TRY(hcl_vec_aypx(v.ms, beta, v.m));
      TRY(hcl_vec_aypx(v.s, beta, v.w));
      TRY(hcl_vec_aypx(v.p, beta, v.u));
    }
    TRY(hcl_vec_axpy_pair(s->x, alpha, v.p, v.r, -alpha, v.s));
    TRY(hcl_vec_axpy_pair(v.u, -alpha, v.ms, v.w, -alpha, v.ams));
    gamma_old = gamma;
    alpha_old = alpha;
    fresh = false;
    k++;
  }
  result->iterations = k;
  result->restarts = restarts;
cleanup:
  return status;
}

/* Givens rotation (c, s) that zeroes b in (a, b). */
static void givens(double a, double b, double *c, double *s) {
  double r = hypot(a, b);
  *c = r > 0 ? a / r : 1;
  *s = r > 0 ? b / r : 0;
}

/* The measure of a residual from its 2-norm (GMRES's least-squares residual). */
static double measure_norm(const Krylov *ks, double norm) {
  return ks->options.norm == KRYLOV_NORM_RMS ? norm / sqrt(ks->count) : norm;
}

/* GMRES's Hessenberg matrix, (m + 1) x m, rotated into upper triangular form as the steps go. */
#define H(i, j) ks->hess[(size_t)(i)*ks->options.restart + (j)]

/* One cycle's Arnoldi steps from v[0] = r / beta, after *k iterations; the steps made into *steps. Stops at the
 * restart, at the target or when the Krylov space is exhausted (a zero pivot). */
static HclStatus arnoldi(Krylov *ks, const KrylovSystem *s, double beta, double target, int *k, int *steps) {
  HclStatus status = HCL_OK;
  int m = ks->options.restart, j = 0;
  Vec **v = ks->system.basis, *z = ks->system.z;
  double *g = ks->g, *cs = ks->cs, *sn = ks->sn;
  memset(g, 0, sizeof *g * (size_t)(m + 1));
  g[0] = beta;
  while (j < m && *k < ks->options.max_iterations) {
    Vec *mv = NULL;
    TRY(precondition(s, v[j], z, &mv));
    TRY(hcl_operator_apply(s->op, mv, v[j + 1])); /* v_{j+1} = A M^-1 v_j, orthogonalized (modified Gram-Schmidt) */
    for (int i = 0; i <= j; i++) {
      TRY(hcl_vec_dot(v[j + 1], v[i], &H(i, j)));
      TRY(hcl_vec_axpy(v[j + 1], -H(i, j), v[i]));
    }
    TRY(hcl_vec_norm(v[j + 1], &H(j + 1, j)));
    if (H(j + 1, j) > 0) {
      TRY(hcl_vec_scale(v[j + 1], 1 / H(j + 1, j)));
    }
    for (int i = 0; i < j; i++) { /* the earlier rotations on column j */
      double top = cs[i] * H(i, j) + sn[i] * H(i + 1, j);
      H(i + 1, j) = -sn[i] * H(i, j) + cs[i] * H(i + 1, j);
      H(i, j) = top;
    }
    givens(H(j, j), H(j + 1, j), &cs[j], &sn[j]);
    H(j, j) = cs[j] * H(j, j) + sn[j] * H(j + 1, j);
    H(j + 1, j) = 0;
    g[j + 1] = -sn[j] * g[j];
    g[j] = cs[j] * g[j];
    ks->history[++*k] = measure_norm(ks, fabs(g[j + 1]));
    j++;
    if (ks->history[*k] <= target || H(j - 1, j - 1) == 0) {
      break;
    }
  }
cleanup:
  *steps = j;
  return status;
}

/* x += M^-1 V y, y from the rotated Hessenberg system of the cycle's steps (back substitution). */
static HclStatus gmres_update(Krylov *ks, const KrylovSystem *s, int steps) {
  HclStatus status = HCL_OK;
  Vec **v = ks->system.basis, *z = ks->system.z;
  double *y = ks->y;
  for (int i = steps - 1; i >= 0; i--) {
    double sum = ks->g[i];
    for (int c = i + 1; c < steps; c++) {
      sum -= H(i, c) * y[c];
    }
    y[i] = H(i, i) != 0 ? sum / H(i, i) : 0;
  }
  if (steps == 0) {
    goto cleanup;
  }
  TRY(hcl_vec_scale(v[0], y[0])); /* u = V y, in v[0] */
  for (int i = 1; i < steps; i++) {
    TRY(hcl_vec_axpy(v[0], y[i], v[i]));
  }
  Vec *mu = NULL;
  TRY(precondition(s, v[0], z, &mu));
  TRY(hcl_vec_axpy(s->x, 1, mu));
cleanup:
  return status;
}
#undef H

/* GMRES(m), right-preconditioned: Saad's Algorithm 9.5, the true residual at every restart. */
static HclStatus gmres(Krylov *ks, const KrylovSystem *s, KrylovResult *result) {
  HclStatus status = HCL_OK;
  Work *w = &ks->system;
  Vec *z = NULL, *work = NULL;
  TRY(work_basis(w, ks->options.restart));
  if (!identity(s)) {
    TRY(work_vec(w, &w->z, "solver preconditioned vector", &z));
  }
  TRY(residual_work(w, s->op, &work));
  Vec *r = w->basis[0];
  int k = 0;
  for (;;) {
    double squares = 0, beta = 0;
    TRY(hcl_operator_residual(s->op, s->b, s->x, r, work));
    TRY(squares_of(r, &squares));
    beta = sqrt(squares);
    ks->history[k] = measure(ks, squares, 0);
    if (ks->history[k] <= result->target || !isfinite(ks->history[k]) || k >= ks->options.max_iterations) {
      break;
    }
    int steps = 0;
    TRY(hcl_vec_scale(r, 1 / beta));
    TRY(arnoldi(ks, s, beta, result->target, &k, &steps));
    TRY(gmres_update(ks, s, steps));
  }
  result->iterations = k;
cleanup:
  return status;
}

/* Defect correction, fnpf-gpu-model Algorithm 1: r = b - A x; stop on the target; x += M^-1 r. The residual goes
 * straight into the preconditioner's input and the correction comes from its output where it has them (the
 * V-cycle's, in its own precision). */
static HclStatus defect_correction(Krylov *ks, const KrylovSystem *s, KrylovResult *result) {
  HclStatus status = HCL_OK;
  Work *w = &ks->system;
  Vec *r = s->pc ? hcl_precond_input(s->pc) : NULL, *z = s->pc ? hcl_precond_output(s->pc) : NULL, *work = NULL;
  if (!r) {
    TRY(work_vec(w, &w->r, "solver residual", &r));
  }
  if (!z && !identity(s)) {
    TRY(work_vec(w, &w->z, "solver correction", &z));
  }
  TRY(residual_work(w, s->op, &work));
  int k = 0;
  for (;; k++) {
    double squares = 0;
    TRY(hcl_operator_residual(s->op, s->b, s->x, r, work));
    TRY(squares_of(r, &squares));
    ks->history[k] = measure(ks, squares, 0);
    if (ks->history[k] <= result->target || !isfinite(ks->history[k]) || k == ks->options.max_iterations) {
      break;
    }
    if (identity(s)) {
      TRY(hcl_vec_axpy(s->x, 1, r));
      continue;
    }
    TRY(hcl_precond_apply(s->pc, r, z));
    TRY(hcl_vec_space(z) == hcl_vec_space(s->x) ? hcl_vec_axpy(s->x, 1, z) : hcl_vec_axpy_convert(s->x, 1, z));
  }
  result->iterations = k;
cleanup:
  return status;
}

/* ---- the solve ---- */

/* The reference of the relative tolerance: the measure of b, or of the operator's own right-hand side (computed where
 * defect correction will compute its residuals, so that both are in the same precision). */
static HclStatus reference(Krylov *ks, Vec *b, KrylovResult *result) {
  HclStatus status = HCL_OK;
  double squares = 0;
  if (ks->options.norm == KRYLOV_NORM_M) {
    goto cleanup; /* the first preconditioned residual's, found by CG */
  }
  if (b) {
    TRY(squares_of(b, &squares));
  } else {
    Vec *r = hcl_precond_input(ks->pc);
    if (!r) {
      TRY(work_vec(&ks->full, &ks->full.r, "solver right-hand side", &r));
    }
    TRY(hcl_operator_rhs(ks->op, r));
    TRY(squares_of(r, &squares));
  }
  result->reference = measure(ks, squares, 0);
  result->target = ks->options.rtol * result->reference + ks->options.atol;
cleanup:
  return status;
}

HclStatus hcl_krylov_solve(Krylov *ks, Vec *b, Vec *x, KrylovResult *result) {
  HclStatus status = HCL_OK;
  const KrylovOptions *o = &ks->options;
  memset(result, 0, sizeof *result);
  result->history = ks->history;
  ASSERT(ks->op != NULL && ks->pc != NULL); /* hcl_krylov_setup first */
  REQUIRE(b || hcl_operator_has_rhs(ks->op), HCL_EINTERNAL, "a solve of %s without a right-hand side (please report)",
          hcl_operator_name(ks->op));
  work_on(&ks->full, hcl_operator_space(ks->op));
  TRY(reference(ks, b, result));
  KrylovSystem system = {ks->op, ks->pc, b, x};
  TRY(hcl_precond_presolve(ks->pc, &system));
  work_on(&ks->system, hcl_operator_space(system.op));
  switch (o->method) {
  case KRYLOV_CG:
    TRY(cg(ks, &system, result));
    break;
  case KRYLOV_GMRES:
    TRY(gmres(ks, &system, result));
    break;
  case KRYLOV_DC:
    TRY(defect_correction(ks, &system, result));
    break;
  case KRYLOV_PIPECG:
    TRY(pipelined_cg(ks, &system, result));
    break;
  }
  result->first = ks->history[0];
  result->last = ks->history[result->iterations];
  result->converged = result->last <= result->target;
  TRY(hcl_precond_postsolve(ks->pc, b, x));
  if (!result->converged) {
    status = not_converged(ks, result);
  }
cleanup:
  return status;
}

HclStatus hcl_krylov_true_residual(Krylov *ks, Vec *b, Vec *x, double *norm) {
  HclStatus status = HCL_OK;
  Vec *r = NULL, *work = NULL;
  work_on(&ks->full, hcl_operator_space(ks->op));
  TRY(work_vec(&ks->full, &ks->full.r, "solver residual of the whole system", &r));
  TRY(residual_work(&ks->full, ks->op, &work));
  TRY(hcl_operator_residual(ks->op, b, x, r, work));
  TRY(hcl_vec_norm(r, norm));
cleanup:
  return status;
}

HclStatus hcl_krylov_relative_residual(Krylov *ks, Vec *b, Vec *x, double *relative) {
  HclStatus status = HCL_OK;
  double residual = 0, norm_b = 0;
  TRY(hcl_krylov_true_residual(ks, b, x, &residual));
  TRY(hcl_vec_norm(b, &norm_b));
  *relative = norm_b > 0 ? residual / norm_b : residual;
cleanup:
  return status;
}
