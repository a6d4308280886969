/* SPDX-License-Identifier: BSD-3-Clause */
/* irregular.c: irregular waves (waves.h): a JONSWAP or Pierson-Moskowitz spectrum discretised into linear
 * components of one direction with random phases from splitmix64, and their superposition. */
#include "waves.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

IrregularWaveSpec hcl_waves_irregular_spec_default(void) {
  return (IrregularWaveSpec){.spectrum = WAVES_JONSWAP,
                             .g = 9.81,
                             .gamma = 3.3,
                             .components = WAVES_COMPONENTS_DEFAULT,
                             .band_low = 0.5,
                             .band_high = 4,
                             .seed = 1};
}

/* splitmix64 (S. Vigna, https://prng.di.unimi.it/splitmix64.c): integer arithmetic modulo 2^64 only, so the
 * same sequence on every platform. */
static uint64_t splitmix64(uint64_t *state) {
  uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

/* JONSWAP's peak enhancement gamma^r at x = f / f_p (sigma_a = 0.07 below the peak, sigma_b = 0.09 above). */
static double peak_enhancement(double gamma, double x) {
  double sigma = x <= 1 ? 0.07 : 0.09;
  return pow(gamma, exp(-(x - 1) * (x - 1) / (2 * sigma * sigma)));
}

/* J(gamma) = integral of S_PM gamma^r / m0 over f > 0. With u = exp(-5/4 (f_p / f)^4), the Pierson-Moskowitz
 * distribution function, S_PM df / m0 = du, so J = integral over 0 < u < 1 of gamma^r(x(u)) with
 * x = (-5 / (4 ln u))^1/4: a smooth bounded integrand (1 at both ends), by Simpson's rule on each side of the
 * peak u_p = e^-5/4 (r'' jumps there), 2000 intervals each (the peak is 0.1 wide in u: error ~1e-12). */
static double enhancement_integral(double gamma) {
  enum { INTERVALS = 2000 };
  const double bounds[3] = {0, exp(-1.25), 1};
  double total = 0;
  for (int side = 0; side < 2; side++) {
    double a = bounds[side], step = (bounds[side + 1] - a) / INTERVALS, sum = 0;
    for (int i = 0; i <= INTERVALS; i++) {
      double u = a + i * step;
      double value = u <= 0 || u >= 1 ? 1 : peak_enhancement(gamma, pow(-1.25 / log(u), 0.25));
      sum += (i == 0 || i == INTERVALS ? 1 : i % 2 ? 4 : 2) * value;
    }
    total += sum * step / 3;
  }
  return total;
}

/* S(f) [m^2/Hz] (waves.h); normalisation = 1 / J(gamma), or 1 for Pierson-Moskowitz. */
static double spectral_density(const IrregularWaveSpec *spec, double normalisation, double f) {
  double fp = 1 / spec->tp, ratio = fp / f;
  double pm = 5.0 / 16 * spec->hs * spec->hs / fp * pow(ratio, 5) * exp(-1.25 * pow(ratio, 4));
  return spec->spectrum == WAVES_JONSWAP ? pm * peak_enhancement(spec->gamma, f / fp) * normalisation : pm;
}

static HclStatus check_spec(const IrregularWaveSpec *spec) {
  HclStatus status = HCL_OK;
  REQUIRE(spec->spectrum == WAVES_JONSWAP || spec->spectrum == WAVES_PIERSON_MOSKOWITZ, HCL_EDATA,
          "waves.spectrum = %d: allowed JONSWAP or Pierson-Moskowitz", (int)spec->spectrum);
  REQUIRE(spec->g > 0 && isfinite(spec->g), HCL_EDATA, "waves.g = %g m/s^2: must be > 0", spec->g);
  REQUIRE(spec->depth > 0 && isfinite(spec->depth), HCL_EDATA, "waves.depth = %g m: must be > 0", spec->depth);
  REQUIRE(spec->hs > 0 && isfinite(spec->hs), HCL_EDATA, "waves.hs = %g m: must be > 0", spec->hs);
  REQUIRE(spec->tp > 0 && isfinite(spec->tp), HCL_EDATA, "waves.tp = %g s: must be > 0", spec->tp);
  REQUIRE(spec->spectrum != WAVES_JONSWAP || (spec->gamma >= 1 && spec->gamma <= 10), HCL_EDATA,
          "waves.gamma = %g: allowed 1 to 10", spec->gamma);
  REQUIRE(isfinite(spec->direction), HCL_EDATA, "waves.direction = %g rad: must be finite", spec->direction);
  REQUIRE(spec->components >= 1 && spec->components <= WAVES_COMPONENTS_MAX, HCL_EDATA,
          "waves.components = %d: allowed 1 to %d", spec->components, WAVES_COMPONENTS_MAX);
  bool band = spec->band_low > 0 && spec->band_low < 1 && spec->band_high > 1 && isfinite(spec->band_high);
  REQUIRE(band, HCL_EDATA,
          "waves.band_low = %g, waves.band_high = %g (multiples of the peak frequency): allowed 0 < band_low < "
          "1 < band_high",
          spec->band_low, spec->band_high);
cleanup:
  return status;
}

HclStatus hcl_waves_irregular_create(const IrregularWaveSpec *spec, IrregularWave *out) {
  HclStatus status = HCL_OK;
  IrregularWave wave = {
      .components = spec->components, .g = spec->g, .depth = spec->depth, .direction = spec->direction};
  memset(out, 0, sizeof *out);
  TRY(check_spec(spec));
  int m = spec->components;
  TRY_ALLOC(wave.omega, m);
  TRY_ALLOC(wave.amplitude, m);
  TRY_ALLOC(wave.k, m);
  TRY_ALLOC(wave.phase, m);
  double normalisation = spec->spectrum == WAVES_JONSWAP ? 1 / enhancement_integral(spec->gamma) : 1;
  double fp = 1 / spec->tp, df = (spec->band_high - spec->band_low) * fp / m;
  uint64_t state = spec->seed;
  for (int i = 0; i < m; i++) {
    double f = spec->band_low * fp + (i + 0.5) * df;
    wave.omega[i] = 2 * PI * f;
    wave.amplitude[i] = sqrt(2 * spectral_density(spec, normalisation, f) * df);
    TRY(hcl_waves_solve_dispersion(spec->g, spec->depth, 1 / f, 0, &wave.k[i]));
    wave.phase[i] = 2 * PI * (double)(splitmix64(&state) >> 11) * 0x1.0p-53; /* 53 random bits: [0, 2 pi) */
  }
  *out = wave;
  wave = (IrregularWave){0};
cleanup:
  hcl_waves_irregular_free(&wave);
  return status;
}

void hcl_waves_irregular_free(IrregularWave *wave) {
  if (!wave) {
    return;
  }
  free(wave->omega);
  free(wave->amplitude);
  free(wave->k);
  free(wave->phase);
  wave->omega = wave->amplitude = wave->k = wave->phase = NULL;
}

double hcl_waves_irregular_eta(const IrregularWave *wave, double x, double y, double t) {
  double along = x * cos(wave->direction) + y * sin(wave->direction), eta = 0;
  for (int i = 0; i < wave->components; i++) {
    eta += wave->amplitude[i] * cos(wave->k[i] * along - wave->omega[i] * t + wave->phase[i]);
  }
  return eta;
}

double hcl_waves_irregular_phi(const IrregularWave *wave, double x, double y, double t) {
  double along = x * cos(wave->direction) + y * sin(wave->direction), phi = 0;
  for (int i = 0; i < wave->components; i++) {
    phi +=
        wave->g * wave->amplitude[i] / wave->omega[i] * sin(wave->k[i] * along - wave->omega[i] * t + wave->phase[i]);
  }
  return phi;
}
