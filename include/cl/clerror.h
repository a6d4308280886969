/* SPDX-License-Identifier: BSD-3-Clause */
/* clerror.h: OpenCL status codes as names, and TRY_CL for the error idiom of status.h. */
#ifndef HYDROCL_CLERROR_H
#define HYDROCL_CLERROR_H

#include "status.h"

#include <CL/cl.h>

#define CL_PLATFORM_NOT_FOUND_KHR -1001 /* from cl_khr_icd, returned by the ICD loader */

const char *hcl_cl_error_name(cl_int code); /* "CL_OUT_OF_RESOURCES"; static storage */

/* Calls an OpenCL function; on failure records the call and the error's name and jumps to cleanup. */
#define TRY_CL(call)                                                                                                   \
  do {                                                                                                                 \
    cl_int cl_err_ = (call);                                                                                           \
    if (cl_err_ != CL_SUCCESS) {                                                                                       \
      FAIL(HCL_EOPENCL, "OpenCL call failed with %s: %s", hcl_cl_error_name(cl_err_), #call);                          \
    }                                                                                                                  \
  } while (0)

#endif
