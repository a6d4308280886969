/* laplace_problem.h: test problems of the potential-flow Laplace solver (laplace.h) with known solutions, on this
 * rank's block of a global grid.
 *
 * The manufactured problem: the harmonic potential phi(x, y, z) = cosh(k (z + h0)) cos(kx x) cos(ky y),
 * k^2 = kx^2 + ky^2, under a free surface eta = a_eta cos(kx x) cos(2 ky y) over a bottom
 * h = h0 + a_h cos(kx x) cos(ky y), with kx = waves pi / lx, ky = waves pi / ly (0 on a flume of one point in y).
 * Every function is even about x = 0, lx and y = 0, ly, so the solver's mirrored walls hold exactly, and
 * lx-periodic when waves is even. phi satisfies eq. 4b with f = 0; the bottom condition gets the source f_b = phi_z + grad(h).grad(phi)
 * at z = -h, since phi does not satisfy the homogeneous one over a varying bottom. */
#ifndef HYDROCL_TEST_LAPLACE_PROBLEM_H
#define HYDROCL_TEST_LAPLACE_PROBLEM_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#define LP_PI 3.14159265358979323846

typedef struct {
  int nx, ny;            /* global points */
  bool periodic;         /* both directions; else walls */
  double lx, ly;         /* domain lengths */
  double h0, a_h, a_eta; /* depth and the amplitudes of its and the surface's variation */
  int waves;             /* half wavelengths of every function over the domain */
} LaplaceProblem;

static inline double lp_dx(const LaplaceProblem *p) {
  return p->periodic ? p->lx / p->nx : p->lx / (p->nx - 1);
}

static inline double lp_dy(const LaplaceProblem *p) {
  return p->ny == 1 ? 1 : p->periodic ? p->ly / p->ny : p->ly / (p->ny - 1);
}

typedef struct {
  double h, hx, hy, eta;
} LpColumn;

static inline LpColumn lp_column(const LaplaceProblem *p, double x, double y) {
  double ax = p->waves * LP_PI / p->lx, ay = p->ny > 1 ? p->waves * LP_PI / p->ly : 0;
  LpColumn c;
  c.h = p->h0 + p->a_h * cos(ax * x) * cos(ay * y);
  c.hx = -p->a_h * ax * sin(ax * x) * cos(ay * y);
  c.hy = -p->a_h * ay * cos(ax * x) * sin(ay * y);
  c.eta = p->a_eta * cos(ax * x) * cos(2 * ay * y);
  return c;
}

/* phi and its gradient at (x, y, z). */
static inline void lp_potential(const LaplaceProblem *p, double x, double y, double z, double grad[3], double *phi) {
  double kx = p->waves * LP_PI / p->lx, ky = p->ny > 1 ? p->waves * LP_PI / p->ly : 0, k = hypot(kx, ky);
  double ch = cosh(k * (z + p->h0)), sh = sinh(k * (z + p->h0));
  *phi = ch * cos(kx * x) * cos(ky * y);
  grad[0] = -kx * ch * sin(kx * x) * cos(ky * y);
  grad[1] = -ky * ch * cos(kx * x) * sin(ky * y);
  grad[2] = k * sh * cos(kx * x) * cos(ky * y);
}

/* This rank's block (x0, y0, nx, ny) of h, eta and phi at the surface, the exact Phi at the nz + 1 sigma nodes
 * (plane 0 the ghost at -sigma[1]) and the sources (plane 0 f_b, the others 0); any output may be NULL. */
static inline void lp_fill(const LaplaceProblem *p, const double *sigma, int nz, int x0, int y0, int nx, int ny,
                           double *h, double *eta, double *phi_surface, double *potential, double *source) {
  size_t plane = (size_t)nx * ny;
  for (int j = 0; j < ny; j++) {
    for (int i = 0; i < nx; i++) {
      double x = (x0 + i) * lp_dx(p), y = (y0 + j) * lp_dy(p), grad[3], value;
      size_t at = (size_t)j * nx + i;
      LpColumn c = lp_column(p, x, y);
      double d = c.h + c.eta;
      if (h) {
        h[at] = c.h;
      }
      if (eta) {
        eta[at] = c.eta;
      }
      if (phi_surface) {
        lp_potential(p, x, y, c.eta, grad, &phi_surface[at]);
      }
      for (int q = 0; potential && q <= nz; q++) {
        double s = q == 0 ? -sigma[1] : sigma[q - 1];
        lp_potential(p, x, y, s * d - c.h, grad, &potential[q * plane + at]);
      }
      if (source) {
        lp_potential(p, x, y, -c.h, grad, &value);
        source[at] = grad[2] + c.hx * grad[0] + c.hy * grad[1];
        for (int q = 1; q <= nz; q++) {
          source[q * plane + at] = 0;
        }
      }
    }
  }
}

#endif
