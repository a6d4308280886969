/* SPDX-License-Identifier: BSD-3-Clause */
/* test_harmonics.c: the least-squares harmonic analysis (harmonics.h) on synthetic records with known
 * harmonics: exact recovery over whole periods and over a record that is not (unevenly sampled), no leakage
 * from a harmonic above those fitted, the coefficients' scatter under Gaussian noise against their standard
 * error, the window of the last whole periods, and the refusals. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "harmonics.h"
#include "../support/tap.h"

#define PI 3.14159265358979323846

enum { SAMPLES_MAX = 4000 };

/* The signal: mean 0.013 plus four harmonics of T = 2.01 s (the submerged bar's period), amplitudes and
 * phases of the size a gauge sees. */
static const double OMEGA = 2 * PI / 2.01, MEAN = 0.013;
static const double AMPLITUDE[5] = {0, 0.01, 0.004, 0.0017, 0.0006};
static const double PHASE[5] = {0, 0.3, -2.1, 3.0, 1.2};

static double signal(double t, int harmonics) {
  double y = MEAN;
  for (int n = 1; n <= harmonics; n++) {
    y += AMPLITUDE[n] * cos(n * OMEGA * t - PHASE[n]);
  }
  return y;
}

/* splitmix64 (S. Vigna), then Box-Muller: the same normal deviates on every platform. */
static uint64_t rng_state = 12345;
static double uniform(void) {
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return ((z >> 11) + 0.5) / 9007199254740992.0; /* (0, 1) */
}
static double normal(void) {
  return sqrt(-2 * log(uniform())) * cos(2 * PI * uniform());
}

/* The largest error of the fitted mean, amplitudes and (where the amplitude is not tiny) phases. */
static double worst_error(const Harmonics *fit, int harmonics, double *phase_error) {
  double worst = fabs(fit->mean - MEAN);
  *phase_error = 0;
  for (int n = 1; n <= harmonics; n++) {
    worst = fmax(worst, fabs(fit->amplitude[n] - AMPLITUDE[n]));
    double d = remainder(fit->phase[n] - PHASE[n], 2 * PI);
    *phase_error = fmax(*phase_error, fabs(d));
  }
  return worst;
}

/* 7 whole periods at 40 samples each, the signal a sum of the fitted harmonics: the coefficients are exact to
 * rounding (the condition of the fit is about 1: its columns are orthogonal; 1e-14 of the amplitudes
 * allowed). */
static void whole_periods(void) {
  static double t[SAMPLES_MAX], y[SAMPLES_MAX];
  int n = 7 * 40;
  for (int k = 0; k < n; k++) {
    t[k] = 100 + k * 2.01 / 40; /* a record that starts late: the phases are of omega t, not of t - t[0] */
    y[k] = signal(t[k], 4);
  }
  Harmonics fit;
  HclStatus st = hcl_harmonics_fit(t, y, n, OMEGA, 4, &fit);
  double phase_error, worst = worst_error(&fit, 4, &phase_error);
  TAP_OK(st == HCL_OK && worst < 1e-14 && phase_error < 1e-11 && fit.rms_residual < 1e-15,
         "whole periods: amplitudes within %.1e m, phases within %.1e rad, residual %.1e %s", worst, phase_error,
         fit.rms_residual, hcl_status_message());
  double eval_error = 0;
  for (int k = 0; k < n; k += 7) {
    eval_error = fmax(eval_error, fabs(hcl_harmonics_eval(&fit, t[k]) - y[k]));
  }
  TAP_OK(eval_error < 1e-15, "hcl_harmonics_eval reproduces the record within %.1e m", eval_error);
}

/* 5.37 periods sampled at jittered times (a Fourier transform would leak here): still exact to rounding; the
 * condition number grows a little (the columns are no longer orthogonal), 1e-13 allowed. */
static void partial_record(void) {
  static double t[SAMPLES_MAX], y[SAMPLES_MAX];
  int n = 0;
  for (double tk = 3; tk < 3 + 5.37 * 2.01; tk += 0.05 * (0.5 + uniform())) {
    t[n] = tk;
    y[n++] = signal(tk, 4);
  }
  Harmonics fit;
  HclStatus st = hcl_harmonics_fit(t, y, n, OMEGA, 4, &fit);
  double phase_error, worst = worst_error(&fit, 4, &phase_error);
  TAP_OK(st == HCL_OK && worst < 1e-13 && phase_error < 1e-10,
         "5.37 periods, %d uneven samples: amplitudes within %.1e m, phases within %.1e rad %s", n, worst, phase_error,
         hcl_status_message());
}

/* A fourth harmonic in the record, three fitted, whole periods of equidistant samples: the fourth is
 * orthogonal to the columns, so the three are exact and the residual's rms is the fourth's, A_4 / sqrt(2). */
static void higher_harmonic_left_out(void) {
  static double t[SAMPLES_MAX], y[SAMPLES_MAX];
  int n = 10 * 32;
  for (int k = 0; k < n; k++) {
    t[k] = k * 2.01 / 32;
    y[k] = signal(t[k], 4);
  }
  Harmonics fit;
  HclStatus st = hcl_harmonics_fit(t, y, n, OMEGA, 3, &fit);
  double phase_error, worst = worst_error(&fit, 3, &phase_error);
  TAP_OK(st == HCL_OK && worst < 1e-14 && tap_close(fit.rms_residual, AMPLITUDE[4] / sqrt(2), 1e-12, 0),
         "a harmonic above those fitted: no leakage (%.1e m), residual %.6e m = A_4 / sqrt(2) %s", worst,
         fit.rms_residual, hcl_status_message());
}

/* Gaussian noise of sigma = 2 mm (a fifth of the first harmonic) over 20 periods of 50 samples (M = 1000):
 * each coefficient a_n, b_n has the standard error sigma sqrt(2 / M) = 8.9e-5 m, the mean sigma / sqrt(M),
 * and an amplitude's error is within that of the coefficients. 5 standard errors are allowed (a chance of
 * 6e-7 each). The residual's rms is sigma sqrt(1 - 9 / M) with a relative scatter of 1 / sqrt(2 M) = 2.2%; 5
 * of it allowed. */
static void noise(void) {
  static double t[SAMPLES_MAX], y[SAMPLES_MAX];
  const double sigma = 0.002;
  int n = 20 * 50;
  for (int k = 0; k < n; k++) {
    t[k] = k * 2.01 / 50;
    y[k] = signal(t[k], 4) + sigma * normal();
  }
  Harmonics fit;
  HclStatus st = hcl_harmonics_fit(t, y, n, OMEGA, 4, &fit);
  double se = sigma * sqrt(2.0 / n), worst = fabs(fit.mean - MEAN) / (sigma / sqrt(n));
  for (int h = 1; h <= 4; h++) {
    worst = fmax(worst, fabs(fit.amplitude[h] - AMPLITUDE[h]) / se);
  }
  double rms_expected = sigma * sqrt(1 - 9.0 / n);
  TAP_OK(st == HCL_OK && worst < 5 && tap_close(fit.rms_residual, rms_expected, 5 / sqrt(2.0 * n), 0),
         "noise of sigma %.3f m: the largest error %.2f standard errors (%.1e m each), residual %.5f m (expected "
         "%.5f) %s",
         sigma, worst, se, fit.rms_residual, rms_expected, hcl_status_message());
  /* The first harmonic's phase: standard error se / A_1 = 8.9e-3 rad. */
  double d = fabs(remainder(fit.phase[1] - PHASE[1], 2 * PI));
  TAP_OK(d < 5 * se / AMPLITUDE[1], "noise: the first harmonic's phase within %.2e rad (5 standard errors %.2e)", d,
         5 * se / AMPLITUDE[1]);
}

static void window(void) {
  static double t[SAMPLES_MAX];
  int n = 0;
  for (int k = 0; k <= 10 * 40 + 13; k++) {
    t[n++] = 0.7 + k * 2.01 / 40;
  }
  int first = hcl_harmonics_window(t, n, OMEGA, 3);
  TAP_OK(first == n - 1 - 3 * 40, "the last 3 whole periods start at sample %d (expected %d)", first, n - 1 - 3 * 40);
  TAP_OK(hcl_harmonics_window(t, n, OMEGA, 11) == -1 && hcl_harmonics_window(t, n, OMEGA, (n - 1) / 40.0) == 0,
         "a window longer than the record: -1; as long as it: 0");
}

static void refusal(HclStatus got, const char *part, const char *what) {
  TAP_OK(got == HCL_EDATA && tap_contains(hcl_status_message(), part), "%s refused: %s", what, hcl_status_message());
  hcl_status_clear();
}

static void refusals(void) {
  double t[64], y[64];
  for (int k = 0; k < 64; k++) {
    t[k] = k * 2.01 / 2; /* two samples per period, at two phases only */
    y[k] = signal(t[k], 1);
  }
  Harmonics fit;
  refusal(hcl_harmonics_fit(t, y, 64, 0, 2, &fit), "omega = 0", "omega 0");
  refusal(hcl_harmonics_fit(t, y, 64, OMEGA, 0, &fit), "0 harmonics", "no harmonics");
  refusal(hcl_harmonics_fit(t, y, 64, OMEGA, HARMONICS_MAX + 1, &fit), "harmonics", "too many harmonics");
  refusal(hcl_harmonics_fit(t, y, 4, OMEGA, 2, &fit), "4 samples for 2 harmonics", "too few samples");
  refusal(hcl_harmonics_fit(t, y, 64, OMEGA, 2, &fit), "rank deficient", "two samples per period");
  y[5] = NAN;
  refusal(hcl_harmonics_fit(t, y, 64, OMEGA, 1, &fit), "sample 5 is not finite", "a NaN sample");
}

int main(void) {
  whole_periods();
  partial_record();
  higher_harmonic_left_out();
  noise();
  window();
  refusals();
  return tap_done();
}
