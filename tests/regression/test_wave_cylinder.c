/* SPDX-License-Identifier: BSD-3-Clause */
/* test_wave_cylinder.c: linear diffraction by a bottom-mounted vertical cylinder on a curvilinear O-grid (issue 33;
 * fnpf-multigpu-scalability.txt section 7): the run-up amplitude around the cylinder and the total amplitude at
 * points away from it against MacCamy and Fuchs' solution (tests/support/maccamy_fuchs.h), at ka = 0.374 (the
 * paper's Kriebel cylinder, a = 0.1625 m in h = 0.45 m, kh = 1.036) and ka = 1.0 (the same cylinder in a shorter
 * wave, kh = 2.77).
 *
 * Set-up: the linear model (eta_t = w, phi_t = -g eta), a wave of height 1 cm from -x; the conformal O-grid
 * (hcl_mapping_polar_point, geometric stretching: square cells from the cylinder, where they are 11 mm, to the outer
 * edge 4 wavelengths away) with 96 points in angle; a relaxation ring 2.5 wavelengths wide at the outer edge whose
 * target is the incident wave, so it makes the incident wave and absorbs the scattered one; sixth order, 9
 * cosine-clustered sigma points, at least 32 steps per period (more where the smallest cells' step limit asks), the
 * incident wave ramped in over 2 periods; the Laplace problem by GMRES(10) with the V-cycle (half the iterations of
 * defect correction). What sets the agreement is the ring and the time to the steady state more than the grid
 * (measured on an H200, the run-up's worst error at ka = 0.374 and 1.0): a ring 1.25 wavelengths wide after 10
 * periods, 2.8% and 4.5% at 128 points in angle, 2.6% and 8.0% at 256 (its reflection); 2.5 wavelengths after 10
 * periods, 0.24% and 6.9% (the scattered wave not yet absorbed); after 16, 0.15% and 1.2%. So the longer wave runs
 * 10 periods and the shorter 16: 0.25% and 1.18% at 128 points in angle, 0.70% and 1.58% at 96, 0.34% and 1.28% at
 * 112, 6.2% and 6.1% at 64. 96 points keep half the 3% bound in hand at 0.37 times the work of 128 points and 16
 * periods for both (points times steps).
 * The amplitude at each point is the first harmonic least-squares fitted over the last two periods.
 * The grid is the half of the O-grid at y >= 0, walls at theta = 0 and pi: the cylinder and the incident wave are
 * symmetric about the x-axis, so the walls' mirror images are the other half, at half the work (the whole O-grid's
 * periodic seam is tested on 1, 2 and 4 ranks by test_wave_ranks and test_laplace_ranks). */
#define _DEFAULT_SOURCE /* jn, yn (POSIX) */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mapping.h"
#include "wave.h"
#include "../support/maccamy_fuchs.h"
#include "../support/support.h"
#include "../support/tap.h"

#define PI 3.14159265358979323846

enum { NTHETA = 96, NZ = 9, MIN_STEPS_PER_PERIOD = 32, RAMP_PERIODS = 2, FIT_PERIODS = 2 };
static const double DEPTH = 0.45, RADIUS = 0.1625, HEIGHT = 0.01;

typedef struct {
  double ka;
  double worst_runup; /* max over the angles of |eta / eta_MF - 1| on the cylinder */
  double worst_field; /* the same at the points away from it */
  double upstream;    /* eta / A at theta = pi, and MacCamy-Fuchs' */
  double upstream_mf;
  double iterations; /* per solve */
  int per_period;    /* steps */
  char report[1024];
} Diffraction;

/* The larger of a relative error so far and a new one; a NaN wins (a comparison would drop it). */
static double worse(double so_far, double error) {
  return isnan(error) || error > so_far ? error : so_far;
}

/* The first harmonic's amplitude of series s[0 .. n) sampled every dt at frequency omega (least squares on 1, cos,
 * sin: over whole periods the three are orthogonal, so the projections are the fit). */
static double harmonic(const double *s, int n, size_t stride, double dt, double omega) {
  double c = 0, q = 0;
  for (int k = 0; k < n; k++) {
    c += s[(size_t)k * stride] * cos(omega * k * dt);
    q += s[(size_t)k * stride] * sin(omega * k * dt);
  }
  return 2 * hypot(c, q) / n;
}

static HclStatus diffraction(Runtime *rt, double ka, int periods, Diffraction *d) {
  HclStatus status = HCL_OK;
  Decomp *decomp = NULL;
  Wave *wave = NULL;
  WaveIncident incident = {0};
  double *h = NULL, *eta = NULL, *record = NULL;
  memset(d, 0, sizeof *d);
  d->ka = ka;
  double k = ka / RADIUS, length = 2 * PI / k, outer = RADIUS + 4 * length;
  RegularWaveSpec spec = hcl_waves_regular_spec_default();
  RegularWave linear;
  spec.depth = DEPTH;
  spec.height = HEIGHT;
  spec.length = length;
  TRY(hcl_waves_solve_linear(&spec, &linear));
  TRY(hcl_wave_incident_regular(&linear, 0, 0, &incident));
  /* the conformal O-grid: nr - 1 = ln(outer / radius) ntheta / (2 pi), odd nr for the multigrid's halving */
  double stretching = log(outer / RADIUS);
  int nr = 2 * (int)lround(0.5 * stretching * NTHETA / (2 * PI)) + 1;
  MappingPolar polar = {.radius = RADIUS, .outer = outer, .stretching = stretching, .nr = nr, .ntheta = NTHETA};
  Mapping map = {hcl_mapping_polar_point, &polar, "the cylinder's O-grid"};
  DecompSpec grid = {.nx = nr, .ny = NTHETA / 2 + 1}; /* theta = 0 .. pi at the O-grid's spacing */
  TRY(hcl_decomp_create(&grid, &decomp));
  const DecompLocal *l = hcl_decomp_local(decomp);
  size_t n = (size_t)l->nx * l->ny;
  TRY_ALLOC(h, n);
  for (size_t p = 0; p < n; p++) {
    h[p] = DEPTH;
  }
  WaveConfig c = hcl_wave_config_default();
  c.equations = WAVE_LINEAR;
  c.laplace.map = &map;
  c.laplace.nz = NZ;
  c.laplace.sigma = LAPLACE_SIGMA_COSINE;
  c.laplace.krylov.method = KRYLOV_GMRES;
  c.ramp_time = RAMP_PERIODS * linear.period;
  c.nzones = 1;
  c.zones[0] = (WaveZone){.kind = WAVE_ZONE_GENERATE,
                          .region = WAVE_REGION_RING,
                          .r0 = outer - 2.5 * length,
                          .r1 = outer,
                          .shape = WAVE_SHAPE_EXPONENTIAL,
                          .power = 3.5};
  TRY(hcl_wave_create(rt, decomp, &c, h, &wave));
  TRY(hcl_wave_set_incident(wave, &incident));
  /* steps per period: a multiple of 8, within 90% of the step limit */
  int per_period = 8 * (int)ceil(linear.period / (0.9 * hcl_wave_step_limit(&c, &grid, DEPTH)) / 8);
  per_period = per_period < MIN_STEPS_PER_PERIOD ? MIN_STEPS_PER_PERIOD : per_period;
  double dt = linear.period / per_period;
  int fit_steps = FIT_PERIODS * per_period, first_fit = (periods - FIT_PERIODS) * per_period;
  TRY_ALLOC(eta, n);
  TRY_ALLOC(record, n * fit_steps);
  long iterations = 0, solves = 0;
  for (int s = 1; s <= periods * per_period; s++) {
    WaveStepStats stats;
    TRY(hcl_wave_step(wave, dt, false, &stats));
    iterations += stats.iterations;
    solves += stats.solves;
    if (s > first_fit) {
      TRY(hcl_field_read_owned(hcl_wave_eta(wave), record + (size_t)(s - first_fit - 1) * n));
    }
  }
  d->iterations = (double)iterations / solves;
  d->per_period = per_period;
  double A = HEIGHT / 2, omega = 2 * PI / linear.period;
  /* the run-up: every angle on the cylinder (i = 0), 0 to pi */
  for (int j = 0; j <= NTHETA / 2; j++) {
    double theta = 2 * PI * j / NTHETA, got = harmonic(record + (size_t)j * l->nx, fit_steps, n, dt, omega) / A;
    double exact = mf_amplitude(k, RADIUS, RADIUS, theta);
    d->worst_runup = worse(d->worst_runup, fabs(got / exact - 1));
    if (j == NTHETA / 2) {
      d->upstream = got;
      d->upstream_mf = exact;
    }
  }
  /* the field: radii 2a and 4a (the nearest grid circles) at 0, 90 and 180 degrees */
  size_t used = 0;
  const double radii[2] = {2 * RADIUS, 4 * RADIUS};
  for (int q = 0; q < 2; q++) {
    int i = 0;
    while (i + 1 < nr && hcl_mapping_polar_radius(&polar, i) < radii[q]) {
      i++;
    }
    double r = hcl_mapping_polar_radius(&polar, i);
    for (int j = 0; j <= NTHETA / 2; j += NTHETA / 4) {
      double theta = 2 * PI * j / NTHETA, got = harmonic(record + (size_t)j * l->nx + i, fit_steps, n, dt, omega) / A;
      double exact = mf_amplitude(k, RADIUS, r, theta);
      d->worst_field = worse(d->worst_field, fabs(got / exact - 1));
      used += (size_t)snprintf(d->report + used, sizeof d->report - used, " r %.3f m theta %3.0f: %.4f (MF %.4f);", r,
                               theta * 180 / PI, got, exact);
    }
  }
cleanup:
  hcl_wave_destroy(&wave);
  hcl_decomp_destroy(&decomp);
  hcl_wave_incident_free(&incident);
  free(h);
  free(eta);
  free(record);
  return status;
}

int main(void) {
  Runtime *rt = NULL;
  if (hcl_par_init(NULL, NULL) != HCL_OK || test_open_runtime(true, &rt) != HCL_OK) {
    TAP_OK(false, "a device with fp64: %s", hcl_status_message());
    return tap_done();
  }
  const double kas[2] = {0.374, 1.0};
  const int periods[2] = {10, 16};
  for (int q = 0; q < 2; q++) {
    Diffraction d;
    HclStatus st = diffraction(rt, kas[q], periods[q], &d);
    TAP_OK(st == HCL_OK, "cylinder ka = %.3f: %.2f iterations per solve, %d steps per period %s", kas[q], d.iterations,
           d.per_period, hcl_status_message());
    hcl_status_clear();
    /* The bound: 3% at every angle. */
    TAP_OK(st == HCL_OK && d.worst_runup < 0.03,
           "cylinder ka = %.3f: run-up within %.2f%% of MacCamy-Fuchs at every angle (upstream %.4f A, MF %.4f A)",
           kas[q], 100 * d.worst_runup, d.upstream, d.upstream_mf);
    TAP_OK(st == HCL_OK && d.worst_field < 0.03, "cylinder ka = %.3f: the field within %.2f%% of MacCamy-Fuchs:%s",
           kas[q], 100 * d.worst_field, d.report);
  }
  hcl_runtime_destroy(&rt);
  hcl_par_finalize();
  return tap_done();
}
