/* SPDX-License-Identifier: BSD-3-Clause */
/* harmonics.c: the least-squares harmonic analysis of a record (harmonics.h).
 *
 * The fit's matrix has the row x_k = (1, cos(omega t_k), sin(omega t_k), ..., cos(N omega t_k), sin(N omega
 * t_k)) per sample. Its QR factorization is built a row at a time by Givens rotations (G. H. Golub and C. F.
 * Van Loan, "Matrix Computations", 4th ed., section 5.1.8 and the updating of section 6.5): R (m x m, m = 2 N
 * + 1) and the rotated right-hand side z start at zero; each row is rotated into R column by column, and what
 * remains of its right-hand side is its part of the residual, which accumulates as the residual sum of
 * squares. The coefficients are the back substitution R c = z. */
#include "harmonics.h"

#include <math.h>
#include <string.h>

#define PI 3.14159265358979323846

enum { COLUMNS_MAX = 2 * HARMONICS_MAX + 1 };

/* The regressors of one sample: 1, then cos and sin of each harmonic, by the angle-addition recurrence from
 * the fundamental's (accurate to a few ulps per harmonic: 32 harmonics lose under 1e-14). */
static void regressors(double omega, int harmonics, double t, double *x) {
  double c1 = cos(omega * t), s1 = sin(omega * t), c = 1, s = 0;
  x[0] = 1;
  for (int n = 1; n <= harmonics; n++) {
    double cn = c * c1 - s * s1;
    s = s * c1 + c * s1;
    c = cn;
    x[2 * n - 1] = c;
    x[2 * n] = s;
  }
}

HclStatus hcl_harmonics_fit(const double *t, const double *y, int n, double omega, int harmonics, Harmonics *out) {
  HclStatus status = HCL_OK;
  double R[COLUMNS_MAX][COLUMNS_MAX], z[COLUMNS_MAX], x[COLUMNS_MAX], c[COLUMNS_MAX];
  memset(out, 0, sizeof *out);
  REQUIRE(omega > 0 && isfinite(omega), HCL_EDATA, "harmonic analysis: omega = %g rad/s: must be > 0", omega);
  REQUIRE(harmonics >= 1 && harmonics <= HARMONICS_MAX, HCL_EDATA, "harmonic analysis: %d harmonics: allowed 1 to %d",
          harmonics, HARMONICS_MAX);
  int m = 2 * harmonics + 1;
  REQUIRE(n >= m, HCL_EDATA,
          "harmonic analysis: %d samples for %d harmonics: the fit has %d coefficients (mean, cosine and sine "
          "of each); give a longer record",
          n, harmonics, m);
  memset(R, 0, sizeof R);
  memset(z, 0, sizeof z);
  double rss = 0;
  for (int k = 0; k < n; k++) {
    REQUIRE(isfinite(t[k]) && isfinite(y[k]), HCL_EDATA,
            "harmonic analysis: sample %d is not finite (t = %g s, y = %g)", k, t[k], y[k]);
    regressors(omega, harmonics, t[k], x);
    double rhs = y[k];
    for (int j = 0; j < m; j++) {
      if (x[j] == 0) {
        continue;
      }
      double r = hypot(R[j][j], x[j]), cs = R[j][j] / r, sn = x[j] / r;
      for (int q = j; q < m; q++) {
        double top = R[j][q], bottom = x[q];
        R[j][q] = cs * top + sn * bottom;
        x[q] = -sn * top + cs * bottom;
      }
      double top = z[j];
      z[j] = cs * top + sn * rhs;
      rhs = -sn * top + cs * rhs;
    }
    rss += rhs * rhs;
  }
  /* Each column's norm is about sqrt(n / 2) (sqrt(n) for the mean's): a diagonal entry of R below 1e-8 of
   * that is a column the samples do not tell from the others. */
  double scale = sqrt(0.5 * n);
  for (int j = 0; j < m; j++) {
    REQUIRE(fabs(R[j][j]) > 1e-8 * scale, HCL_EDATA,
            "harmonic analysis: the %d samples do not determine harmonic %d of omega = %g rad/s (the fit's "
            "matrix is rank deficient): sample at least %d times per period, at distinct phases, or fit fewer "
            "harmonics",
            n, (j + 1) / 2, omega, m);
  }
  for (int j = m - 1; j >= 0; j--) {
    double sum = z[j];
    for (int q = j + 1; q < m; q++) {
      sum -= R[j][q] * c[q];
    }
    c[j] = sum / R[j][j];
  }
  out->omega = omega;
  out->harmonics = harmonics;
  out->samples = n;
  out->mean = out->a[0] = c[0];
  out->amplitude[0] = fabs(c[0]);
  for (int h = 1; h <= harmonics; h++) {
    out->a[h] = c[2 * h - 1];
    out->b[h] = c[2 * h];
    out->amplitude[h] = hypot(out->a[h], out->b[h]);
    out->phase[h] = atan2(out->b[h], out->a[h]);
  }
  out->rms_residual = sqrt(rss / n);
cleanup:
  return status;
}

int hcl_harmonics_window(const double *t, int n, double omega, double periods) {
  if (n < 2 || !(omega > 0) || !(periods > 0)) {
    return -1;
  }
  double start = t[n - 1] - periods * 2 * PI / omega, slack = 1e-6 * (t[n - 1] - t[0]) / (n - 1);
  if (t[0] > start + slack) {
    return -1;
  }
  int first = n - 1;
  while (first > 0 && t[first - 1] >= start - slack) {
    first--;
  }
  return first;
}

double hcl_harmonics_eval(const Harmonics *fit, double t) {
  double x[COLUMNS_MAX], sum = fit->mean;
  regressors(fit->omega, fit->harmonics, t, x);
  for (int n = 1; n <= fit->harmonics; n++) {
    sum += fit->a[n] * x[2 * n - 1] + fit->b[n] * x[2 * n];
  }
  return sum;
}
