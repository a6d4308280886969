/* SPDX-License-Identifier: BSD-3-Clause */
/* wave_shapes.h: the still-water depths of the wave model's validation cases (issue 8), in one place for the case
 * files (bed.shape), the tests and the benchmarks.
 *
 * Submerged bar (S. Beji and J. A. Battjes, "Experimental investigation of wave propagation over a bar", Coastal
 * Engineering 19, 1993; M. W. Dingemans, "Comparison of computations with Boussinesq-like models and laboratory
 * measurements", MAST G8-M report H1684, 1994, case A): 0.4 m deep, a 1:20 slope up from x = 6 m to the 0.1 m deep
 * crest at x = 12 m, flat to x = 14 m, a 1:10 slope down to 0.4 m at x = 17 m (x from the wave paddle). The gauges
 * of the experiment stand at HCL_WAVE_BAR_GAUGES.
 *
 * Whalin's shoal (R. W. Whalin, "The limit of applicability of linear wave refraction theory in a convergence
 * zone", U.S. Army Corps of Engineers, WES report H-71-3, 1971): a basin 6.096 m wide, 0.4572 m deep, a shoal rising
 * as a 1:25 slope across a line that curves with y to a 0.1524 m deep shelf,
 *   h = 0.4572                         for x <= 10.67 - G(y)
 *   h = 0.4572 + (10.67 - G - x) / 25  for 10.67 - G < x < 18.29 - G
 *   h = 0.1524                         beyond,            G(y) = sqrt(y (6.096 - y)),
 * x along the basin (m), y across it from one side wall (0 .. 6.096 m; the centreline is y = 3.048 m). */
#ifndef HYDROCL_WAVE_SHAPES_H
#define HYDROCL_WAVE_SHAPES_H

enum { WAVE_BAR_NGAUGES = 9 };
extern const double
    HCL_WAVE_BAR_GAUGES[WAVE_BAR_NGAUGES]; /* x [m]: 4.0, 10.5, 12.5, 13.5, 14.5, 15.7, 17.3, 19.0, 21.0 */

#define WAVE_WHALIN_WIDTH 6.096

double hcl_wave_bar_depth(double x);
double hcl_wave_whalin_depth(double x, double y);

#endif
