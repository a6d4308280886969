/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_series_csv.c: libFuzzer target of the CSV readers of inputs.h: the bytes are a file "series.csv" read by
 * hcl_input_read_series (a boundary's 'time,value' series) and then by hcl_input_read_grid as a grid of the shape its
 * first data line and its count of data lines suggest (bed.file, a CSV of ny lines of nx numbers). A refusal is a
 * pass. Checked besides the sanitizers: an accepted series has finite, strictly increasing times and finite values
 * (inputs.h), and hcl_input_series_at stays within the least and greatest sample; an accepted grid is finite. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_support.h"
#include "inputs.h"

enum { GRID_POINTS_MAX = 1 << 16 };

static void check_series(const double *t, const double *v, int n) {
  FUZZ_CHECK(n > 0, "an accepted series has %d samples", n);
  for (int k = 0; k < n; k++) {
    FUZZ_CHECK(isfinite(t[k]) && isfinite(v[k]), "sample %d: time %g, value %g", k, t[k], v[k]);
    FUZZ_CHECK(k == 0 || t[k] > t[k - 1], "time %g at %d does not follow %g", t[k], k, k ? t[k - 1] : 0);
  }
  double probes[] = {t[0] - 1, t[0], t[n - 1], t[n - 1] + 1, t[n / 2], 0.5 * t[n / 2] + 0.5 * t[(n - 1) / 2]};
  for (size_t p = 0; p < sizeof probes / sizeof probes[0]; p++) {
    double at = hcl_input_series_at(t, v, n, probes[p]);
    double lo = v[0], hi = v[0];
    for (int k = 1; k < n; k++) {
      lo = fmin(lo, v[k]);
      hi = fmax(hi, v[k]);
    }
    /* Linear interpolation between two finite samples; the weights' rounding may leave it an ulp outside. */
    FUZZ_CHECK(!isfinite(at) || (at >= lo - 1e-12 * fabs(lo) && at <= hi + 1e-12 * fabs(hi)),
               "hcl_input_series_at(%g) = %g outside the samples' %g to %g", probes[p], at, lo, hi);
  }
}

/* The grid shape a CSV grid of this text would have: its data lines (not blank, not '#') and the fields of the
 * first. */
static void guess_shape(const uint8_t *data, size_t size, int *nx, int *ny) {
  *nx = *ny = 0;
  for (size_t at = 0; at < size;) {
    const uint8_t *newline = memchr(data + at, '\n', size - at);
    size_t end = newline ? (size_t)(newline - data) : size;
    bool blank = true;
    for (size_t k = at; k < end; k++) {
      blank = blank && (data[k] == ' ' || data[k] == '\t' || data[k] == '\r');
    }
    if (end > at && data[at] != '#' && !blank) {
      if (*ny == 0) {
        for (size_t k = at; k < end; k++) {
          bool separator = data[k] == ' ' || data[k] == '\t' || data[k] == ',' || data[k] == '\r';
          bool starts = k == at || data[k - 1] == ' ' || data[k - 1] == '\t' || data[k - 1] == ',';
          *nx += !separator && starts;
        }
      }
      (*ny)++;
    }
    at = end + 1;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_write("series.csv", data, size);
  double *t = NULL, *v = NULL;
  int n = 0;
  HclStatus status = hcl_input_read_series(path, 0, "m", &t, &v, &n);
  if (status == HCL_OK) {
    check_series(t, v, n);
  }
  fuzz_accept(status);
  free(t);
  free(v);

  int nx = 0, ny = 0;
  guess_shape(data, size, &nx, &ny);
  if (nx >= 1 && ny >= 1 && (size_t)nx * (size_t)ny <= GRID_POINTS_MAX) {
    fuzz_read_grid(path, NULL, nx, ny);
  }
  return 0;
}
