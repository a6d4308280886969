/* SPDX-License-Identifier: BSD-3-Clause */
/* test_rrb_dist.c: the RRB preconditioner on several ranks (rrb_dist.h; meson: 1, 2 and 4 ranks) is the host
 * reference's M = L D L^T (tests/support/rrb_reference.h) of the whole grid: z = M^-1 r on random vectors, in double,
 * with as many levels distributed as the blocks allow and with the default split, on the model problem, a random
 * system with islands of zero-flux rows and a 1000:1 anisotropic one, odd sizes; a matrix whose lumped
 * factorization meets a negative pivot is refused on every rank.
 * Usage: test_rrb_dist KERNELS_CL_DIR */
#include <math.h>
#include <stdlib.h>

#include "poisson.h"
#include "rrb_dist.h"
#include "../support/support.h"
#include "../support/tap.h"
#include "../support/rrb_reference.h"

static unsigned long long state = 2024;

/* Couplings in [-1, -0.05], every fifth point cut off from its east and north neighbours (an island edge), the
 * north ones scaled by `north`; centres their magnitudes plus a margin over three decades. */
static void random_system(Stencil5 *s, double north) {
  RandomStencil shape = {.ax = 1, .ay = north, .spread = 0.95, .cut_every = 5, .cut_at = 2};
  test_random_stencil(s, &shape, &state);
}

/* z = M^-1 r on the device for the system s, depth and coarse_nodes as rrb_dist_create has them; *levels: K,
 * *exchanges: the ghost exchanges of the application. */
static HclStatus device_apply(Runtime *rt, const Stencil5 *s, RrbDepth depth, int coarse_nodes, const double *r,
                              double *z, int *levels, int *exchanges) {
  HclStatus status = HCL_OK;
  Decomp *decomp = NULL;
  RrbDist *rrb = NULL;
  Field *fields[5] = {NULL};
  const double *values[4] = {s->c, s->east, s->north, r};
  const char *names[5] = {"centre", "east", "north", "r", "z"};
  DecompSpec spec = {.nx = s->nx, .ny = s->ny};
  TRY(hcl_decomp_create(&spec, &decomp));
  for (int f = 0; f < 5; f++) {
    FieldSpec fs = {.name = names[f], .nz = 1, .ghost = 1, .precision = PRECISION_DOUBLE};
    TRY(hcl_field_create(rt, decomp, &fs, &fields[f]));
    if (f < 4) {
      TRY(test_write_block(fields[f], values[f], s->nx));
    }
  }
  TRY(rrb_dist_create(rt, decomp, PRECISION_DOUBLE, depth, coarse_nodes, &rrb));
  *levels = rrb_dist_levels(rrb);
  TRY(rrb_dist_setup(rrb, fields[0], fields[1], fields[2]));
  TRY(rrb_dist_apply(rrb, fields[3], fields[4]));
  *exchanges = rrb_dist_exchanges(rrb);
  TRY(hcl_field_gather(fields[4], z));
cleanup:
  rrb_dist_destroy(&rrb);
  for (int f = 0; f < 5; f++) {
    hcl_field_destroy(&fields[f]);
  }
  hcl_decomp_destroy(&decomp);
  return status;
}

/* M^-1 r on the device against the host reference's (of the same depth), for a few random r and two splits of the
 * levels. */
static void check_system(Runtime *rt, const Stencil5 *s, RrbDepth depth, const char *what) {
  RrbFactor factor;
  const char *why = "";
  size_t n = (size_t)s->nx * s->ny;
  double *r = malloc(n * sizeof *r), *host = malloc(n * sizeof *host), *device = calloc(n, sizeof *device);
  int eliminated = 0;
  depth = hcl_rrb_depth_on(rt, PRECISION_DOUBLE, depth); /* the host factorizes to the exact level the device holds */
  bool factored = hcl_rrb_depth_levels(s->nx, s->ny, depth, &eliminated) == HCL_OK &&
                  reference_factor(s, eliminated + 1, 1, &factor, &why);
  const int coarse_nodes[2] = {1, RRB_DIST_COARSE_NODES};
  for (int split = 0; split < 2; split++) {
    for (int p = 0; p < (int)n; p++) {
      r[p] = test_uniform(&state) - 0.5;
    }
    if (factored) {
      reference_apply(&factor, r, host);
    }
    int levels = -1, exchanges = -1;
    hcl_status_clear();
    HclStatus st = device_apply(rt, s, depth, coarse_nodes[split], r, device, &levels, &exchanges);
    double worst = 0, scale = 0;
    for (size_t p = 0; p < n; p++) {
      worst = fmax(worst, fabs(device[p] - host[p]));
      scale = fmax(scale, fabs(host[p]));
    }
    /* The same operations in another order (the pivots' inverses, the Schur complement's terms): rounding, grown
     * by the factor's condition (the centres' margins down to 1e-3): 1e-10 of the largest value. */
    bool close = hcl_par_rank() != 0 || worst <= 1e-10 * scale;
    /* Levels share an exchange while their reads fit the ghost width 2^K (rrb_dist.c; level by level it was 2 K):
     * K = 1 one each way; K = 2 two each way (levels 0 and 1 reach 6 > 4 points); K = 3 forward {0, 1} (reach 6 of
     * 8), {2}, backward {2}, {1, 0}; K = 4 {0, 1, 2} (14 of 16), {3} and back; K = 5 {0 .. 3} (30 of 32), {4}. */
    const int expected[6] = {0, 2, 4, 4, 4, 4};
    bool counted = levels < 0 || levels > 5 || exchanges == expected[levels];
    TAP_OK(all_ranks(factored && st == HCL_OK && close && counted),
           "%s %d x %d, RRB-%d, %d ranks, %d levels distributed in %d exchanges: M^-1 r %.1e from the host's (of %.1e) "
           "%s",
           what, s->nx, s->ny, eliminated + 1, hcl_par_size(), levels, exchanges, worst, scale, hcl_status_message());
  }
  if (factored) {
    reference_free(&factor);
  }
  free(r);
  free(host);
  free(device);
}

int main(int argc, char **argv) {
  Runtime *rt = NULL;
  HclStatus s = test_start_runtime(&argc, &argv, true, &rt);
  if (TAP_OK(all_ranks(s == HCL_OK && argc == 2), "set-up on %d ranks %s", hcl_par_size(), hcl_status_message())) {
    Stencil5 st;
    stencil_alloc(64, 64, &st);
    double *b = malloc(64 * 64 * sizeof *b);
    PoissonDomain domain = hcl_poisson_domain(64, 64);
    hcl_poisson_block(&domain, 0, 0, 64, 64, st.c, st.east, st.north, b);
    check_system(rt, &st, RRB_DEPTH_DEFAULT, "model problem");
    check_system(rt, &st, (RrbDepth){.levels = 0, .exact_nodes = 1}, "model problem, to one node");
    check_system(rt, &st, (RrbDepth){.levels = 3, .exact_nodes = RRB_EXACT_MAX}, "model problem, chosen");
    free(b);
    stencil_free(&st);
    const int sizes[3][2] = {{37, 29}, {61, 64}, {8, 53}};
    for (int k = 0; k < 3; k++) {
      stencil_alloc(sizes[k][0], sizes[k][1], &st);
      random_system(&st, k == 1 ? 1e-3 : 1);
      check_system(rt, &st, RRB_DEPTH_DEFAULT, k == 1 ? "random, 1000:1 anisotropic" : "random with islands");
      stencil_free(&st);
    }
    /* A coupling larger than its centre: the first level's Schur complement has a negative pivot. */
    stencil_alloc(16, 16, &st);
    random_system(&st, 1);
    st.east[5 * 16 + 6] = -4 * st.c[5 * 16 + 6];
    double *r = calloc(256, sizeof *r), *z = calloc(256, sizeof *z);
    int levels = 0, exchanges = 0;
    hcl_status_clear();
    s = device_apply(rt, &st, RRB_DEPTH_DEFAULT, 1, r, z, &levels, &exchanges);
    TAP_OK(all_ranks(s == HCL_EDATA && tap_contains(hcl_status_message(), "pivot that is not positive")),
           "a matrix that is not positive definite is refused: %s", hcl_status_message());
    free(r);
    free(z);
    stencil_free(&st);
  }
  hcl_runtime_destroy(&rt);
  hcl_par_finalize();
  return tap_done();
}
