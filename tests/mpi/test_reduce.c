/* test_reduce.c: global sum, min, max and dot product on any number of ranks (meson: 1, 2 and 4) against a host
 * computation over the whole grid, in float and double fields; every rank gets the same bits; a repeated reduction
 * gives the same bits; NaN reaches min and max. */
#include <math.h>
#include <stdlib.h>

#include "reduce.h"
#include "../support.h"
#include "../tap.h"

enum { NX = 37, NY = 23 };

static double value(int gx, int gy, int k) {
  return sin(0.37 * gx + 1.3) * cos(0.21 * gy) + 0.1 * k + 1e-3 * gx;
}

/* The value the device holds: rounded to the field's precision. */
static double stored(Precision p, double v) {
  return p == PRECISION_SINGLE ? (double)(float)v : v;
}

static HclStatus fill(Field *f, double scale) {
  HclStatus status = HCL_OK;
  double *host = NULL;
  const DecompLocal *l = decomp_local(field_decomp(f));
  TRY_ALLOC(host, (size_t)field_nx(f) * field_ny(f) * field_nz(f));
  for (int k = 0; k < field_nz(f); k++) {
    for (int j = 0; j < field_ny(f); j++) {
      for (int i = 0; i < field_nx(f); i++) {
        host[((size_t)k * field_ny(f) + j) * field_nx(f) + i] = scale * value(l->x0 + i, l->y0 + j, k);
      }
    }
  }
  TRY(field_write_owned(f, host));
cleanup:
  free(host);
  return status;
}

static bool same_on_all_ranks(double x) {
#ifdef HYDROCL_HAVE_MPI
  double lo = 0, hi = 0;
  MPI_Allreduce(&x, &lo, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&x, &hi, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return lo == hi;
#else
  (void)x;
  return true;
#endif
}

static void check(Runtime *rt, Reducer *reducer, const Decomp *decomp, int nz, Precision p) {
  Field *a = NULL, *b = NULL;
  double sum = 0, min = 0, max = 0, dot = 0, again = 0;
  FieldSpec spec = {.name = "a", .nz = nz, .ghost = 2, .precision = p};
  status_clear();
  HclStatus s = field_create(rt, decomp, &spec, &a);
  if (s == HCL_OK) {
    s = field_create(rt, decomp, &spec, &b);
  }
  if (s == HCL_OK) {
    s = fill(a, 1.0);
  }
  if (s == HCL_OK) {
    s = fill(b, -2.0);
  }
  if (s == HCL_OK) {
    s = reduce_sum(reducer, a, &sum);
  }
  if (s == HCL_OK) {
    s = reduce_min(reducer, a, &min);
  }
  if (s == HCL_OK) {
    s = reduce_max(reducer, a, &max);
  }
  if (s == HCL_OK) {
    s = reduce_dot(reducer, a, b, &dot);
  }
  if (s == HCL_OK) {
    s = reduce_sum(reducer, a, &again);
  }
  double want_sum = 0, want_min = INFINITY, want_max = -INFINITY, want_dot = 0, abs_sum = 0;
  for (int k = 0; k < nz; k++) {
    for (int j = 0; j < NY; j++) {
      for (int i = 0; i < NX; i++) {
        double va = stored(p, value(i, j, k)), vb = stored(p, -2.0 * value(i, j, k));
        want_sum += va;
        abs_sum += fabs(va);
        want_min = fmin(want_min, va);
        want_max = fmax(want_max, va);
        want_dot += va * vb;
      }
    }
  }
  /* Partial sums in double over at most a few thousand terms: the order differs from the host's, so allow a few
   * hundred units of double rounding relative to the sum of magnitudes (fp64 devices; float accumulation on devices
   * without fp64 would need 1e-5). */
  double tol = 512 * 2.2e-16 * abs_sum;
  const char *name = precision_name(p);
  TAP_OK(all_ranks(s == HCL_OK), "nz %d %s: reductions ran %s", nz, name, status_message());
  TAP_OK(all_ranks(fabs(sum - want_sum) <= tol), "nz %d %s: sum %.17g vs host %.17g", nz, name, sum, want_sum);
  TAP_OK(all_ranks(min == want_min && max == want_max), "nz %d %s: min %g and max %g exact", nz, name, min, max);
  TAP_OK(all_ranks(fabs(dot - want_dot) <= 2 * tol * 2.0), "nz %d %s: dot %.17g vs host %.17g", nz, name, dot,
         want_dot);
  TAP_OK(same_on_all_ranks(sum) && same_on_all_ranks(dot), "nz %d %s: every rank has the same bits", nz, name);
  TAP_OK(all_ranks(again == sum), "nz %d %s: repeating the sum gives the same bits", nz, name);
  field_destroy(&a);
  field_destroy(&b);
}

int main(int argc, char **argv) {
  Runtime *rt = NULL;
  Decomp *decomp = NULL;
  Reducer *reducer = NULL;
  HclStatus s = par_init(&argc, &argv);
  if (par_rank() != 0) {
    freopen("/dev/null", "w", stdout);
  }
  DecompSpec spec = {.nx = NX, .ny = NY};
  if (s == HCL_OK) {
    s = test_open_runtime(true, &rt);
  }
  if (s == HCL_OK) {
    s = decomp_create(&spec, &decomp);
  }
  if (s == HCL_OK) {
    s = reducer_create(rt, decomp, &reducer);
  }
  if (TAP_OK(all_ranks(s == HCL_OK), "set-up on %d ranks %s", par_size(), status_message())) {
    for (int p = 0; p < 2; p++) {
      check(rt, reducer, decomp, 1, p ? PRECISION_DOUBLE : PRECISION_SINGLE);
      check(rt, reducer, decomp, 3, p ? PRECISION_DOUBLE : PRECISION_SINGLE);
    }
    /* A NaN on the last rank's first owned point must reach min and max on every rank. */
    Field *f = NULL;
    FieldSpec fs = {.name = "eta", .nz = 1, .ghost = 1, .precision = PRECISION_DOUBLE};
    double *host = NULL, min = 0, max = 0;
    status_clear();
    s = field_create(rt, decomp, &fs, &f);
    host = calloc((size_t)field_nx(f) * field_ny(f), sizeof *host);
    if (s == HCL_OK && host) {
      host[0] = par_rank() == par_size() - 1 ? NAN : 0.0;
      s = field_write_owned(f, host);
    }
    if (s == HCL_OK) {
      s = reduce_min(reducer, f, &min);
    }
    if (s == HCL_OK) {
      s = reduce_max(reducer, f, &max);
    }
    TAP_OK(all_ranks(s == HCL_OK && isnan(min) && isnan(max)), "a NaN anywhere reaches min and max everywhere");
    free(host);
    field_destroy(&f);
  }
  reducer_destroy(&reducer);
  decomp_destroy(&decomp);
  runtime_destroy(&rt);
  int result = tap_done();
  par_finalize();
  return result;
}
