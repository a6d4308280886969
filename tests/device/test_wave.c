/* SPDX-License-Identifier: BSD-3-Clause */
/* test_wave.c: the potential-flow wave model (wave.h) on the test device, in mixed precision unless said:
 * - a linear standing wave cos(kx x) cos(ky y) in a closed 3D basin: the discrete frequency (from one solve) against
 *   the dispersion relation, eta against the analytic solution over 5 periods, volume conserved;
 * - the nonlinear model at small amplitude against the same solution, energy nearly constant;
 * - the incident-wave forms (host) against waves.h, and relaxation: a zone's outer edge takes the target exactly;
 * - the Savitzky-Golay filter (hcl_wave_filter): the grid's shortest wave damped by the 7-point quartic filter's response
 *   in each direction, a quartic surface passing unchanged where the stencil stays inside the walls;
 * - bad input: zones, extrapolation, g; the stability guard names the point. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wave.h"
#include "../support/support.h"
#include "../support/tap.h"

#define PI 3.14159265358979323846

typedef struct {
  Decomp *decomp;
  Wave *wave;
  double *h, *eta, *phi; /* owned points */
  size_t n;
} Basin;

static void basin_free(Basin *b) {
  hcl_wave_destroy(&b->wave);
  hcl_decomp_destroy(&b->decomp);
  free(b->h);
  free(b->eta);
  free(b->phi);
  memset(b, 0, sizeof *b);
}

/* A basin of nx x ny points over a flat bed of depth h, walls on every side, config c (dx, dy set by the caller). */
static HclStatus basin_create(Runtime *rt, int nx, int ny, double depth, const WaveConfig *c, Basin *b) {
  HclStatus status = HCL_OK;
  memset(b, 0, sizeof *b);
  DecompSpec spec = {.nx = nx, .ny = ny};
  TRY(hcl_decomp_create(&spec, &b->decomp));
  const DecompLocal *l = hcl_decomp_local(b->decomp);
  b->n = (size_t)l->nx * l->ny;
  TRY_ALLOC(b->h, b->n);
  TRY_ALLOC(b->eta, b->n);
  TRY_ALLOC(b->phi, b->n);
  for (size_t p = 0; p < b->n; p++) {
    b->h[p] = depth;
  }
  TRY(hcl_wave_create(rt, b->decomp, c, b->h, &b->wave));
cleanup:
  return status;
}

/* The standing wave's spatial shape at owned point p. */
static double mode(const Basin *b, const WaveConfig *c, double kx, double ky, size_t p) {
  const DecompLocal *l = hcl_decomp_local(b->decomp);
  int i = l->x0 + (int)(p % l->nx), j = l->y0 + (int)(p / l->nx);
  double x = i * c->laplace.dx, y = j * c->laplace.dy;
  if (c->laplace.map) {
    c->laplace.map->point(c->laplace.map->ctx, i, j, &x, &y);
  }
  return cos(kx * x) * cos(ky * y);
}

/* The discrete frequency of the mode: w = lambda phi for phi = the mode on the still water (one solve), omega_d^2 =
 * g lambda; lambda the Rayleigh quotient sum w phi / sum phi^2 (on a Cartesian grid the mode is an eigenvector of
 * the discrete operator on a flat bed between walls, and the quotient is its eigenvalue; on a mapped one the
 * quotient's error is second order in the mode's). */
static HclStatus discrete_frequency(Basin *b, const WaveConfig *c, double kx, double ky, double *omega) {
  HclStatus status = HCL_OK;
  double *w = NULL;
  TRY_ALLOC(w, b->n);
  for (size_t p = 0; p < b->n; p++) {
    b->eta[p] = 0;
    b->phi[p] = mode(b, c, kx, ky, p);
  }
  TRY(hcl_wave_set_state(b->wave, 0, b->eta, b->phi));
  double potential, kinetic;
  TRY(hcl_wave_energy(b->wave, &potential, &kinetic)); /* a solve at the present state */
  TRY(hcl_field_read_owned(hcl_laplace_w(hcl_wave_laplace(b->wave)), w));
  double sums[2] = {0, 0};
  for (size_t p = 0; p < b->n; p++) {
    sums[0] += w[p] * b->phi[p];
    sums[1] += b->phi[p] * b->phi[p];
  }
  TRY(hcl_par_sum_doubles(sums, 2));
  *omega = sqrt(c->g * sums[0] / sums[1]);
cleanup:
  free(w);
  return status;
}

typedef struct {
  double worst;        /* max |eta - exact| over the samples, relative to the amplitude */
  double volume_drift; /* max |volume| over the run relative to amplitude times the basin's area */
  double energy_drift; /* |E(end) / E(0) - 1| */
  int iterations, solves;
} StandingResult;

/* Runs the standing wave eta = A cos(kx x) cos(ky y) cos(omega t) (phi = -(g A / omega) ... sin(omega t)) for
 * `periods` periods at `per_period` steps each, sampling eta every period against the solution at omega. */
static HclStatus run_standing(Basin *b, const WaveConfig *c, double kx, double ky, double A, double omega, int periods,
                              int per_period, double area, StandingResult *r) {
  HclStatus status = HCL_OK;
  memset(r, 0, sizeof *r);
  double dt = 2 * PI / omega / per_period, e0 = 0, p0 = 0, k0 = 0;
  for (size_t p = 0; p < b->n; p++) {
    b->eta[p] = A * mode(b, c, kx, ky, p);
    b->phi[p] = 0;
  }
  TRY(hcl_wave_set_state(b->wave, 0, b->eta, b->phi));
  TRY(hcl_wave_energy(b->wave, &p0, &k0));
  e0 = p0 + k0;
  for (int period = 1; period <= periods; period++) {
    for (int s = 0; s < per_period; s++) {
      WaveStepStats stats;
      TRY(hcl_wave_step(b->wave, dt, false, &stats));
      r->iterations += stats.iterations;
      r->solves += stats.solves;
      double volume = 0;
      TRY(hcl_wave_volume(b->wave, &volume));
      r->volume_drift = fmax(r->volume_drift, fabs(volume) / (A * area));
    }
    TRY(hcl_field_read_owned(hcl_wave_eta(b->wave), b->eta));
    double t = hcl_wave_time(b->wave);
    for (size_t p = 0; p < b->n; p++) {
      double exact = A * mode(b, c, kx, ky, p) * cos(omega * t);
      r->worst = fmax(r->worst, fabs(b->eta[p] - exact) / A);
    }
  }
  double p1, k1;
  TRY(hcl_wave_energy(b->wave, &p1, &k1));
  r->energy_drift = fabs((p1 + k1) / e0 - 1);
cleanup:
  return status;
}

/* The linear standing wave: 33 x 17 points over 2 m x 1 m, h = 0.5 m, kx = pi (one wavelength along x), ky = pi: k =
 * pi sqrt(2), kh = 2.22, 22.6 points per wavelength; 32 steps per period for 5 periods. mapped: the same basin on
 * mapping.h's skewed rectangle (stretch = skew = 0.15: spacings from 0.7 to 1.3 times the mean, grid lines crossing
 * at up to 21 degrees from square). */
static void standing(Runtime *rt, WaveEquations equations, double A, bool mapped) {
  const double h = 0.5, kx = PI, ky = PI, k = hypot(kx, ky);
  WaveConfig c = hcl_wave_config_default();
  c.laplace.dx = c.laplace.dy = 1.0 / 16;
  MappingRectangle map = {.lx = 2, .ly = 1, .dx = 1.0 / 16, .dy = 1.0 / 16, .stretch = 0.15, .skew = 0.15};
  Mapping mapping = {hcl_mapping_rectangle_point, &map, "the test's rectangle map"};
  c.laplace.map = mapped ? &mapping : NULL;
  c.equations = equations;
  char name[64];
  snprintf(name, sizeof name, "%s%s", equations == WAVE_LINEAR ? "linear" : "nonlinear", mapped ? " mapped" : "");
  Basin b;
  HclStatus st = basin_create(rt, 33, 17, h, &c, &b);
  double omega = sqrt(c.g * k * tanh(k * h)), omega_d = 0;
  if (st == HCL_OK) {
    st = discrete_frequency(&b, &c, kx, ky, &omega_d);
  }
  /* Sixth-order differences at 22.6 points per wavelength and 9 sigma points at kh = 2.2: the discrete operator's
   * eigenvalue is within 1e-4 of k tanh(kh) (test_laplace measures the same operator's error on linear waves). */
  TAP_OK(st == HCL_OK && fabs(omega_d / omega - 1) < 1e-4,
         "%s standing wave: discrete frequency %.8f, dispersion relation %.8f rad/s %s", name, omega_d, omega,
         hcl_status_message());
  hcl_status_clear();
  StandingResult r = {0};
  const int periods = 5, per_period = 32;
  if (st == HCL_OK) {
    st = run_standing(&b, &c, kx, ky, A, omega_d, periods, per_period, 2.0 * 1.0, &r);
  }
  /* ERK4 advances the mode exp(i omega t) with phase error (omega dt)^5 / 120 per step: 160 steps of omega dt = 2 pi
   * / 32 give 3.9e-4 rad, an error of that size relative to A; the linear run is allowed twice that. The nonlinear
   * run's second-order terms are of relative size k A (tanh-factors of order one at kh = 2.2): 10 k A more. */
  double z = 2 * PI / per_period, phase = periods * per_period * pow(z, 5) / 120;
  double allowed = 2 * phase + (equations == WAVE_LINEAR ? 0 : 10 * k * A);
  TAP_OK(st == HCL_OK && r.worst < allowed,
         "%s standing wave: eta within %.2e of A after %d periods (allowed %.2e), %.2f iterations per solve %s", name,
         r.worst, periods, allowed, r.solves ? (double)r.iterations / r.solves : 0, hcl_status_message());
  hcl_status_clear();
  /* The mode integrates to zero under the trapezoidal rule, and on a flat bed between walls every cosine mode is an
   * eigenvector of the linear scheme, so the linear run keeps the volume to rounding (the solver's error holds no
   * mean but through the V-cycle's rounding: 3e-12 measured). The nonlinear terms' discrete sums are not exactly
   * conservative, and the solver's error enters them: 3.7e-8 measured at the default rtol 1e-6, 1.2e-7 at 1e-5;
   * allowed a tenth of rtol. */
  double volume_allowed = equations == WAVE_LINEAR ? 1e-10 : 0.1 * c.laplace.krylov.rtol;
  TAP_OK(st == HCL_OK && r.volume_drift < volume_allowed,
         "%s standing wave: volume stays within %.2e of A x area (allowed %.0e)", name, r.volume_drift, volume_allowed);
  /* ERK4 damps the mode by (omega dt)^6 / 144 per step, the energy twice that: 1.3e-4 over the 160 steps; the
   * nonlinear terms exchange energy at second order in k A. Allowed 1.5 times the scheme's loss. */
  double loss = 2 * periods * per_period * pow(z, 6) / 144;
  TAP_OK(st == HCL_OK && r.energy_drift < 1.5 * loss,
         "%s standing wave: energy drift %.3e over %d periods (ERK4's damping %.3e)", name, r.energy_drift, periods,
         loss);
  basin_free(&b);
}

/* The device's form of a stream-function wave (harmonics of eta, sine series of the surface potential) and of an
 * irregular sea against waves.h's own evaluation, on the host, at points over two wavelengths and a period. */
static void incident_forms(void) {
  RegularWaveSpec spec = hcl_waves_regular_spec_default();
  spec.depth = 1;
  spec.height = 0.1;
  spec.period = 2;
  RegularWave regular;
  WaveIncident form = {0};
  double worst_eta = 0, worst_phi = 0;
  HclStatus st = hcl_waves_solve_stream(&spec, &regular);
  if (st == HCL_OK) {
    st = hcl_wave_incident_regular(&regular, 0, 0.3, &form);
  }
  for (int n = 0; st == HCL_OK && n < 200; n++) {
    double x = 0.3 + n * 2 * regular.length / 200, t = n * regular.period / 200;
    worst_eta = fmax(worst_eta, fabs(hcl_wave_incident_eta(&form, x, 0.7, t) - hcl_waves_eta(&regular, x - 0.3, t)));
    worst_phi = fmax(worst_phi, fabs(hcl_wave_incident_phi(&form, x, 0.7, t) - hcl_waves_phi(&regular, x - 0.3, t) -
                                     regular.current_euler * 0.3));
  }
  /* The same Fourier series summed in another order (eta), and the surface potential's sine series from 256
   * samples of a function whose coefficients fall below 1e-13 of the largest within the 127 kept: rounding. */
  double phi_scale = regular.B[1];
  TAP_OK(st == HCL_OK && worst_eta < 1e-13 * spec.height && worst_phi < 1e-11 * phi_scale,
         "stream-function wave as device components (%d): eta within %.1e m, phi within %.1e m^2/s of waves.h %s",
         form.components, worst_eta, worst_phi, hcl_status_message());
  hcl_status_clear();
  hcl_wave_incident_free(&form);
  IrregularWaveSpec sea = hcl_waves_irregular_spec_default();
  sea.depth = 20;
  sea.hs = 2;
  sea.tp = 8;
  sea.direction = 0.4;
  IrregularWave irregular = {0};
  worst_eta = worst_phi = 0;
  st = hcl_waves_irregular_create(&sea, &irregular);
  if (st == HCL_OK) {
    st = hcl_wave_incident_irregular(&irregular, &form);
  }
  for (int n = 0; st == HCL_OK && n < 50; n++) {
    double x = 7.0 * n, y = 3.0 * n, t = 0.9 * n;
    worst_eta =
        fmax(worst_eta, fabs(hcl_wave_incident_eta(&form, x, y, t) - hcl_waves_irregular_eta(&irregular, x, y, t)));
    worst_phi =
        fmax(worst_phi, fabs(hcl_wave_incident_phi(&form, x, y, t) - hcl_waves_irregular_phi(&irregular, x, y, t)));
  }
  TAP_OK(st == HCL_OK && worst_eta < 1e-12 && worst_phi < 1e-11,
         "irregular sea as device components: eta within %.1e m, phi within %.1e m^2/s %s", worst_eta, worst_phi,
         hcl_status_message());
  hcl_status_clear();
  hcl_wave_incident_free(&form);
  hcl_waves_irregular_free(&irregular);
}

/* A flume (ny = 1) with a generation zone at the west and an absorption zone at the east, both with the cubic
 * weight, whose outer edges hold weight 0: after one step eta and phi there are the targets, the incident wave at
 * t = dt (times the ramp) and rest (eta 0, phi the ramp times A t), to rounding. */
static void relaxation_edges(Runtime *rt) {
  WaveConfig c = hcl_wave_config_default();
  c.laplace.dx = c.laplace.dy = 0.05;
  c.laplace.precision = LAPLACE_DOUBLE;
  c.ramp_time = 1;
  c.nzones = 2;
  c.zones[0] = (WaveZone){
      .kind = WAVE_ZONE_GENERATE, .x0 = 0, .x1 = 0.5, .inward = WAVE_INWARD_PLUS_X, .shape = WAVE_SHAPE_POLYNOMIAL};
  c.zones[1] = (WaveZone){.kind = WAVE_ZONE_ABSORB,
                          .x0 = 1.5,
                          .x1 = 2,
                          .inward = WAVE_INWARD_MINUS_X,
                          .shape = WAVE_SHAPE_EXPONENTIAL,
                          .power = 3.5};
  RegularWaveSpec spec = hcl_waves_regular_spec_default();
  spec.depth = 0.5;
  spec.height = 0.05;
  spec.length = 1;
  RegularWave regular;
  WaveIncident form = {0};
  Basin b;
  double dt = 0.02, ramp = 0.5 * (1 - cos(PI * dt / c.ramp_time));
  double eta_west = NAN, phi_west = NAN, phi_east = NAN, eta_east = NAN;
  HclStatus st = hcl_waves_solve_stream(&spec, &regular);
  if (st == HCL_OK) {
    st = hcl_wave_incident_regular(&regular, 0, 0, &form);
  }
  if (st == HCL_OK) {
    st = basin_create(rt, 41, 1, 0.5, &c, &b);
  }
  if (st == HCL_OK) {
    memset(b.eta, 0, sizeof *b.eta * b.n);
    memset(b.phi, 0, sizeof *b.phi * b.n);
    st = hcl_wave_set_state(b.wave, 0, b.eta, b.phi);
  }
  if (st == HCL_OK) {
    st = hcl_wave_set_incident(b.wave, &form);
  }
  if (st == HCL_OK) {
    st = hcl_wave_step(b.wave, dt, false, NULL);
  }
  if (st == HCL_OK && (st = hcl_field_read_owned(hcl_wave_eta(b.wave), b.eta)) == HCL_OK) {
    st = hcl_field_read_owned(hcl_wave_phi(b.wave), b.phi);
  }
  if (st == HCL_OK) {
    eta_west = b.eta[0] - ramp * hcl_wave_incident_eta(&form, 0, 0, dt);
    phi_west = b.phi[0] - ramp * hcl_wave_incident_phi(&form, 0, 0, dt);
    eta_east = b.eta[40];
    phi_east = b.phi[40] - ramp * form.potential_rate * dt;
  }
  TAP_OK(st == HCL_OK && fabs(eta_west) < 1e-15 && fabs(phi_west) < 1e-15 && fabs(eta_east) < 1e-15 &&
             fabs(phi_east) < 1e-15,
         "relaxation: the generation zone's outer edge holds the incident wave (off by %.1e m, %.1e m^2/s), the "
         "absorption zone's rest (%.1e m, %.1e m^2/s) %s",
         eta_west, phi_west, eta_east, phi_east, hcl_status_message());
  hcl_status_clear();
  hcl_wave_incident_free(&form);
  basin_free(&b);
}

/* hcl_wave_filter at order 6: 7 points, degree 4, weights (5, -30, 75, 131, 75, -30, 5) / 231, whose response to the
 * wave two spacings long is -89/231. A checkerboard, which the walls' mirror images continue exactly, comes out
 * multiplied by (89/231)^2 everywhere; a quartic passes to rounding where the stencil holds no ghost. */
static void filter(Runtime *rt) {
  WaveConfig c = hcl_wave_config_default();
  c.laplace.dx = c.laplace.dy = 0.05;
  c.laplace.precision = LAPLACE_DOUBLE;
  c.filter_interval = 1;
  Basin b;
  double checker = 0, quartic = 0, expected = (89.0 / 231) * (89.0 / 231);
  HclStatus st = basin_create(rt, 33, 17, 0.5, &c, &b);
  const DecompLocal *l = b.decomp ? hcl_decomp_local(b.decomp) : NULL;
  for (int pass = 0; pass < 2 && st == HCL_OK; pass++) {
    for (size_t p = 0; p < b.n; p++) {
      int i = l->x0 + (int)(p % l->nx), j = l->y0 + (int)(p / l->nx);
      double u = i / 32.0, v = j / 16.0;
      b.eta[p] = pass == 0 ? 1e-3 * ((i + j) % 2 ? -1 : 1) : 1e-3 * (u * u * u * u - 2 * u * v * v * v + v * v);
      b.phi[p] = -2 * b.eta[p];
    }
    double *before = malloc(sizeof *before * b.n);
    st = before ? HCL_OK : HCL_ENOMEM;
    if (st == HCL_OK) {
      memcpy(before, b.eta, sizeof *before * b.n);
      st = hcl_wave_set_state(b.wave, 0, b.eta, b.phi);
    }
    if (st == HCL_OK && (st = hcl_wave_filter(b.wave)) == HCL_OK &&
        (st = hcl_field_read_owned(hcl_wave_eta(b.wave), b.eta)) == HCL_OK) {
      st = hcl_field_read_owned(hcl_wave_phi(b.wave), b.phi);
    }
    for (size_t p = 0; st == HCL_OK && p < b.n; p++) {
      int i = l->x0 + (int)(p % l->nx), j = l->y0 + (int)(p / l->nx);
      bool inside = i >= 3 && i <= 29 && j >= 3 && j <= 13;
      if (pass == 0) {
        checker =
            fmax(checker, fmax(fabs(b.eta[p] / before[p] - expected), fabs(b.phi[p] / (-2 * before[p]) - expected)));
      } else if (inside) {
        quartic = fmax(quartic, fmax(fabs(b.eta[p] - before[p]), fabs(b.phi[p] + 2 * before[p])) / 1e-3);
      }
    }
    free(before);
  }
  TAP_OK(st == HCL_OK && checker < 1e-13,
         "filter: a checkerboard comes out times (89/231)^2 at every point (off by "
         "%.1e) %s",
         checker, hcl_status_message());
  TAP_OK(st == HCL_OK && quartic < 1e-13, "filter: a quartic surface passes unchanged away from the walls (%.1e of it)",
         quartic);
  hcl_status_clear();
  basin_free(&b);
}

/* Bad settings refused by hcl_wave_create with the key and the value. */
static void refusals(Runtime *rt) {
  struct {
    const char *what, *says;
    WaveZone zone;
    int extrapolation;
    double g;
  } cases[] = {
      {"a zone beyond the east wall",
       "outside the domain",
       {.kind = WAVE_ZONE_ABSORB,
        .x0 = 1.5,
        .x1 = 2.5,
        .y0 = 0,
        .y1 = 1,
        .inward = WAVE_INWARD_MINUS_X,
        .shape = WAVE_SHAPE_POLYNOMIAL},
       3,
       9.81},
      {"a zone empty along its ramp",
       "empty along its ramp",
       {.kind = WAVE_ZONE_GENERATE,
        .x0 = 0,
        .x1 = 1,
        .y0 = 0.5,
        .y1 = 0.5,
        .inward = WAVE_INWARD_PLUS_Y,
        .shape = WAVE_SHAPE_POLYNOMIAL},
       3,
       9.81},
      {"an exponential zone of power 0",
       "power = 0",
       {.kind = WAVE_ZONE_GENERATE,
        .x0 = 0,
        .x1 = 0.5,
        .y0 = 0,
        .y1 = 1,
        .inward = WAVE_INWARD_PLUS_X,
        .shape = WAVE_SHAPE_EXPONENTIAL},
       3,
       9.81},
      {"extrapolation 4", "time.extrapolation = 4", {.x1 = 1, .y1 = 1}, 4, 9.81},
      {"g = 0", "physics.g = 0", {.x1 = 1, .y1 = 1}, 3, 0},
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    WaveConfig c = hcl_wave_config_default();
    c.laplace.dx = c.laplace.dy = 1.0 / 16;
    c.nzones = 1;
    c.zones[0] = cases[k].zone;
    c.extrapolation = cases[k].extrapolation;
    c.g = cases[k].g;
    Basin b;
    HclStatus st = basin_create(rt, 33, 17, 0.5, &c, &b);
    TAP_OK(st == HCL_EDATA && tap_contains(hcl_status_message(), cases[k].says), "%s refused: %s", cases[k].what,
           hcl_status_message());
    hcl_status_clear();
    basin_free(&b);
  }
}

/* The guard: a NaN in phi, and an eta above the depth, stop with the time and the point. */
static void guard(Runtime *rt) {
  WaveConfig c = hcl_wave_config_default();
  c.laplace.dx = c.laplace.dy = 1.0 / 16;
  Basin b;
  HclStatus st = basin_create(rt, 33, 17, 0.5, &c, &b);
  if (st == HCL_OK) {
    memset(b.eta, 0, sizeof *b.eta * b.n);
    memset(b.phi, 0, sizeof *b.phi * b.n);
    b.phi[5 * 33 + 7] = NAN;
    st = hcl_wave_set_state(b.wave, 1.25, b.eta, b.phi);
  }
  if (st == HCL_OK) {
    st = hcl_wave_check(b.wave, 1);
  }
  TAP_OK(st == HCL_EDIVERGED && tap_contains(hcl_status_message(), "t = 1.25 s") &&
             tap_contains(hcl_status_message(), "point (7, 5)"),
         "a NaN in phi stops the run: %s", hcl_status_message());
  hcl_status_clear();
  if (b.wave) {
    b.phi[5 * 33 + 7] = 0;
    b.eta[16 * 33 + 32] = 0.6;
    st = hcl_wave_set_state(b.wave, 2, b.eta, b.phi);
    if (st == HCL_OK) {
      st = hcl_wave_check(b.wave, 1);
    }
  }
  TAP_OK(st == HCL_EDIVERGED && tap_contains(hcl_status_message(), "point (32, 16)"),
         "eta of 0.6 m over 0.5 m of water stops the run: %s", hcl_status_message());
  hcl_status_clear();
  basin_free(&b);
}

int main(void) {
  Runtime *rt = NULL;
  if (hcl_par_init(NULL, NULL) != HCL_OK || test_open_runtime(true, &rt) != HCL_OK) {
    TAP_OK(false, "a device with fp64: %s", hcl_status_message());
    return tap_done();
  }
  standing(rt, WAVE_LINEAR, 1e-3, false);
  standing(rt, WAVE_NONLINEAR, 1e-4, false);
  standing(rt, WAVE_LINEAR, 1e-3, true);
  standing(rt, WAVE_NONLINEAR, 1e-4, true);
  incident_forms();
  relaxation_edges(rt);
  filter(rt);
  refusals(rt);
  guard(rt);
  hcl_runtime_destroy(&rt);
  hcl_par_finalize();
  return tap_done();
}
