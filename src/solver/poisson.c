/* poisson.c: the RRB paper's model problem (see poisson.h). */
#include "poisson.h"

#include <math.h>

double poisson_exact(double x, double y) {
  return x * (x - 1) * y * (y - 1) * exp(x * y);
}

/* f = -Laplace u for u = X(x) Y(y) e^{xy}, X = x (x - 1), Y = y (y - 1):
 * u_xx = (X'' + 2 y X' + y^2 X) Y e^{xy} with X' = 2 x - 1, X'' = 2; u_yy likewise. */
static double forcing(double x, double y) {
  double e = exp(x * y), big_x = x * (x - 1), big_y = y * (y - 1);
  double uxx = e * big_y * (2 + 2 * y * (2 * x - 1) + y * y * big_x);
  double uyy = e * big_x * (2 + 2 * x * (2 * y - 1) + x * x * big_y);
  return -(uxx + uyy);
}

void poisson_block(int n, int x0, int y0, int nx, int ny, double *centre, double *east, double *north, double *rhs) {
  double h = 1.0 / (n + 1);
  for (int j = 0; j < ny; j++) {
    for (int i = 0; i < nx; i++) {
      int gi = x0 + i, gj = y0 + j, p = j * nx + i;
      centre[p] = 4;
      east[p] = gi + 1 < n ? -1 : 0;
      north[p] = gj + 1 < n ? -1 : 0;
      rhs[p] = h * h * forcing((gi + 1) * h, (gj + 1) * h);
    }
  }
}
