/* SPDX-License-Identifier: BSD-3-Clause */
/* mapping.c: the metric terms of curvilinear horizontal grids (see mapping.h, kernels_cl/mapping.cl). */
#include "mapping.h"

#include <math.h>
#include <stdlib.h>

#include "fd.h"
#include "kernel.h"
#include "par.h"
#include "program.h"

enum { WG_X = 32, WG_Y = 4 };

/* The coordinates of this rank's points of field xy (2 planes, ghosts included), relative to the map's point (0, 0):
 * local point (i, j) is the map's point stride (x0 + i, y0 + j). */
static HclStatus write_coordinates(const Mapping *map, int stride_x, int stride_y, Field *xy) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = hcl_decomp_local(hcl_field_decomp(xy));
  int g = hcl_field_ghost(xy), pitch = hcl_field_pitch(xy), rows = hcl_field_rows(xy);
  size_t plane = (size_t)pitch * rows;
  double *host = NULL, x00, y00;
  TRY_ALLOC(host, 2 * plane);
  map->point(map->ctx, 0, 0, &x00, &y00);
  for (int j = 0; j < rows; j++) {
    for (int i = 0; i < pitch; i++) {
      double x, y;
      map->point(map->ctx, (long)stride_x * (l->x0 + i - g), (long)stride_y * (l->y0 + j - g), &x, &y);
      host[(size_t)j * pitch + i] = x - x00;
      host[plane + (size_t)j * pitch + i] = y - y00;
    }
  }
  TRY(hcl_field_write_ghosted(xy, host));
cleanup:
  free(host);
  return status;
}

/* Every owned point's Jacobian positive and finite; every rank learns the first failure. */
static HclStatus check_jacobian(const Mapping *map, int stride_x, int stride_y, Field *dst, int first_plane) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = hcl_decomp_local(hcl_field_decomp(dst));
  size_t plane = (size_t)l->nx * l->ny;
  double *host = NULL;
  TRY_ALLOC(host, plane * hcl_field_nz(dst));
  TRY(hcl_field_read_owned(dst, host));
  const double *jacobian = host + (size_t)(first_plane + MAPPING_JACOBIAN) * plane;
  for (int j = 0; j < l->ny; j++) {
    for (int i = 0; i < l->nx; i++) {
      double value = jacobian[(size_t)j * l->nx + i], x, y;
      long gi = (long)stride_x * (l->x0 + i), gj = (long)stride_y * (l->y0 + j);
      map->point(map->ctx, gi, gj, &x, &y);
      REQUIRE(value > 0 && isfinite(value), HCL_EDATA,
              "%s: the map folds or degenerates at point (%ld, %ld), (x, y) = (%.6g, %.6g) m: its Jacobian x_xi "
              "y_gamma - x_gamma y_xi is %g (it must be positive: cells of positive area, the index directions "
              "turning anticlockwise as x and y do)",
              map->name, gi, gj, x, y, value);
    }
  }
cleanup:
  free(host);
  return hcl_par_agree(status);
}

/* The centred first and second derivative weights of the order on unit spacing, on the device. */
static HclStatus upload_weights(Runtime *rt, Precision precision, int order, cl_mem *out) {
  HclStatus status = HCL_OK;
  int width = order + 1;
  double offsets[FD_WIDTH_MAX], weights[3 * FD_WIDTH_MAX], table[2 * FD_WIDTH_MAX];
  for (int m = 0; m < width; m++) {
    offsets[m] = m - order / 2;
  }
  TRY(hcl_fd_weights(0, offsets, width, 2, weights));
  for (int m = 0; m < width; m++) {
    table[m] = weights[width + m];
    table[width + m] = weights[2 * width + m];
  }
  TRY(hcl_runtime_upload_reals(rt, precision, table, 2 * (size_t)width, "mapping weights", out));
cleanup:
  return status;
}

HclStatus hcl_mapping_write_metrics(const Mapping *map, int order, int stride_x, int stride_y, Field *dst,
                                    int first_plane) {
  HclStatus status = HCL_OK;
  Runtime *rt = hcl_field_runtime(dst);
  const Decomp *decomp = hcl_field_decomp(dst);
  const DecompLocal *l = hcl_decomp_local(decomp);
  Precision precision = hcl_field_precision(dst);
  Field *xy = NULL;
  cl_mem weights = NULL;
  cl_program program = NULL;
  cl_kernel kernel = NULL;
  ASSERT(order >= 2 && order <= FD_ORDER_MAX && order % 2 == 0 && first_plane + MAPPING_PLANES <= hcl_field_nz(dst));
  FieldSpec spec = {.name = "mapping_coordinates", .nz = 2, .ghost = order / 2, .precision = precision};
  TRY(hcl_field_create(rt, decomp, &spec, &xy));
  TRY(write_coordinates(map, stride_x, stride_y, xy));
  TRY(upload_weights(rt, precision, order, &weights));
  char defines[64];
  snprintf(defines, sizeof defines, "-DRADIUS=%d -DWIDTH=%d", order / 2, order + 1);
  KernelConfig config = {
      .precision = precision, .stencil_radius = order / 2, .wg_x = WG_X, .wg_y = WG_Y, .defines = defines};
  const char *const name = "metrics";
  TRY(hcl_program_build_kernels(rt, "mapping", &config, &name, 1, &program, &kernel));
  Span m = hcl_field_span(dst);
  KernelArgs a = hcl_kernel_args(kernel);
  hcl_arg_mem(&a, m.buffer);
  hcl_arg_ulong(&a, m.base + (size_t)first_plane * m.plane);
  hcl_arg_int(&a, (int)m.pitch);
  hcl_arg_ulong(&a, m.plane);
  hcl_arg_mem(&a, hcl_field_buffer(xy));
  hcl_arg_int(&a, l->nx);
  hcl_arg_int(&a, l->ny);
  hcl_arg_int(&a, hcl_field_pitch(xy));
  hcl_arg_ulong(&a, (size_t)hcl_field_pitch(xy) * hcl_field_rows(xy));
  hcl_arg_mem(&a, weights);
  TRY(hcl_kernel_launch(rt, &a, hcl_kernel_grid(rt, l->nx, l->ny, WG_X, WG_Y),
                        (2.0 * (order + 1) * (order + 1) + MAPPING_PLANES) * l->nx * l->ny *
                            hcl_precision_bytes(precision)));
  TRY(check_jacobian(map, stride_x, stride_y, dst, first_plane));
cleanup:
  hcl_program_release(&program, &kernel, 1);
  if (weights) {
    clReleaseMemObject(weights);
  }
  hcl_field_destroy(&xy);
  return status;
}

HclStatus hcl_mapping_mean_spacing(const Mapping *map, const Decomp *decomp, double *dx, double *dy) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = hcl_decomp_local(decomp);
  const DecompSpec *g = hcl_decomp_spec(decomp);
  double sums[2];
  hcl_mapping_spacing_sums(map, l->x0, l->y0, l->nx, l->ny, sums);
  TRY(hcl_par_sum_doubles(sums, 2));
  *dx = sums[0] / ((double)g->nx * g->ny);
  *dy = sums[1] / ((double)g->nx * g->ny);
cleanup:
  return status;
}
