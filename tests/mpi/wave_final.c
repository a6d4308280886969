/* SPDX-License-Identifier: BSD-3-Clause */
/* wave_final.c: a short run of the potential-flow wave model exercising every part of a step (nonlinear surface
 * conditions over an uneven bed, a generation zone with a stream-function wave and its start-up ramp, an absorption
 * zone, walls), 33 x 25 x 9 at sixth order, 6 steps; rank 0 prints the final eta of every point, one per line with
 * 17 significant digits, then a line "iterations N" (all solves). test_wave_ranks.sh compares ranks and precisions.
 * With "skewed" the grid is mapping.h's skewed rectangle over the same 2 m x 1.5 m (a curvilinear grid; the bed, the
 * hump and the zones are the same functions and boxes of the physical plane); with "polar" an O-grid around a
 * cylinder of radius 0.15 m at (1, 0.75) out to 0.75 m (33 points along the radius, 25 around, periodic), the same
 * bed and hump, a generation ring 0.2 m wide at its edge instead of the zones.
 * Usage: wave_final double|mixed RTOL [skewed|polar] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wave.h"
#include "../support/support.h"

enum { NX = 33, NY = 25, STEPS = 6 };

/* A bump in the bed under a Gaussian hump of water, both off-centre so no symmetry hides a mistake. */
static void initial_state(const DecompLocal *l, double dx, const Mapping *map, double *h, double *eta, double *phi) {
  for (int j = 0; j < l->ny; j++) {
    for (int i = 0; i < l->nx; i++) {
      double x = (l->x0 + i) * dx, y = (l->y0 + j) * dx;
      if (map) {
        map->point(map->ctx, l->x0 + i, l->y0 + j, &x, &y);
      }
      size_t p = (size_t)j * l->nx + i;
      h[p] = 0.5 - 0.2 * exp(-((x - 1.2) * (x - 1.2) + (y - 0.9) * (y - 0.9)) / 0.1);
      eta[p] = 0.02 * exp(-((x - 1.4) * (x - 1.4) + (y - 0.7) * (y - 0.7)) / 0.05);
      phi[p] = 0;
    }
  }
}

static HclStatus incident(Wave *wave) {
  HclStatus status = HCL_OK;
  RegularWaveSpec spec = hcl_waves_regular_spec_default();
  spec.depth = 0.5;
  spec.height = 0.03;
  spec.length = 1;
  RegularWave regular;
  WaveIncident form = {0};
  TRY(hcl_waves_solve_stream(&spec, &regular));
  TRY(hcl_wave_incident_regular(&regular, 0, 0, &form));
  TRY(hcl_wave_set_incident(wave, &form));
cleanup:
  hcl_wave_incident_free(&form);
  return status;
}

int main(int argc, char **argv) {
  HclStatus status = HCL_OK;
  Runtime *rt = NULL;
  Decomp *decomp = NULL;
  Wave *wave = NULL;
  double *h = NULL, *eta = NULL, *phi = NULL, *global = NULL;
  TRY(hcl_par_init(&argc, &argv));
  bool skewed = argc == 4 && strcmp(argv[3], "skewed") == 0, polar = argc == 4 && strcmp(argv[3], "polar") == 0;
  REQUIRE(argc == 3 || skewed || polar, HCL_EUSAGE, "usage: wave_final double|mixed RTOL [skewed|polar]");
  TRY(test_open_runtime(true, &rt));
  DecompSpec spec = {.nx = NX, .ny = NY, .periodic_y = polar};
  TRY(hcl_decomp_create(&spec, &decomp));
  const DecompLocal *l = hcl_decomp_local(decomp);
  WaveConfig c = hcl_wave_config_default();
  c.laplace.dx = c.laplace.dy = 1.0 / 16;
  c.laplace.precision = strcmp(argv[1], "double") == 0 ? LAPLACE_DOUBLE : LAPLACE_MIXED;
  c.laplace.krylov.rtol = atof(argv[2]);
  MappingRectangle rectangle = {.lx = 2, .ly = 1.5, .dx = 1.0 / 16, .dy = 1.0 / 16, .stretch = 0.15, .skew = 0.15};
  MappingPolar ring = {
      .cx = 1, .cy = 0.75, .radius = 0.15, .outer = 0.75, .stretching = log(5.0), .nr = NX, .ntheta = NY};
  Mapping map = skewed ? (Mapping){hcl_mapping_rectangle_point, &rectangle, "the skewed rectangle"}
                       : (Mapping){hcl_mapping_polar_point, &ring, "the O-grid"};
  c.laplace.map = argc == 4 ? &map : NULL;
  c.laplace.krylov.atol = 0;
  c.ramp_time = 0.5;
  c.nzones = 2;
  c.zones[0] = (WaveZone){.kind = WAVE_ZONE_GENERATE,
                          .x0 = 0,
                          .x1 = 0.5,
                          .y0 = 0,
                          .y1 = 1.5,
                          .inward = WAVE_INWARD_PLUS_X,
                          .shape = WAVE_SHAPE_EXPONENTIAL,
                          .power = 3.5};
  c.zones[1] = (WaveZone){.kind = WAVE_ZONE_ABSORB,
                          .x0 = 1.5,
                          .x1 = 2,
                          .y0 = 0,
                          .y1 = 1.5,
                          .inward = WAVE_INWARD_MINUS_X,
                          .shape = WAVE_SHAPE_POLYNOMIAL};
  if (polar) {
    c.nzones = 1;
    c.zones[0] = (WaveZone){.kind = WAVE_ZONE_GENERATE,
                            .region = WAVE_REGION_RING,
                            .cx = 1,
                            .cy = 0.75,
                            .r0 = 0.55,
                            .r1 = 0.75,
                            .shape = WAVE_SHAPE_EXPONENTIAL,
                            .power = 3.5};
  }
  size_t n = (size_t)l->nx * l->ny;
  TRY_ALLOC(h, n);
  TRY_ALLOC(eta, n);
  TRY_ALLOC(phi, n);
  TRY_ALLOC(global, (size_t)NX * NY);
  initial_state(l, c.laplace.dx, c.laplace.map, h, eta, phi);
  TRY(hcl_wave_create(rt, decomp, &c, h, &wave));
  TRY(incident(wave));
  TRY(hcl_wave_set_state(wave, 0, eta, phi));
  int iterations = 0;
  for (int s = 0; s < STEPS; s++) {
    WaveStepStats stats;
    TRY(hcl_wave_step(wave, 0.02, false, &stats));
    iterations += stats.iterations;
  }
  TRY(hcl_wave_check(wave, 1));
  TRY(hcl_field_gather(hcl_wave_eta(wave), global));
  for (int p = 0; hcl_par_rank() == 0 && p < NX * NY; p++) {
    printf("%.17g\n", global[p]);
  }
  if (hcl_par_rank() == 0) {
    printf("iterations %d\n", iterations);
  }
cleanup:
  if (status != HCL_OK) {
    fprintf(stderr, "wave_final: %s\n", hcl_status_message());
  }
  hcl_wave_destroy(&wave);
  hcl_decomp_destroy(&decomp);
  hcl_runtime_destroy(&rt);
  free(h);
  free(eta);
  free(phi);
  free(global);
  hcl_par_finalize();
  return status == HCL_OK ? 0 : 1;
}
