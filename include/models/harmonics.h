/* SPDX-License-Identifier: BSD-3-Clause */
/* harmonics.h: harmonic analysis of a record of a periodic signal (a wave gauge's eta, a velocity at a
 * point): the least-squares fit of y(t) ~ mean + sum_{n=1..N} (a_n cos(n omega t) + b_n sin(n omega t)) =
 * mean + sum_{n=1..N} A_n cos(n omega t - theta_n),   A_n = hypot(a_n, b_n), theta_n = atan2(b_n, a_n), to
 * samples (t_k, y_k) at any times, with the fundamental omega given (the wave maker's frequency). Over whole
 * periods of equidistant samples the fit's columns are orthogonal and a_n, b_n are the discrete Fourier
 * coefficients; over a record that is not a whole number of periods, or unevenly sampled, the fit is still
 * the least-squares one (the coefficients of a signal that is such a sum are recovered exactly), where a
 * Fourier transform would leak between the harmonics. Frequencies above N omega in the record are not fitted:
 * they leave their power in the residual, not in the amplitudes (up to the aliasing of the sampling).
 *
 * The fit is a streamed QR factorization (Givens rotations, one sample at a time, nothing stored per sample),
 * so its accuracy is that of the problem's condition, not its square as with the normal equations. Host only,
 * no device, no allocation. */
#ifndef HYDROCL_HARMONICS_H
#define HYDROCL_HARMONICS_H

#include "status.h"

enum { HARMONICS_MAX = 32 };

typedef struct {
  double omega;                        /* the fundamental [rad/s] */
  int harmonics;                       /* N */
  int samples;                         /* fitted */
  double mean;                         /* the record's mean over the fit (the zeroth harmonic) */
  double a[HARMONICS_MAX + 1];         /* cosine coefficients, n = 1 .. N (a[0] = mean) */
  double b[HARMONICS_MAX + 1];         /* sine coefficients (b[0] = 0) */
  double amplitude[HARMONICS_MAX + 1]; /* A_n (amplitude[0] = |mean|) */
  double phase[HARMONICS_MAX + 1];     /* theta_n [rad] in (-pi, pi] (phase[0] = 0) */
  double rms_residual;                 /* sqrt(sum (y_k - fit(t_k))^2 / samples) */
} Harmonics;

/* Fits the N = harmonics harmonics of omega to the n samples (t[k], y[k]). HCL_EDATA, naming the value and
 * the fix, for: omega <= 0 or not finite, harmonics outside 1 .. HARMONICS_MAX, fewer samples than the 2 N +
 * 1 coefficients, a non-finite sample, and samples that do not determine the coefficients (too few per period
 * for N harmonics, or all at a few phases of the period: the fit's matrix is rank deficient). */
HclStatus hcl_harmonics_fit(const double *t, const double *y, int n, double omega, int harmonics, Harmonics *out);

/* The first of the samples t[0 .. n - 1] (increasing) inside the last `periods` whole periods 2 pi / omega of
 * the record, t >= t[n - 1] - periods 2 pi / omega (to a millionth of the sampling step at the start), or -1
 * when the record is shorter. With equidistant samples a whole number of steps per period, hcl_harmonics_fit from
 * there fits periods 2 pi / omega plus one sample. */
int hcl_harmonics_window(const double *t, int n, double omega, double periods);

/* The value of the fit at t. */
double hcl_harmonics_eval(const Harmonics *fit, double t);

#endif
