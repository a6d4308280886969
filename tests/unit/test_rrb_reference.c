/* SPDX-License-Identifier: BSD-3-Clause */
/* test_rrb_reference.c: the host reference of the RRB preconditioner (rrb_reference.h) behaves as the paper and
 * Brand's theory say: M^-1 is symmetric positive definite; M = S exactly where nothing is lumped (a 2 x 2 grid, or
 * one level: the whole matrix by Cholesky); PCG with it solves random variable-coefficient systems of any shape
 * (1 x 1, 1 x N, odd and prime sizes, strong anisotropy, islands of zero-flux rows) to the host's direct solution;
 * a matrix that is not positive definite is refused in the factorization; and on the paper's model problem the
 * error falls as h^2 while the iteration count grows only slowly (multigrid-like), far below plain CG's. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "poisson.h"
#include "../support/rrb_reference.h"
#include "../support/tap.h"

static double max_abs_difference(const double *a, const double *b, size_t n) {
  double worst = 0;
  for (size_t k = 0; k < n; k++) {
    worst = fmax(worst, fabs(a[k] - b[k]));
  }
  return worst;
}

/* x^T M^-1 y = y^T M^-1 x to rounding and x^T M^-1 x > 0, on random vectors. */
static void check_spd(const Stencil5 *s, const RrbFactor *f, const char *what) {
  size_t n = (size_t)s->nx * s->ny;
  double *x = calloc(n, sizeof *x), *y = calloc(n, sizeof *y), *mx = calloc(n, sizeof *mx), *my = calloc(n, sizeof *my);
  unsigned long long seed = 99;
  for (size_t k = 0; k < n; k++) {
    x[k] = test_uniform(&seed) - 0.5;
    y[k] = test_uniform(&seed) - 0.5;
  }
  reference_apply(f, x, mx);
  reference_apply(f, y, my);
  double xmy = 0, ymx = 0, xmx = 0, scale = 0;
  for (size_t k = 0; k < n; k++) {
    xmy += x[k] * my[k];
    ymx += y[k] * mx[k];
    xmx += x[k] * mx[k];
    scale += fabs(x[k] * my[k]) + fabs(y[k] * mx[k]);
  }
  /* Both sides sum the same products in another order: they agree to a few ulps of the sum of magnitudes. */
  TAP_OK(fabs(xmy - ymx) <= 1e-13 * scale && xmx > 0, "%s: M^-1 symmetric (%.2e of %.2e) and positive (%.3e)", what,
         fabs(xmy - ymx), scale, xmx);
  free(x);
  free(y);
  free(mx);
  free(my);
}

/* M^-1 S x = x on a random x: the factorization is exact. */
static double exactness(const Stencil5 *s, const RrbFactor *f) {
  size_t n = (size_t)s->nx * s->ny;
  double *x = calloc(n, sizeof *x), *sx = calloc(n, sizeof *sx), *back = calloc(n, sizeof *back);
  unsigned long long seed = 5;
  for (size_t k = 0; k < n; k++) {
    x[k] = test_uniform(&seed) - 0.5;
  }
  stencil_apply(s, x, sx);
  reference_apply(f, sx, back);
  double error = max_abs_difference(x, back, n);
  free(x);
  free(sx);
  free(back);
  return error;
}

static void factor_properties(void) {
  Stencil5 s;
  RrbFactor f;
  const char *why = "";
  stencil_alloc(2, 2, &s);
  test_islands_stencil(&s, 1, 1, 0.1, false, 1);
  bool ok = reference_factor(&s, 99, 1, &f, &why);
  /* A 2 x 2 grid: the black nodes' fill joins the two red nodes diagonally, nothing at distance 2 to lump, and the
   * last red node is the exact last level. Rounding only: 1e-12 for these O(1) entries. */
  TAP_OK(ok && f.nlevels == 1 && exactness(&s, &f) < 1e-12, "2 x 2: one RRB level and M = S (%.2e) %s",
         ok ? exactness(&s, &f) : -1.0, ok ? "" : why);
  reference_free(&f);
  stencil_free(&s);

  stencil_alloc(13, 9, &s);
  test_islands_stencil(&s, 1, 1, 0.1, false, 2);
  ok = reference_factor(&s, 1, 1, &f, &why);
  TAP_OK(ok && f.nlevels == 0 && exactness(&s, &f) < 1e-10, "RRB-1 (the whole matrix by Cholesky): M = S (%.2e)",
         ok ? exactness(&s, &f) : -1.0);
  reference_free(&f);
  ok = reference_factor(&s, 99, 1, &f, &why);
  TAP_OK(ok && f.nlevels >= 3 && exactness(&s, &f) > 1e-6,
         "13 x 9 to one node: %d levels, lumped, so M differs from S (%.2e)", f.nlevels, exactness(&s, &f));
  check_spd(&s, &f, "13 x 9");
  reference_free(&f);
  stencil_free(&s);

  stencil_alloc(31, 17, &s);
  test_islands_stencil(&s, 1, 1e-3, 1e-3, true, 3);
  ok = reference_factor(&s, 99, 4, &f, &why);
  check_spd(&s, &f, "31 x 17, anisotropic 1000:1, islands, barely dominant");
  reference_free(&f);

  test_islands_stencil(&s, 1, 1, 0.1, false, 4);
  s.c[5 * 31 + 7] = -1.0;
  ok = reference_factor(&s, 99, 4, &f, &why);
  TAP_OK(!ok && strstr(why, "not positive definite") != NULL, "a negative centre is refused in the setup: %s", why);
  reference_free(&f);
  stencil_free(&s);
}

/* Steps A and B in gather form (what device kernels compute per point) against the factorization's scatter, on
 * every level of random systems of several shapes (step B up to the last level, whose stencil is not kept): the
 * same sums in another order, so equal to 1e-12 of the largest centre. */
static void gather_form(void) {
  const int shapes[][2] = {{1, 9}, {9, 1}, {2, 2}, {13, 9}, {31, 17}, {64, 64}};
  for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
    Stencil5 s;
    RrbFactor f;
    const char *why = "";
    stencil_alloc(shapes[k][0], shapes[k][1], &s);
    test_islands_stencil(&s, 1, 0.3, 0.05, k % 2 == 1, 40 + k);
    bool ok = reference_factor(&s, 99, 1, &f, &why);
    double worst = 0, scale = 0;
    int points = 0;
    for (int level = 0; ok && level < f.nlevels; level++) {
      const Stencil5 *straight;
      const double *centre, *ne, *nw;
      reference_level_rotated(&f, level, &straight, &centre, &ne, &nw);
      for (int j = 0; j < straight->ny; j++) {
        for (int i = j % 2; i < straight->nx; i += 2) {
          int p = j * straight->nx + i;
          double c, to_ne, to_nw;
          reference_gather_step_a(straight, i, j, &c, &to_ne, &to_nw);
          worst = fmax(worst, fmax(fabs(c - centre[p]), fmax(fabs(to_ne - ne[p]), fabs(to_nw - nw[p]))));
          scale = fmax(scale, fabs(centre[p]));
          points++;
        }
      }
      const Stencil5 *next; /* the next level's straight stencil, as step B scattered it */
      const double *next_rotated[3];
      reference_level_rotated(&f, level + 1, &next, &next_rotated[0], &next_rotated[1], &next_rotated[2]);
      for (int nj = 0; next && nj < next->ny; nj++) {
        for (int ni = 0; ni < next->nx; ni++) {
          int q = nj * next->nx + ni;
          double c, east, north;
          reference_gather_step_b(straight->nx, straight->ny, centre, ne, nw, ni, nj, &c, &east, &north);
          worst =
              fmax(worst, fmax(fabs(c - next->c[q]), fmax(fabs(east - next->east[q]), fabs(north - next->north[q]))));
          points++;
        }
      }
    }
    TAP_OK(ok && worst <= 1e-12 * scale,
           "%d x %d%s: steps A and B gathered at %d points of %d levels are steps A and B scattered (%.1e of %.1e)",
           s.nx, s.ny, k % 2 ? ", islands" : "", points, f.nlevels, worst, scale);
    reference_free(&f);
    stencil_free(&s);
  }
}

/* PCG against the direct solution (RRB-1, exact) of random systems of many shapes. */
static void random_systems(void) {
  const struct {
    int nx, ny;
    double ax, ay, margin;
    bool islands;
  } cases[] = {{1, 1, 1, 1, 1, false},        {1, 37, 1, 1, 0.01, false},  {37, 1, 1, 1, 0.01, false},
               {2, 3, 1, 1, 0.1, false},      {17, 13, 1, 1, 1e-3, false}, {31, 29, 1e-3, 1, 1e-4, false},
               {29, 31, 1, 1e-2, 1e-4, true}, {64, 64, 1, 1, 1e-4, true}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    Stencil5 s;
    RrbFactor rrb, exact;
    const char *why = "";
    stencil_alloc(cases[k].nx, cases[k].ny, &s);
    test_islands_stencil(&s, cases[k].ax, cases[k].ay, cases[k].margin, cases[k].islands, 10 + k);
    size_t n = (size_t)s.nx * s.ny;
    double *b = malloc(n * sizeof *b), *x = calloc(n, sizeof *x), *direct = malloc(n * sizeof *direct);
    unsigned long long seed = 77 + k;
    for (size_t p = 0; p < n; p++) {
      b[p] = test_uniform(&seed) - 0.5;
    }
    bool ok = reference_factor(&s, 99, 1, &rrb, &why) && reference_factor(&s, 1, 1, &exact, &why);
    int iterations = ok ? reference_pcg(&s, &rrb, b, x, 1e-12, 5000) : -1;
    if (ok) {
      reference_apply(&exact, b, direct);
    }
    /* Stopped at 1e-12 in the M^-1-norm: the solution to about 1e-12 of its own size times the condition the
     * margin leaves (at most 1e4 here): 1e-7 relative. */
    double scale = 0;
    for (size_t p = 0; p < n && ok; p++) {
      scale = fmax(scale, fabs(direct[p]));
    }
    double error = ok ? max_abs_difference(x, direct, n) / scale : -1;
    TAP_OK(ok && error < 1e-7 && iterations < 5000,
           "%d x %d (anisotropy %g:%g%s): PCG in %d iterations, %.2e from the direct solution %s", s.nx, s.ny,
           cases[k].ax, cases[k].ay, cases[k].islands ? ", islands" : "", iterations, error, ok ? "" : why);
    reference_free(&rrb);
    reference_free(&exact);
    stencil_free(&s);
    free(b);
    free(x);
    free(direct);
  }
}

/* The paper's model problem: -Laplace u = f on the unit square, u = 0 on the boundary, N x N interior nodes,
 * u = x (x - 1) y (y - 1) exp(x y). Returns the max-norm error and the iterations (PCG from zero to 1e-5 in the
 * M^-1-norm as the paper, then on to 1e-10 for the error); preconditioned by RRB down to a last level of at most
 * final_nodes nodes, factorized exactly. */
static double model_problem_on(int nx, int ny, bool preconditioned, int final_nodes, int *iterations) {
  Stencil5 s;
  RrbFactor f;
  const char *why = "";
  PoissonDomain domain = hcl_poisson_domain(nx, ny);
  double h = domain.h;
  size_t n = (size_t)nx * ny;
  stencil_alloc(nx, ny, &s);
  double *b = malloc(n * sizeof *b), *x = calloc(n, sizeof *x);
  hcl_poisson_block(&domain, 0, 0, nx, ny, s.c, s.east, s.north, b);
  bool ok = !preconditioned || reference_factor(&s, 99, final_nodes, &f, &why);
  *iterations = ok ? reference_pcg(&s, preconditioned ? &f : NULL, b, x, 1e-5, 10000) : -1;
  double *again = calloc(n, sizeof *again);
  if (ok) {
    reference_pcg(&s, preconditioned ? &f : NULL, b, again, 1e-10, 10000);
  }
  double error = 0;
  for (int j = 0; j < ny; j++) {
    for (int i = 0; i < nx; i++) {
      double xx = (i + 1) * h, yy = (j + 1) * h;
      error = fmax(error, fabs(again[(size_t)j * nx + i] - hcl_poisson_exact(&domain, xx, yy)));
    }
  }
  if (preconditioned && ok) {
    reference_free(&f);
  }
  stencil_free(&s);
  free(b);
  free(x);
  free(again);
  return ok ? error : -1;
}

static double model_problem(int n, bool preconditioned, int final_nodes, int *iterations) {
  return model_problem_on(n, n, preconditioned, final_nodes, iterations);
}

static void poisson(void) {
  enum { SIZES = 4 };
  const int sizes[SIZES] = {31, 63, 127, 255};
  int rrb[SIZES], rrb_k[SIZES], cg[SIZES];
  double error[SIZES];
  for (int k = 0; k < SIZES; k++) {
    error[k] = model_problem(sizes[k], true, 1, &rrb[k]);
    model_problem(sizes[k], true, 256, &rrb_k[k]);
    model_problem(sizes[k], false, 1, &cg[k]);
    tap_note("model problem %d^2: RRB-PCG %d iterations (last level of 256 nodes exact: %d), CG %d; max error %.3e",
             sizes[k], rrb[k], rrb_k[k], cg[k], error[k]);
  }
  /* Second order: h halves (N + 1 doubles), the error falls by 4; 3.5 leaves room for the O(h^4) remainder. */
  bool second_order = true;
  for (int k = 1; k < SIZES; k++) {
    second_order = second_order && error[k - 1] / error[k] > 3.5;
  }
  TAP_OK(second_order, "the error is O(h^2): %.2e, %.2e, %.2e, %.2e", error[0], error[1], error[2], error[3]);
  /* Multigrid-like (the paper's section 3.3): measured 9, 10, 11, 12 iterations, one more per doubling of N, where
   * CG's doubles (71 to 593). At most 3 more from 31^2 to 255^2, and fewer than a quarter of CG's at 255^2; the
   * lumping into the centres that the paper's words describe took 22, 37, 66, 114. */
  TAP_OK(rrb[SIZES - 1] <= rrb[0] + 3 && 4 * rrb[SIZES - 1] < cg[SIZES - 1],
         "RRB iterations grow slowly (%d, %d, %d, %d) and stay far below CG's (%d at 255^2)", rrb[0], rrb[1], rrb[2],
         rrb[3], cg[SIZES - 1]);
  /* RRB-k (section 2): each level of lumping left out saves about an iteration. A last level of 16 x 16 nodes
   * factorized exactly leaves out 4 levels at every size here (the last of 31^2 is 16 x 16 after one elimination);
   * measured 6, 7, 8, 9: at least 3 fewer at each size, and still growing by at most one per doubling. */
  bool fewer = true;
  for (int k = 0; k < SIZES; k++) {
    fewer = fewer && rrb_k[k] <= rrb[k] - 3 && (k == 0 || rrb_k[k] <= rrb_k[k - 1] + 1);
  }
  TAP_OK(fewer, "an exact last level of 256 nodes takes fewer iterations (%d, %d, %d, %d)", rrb_k[0], rrb_k[1],
         rrb_k[2], rrb_k[3]);
}

/* The rectangles of bench scaling's weak runs (poisson.h): 2:1 and 1:2 of the same spacing. The forcing is -Laplace u
 * of the stated u only if the discrete solution converges to u at second order, as on the square: the error falls
 * by 4 as h halves (3.5 leaves room for the O(h^4) remainder). */
static void poisson_rectangles(void) {
  int iterations;
  double wide[2] = {model_problem_on(63, 31, true, 1, &iterations), model_problem_on(127, 63, true, 1, &iterations)};
  double tall[2] = {model_problem_on(31, 63, true, 1, &iterations), model_problem_on(63, 127, true, 1, &iterations)};
  TAP_OK(wide[0] / wide[1] > 3.5 && tall[0] / tall[1] > 3.5,
         "the model problem on rectangles is O(h^2): 2:1 %.2e -> %.2e, 1:2 %.2e -> %.2e", wide[0], wide[1], tall[0],
         tall[1]);
}

int main(void) {
  factor_properties();
  gather_form();
  random_systems();
  poisson();
  poisson_rectangles();
  return tap_done();
}
