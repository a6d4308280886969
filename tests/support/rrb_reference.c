/* SPDX-License-Identifier: BSD-3-Clause */
/* rrb_reference.c: the RRB incomplete factorization and PCG on the host, in double (see rrb_reference.h). */
#include "rrb_reference.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One level: its grid (node (i, j) is node (i stride, j stride) of the first level), its straight stencil after
 * the earlier levels (c holds the black nodes' pivots), and after step A the rotated stencil on its red nodes:
 * centre rc (the r1 nodes' pivots), ne to (i + 1, j + 1) and nw to (i - 1, j + 1). */
struct RrbLevel {
  int nx, ny, stride;
  Stencil5 straight;
  double *rc, *ne, *nw;
};

/* A node's neighbours in one elimination step: level indices and couplings. */
typedef struct {
  int count;
  int node[4];
  double coupling[4];
} Neighbours;

bool stencil_alloc(int nx, int ny, Stencil5 *s) {
  size_t n = (size_t)nx * ny;
  s->nx = nx;
  s->ny = ny;
  s->c = calloc(n, sizeof *s->c);
  s->east = calloc(n, sizeof *s->east);
  s->north = calloc(n, sizeof *s->north);
  return s->c && s->east && s->north;
}

void stencil_free(Stencil5 *s) {
  free(s->c);
  free(s->east);
  free(s->north);
  memset(s, 0, sizeof *s);
}

void stencil_apply(const Stencil5 *s, const double *x, double *y) {
  for (int j = 0; j < s->ny; j++) {
    for (int i = 0; i < s->nx; i++) {
      int p = j * s->nx + i;
      double sum = s->c[p] * x[p];
      sum += i + 1 < s->nx ? s->east[p] * x[p + 1] : 0;
      sum += i > 0 ? s->east[p - 1] * x[p - 1] : 0;
      sum += j + 1 < s->ny ? s->north[p] * x[p + s->nx] : 0;
      sum += j > 0 ? s->north[p - s->nx] * x[p - s->nx] : 0;
      y[p] = sum;
    }
  }
}

/* The straight neighbours of (i, j) (step A: a black node's red neighbours, or a red node's black ones). */
static Neighbours straight_neighbours(const Stencil5 *s, int i, int j) {
  Neighbours n = {0};
  int p = j * s->nx + i;
  if (i > 0) {
    n.node[n.count] = p - 1, n.coupling[n.count++] = s->east[p - 1];
  }
  if (i + 1 < s->nx) {
    n.node[n.count] = p + 1, n.coupling[n.count++] = s->east[p];
  }
  if (j > 0) {
    n.node[n.count] = p - s->nx, n.coupling[n.count++] = s->north[p - s->nx];
  }
  if (j + 1 < s->ny) {
    n.node[n.count] = p + s->nx, n.coupling[n.count++] = s->north[p];
  }
  return n;
}

/* The rotated neighbours of red node (i, j) after step A: (i -+ 1, j - 1) and (i +- 1, j + 1). */
static Neighbours rotated_neighbours(const RrbLevel *l, int i, int j) {
  Neighbours n = {0};
  int p = j * l->nx + i;
  if (i > 0 && j > 0) {
    n.node[n.count] = p - l->nx - 1, n.coupling[n.count++] = l->ne[p - l->nx - 1];
  }
  if (i + 1 < l->nx && j > 0) {
    n.node[n.count] = p - l->nx + 1, n.coupling[n.count++] = l->nw[p - l->nx + 1];
  }
  if (i > 0 && j + 1 < l->ny) {
    n.node[n.count] = p + l->nx - 1, n.coupling[n.count++] = l->nw[p];
  }
  if (i + 1 < l->nx && j + 1 < l->ny) {
    n.node[n.count] = p + l->nx + 1, n.coupling[n.count++] = l->ne[p];
  }
  return n;
}

/* Adds value to the rotated coupling of red nodes a and b (diagonal neighbours). */
static void add_rotated(RrbLevel *l, int a, int b, double value) {
  int low = a < b ? a : b, high = a ^ b ^ low;
  if (high % l->nx > low % l->nx) {
    l->ne[low] += value;
  } else {
    l->nw[low] += value;
  }
}

/* Lumping of the fill between red nodes p and q at straight distance 2 (p the lower index): onto the two red nodes
 * m between them, diagonal neighbours of both: each coupling p-m and q-m gains fill / 2 and m's centre loses fill,
 * so every row sum is kept. A node m outside the grid takes its half into the centres of p and q instead. This is
 * the lumping that keeps the rotated stencil consistent with the operator for smooth modes: lumping all of it into
 * the centres of p and q (the paper's words) halves the Schur complement's smooth modes at every level, and the
 * condition number then grows like the number of nodes (host, Poisson: 2.8, 9.2, 34 on 7^2, 15^2, 31^2 nodes,
 * against 2.0, 2.9, 4.0 here). */
static void lump_rotated(RrbLevel *l, int p, int q, double fill) {
  int pi = p % l->nx, pj = p / l->nx;
  bool along_x = q / l->nx == pj; /* q = p + (2, 0); else q = p + (0, 2) */
  int between[2][2] = {{pi + 1, pj + 1}, {along_x ? pi + 1 : pi - 1, along_x ? pj - 1 : pj + 1}};
  for (int k = 0; k < 2; k++) {
    int mi = between[k][0], mj = between[k][1];
    if (mi < 0 || mi >= l->nx || mj < 0 || mj >= l->ny) {
      l->rc[p] += fill / 2;
      l->rc[q] += fill / 2;
      continue;
    }
    int m = mj * l->nx + mi;
    add_rotated(l, p, m, fill / 2);
    add_rotated(l, q, m, fill / 2);
    l->rc[m] -= fill;
  }
}

/* Adds value to the straight coupling of neighbours a and b of the next level's grid s. */
static void add_straight(Stencil5 *s, int a, int b, double value) {
  int low = a < b ? a : b, high = a ^ b ^ low;
  if (high - low == s->nx) {
    s->north[low] += value;
  } else {
    s->east[low] += value;
  }
}

/* The same for the diagonal fill between r2 nodes p and q of the next level's grid (p the lower index): onto the two
 * nodes between them, straight neighbours of both. They always exist. */
static void lump_straight(Stencil5 *s, int p, int q, double fill) {
  int across = q % s->nx, down = p / s->nx;
  int between[2] = {down * s->nx + across, p + s->nx};
  for (int k = 0; k < 2; k++) {
    add_straight(s, p, between[k], fill / 2);
    add_straight(s, q, between[k], fill / 2);
    s->c[between[k]] -= fill;
  }
}

/* Step A: eliminates the black nodes, leaving the rotated stencil on the red ones, the straight fill at distance 2
 * lumped (lump_rotated). */
static bool eliminate_black(RrbLevel *l, const char **why) {
  const Stencil5 *s = &l->straight;
  size_t n = (size_t)l->nx * l->ny;
  l->rc = malloc(n * sizeof *l->rc);
  l->ne = calloc(n, sizeof *l->ne);
  l->nw = calloc(n, sizeof *l->nw);
  if (!l->rc || !l->ne || !l->nw) {
    *why = "out of memory";
    return false;
  }
  memcpy(l->rc, s->c, n * sizeof *l->rc);
  for (int j = 0; j < l->ny; j++) {
    for (int i = (j + 1) % 2; i < l->nx; i += 2) {
      double d = s->c[j * l->nx + i];
      if (!(d > 0)) {
        *why = "a pivot of a black node is not positive: the matrix is not positive definite";
        return false;
      }
      Neighbours nb = straight_neighbours(s, i, j);
      for (int a = 0; a < nb.count; a++) {
        for (int b = a; b < nb.count; b++) {
          double fill = -nb.coupling[a] * nb.coupling[b] / d;
          int p = nb.node[a] < nb.node[b] ? nb.node[a] : nb.node[b], q = nb.node[a] ^ nb.node[b] ^ p;
          int dx = q % l->nx - p % l->nx, dy = q / l->nx - p / l->nx;
          if (p == q) {
            l->rc[p] += fill;
          } else if (dy == 1 && dx == 1) {
            l->ne[p] += fill;
          } else if (dy == 1 && dx == -1) {
            l->nw[p] += fill;
          } else { /* straight, at distance 2 */
            lump_rotated(l, p, q, fill);
          }
        }
      }
    }
  }
  return true;
}

/* Step B: eliminates the red nodes with i odd (r1), leaving a straight stencil on the nodes with i, j even (r2),
 * written as next (their grid), the diagonal fill lumped (lump_straight). */
static bool eliminate_r1(const RrbLevel *l, Stencil5 *next, const char **why) {
  if (!stencil_alloc((l->nx + 1) / 2, (l->ny + 1) / 2, next)) {
    *why = "out of memory";
    return false;
  }
  for (int j = 0; j < l->ny; j += 2) {
    for (int i = 0; i < l->nx; i += 2) {
      next->c[(j / 2) * next->nx + i / 2] = l->rc[j * l->nx + i];
    }
  }
  for (int j = 1; j < l->ny; j += 2) {
    for (int i = 1; i < l->nx; i += 2) {
      double d = l->rc[j * l->nx + i];
      if (!(d > 0)) {
        *why = "a pivot of an r1 node is not positive: the matrix (or its lumped approximation) is not positive "
               "definite";
        return false;
      }
      Neighbours nb = rotated_neighbours(l, i, j);
      for (int a = 0; a < nb.count; a++) {
        for (int b = a; b < nb.count; b++) {
          double fill = -nb.coupling[a] * nb.coupling[b] / d;
          int p = nb.node[a] < nb.node[b] ? nb.node[a] : nb.node[b], q = nb.node[a] ^ nb.node[b] ^ p;
          int dx = q % l->nx - p % l->nx, dy = q / l->nx - p / l->nx;
          int pn = (p / l->nx / 2) * next->nx + (p % l->nx) / 2, qn = (q / l->nx / 2) * next->nx + (q % l->nx) / 2;
          if (p == q) {
            next->c[pn] += fill;
          } else if (dy == 0) {
            next->east[pn] += fill;
          } else if (dx == 0) {
            next->north[pn] += fill;
          } else { /* diagonal */
            lump_straight(next, pn, qn, fill);
          }
        }
      }
    }
  }
  return true;
}

/* Dense Cholesky of the stencil's matrix into l (lower, row-major). */
static bool cholesky(const Stencil5 *s, double *l, const char **why) {
  int n = s->nx * s->ny;
  memset(l, 0, (size_t)n * n * sizeof *l);
  for (int p = 0; p < n; p++) {
    l[(size_t)p * n + p] = s->c[p];
    if (p % s->nx + 1 < s->nx) {
      l[(size_t)(p + 1) * n + p] = s->east[p];
    }
    if (p + s->nx < n) {
      l[(size_t)(p + s->nx) * n + p] = s->north[p];
    }
  }
  for (int k = 0; k < n; k++) {
    double d = l[(size_t)k * n + k];
    for (int m = 0; m < k; m++) {
      d -= l[(size_t)k * n + m] * l[(size_t)k * n + m];
    }
    if (!(d > 0)) {
      *why = "a pivot of the last level is not positive: the matrix is not positive definite";
      return false;
    }
    l[(size_t)k * n + k] = sqrt(d);
    for (int r = k + 1; r < n; r++) {
      double v = l[(size_t)r * n + k];
      for (int m = 0; m < k; m++) {
        v -= l[(size_t)r * n + m] * l[(size_t)k * n + m];
      }
      l[(size_t)r * n + k] = v / l[(size_t)k * n + k];
    }
  }
  return true;
}

bool reference_factor(const Stencil5 *s, int max_levels, int final_nodes, RrbFactor *f, const char **why) {
  memset(f, 0, sizeof *f);
  f->nx = s->nx;
  f->ny = s->ny;
  Stencil5 current;
  if (!stencil_alloc(s->nx, s->ny, &current)) {
    *why = "out of memory";
    return false;
  }
  size_t n = (size_t)s->nx * s->ny;
  memcpy(current.c, s->c, n * sizeof *s->c);
  memcpy(current.east, s->east, n * sizeof *s->east);
  memcpy(current.north, s->north, n * sizeof *s->north);
  int stride = 1;
  while (current.nx * current.ny > final_nodes && f->nlevels + 1 < max_levels) {
    RrbLevel *grown = realloc(f->levels, (size_t)(f->nlevels + 1) * sizeof *grown);
    if (!grown) {
      *why = "out of memory";
      stencil_free(&current);
      return false;
    }
    f->levels = grown;
    RrbLevel *l = &f->levels[f->nlevels++];
    *l = (RrbLevel){.nx = current.nx, .ny = current.ny, .stride = stride, .straight = current};
    if (!eliminate_black(l, why)) {
      return false; /* current is the level's now: reference_free frees it */
    }
    if (!eliminate_r1(l, &current, why)) {
      stencil_free(&current); /* the next level's, owned by no level yet */
      return false;
    }
    stride *= 2;
  }
  f->final_nx = current.nx;
  f->final_ny = current.ny;
  f->final_stride = stride;
  size_t final = (size_t)current.nx * current.ny;
  f->final_cholesky = malloc(final * final * sizeof *f->final_cholesky);
  bool ok = f->final_cholesky && cholesky(&current, f->final_cholesky, why);
  stencil_free(&current);
  return ok;
}

void reference_free(RrbFactor *f) {
  for (int k = 0; k < f->nlevels; k++) {
    stencil_free(&f->levels[k].straight);
    free(f->levels[k].rc);
    free(f->levels[k].ne);
    free(f->levels[k].nw);
  }
  free(f->levels);
  free(f->final_cholesky);
  memset(f, 0, sizeof *f);
}

/* The first level's index of level l's node p. */
static int global_index(const RrbFactor *f, int nx, int stride, int p) {
  return (p / nx) * stride * f->nx + (p % nx) * stride;
}

void reference_apply(const RrbFactor *f, const double *r, double *z) {
  size_t n = (size_t)f->nx * f->ny;
  double *x = malloc(n * sizeof *x);
  memcpy(x, r, n * sizeof *x);
  /* Forward, L x = r: each eliminated node passes x_p / d_p, times its couplings, on to its later neighbours. */
  for (int k = 0; k < f->nlevels; k++) {
    const RrbLevel *l = &f->levels[k];
    for (int j = 0; j < l->ny; j++) {
      for (int i = (j + 1) % 2; i < l->nx; i += 2) {
        int p = j * l->nx + i, gp = global_index(f, l->nx, l->stride, p);
        Neighbours nb = straight_neighbours(&l->straight, i, j);
        for (int a = 0; a < nb.count; a++) {
          x[global_index(f, l->nx, l->stride, nb.node[a])] -= nb.coupling[a] / l->straight.c[p] * x[gp];
        }
      }
    }
    for (int j = 1; j < l->ny; j += 2) {
      for (int i = 1; i < l->nx; i += 2) {
        int p = j * l->nx + i, gp = global_index(f, l->nx, l->stride, p);
        Neighbours nb = rotated_neighbours(l, i, j);
        for (int a = 0; a < nb.count; a++) {
          x[global_index(f, l->nx, l->stride, nb.node[a])] -= nb.coupling[a] / l->rc[p] * x[gp];
        }
      }
    }
  }
  /* The last level exactly: L_c L_c^T z = x there. */
  int m = f->final_nx * f->final_ny;
  double *y = malloc((size_t)m * sizeof *y);
  const double *lc = f->final_cholesky;
  for (int a = 0; a < m; a++) {
    double v = x[global_index(f, f->final_nx, f->final_stride, a)];
    for (int b = 0; b < a; b++) {
      v -= lc[(size_t)a * m + b] * y[b];
    }
    y[a] = v / lc[(size_t)a * m + a];
  }
  for (int a = m - 1; a >= 0; a--) {
    double v = y[a];
    for (int b = a + 1; b < m; b++) {
      v -= lc[(size_t)b * m + a] * y[b];
    }
    y[a] = v / lc[(size_t)a * m + a];
    z[global_index(f, f->final_nx, f->final_stride, a)] = y[a];
  }
  /* Pivots and backward, L^T z = D^-1 x, in reverse: z_p = x_p / d_p - sum over later neighbours of
   * coupling / d_p z_n. */
  for (int k = f->nlevels - 1; k >= 0; k--) {
    const RrbLevel *l = &f->levels[k];
    for (int j = 1; j < l->ny; j += 2) {
      for (int i = 1; i < l->nx; i += 2) {
        int p = j * l->nx + i, gp = global_index(f, l->nx, l->stride, p);
        Neighbours nb = rotated_neighbours(l, i, j);
        double v = x[gp];
        for (int a = 0; a < nb.count; a++) {
          v -= nb.coupling[a] * z[global_index(f, l->nx, l->stride, nb.node[a])];
        }
        z[gp] = v / l->rc[p];
      }
    }
    for (int j = 0; j < l->ny; j++) {
      for (int i = (j + 1) % 2; i < l->nx; i += 2) {
        int p = j * l->nx + i, gp = global_index(f, l->nx, l->stride, p);
        Neighbours nb = straight_neighbours(&l->straight, i, j);
        double v = x[gp];
        for (int a = 0; a < nb.count; a++) {
          v -= nb.coupling[a] * z[global_index(f, l->nx, l->stride, nb.node[a])];
        }
        z[gp] = v / l->straight.c[p];
      }
    }
  }
  free(x);
  free(y);
}

static double dot(const double *a, const double *b, size_t n) {
  double sum = 0;
  for (size_t k = 0; k < n; k++) {
    sum += a[k] * b[k];
  }
  return sum;
}

int reference_pcg(const Stencil5 *s, const RrbFactor *f, const double *b, double *x, double tolerance,
                  int max_iterations) {
  size_t n = (size_t)s->nx * s->ny;
  double *r = malloc(n * sizeof *r), *z = malloc(n * sizeof *z), *p = malloc(n * sizeof *p), *q = malloc(n * sizeof *q);
  stencil_apply(s, x, q);
  for (size_t k = 0; k < n; k++) {
    r[k] = b[k] - q[k];
  }
  if (f) {
    reference_apply(f, r, z);
  } else {
    memcpy(z, r, n * sizeof *z);
  }
  memcpy(p, z, n * sizeof *p);
  double rho = dot(r, z, n), rho_first = rho;
  int iterations = 0;
  while (iterations < max_iterations && rho > tolerance * tolerance * rho_first && rho > 0) {
    stencil_apply(s, p, q);
    double alpha = rho / dot(p, q, n);
    for (size_t k = 0; k < n; k++) {
      x[k] += alpha * p[k];
      r[k] -= alpha * q[k];
    }
    if (f) {
      reference_apply(f, r, z);
    } else {
      memcpy(z, r, n * sizeof *z);
    }
    double rho_next = dot(r, z, n);
    for (size_t k = 0; k < n; k++) {
      p[k] = z[k] + rho_next / rho * p[k];
    }
    rho = rho_next;
    iterations++;
  }
  free(r);
  free(z);
  free(p);
  free(q);
  return iterations;
}

void reference_level_rotated(const RrbFactor *f, int k, const Stencil5 **straight, const double **centre,
                             const double **ne, const double **nw) {
  bool in = k >= 0 && k < f->nlevels;
  *straight = in ? &f->levels[k].straight : NULL;
  *centre = in ? f->levels[k].rc : NULL;
  *ne = in ? f->levels[k].ne : NULL;
  *nw = in ? f->levels[k].nw : NULL;
}

/* The straight stencil with 0 outside the grid. */
static bool inside(const Stencil5 *s, int i, int j) {
  return i >= 0 && i < s->nx && j >= 0 && j < s->ny;
}
static double centre_at(const Stencil5 *s, int i, int j) {
  return inside(s, i, j) ? s->c[j * s->nx + i] : 1; /* never divided by outside: guarded below */
}
static double east_at(const Stencil5 *s, int i, int j) {
  return inside(s, i, j) ? s->east[j * s->nx + i] : 0;
}
static double north_at(const Stencil5 *s, int i, int j) {
  return inside(s, i, j) ? s->north[j * s->nx + i] : 0;
}

/* The fill between red points (i, j) and (i + 2, j) through the black point between (0 without a pair), and
 * between (i, j) and (i, j + 2). */
static double fill_x(const Stencil5 *s, int i, int j) {
  return inside(s, i, j) && inside(s, i + 2, j) ? -east_at(s, i, j) * east_at(s, i + 1, j) / centre_at(s, i + 1, j) : 0;
}
static double fill_y(const Stencil5 *s, int i, int j) {
  return inside(s, i, j) && inside(s, i, j + 2) ? -north_at(s, i, j) * north_at(s, i, j + 1) / centre_at(s, i, j + 1)
                                                : 0;
}

/* a^2 / d for the black neighbour (bi, bj) coupled to the red point by a (0 outside). */
static double exact_diagonal_fill(const Stencil5 *s, int bi, int bj, double a) {
  return inside(s, bi, bj) ? a * a / centre_at(s, bi, bj) : 0;
}

void reference_gather_step_a(const Stencil5 *s, int i, int j, double *centre, double *ne, double *nw) {
  /* The exact Schur complement: centre, and the diagonal couplings through the two black points between. */
  double c = centre_at(s, i, j);
  c -= exact_diagonal_fill(s, i + 1, j, east_at(s, i, j)) + exact_diagonal_fill(s, i - 1, j, east_at(s, i - 1, j)) +
       exact_diagonal_fill(s, i, j + 1, north_at(s, i, j)) + exact_diagonal_fill(s, i, j - 1, north_at(s, i, j - 1));
  double to_ne = 0, to_nw = 0;
  if (inside(s, i + 1, j + 1)) {
    to_ne = -(east_at(s, i, j) * north_at(s, i + 1, j) / centre_at(s, i + 1, j) +
              north_at(s, i, j) * east_at(s, i, j + 1) / centre_at(s, i, j + 1));
  }
  if (inside(s, i - 1, j + 1)) {
    to_nw = -(east_at(s, i - 1, j) * north_at(s, i - 1, j) / centre_at(s, i - 1, j) +
              north_at(s, i, j) * east_at(s, i - 1, j + 1) / centre_at(s, i, j + 1));
  }
  /* Lumping (lump_rotated), seen from this point. As an end of a pair at distance 2, half the fill for each point
   * between that is outside the grid; as the point between two, minus the fill; and half the fill on the couplings
   * to the pair's ends. */
  const struct {
    double fill;
    int between[2][2]; /* the pair's two points between, relative to this one */
  } ends[4] = {
      {fill_x(s, i, j), {{1, 1}, {1, -1}}},       /* this point, and (i + 2, j) */
      {fill_x(s, i - 2, j), {{-1, 1}, {-1, -1}}}, /* (i - 2, j), and this point */
      {fill_y(s, i, j), {{1, 1}, {-1, 1}}},       /* this point, and (i, j + 2) */
      {fill_y(s, i, j - 2), {{1, -1}, {-1, -1}}}, /* (i, j - 2), and this point */
  };
  for (int e = 0; e < 4; e++) {
    for (int m = 0; m < 2; m++) {
      c += inside(s, i + ends[e].between[m][0], j + ends[e].between[m][1]) ? 0 : ends[e].fill / 2;
    }
  }
  c -= fill_x(s, i - 1, j - 1) + fill_x(s, i - 1, j + 1) + fill_y(s, i - 1, j - 1) + fill_y(s, i + 1, j - 1);
  if (inside(s, i + 1, j + 1)) {
    to_ne += (fill_x(s, i, j) + fill_y(s, i, j) + fill_x(s, i - 1, j + 1) + fill_y(s, i + 1, j - 1)) / 2;
  }
  if (inside(s, i - 1, j + 1)) {
    to_nw += (fill_x(s, i - 2, j) + fill_x(s, i - 1, j + 1) + fill_y(s, i, j) + fill_y(s, i - 1, j - 1)) / 2;
  }
  *centre = c;
  *ne = to_ne;
  *nw = to_nw;
}

/* A level's rotated stencil after step A, with 0 outside the grid. */
typedef struct {
  int nx, ny;
  const double *centre, *ne, *nw;
} Rotated;

static bool rotated_inside(const Rotated *r, int i, int j) {
  return i >= 0 && i < r->nx && j >= 0 && j < r->ny;
}
static double rotated_at(const Rotated *r, const double *a, int i, int j) {
  return rotated_inside(r, i, j) ? a[j * r->nx + i] : 0;
}

/* The diagonal fill between red points (i, j) and (i + 2, j + 2) through the r1 point between (0 without a pair),
 * and between (i, j) and (i - 2, j + 2). Level coordinates. */
static double fill_ne(const Rotated *r, int i, int j) {
  return rotated_inside(r, i, j) && rotated_inside(r, i + 2, j + 2)
             ? -rotated_at(r, r->ne, i, j) * rotated_at(r, r->ne, i + 1, j + 1) / rotated_at(r, r->centre, i + 1, j + 1)
             : 0;
}
static double fill_nw(const Rotated *r, int i, int j) {
  return rotated_inside(r, i, j) && rotated_inside(r, i - 2, j + 2)
             ? -rotated_at(r, r->nw, i, j) * rotated_at(r, r->nw, i - 1, j + 1) / rotated_at(r, r->centre, i - 1, j + 1)
             : 0;
}

/* rot(p, q) / d_q * rot(q, t) through the r1 point q, 0 when q is outside. */
static double through(const Rotated *r, int qi, int qj, double to_q, double from_q) {
  return rotated_inside(r, qi, qj) ? to_q * from_q / rotated_at(r, r->centre, qi, qj) : 0;
}

void reference_gather_step_b(int nx, int ny, const double *centre, const double *ne, const double *nw, int ni, int nj,
                             double *next_centre, double *next_east, double *next_north) {
  const Rotated r = {nx, ny, centre, ne, nw};
  int i = 2 * ni, j = 2 * nj;
  /* The couplings of (i, j) with its four r1 neighbours. */
  double to_ne = rotated_at(&r, ne, i, j), to_nw = rotated_at(&r, nw, i, j);
  double to_se = rotated_at(&r, nw, i + 1, j - 1), to_sw = rotated_at(&r, ne, i - 1, j - 1);
  double c = rotated_at(&r, centre, i, j) - through(&r, i + 1, j + 1, to_ne, to_ne) -
             through(&r, i - 1, j + 1, to_nw, to_nw) - through(&r, i + 1, j - 1, to_se, to_se) -
             through(&r, i - 1, j - 1, to_sw, to_sw);
  double east = 0, north = 0;
  if (rotated_inside(&r, i + 2, j)) { /* through (i + 1, j + 1) and (i + 1, j - 1) */
    east = -(through(&r, i + 1, j + 1, to_ne, rotated_at(&r, nw, i + 2, j)) +
             through(&r, i + 1, j - 1, to_se, rotated_at(&r, ne, i + 1, j - 1)));
  }
  if (rotated_inside(&r, i, j + 2)) { /* through (i + 1, j + 1) and (i - 1, j + 1) */
    north = -(through(&r, i + 1, j + 1, to_ne, rotated_at(&r, nw, i + 1, j + 1)) +
              through(&r, i - 1, j + 1, to_nw, rotated_at(&r, ne, i - 1, j + 1)));
  }
  /* Lumping (lump_straight), seen from this point: minus the fill of each diagonal pair it lies between, and half
   * the fill on its couplings to the ends of such pairs and along the pairs it ends. */
  c -= fill_ne(&r, i - 2, j) + fill_ne(&r, i, j - 2) + fill_nw(&r, i + 2, j) + fill_nw(&r, i, j - 2);
  if (rotated_inside(&r, i + 2, j)) {
    east += (fill_ne(&r, i, j) + fill_ne(&r, i, j - 2) + fill_nw(&r, i + 2, j - 2) + fill_nw(&r, i + 2, j)) / 2;
  }
  if (rotated_inside(&r, i, j + 2)) {
    north += (fill_ne(&r, i, j) + fill_ne(&r, i - 2, j) + fill_nw(&r, i, j) + fill_nw(&r, i + 2, j)) / 2;
  }
  *next_centre = c;
  *next_east = east;
  *next_north = north;
}

double test_uniform(unsigned long long *state) {
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*state >> 11) / 9007199254740992.0;
}

void test_random_stencil(Stencil5 *s, const RandomStencil *shape, unsigned long long *state) {
  int n = s->nx * s->ny;
  for (int p = 0; p < n; p++) {
    bool cut = shape->cut_every > 0 && p % shape->cut_every == shape->cut_at;
    s->east[p] = p % s->nx + 1 < s->nx && !cut ? -shape->ax * (0.05 + shape->spread * test_uniform(state)) : 0;
    s->north[p] = p + s->nx < n && !cut ? -shape->ay * (0.05 + shape->spread * test_uniform(state)) : 0;
  }
  for (int p = 0; p < n; p++) {
    double sum = -s->east[p] - s->north[p];
    sum -= p % s->nx > 0 ? s->east[p - 1] : 0;
    sum -= p >= s->nx ? s->north[p - s->nx] : 0;
    s->c[p] = sum + (shape->margin > 0 ? shape->margin * (0.01 + test_uniform(state))
                                       : pow(10.0, -3.0 + 3.0 * (p % 11) / 10.0));
  }
}

void test_islands_stencil(Stencil5 *s, double ax, double ay, double margin, bool islands, unsigned long long seed) {
  RandomStencil shape = {.ax = ax, .ay = ay, .spread = 1, .cut_every = islands ? 7 : 0, .cut_at = 3, .margin = margin};
  test_random_stencil(s, &shape, &seed);
}
