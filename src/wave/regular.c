/* SPDX-License-Identifier: BSD-3-Clause */
/* regular.c: regular waves (waves.h): the dispersion relation, the highest wave, and the evaluation of any
 * regular wave's Fourier series (stream function or linear) in the fixed frame. */
#include "waves.h"

#include <math.h>

#define PI 3.14159265358979323846

/* The intrinsic frequency sigma(k) = sqrt(g k tanh(k h)) and the group velocity
 * d sigma / dk = g (tanh(k h) + k h sech^2(k h)) / (2 sigma). */
static double intrinsic_frequency(double g, double depth, double k, double *group_velocity) {
  double t = tanh(k * depth), sech = 1 / cosh(k * depth);
  double sigma = sqrt(g * k * t);
  *group_velocity = g * (t + k * depth * sech * sech) / (2 * sigma);
  return sigma;
}

/* f(k) = omega - k U - sigma(k) is convex (sigma is concave) and f(0) = omega > 0; its tangent at 0,
 * omega - (U + sqrt(g h)) k, lies below it, so Newton's method from that tangent's root rises monotonically
 * to the smaller root of f, or finds f' >= 0 with f > 0 where f has no root (the wave is blocked). */
HclStatus hcl_waves_solve_dispersion(double g, double depth, double period, double current, double *k) {
  HclStatus status = HCL_OK;
  REQUIRE(g > 0 && isfinite(g), HCL_EDATA, "waves.g = %g m/s^2: must be > 0", g);
  REQUIRE(depth > 0 && isfinite(depth), HCL_EDATA, "waves.depth = %g m: must be > 0", depth);
  REQUIRE(period > 0 && isfinite(period), HCL_EDATA, "waves.period = %g s: must be > 0", period);
  REQUIRE(isfinite(current), HCL_EDATA, "waves.current = %g m/s: must be finite", current);
  double omega = 2 * PI / period, long_wave_speed = sqrt(g * depth);
  REQUIRE(current + long_wave_speed > 0, HCL_EDATA,
          "waves.current = %g m/s: an opposing current faster than sqrt(g h) = %g m/s blocks every wave "
          "(allowed: > %g m/s)",
          current, long_wave_speed, -long_wave_speed);
  double kk = omega / (current + long_wave_speed);
  for (int iteration = 0; iteration < 100; iteration++) {
    double group_velocity, f = omega - kk * current - intrinsic_frequency(g, depth, kk, &group_velocity);
    double slope = -current - group_velocity;
    REQUIRE(slope < 0, HCL_EDATA,
            "waves.period = %g s is blocked by the opposing current waves.current = %g m/s in depth %g m: the "
            "group velocity %g m/s cannot overcome it (a longer period or a weaker current passes)",
            period, current, depth, group_velocity);
    double step = -f / slope;
    kk += step;
    if (fabs(step) <= 1e-15 * kk) {
      *k = kk;
      goto cleanup;
    }
  }
  FAIL(HCL_ENOTCONVERGED,
       "the dispersion relation for waves.period = %g s, depth %g m, current %g m/s did not converge in 100 "
       "Newton iterations (please report)",
       period, depth, current);
cleanup:
  return status;
}

double hcl_waves_breaking_height(double depth, double length) {
  double r = length / depth; /* Fenton (1990) eq. 32 */
  return depth * (0.141063 * r + 0.0095721 * r * r + 0.0077829 * r * r * r) /
         (1 + 0.0788340 * r + 0.0317567 * r * r + 0.0093407 * r * r * r);
}

/* The series of a regular wave at phase theta and elevation z: with C_j = cosh(j k (z + h)) / cosh(j k h) and
 * S_j = sinh(j k (z + h)) / cosh(j k h), computed as e^{j k z} (1 +- e^{-2 j k (z + h)}) / (1 + e^{-2 j k h})
 * so that nothing overflows in deep water, the powers and the multiple angles by recurrence. */
typedef struct {
  double psi;  /* sum B_j S_j cos(j theta) */
  double phi;  /* sum B_j C_j sin(j theta) */
  double u, w; /* sum j k B_j C_j cos(j theta), sum j k B_j S_j sin(j theta) */
} Series;

static Series sum_series(const RegularWave *wave, double theta, double z) {
  Series s = {0, 0, 0, 0};
  double grow = exp(wave->k * z), bed = exp(-2 * wave->k * (z + wave->depth));
  double still = exp(-2 * wave->k * wave->depth);
  double grow_j = 1, bed_j = 1, still_j = 1, cos_j = 1, sin_j = 0, cos1 = cos(theta), sin1 = sin(theta);
  for (int j = 1; j <= wave->modes; j++) {
    grow_j *= grow;
    bed_j *= bed;
    still_j *= still;
    double next_cos = cos_j * cos1 - sin_j * sin1;
    sin_j = sin_j * cos1 + cos_j * sin1;
    cos_j = next_cos;
    double scale = wave->B[j] * grow_j / (1 + still_j);
    double c_j = scale * (1 + bed_j), s_j = scale * (1 - bed_j), jk = j * wave->k;
    s.psi += s_j * cos_j;
    s.phi += c_j * sin_j;
    s.u += jk * c_j * cos_j;
    s.w += jk * s_j * sin_j;
  }
  return s;
}

static double phase(const RegularWave *wave, double x, double t) {
  return wave->k * (x - wave->celerity * t);
}

double hcl_waves_eta(const RegularWave *wave, double x, double t) {
  double theta = phase(wave, x, t), eta = 0;
  double cos_j = 1, sin_j = 0, cos1 = cos(theta), sin1 = sin(theta);
  for (int j = 1; j <= wave->modes; j++) {
    double next_cos = cos_j * cos1 - sin_j * sin1;
    sin_j = sin_j * cos1 + cos_j * sin1;
    cos_j = next_cos;
    eta += wave->E[j] * cos_j;
  }
  return eta;
}

double hcl_waves_phi(const RegularWave *wave, double x, double t) {
  double z = wave->kind == WAVES_LINEAR ? 0 : hcl_waves_eta(wave, x, t);
  Series s = sum_series(wave, phase(wave, x, t), z);
  return wave->current_euler * x + s.phi + wave->potential_rate * t;
}

void hcl_waves_velocity(const RegularWave *wave, double x, double z, double t, double *u, double *w) {
  Series s = sum_series(wave, phase(wave, x, t), z);
  *u = wave->current_euler + s.u;
  *w = s.w;
}

/* Bernoulli in the frame of the wave; a linear wave keeps the first-order part, Ubar (u - c_E), of
 * -(u - c)^2 / 2. */
double hcl_waves_pressure(const RegularWave *wave, double x, double z, double t) {
  double u, w, ubar = wave->celerity - wave->current_euler;
  hcl_waves_velocity(wave, x, z, t, &u, &w);
  if (wave->kind == WAVES_LINEAR) {
    return ubar * (u - wave->current_euler);
  }
  double relative = u - wave->celerity;
  return wave->bernoulli - wave->g * wave->depth - (relative * relative + w * w) / 2;
}

double hcl_waves_stream(const RegularWave *wave, double x, double z, double t) {
  Series s = sum_series(wave, phase(wave, x, t), z);
  return -(wave->celerity - wave->current_euler) * (z + wave->depth) + s.psi;
}
