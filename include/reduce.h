/* reduce.h: global reductions over the owned points of fields: sum, min, max, dot product. Partial results per
 * work-group on the device (accumulated in double where the device has fp64), combined on the host in a fixed
 * order, then across ranks in rank order, so every rank gets the same value and one device and one decomposition
 * give bitwise-repeatable results. min and max propagate NaN. All calls are collective over the decomposition. */
#ifndef HYDROCL_REDUCE_H
#define HYDROCL_REDUCE_H

#include "field.h"
#include "status.h"

typedef struct Reducer Reducer;

/* Borrows rt and decomp. Programs are built on first use per precision; a failure on any rank (a build, a launch)
 * is returned by every rank. Collective, like every call below. */
HclStatus reducer_create(Runtime *rt, const Decomp *decomp, Reducer **out);
void reducer_destroy(Reducer **reducer);

HclStatus reduce_sum(Reducer *r, Field *f, double *result);
HclStatus reduce_min(Reducer *r, Field *f, double *result);
HclStatus reduce_max(Reducer *r, Field *f, double *result);
/* sum of a b over owned points; a and b of one shape and precision. */
HclStatus reduce_dot(Reducer *r, Field *a, Field *b, double *result);
/* sum of a[k] b[k] over the places first <= k < end (< 2^32) of two buffers of precision p (solver vectors that are
 * not fields, such as the RRB layout's). */
HclStatus reduce_dot_range(Reducer *r, Precision p, cl_mem a, cl_mem b, size_t first, size_t end, double *result);
/* Both a b and a c over those places in one pass (CG's <r, z> and <r, r>): result[0], result[1]. */
HclStatus reduce_dot2_range(Reducer *r, Precision p, cl_mem a, cl_mem b, cl_mem c, size_t first, size_t end,
                            double result[2]);

#endif
