/* SPDX-License-Identifier: BSD-3-Clause */
/* fit.h: the observed order of convergence of a convergence test (STYLE.md: four or more resolutions, the order
 * fitted by least squares). */
#ifndef HYDROCL_TEST_FIT_H
#define HYDROCL_TEST_FIT_H

#include <math.h>

/* The least-squares slope of log(error) against log(h) over n resolutions. */
static inline double test_fitted_order(const double *h, const double *error, int n) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int k = 0; k < n; k++) {
    double x = log(h[k]), y = log(error[k]);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

#endif
