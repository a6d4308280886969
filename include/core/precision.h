/* SPDX-License-Identifier: BSD-3-Clause */
/* precision.h: the floating-point precision of a run's fields and kernels (REAL in kernels_cl/). */
#ifndef HYDROCL_PRECISION_H
#define HYDROCL_PRECISION_H

#include "status.h"

#include <stddef.h>

typedef enum { PRECISION_SINGLE, PRECISION_DOUBLE } Precision;

/* Accepts "single"/"float" and "double"; anything else is HCL_EUSAGE naming what is allowed. */
HclStatus hcl_precision_parse(const char *text, Precision *out);
const char *hcl_precision_name(Precision p); /* "float" or "double", as in kernels and JSON */
size_t hcl_precision_bytes(Precision p);
Precision hcl_precision_default(void); /* the build's -Dprecision choice */

#endif
