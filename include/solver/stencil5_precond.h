/* SPDX-License-Identifier: BSD-3-Clause */
/* stencil5_precond.h: the registry of the preconditioners of a 5-point operator (stencil5.h), PETSc's PCRegister:
 * each kind is a name, a line of text and a factory, registered once (stencil5_precond.c's table for the built-in
 * ones: rrb, mg, jacobi, none; hcl_stencil5_precond_register for one a program adds). The case keys, the command line's
 * --preconditioner, its help and messages all read the registry.
 *
 * The case keys, under a prefix of the model's choosing (a model may embed several solvers, each under its own):
 * `preconditioner` (a registered name, or auto, the default: RRB on one rank, the multigrid on several), RRB's depth
 * (rrb_levels, rrb_exact) and preconditioner_precision (same or float, float under a double system being mixed
 * precision, for the kinds that have a float form), beside krylov.h's keys. */
#ifndef HYDROCL_STENCIL5_PRECOND_H
#define HYDROCL_STENCIL5_PRECOND_H

#include <stdbool.h>

#include "casefile.h"
#include "krylov.h"
#include "precond.h"
#include "rrb.h"
#include "status.h"

/* What a factory is given: the settings that the case keys or the command line chose. */
typedef struct {
  bool in_float; /* apply M^-1 in float under a double system (mixed precision); only for kinds with float_form */
  RrbDepth rrb;  /* RRB's depth (rrb_levels, rrb_exact; --rrb-levels, --rrb-exact) */
} Stencil5PrecondSettings;

typedef struct {
  const char *name;    /* the value of `preconditioner` and --preconditioner */
  const char *summary; /* what it is, a few words for help and the case key's text */
  bool float_form;     /* it has a float form under a double system (mixed precision) */
  HclStatus (*create)(const Stencil5PrecondSettings *settings, Precond **out);
} Stencil5PrecondKind;

/* Adds a kind (borrowed: a static table entry) after the built-in ones, before any case or option is read. */
HclStatus hcl_stencil5_precond_register(const Stencil5PrecondKind *kind);
const Stencil5PrecondKind *hcl_stencil5_precond_find(const char *name); /* NULL: none of that name */
/* The registered names for a message, "rrb, mg, jacobi or none"; float_only: those with a float form. Static. */
const char *hcl_stencil5_precond_names(bool float_only);

HclStatus hcl_stencil5_add_precond_keys(CaseSchema *schema, const char *prefix);
/* The Krylov options of a symmetric positive definite 5-point system under prefix (hcl_krylov_options_from_case),
 * checked against what such a system allows: CG or pipelined CG, and preconditioner_precision float only for a
 * preconditioner with a float form. system names it in messages ("the level system"). */
HclStatus hcl_stencil5_cg_options_from_case(const Case *c, const char *prefix, const char *system, KrylovOptions *out);
/* The preconditioner a finished case chooses under prefix (the caller owns it; RRB's depth is checked when it is set
 * up, rrb.h). */
HclStatus hcl_stencil5_precond_from_case(const Case *c, const char *prefix, Precond **out);
/* The preconditioner's name as the model describes it ("mg (auto: several ranks)"); static. */
const char *hcl_stencil5_precond_name(const Case *c, const char *prefix);

#endif
