/* SPDX-License-Identifier: BSD-3-Clause */
/* fd.c: finite-difference weights (see fd.h). */
#include "fd.h"

#include <stdlib.h>
#include <string.h>

/* Fornberg (1998), section 3: the weights for node set x[0 .. i] follow from those for x[0 .. i - 1]; c1 is the
 * product of (x[i - 1] - x[j]) over j < i - 1, c4 and c5 the offsets of the newest and the previous node from z. */
HclStatus hcl_fd_weights(double z, const double *x, int n, int max_derivative, double *weights) {
  HclStatus status = HCL_OK;
  int m = max_derivative, stride = n;
  REQUIRE(n >= 1 && m >= 0, HCL_EDATA,
          "finite-difference weights need at least one node (got %d) and a derivative >= 0 (got %d)", n, m);
  memset(weights, 0, sizeof *weights * (size_t)(m + 1) * n);
  double c1 = 1, c4 = x[0] - z;
  weights[0] = 1;
  for (int i = 1; i < n; i++) {
    int top = i < m ? i : m;
    double c2 = 1, c5 = c4;
    c4 = x[i] - z;
    for (int j = 0; j < i; j++) {
      double c3 = x[i] - x[j];
      REQUIRE(c3 != 0, HCL_EDATA, "finite-difference nodes %d and %d coincide (x = %g)", j, i, x[i]);
      c2 *= c3;
      if (j == i - 1) {
        for (int k = top; k >= 1; k--) {
          weights[k * stride + i] =
              c1 * (k * weights[(k - 1) * stride + i - 1] - c5 * weights[k * stride + i - 1]) / c2;
        }
        weights[i] = -c1 * c5 * weights[i - 1] / c2;
      }
      for (int k = top; k >= 1; k--) {
        weights[k * stride + j] = (c4 * weights[k * stride + j] - k * weights[(k - 1) * stride + j]) / c3;
      }
      weights[j] = c4 * weights[j] / c3;
    }
    c1 = c2;
  }
cleanup:
  return status;
}

/* The weights of the n-node stencil from x[first] at x[i], into slots from slot of the stored stencil. */
static HclStatus put_stencil(const double *x, int i, int first, int nodes, int slot, FdStencils *s) {
  HclStatus status = HCL_OK;
  double weights[3 * (FD_WIDTH_MAX + 1)];
  TRY(hcl_fd_weights(x[i], x + first, nodes, 2, weights));
  memcpy(s->d1 + (size_t)i * s->width + slot, weights + nodes, sizeof *weights * nodes);
  memcpy(s->d2 + (size_t)i * s->width + slot, weights + 2 * nodes, sizeof *weights * nodes);
cleanup:
  return status;
}

HclStatus hcl_fd_stencils_create(const double *x, int n, int order, FdStencils *out) {
  HclStatus status = HCL_OK;
  FdStencils s = {.n = n, .order = order, .width = order + 2};
  memset(out, 0, sizeof *out);
  REQUIRE(order == 2 || order == 4 || order == 6 || order == 8, HCL_EDATA,
          "finite-difference order %d: allowed are 2, 4, 6 and 8", order);
  REQUIRE(n >= s.width, HCL_EDATA, "a grid of %d points is too short for order-%d stencils, which need %d", n, order,
          s.width);
  for (int i = 1; i < n; i++) {
    REQUIRE(x[i] > x[i - 1], HCL_EDATA, "grid points %d and %d are not increasing (%g, then %g)", i - 1, i, x[i - 1],
            x[i]);
  }
  TRY_ALLOC(s.first, n);
  TRY_ALLOC(s.d1, (size_t)n * s.width);
  TRY_ALLOC(s.d2, (size_t)n * s.width);
  int half = order / 2;
  for (int i = 0; i < n; i++) {
    int first = i - half;
    if (first >= 0 && first + order < n) { /* centred, order + 1 nodes; the zero slot after them, or before */
      int pad_before = first + s.width > n;
      s.first[i] = first - pad_before;
      TRY(put_stencil(x, i, first, order + 1, pad_before, &s));
    } else { /* shifted inside, order + 2 nodes */
      first = first < 0 ? 0 : n - s.width;
      s.first[i] = first;
      TRY(put_stencil(x, i, first, s.width, 0, &s));
    }
  }
  *out = s;
  s = (FdStencils){0};
cleanup:
  hcl_fd_stencils_free(&s);
  return status;
}

void hcl_fd_stencils_free(FdStencils *s) {
  free(s->first);
  free(s->d1);
  free(s->d2);
  *s = (FdStencils){0};
}
