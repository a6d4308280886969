/* SPDX-License-Identifier: BSD-3-Clause */
/* vec.h: the solvers' device vectors (in the spirit of SUNDIALS' N_Vector and PETSc's Vec): one interface over the
 * two kinds of storage the code has, the owned points of a ghosted field (field.h) and a plain range [first, end) of
 * a device buffer (the RRB layout's red nodes, rrb.h), with the updates and reductions the Krylov methods need.
 *
 * A VecSpace is a shape: fields of one spec on a decomposition, or ranges of buffers of one length. It owns what its
 * vectors share: the blas1.cl kernels and the reducer. A Vec is storage of its space, owned (hcl_vec_create) or
 * borrowed (hcl_vec_wrap_field, hcl_vec_wrap_buffer). Operations act on the owned places only; ghost layers are another
 * matter, refreshed by hcl_vec_ghosts. Updates are single launches of kernels_cl/blas1.cl (folding them into the
 * operator or the preconditioner was measured slower: bench/README.md, rrb); dot products are reductions of
 * reduce.h, bitwise repeatable on one device and decomposition, and hcl_vec_dot2 fuses two of them into one pass.
 * Two vectors of one operation share a space, except in hcl_vec_convert and hcl_vec_axpy_convert, which take x from any
 * space of the same grid (another precision, another ghost width: mixed precision's V-cycle vectors).
 *
 * Ghosts: a field vector tracks whether its ghost layers hold its neighbours' current values. hcl_vec_ghosts exchanges
 * them (through the space's ghost fill: the halo, or what the space was given) unless they already do; every
 * operation here that writes a vector marks them stale, and code that writes a vector's storage by other means
 * (an operator's kernel) calls hcl_vec_touch. Every call on a vector of several ranks is collective. */
#ifndef HYDROCL_VEC_H
#define HYDROCL_VEC_H

#include <stdbool.h>

#include "decomp.h"
#include "field.h"
#include "halo.h"
#include "reduce.h"
#include "runtime.h"
#include "status.h"

typedef struct VecSpace VecSpace;
typedef struct Vec Vec;

/* Fields of spec (its name unused) on decomp. Borrows rt and decomp. Collective. */
HclStatus hcl_vspace_create_fields(Runtime *rt, const Decomp *decomp, const FieldSpec *spec, VecSpace **out);
/* Ranges [first, end) of buffers of count values of precision, on this rank alone (decomp: its one-rank
 * decomposition, for the reducer). Borrows rt and decomp. */
HclStatus hcl_vspace_create_range(Runtime *rt, const Decomp *decomp, Precision precision, size_t count, size_t first,
                                  size_t end, VecSpace **out);
void hcl_vspace_destroy(VecSpace **space);

/* What fills a field vector's ghosts after the halo exchange, when the exchange alone is not it (the Laplace solver
 * mirrors walls into them, mirror.h): fill(ctx, field), on the sides in sides (halo.h's bits). */
typedef HclStatus (*VecGhostFill)(void *ctx, Field *field);
void hcl_vspace_set_ghost_fill(VecSpace *space, VecGhostFill fill, void *ctx, int sides);

Precision hcl_vspace_precision(const VecSpace *space);
bool hcl_vspace_is_range(const VecSpace *space);
double hcl_vspace_global_count(const VecSpace *space); /* places over all ranks: the length of the vectors */
Reducer *hcl_vspace_reducer(VecSpace *space);          /* borrowed: for reductions of the space's spans */
Runtime *hcl_vspace_runtime(const VecSpace *space);

/* A new zero vector of the space; name for messages. Collective. */
HclStatus hcl_vec_create(VecSpace *space, const char *name, Vec **out);
/* A vector over storage the caller keeps: a field of the space's shape, or a buffer of its ranges' length. */
HclStatus hcl_vec_wrap_field(VecSpace *space, Field *field, Vec **out);
HclStatus hcl_vec_wrap_buffer(VecSpace *space, cl_mem buffer, Vec **out);
void hcl_vec_destroy(Vec **v);

VecSpace *hcl_vec_space(const Vec *v);
Field *hcl_vec_field(const Vec *v); /* NULL for a range vector */
cl_mem hcl_vec_buffer(const Vec *v);
Span hcl_vec_span(const Vec *v);

/* Refreshes the ghost layers unless they are current (a range vector has none). Collective. */
HclStatus hcl_vec_ghosts(Vec *v);
/* An operator's launch over the owned cells that reads v up to reach cells away (halo.h's CellBoxLaunch, out of
 * place), overlapping the refresh of v's ghosts: the cells that read no stale ghost while they travel, the strips
 * along the other ranks and the filled sides after (hcl_halo_parts); one launch over every cell when the ghosts are
 * current. Collective. */
HclStatus hcl_vec_ghosts_behind(Vec *v, int reach, CellBoxLaunch launch, void *context);
/* Marks the ghosts stale after a write by other means than these operations. */
void hcl_vec_touch(Vec *v);

/* Updates, on the owned places (a, b scalars; y the vector written). */
HclStatus hcl_vec_set(Vec *y, double value);                          /* y = value */
HclStatus hcl_vec_copy(Vec *y, Vec *x);                               /* y = x */
HclStatus hcl_vec_scale(Vec *y, double a);                            /* y = a y */
HclStatus hcl_vec_axpy(Vec *y, double a, Vec *x);                     /* y += a x */
HclStatus hcl_vec_aypx(Vec *y, double b, Vec *x);                     /* y = x + b y */
HclStatus hcl_vec_axpby(Vec *y, double a, Vec *x, double b);          /* y = a x + b y */
HclStatus hcl_vec_waxpby(Vec *w, double a, Vec *x, double b, Vec *y); /* w = a x + b y */
/* y += a x and v += b u in one pass (CG: x += alpha p, r -= alpha q). */
HclStatus hcl_vec_axpy_pair(Vec *y, double a, Vec *x, Vec *v, double b, Vec *u);
HclStatus hcl_vec_divide(Vec *z, Vec *x, Vec *y); /* z = x / y place by place */
/* y = x and y += a x with x of another field space on the same grid (precision and ghost width may differ). */
HclStatus hcl_vec_convert(Vec *y, Vec *x);
HclStatus hcl_vec_axpy_convert(Vec *y, double a, Vec *x);

/* Reductions over all ranks: <x, y>, <a, b> and <a, c> in one pass, and the 2-norm. Collective. */
HclStatus hcl_vec_dot(Vec *x, Vec *y, double *result);
HclStatus hcl_vec_dot2(Vec *a, Vec *b, Vec *c, double result[2]);
/* <a, b>, <a, c> and <b, b> in one pass, the exchange between ranks left in flight by start (hcl_reduce_dot3_start) and
 * completed by wait into result[0 .. 2]: other work and collectives may come between. One in flight per space. */
HclStatus hcl_vec_dot3_start(Vec *a, Vec *b, Vec *c);
HclStatus hcl_vec_dot3_wait(VecSpace *space, double result[3]);
HclStatus hcl_vec_norm(Vec *x, double *result);

#endif
