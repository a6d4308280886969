/* SPDX-License-Identifier: BSD-3-Clause */
/* laplace.c: `hydrocl bench laplace`, the potential-flow Laplace solver's benchmark (laplace.h;
 * ../shared/papers/fnpf-multigpu-scalability.txt section 5) on the Gaussian hump of its section 5.3 (kappa = 0.05,
 * rho = 0.15, h = 1, phi the hump times 0.3) in a closed basin of N x N x 9 points, sixth order, V(2,2) with four
 * coarsest sweeps as in the paper's Table 2:
 * - "breakdown": one defect-correction iteration split into high-order residual, low-order residual, relaxation,
 *   restriction, prolongation and other (the paper's Table 2; kernel times from event timestamps, per iteration),
 *   the iteration's wall time, bytes of device memory per degree of freedom, and the high-order residual's
 *   effective bandwidth against the copy rate of the same run, and a whole solve from Phi = 0 to rtol 1e-6 (its
 *   iterations and wall time, set-up excluded); for double, mixed and single precision (single: to 1e-3, its
 *   attainable floor);
 * - "k_sweep": the iteration's wall time for K = 1, 3, 5 and max restrictions (the paper's Table 3), mixed;
 * - "iterations": defect-correction iterations from Phi = 0 to rtol 1e-6 for aspect ratios dz/dx 0.5, 1, 2, 4 and
 *   K = 1, 3, 5, max at 257^2 x 9, mixed (GPUs only: sixteen solves);
 * - "curvilinear": the breakdown's figures at 1025 x 129 x 9 (257 x 65 x 9 on CPUs; the paper's cylinder grid, issue
 *   33) on the Cartesian grid and on mapping.h's skewed rectangle of the same extent (stretch = skew = 0.15), mixed
 *   and double, "grid" naming which: the curvilinear operator's cost per iteration and bytes per unknown against the
 *   Cartesian. The hump is the same function of the point's indices on both (its shape does not change the work).
 * Sizes 129, 257, 513, 1025, 2049 on GPUs (129 and 257 on CPUs); --size N for one. Minimal traffic of the
 * high-order residual: Phi read, the residual written, nine column coefficients, per point. */
#include "bench.h"

#include <time.h>

#include "laplace.h"
#include "log.h"
#include "wave_hump.h"

enum { NZ = 9, TIMED_ITERATIONS = 10 };
static const double SPACING = 0.125; /* dx = dz = h / (nz - 1): aspect ratio 1 */

static double wall_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Exactly `iterations` defect-correction iterations (a tolerance never met; the not-converged report is expected). */
static HclStatus iterate(WaveHumpSolver *h, int iterations) {
  LaplaceResult result;
  HclStatus status = hcl_laplace_solve(h->laplace, h->eta, h->phi, &result);
  if (status == HCL_ENOTCONVERGED && result.iterations == iterations) {
    hcl_status_clear();
    status = HCL_OK;
  }
  return status;
}

static LaplaceConfig timing_config(LaplacePrecision precision, int levels) {
  LaplaceConfig c = hcl_laplace_config_default();
  c.nz = NZ;
  c.precision = precision;
  c.mg.levels = levels;
  c.mg.pre_sweeps = c.mg.post_sweeps = 2;
  c.krylov.rtol = 0;
  c.krylov.atol = 1e-300;
  c.krylov.max_iterations = TIMED_ITERATIONS;
  return c;
}

static const char *mode_name(LaplacePrecision p) {
  return p == LAPLACE_DOUBLE ? "double" : p == LAPLACE_MIXED ? "mixed" : "single";
}

/* Wall time per iteration after a warm-up solve (kernel builds, first launches), and the launches and waits of the
 * timed iterations. */
static HclStatus time_iteration(Runtime *rt, WaveHumpSolver *h, double *seconds, RuntimeCounts *used) {
  HclStatus status = HCL_OK;
  TRY(iterate(h, TIMED_ITERATIONS));
  TRY(hcl_runtime_finish(rt));
  double start = wall_seconds();
  RuntimeCounts before = hcl_runtime_counts(rt);
  TRY(iterate(h, TIMED_ITERATIONS));
  *used = bench_counts_since(rt, before);
  TRY(hcl_runtime_finish(rt));
  *seconds = (wall_seconds() - start) / TIMED_ITERATIONS;
cleanup:
  return status;
}

/* A solve of the breakdown's problem from Phi = 0 to rtol 1e-6 (single precision: 1e-5, above float's floor of
 * about 1e-6 of b) on a fresh solver. */
static HclStatus solve_from_zero(Runtime *rt, const DecompSpec *grid, const Mapping *map, LaplacePrecision precision,
                                 LaplaceResult *result, double *seconds) {
  HclStatus status = HCL_OK;
  WaveHumpSolver h = {0};
  LaplaceConfig c = timing_config(precision, MG_LEVELS_MOST);
  c.krylov.rtol = precision == LAPLACE_SINGLE ? 1e-5 : 1e-6;
  c.krylov.atol = 0;
  c.krylov.max_iterations = 100;
  c.map = map;
  TRY(hcl_wave_hump_solver_open(rt, grid, SPACING, &c, &h));
  TRY(hcl_runtime_finish(rt));
  double start = wall_seconds();
  status = hcl_laplace_solve(h.laplace, h.eta, h.phi, result);
  if (status == HCL_ENOTCONVERGED) { /* a result: reported with its residual reduction */
    hcl_status_clear();
    status = HCL_OK;
  }
  TRY(status);
  TRY(hcl_runtime_finish(rt));
  *seconds = wall_seconds() - start;
cleanup:
  hcl_wave_hump_solver_close(&h);
  return status;
}

/* The breakdown of one iteration on grid (a curvilinear one where map is not NULL), printed as line `name`. */
static HclStatus breakdown(const BenchRequest *request, const char *name, const DecompSpec *grid, const Mapping *map,
                           LaplacePrecision precision, double copy_gbs) {
  HclStatus status = HCL_OK;
  Runtime *rt = request->rt;
  WaveHumpSolver h = {0};
  /* the paper's columns and the kernels in each (relaxation: zebra half-sweeps, and whole coarse-level sweeps) */
  static const char *const parts[][2] = {
      {"defect_v", "defect_o"}, {"residual_low"}, {"smooth", "smooth_level"}, {"restrict_residual"}, {"prolong_add"}};
  static const char *const keys[] = {"residual_high_ms", "residual_low_ms", "relaxation_ms", "restriction_ms",
                                     "prolongation_ms"};
  double part_seconds[5] = {0}, total = 0, bytes[5] = {0}, iteration = 0;
  RuntimeCounts used;
  LaplaceConfig c = timing_config(precision, MG_LEVELS_MOST);
  c.map = map;
  TRY(hcl_wave_hump_solver_open(rt, grid, SPACING, &c, &h));
  TRY(time_iteration(rt, &h, &iteration, &used));
  hcl_runtime_set_profile(rt, true);
  TRY(hcl_runtime_profile_clear(rt));
  long exchanges = hcl_par_exchanges();
  TRY(iterate(&h, TIMED_ITERATIONS));
  exchanges =
      hcl_par_exchanges() - exchanges; /* with other ranks, under mpirun: the V-cycle's (mg.c) and the operator's */
  TRY(hcl_runtime_profile_total(rt, &total, NULL));
  for (int p = 0; p < 5; p++) {
    for (int k = 0; k < 2 && parts[p][k]; k++) {
      double seconds = 0, moved = 0;
      TRY(hcl_runtime_profile_seconds(rt, parts[p][k], &seconds, &moved));
      part_seconds[p] += seconds;
      bytes[p] += moved;
    }
  }
  hcl_runtime_set_profile(rt, false);
  TRY(hcl_runtime_profile_clear(rt));
  double device_bytes = hcl_laplace_device_bytes(h.laplace);
  int levels = hcl_laplace_levels(h.laplace);
  hcl_wave_hump_solver_close(&h); /* before the solve's own solver: the largest sizes fit once */
  LaplaceResult solve;
  double solve_seconds = 0;
  TRY(solve_from_zero(rt, grid, map, precision, &solve, &solve_seconds));
  double dof = (double)grid->nx * grid->ny * NZ, other = total;
  JsonObject j;
  bench_json_begin(&j, request, "laplace", name, precision == LAPLACE_SINGLE ? PRECISION_SINGLE : PRECISION_DOUBLE);
  hcl_json_string(&j, "mode", mode_name(precision));
  hcl_json_string(&j, "grid", map ? "skewed" : "cartesian");
  hcl_json_integer(&j, "n", grid->nx);
  hcl_json_integer(&j, "ny", grid->ny);
  hcl_json_integer(&j, "nz", NZ);
  hcl_json_integer(&j, "levels", levels);
  hcl_json_number(&j, "iteration_ms", iteration * 1e3);
  bench_json_counts(&j, "iteration", used, TIMED_ITERATIONS);
  hcl_json_integer(&j, "ranks", hcl_par_size());
  hcl_json_number(&j, "exchanges_per_iteration", (double)exchanges / TIMED_ITERATIONS);
  for (int p = 0; p < 5; p++) {
    hcl_json_number(&j, keys[p], part_seconds[p] / TIMED_ITERATIONS * 1e3);
    other -= part_seconds[p];
  }
  hcl_json_number(&j, "other_ms", other / TIMED_ITERATIONS * 1e3);
  hcl_json_number(&j, "kernel_ms", total / TIMED_ITERATIONS * 1e3);
  hcl_json_number(&j, "bytes_per_dof", device_bytes / dof);
  double gbs = part_seconds[0] > 0 ? bytes[0] / part_seconds[0] * 1e-9 : 0;
  hcl_json_number(&j, "residual_high_gbs", gbs);
  hcl_json_number(&j, "copy_gbs", copy_gbs);
  hcl_json_number(&j, "fraction_of_copy", gbs / copy_gbs);
  hcl_json_integer(&j, "solve_iterations", solve.iterations);
  hcl_json_bool(&j, "solve_converged", solve.converged);
  hcl_json_number(&j, "solve_residual_reduction", solve.last / solve.first);
  hcl_json_number(&j, "solve_ms", solve_seconds * 1e3);
  hcl_json_print(&j, request->out);
cleanup:
  hcl_runtime_set_profile(rt, false);
  hcl_wave_hump_solver_close(&h);
  return status;
}

static HclStatus k_sweep(const BenchRequest *request, int n) {
  HclStatus status = HCL_OK;
  const int levels[] = {1, 3, 5, MG_LEVELS_MOST};
  for (int k = 0; k < 4; k++) {
    WaveHumpSolver h = {0};
    double iteration = 0;
    RuntimeCounts used = {0};
    LaplaceConfig c = timing_config(LAPLACE_MIXED, levels[k]);
    status = hcl_wave_hump_solver_open(request->rt, &(DecompSpec){.nx = n, .ny = n}, SPACING, &c, &h);
    if (status == HCL_OK) {
      status = time_iteration(request->rt, &h, &iteration, &used);
    }
    if (status == HCL_OK) {
      JsonObject j;
      bench_json_begin(&j, request, "laplace", "k_sweep", PRECISION_DOUBLE);
      hcl_json_string(&j, "mode", "mixed");
      hcl_json_integer(&j, "n", n);
      hcl_json_integer(&j, "k", hcl_laplace_levels(h.laplace) - 1);
      hcl_json_number(&j, "iteration_ms", iteration * 1e3);
      bench_json_counts(&j, "iteration", used, TIMED_ITERATIONS);
      hcl_json_print(&j, request->out);
    }
    hcl_wave_hump_solver_close(&h);
    TRY(status);
  }
cleanup:
  return status;
}

static HclStatus iteration_table(const BenchRequest *request) {
  HclStatus status = HCL_OK;
  const double aspects[] = {0.5, 1, 2, 4};
  const int levels[] = {1, 3, 5, MG_LEVELS_MOST};
  for (int a = 0; a < 4; a++) {
    for (int k = 0; k < 4; k++) {
      WaveHumpSolver h = {0};
      LaplaceResult result;
      LaplaceConfig c = hcl_laplace_config_default();
      c.nz = NZ;
      c.mg.levels = levels[k];
      c.krylov.atol = 0;
      c.krylov.max_iterations = 200;
      status =
          hcl_wave_hump_solver_open(request->rt, &(DecompSpec){.nx = 257, .ny = 257}, SPACING / aspects[a], &c, &h);
      if (status == HCL_OK) {
        status = hcl_laplace_solve(h.laplace, h.eta, h.phi, &result);
        if (status == HCL_ENOTCONVERGED) { /* a K too small for the aspect ratio: a result of the table */
          hcl_status_clear();
          status = HCL_OK;
        }
      }
      if (status == HCL_OK) {
        JsonObject j;
        bench_json_begin(&j, request, "laplace", "iterations", PRECISION_DOUBLE);
        hcl_json_string(&j, "mode", "mixed");
        hcl_json_integer(&j, "n", 257);
        hcl_json_number(&j, "aspect_dz_dx", aspects[a]);
        hcl_json_integer(&j, "k", hcl_laplace_levels(h.laplace) - 1);
        hcl_json_integer(&j, "iterations", result.iterations);
        hcl_json_bool(&j, "converged", result.converged);
        hcl_json_print(&j, request->out);
      }
      hcl_wave_hump_solver_close(&h);
      TRY(status);
    }
  }
cleanup:
  return status;
}

/* The breakdown on the Cartesian grid and on the skewed rectangle of the same extent. */
static HclStatus curvilinear(const BenchRequest *request, bool gpu, const LaplacePrecision *modes, int nmodes,
                             double copy_gbs) {
  HclStatus status = HCL_OK;
  DecompSpec grid = {.nx = gpu ? 1025 : 257, .ny = gpu ? 129 : 65};
  MappingRectangle rectangle = {.lx = (grid.nx - 1) * SPACING,
                                .ly = (grid.ny - 1) * SPACING,
                                .dx = SPACING,
                                .dy = SPACING,
                                .stretch = 0.15,
                                .skew = 0.15};
  Mapping map = {hcl_mapping_rectangle_point, &rectangle, "bench laplace's skewed rectangle"};
  for (int m = 0; m < nmodes; m++) {
    TRY(breakdown(request, "curvilinear", &grid, NULL, modes[m], copy_gbs));
    TRY(breakdown(request, "curvilinear", &grid, &map, modes[m], copy_gbs));
  }
cleanup:
  return status;
}

HclStatus bench_laplace(const BenchRequest *request) {
  HclStatus status = HCL_OK;
  const DeviceInfo *dev = hcl_runtime_device(request->rt);
  bool gpu = dev->type != DEVICE_TYPE_CPU;
  const int gpu_sizes[] = {129, 257, 513, 1025, 2049}, cpu_sizes[] = {129, 257};
  int side = 0, nsizes = gpu ? 5 : 2;
  const int *sizes = gpu ? gpu_sizes : cpu_sizes;
  if (request->size) {
    TRY(bench_side(request, "laplace", &side));
    sizes = &side;
    nsizes = 1;
  }
  LaplacePrecision modes[3] = {LAPLACE_MIXED, LAPLACE_DOUBLE, LAPLACE_SINGLE};
  int nmodes = dev->fp64 ? 3 : 1;
  if (request->precision_given) {
    modes[0] = request->precision == PRECISION_DOUBLE ? LAPLACE_DOUBLE : LAPLACE_SINGLE;
    nmodes = 1;
  }
  if (!dev->fp64) {
    modes[0] = LAPLACE_SINGLE;
    hcl_log_info("bench laplace: device without fp64: single precision only");
  }
  double copy_gbs = 0;
  TRY(bench_copy_rate(request->rt, PRECISION_DOUBLE, &copy_gbs));
  for (int s = 0; s < nsizes; s++) {
    for (int m = 0; m < nmodes; m++) {
      TRY(breakdown(request, "breakdown", &(DecompSpec){.nx = sizes[s], .ny = sizes[s]}, NULL, modes[m], copy_gbs));
    }
  }
  if (!request->size) {
    TRY(curvilinear(request, gpu, modes, nmodes < 2 ? nmodes : 2, copy_gbs));
  }
  if (!request->size && dev->fp64) {
    TRY(k_sweep(request, 257));
    if (gpu) {
      TRY(k_sweep(request, 1025));
      TRY(iteration_table(request));
    }
  }
cleanup:
  return status;
}
