/* SPDX-License-Identifier: BSD-3-Clause */
/* wave_tank.h: the wave model (wave.h) set up as a numerical wave tank for the regression tests: a grid over
 * a still-water depth h(x, y), the model, gauges that record eta in time (linear interpolation between the
 * grid points along x and y), and the run loop with the stability guard. One rank: the tank reads its whole
 * grid. */
#ifndef HYDROCL_TEST_WAVE_TANK_H
#define HYDROCL_TEST_WAVE_TANK_H

#include <stddef.h>

#include "harmonics.h"
#include "wave.h"

typedef double (*TankDepth)(double x, double y, const void *ctx);

typedef struct {
  int nx, ny;
  bool periodic_x;   /* the x sides periodic (point nx is point 0), else walls */
  WaveConfig config; /* dx, dy, x0, y0, zones, ramp_time, ... */
  TankDepth depth;
  const void *depth_ctx;
} TankSpec;

typedef struct {
  double x, y;
} TankGauge;

typedef struct {
  TankSpec spec;
  Decomp *decomp;
  Wave *wave;
  size_t n;              /* nx ny */
  double *h, *eta, *phi; /* [ny][nx], x fastest; eta and phi as of the last tank_read */
  int ngauges;
  TankGauge *gauges;
  int nsamples, capacity;
  double *times;  /* [nsamples] */
  double *record; /* [nsamples][ngauges] */
  int row;        /* >= 0: each sample also keeps eta along the grid row j = row, from sample row_first on */
  int row_first;
  double *rows; /* [nsamples - row_first][nx] */
  int steps;
  long iterations, solves;
  double seconds; /* wall time in tank_run */
} Tank;

/* Sets up the tank (depth from spec.depth at every point) and its gauges (copied); no rows kept (row -1). */
HclStatus tank_create(Runtime *rt, const TankSpec *spec, int ngauges, const TankGauge *gauges, Tank *tank);
void tank_free(Tank *tank);

double tank_x(const Tank *tank, int i);
double tank_y(const Tank *tank, int j);

/* The two zones of a flume along x, across y0 .. y1: generation over gen0 .. gen1 handing over towards +x,
 * absorption over abs0 .. abs1 towards -x; exponential weights, p = 3.5 (OceanWave3D's). */
void tank_flume_zones(WaveConfig *config, double gen0, double gen1, double abs0, double abs1, double y0, double y1);

/* The generation zones' incident wave: the regular wave towards +x, its crest at x = 0 at t = 0. */
HclStatus tank_set_regular(Tank *tank, const RegularWave *wave);

/* The model's linear frequency of cos(k (x - x0)) along x on this tank's grid and flat bed: w = lambda phi
 * for phi = cos(k (x - x0)) on still water (one solve), omega_d^2 = g lambda, read at point (0, 0). The mode
 * is an eigenvector of the discrete operator on a flat bed between walls or across periodic sides (k a
 * multiple of 2 pi / length). Replaces the state (at t = 0). */
HclStatus tank_discrete_frequency(Tank *tank, double k, double *omega_d);

/* Reads eta and phi into the host arrays. */
HclStatus tank_read(Tank *tank);
/* eta at (x, y) from the host array, interpolated linearly (bilinearly in 3D). */
double tank_eta_at(const Tank *tank, double x, double y);
/* Appends the gauges' eta at the present time to the record (reads eta). */
HclStatus tank_sample(Tank *tank);

/* Advances `steps` steps of dt, sampling the gauges after every `sample_every` steps (0: never) and checking
 * the state (hcl_wave_check, |eta| < depth) every 50 steps. */
HclStatus tank_run(Tank *tank, double dt, int steps, int sample_every);

/* The harmonic analysis of gauge g's record over its last `periods` periods of 2 pi / omega. */
HclStatus tank_harmonics(const Tank *tank, int g, double omega, double periods, int harmonics, Harmonics *fit);

/* Gauge g's record as an array (caller frees; NULL when out of memory). */
double *tank_series(const Tank *tank, int g);

/* Keeps eta along grid row j with every sample from the last one taken on (its eta is still in the host
 * array: call this right after a tank_run that sampled, or before any sample). */
void tank_keep_row(Tank *tank, int j);

/* The incident and reflected amplitudes of a wave of frequency n omega and wavenumber kn along the kept row,
 * between x0 and x1, over the last `periods` periods: harmonic n's complex amplitude C(x) = a_n + i b_n at
 * each point (harmonics.h: eta_n = Re(C e^{-i n omega t})) fitted by least squares as I e^{i kn x} + R e^{-i
 * kn x}. */
HclStatus tank_reflection(const Tank *tank, double x0, double x1, double omega, int n, double kn, double periods,
                          double *incident, double *reflected);

/* Linear wave theory: the group velocity of angular frequency omega in depth h (k from
 * hcl_waves_solve_dispersion). */
double tank_group_velocity(double g, double h, double omega);

#endif
