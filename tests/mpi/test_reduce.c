/* SPDX-License-Identifier: BSD-3-Clause */
/* test_reduce.c: global sum, min, max and dot product on any number of ranks (meson: 1, 2 and 4) against a host
 * computation over the whole grid, in float and double fields, on a small grid and on one wide and tall enough for
 * the kernel's strided loops to take several passes; every rank gets the same bits; a repeated reduction gives the
 * same bits; the fused two dot products (hcl_reduce_dot2) equal two hcl_reduce_dot calls to the bit; NaN reaches min and max;
 * a kernel build failing on rank 0 alone fails every rank and is retried. The dot products over ranges of plain
 * buffers (hcl_span_range) over ranges whose start, length and end fall anywhere against the work-groups, the chunks and CPUs' runs of four, exactly against a host sum.
 * Usage: test_reduce KERNELS_CL_DIR */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "reduce.h"
#include "../support/support.h"
#include "../support/tap.h"

enum { NX = 37, NY = 23 };
/* Wider than a work-group (256 on GPUs, 64 on CPUs) and, with 3 planes, more rows per rank than work-groups on up to
 * 4 ranks. */
enum { WIDE_NX = 300, WIDE_NY = 360 };

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
  const DecompLocal *l = hcl_decomp_local(hcl_field_decomp(f));
  TRY_ALLOC(host, (size_t)hcl_field_nx(f) * hcl_field_ny(f) * hcl_field_nz(f));
  for (int k = 0; k < hcl_field_nz(f); k++) {
    for (int j = 0; j < hcl_field_ny(f); j++) {
      for (int i = 0; i < hcl_field_nx(f); i++) {
        host[((size_t)k * hcl_field_ny(f) + j) * hcl_field_nx(f) + i] = scale * value(l->x0 + i, l->y0 + j, k);
      }
    }
  }
  TRY(hcl_field_write_owned(f, host));
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
  double sum = 0, min = 0, max = 0, dot = 0, again = 0, aa = 0, fused[2] = {0, 0};
  FieldSpec spec = {.name = "a", .nz = nz, .ghost = 2, .precision = p};
  hcl_status_clear();
  HclStatus s = hcl_field_create(rt, decomp, &spec, &a);
  if (s == HCL_OK) {
    s = hcl_field_create(rt, decomp, &spec, &b);
  }
  if (s == HCL_OK) {
    s = fill(a, 1.0);
  }
  if (s == HCL_OK) {
    s = fill(b, -2.0);
  }
  if (s == HCL_OK) {
    s = hcl_reduce_sum(reducer, hcl_field_span(a), &sum);
  }
  if (s == HCL_OK) {
    s = hcl_reduce_min(reducer, hcl_field_span(a), &min);
  }
  if (s == HCL_OK) {
    s = hcl_reduce_max(reducer, hcl_field_span(a), &max);
  }
  if (s == HCL_OK) {
    s = hcl_reduce_dot(reducer, hcl_field_span(a), hcl_field_span(b), &dot);
  }
  if (s == HCL_OK) {
    s = hcl_reduce_sum(reducer, hcl_field_span(a), &again);
  }
  if (s == HCL_OK) {
    s = hcl_reduce_dot(reducer, hcl_field_span(a), hcl_field_span(a), &aa);
  }
  if (s == HCL_OK) {
    s = hcl_reduce_dot2(reducer, hcl_field_span(a), hcl_field_span(b), hcl_field_span(a), fused);
  }
  double want_sum = 0, want_min = INFINITY, want_max = -INFINITY, want_dot = 0, abs_sum = 0;
  const DecompSpec *grid = hcl_decomp_spec(decomp);
  for (int k = 0; k < nz; k++) {
    for (int j = 0; j < grid->ny; j++) {
      for (int i = 0; i < grid->nx; i++) {
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
  char name[64];
  snprintf(name, sizeof name, "%dx%d %s", grid->nx, grid->ny, hcl_precision_name(p));
  TAP_OK(all_ranks(s == HCL_OK), "nz %d %s: reductions ran %s", nz, name, hcl_status_message());
  TAP_OK(all_ranks(fabs(sum - want_sum) <= tol), "nz %d %s: sum %.17g vs host %.17g", nz, name, sum, want_sum);
  TAP_OK(all_ranks(min == want_min && max == want_max), "nz %d %s: min %g and max %g exact", nz, name, min, max);
  TAP_OK(all_ranks(fabs(dot - want_dot) <= 2 * tol * 2.0), "nz %d %s: dot %.17g vs host %.17g", nz, name, dot,
         want_dot);
  TAP_OK(same_on_all_ranks(sum) && same_on_all_ranks(dot), "nz %d %s: every rank has the same bits", nz, name);
  TAP_OK(all_ranks(again == sum), "nz %d %s: repeating the sum gives the same bits", nz, name);
  TAP_OK(all_ranks(fused[0] == dot && fused[1] == aa),
         "nz %d %s: the fused a.b and a.a are reduce_dot's to the bit (%.17g %.17g against %.17g %.17g)", nz, name,
         fused[0], fused[1], dot, aa);
  hcl_field_destroy(&a);
  hcl_field_destroy(&b);
}

/* The small grid's checks on a grid of nx x ny with px = 1, so every rank's rows are nx wide. */
static void check_grid(Runtime *rt, int nx, int ny) {
  Decomp *decomp = NULL;
  Reducer *reducer = NULL;
  DecompSpec spec = {.nx = nx, .ny = ny, .px = 1, .py = hcl_par_size()};
  hcl_status_clear();
  HclStatus s = hcl_decomp_create(&spec, &decomp);
  if (s == HCL_OK) {
    s = hcl_reducer_create(rt, decomp, &reducer);
  }
  if (TAP_OK(all_ranks(s == HCL_OK), "%dx%d set-up %s", nx, ny, hcl_status_message())) {
    for (int p = 0; p < 2; p++) {
      check(rt, reducer, decomp, 1, p ? PRECISION_DOUBLE : PRECISION_SINGLE);
      check(rt, reducer, decomp, 3, p ? PRECISION_DOUBLE : PRECISION_SINGLE);
    }
  }
  hcl_reducer_destroy(&reducer);
  hcl_decomp_destroy(&decomp);
}

/* dot(a, a) of a field of rt filled by fill(a, 1). */
static HclStatus filled_dot(Runtime *rt, Reducer *reducer, const Decomp *decomp, double *dot) {
  HclStatus status = HCL_OK;
  Field *a = NULL;
  FieldSpec spec = {.name = "a", .nz = 2, .ghost = 1, .precision = PRECISION_DOUBLE};
  TRY(hcl_field_create(rt, decomp, &spec, &a));
  TRY(fill(a, 1.0));
  TRY(hcl_reduce_dot(reducer, hcl_field_span(a), hcl_field_span(a), dot));
cleanup:
  hcl_field_destroy(&a);
  return status;
}

/* Regression: rank 0 reads kernels from a copy whose reduce.cl lacks hcl_reduce_dot. That used to leave the other ranks
 * waiting in the exchange, and a program without that kernel cached on rank 0. Every rank must fail, and once the
 * kernel is back the build is retried and gives the same bits as the intact runtime. */
static void check_failed_build(Runtime *rt, Reducer *reducer, const Decomp *decomp, const char *kernels) {
  Runtime *own = NULL;
  Reducer *own_reducer = NULL;
  char folder[256], command[1024];
  double want = 0, first = 0, again = 0;
  snprintf(folder, sizeof folder, "/tmp/hydrocl-reduce-kernels-%d", (int)getpid());
  snprintf(
      command, sizeof command,
      "rm -rf %s && cp -r %s %s && sed -i 's/REDUCE_KERNEL(reduce_dot,/REDUCE_KERNEL(reduce_dot_gone,/' %s/reduce.cl",
      folder, kernels, folder, folder);
  bool copied = hcl_par_rank() != 0 || system(command) == 0;
  RuntimeOptions options = {.kernel_dir = hcl_par_rank() == 0 ? folder : kernels};
  hcl_status_clear();
  HclStatus s = copied ? filled_dot(rt, reducer, decomp, &want) : HCL_EIO;
  if (s == HCL_OK) {
    s = hcl_runtime_create(hcl_runtime_device(rt), &options, &own);
  }
  if (s == HCL_OK) {
    s = hcl_reducer_create(own, decomp, &own_reducer);
  }
  TAP_OK(all_ranks(s == HCL_OK), "runtimes with a broken reduce.cl on rank 0 %s", hcl_status_message());
  hcl_status_clear();
  s = own_reducer ? filled_dot(own, own_reducer, decomp, &first) : HCL_EINTERNAL;
  TAP_OK(all_ranks(s == HCL_EINTERNAL && tap_contains(hcl_status_message(), "'reduce_dot' not found") &&
                   (hcl_par_rank() == 0 || tap_contains(hcl_status_message(), "rank 0 failed"))),
         "a kernel missing on rank 0 fails every rank: %s", hcl_status_message());
  snprintf(command, sizeof command, "cp %s/reduce.cl %s/reduce.cl", kernels, folder);
  copied = hcl_par_rank() != 0 || system(command) == 0;
  hcl_status_clear();
  s = copied && own_reducer ? filled_dot(own, own_reducer, decomp, &again) : HCL_EINTERNAL;
  TAP_OK(all_ranks(s == HCL_OK && again == want), "with the kernel back the build is retried: %.17g vs %.17g %s", again,
         want, hcl_status_message());
  hcl_reducer_destroy(&own_reducer);
  hcl_runtime_destroy(&own);
  if (hcl_par_rank() == 0) {
    snprintf(command, sizeof command, "rm -rf %s", folder);
    if (system(command) != 0) {
      tap_note("could not remove %s", folder);
    }
  }
}

/* Small integers, so products and their sums are exact in float and double: the device's sums must equal the
 * host's to the bit, whatever their order. */
static double range_value(int which, size_t k) {
  return (double)((int)((k * (2 + (size_t)which) + 3 * (size_t)which) % 5) - 2);
}

/* hcl_reduce_dot(a, b) and hcl_reduce_dot2(a, b, c) over the ranges [first, end) of buffers of `end` REALs, the same on every
 * rank, against hcl_par_size() times the host's sums. */
static void check_range(Runtime *rt, Reducer *reducer, Precision p, size_t first, size_t end) {
  HclStatus s = HCL_OK;
  cl_mem buffers[3] = {NULL, NULL, NULL};
  double *values = malloc(end * sizeof *values);
  double expect[2] = {0, 0}, one = 0, two[2] = {0, 0};
  s = values ? HCL_OK : HCL_ENOMEM;
  for (int which = 0; which < 3 && s == HCL_OK; which++) {
    for (size_t k = 0; k < end; k++) {
      values[k] = range_value(which, k);
    }
    s = hcl_runtime_upload_reals(rt, p, values, end, "test range", &buffers[which]);
  }
  for (size_t k = first; k < end; k++) {
    expect[0] += range_value(0, k) * range_value(1, k);
    expect[1] += range_value(0, k) * range_value(2, k);
  }
  if (s == HCL_OK) {
    s = hcl_reduce_dot(reducer, hcl_span_range(buffers[0], p, first, end), hcl_span_range(buffers[1], p, first, end),
                       &one);
  }
  if (s == HCL_OK) {
    s = hcl_reduce_dot2(reducer, hcl_span_range(buffers[0], p, first, end), hcl_span_range(buffers[1], p, first, end),
                        hcl_span_range(buffers[2], p, first, end), two);
  }
  double ranks = (double)hcl_par_size();
  TAP_OK(
      all_ranks(s == HCL_OK && one == ranks * expect[0] && two[0] == ranks * expect[0] && two[1] == ranks * expect[1]),
      "range dot products over [%zu, %zu) in %s: %g, %g and %g, expected %g and %g %s", first, end,
      hcl_precision_name(p), one, two[0], two[1], ranks * expect[0], ranks * expect[1], hcl_status_message());
  for (int which = 0; which < 3; which++) {
    if (buffers[which]) {
      clReleaseMemObject(buffers[which]);
    }
  }
  free(values);
  hcl_status_clear();
}

int main(int argc, char **argv) {
  Runtime *rt = NULL;
  Decomp *decomp = NULL;
  Reducer *reducer = NULL;
  HclStatus s = test_start_runtime(&argc, &argv, true, &rt);
  DecompSpec spec = {.nx = NX, .ny = NY};
  if (s == HCL_OK) {
    s = hcl_decomp_create(&spec, &decomp);
  }
  if (s == HCL_OK) {
    s = hcl_reducer_create(rt, decomp, &reducer);
  }
  if (TAP_OK(all_ranks(s == HCL_OK && argc == 2), "set-up on %d ranks, kernels in %s %s", hcl_par_size(),
             argc == 2 ? argv[1] : "(missing argument)", hcl_status_message())) {
    for (int p = 0; p < 2; p++) {
      check(rt, reducer, decomp, 1, p ? PRECISION_DOUBLE : PRECISION_SINGLE);
      check(rt, reducer, decomp, 3, p ? PRECISION_DOUBLE : PRECISION_SINGLE);
    }
    /* A NaN on the last rank's first owned point must reach min and max on every rank. */
    Field *f = NULL;
    FieldSpec fs = {.name = "eta", .nz = 1, .ghost = 1, .precision = PRECISION_DOUBLE};
    double *host = NULL, min = 0, max = 0;
    hcl_status_clear();
    s = hcl_field_create(rt, decomp, &fs, &f);
    if (s == HCL_OK) {
      host = calloc((size_t)hcl_field_nx(f) * hcl_field_ny(f), sizeof *host);
      s = host ? HCL_OK : HCL_ENOMEM;
    }
    if (s == HCL_OK) {
      host[0] = hcl_par_rank() == hcl_par_size() - 1 ? NAN : 0.0;
      s = hcl_field_write_owned(f, host);
    }
    if (s == HCL_OK) {
      s = hcl_reduce_min(reducer, hcl_field_span(f), &min);
    }
    if (s == HCL_OK) {
      s = hcl_reduce_max(reducer, hcl_field_span(f), &max);
    }
    TAP_OK(all_ranks(s == HCL_OK && isnan(min) && isnan(max)), "a NaN anywhere reaches min and max everywhere");
    free(host);
    hcl_field_destroy(&f);
    check_grid(rt, WIDE_NX, WIDE_NY);
    /* Empty, one place, starts and ends off every multiple (4, 64, 256, the chunks), and long enough for many
     * chunks and runs; the last: RRB's 2048^2 red places, where the first starts past the black ones. */
    const size_t ranges[][2] = {{5, 5},    {0, 1},       {3, 4},      {1, 70},
                                {7, 4103}, {13, 100003}, {0, 262144}, {1048576, 3145728}};
    for (int p = 0; p < 2; p++) {
      for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
        check_range(rt, reducer, p ? PRECISION_DOUBLE : PRECISION_SINGLE, ranges[r][0], ranges[r][1]);
      }
    }
    check_failed_build(rt, reducer, decomp, argv[1]);
  }
  hcl_reducer_destroy(&reducer);
  hcl_decomp_destroy(&decomp);
  hcl_runtime_destroy(&rt);
  int result = tap_done();
  hcl_par_finalize();
  return result;
}
