/* SPDX-License-Identifier: BSD-3-Clause */
/* poisson.h: the model problem of ../shared/papers/rrb-pcg-gpu.txt (section 3.3, after Brand's model problem 2):
 * -Laplace u = f on the unit square, u = 0 on its boundary, u = x (x - 1) y (y - 1) e^{xy}, on N x N interior
 * points of spacing h = 1 / (N + 1), the 5-point stencil with its rows scaled by h^2 (centre 4, couplings -1,
 * none towards the boundary). Used by `hydrocl solve-poisson` and the solver tests.
 *
 * For weak-scaling runs (bench scaling) the same problem on a rectangle of the same spacing: Nx x Ny interior points,
 * h = 1 / (min(Nx, Ny) + 1), the domain [0, a] x [0, b] with a = (Nx + 1) h, b = (Ny + 1) h, and
 * u = x (x - a) y (y - b) e^{xy}. On a square it is the paper's problem, to the bit. */
#ifndef HYDROCL_POISSON_H
#define HYDROCL_POISSON_H

typedef struct {
  int nx, ny;  /* interior points */
  double h;    /* their spacing */
  double a, b; /* the domain's sides */
} PoissonDomain;

PoissonDomain hcl_poisson_domain(int nx, int ny);

/* The exact solution at (x, y). */
double hcl_poisson_exact(const PoissonDomain *d, double x, double y);

/* The block of interior points (x0 .. x0 + nx - 1, y0 .. y0 + ny - 1) of d: centre, east and north couplings and
 * right-hand side h^2 f, each nx * ny, x fastest. */
void hcl_poisson_block(const PoissonDomain *d, int x0, int y0, int nx, int ny, double *centre, double *east,
                       double *north, double *rhs);

#endif
