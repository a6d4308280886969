/* SPDX-License-Identifier: BSD-3-Clause */
/* kernel.h: the one way every component sets a kernel's arguments and launches it.
 *
 *   KernelArgs a = hcl_kernel_args(kernel);
 *   hcl_arg_mem(&a, hcl_field_buffer(eta)); hcl_arg_int(&a, nx); hcl_arg_real(&a, precision, dt);
 *   TRY(hcl_kernel_launch(rt, &a, hcl_kernel_grid(rt, nx, ny, WG_X, WG_Y), bytes_moved));
 *
 * The arguments are set in order and the first OpenCL error is kept; hcl_kernel_launch reports it with the kernel's name
 * and the argument's index, so a component never checks each clSetKernelArg. The shape says how the work-items
 * cover the work: a 2D grid of cells (exact on CPUs, padded to work-groups on GPUs: hcl_runtime_grid_shape), a padded 1D
 * range of places, a number of whole work-groups, or a 1 to 3D box whose work-group the driver picks. */
#ifndef HYDROCL_KERNEL_H
#define HYDROCL_KERNEL_H

#include <CL/cl.h>
#include <stdbool.h>
#include <stddef.h>

#include "precision.h"
#include "runtime.h"
#include "status.h"

typedef struct {
  cl_kernel kernel;
  cl_uint arg;     /* the next argument's index */
  cl_int err;      /* the first failure, CL_SUCCESS while none */
  cl_uint err_arg; /* the index of the argument that failed */
} KernelArgs;

static inline KernelArgs hcl_kernel_args(cl_kernel kernel) {
  return (KernelArgs){kernel, 0, CL_SUCCESS, 0};
}
static inline void hcl_arg_bytes(KernelArgs *a, size_t size, const void *value) {
  if (a->err == CL_SUCCESS) {
    a->err = clSetKernelArg(a->kernel, a->arg, size, value);
    a->err_arg = a->arg;
  }
  a->arg++;
}
static inline void hcl_arg_mem(KernelArgs *a, cl_mem m) {
  hcl_arg_bytes(a, sizeof m, &m);
}
static inline void hcl_arg_int(KernelArgs *a, int v) {
  cl_int value = v;
  hcl_arg_bytes(a, sizeof value, &value);
}
static inline void hcl_arg_uint(KernelArgs *a, size_t v) {
  cl_uint value = (cl_uint)v;
  hcl_arg_bytes(a, sizeof value, &value);
}
static inline void hcl_arg_long(KernelArgs *a, long v) {
  cl_long value = v;
  hcl_arg_bytes(a, sizeof value, &value);
}
static inline void hcl_arg_ulong(KernelArgs *a, size_t v) {
  cl_ulong value = v;
  hcl_arg_bytes(a, sizeof value, &value);
}
/* A REAL scalar of a program built for precision p. */
static inline void hcl_arg_real(KernelArgs *a, Precision p, double v) {
  if (p == PRECISION_DOUBLE) {
    hcl_arg_bytes(a, sizeof v, &v);
  } else {
    float single = (float)v;
    hcl_arg_bytes(a, sizeof single, &single);
  }
}
/* A __local buffer of this many bytes. */
static inline void hcl_arg_local(KernelArgs *a, size_t bytes) {
  hcl_arg_bytes(a, bytes, NULL);
}

/* How a launch's work-items cover the work. */
typedef struct {
  cl_uint dims;
  size_t offset[3]; /* of the first work-item's global id (hcl_kernel_grid_at); zero otherwise */
  size_t global[3];
  size_t local[3];
  bool has_local; /* false: the driver chooses the work-group */
} KernelShape;

/* A 2D kernel over nx x ny cells in work-groups of wg_x x wg_y on GPUs, repeated rows_of_groups times along y
 * (hcl_runtime_grid_shape); kernels built with EXACT_GRID have no bounds guard on CPUs, where the launch is exact. */
KernelShape hcl_kernel_grid(const Runtime *rt, int nx, int ny, int wg_x, int wg_y);
KernelShape hcl_kernel_grid_rows(const Runtime *rt, int nx, int ny, int wg_x, int wg_y, int rows_of_groups);
/* The same over the nx x ny cells from (x0, y0), as a global offset: get_global_id counts from there, and a kernel
 * that uses get_group_id adds get_global_offset. On GPUs the padding runs on past the box (up to the kernel's own
 * guard), so only kernels whose every output depends on inputs they do not write may run over parts of a grid. */
KernelShape hcl_kernel_grid_at(const Runtime *rt, int x0, int y0, int nx, int ny, int wg_x, int wg_y,
                               int rows_of_groups);
/* n places in 1D work-groups of group work-items (fewer where the device's largest group is smaller), padded to
 * whole groups: the kernel guards its end. */
KernelShape hcl_kernel_range(const Runtime *rt, size_t n, size_t group);
/* groups whole work-groups of group work-items. */
KernelShape hcl_kernel_groups(size_t groups, size_t group);
/* A box of global work-items in dims (1 to 3) directions; the driver picks the work-group. */
KernelShape hcl_kernel_box(cl_uint dims, size_t x, size_t y, size_t z);

/* The most work-items a work-group of kernel may have on rt's device: what the kernel's registers allow
 * (CL_KERNEL_WORK_GROUP_SIZE), within the device's largest work-group (device.h; lowered for tests by
 * HYDROCL_LIMIT_WORK_GROUP). */
HclStatus hcl_kernel_group_limit(const Runtime *rt, cl_kernel kernel, size_t *most);

/* Enqueues the kernel of a with its arguments over shape (nothing when the shape is empty). An argument that could
 * not be set is HCL_EOPENCL naming the kernel and the argument. bytes_moved is the DRAM traffic the launch must
 * cause, for the profile's effective bandwidth (runtime.h). */
HclStatus hcl_kernel_launch(Runtime *rt, const KernelArgs *a, KernelShape shape, double bytes_moved);
/* The same, returning the launch's event (caller releases) for timing it. */
HclStatus hcl_kernel_launch_timed(Runtime *rt, const KernelArgs *a, KernelShape shape, double bytes_moved,
                                  cl_event *event);

#endif
