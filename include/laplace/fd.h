/* SPDX-License-Identifier: BSD-3-Clause */
/* fd.h: finite-difference weights of flexible order on arbitrarily spaced 1D grids, for the potential-flow Laplace
 * solver and the wave model (../shared/papers/fnpf-gpu-model.txt, section 3, eqs. 7 and 8).
 *
 * hcl_fd_weights is Fornberg's algorithm (B. Fornberg, "Calculation of weights in finite difference formulas", SIAM
 * Review 40, 1998): the weights of every derivative up to a given one at a point z from any distinct nodes. A
 * stencil of r nodes reproduces the derivatives of every polynomial of degree below r exactly; its error on a smooth
 * function is of order r - 1 for a centred stencil and r - q off-centre (q the derivative). fd_stencils builds, for
 * every point of a grid, the r = order + 1 point stencil centred on it, and near the ends, where it cannot be
 * centred, an r = order + 2 point stencil shifted inside (one point more than the paper's off-centred stencils of
 * the same size, so that the second derivative keeps the design order there too), with the weights of the first
 * and second derivatives: computed on the host once, then kept on the device. */
#ifndef HYDROCL_FD_H
#define HYDROCL_FD_H

#include "status.h"

enum { FD_ORDER_MAX = 8, FD_WIDTH_MAX = FD_ORDER_MAX + 2 };

/* weights[q * n + j]: the weight of f(x[j]) in the q-th derivative at z, q = 0 .. max_derivative, from the n
 * distinct nodes x. HCL_EDATA when two nodes coincide. */
HclStatus hcl_fd_weights(double z, const double *x, int n, int max_derivative, double *weights);

/* The stencils of a grid x[0 .. n - 1] (strictly increasing, n >= order + 2) of the given even order (2, 4, 6 or 8):
 * point i's stencil is the width = order + 2 points from first[i]; d1 and d2 hold their weights, width per point
 * (a centred stencil has a zero weight at one end). */
typedef struct {
  int n, order, width; /* width = order + 2 */
  int *first;          /* n */
  double *d1, *d2;     /* n * width */
} FdStencils;

/* HCL_EDATA for an order not offered, a grid too short for it, or nodes not strictly increasing (naming what). */
HclStatus hcl_fd_stencils_create(const double *x, int n, int order, FdStencils *out);
void hcl_fd_stencils_free(FdStencils *s);

#endif
