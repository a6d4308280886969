/* SPDX-License-Identifier: BSD-3-Clause */
/* reduce.h: global reductions over the places of spans (field.h: a field's owned points, hcl_field_span, or a plain
 * range of a buffer, hcl_span_range): sum, min, max, the dot product, and two or three dot products in one pass. Partial
 * results per work-group on the device (accumulated in double where the device has fp64), combined on the host in a
 * fixed order, then across ranks in rank order (one gather for all the values of a reduction), so every rank gets the
 * same value and one device and one decomposition give bitwise-repeatable results. min and max propagate NaN. All
 * calls are collective over the decomposition: each rank gives its own part of the spans. */
#ifndef HYDROCL_REDUCE_H
#define HYDROCL_REDUCE_H

#include "field.h"
#include "status.h"

typedef struct Reducer Reducer;

/* Borrows rt and decomp. Programs are built on first use per precision; a failure on any rank (a build, a launch)
 * is returned by every rank. Collective, like every call below. */
HclStatus hcl_reducer_create(Runtime *rt, const Decomp *decomp, Reducer **out);
void hcl_reducer_destroy(Reducer **reducer);

HclStatus hcl_reduce_sum(Reducer *r, Span a, double *result);
HclStatus hcl_reduce_min(Reducer *r, Span a, double *result);
HclStatus hcl_reduce_max(Reducer *r, Span a, double *result);
/* sum of a b over the places; a and b of one shape and precision (each may have its own buffer and base). */
HclStatus hcl_reduce_dot(Reducer *r, Span a, Span b, double *result);
/* Both a b and a c in one pass (CG's <r, z> and <r, r>): result[0], result[1]; each summed as hcl_reduce_dot sums it. */
HclStatus hcl_reduce_dot2(Reducer *r, Span a, Span b, Span c, double result[2]);
/* a b, a c and b b in one pass (pipelined CG's <u, r>, <u, w> and <r, r>), split in two: start computes this rank's
 * part on the device and starts the exchange between ranks without waiting for it; wait completes it into result[0 ..
 * 2]. What the ranks exchange travels while the caller launches other work and makes other collective calls (each
 * rank in the same order); one such reduction per reducer is in flight at a time. */
HclStatus hcl_reduce_dot3_start(Reducer *r, Span a, Span b, Span c);
HclStatus hcl_reduce_dot3_wait(Reducer *r, double result[3]);

#endif
