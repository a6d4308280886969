/* SPDX-License-Identifier: BSD-3-Clause */
/* laplace_problem.h: test problems of the potential-flow Laplace solver (laplace.h) with known solutions, on this
 * rank's block of a global grid.
 *
 * The manufactured problem: the harmonic potential phi(x, y, z) = cosh(k (z + h0)) cos(kx x) cos(ky y),
 * k^2 = kx^2 + ky^2, under a free surface eta = a_eta cos(kx x) cos(2 ky y) over a bottom
 * h = h0 + a_h cos(kx x) cos(ky y), with kx = waves pi / lx, ky = waves pi / ly (0 on a flume of one point in y).
 * Every function is even about x = 0, lx and y = 0, ly, so the solver's mirrored walls hold exactly, and
 * lx-periodic when waves is even. phi satisfies eq. 4b with f = 0; the bottom condition gets the source f_b = phi_z + grad(h).grad(phi)
 * at z = -h, since phi does not satisfy the homogeneous one over a varying bottom. On a curvilinear grid (map) the
 * functions are the same functions of the physical (x, y) of each point. */
#ifndef HYDROCL_TEST_LAPLACE_PROBLEM_H
#define HYDROCL_TEST_LAPLACE_PROBLEM_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "laplace.h"

#define LP_PI 3.14159265358979323846

typedef struct {
  int nx, ny;            /* global points */
  bool periodic;         /* both directions; else walls */
  bool periodic_y;       /* y alone (an O-grid's angle, with a map) */
  double lx, ly;         /* domain lengths */
  double h0, a_h, a_eta; /* depth and the amplitudes of its and the surface's variation */
  int waves;             /* half wavelengths of every function over the domain */
  const Mapping *map;    /* a curvilinear grid of the domain (its point (i, j)), or NULL: the uniform grid */
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
      if (p->map) {
        p->map->point(p->map->ctx, x0 + i, y0 + j, &x, &y);
      }
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

/* ---- the solver on a problem (laplace.h) ---- */

typedef struct {
  Decomp *decomp;
  Laplace *laplace;
  Field *eta, *phi;
  double *h, *eta_host, *phi_host, *exact, *source; /* owned points; exact and source nz + 1 planes */
  int nz;
} LpSetup;

static inline void lp_setup_free(LpSetup *s) {
  hcl_laplace_destroy(&s->laplace);
  hcl_field_destroy(&s->eta);
  hcl_field_destroy(&s->phi);
  hcl_decomp_destroy(&s->decomp);
  free(s->h);
  free(s->eta_host);
  free(s->phi_host);
  free(s->exact);
  free(s->source);
  memset(s, 0, sizeof *s);
}

/* The solver for problem p with config c (dx, dy filled in here), eta and phi written, the bottom source set. */
static inline HclStatus lp_setup(Runtime *rt, const LaplaceProblem *p, LaplaceConfig c, bool with_source, LpSetup *s) {
  HclStatus status = HCL_OK;
  memset(s, 0, sizeof *s);
  DecompSpec spec = {.nx = p->nx, .ny = p->ny, .periodic_x = p->periodic, .periodic_y = p->periodic || p->periodic_y};
  TRY(hcl_decomp_create(&spec, &s->decomp));
  const DecompLocal *l = hcl_decomp_local(s->decomp);
  size_t plane = (size_t)l->nx * l->ny;
  s->nz = c.nz;
  c.dx = lp_dx(p);
  c.dy = lp_dy(p);
  c.map = p->map;
  TRY_ALLOC(s->h, plane);
  TRY_ALLOC(s->eta_host, plane);
  TRY_ALLOC(s->phi_host, plane);
  TRY_ALLOC(s->exact, plane * (c.nz + 1));
  TRY_ALLOC(s->source, plane * (c.nz + 1));
  lp_fill(p, (double[]){0, 1}, 1, l->x0, l->y0, l->nx, l->ny, s->h, NULL, NULL, NULL, NULL);
  TRY(hcl_laplace_create(rt, s->decomp, &c, s->h, &s->laplace));
  lp_fill(p, hcl_laplace_sigma(s->laplace), c.nz, l->x0, l->y0, l->nx, l->ny, NULL, s->eta_host, s->phi_host, s->exact,
          s->source);
  Precision outer = c.precision == LAPLACE_SINGLE ? PRECISION_SINGLE : PRECISION_DOUBLE;
  FieldSpec fs = {.name = "eta", .nz = 1, .ghost = 0, .precision = outer};
  TRY(hcl_field_create(rt, s->decomp, &fs, &s->eta));
  fs.name = "phi";
  TRY(hcl_field_create(rt, s->decomp, &fs, &s->phi));
  TRY(hcl_field_write_owned(s->eta, s->eta_host));
  TRY(hcl_field_write_owned(s->phi, s->phi_host));
  if (with_source) {
    TRY(hcl_laplace_set_source(s->laplace, s->source));
  }
cleanup:
  return status;
}

/* Largest |Phi - exact| over the nodes from sigma_0 to the surface, and largest |exact| there. */
static inline HclStatus lp_solution_error(LpSetup *s, double *error) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = hcl_decomp_local(s->decomp);
  size_t plane = (size_t)l->nx * l->ny, n = plane * (s->nz + 1);
  double *got = NULL;
  TRY_ALLOC(got, n);
  TRY(hcl_field_read_owned(hcl_laplace_potential(s->laplace), got));
  *error = 0;
  for (size_t k = plane; k < n; k++) {
    *error = fmax(*error, fabs(got[k] - s->exact[k]));
  }
cleanup:
  free(got);
  return status;
}

/* Largest |b - A Phi_exact| over all rows. */
static inline HclStatus lp_truncation_error(LpSetup *s, double *error) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = hcl_decomp_local(s->decomp);
  size_t n = (size_t)l->nx * l->ny * (s->nz + 1);
  double *res = NULL;
  TRY_ALLOC(res, n);
  TRY(hcl_laplace_set_potential(s->laplace, s->exact));
  TRY(hcl_laplace_compute_residual(s->laplace, s->eta, s->phi));
  TRY(hcl_field_read_owned(hcl_laplace_residual(s->laplace), res));
  *error = 0;
  for (size_t k = 0; k < n; k++) {
    *error = fmax(*error, fabs(res[k]));
  }
cleanup:
  free(res);
  return status;
}

#endif
