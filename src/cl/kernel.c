/* SPDX-License-Identifier: BSD-3-Clause */
/* kernel.c: launch shapes and the one launch of kernel.h. */
#include "kernel.h"

#include "clerror.h"

KernelShape hcl_kernel_grid_rows(const Runtime *rt, int nx, int ny, int wg_x, int wg_y, int rows_of_groups) {
  KernelShape s = {.dims = 2, .has_local = true};
  hcl_runtime_grid_shape(rt, nx, ny, wg_x, wg_y, rows_of_groups, s.global, s.local);
  return s;
}

KernelShape hcl_kernel_grid_at(const Runtime *rt, int x0, int y0, int nx, int ny, int wg_x, int wg_y,
                               int rows_of_groups) {
  KernelShape s = hcl_kernel_grid_rows(rt, nx, ny, wg_x, wg_y, rows_of_groups);
  s.offset[0] = (size_t)x0;
  s.offset[1] = (size_t)y0;
  return s;
}

KernelShape hcl_kernel_grid(const Runtime *rt, int nx, int ny, int wg_x, int wg_y) {
  return hcl_kernel_grid_rows(rt, nx, ny, wg_x, wg_y, 1);
}

KernelShape hcl_kernel_range(const Runtime *rt, size_t n, size_t group) {
  group = group < hcl_runtime_device(rt)->max_work_group_size ? group : hcl_runtime_device(rt)->max_work_group_size;
  return (KernelShape){.dims = 1, .global = {(n + group - 1) / group * group}, .local = {group}, .has_local = true};
}

KernelShape hcl_kernel_groups(size_t groups, size_t group) {
  return (KernelShape){.dims = 1, .global = {groups * group}, .local = {group}, .has_local = true};
}

KernelShape hcl_kernel_box(cl_uint dims, size_t x, size_t y, size_t z) {
  return (KernelShape){.dims = dims, .global = {x, y, z}, .has_local = false};
}

static bool empty(const KernelShape *s) {
  for (cl_uint d = 0; d < s->dims; d++) {
    if (s->global[d] == 0) {
      return true;
    }
  }
  return false;
}

HclStatus hcl_kernel_launch_timed(Runtime *rt, const KernelArgs *a, KernelShape shape, double bytes_moved,
                                  cl_event *event) {
  HclStatus status = HCL_OK;
  if (a->err != CL_SUCCESS) {
    char name[128] = "?";
    clGetKernelInfo(a->kernel, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL);
    FAIL(HCL_EOPENCL, "cannot set argument %u of kernel '%s': %s", a->err_arg, name, hcl_cl_error_name(a->err));
  }
  if (event) {
    *event = NULL;
  }
  if (empty(&shape)) {
    goto cleanup;
  }
  bool offset = shape.offset[0] || shape.offset[1] || shape.offset[2];
  TRY(hcl_runtime_launch(rt, a->kernel, shape.dims, offset ? shape.offset : NULL, shape.global,
                         shape.has_local ? shape.local : NULL, bytes_moved, event));
cleanup:
  return status;
}

HclStatus hcl_kernel_group_limit(const Runtime *rt, cl_kernel kernel, size_t *most) {
  HclStatus status = HCL_OK;
  const DeviceInfo *dev = hcl_runtime_device(rt);
  TRY_CL(clGetKernelWorkGroupInfo(kernel, dev->id, CL_KERNEL_WORK_GROUP_SIZE, sizeof *most, most, NULL));
  *most = *most < dev->max_work_group_size ? *most : dev->max_work_group_size;
cleanup:
  return status;
}

HclStatus hcl_kernel_launch(Runtime *rt, const KernelArgs *a, KernelShape shape, double bytes_moved) {
  return hcl_kernel_launch_timed(rt, a, shape, bytes_moved, NULL);
}
