/* SPDX-License-Identifier: BSD-3-Clause */
/* stencil5_precond.h: the preconditioners of a 5-point operator (stencil5.h) as a case file chooses them, under a
 * prefix of the model's choosing (a model may embed several solvers, each under its own): the key `preconditioner`
 * (rrb, mg, jacobi, none, or auto, the default: RRB on one rank, the multigrid on several), RRB's depth (rrb_levels, rrb_exact) and the multigrid's precision
 * (preconditioner_precision: same or float, float under a double system being mixed precision), beside krylov.h's keys. */
#ifndef HYDROCL_STENCIL5_PRECOND_H
#define HYDROCL_STENCIL5_PRECOND_H

#include "casefile.h"
#include "precond.h"
#include "status.h"

HclStatus stencil5_add_precond_keys(CaseSchema *schema, const char *prefix);
/* The preconditioner a finished case chooses under prefix (the caller owns it; RRB's depth is checked when it is set
 * up, rrb.h). */
HclStatus stencil5_precond_from_case(const Case *c, const char *prefix, Precond **out);
/* The preconditioner's name as the model describes it ("mg (auto: several ranks)"); static. */
const char *stencil5_precond_name(const Case *c, const char *prefix);

#endif
