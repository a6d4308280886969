/* SPDX-License-Identifier: BSD-3-Clause */
/* maccamy_fuchs.h: linear diffraction of a regular wave by a bottom-mounted vertical cylinder (R. C. MacCamy and R.
 * A. Fuchs, "Wave forces on piles: a diffraction theory", Beach Erosion Board Tech. Memo 69, 1954): the incident
 * wave eta_I = A Re(exp(i (k x - omega t))) = A Re(sum_m eps_m i^m J_m(k r) cos(m theta) exp(-i omega t)) on a
 * cylinder of radius a at the origin, with theta from the +x direction (the wave's; theta = pi faces the wave) and
 * eps_0 = 1, eps_m = 2, gives the total elevation's complex amplitude
 *   eta / A = sum_m eps_m i^m (J_m(k r) - J_m'(k a) H_m(k r) / H_m'(k a)) cos(m theta),   H_m = J_m + i Y_m,
 * and on the cylinder, by the Wronskian J_m H_m' - J_m' H_m = 2 i / (pi k a),
 *   eta(a, theta) / A = sum_m eps_m i^m 2 i / (pi k a H_m'(k a)) cos(m theta).
 * The series is summed to m = k r + 30, where its terms are below 1e-15 of the first. Depth enters only through k. */
#ifndef HYDROCL_TEST_MACCAMY_FUCHS_H
#define HYDROCL_TEST_MACCAMY_FUCHS_H

#include <complex.h>
#include <math.h>

#define MF_PI 3.14159265358979323846

/* J_m'(x) and Y_m'(x) from the recurrences: Z_m' = (Z_{m-1} - Z_{m+1}) / 2, Z_0' = -Z_1. */
static inline double mf_jn_prime(int m, double x) {
  return m == 0 ? -jn(1, x) : 0.5 * (jn(m - 1, x) - jn(m + 1, x));
}

static inline double mf_yn_prime(int m, double x) {
  return m == 0 ? -yn(1, x) : 0.5 * (yn(m - 1, x) - yn(m + 1, x));
}

/* |eta| / A at (r, theta), r >= a. */
static inline double mf_amplitude(double k, double a, double r, double theta) {
  double complex sum = 0, i_m = 1;
  int terms = (int)(k * r) + 30;
  for (int m = 0; m <= terms; m++, i_m *= I) {
    double complex h_prime = mf_jn_prime(m, k * a) + I * mf_yn_prime(m, k * a);
    double complex hankel = jn(m, k * r) + I * yn(m, k * r);
    double complex radial = jn(m, k * r) - mf_jn_prime(m, k * a) * hankel / h_prime;
    sum += (m == 0 ? 1 : 2) * i_m * radial * cos(m * theta);
  }
  return cabs(sum);
}

#endif
