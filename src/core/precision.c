/* SPDX-License-Identifier: BSD-3-Clause */
/* precision.c: parsing and naming of the run precision. */
#include "precision.h"

#include <string.h>

HclStatus hcl_precision_parse(const char *text, Precision *out) {
  HclStatus status = HCL_OK;
  if (strcmp(text, "single") == 0 || strcmp(text, "float") == 0) {
    *out = PRECISION_SINGLE;
  } else if (strcmp(text, "double") == 0) {
    *out = PRECISION_DOUBLE;
  } else {
    FAIL(HCL_EUSAGE, "unknown precision '%s' (allowed: single, double)", text);
  }
cleanup:
  return status;
}

const char *hcl_precision_name(Precision p) {
  return p == PRECISION_DOUBLE ? "double" : "float";
}

size_t hcl_precision_bytes(Precision p) {
  return p == PRECISION_DOUBLE ? sizeof(double) : sizeof(float);
}

Precision hcl_precision_default(void) {
#ifdef HYDROCL_DEFAULT_DOUBLE
  return PRECISION_DOUBLE;
#else
  return PRECISION_SINGLE;
#endif
}
