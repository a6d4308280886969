/* SPDX-License-Identifier: BSD-3-Clause */
/* test_rrb_permute.c: the device copies between a field and the r1/r2/b1/b2 storage (rrb_layout.h,
 * kernels_cl/rrb.cl) put every point where the host's hcl_rrb_layout_index says, and bring it back, bit for bit, in
 * float and double, on grids of several shapes (one point, odd and prime sides, a last level of several points). */
#include <stdlib.h>

#include "par.h"
#include "rrb_layout.h"
#include "../support/support.h"
#include "../support/tap.h"

/* A value per point that float holds exactly. */
static double value(int i, int j) {
  return 1000.0 * j + i + 0.5;
}

static void check(Runtime *rt, int nx, int ny, int final_nodes, Precision precision) {
  RrbLayout layout;
  Decomp *decomp = NULL;
  Field *field = NULL;
  RrbPermute *permute = NULL;
  cl_mem buffer = NULL;
  size_t bytes = 0, n = (size_t)nx * ny;
  double *natural = malloc(n * sizeof *natural), *back = calloc(n, sizeof *back);
  void *stored = NULL;
  DecompSpec spec = {.nx = nx, .ny = ny};
  FieldSpec fs = {.name = "v", .nz = 1, .ghost = 1, .precision = precision};
  for (int j = 0; j < ny; j++) {
    for (int i = 0; i < nx; i++) {
      natural[(size_t)j * nx + i] = value(i, j);
    }
  }
  hcl_status_clear();
  HclStatus s = hcl_rrb_layout_create(nx, ny, 99, final_nodes, &layout);
  s = s == HCL_OK ? hcl_decomp_create(&spec, &decomp) : s;
  s = s == HCL_OK ? hcl_field_create(rt, decomp, &fs, &field) : s;
  s = s == HCL_OK ? hcl_rrb_permute_create(rt, &layout, precision, &permute) : s;
  bytes = n * hcl_precision_bytes(precision);
  s = s == HCL_OK ? hcl_runtime_buffer(rt, bytes, "layout", &buffer) : s;
  s = s == HCL_OK ? hcl_field_write_owned(field, natural) : s;
  s = s == HCL_OK ? hcl_rrb_to_layout(permute, field, buffer) : s;
  stored = malloc(bytes);
  if (s == HCL_OK &&
      clEnqueueReadBuffer(hcl_runtime_queue(rt), buffer, CL_TRUE, 0, bytes, stored, 0, NULL, NULL) != CL_SUCCESS) {
    s = HCL_EOPENCL;
  }
  bool placed = s == HCL_OK;
  for (int j = 0; j < ny && placed; j++) {
    for (int i = 0; i < nx; i++) {
      size_t at = hcl_rrb_layout_index(&layout, i, j);
      double got = precision == PRECISION_DOUBLE ? ((double *)stored)[at] : ((float *)stored)[at];
      placed = placed && got == value(i, j);
    }
  }
  s = s == HCL_OK ? hcl_field_write_owned(field, back) : s; /* zeros */
  s = s == HCL_OK ? hcl_rrb_from_layout(permute, buffer, field) : s;
  s = s == HCL_OK ? hcl_field_read_owned(field, back) : s;
  bool returned = s == HCL_OK;
  for (size_t p = 0; p < n && returned; p++) {
    returned = back[p] == natural[p];
  }
  TAP_OK(placed && returned, "%d x %d (last level up to %d points), %s: %d levels; placed %s, back %s %s", nx, ny,
         final_nodes, hcl_precision_name(precision), layout.nlevels, placed ? "exactly" : "WRONG",
         returned ? "exactly" : "WRONG", hcl_status_message());
  if (buffer) {
    clReleaseMemObject(buffer);
  }
  hcl_rrb_permute_destroy(&permute);
  hcl_field_destroy(&field);
  hcl_decomp_destroy(&decomp);
  free(natural);
  free(back);
  free(stored);
}

int main(void) {
  Runtime *rt = NULL;
  HclStatus s = hcl_par_init(NULL, NULL);
  s = s == HCL_OK ? test_open_runtime(true, &rt) : s;
  if (TAP_OK(s == HCL_OK, "a device with fp64 %s", hcl_status_message())) {
    const int shapes[][3] = {{1, 1, 1}, {13, 9, 1}, {97, 89, 16}, {64, 1, 1}, {256, 256, 1}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
      check(rt, shapes[k][0], shapes[k][1], shapes[k][2], PRECISION_SINGLE);
      check(rt, shapes[k][0], shapes[k][1], shapes[k][2], PRECISION_DOUBLE);
    }
  }
  hcl_runtime_destroy(&rt);
  hcl_par_finalize();
  return tap_done();
}
