/* SPDX-License-Identifier: BSD-3-Clause */
/* test_wave_flume.c: regular waves through a 2D numerical wave tank (issue 8: "stream-function wave
 * travelling through a tank with a generation zone and an absorption zone: permanent form and the right
 * height in the working region over 20 periods; mass conservation"), the same tank with the linear model and
 * a linear wave, and the stream-function wave alone in a periodic domain (the model's own propagation,
 * without the zones).
 *
 * The wave: h = 1 m, L = 2 pi m (k h = 1), stream-function theory (waves.h; Rienecker and Fenton 1981) with H
 * = 0.4 H_max = 0.252 m (H / L = 0.040; the second harmonic is 17% of the first, the third 3%). Grid and
 * stepping everywhere: 20 points per wavelength, 9 uniform sigma points, 6th order, ERK4 at 40 steps per
 * period (Courant number c dt / dx = 0.5, the papers' choice), the Laplace solver's defaults.
 *
 * 1. Periodic domain, two wavelengths, 20 periods from the exact wave: it must keep its form, moving at its
 * speed. The error is a phase lag growing with time, from the discretization of the nonlinear terms (the
 * grid's linear frequency error, from one Laplace solve, is below 1e-6); the speed is held to 1e-4 of the
 * exact one (measured: 5.6e-5, converging with the grid and the step).
 * 2. The tank: a generation zone over the first two wavelengths (x = 0 to 2 L, relaxing towards the incident
 * wave), the working region from 2 L to 5 L, an absorption zone over the last two (5 L to 7 L, relaxing
 * towards rest), exponential weights (p = 3.5), a start-up ramp of two periods; 141 points. The wave with no
 * net mass flux (c_S = 0: a closed flume has none; the Eulerian return current c_E < 0 is part of the
 * incident potential). Gauges at 2.5 L, 3.5 L, 4.5 L. After 16 periods (the front, at the group velocity 0.78
 * c, crosses the working region in under 4) the last 4 are analysed: harmonic amplitudes (harmonics.h)
 * against the stream function's E_n; the measured wave, phase-aligned on its first harmonic, against the
 * stream function's eta; its height; the reflection (incident and reflected first harmonics separated along
 * the working region); the volume. Two wavelengths of generation zone: see (a) below.
 * 3. The tank with the linear model and the linear wave: there the incident wave solves the discrete
 * equations but for the grid's dispersion, and the tolerances are tight.
 *
 * What the tank does not do as well as the model. (a) The first harmonic that reaches the working region
 * depends on the generation zone's length: with the linear model and wave, 1.2% too high for one wavelength,
 * within 0.2% for two; with the nonlinear wave (incident amplitude separated from the reflected along the
 * working region) +0.1%, -1.5%, -2.4%, -3.5% for 1, 1.5, 2, 3 wavelengths (c_S = 0), +0.8% and -1.4% for 1
 * and 3 (c_E = 0). In a periodic domain a generation zone of two wavelengths leaves the exact wave as it is
 * (to 1e-3 H over 6 periods): the zone acts on what the tank adds to the wave (its set-down, the long wave
 * sloshing between the zones, the return current), not on the wave. (b) A spatial modulation along the
 * working region: measured along a tank with 8 wavelengths of working region, the first harmonic between 0.97
 * and 1.02 of its mean, the second between 0.89 and 1.08 E_2, the third between 0.67 and 1.33 E_3, on a scale
 * of about a wavelength; the same at 30 points per wavelength, with a ramp of 5 periods and with c_E = 0,
 * about half at H = 0.2 H_max. The tank's tolerances below are set by (a) and (b), named where used; the
 * periodic run holds the model itself to 2e-3 H. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wave_tank.h"
#include "../support/support.h"
#include "../support/tap.h"

#define PI 3.14159265358979323846

enum { PPW = 20, STEPS_PER_PERIOD = 40, GAUGES = 3, HARMONICS = 6 };

static const double DEPTH = 1;

static double flat(double x, double y, const void *ctx) {
  (void)x;
  (void)y;
  return *(const double *)ctx;
}

typedef struct {
  bool linear;
  int periods, analysed;
  RegularWave wave;
  double fitted[GAUGES][HARMONICS + 1]; /* harmonic amplitudes at the gauges */
  double shape_error[GAUGES];           /* max over a period |fit(t) - eta_SF(t - tau)| / H */
  double height[GAUGES];                /* crest to trough of the fitted wave */
  double raw_height[GAUGES][2];         /* min and max over the analysed periods of max - min in each period */
  double mean[GAUGES];                  /* the fit's mean level */
  double incident, reflected;           /* first harmonic, along the working region */
  double volume_max;                    /* max |V| over the run [m^3 per m] */
  double period_mean_max;               /* max over the periods of |mean V over the period| */
  double period_mean[32];               /* mean V over each period */
  double tank_length, setdown;          /* [m] */
  double iterations, seconds;
} Flume;

/* The wave's eta at gauge x, time t, shifted by tau: sum E_n cos(n (k x - omega (t - tau))). */
static double design_eta(const RegularWave *w, double x, double t) {
  double theta = w->k * x - 2 * PI / w->period * t, eta = 0;
  for (int n = 1; n <= w->modes; n++) {
    eta += w->E[n] * cos(n * theta);
  }
  return eta;
}

static HclStatus run_flume(Runtime *rt, bool linear, int periods, Flume *f) {
  HclStatus status = HCL_OK;
  Tank t = {0};
  memset(f, 0, sizeof *f);
  f->linear = linear;
  f->periods = periods;
  f->analysed = 4;
  const double L = 2 * PI, h = DEPTH;
  RegularWaveSpec spec = hcl_waves_regular_spec_default();
  spec.depth = h;
  spec.length = L;
  spec.height = 0.4 * hcl_waves_breaking_height(h, L);
  spec.criterion = WAVES_CURRENT_STOKES;
  TRY(linear ? hcl_waves_solve_linear(&spec, &f->wave) : hcl_waves_solve_stream(&spec, &f->wave));
  const RegularWave *w = &f->wave;
  TankSpec ts = {.nx = 7 * PPW + 1, .ny = 1, .depth = flat, .depth_ctx = &DEPTH};
  ts.config = hcl_wave_config_default();
  ts.config.laplace.dx = ts.config.laplace.dy = L / PPW;
  ts.config.equations = linear ? WAVE_LINEAR : WAVE_NONLINEAR;
  ts.config.ramp_time = 2 * w->period;
  tank_flume_zones(&ts.config, 0, 2 * L, 5 * L, 7 * L, 0, 0);
  TankGauge gauges[GAUGES];
  for (int g = 0; g < GAUGES; g++) {
    gauges[g] = (TankGauge){(2.5 + g) * L, 0};
  }
  TRY(tank_create(rt, &ts, GAUGES, gauges, &t));
  TRY(tank_set_regular(&t, w));
  f->tank_length = 7 * L;
  double dt = w->period / STEPS_PER_PERIOD, omega = 2 * PI / w->period;
  for (int p = 1; p <= periods; p++) {
    if (p == periods - f->analysed + 1) {
      tank_keep_row(&t, 0);
    }
    double period_sum = 0;
    for (int s = 0; s < STEPS_PER_PERIOD; s++) {
      TRY(tank_run(&t, dt, 1, 1));
      double volume;
      TRY(hcl_wave_volume(t.wave, &volume));
      f->volume_max = fmax(f->volume_max, fabs(volume));
      period_sum += volume;
    }
    f->period_mean[p - 1] = period_sum / STEPS_PER_PERIOD;
    f->period_mean_max = fmax(f->period_mean_max, fabs(f->period_mean[p - 1]));
  }
  f->iterations = (double)t.iterations / t.solves;
  f->seconds = t.seconds;
  /* The set-down under a wave train, -S_xx / (rho g h) with the radiation stress S_xx = E (2 c_g / c - 1/2)
   * and E = rho g H^2 / 8 (M. S. Longuet-Higgins and R. W. Stewart, 1964): the mean level the waves ask for
   * below that of still water. */
  double kh = w->k * h, n = 0.5 * (1 + 2 * kh / sinh(2 * kh));
  f->setdown = w->height * w->height / 8 * (2 * n - 0.5) / h;
  for (int g = 0; g < GAUGES; g++) {
    Harmonics fit;
    TRY(tank_harmonics(&t, g, omega, f->analysed, HARMONICS, &fit));
    f->mean[g] = fit.mean;
    for (int q = 1; q <= HARMONICS; q++) {
      f->fitted[g][q] = fit.amplitude[q];
    }
    /* Phase alignment: the first harmonic of the fit is A_1 cos(omega t - theta_1), the design wave's E_1
     * cos(omega t - k x): tau = (theta_1 - k x) / omega shifts the design wave onto the measured one; the
     * other harmonics then have to be where the stream function puts them. */
    double x = gauges[g].x, tau = (fit.phase[1] - w->k * x) / omega, top = -1e30, bottom = 1e30;
    for (int m = 0; m < 400; m++) {
      double tm = t.times[t.nsamples - 1] - m * w->period / 400;
      double measured = hcl_harmonics_eval(&fit, tm) - fit.mean;
      f->shape_error[g] = fmax(f->shape_error[g], fabs(measured - design_eta(w, x, tm - tau)) / w->height);
      top = fmax(top, measured);
      bottom = fmin(bottom, measured);
    }
    f->height[g] = top - bottom;
    /* The record's own height, period by period over the analysed ones. */
    f->raw_height[g][0] = 1e30;
    for (int p = 0; p < f->analysed; p++) {
      double hi = -1e30, lo = 1e30;
      for (int s = 0; s < STEPS_PER_PERIOD; s++) {
        double e = t.record[(size_t)(t.nsamples - 1 - p * STEPS_PER_PERIOD - s) * GAUGES + g];
        hi = fmax(hi, e);
        lo = fmin(lo, e);
      }
      f->raw_height[g][0] = fmin(f->raw_height[g][0], hi - lo);
      f->raw_height[g][1] = fmax(f->raw_height[g][1], hi - lo);
    }
  }
  /* The working region less a quarter wavelength at each end. */
  TRY(tank_reflection(&t, 2.25 * L, 4.75 * L, omega, 1, w->k, f->analysed, &f->incident, &f->reflected));
cleanup:
  tank_free(&t);
  return status;
}

static void report(const Flume *f) {
  const RegularWave *w = &f->wave;
  const char *name = f->linear ? "linear" : "stream-function";
  for (int g = 0; g < GAUGES; g++) {
    tap_note("%s, gauge x = %.2f m: A_1..A_4 = %.5f %.5f %.5f %.5f m (design %.5f %.5f %.5f %.5f), mean %+.2e m, "
             "height %.4f m (design %.4f), period heights %.4f to %.4f m",
             name, (2.5 + g) * w->length, f->fitted[g][1], f->fitted[g][2], f->fitted[g][3], f->fitted[g][4], w->E[1],
             w->modes > 1 ? w->E[2] : 0, w->modes > 2 ? w->E[3] : 0, w->modes > 3 ? w->E[4] : 0, f->mean[g],
             f->height[g], w->height, f->raw_height[g][0], f->raw_height[g][1]);
  }
}

static void check_flume(const Flume *f) {
  const RegularWave *w = &f->wave;
  const char *name = f->linear ? "linear" : "stream-function";
  report(f);
  /* Harmonic amplitudes. The linear model with the linear wave: the grid's dispersion shifts the phase only
   * (the grid's linear frequency error, from the periodic run's solve, is 7e-7), ERK4 damps by (omega dt)^6 /
   * 144 = 1e-7 per step; what remains is the reflection standing against the wave (under 1%, asserted below)
   * and the zone's transmission: 1.5% allowed. The nonlinear wave: the generation's deficit and modulation
   * (the file's header: (a) up to 3.5%, (b) 2.5% of E_1): 6%; (b) for E_2 and E_3: 12% and 35%. */
  const double allowed[2][4] = {{0, 0.06, 0.12, 0.35}, {0, 0.015, 0, 0}};
  const double *tol = allowed[f->linear];
  for (int g = 0; g < GAUGES; g++) {
    bool pass = true;
    for (int q = 1; q <= (f->linear ? 1 : 3); q++) {
      pass = pass && tap_close(f->fitted[g][q], fabs(w->E[q]), tol[q], 0);
    }
    TAP_OK(pass,
           "%s wave, gauge %d (x = %.2f m): harmonic amplitudes %.5f %.5f %.5f m, design %.5f %.5f %.5f m "
           "(allowed %.1f%%, %.0f%%, %.0f%%)",
           name, g + 1, (2.5 + g) * w->length, f->fitted[g][1], f->fitted[g][2], f->fitted[g][3], w->E[1],
           w->modes > 1 ? w->E[2] : 0, w->modes > 2 ? w->E[3] : 0, 100 * tol[1], 100 * tol[2], 100 * tol[3]);
    /* The form: the measured wave against the design one, aligned on the first harmonic. Linear: the
     * amplitude's 1.5% and no higher harmonics: 2% of H. Nonlinear: the harmonics' allowances add up to 0.06
     * E_1 + 0.12 E_2 + 0.35 E_3 = 0.044 H, the phases of the bound harmonics follow the first (the periodic
     * run): 5% of H. */
    double form = f->linear ? 0.02 : 0.05;
    TAP_OK(f->shape_error[g] < form,
           "%s wave keeps its form at gauge %d: max |eta - eta_design| = %.2e H over a period (allowed %.2f H)", name,
           g + 1, f->shape_error[g], form);
    /* The height of the fitted wave: of the first harmonic's accuracy. */
    TAP_OK(tap_close(f->height[g], w->height, tol[1], 0),
           "%s wave height at gauge %d: %.4f m, design %.4f m (%+.2f%%, allowed %.1f%%)", name, g + 1, f->height[g],
           w->height, 100 * (f->height[g] / w->height - 1), 100 * tol[1]);
    /* Each period's crest-to-trough in the record itself: the fitted wave plus what is not periodic, the long
     * wave of the start-up (below), a few millimetres over a period: 1% more. */
    TAP_OK(f->raw_height[g][0] > (1 - tol[1] - 0.01) * w->height &&
               f->raw_height[g][1] < (1 + tol[1] + 0.01) * w->height,
           "%s wave, gauge %d: each of the last %d periods' crest to trough %.4f to %.4f m (allowed %.1f%% off H)",
           name, g + 1, f->analysed, f->raw_height[g][0], f->raw_height[g][1], 100 * (tol[1] + 0.01));
  }
  /* The absorption zone over two wavelengths: exponential zones of that length reflect about 1%
   * (OceanWave3D's experience; here 0.4 to 0.6%). */
  double R = f->reflected / f->incident;
  TAP_OK(R < 0.015,
         "%s wave: the reflection coefficient along the working region is %.4f (incident %.5f m, "
         "reflected %.5f m; allowed 0.015)",
         name, R, f->incident, f->reflected);
  /* Volume. The relaxation zones do not conserve it: they set eta towards their targets. Two parts:
   * - a progressive wave over a stretch that is not whole wavelengths (ramped up in the generation zone,
   * dying in the absorption zone) displaces up to E_1 / k per unit width, oscillating at the wave's
   * frequency;
   * - the zones hold the mean level at their targets' (zero) while the wave train asks for its set-down below
   * still water; the start-up leaves a long wave of that size sloshing between the zones (period about 2 x
   * tank length / sqrt(g h), some 10 wave periods), which they damp slowly. Its volume, the mean over each
   * wave period, stays within set-down x tank length. The linear model has no set-down: there the start-up's
   * transient (up to 8% of E_1 / k in the first two periods) is gone by the second half of the run, whose
   * periods' means are held to 1% of E_1 / k. Bounded, no drift. */
  char means[1024] = "";
  for (int p = 0, used = 0; p < f->periods && used < (int)sizeof means - 16; p++) {
    used += snprintf(means + used, sizeof means - used, " %+.4f", f->period_mean[p]);
  }
  tap_note("%s wave: the volume's mean over each period (m^3/m):%s", name, means);
  double oscillation = fabs(w->E[1]) / w->k;
  double slow = f->linear ? 0.01 * oscillation : f->setdown * f->tank_length, late = 0;
  for (int p = f->periods - f->analysed; p < f->periods; p++) {
    late = fmax(late, fabs(f->period_mean[p]));
  }
  TAP_OK(f->volume_max < 1.05 * oscillation + (f->linear ? 0 : slow) && (f->linear ? late : f->period_mean_max) < slow,
         "%s wave: volume of eta within %.3f m^3/m (E_1 / k = %.3f, set-down %.2e m x tank length = %.3f); each "
         "period's mean within %.4f m^3/m, over the analysed periods %.4f (allowed %.4f)",
         name, f->volume_max, oscillation, f->setdown, f->setdown * f->tank_length, f->period_mean_max, late, slow);
}

/* 1. The stream-function wave (c_E = 0: its potential is periodic) over two wavelengths of a periodic domain,
 * 20 periods from the exact wave, against the exact wave translated. */
static void periodic(Runtime *rt) {
  HclStatus status = HCL_OK;
  const double L = 2 * PI, h = DEPTH;
  const int periods = 20;
  Tank t = {0};
  double worst = 0, omega_d = 0, drift = 0;
  RegularWaveSpec spec = hcl_waves_regular_spec_default();
  spec.depth = h;
  spec.length = L;
  spec.height = 0.4 * hcl_waves_breaking_height(h, L);
  RegularWave w;
  TRY(hcl_waves_solve_stream(&spec, &w));
  TankSpec ts = {.nx = 2 * PPW, .ny = 1, .periodic_x = true, .depth = flat, .depth_ctx = &DEPTH};
  ts.config = hcl_wave_config_default();
  ts.config.laplace.dx = ts.config.laplace.dy = L / PPW;
  TRY(tank_create(rt, &ts, 0, NULL, &t));
  TRY(tank_discrete_frequency(&t, w.k, &omega_d));
  drift = fabs(omega_d / sqrt(ts.config.g * w.k * tanh(w.k * h)) - 1);
  for (int i = 0; i < ts.nx; i++) {
    t.eta[i] = hcl_waves_eta(&w, tank_x(&t, i), 0);
    t.phi[i] = hcl_waves_phi(&w, tank_x(&t, i), 0);
  }
  TRY(hcl_wave_set_state(t.wave, 0, t.eta, t.phi));
  TRY(tank_run(&t, w.period / STEPS_PER_PERIOD, periods * STEPS_PER_PERIOD, 0));
  TRY(tank_read(&t));
  for (int i = 0; i < ts.nx; i++) {
    worst = fmax(worst, fabs(t.eta[i] - hcl_waves_eta(&w, tank_x(&t, i), hcl_wave_time(t.wave))) / w.height);
  }
cleanup:;
  /* The discrete wave moves at a slightly different speed from the exact one, so the error is a phase lag
   * growing linearly in time, of (H / 2) 2 pi periods (c_d / c - 1). Its source is the discretization of the
   * nonlinear terms, not of the linear ones (the grid's linear frequency error, drift, is below 1e-6):
   * measured over 10 periods, 1.7e-3 H at 20 points per wavelength and 40 steps per period, 1.1e-3 H at 80
   * steps, 2.4e-4 H at 30 points and 60 steps, unchanged with 13 sigma points or in double precision.
   * Allowed: a speed within 1e-4 of the exact one (the measured lag is 5.6e-5). */
  double allowed = 0.5 * 2 * PI * periods * 1e-4 + drift;
  TAP_OK(status == HCL_OK && worst < allowed,
         "stream-function wave, periodic domain: after %d periods max |eta - eta_SF| = %.2e H (allowed %.2e H: the "
         "grid's linear frequency error %.1e), %.1f s %s",
         periods, worst, allowed, drift, t.seconds, hcl_status_message());
  hcl_status_clear();
  tank_free(&t);
}

int main(void) {
  Runtime *rt = NULL;
  if (hcl_par_init(NULL, NULL) != HCL_OK || test_open_runtime(true, &rt) != HCL_OK) {
    TAP_OK(false, "a device with fp64: %s", hcl_status_message());
    return tap_done();
  }
  periodic(rt);
  for (int linear = 0; linear < 2; linear++) {
    Flume f;
    int periods = linear ? 12 : 20;
    HclStatus st = run_flume(rt, linear, periods, &f);
    TAP_OK(st == HCL_OK,
           "%s wave tank: H = %.4f m, L = %.4f m, T = %.4f s, %d periods at %d steps, %.2f "
           "iterations per solve, %.1f s %s",
           linear ? "linear" : "stream-function", f.wave.height, f.wave.length, f.wave.period, periods,
           STEPS_PER_PERIOD, f.iterations, f.seconds, hcl_status_message());
    hcl_status_clear();
    if (st == HCL_OK) {
      check_flume(&f);
    }
  }
  hcl_runtime_destroy(&rt);
  hcl_par_finalize();
  return tap_done();
}
