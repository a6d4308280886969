/* kernel_args.h: setting a kernel's arguments in order, the first OpenCL error kept for one check at launch.
 *
 *   KernelArgs a = kernel_args(kernel);
 *   arg_mem(&a, buffer); arg_int(&a, nx);
 *   TRY_CL(a.err);                                  (or let a launch helper check it) */
#ifndef HYDROCL_KERNEL_ARGS_H
#define HYDROCL_KERNEL_ARGS_H

#include <CL/cl.h>
#include <stddef.h>

#include "precision.h"


typedef struct {
  cl_kernel kernel;
  cl_uint arg; /* the next argument's index */
  cl_int err;  /* the first failure, CL_SUCCESS while none */
} KernelArgs;

static inline KernelArgs kernel_args(cl_kernel kernel) {
  return (KernelArgs){kernel, 0, CL_SUCCESS};
}
static inline void arg_bytes(KernelArgs *a, size_t size, const void *value) {
  if (a->err == CL_SUCCESS) {
    a->err = clSetKernelArg(a->kernel, a->arg, size, value);
  }
  a->arg++;
}
static inline void arg_mem(KernelArgs *a, cl_mem m) {
  arg_bytes(a, sizeof m, &m);
}
static inline void arg_int(KernelArgs *a, int v) {
  cl_int value = v;
  arg_bytes(a, sizeof value, &value);
}
static inline void arg_uint(KernelArgs *a, size_t v) {
  cl_uint value = (cl_uint)v;
  arg_bytes(a, sizeof value, &value);
}
static inline void arg_long(KernelArgs *a, long v) {
  cl_long value = v;
  arg_bytes(a, sizeof value, &value);
}
static inline void arg_ulong(KernelArgs *a, size_t v) {
  cl_ulong value = v;
  arg_bytes(a, sizeof value, &value);
}
/* A REAL scalar of a program built for precision p. */
static inline void arg_real(KernelArgs *a, Precision p, double v) {
  if (p == PRECISION_DOUBLE) {
    arg_bytes(a, sizeof v, &v);
  } else {
    float single = (float)v;
    arg_bytes(a, sizeof single, &single);
  }
}
/* A __local buffer of this many bytes. */
static inline void arg_local(KernelArgs *a, size_t bytes) {
  arg_bytes(a, bytes, NULL);
}

#endif
