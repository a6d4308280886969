/* SPDX-License-Identifier: BSD-3-Clause */
/* dam_break.h: the exact solutions of the dam breaks the shallow-water tests compare against (SWASHES 4.1.1 and
 * 4.1.2): Stoker's on a wet bed and Ritter's on a dry one, frictionless over a flat bed, g = SWE_TEST_GRAVITY. */
#ifndef HYDROCL_TEST_DAM_BREAK_H
#define HYDROCL_TEST_DAM_BREAK_H

#include <math.h>

#define SWE_TEST_GRAVITY 9.81

/* h_left held at x < x_dam over h_right, flat bed, at rest; the exact state: still h_left up to the
 * rarefaction head x_dam - c_left t, the rarefaction h = (2 c_left - (x - x_dam) / t)^2 / (9 g) down to h_m,
 * the constant state h_m, u_m up to the shock x_dam + shock t, then h_right. */
typedef struct {
  double h_left, h_right, x_dam, length;
  double h_m, u_m, shock; /* from stoker_solve */
} Stoker;

/* The middle state: the rarefaction's Riemann invariant u_m = 2 (c_left - c_m) equals the velocity behind a
 * shock into h_right, u_m = (h_m - h_right) sqrt(g (h_m + h_right) / (2 h_m h_right)) (mass and momentum jump
 * conditions); Newton on their difference, kept inside the bracket (h_right, h_left) by bisection. */
static inline void stoker_solve(Stoker *s) {
  double lo = s->h_right, hi = s->h_left, h = (lo + hi) / 2;
  for (int it = 0; it < 100; it++) {
    double c = sqrt(SWE_TEST_GRAVITY * h), root = sqrt(SWE_TEST_GRAVITY * (h + s->h_right) / (2 * h * s->h_right));
    double f = 2 * (sqrt(SWE_TEST_GRAVITY * s->h_left) - c) - (h - s->h_right) * root;
    /* d/dh of (h - h_right) root, with d root / dh = -g / (4 root h^2) */
    double df = -SWE_TEST_GRAVITY / c - (root - (h - s->h_right) * SWE_TEST_GRAVITY / (4 * root * h * h));
    if (f > 0) { /* f falls with h: the root is above */
      lo = h;
    } else {
      hi = h;
    }
    double next = h - f / df;
    next = next > lo && next < hi ? next : (lo + hi) / 2;
    if (fabs(next - h) < 1e-15 * h) {
      h = next;
      break;
    }
    h = next;
  }
  s->h_m = h;
  s->u_m = 2 * (sqrt(SWE_TEST_GRAVITY * s->h_left) - sqrt(SWE_TEST_GRAVITY * h));
  s->shock = h * s->u_m / (h - s->h_right); /* mass conservation across the moving jump */
}

static inline double stoker_depth(const Stoker *s, double x, double t) {
  double c_left = sqrt(SWE_TEST_GRAVITY * s->h_left), xi = (x - s->x_dam) / t;
  if (xi <= -c_left) {
    return s->h_left;
  }
  if (xi <= s->u_m - sqrt(SWE_TEST_GRAVITY * s->h_m)) {
    return (2 * c_left - xi) * (2 * c_left - xi) / (9 * SWE_TEST_GRAVITY);
  }
  return xi <= s->shock ? s->h_m : s->h_right;
}

/* Ritter: h0 held at x < x_dam over a dry bed; the exact depth at x, time t: still h0 behind the rarefaction's head
 * x_dam - c0 t, the rarefaction (2 c0 - (x - x_dam) / t)^2 / (9 g) up to the front x_dam + 2 c0 t, dry beyond. */
static inline double ritter_depth(double h0, double x_dam, double x, double t) {
  double c0 = sqrt(SWE_TEST_GRAVITY * h0), s = (x - x_dam) / t;
  if (s <= -c0) {
    return h0;
  }
  if (s >= 2 * c0) {
    return 0.0;
  }
  return (2 * c0 - s) * (2 * c0 - s) / (9 * SWE_TEST_GRAVITY);
}

#endif
