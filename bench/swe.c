/* SPDX-License-Identifier: BSD-3-Clause */
/* swe.c: `hydrocl bench swe`, the thesis' Table 9.1 sweep (../shared/papers/swe-gpu-explicit-implicit.txt, section
 * 9.1): test case 1 (a 200 m closed basin 1 m deep, a Gaussian drop, a Gaussian island 3 cm above the water) on
 * square grids of side 100 to 12292 cells, 1000 explicit steps each, in float and double, with both orderings:
 * Hansen (u and v in one pass; the thesis' figures, 24.6 s at 12292 on an RTX 2080 Ti) and Sielecki.
 *
 * Reported: seconds for the steps (wall clock, everything the time loop does: kernels and halo exchanges),
 * cell-updates per second; how the step ran (one kernel, or three on CPUs: hcl_swe_step_shape) and the bytes per
 * cell-update its kernels move, each reading its inputs once (7 REALs in one kernel, 15 in three), with the effective
 * bandwidth at that count and its fraction of the copy rate measured in the same run; and the one-pass figures: the
 * least a step must move (zeta, u and v read and written, the bed read: 7 REALs, either ordering), the fraction of
 * the copy rate the run reaches at that count, and the bound on cell-updates/s it sets (copy rate / those bytes). */
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "par.h"
#include "progress.h"
#include "swe.h"

enum { STEPS = 1000, ONE_PASS_REALS = 7 };
static const double BASIN = 200.0, GRAVITY = 9.81;

static double bed(double x, double y) {
  double r2 = (x - 140) * (x - 140) + (y - 100) * (y - 100);
  return 1.0 - 1.03 * exp(-r2 / (2 * 15.0 * 15.0));
}

static double drop(double x, double y) {
  double r2 = (x - 60) * (x - 60) + (y - 100) * (y - 100);
  return 0.1 * exp(-r2 / (2 * 8.0 * 8.0));
}

SweConfig bench_swe_case1_config(double dx, Precision precision, SweOrdering ordering) {
  SweConfig config = {.dx = dx,
                      .dy = dx,
                      .g = GRAVITY,
                      .dry_depth = 1e-3,
                      .advection = SWE_ADVECTION_MOMENTUM,
                      .ordering = ordering,
                      .friction = SWE_FRICTION_CHEZY,
                      .friction_coefficient = 60.0,
                      .precision = precision};
  return config;
}

HclStatus bench_swe_case1(Swe *swe, const Decomp *decomp, double dx) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = hcl_decomp_local(decomp);
  double *depth = NULL, *zeta = NULL;
  TRY_ALLOC(depth, (size_t)l->nx * l->ny);
  TRY_ALLOC(zeta, (size_t)l->nx * l->ny);
  for (int j = 0; j < l->ny; j++) {
    for (int i = 0; i < l->nx; i++) {
      double x = (l->x0 + i + 0.5) * dx, y = (l->y0 + j + 0.5) * dx;
      depth[(size_t)j * l->nx + i] = bed(x, y);
      zeta[(size_t)j * l->nx + i] = drop(x, y);
    }
  }
  TRY(hcl_swe_set_state(swe, depth, zeta, NULL, NULL));
cleanup:
  free(depth);
  free(zeta);
  return status;
}

static HclStatus run_side(const BenchRequest *request, Precision precision, SweOrdering ordering, int side,
                          double copy_gbs) {
  HclStatus status = HCL_OK;
  Decomp *decomp = NULL;
  Swe *swe = NULL;
  double dx = BASIN / side;
  /* The thesis' dt of 0.1 s at 2 m cells, scaled with dx: a CFL number of about 0.16. */
  double dt = 0.05 * dx;
  DecompSpec grid = {.nx = side, .ny = side};
  SweConfig config = bench_swe_case1_config(dx, precision, ordering);
  TRY(hcl_decomp_create(&grid, &decomp));
  TRY(hcl_swe_create(request->rt, decomp, &config, &swe));
  TRY(bench_swe_case1(swe, decomp, dx));
  TRY(hcl_swe_step(swe, dt)); /* warm-up: first launches, first touch */
  TRY(hcl_runtime_finish(request->rt));
  double start = hcl_progress_now();
  for (int step = 0; step < STEPS; step++) {
    TRY(hcl_swe_step(swe, dt));
  }
  TRY(hcl_runtime_finish(request->rt));
  double seconds = hcl_progress_now() - start;
  double cells = (double)side * side * STEPS, real = (double)hcl_precision_bytes(precision);
  SweStepShape shape = hcl_swe_step_shape(swe);
  double bytes = cells * shape.reals_per_cell * real, least = cells * ONE_PASS_REALS * real;
  if (hcl_par_rank() == 0) {
    JsonObject j;
    bench_json_begin(&j, request, "swe", "test_case_1", precision);
    hcl_json_string(&j, "ordering", ordering == SWE_ORDERING_HANSEN ? "hansen" : "sielecki");
    hcl_json_integer(&j, "size", side);
    hcl_json_integer(&j, "steps", STEPS);
    hcl_json_integer(&j, "ranks", hcl_par_size());
    hcl_json_number(&j, "seconds", seconds);
    hcl_json_number(&j, "cell_updates_per_s", cells / seconds);
    hcl_json_string(&j, "step", shape.fused ? "one_kernel" : "three_kernels");
    if (shape.fused) {
      char tile[32];
      snprintf(tile, sizeof tile, "%dx%d", shape.tile_x, shape.tile_y);
      hcl_json_string(&j, "tile", tile);
    }
    hcl_json_number(&j, "bytes_per_cell_update", shape.reals_per_cell * real);
    hcl_json_number(&j, "gbs", bytes / seconds * 1e-9);
    hcl_json_number(&j, "fraction_of_copy", bytes / seconds * 1e-9 / copy_gbs);
    hcl_json_number(&j, "one_pass_bytes_per_cell_update", ONE_PASS_REALS * real);
    hcl_json_number(&j, "one_pass_fraction_of_copy", least / seconds * 1e-9 / copy_gbs);
    hcl_json_number(&j, "one_pass_bound_cell_updates_per_s", copy_gbs * 1e9 / (ONE_PASS_REALS * real));
    hcl_json_number(&j, "copy_gbs", copy_gbs);
    hcl_json_print(&j, request->out);
  }
cleanup:
  hcl_swe_destroy(&swe);
  hcl_decomp_destroy(&decomp);
  return status;
}

/* Sides of the sweep: the thesis' 100 to 12292, those whose fields fit in half the device memory (CPUs stop at
 * 1000: the sweep must finish in minutes on two cores). */
static int sides(const DeviceInfo *dev, Precision p, int out[]) {
  static const int all[] = {100, 1000, 2048, 4096, 8192, 12292};
  int n = 0;
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
    double largest = 0, bytes = hcl_swe_device_bytes(all[i], all[i], p, SWE_SCHEME_EXPLICIT, &largest);
    if (bytes <= 0.5 * (double)dev->global_mem_bytes && (dev->type != DEVICE_TYPE_CPU || all[i] <= 1000)) {
      out[n++] = all[i];
    }
  }
  return n;
}

static HclStatus sweep(const BenchRequest *request, Precision precision) {
  HclStatus status = HCL_OK;
  double copy_gbs = 0;
  int list[8], n = 0;
  if (request->size) {
    TRY(bench_side(request, "swe", &list[n++]));
  } else {
    n = sides(hcl_runtime_device(request->rt), precision, list);
  }
  TRY(bench_copy_rate(request->rt, precision, &copy_gbs));
  for (int i = 0; i < n; i++) {
    TRY(run_side(request, precision, SWE_ORDERING_HANSEN, list[i], copy_gbs));
    TRY(run_side(request, precision, SWE_ORDERING_SIELECKI, list[i], copy_gbs));
  }
cleanup:
  return status;
}

HclStatus bench_swe(const BenchRequest *request) {
  return bench_each_precision(request, "swe", sweep);
}
