/* SPDX-License-Identifier: BSD-3-Clause */
/* poisson.c: the RRB paper's model problem (see poisson.h). */
#include "poisson.h"

#include <math.h>

PoissonDomain hcl_poisson_domain(int nx, int ny) {
  double h = 1.0 / ((nx < ny ? nx : ny) + 1);
  return (PoissonDomain){
      .nx = nx, .ny = ny, .h = h, .a = nx == ny ? 1 : (nx + 1) * h, .b = nx == ny ? 1 : (ny + 1) * h};
}

double hcl_poisson_exact(const PoissonDomain *d, double x, double y) {
  return x * (x - d->a) * y * (y - d->b) * exp(x * y);
}

/* f = -Laplace u for u = X(x) Y(y) e^{xy}, X = x (x - a), Y = y (y - b):
 * u_xx = (X'' + 2 y X' + y^2 X) Y e^{xy} with X' = 2 x - a, X'' = 2; u_yy likewise. */
static double forcing(const PoissonDomain *d, double x, double y) {
  double e = exp(x * y), big_x = x * (x - d->a), big_y = y * (y - d->b);
  double uxx = e * big_y * (2 + 2 * y * (2 * x - d->a) + y * y * big_x);
  double uyy = e * big_x * (2 + 2 * x * (2 * y - d->b) + x * x * big_y);
  return -(uxx + uyy);
}

void hcl_poisson_block(const PoissonDomain *d, int x0, int y0, int nx, int ny, double *centre, double *east,
                       double *north, double *rhs) {
  double h = d->h;
  for (int j = 0; j < ny; j++) {
    for (int i = 0; i < nx; i++) {
      int gi = x0 + i, gj = y0 + j, p = j * nx + i;
      centre[p] = 4;
      east[p] = gi + 1 < d->nx ? -1 : 0;
      north[p] = gj + 1 < d->ny ? -1 : 0;
      rhs[p] = h * h * forcing(d, (gi + 1) * h, (gj + 1) * h);
    }
  }
}
