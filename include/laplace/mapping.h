/* SPDX-License-Identifier: BSD-3-Clause */
/* mapping.h: curvilinear horizontal grids (../shared/papers/fnpf-multigpu-scalability.txt section 2, eqs. 6-9): the
 * logically rectangular grid of the decomposition, point (i, j), mapped to the physical plane, (x, y) = X(i, j), and
 * the metric terms with which the solvers turn derivatives along the grid's index directions (xi = i, gamma = j, unit
 * computational spacing) into physical ones:
 *   u_x = xi_x u_xi + gamma_x u_gamma,   u_y = xi_y u_xi + gamma_y u_gamma                                   (6)
 *   xi_x = y_gamma / J,  xi_y = -x_gamma / J,  gamma_x = -y_xi / J,  gamma_y = x_xi / J                      (7)
 *   J = x_xi y_gamma - x_gamma y_xi                                                                           (8)
 *   u_xx + u_yy = g11 u_xixi + 2 g12 u_xigamma + g22 u_gammagamma + L_xi u_xi + L_gamma u_gamma
 * with g11 = |grad xi|^2, g12 = grad xi . grad gamma, g22 = |grad gamma|^2, L_xi = lap xi and L_gamma = lap gamma
 * (the second-order counterpart of eq. 9). The derivatives of x and y are the centred finite differences of the
 * solver's order (fd.h), the mixed one their tensor product; L_xi and L_gamma follow from the last line applied to
 * u = x and u = y, whose Laplacians vanish:
 *   x_xi L_xi + x_gamma L_gamma = -(g11 x_xixi + 2 g12 x_xigamma + g22 x_gammagamma), and the same for y,
 * so that the discrete Laplacian of any linear function of (x, y) is zero to rounding, as it is on a Cartesian grid.
 * A Cartesian grid of spacing dx, dy is the map x = i dx, y = j dy (xi_x = 1/dx, g11 = 1/dx^2, the rest 0).
 *
 * The map is a function of the global index, defined beyond the grid as far as the stencils reach: across a
 * periodic side it continues the grid (an O-grid's angle wraps; a periodic channel adds its period), across a wall
 * it extends the grid smoothly (the solvers mirror their fields there, which imposes the no-flux condition n . grad
 * u = 0 of eq. 10 exactly where the grid lines meet the wall at right angles, as an O-grid's do: eq. 11's normal is
 * then the grid direction itself). Coarse levels of a multigrid pass a stride: their point I is the map's point
 * stride I. Every call is collective over the decomposition. The map itself, the built-in maps and the way back
 * from a physical point to the grid are gridmap.h's. */
#ifndef HYDROCL_MAPPING_H
#define HYDROCL_MAPPING_H

#include "decomp.h"
#include "field.h"
#include "gridmap.h"
#include "status.h"

/* The planes of a metric field (hcl_mapping_write_metrics), in this order; the first MAPPING_OPERATOR_PLANES are what
 * the operators read. */
enum {
  MAPPING_XI_X,
  MAPPING_XI_Y,
  MAPPING_GAMMA_X,
  MAPPING_GAMMA_Y,
  MAPPING_G11,
  MAPPING_G12,
  MAPPING_G22,
  MAPPING_L_XI,
  MAPPING_L_GAMMA,
  MAPPING_JACOBIAN,
  MAPPING_PLANES,
  MAPPING_OPERATOR_PLANES = MAPPING_JACOBIAN
};

/* The metric terms of map at this rank's owned points of dst (any precision; its decomposition's point I is the
 * map's point stride I), from centred differences of the given order (2, 4, 6 or 8), into planes first_plane ..
 * first_plane + MAPPING_PLANES - 1 of dst; its ghosts are left as they are. A point where the map folds or
 * degenerates (J <= 0, or not finite) is HCL_EDATA naming the map, the point and its position; every rank learns
 * the first. The coordinates are taken relative to the map's point (0, 0), so that a grid in projected
 * coordinates (millions of metres) keeps its spacing's digits in single precision. */
HclStatus hcl_mapping_write_metrics(const Mapping *map, int order, int stride_x, int stride_y, Field *dst,
                                    int first_plane);

/* The mean physical spacing along each index direction over the whole grid, |X(i + 1, j) - X(i, j)| and
 * |X(i, j + 1) - X(i, j)| averaged over the decomposition's points (stride 1): what a multigrid compares with the
 * vertical spacing to choose its coarsening. Collective. */
HclStatus hcl_mapping_mean_spacing(const Mapping *map, const Decomp *decomp, double *dx, double *dy);

#endif
