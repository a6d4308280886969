/* SPDX-License-Identifier: BSD-3-Clause */
/* scaling.c: `hydrocl bench scaling`, the weak and strong scaling of the suite's parallel workloads over the
 * run's ranks, one rank per GPU (../shared/papers/fnpf-multigpu-scalability.txt section 6, Figures 6 and 7).
 * bench/multi-gpu.sh runs it on 1, 2, 4 and 8 ranks and turns the lines into parallel efficiencies.
 *
 * The workloads ("part"):
 * - dc_iteration: one defect-correction iteration of the Laplace solver (laplace.h) on the Gaussian hump
 *   (wave_hump.h), nz = 9, dx = dz, sixth order, K = 3 restrictions (the paper's section 6), V(2,2), mixed precision
 *   unless --precision says single or double;
 * - hcl_wave_step: one ERK4 step of the wave model on the evolving hump (hcl_wave_hump_table4_config, K = 3, aspect 1),
 *   four Laplace solves to rtol 1e-4, precision as dc_iteration; "iterations" is its defect-correction iterations;
 * - hcl_swe_step: one explicit step of test case 1 (bench swe; Hansen's ordering), float unless --precision;
 * - swe_implicit_step, swe_implicit_mg_step: one semi-implicit step of it at 100 times the explicit step, the level
 *   system solved by CG with RRB (the model's default) and with the 5-point multigrid;
 * - rrb_solve, mg_solve, rrb_pipecg, mg_pipecg: CG and pipelined CG (krylov.h) with the RRB preconditioner
 *   (rrb_precond.h) and with the 5-point multigrid (mg5.h) on the model problem (poisson.h) from x = 0 to
 *   ||r||_2 <= 1e-5 ||b||_2; CG in float unless --precision, pipelined CG (which needs double vectors) mixed, the
 *   preconditioner in float under double, unless --precision double; "iterations" is the solver's.
 * "weak": every rank a block of the size per rank, the process grid chosen so that the global grid doubles in x,
 * then in y, as the paper's runs do (1 x 1, 2 x 1, 2 x 2, 4 x 2, ...); a vertex grid of n points per rank is
 * px (n - 1) + 1 points wide. "strong": one global grid on any number of ranks (the 2049^2 x 9 basin, 3.78e7
 * unknowns as the paper's Figure 6b, and 16384^2 shallow-water cells).
 *
 * Each unit is timed by every rank's wall clock between two hcl_runtime_finish calls after a barrier; "seconds" is the
 * slowest rank's, the best of REPEATS units after one untimed (kernel builds, first touch), "seconds_median" their
 * median. "bytes" is the traffic the kernels declare (runtime profile) in one unit summed over the ranks; "gbs" and
 * "fraction_of_copy" set it against the time and against the sum of the ranks' copy rates of the same run. */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#include "krylov.h"
#include "laplace.h"
#include "log.h"
#include "mg5.h"
#include "par.h"
#include "poisson.h"
#include "progress.h"
#include "rrb_precond.h"
#include "stencil5.h"
#include "swe.h"
#include "wave_hump.h"

enum { REPEATS = 5, DC_ITERATIONS = 10, SWE_STEPS = 20, NZ = 9 };

/* One workload on its grid: unit() runs one timed unit after reset() (untimed, may be NULL) has prepared it. */
typedef struct Workload {
  const char *part;
  DecompSpec grid; /* global points (cells for hcl_swe_step, interior points for rrb_solve), process grid */
  int nz;          /* vertical points, 1 for the 2D parts */
  int per_unit;    /* iterations or steps per timed unit: seconds are per one of them */
  bool iterates;   /* a solve or a step of solves: its iterations are reported */
  Precision precision;
  const char *mode; /* the Laplace parts' precision (mixed, double or single), "mixed" for a pipelined solve so */
  HclStatus (*reset)(struct Workload *w);
  HclStatus (*unit)(struct Workload *w, int *iterations);
  WaveHumpSolver solver;
  WaveHumpModel model;
  Decomp *decomp;
  Swe *swe;
  Operator *op;
  Krylov *ks;
  Field *rhs, *x;
  Vec *b_vec, *x_vec;
  double dt;
  double reductions; /* per iteration (a step where none): allgathers, the reductions between ranks */
  double exchanges;  /* per iteration (a step): halo exchanges with other ranks and gathers of a level */
} Workload;

static void workload_close(Workload *w) {
  hcl_wave_hump_solver_close(&w->solver);
  hcl_wave_hump_model_close(&w->model);
  hcl_swe_destroy(&w->swe);
  hcl_vec_destroy(&w->b_vec);
  hcl_vec_destroy(&w->x_vec);
  hcl_field_destroy(&w->rhs);
  hcl_field_destroy(&w->x);
  hcl_krylov_destroy(&w->ks);
  hcl_operator_destroy(&w->op);
  hcl_decomp_destroy(&w->decomp);
}

/* Mixed unless --precision asks otherwise; w's precision (of its outer vectors) and mode follow. */
static LaplacePrecision laplace_precision(const BenchRequest *request, Workload *w) {
  LaplacePrecision p = !request->precision_given                ? LAPLACE_MIXED
                       : request->precision == PRECISION_DOUBLE ? LAPLACE_DOUBLE
                                                                : LAPLACE_SINGLE;
  w->precision = p == LAPLACE_SINGLE ? PRECISION_SINGLE : PRECISION_DOUBLE;
  w->mode = p == LAPLACE_DOUBLE ? "double" : p == LAPLACE_MIXED ? "mixed" : "single";
  return p;
}

static Precision vector_precision(const BenchRequest *request) {
  return request->precision_given ? request->precision : PRECISION_SINGLE;
}

/* dc_iteration: DC_ITERATIONS iterations, a tolerance never met (the not-converged report is the expected end). */
static HclStatus dc_unit(Workload *w, int *iterations) {
  LaplaceResult result;
  HclStatus status = hcl_laplace_solve(w->solver.laplace, w->solver.eta, w->solver.phi, &result);
  if (status == HCL_ENOTCONVERGED && result.iterations == DC_ITERATIONS) {
    hcl_status_clear();
    status = HCL_OK;
  }
  *iterations = result.iterations;
  return status;
}

static HclStatus dc_open(Runtime *rt, const BenchRequest *request, Workload *w) {
  LaplaceConfig c = hcl_laplace_config_default();
  c.nz = NZ;
  c.precision = laplace_precision(request, w);
  c.mg.levels = 3;
  c.mg.pre_sweeps = c.mg.post_sweeps = 2;
  c.krylov.rtol = 0;
  c.krylov.atol = 1e-300;
  c.krylov.max_iterations = DC_ITERATIONS;
  w->per_unit = DC_ITERATIONS;
  w->unit = dc_unit;
  return hcl_wave_hump_solver_open(rt, &w->grid, WAVE_HUMP_DEPTH / (NZ - 1), &c, &w->solver);
}

static HclStatus wave_unit(Workload *w, int *iterations) {
  WaveStepStats stats;
  HclStatus status = hcl_wave_step(w->model.wave, w->dt, false, &stats);
  *iterations = stats.iterations;
  return status;
}

static HclStatus wave_open(Runtime *rt, const BenchRequest *request, Workload *w) {
  WaveConfig c = hcl_wave_hump_table4_config(w->grid.nx, 1, 3, WAVE_HUMP_TWO_NORM);
  c.laplace.precision = laplace_precision(request, w);
  c.laplace.krylov.atol = hcl_laplace_rms_atol(1e-5, w->grid.nx, w->grid.ny, c.laplace.nz);
  w->dt = hcl_wave_hump_time_step(&c);
  w->per_unit = 1;
  w->iterates = true;
  w->unit = wave_unit;
  return hcl_wave_hump_model_open(rt, &w->grid, &c, &w->model);
}

static HclStatus swe_unit(Workload *w, int *iterations) {
  HclStatus status = HCL_OK;
  for (int step = 0; step < SWE_STEPS; step++) {
    TRY(hcl_swe_step(w->swe, w->dt));
  }
  *iterations = 0;
cleanup:
  return status;
}

static HclStatus swe_open(Runtime *rt, const BenchRequest *request, int cells_per_rank_side, Workload *w) {
  HclStatus status = HCL_OK;
  double dx = 200.0 / cells_per_rank_side; /* test case 1's 200 m basin per rank */
  w->precision = vector_precision(request);
  SweConfig config = bench_swe_case1_config(dx, w->precision, SWE_ORDERING_HANSEN);
  w->dt = 0.05 * dx; /* bench swe's: a CFL number of about 0.16 */
  w->per_unit = SWE_STEPS;
  w->unit = swe_unit;
  TRY(hcl_decomp_create(&w->grid, &w->decomp));
  TRY(hcl_swe_create(rt, w->decomp, &config, &w->swe));
  TRY(bench_swe_case1(w->swe, w->decomp, dx));
cleanup:
  return status;
}

/* swe_implicit_step: one semi-implicit step of test case 1 at 100 times the explicit step (bench swe-implicit's
 * Table 10.1 ratio: theta 0.55, RRB-CG to the model's tolerance; swe_implicit_mg_step: multigrid-CG); its iterations
 * are the level solve's. */
enum { IMPLICIT_RATIO = 100 };
static const double IMPLICIT_THETA = 0.55;

static HclStatus swe_implicit_unit(Workload *w, int *iterations) {
  HclStatus status = hcl_swe_step(w->swe, w->dt);
  *iterations = hcl_swe_solve_stats(w->swe).iterations;
  return status;
}

static HclStatus swe_implicit_open(Runtime *rt, const BenchRequest *request, int cells_per_rank_side, bool mg,
                                   Workload *w) {
  HclStatus status = HCL_OK;
  Precond *pc = NULL;
  double dx = 200.0 / cells_per_rank_side;
  w->precision = vector_precision(request);
  SweConfig config = bench_swe_case1_config(dx, w->precision, SWE_ORDERING_HANSEN);
  config.scheme = SWE_SCHEME_IMPLICIT;
  config.theta = IMPLICIT_THETA;
  config.krylov = hcl_swe_krylov_defaults();
  w->dt = IMPLICIT_RATIO * 0.05 * dx;
  w->per_unit = 1;
  w->iterates = true;
  w->unit = swe_implicit_unit;
  TRY(hcl_decomp_create(&w->grid, &w->decomp));
  TRY(hcl_swe_create(rt, w->decomp, &config, &w->swe));
  if (mg) {
    TRY(hcl_mg5_precond_create(&(Mg5Options){0}, &pc));
    Precond *given = pc; /* hcl_swe_set_preconditioner takes it, also when it fails */
    pc = NULL;
    TRY(hcl_swe_set_preconditioner(w->swe, given));
  }
  TRY(bench_swe_case1(w->swe, w->decomp, dx));
cleanup:
  hcl_precond_destroy(&pc);
  return status;
}

/* The model problem's matrix and right-hand side in this rank's block. */
static HclStatus poisson_assemble(Workload *w) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = hcl_decomp_local(w->decomp);
  PoissonDomain domain = hcl_poisson_domain(w->grid.nx, w->grid.ny);
  size_t count = (size_t)l->nx * l->ny;
  Field *matrix[3];
  double *values = NULL;
  TRY_ALLOC(values, 4 * count);
  hcl_poisson_block(&domain, l->x0, l->y0, l->nx, l->ny, values, values + count, values + 2 * count,
                    values + 3 * count);
  TRY(hcl_stencil5_fields(w->op, matrix));
  for (int f = 0; f < 3; f++) {
    TRY(hcl_field_write_owned(matrix[f], values + f * count));
  }
  TRY(hcl_field_write_owned(w->rhs, values + 3 * count));
cleanup:
  free(values);
  return status;
}

static HclStatus poisson_reset(Workload *w) {
  return hcl_vec_set(w->x_vec, 0);
}

static HclStatus poisson_unit(Workload *w, int *iterations) {
  KrylovResult result;
  HclStatus status = hcl_krylov_solve(w->ks, w->b_vec, w->x_vec, &result);
  *iterations = result.iterations;
  return status;
}

/* The model problem solved by method with RRB (mg false) or the multigrid; pipelined CG in double vectors, the
 * preconditioner in float unless --precision double. */
static HclStatus poisson_open(Runtime *rt, const BenchRequest *request, KrylovMethod method, bool mg, Workload *w) {
  HclStatus status = HCL_OK;
  Precond *pc = NULL;
  KrylovOptions options = hcl_krylov_options_default();
  options.method = method;
  options.norm = KRYLOV_NORM_2;
  options.rtol = 1e-5;
  options.max_iterations = 10000;
  options.prefix = "bench scaling ";
  w->precision = method == KRYLOV_PIPECG ? PRECISION_DOUBLE : vector_precision(request);
  bool mixed = method == KRYLOV_PIPECG && vector_precision(request) != PRECISION_DOUBLE;
  w->mode = mixed ? "mixed" : NULL;
  w->per_unit = 1;
  w->iterates = true;
  w->reset = poisson_reset;
  w->unit = poisson_unit;
  TRY(hcl_decomp_create(&w->grid, &w->decomp));
  TRY(hcl_stencil5_create(rt, w->decomp, w->precision, &w->op));
  Mg5Options mg_options = {.own_precision = mixed, .precision = PRECISION_SINGLE};
  TRY(mg      ? hcl_mg5_precond_create(&mg_options, &pc)
      : mixed ? hcl_rrb_precond_create_mixed(RRB_DEPTH_DEFAULT, &pc)
              : hcl_rrb_precond_create(RRB_DEPTH_DEFAULT, &pc));
  TRY(hcl_krylov_create(&options, &w->ks));
  hcl_krylov_set_precond(w->ks, pc);
  pc = NULL;
  hcl_krylov_set_operator(w->ks, w->op);
  FieldSpec fs = {.name = "rhs", .nz = 1, .ghost = 1, .precision = w->precision};
  TRY(hcl_field_create(rt, w->decomp, &fs, &w->rhs));
  fs.name = "solution";
  TRY(hcl_field_create(rt, w->decomp, &fs, &w->x));
  TRY(hcl_vec_wrap_field(hcl_operator_space(w->op), w->rhs, &w->b_vec));
  TRY(hcl_vec_wrap_field(hcl_operator_space(w->op), w->x, &w->x_vec));
  TRY(poisson_assemble(w));
  TRY(hcl_krylov_setup(w->ks));
cleanup:
  hcl_precond_destroy(&pc);
  return status;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* One unit on every rank from a common start; the slowest rank's seconds. */
static HclStatus time_unit(Runtime *rt, Workload *w, int *iterations, double *seconds) {
  HclStatus status = HCL_OK;
  if (w->reset) {
    TRY(w->reset(w));
  }
  TRY(hcl_runtime_finish(rt));
  TRY(hcl_par_barrier());
  long gathers = hcl_par_gathers(), exchanges = hcl_par_exchanges();
  double start = hcl_progress_now();
  TRY(w->unit(w, iterations));
  TRY(hcl_runtime_finish(rt));
  *seconds = hcl_progress_now() - start;
  double per = *iterations > 0 ? *iterations : w->per_unit;
  w->reductions = (double)(hcl_par_gathers() - gathers) / per;
  w->exchanges = (double)(hcl_par_exchanges() - exchanges) / per;
  TRY(hcl_par_max_double(seconds));
cleanup:
  return status;
}

/* The unit's declared kernel traffic, summed over the ranks. */
static HclStatus unit_bytes(Runtime *rt, Workload *w, double *bytes) {
  HclStatus status = HCL_OK;
  int iterations = 0;
  double seconds = 0;
  hcl_runtime_set_profile(rt, true);
  TRY(hcl_runtime_profile_clear(rt));
  TRY(time_unit(rt, w, &iterations, &seconds));
  TRY(hcl_runtime_profile_total(rt, &seconds, bytes));
  TRY(hcl_par_sum_double(bytes));
cleanup:
  hcl_runtime_set_profile(rt, false);
  if (status == HCL_OK) {
    status = hcl_runtime_profile_clear(rt);
  }
  return status;
}

static const Decomp *workload_decomp(const Workload *w) {
  return w->decomp ? w->decomp : w->solver.decomp ? w->solver.decomp : w->model.decomp;
}

/* One line: the slowest rank's seconds per iteration or step (best and median of REPEATS units, sorted). */
static void report(const BenchRequest *request, const char *name, const Workload *w, const double seconds[REPEATS],
                   int iterations, double bytes, double copy_gbs) {
  const DecompSpec *g = hcl_decomp_spec(workload_decomp(w));
  int largest_x = (g->nx + g->px - 1) / g->px, largest_y = (g->ny + g->py - 1) / g->py;
  double best = seconds[0] / w->per_unit, per_unit_bytes = bytes / w->per_unit;
  JsonObject j;
  bench_json_begin(&j, request, "scaling", name, w->precision);
  hcl_json_string(&j, "part", w->part);
  if (w->mode) {
    hcl_json_string(&j, "mode", w->mode);
  }
  hcl_json_integer(&j, "ranks", hcl_par_size());
  hcl_json_integer(&j, "px", g->px);
  hcl_json_integer(&j, "py", g->py);
  hcl_json_integer(&j, "nx", g->nx);
  hcl_json_integer(&j, "ny", g->ny);
  hcl_json_integer(&j, "nz", w->nz);
  hcl_json_number(&j, "unknowns", (double)g->nx * g->ny * w->nz);
  hcl_json_number(&j, "unknowns_per_rank", (double)largest_x * largest_y * w->nz);
  if (w->iterates) {
    hcl_json_integer(&j, "iterations", iterations);
  }
  bool per_iteration = iterations > 0; /* else per step */
  hcl_json_number(&j, per_iteration ? "reductions_per_iteration" : "reductions_per_step", w->reductions);
  hcl_json_number(&j, per_iteration ? "exchanges_per_iteration" : "exchanges_per_step", w->exchanges);
  hcl_json_number(&j, "seconds", best);
  hcl_json_number(&j, "seconds_median", seconds[REPEATS / 2] / w->per_unit);
  hcl_json_number(&j, "bytes", per_unit_bytes);
  hcl_json_number(&j, "gbs", per_unit_bytes / best * 1e-9);
  hcl_json_number(&j, "fraction_of_copy", per_unit_bytes / best * 1e-9 / copy_gbs);
  hcl_json_number(&j, "copy_gbs", copy_gbs);
  hcl_json_print(&j, request->out);
}

/* The process grid of weak scaling on size ranks: py the largest divisor with py^2 <= size, px = size / py, so
 * that the grid doubles in x, then in y. */
static void weak_process_grid(int size, int *px, int *py) {
  *py = 1;
  for (int d = 1; d * d <= size; d++) {
    if (size % d == 0) {
      *py = d;
    }
  }
  *px = size / *py;
}

typedef enum {
  PART_DC,
  PART_WAVE,
  PART_SWE,
  PART_SWE_IMPLICIT,
  PART_SWE_IMPLICIT_MG,
  PART_RRB,
  PART_MG,
  PART_RRB_PIPECG,
  PART_MG_PIPECG
} Part;
static const char *const part_names[] = {
    "dc_iteration", "wave_step", "swe_step",   "swe_implicit_step", "swe_implicit_mg_step",
    "rrb_solve",    "mg_solve",  "rrb_pipecg", "mg_pipecg"};

/* One measurement: part on the global grid, opened, warmed up, timed REPEATS times, reported, closed. */
static HclStatus measure(const BenchRequest *request, const char *name, Part part, DecompSpec grid,
                         int swe_cells_per_rank_side, const double copy_gbs[2]) {
  HclStatus status = HCL_OK;
  Runtime *rt = request->rt;
  Workload w = {.part = part_names[part], .grid = grid, .nz = part == PART_DC || part == PART_WAVE ? NZ : 1};
  double seconds[REPEATS], bytes = 0;
  int iterations = 0;
  switch (part) {
  case PART_DC:
    TRY(dc_open(rt, request, &w));
    break;
  case PART_WAVE:
    TRY(wave_open(rt, request, &w));
    break;
  case PART_SWE:
    TRY(swe_open(rt, request, swe_cells_per_rank_side, &w));
    break;
  case PART_SWE_IMPLICIT:
  case PART_SWE_IMPLICIT_MG:
    TRY(swe_implicit_open(rt, request, swe_cells_per_rank_side, part == PART_SWE_IMPLICIT_MG, &w));
    break;
  case PART_RRB:
  case PART_RRB_PIPECG:
  case PART_MG:
  case PART_MG_PIPECG:
    TRY(poisson_open(rt, request, part == PART_RRB || part == PART_MG ? KRYLOV_CG : KRYLOV_PIPECG,
                     part == PART_MG || part == PART_MG_PIPECG, &w));
    break;
  }
  TRY(time_unit(rt, &w, &iterations, &seconds[0])); /* warm-up */
  for (int r = 0; r < REPEATS; r++) {
    TRY(time_unit(rt, &w, &iterations, &seconds[r]));
  }
  qsort(seconds, REPEATS, sizeof seconds[0], compare_doubles);
  TRY(unit_bytes(rt, &w, &bytes));
  if (hcl_par_rank() == 0) {
    report(request, name, &w, seconds, iterations, bytes, copy_gbs[w.precision == PRECISION_DOUBLE]);
  }
cleanup:
  workload_close(&w);
  return status;
}

/* The latency of a reduction of one value between the ranks (hcl_par_sum_double: an allgather, as every reduction of
 * reduce.h), host to host: the median of ALLREDUCE_REPEATS, after a barrier each. The performance model
 * (bench/perf-model) takes a reduction's cost from it. */
enum { ALLREDUCE_REPEATS = 101 };
static HclStatus measure_allreduce(const BenchRequest *request) {
  HclStatus status = HCL_OK;
  double seconds[ALLREDUCE_REPEATS];
  for (int r = 0; r < ALLREDUCE_REPEATS; r++) {
    double value = 1;
    TRY(hcl_par_barrier());
    double start = hcl_progress_now();
    TRY(hcl_par_sum_double(&value));
    seconds[r] = hcl_progress_now() - start;
    TRY(hcl_par_max_double(&seconds[r]));
  }
  qsort(seconds, ALLREDUCE_REPEATS, sizeof seconds[0], compare_doubles);
  if (hcl_par_rank() == 0) {
    JsonObject j;
    bench_json_begin(&j, request, "scaling", "collective", PRECISION_DOUBLE);
    hcl_json_string(&j, "part", "allreduce");
    hcl_json_integer(&j, "ranks", hcl_par_size());
    hcl_json_number(&j, "seconds", seconds[ALLREDUCE_REPEATS / 2]);
    hcl_json_print(&j, request->out);
  }
cleanup:
  return status;
}

/* The sizes: per rank for weak scaling, global for strong. */
typedef struct {
  int dc[2], ndc; /* points per side of the nz = 9 basin (dc_iteration and hcl_wave_step), 2^k + 1 */
  int swe;        /* cells per side */
  int rrb;        /* interior points per side */
  int strong_dc;  /* global points per side */
  int strong_swe; /* global cells per side */
} Sizes;

static HclStatus choose_sizes(const BenchRequest *request, Sizes *s) {
  HclStatus status = HCL_OK;
  if (request->size) {
    int side = 0;
    TRY(bench_side(request, "scaling", &side));
    *s = (Sizes){.dc = {side}, .ndc = 1, .swe = side, .rrb = side, .strong_dc = side, .strong_swe = side};
  } else if (hcl_runtime_device(request->rt)->type != DEVICE_TYPE_CPU) {
    *s = (Sizes){.dc = {1025, 2049}, .ndc = 2, .swe = 8192, .rrb = 4096, .strong_dc = 2049, .strong_swe = 16384};
  } else {
    *s = (Sizes){.dc = {129}, .ndc = 1, .swe = 1024, .rrb = 512, .strong_dc = 257, .strong_swe = 2048};
  }
cleanup:
  return status;
}

HclStatus bench_scaling(const BenchRequest *request) {
  HclStatus status = HCL_OK;
  Runtime *rt = request->rt;
  Sizes s;
  int px, py;
  double copy_gbs[2] = {0}; /* float, double: the sums over the ranks */
  TRY(choose_sizes(request, &s));
  TRY(bench_copy_rate(rt, PRECISION_SINGLE, &copy_gbs[0]));
  if (hcl_runtime_device(rt)->fp64) {
    TRY(bench_copy_rate(rt, PRECISION_DOUBLE, &copy_gbs[1]));
  }
  TRY(hcl_par_sum_doubles(copy_gbs, 2));
  TRY(measure_allreduce(request));
  weak_process_grid(hcl_par_size(), &px, &py);
  for (int k = 0; k < s.ndc; k++) {
    DecompSpec grid = {.nx = px * (s.dc[k] - 1) + 1, .ny = py * (s.dc[k] - 1) + 1, .px = px, .py = py};
    TRY(measure(request, "weak", PART_DC, grid, 0, copy_gbs));
    TRY(measure(request, "weak", PART_WAVE, grid, 0, copy_gbs));
  }
  TRY(measure(request, "weak", PART_SWE, (DecompSpec){.nx = px * s.swe, .ny = py * s.swe, .px = px, .py = py}, s.swe,
              copy_gbs));
  for (Part part = PART_SWE_IMPLICIT; part <= PART_SWE_IMPLICIT_MG; part++) {
    TRY(measure(request, "weak", part, (DecompSpec){.nx = px * s.rrb, .ny = py * s.rrb, .px = px, .py = py}, s.rrb,
                copy_gbs));
  }
  for (Part part = PART_RRB; part <= PART_MG_PIPECG; part++) {
    TRY(measure(request, "weak", part, (DecompSpec){.nx = px * s.rrb, .ny = py * s.rrb, .px = px, .py = py}, 0,
                copy_gbs));
  }
  TRY(measure(request, "strong", PART_DC, (DecompSpec){.nx = s.strong_dc, .ny = s.strong_dc}, 0, copy_gbs));
  TRY(measure(request, "strong", PART_SWE, (DecompSpec){.nx = s.strong_swe, .ny = s.strong_swe}, s.strong_swe,
              copy_gbs));
cleanup:
  return status;
}
