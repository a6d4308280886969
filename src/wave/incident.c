/* SPDX-License-Identifier: BSD-3-Clause */
/* incident.c: incident waves in the form the wave model's relaxation kernel evaluates (wave.h, WaveIncident): a
 * sum of travelling components for eta and phi, built from a regular wave's Fourier series or an irregular sea's
 * components (waves.h). */
#include "wave.h"

#include <math.h>
#include <stdlib.h>

#define PI 3.14159265358979323846

/* Samples of one period of the surface potential's periodic part: M = 2 WAVE_INCIDENT_MODES_MAX points resolve the
 * sine series up to WAVE_INCIDENT_MODES_MAX - 1 terms without aliasing of the terms kept. */
enum { SAMPLES = 2 * WAVE_INCIDENT_MODES_MAX };

static HclStatus allocate(int components, WaveIncident *out) {
  HclStatus status = HCL_OK;
  *out = (WaveIncident){.components = components};
  TRY_ALLOC(out->kx, components);
  TRY_ALLOC(out->ky, components);
  TRY_ALLOC(out->omega, components);
  TRY_ALLOC(out->phase, components);
  TRY_ALLOC(out->eta_amplitude, components);
  TRY_ALLOC(out->phi_amplitude, components);
cleanup:
  if (status != HCL_OK) {
    hcl_wave_incident_free(out);
  }
  return status;
}

/* The regular wave's surface potential is c_E x + A t + F(theta), theta = k (x - c t), with F odd in theta (eta is
 * even about the crest): F(theta) = sum_m P_m sin(m theta), P_m = (2 / M) sum_n F(theta_n) sin(m theta_n) over M
 * equidistant samples (exact for a trigonometric polynomial of degree below M / 2). Terms from the last above
 * 1e-13 of the largest are kept; eta's harmonics are the wave's E_j. */
HclStatus hcl_wave_incident_regular(const RegularWave *wave, double direction, double x_origin, WaveIncident *out) {
  HclStatus status = HCL_OK;
  double F[SAMPLES], P[WAVE_INCIDENT_MODES_MAX], largest = 0;
  for (int n = 0; n < SAMPLES; n++) {
    double x = 2 * PI * n / SAMPLES / wave->k;
    F[n] = hcl_waves_phi(wave, x, 0) - wave->current_euler * x;
  }
  int modes = 0;
  for (int m = 1; m < WAVE_INCIDENT_MODES_MAX; m++) {
    double sum = 0;
    for (int n = 0; n < SAMPLES; n++) {
      sum += F[n] * sin(2 * PI * m * n / SAMPLES);
    }
    P[m] = 2 * sum / SAMPLES;
    largest = fmax(largest, fabs(P[m]));
  }
  for (int m = 1; m < WAVE_INCIDENT_MODES_MAX; m++) {
    if (fabs(P[m]) > 1e-13 * largest || m <= wave->modes) {
      modes = m;
    }
  }
  TRY(allocate(modes, out));
  double cx = cos(direction), sy = sin(direction);
  for (int m = 1; m <= modes; m++) {
    WaveIncident *o = out;
    o->kx[m - 1] = m * wave->k * cx;
    o->ky[m - 1] = m * wave->k * sy;
    o->omega[m - 1] = m * wave->k * wave->celerity;
    o->phase[m - 1] = -m * wave->k * x_origin * cx;
    o->eta_amplitude[m - 1] = m <= wave->modes ? wave->E[m] : 0;
    o->phi_amplitude[m - 1] = P[m];
  }
  out->current_x = wave->current_euler * cx;
  out->current_y = wave->current_euler * sy;
  out->potential_rate = wave->potential_rate;
cleanup:
  return status;
}

HclStatus hcl_wave_incident_irregular(const IrregularWave *wave, WaveIncident *out) {
  HclStatus status = HCL_OK;
  TRY(allocate(wave->components, out));
  for (int c = 0; c < wave->components; c++) {
    out->kx[c] = wave->k[c] * cos(wave->direction);
    out->ky[c] = wave->k[c] * sin(wave->direction);
    out->omega[c] = wave->omega[c];
    out->phase[c] = wave->phase[c];
    out->eta_amplitude[c] = wave->amplitude[c];
    out->phi_amplitude[c] = wave->g * wave->amplitude[c] / wave->omega[c];
  }
cleanup:
  return status;
}

void hcl_wave_incident_free(WaveIncident *incident) {
  if (!incident) {
    return;
  }
  free(incident->kx);
  free(incident->ky);
  free(incident->omega);
  free(incident->phase);
  free(incident->eta_amplitude);
  free(incident->phi_amplitude);
  *incident = (WaveIncident){0};
}

static double psi(const WaveIncident *w, int c, double x, double y, double t) {
  return w->kx[c] * x + w->ky[c] * y - w->omega[c] * t + w->phase[c];
}

double hcl_wave_incident_eta(const WaveIncident *incident, double x, double y, double t) {
  double eta = 0;
  for (int c = 0; c < incident->components; c++) {
    eta += incident->eta_amplitude[c] * cos(psi(incident, c, x, y, t));
  }
  return eta;
}

double hcl_wave_incident_phi(const WaveIncident *incident, double x, double y, double t) {
  double phi = incident->current_x * x + incident->current_y * y + incident->potential_rate * t;
  for (int c = 0; c < incident->components; c++) {
    phi += incident->phi_amplitude[c] * sin(psi(incident, c, x, y, t));
  }
  return phi;
}
