/* SPDX-License-Identifier: BSD-3-Clause */
/* halo.c: `hydrocl bench halo`, one ghost-layer exchange of a 3D field of size x size x 9 points (default 1025),
 * ghost width 3 (the sixth-order stencils of the wave model), periodic on all sides, split over the run's ranks.
 * On one rank the exchange is the device-only periodic copy; on several it packs, stages through pinned host
 * memory and sends over MPI; on a machine with several GPUs start one rank per GPU.
 *
 * "exchange": the exchange alone.
 * "hidden": the exchange behind a sweep of the Laplace operator (laplace.h: the high-order defect, sixth order, 9
 *   sigma points, on the Gaussian hump in a closed basin of size x size points) as every solve runs it: the sweep
 *   alone (Phi's ghosts current), the refresh of Phi's ghosts alone (exchange and walls' mirror), the sweep with the
 *   refresh behind it, each the best of as many repetitions, interleaved; "visible_fraction" = (both - sweep) /
 *   refresh, the part of the exchange the sweep does not hide.
 *
 * Reported per exchange: wall time (begin to end, including the device work it waits for; the slowest rank's),
 * "gbs" = 2 x ghost bytes / time (each ghost value read once where it is owned and written once where it is a
 * ghost: the least device traffic an exchange can cause), its fraction of the copy rate measured in the same run,
 * and "message_gbs" = the bytes this rank sends and receives over MPI / time. */
#include "bench.h"

#include <stdlib.h>
#include <time.h>

#include "halo.h"
#include "laplace.h"
#include "par.h"
#include "wave_hump.h"

enum { NZ = 9, GHOST = 3, DEFAULT_SIDE = 1025, MIN_REPS = 10, MAX_REPS = 1000 };
static const double MIN_SECONDS = 0.2;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static HclStatus time_exchanges(Halo *halo, Runtime *rt, double *best, double *median, int *reps) {
  HclStatus status = HCL_OK;
  double *times = NULL, total = 0.0;
  int n = 0;
  TRY_ALLOC(times, MAX_REPS);
  for (int warm = 0; warm < 3; warm++) {
    TRY(hcl_halo_exchange(halo));
  }
  TRY(hcl_runtime_finish(rt));
  /* Every rank runs the same number of repetitions: the loop condition uses the slowest rank's times. */
  while (n < MAX_REPS && (n < MIN_REPS || total < MIN_SECONDS)) {
    TRY(hcl_par_barrier());
    double start = now();
    TRY(hcl_halo_exchange(halo));
    TRY(hcl_runtime_finish(rt));
    times[n] = now() - start;
    TRY(hcl_par_max_double(&times[n])); /* the slowest rank's */
    total += times[n++];
  }
  qsort(times, (size_t)n, sizeof *times, compare_doubles);
  *best = times[0];
  *median = times[n / 2];
  *reps = n;
cleanup:
  free(times);
  return status;
}

/* A result's first fields: the grid, its split and the repetitions timed. */
static void begin_result(JsonObject *j, const BenchRequest *request, const char *name, Precision precision, int side,
                         const DecompLocal *l, int reps) {
  bench_json_begin(j, request, "halo", name, precision);
  hcl_json_integer(j, "size", side);
  hcl_json_integer(j, "nz", NZ);
  hcl_json_integer(j, "ghost", GHOST);
  hcl_json_integer(j, "ranks", hcl_par_size());
  hcl_json_integer(j, "px", l->px);
  hcl_json_integer(j, "py", l->py);
  hcl_json_integer(j, "reps", reps);
}

static HclStatus run_one(const BenchRequest *request, Precision precision, int side) {
  HclStatus status = HCL_OK;
  Decomp *decomp = NULL;
  Field *field = NULL;
  Halo *halo = NULL;
  double copy_gbs = 0, best = 0, median = 0;
  int reps = 0;
  DecompSpec spec = {.nx = side, .ny = side, .periodic_x = true, .periodic_y = true};
  FieldSpec fs = {.name = "phi", .nz = NZ, .ghost = GHOST, .precision = precision};
  TRY(bench_copy_rate(request->rt, precision, &copy_gbs));
  TRY(hcl_decomp_create(&spec, &decomp));
  TRY(hcl_field_create(request->rt, decomp, &fs, &field));
  TRY(hcl_halo_create(&field, 1, &halo));
  TRY(time_exchanges(halo, request->rt, &best, &median, &reps));
  const DecompLocal *l = hcl_decomp_local(decomp);
  double ghost_points = (double)NZ * ((double)(l->nx + 2 * GHOST) * (l->ny + 2 * GHOST) - (double)l->nx * l->ny);
  double ghost_bytes = ghost_points * (double)hcl_precision_bytes(precision);
  double message_bytes = 2.0 * (double)hcl_halo_message_bytes(halo);
  if (hcl_par_rank() == 0) {
    JsonObject j;
    begin_result(&j, request, "exchange", precision, side, l, reps);
    hcl_json_number(&j, "seconds", best);
    hcl_json_number(&j, "seconds_median", median);
    hcl_json_number(&j, "bytes", 2.0 * ghost_bytes);
    hcl_json_number(&j, "gbs", 2.0 * ghost_bytes / best * 1e-9);
    hcl_json_number(&j, "fraction_of_copy", 2.0 * ghost_bytes / best * 1e-9 / copy_gbs);
    hcl_json_number(&j, "message_bytes", message_bytes);
    hcl_json_number(&j, "message_gbs", message_bytes / best * 1e-9);
    hcl_json_number(&j, "copy_gbs", copy_gbs);
    hcl_json_print(&j, request->out);
  }
cleanup:
  hcl_halo_destroy(&halo);
  hcl_field_destroy(&field);
  hcl_decomp_destroy(&decomp);
  return status;
}

/* The best (slowest rank's) seconds of each of the three ways of hcl_laplace_sweep, interleaved. */
static HclStatus time_sweeps(Runtime *rt, Laplace *laplace, double best[3], int *reps) {
  HclStatus status = HCL_OK;
  static const bool sweep[3] = {true, false, true}, refresh[3] = {false, true, true};
  double total = 0;
  int n = 0;
  for (int way = 0; way < 3; way++) {
    best[way] = 1e300;
    TRY(hcl_laplace_sweep(laplace, sweep[way], refresh[way])); /* warm: kernel builds, halos */
  }
  while (n < MAX_REPS && (n < MIN_REPS || total < MIN_SECONDS)) {
    for (int way = 0; way < 3; way++) {
      TRY(hcl_runtime_finish(rt));
      TRY(hcl_par_barrier());
      double start = now();
      TRY(hcl_laplace_sweep(laplace, sweep[way], refresh[way]));
      TRY(hcl_runtime_finish(rt));
      double seconds = now() - start;
      TRY(hcl_par_max_double(&seconds));
      best[way] = seconds < best[way] ? seconds : best[way];
      total += seconds;
    }
    n++;
  }
  *reps = n;
cleanup:
  return status;
}

static HclStatus run_hidden(const BenchRequest *request, Precision precision, int side) {
  HclStatus status = HCL_OK;
  WaveHumpSolver hump = {0};
  LaplaceConfig c = hcl_laplace_config_default();
  c.nz = NZ;
  c.order = 2 * GHOST;
  c.precision = precision == PRECISION_DOUBLE ? LAPLACE_DOUBLE : LAPLACE_SINGLE;
  double best[3];
  int reps = 0;
  TRY(hcl_wave_hump_solver_open(request->rt, &(DecompSpec){.nx = side, .ny = side}, 1.0 / (NZ - 1), &c, &hump));
  TRY(hcl_laplace_compute_residual(hump.laplace, hump.eta, hump.phi));
  TRY(time_sweeps(request->rt, hump.laplace, best, &reps));
  if (hcl_par_rank() == 0) {
    const DecompLocal *l = hcl_decomp_local(hump.decomp);
    JsonObject j;
    begin_result(&j, request, "hidden", precision, side, l, reps);
    hcl_json_number(&j, "sweep_seconds", best[0]);
    hcl_json_number(&j, "exchange_seconds", best[1]);
    hcl_json_number(&j, "both_seconds", best[2]);
    hcl_json_number(&j, "visible_fraction", (best[2] - best[0]) / best[1]);
    hcl_json_print(&j, request->out);
  }
cleanup:
  hcl_wave_hump_solver_close(&hump);
  return status;
}

/* One precision at the side --size asks (DEFAULT_SIDE without it). */
static HclStatus run_precision(const BenchRequest *request, Precision precision) {
  HclStatus status = HCL_OK;
  int side = DEFAULT_SIDE;
  if (request->size) {
    TRY(bench_side(request, "halo", &side));
  }
  TRY(run_one(request, precision, side));
  TRY(run_hidden(request, precision, side));
cleanup:
  return status;
}

HclStatus bench_halo(const BenchRequest *request) {
  return bench_each_precision(request, "halo", run_precision);
}
