/* SPDX-License-Identifier: BSD-3-Clause */
/* vbm.c: `hydrocl bench vbm`, the variational Boussinesq model's frame (vbm.h) with a moving ship, as
 * ../shared/papers/rrb-pcg-gpu.txt measures its solver (section 5, Table 1: 5.8 to 6.9 CG iterations a frame, 10.7
 * to 11.6 ms for 1.5M nodes on a GTX 580) and as a bridge simulator runs it: a square basin of side N cells of 5 m,
 * 20 m deep, sponges 20 cells wide on every side, a 100 m x 16 m ship of 4 m draft crossing it diagonally at 8 m/s,
 * the parabolic shape, CG + RRB to the model's default criterion (M-norm, 1e-5) warm-started from the last frame;
 * the step half leapfrog's limit. Per precision and size, after WARMUP frames:
 * - frame: the mean wall time of FRAMES frames run as a run runs them (nothing waited for but CG's scalars), frames
 *   per second, CG iterations per frame, launches and waits per frame, and the effective bandwidth;
 * - parts: another FRAMES frames with each part waited for and timed (hcl_vbm_set_timed): the right-hand side, the
 *   solve, the update; their sum exceeds the frame's time by the waits.
 * Effective bandwidth, the least DRAM traffic per cell in REALs: the update 16 (zeta, phi at both levels, psi, the
 * depth, the faces' h D, the current, the sponges' rate and targets and the ships' pressure read; zeta and phi
 * written), the right-hand side 4, and per CG iteration
 * 14.5 (as bench/swe_implicit.c counts the same solver: 29 per red node). Not counted: the solve's start and end
 * and the halo exchanges, so the rate is a lower bound. */
#include "bench.h"

#include <math.h>
#include <stdlib.h>

#include "decomp.h"
#include "log.h"
#include "par.h"
#include "progress.h"
#include "vbm.h"

static const double SPACING = 5, DEPTH = 20, GRAVITY = 9.81, SPEED = 8;
static const double UPDATE_REALS = 16, RHS_REALS = 4, ITERATION_REALS = 29.0 / 2;
enum { WARMUP = 20, FRAMES = 50, SPONGE = 20 };

typedef struct {
  const BenchRequest *request;
  Precision precision;
  double copy_gbs;
} Bench;

/* The ship, crossing the basin of side `extent` m from its south-west quarter towards the north-east. */
typedef struct {
  double extent;
} Crossing;

static void place_ship(void *ctx, double t, VbmShip *ships) {
  const Crossing *c = ctx;
  double heading = atan2(1, 1), start = 0.25 * c->extent;
  ships[0] = (VbmShip){.x = start + SPEED * t * cos(heading),
                       .y = start + SPEED * t * sin(heading),
                       .heading = heading,
                       .length = 100,
                       .beam = 16,
                       .peak = GRAVITY * 4};
}

typedef struct {
  Decomp *decomp;
  Vbm *vbm;
  Crossing crossing;
  double dt, t;
} Basin;

static void basin_close(Basin *b) {
  hcl_vbm_destroy(&b->vbm);
  hcl_decomp_destroy(&b->decomp);
}

static HclStatus basin_open(const Bench *b, int side, Basin *basin) {
  HclStatus status = HCL_OK;
  double *depth = NULL, *zero = NULL;
  DecompSpec grid = {.nx = side, .ny = side};
  VbmConfig config = {.dx = SPACING,
                      .dy = SPACING,
                      .g = GRAVITY,
                      .sponge = {SPONGE, SPONGE, SPONGE, SPONGE},
                      .sponge_strength = 1,
                      .precision = b->precision,
                      .krylov = hcl_vbm_krylov_defaults()};
  TRY(hcl_decomp_create(&grid, &basin->decomp));
  const DecompLocal *l = hcl_decomp_local(basin->decomp);
  size_t n = (size_t)l->nx * l->ny;
  TRY_ALLOC(depth, n);
  TRY_ALLOC(zero, n);
  for (size_t p = 0; p < n; p++) {
    depth[p] = DEPTH;
    zero[p] = 0;
  }
  TRY(hcl_vbm_create(b->request->rt, basin->decomp, &config, &basin->vbm));
  TRY(hcl_vbm_set_state(basin->vbm, depth, zero, zero, NULL, NULL));
  basin->crossing.extent = side * SPACING;
  TRY(hcl_vbm_set_ships(basin->vbm, 1, place_ship, &basin->crossing));
  basin->dt = 0.5 * hcl_vbm_stable_step(GRAVITY, DEPTH, 0, SPACING, SPACING, 0, 0);
cleanup:
  free(depth);
  free(zero);
  return status;
}

/* `frames` frames from where the basin is; iterations summed into *iterations. */
static HclStatus run_frames(Basin *basin, int frames, double seconds[VBM_PARTS], long *iterations) {
  HclStatus status = HCL_OK;
  for (int f = 0; f < frames; f++) {
    TRY(hcl_vbm_step(basin->vbm, basin->t, basin->dt));
    basin->t += basin->dt;
    VbmSolveStats stats = hcl_vbm_solve_stats(basin->vbm);
    *iterations += stats.iterations;
    for (int part = 0; seconds && part < VBM_PARTS; part++) {
      seconds[part] += stats.seconds[part];
    }
  }
cleanup:
  return status;
}

static HclStatus bench_size(const Bench *b, int side) {
  HclStatus status = HCL_OK;
  Runtime *rt = b->request->rt;
  Basin basin = {0};
  long iterations = 0, timed_iterations = 0;
  double parts[VBM_PARTS] = {0};
  TRY(basin_open(b, side, &basin));
  TRY(run_frames(&basin, WARMUP, NULL, &iterations));
  iterations = 0;
  TRY(hcl_runtime_finish(rt));
  RuntimeCounts before = hcl_runtime_counts(rt);
  double start = hcl_progress_now();
  TRY(run_frames(&basin, FRAMES, NULL, &iterations));
  TRY(hcl_runtime_finish(rt));
  double seconds = (hcl_progress_now() - start) / FRAMES;
  RuntimeCounts used = bench_counts_since(rt, before);
  hcl_vbm_set_timed(basin.vbm, true);
  TRY(run_frames(&basin, FRAMES, parts, &timed_iterations));
  double cells = (double)side * side, per_frame = (double)iterations / FRAMES;
  double bytes = cells * (UPDATE_REALS + RHS_REALS + ITERATION_REALS * per_frame) * hcl_precision_bytes(b->precision);
  double gbs = bytes / seconds * 1e-9, largest;
  JsonObject j;
  bench_json_begin(&j, b->request, "vbm", "frame", b->precision);
  hcl_json_integer(&j, "size", side);
  hcl_json_number(&j, "nodes", cells);
  hcl_json_integer(&j, "ranks", hcl_par_size());
  hcl_json_integer(&j, "frames", FRAMES);
  hcl_json_number(&j, "dt", basin.dt);
  hcl_json_number(&j, "seconds_per_frame", seconds);
  hcl_json_number(&j, "frames_per_second", 1 / seconds);
  hcl_json_number(&j, "iterations_per_frame", per_frame);
  bench_json_counts(&j, "frame", used, FRAMES);
  hcl_json_number(&j, "rhs_seconds", parts[VBM_PART_RHS] / FRAMES);
  hcl_json_number(&j, "solve_seconds", parts[VBM_PART_SOLVE] / FRAMES);
  hcl_json_number(&j, "update_seconds", parts[VBM_PART_UPDATE] / FRAMES);
  hcl_json_number(&j, "timed_iterations_per_frame", (double)timed_iterations / FRAMES);
  hcl_json_number(&j, "bytes_per_frame", bytes);
  hcl_json_number(&j, "gbs", gbs);
  hcl_json_number(&j, "copy_gbs", b->copy_gbs);
  hcl_json_number(&j, "fraction_of_copy", gbs / b->copy_gbs);
  hcl_json_number(&j, "device_bytes_per_node", hcl_vbm_device_bytes(side, side, b->precision, false, &largest) / cells);
  if (hcl_par_rank() == 0) {
    hcl_json_print(&j, b->request->out);
  }
cleanup:
  basin_close(&basin);
  return status;
}

static HclStatus bench_precision(const BenchRequest *request, Precision precision) {
  HclStatus status = HCL_OK;
  Bench b = {.request = request, .precision = precision};
  static const int gpu_sides[] = {1024, 2048, 4096}, cpu_sides[] = {256, 512};
  bool cpu = hcl_runtime_exact_grid(hcl_runtime_device(request->rt));
  const int *sides = cpu ? cpu_sides : gpu_sides;
  int count = cpu ? 2 : 3, given = 0;
  TRY(bench_copy_rate(request->rt, precision, &b.copy_gbs));
  if (request->size) {
    TRY(bench_side(request, "vbm", &given));
    sides = &given;
    count = 1;
  }
  for (int s = 0; s < count; s++) {
    REQUIRE(sides[s] > 2 * SPONGE + 4, HCL_EUSAGE, "bench vbm --size %d: the basin needs more than %d cells a side",
            sides[s], 2 * SPONGE + 4);
    TRY(bench_size(&b, sides[s]));
  }
cleanup:
  return status;
}

HclStatus bench_vbm(const BenchRequest *request) {
  return bench_each_precision(request, "vbm", bench_precision);
}
