/* SPDX-License-Identifier: BSD-3-Clause */
/* wave_tank.c: the numerical wave tank of the wave model's regression tests (wave_tank.h). */
#include "wave_tank.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "progress.h"

#define PI 3.14159265358979323846

HclStatus tank_create(Runtime *rt, const TankSpec *spec, int ngauges, const TankGauge *gauges, Tank *t) {
  HclStatus status = HCL_OK;
  memset(t, 0, sizeof *t);
  t->spec = *spec;
  DecompSpec grid = {.nx = spec->nx, .ny = spec->ny, .periodic_x = spec->periodic_x};
  TRY(hcl_decomp_create(&grid, &t->decomp));
  const DecompLocal *l = hcl_decomp_local(t->decomp);
  REQUIRE(l->nx == spec->nx && l->ny == spec->ny, HCL_EDATA, "the wave tank runs on one rank");
  t->n = (size_t)spec->nx * spec->ny;
  TRY_ALLOC(t->h, t->n);
  TRY_ALLOC(t->eta, t->n);
  TRY_ALLOC(t->phi, t->n);
  for (int j = 0; j < spec->ny; j++) {
    for (int i = 0; i < spec->nx; i++) {
      t->h[(size_t)j * spec->nx + i] = spec->depth(tank_x(t, i), tank_y(t, j), spec->depth_ctx);
    }
  }
  t->row = -1;
  t->ngauges = ngauges;
  TRY_ALLOC(t->gauges, ngauges > 0 ? ngauges : 1);
  memcpy(t->gauges, gauges, sizeof *gauges * ngauges);
  TRY(hcl_wave_create(rt, t->decomp, &spec->config, t->h, &t->wave));
cleanup:
  return status;
}

void tank_free(Tank *t) {
  hcl_wave_destroy(&t->wave);
  hcl_decomp_destroy(&t->decomp);
  free(t->h);
  free(t->eta);
  free(t->phi);
  free(t->gauges);
  free(t->times);
  free(t->record);
  free(t->rows);
  memset(t, 0, sizeof *t);
}

double tank_x(const Tank *t, int i) {
  return t->spec.config.x0 + i * t->spec.config.laplace.dx;
}

double tank_y(const Tank *t, int j) {
  return t->spec.config.y0 + j * t->spec.config.laplace.dy;
}

void tank_flume_zones(WaveConfig *c, double gen0, double gen1, double abs0, double abs1, double y0, double y1) {
  c->nzones = 2;
  c->zones[0] = (WaveZone){.kind = WAVE_ZONE_GENERATE,
                           .x0 = gen0,
                           .x1 = gen1,
                           .y0 = y0,
                           .y1 = y1,
                           .inward = WAVE_INWARD_PLUS_X,
                           .shape = WAVE_SHAPE_EXPONENTIAL,
                           .power = 3.5};
  c->zones[1] = (WaveZone){.kind = WAVE_ZONE_ABSORB,
                           .x0 = abs0,
                           .x1 = abs1,
                           .y0 = y0,
                           .y1 = y1,
                           .inward = WAVE_INWARD_MINUS_X,
                           .shape = WAVE_SHAPE_EXPONENTIAL,
                           .power = 3.5};
}

HclStatus tank_set_regular(Tank *t, const RegularWave *wave) {
  HclStatus status = HCL_OK;
  WaveIncident incident = {0};
  TRY(hcl_wave_incident_regular(wave, 0, 0, &incident));
  TRY(hcl_wave_set_incident(t->wave, &incident));
cleanup:
  hcl_wave_incident_free(&incident);
  return status;
}

HclStatus tank_discrete_frequency(Tank *t, double k, double *omega_d) {
  HclStatus status = HCL_OK;
  double *w = NULL;
  TRY_ALLOC(w, t->n);
  for (size_t p = 0; p < t->n; p++) {
    t->eta[p] = 0;
    t->phi[p] = cos(k * (tank_x(t, (int)(p % t->spec.nx)) - t->spec.config.x0));
  }
  TRY(hcl_wave_set_state(t->wave, 0, t->eta, t->phi));
  double potential, kinetic;
  TRY(hcl_wave_energy(t->wave, &potential, &kinetic)); /* a solve at the present state */
  TRY(hcl_field_read_owned(hcl_laplace_w(hcl_wave_laplace(t->wave)), w));
  *omega_d = sqrt(t->spec.config.g * w[0] / t->phi[0]);
cleanup:
  free(w);
  return status;
}

HclStatus tank_read(Tank *t) {
  HclStatus status = HCL_OK;
  TRY(hcl_field_read_owned(hcl_wave_eta(t->wave), t->eta));
  TRY(hcl_field_read_owned(hcl_wave_phi(t->wave), t->phi));
cleanup:
  return status;
}

/* The cell of the coordinate s along a direction of n points from s0 at spacing d: index and fraction. */
static void locate(double s, double s0, double d, int n, int *index, double *fraction) {
  if (n == 1) {
    *index = 0;
    *fraction = 0;
    return;
  }
  double u = fmin(fmax((s - s0) / d, 0), n - 1);
  int i = (int)floor(u);
  if (i >= n - 1) {
    i = n - 2;
  }
  *index = i;
  *fraction = u - i;
}

double tank_eta_at(const Tank *t, double x, double y) {
  const WaveConfig *c = &t->spec.config;
  int i, j, nx = t->spec.nx;
  double fx, fy;
  locate(x, c->x0, c->laplace.dx, nx, &i, &fx);
  locate(y, c->y0, c->laplace.dy, t->spec.ny, &j, &fy);
  int di = nx > 1 ? 1 : 0, dj = t->spec.ny > 1 ? nx : 0;
  const double *e = t->eta + (size_t)j * nx + i;
  return (1 - fy) * ((1 - fx) * e[0] + fx * e[di]) + fy * ((1 - fx) * e[dj] + fx * e[dj + di]);
}

HclStatus tank_sample(Tank *t) {
  HclStatus status = HCL_OK;
  if (t->nsamples == t->capacity) {
    int capacity = t->capacity ? 2 * t->capacity : 1024;
    double *times = realloc(t->times, sizeof *times * capacity);
    REQUIRE(times, HCL_ENOMEM, "gauge record of %d samples", capacity);
    t->times = times;
    double *record = realloc(t->record, sizeof *record * capacity * (t->ngauges ? t->ngauges : 1));
    REQUIRE(record, HCL_ENOMEM, "gauge record of %d samples", capacity);
    t->record = record;
    if (t->row >= 0) {
      double *rows = realloc(t->rows, sizeof *rows * (size_t)(capacity - t->row_first) * t->spec.nx);
      REQUIRE(rows, HCL_ENOMEM, "row record of %d samples", capacity);
      t->rows = rows;
    }
    t->capacity = capacity;
  }
  TRY(hcl_field_read_owned(hcl_wave_eta(t->wave), t->eta));
  t->times[t->nsamples] = hcl_wave_time(t->wave);
  for (int g = 0; g < t->ngauges; g++) {
    t->record[(size_t)t->nsamples * t->ngauges + g] = tank_eta_at(t, t->gauges[g].x, t->gauges[g].y);
  }
  if (t->row >= 0) {
    REQUIRE(t->rows, HCL_ENOMEM, "row record of %d samples", t->capacity);
    memcpy(t->rows + (size_t)(t->nsamples - t->row_first) * t->spec.nx, t->eta + (size_t)t->row * t->spec.nx,
           sizeof *t->rows * t->spec.nx);
  }
  t->nsamples++;
cleanup:
  return status;
}

HclStatus tank_run(Tank *t, double dt, int steps, int sample_every) {
  HclStatus status = HCL_OK;
  double start = hcl_progress_now();
  for (int s = 1; s <= steps; s++) {
    WaveStepStats stats;
    TRY(hcl_wave_step(t->wave, dt, false, &stats));
    t->steps++;
    t->iterations += stats.iterations;
    t->solves += stats.solves;
    if (s % 50 == 0 || s == steps) {
      TRY(hcl_wave_check(t->wave, 1.0));
    }
    if (sample_every > 0 && s % sample_every == 0) {
      TRY(tank_sample(t));
    }
  }
cleanup:
  t->seconds += hcl_progress_now() - start;
  return status;
}

double *tank_series(const Tank *t, int g) {
  double *series = malloc(sizeof *series * (t->nsamples ? t->nsamples : 1));
  for (int k = 0; series && k < t->nsamples; k++) {
    series[k] = t->record[(size_t)k * t->ngauges + g];
  }
  return series;
}

HclStatus tank_harmonics(const Tank *t, int g, double omega, double periods, int harmonics, Harmonics *fit) {
  HclStatus status = HCL_OK;
  double *series = NULL;
  int first = hcl_harmonics_window(t->times, t->nsamples, omega, periods);
  REQUIRE(first >= 0, HCL_EDATA, "gauge %d: the record of %d samples is shorter than %g periods", g, t->nsamples,
          periods);
  series = tank_series(t, g);
  REQUIRE(series, HCL_ENOMEM, "a gauge series of %d samples", t->nsamples);
  TRY(hcl_harmonics_fit(t->times + first, series + first, t->nsamples - first, omega, harmonics, fit));
cleanup:
  free(series);
  return status;
}

void tank_keep_row(Tank *t, int j) {
  t->row = j;
  t->row_first = t->nsamples > 0 ? t->nsamples - 1 : 0;
  free(t->rows);
  t->rows =
      malloc(sizeof *t->rows * (size_t)(t->capacity > t->row_first ? t->capacity - t->row_first : 1) * t->spec.nx);
  if (t->rows && t->nsamples > 0) { /* the last sample's eta is still in the host array */
    memcpy(t->rows, t->eta + (size_t)j * t->spec.nx, sizeof *t->rows * t->spec.nx);
  }
}

/* Solves the m x m system A x = b (row-major, m <= 4) by Gaussian elimination with partial pivoting. */
static void solve_small(double A[4][4], double *b, int m, double *x) {
  for (int c = 0; c < m; c++) {
    int pivot = c;
    for (int r = c + 1; r < m; r++) {
      if (fabs(A[r][c]) > fabs(A[pivot][c])) {
        pivot = r;
      }
    }
    for (int q = 0; q < m; q++) {
      double swap = A[c][q];
      A[c][q] = A[pivot][q];
      A[pivot][q] = swap;
    }
    double swap = b[c];
    b[c] = b[pivot];
    b[pivot] = swap;
    for (int r = c + 1; r < m; r++) {
      double f = A[r][c] / A[c][c];
      for (int q = c; q < m; q++) {
        A[r][q] -= f * A[c][q];
      }
      b[r] -= f * b[c];
    }
  }
  for (int r = m - 1; r >= 0; r--) {
    double sum = b[r];
    for (int q = r + 1; q < m; q++) {
      sum -= A[r][q] * x[q];
    }
    x[r] = sum / A[r][r];
  }
}

HclStatus tank_reflection(const Tank *t, double x0, double x1, double omega, int n, double kn, double periods,
                          double *incident, double *reflected) {
  HclStatus status = HCL_OK;
  int kept = t->nsamples - t->row_first, nx = t->spec.nx;
  double *series = NULL, A[4][4] = {{0}}, b[4] = {0}, c[4];
  REQUIRE(t->row >= 0 && kept > 0, HCL_EDATA, "no row kept for the reflection analysis");
  int first = hcl_harmonics_window(t->times + t->row_first, kept, omega, periods);
  REQUIRE(first >= 0, HCL_EDATA, "the row record of %d samples is shorter than %g periods", kept, periods);
  TRY_ALLOC(series, kept);
  int points = 0;
  for (int i = 0; i < nx; i++) {
    double x = tank_x(t, i);
    if (x < x0 || x > x1) {
      continue;
    }
    for (int s = first; s < kept; s++) {
      series[s] = t->rows[(size_t)s * nx + i];
    }
    Harmonics fit;
    TRY(hcl_harmonics_fit(t->times + t->row_first + first, series + first, kept - first, omega, n + 2, &fit));
    /* C = I e^{i kn x} + R e^{-i kn x}, I = Ir + i Ii, R = Rr + i Ri: the real and imaginary parts are rows.
     */
    double cs = cos(kn * x), sn = sin(kn * x);
    double re[4] = {cs, -sn, cs, sn}, im[4] = {sn, cs, -sn, cs};
    for (int p = 0; p < 4; p++) {
      for (int q = 0; q < 4; q++) {
        A[p][q] += re[p] * re[q] + im[p] * im[q];
      }
      b[p] += re[p] * fit.a[n] + im[p] * fit.b[n];
    }
    points++;
  }
  REQUIRE(points >= 4, HCL_EDATA, "the reflection analysis between x = %g and %g m has %d points: 4 needed", x0, x1,
          points);
  solve_small(A, b, 4, c);
  *incident = hypot(c[0], c[1]);
  *reflected = hypot(c[2], c[3]);
cleanup:
  free(series);
  return status;
}

double tank_group_velocity(double g, double h, double omega) {
  double k = 0;
  if (hcl_waves_solve_dispersion(g, h, 2 * PI / omega, 0, &k) != HCL_OK) {
    hcl_status_clear();
    return NAN;
  }
  return 0.5 * omega / k * (1 + 2 * k * h / sinh(2 * k * h));
}
