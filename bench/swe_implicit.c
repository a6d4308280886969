/* SPDX-License-Identifier: BSD-3-Clause */
/* swe_implicit.c: `hydrocl bench swe-implicit`, the thesis' chapter 10 (../shared/papers/swe-gpu-explicit-implicit.txt,
 * section 10.1) for our semi-implicit scheme (swe.h: theta 0.55, CG with the RRB preconditioner to a relative M-norm
 * of 1e-5, the model's defaults) on test case 1 (bench/swe.c: a 200 m closed basin 1 m deep, a Gaussian drop, a
 * Gaussian island 3 cm above the water). The explicit reference is the Hansen ordering at the thesis' dt = 0.05 dx;
 * a step ratio R runs the implicit scheme at dt = R 0.05 dx. Per precision, one JSON line per result:
 * - step_time (Table 10.1): the mean wall time of one implicit step at R = 100 and its CG iterations, against 100
 *   explicit steps, per grid side;
 * - iterations (Table 10.2): CG iterations and level solves per step for R = 1, 10, 50, 100;
 * - setup (Table 10.3): the RRB factorization of a level system of R = 100 through the solver layer, per grid side;
 * - parity (Table 10.6): 5 implicit steps against 5 R explicit steps for R = 10 to 100, and parity_ratio, the R where
 *   the implicit time first comes down to the explicit time.
 * Every timed region has hcl_runtime_finish before and after it and follows 5 warm-up steps from the initial state.
 *
 * Effective bandwidth of an implicit step, the least DRAM traffic counted in REALs per cell: face_predict 14 once,
 * level_assemble 15 and level_update 15 per level solve, and per CG iteration what bench/rrb.c counts per red node
 * (half the cells): the Schur product 7, the dot <p, q> 2, x += alpha p with r -= alpha q 6, the preconditioner 9,
 * the fused <r, z> and <r, r> 2, p = z + beta p 3: 29 per red node, 14.5 per cell. Not counted: the factorization,
 * the solve's start and end (the residual, the Schur right-hand side, the moves into and out of the RRB layout, the
 * black nodes), halo exchanges and the depth check's reduction, so the rate is a lower bound. */
#include "bench.h"

#include <math.h>
#include <stdlib.h>

#include "field.h"
#include "krylov.h"
#include "log.h"
#include "par.h"
#include "precond.h"
#include "progress.h"
#include "rrb_precond.h"
#include "stencil5.h"
#include "swe.h"

static const double BASIN = 200.0, GRAVITY = 9.81, THETA = 0.55;
/* The explicit step, 0.05 dx (bench/swe.c), and the ratio of Tables 10.1 and 10.3. */
static const double EXPLICIT_STEP_PER_DX = 0.05, TABLE_RATIO = 100;
enum { WARMUPS = 5, STEP_TIME_STEPS = 10, EXPLICIT_EQUIVALENT = 100, ITERATION_STEPS = 10, PARITY_STEPS = 5 };
enum { SETUP_WARMUPS = 2, SETUP_REPEATS = 10 };
/* REALs per cell (see above): explicit Hansen step, face_predict, a level solve's assembly and update, a CG
 * iteration. */
static const double EXPLICIT_REALS = 15, PREDICT_REALS = 14, SOLVE_REALS = 15 + 15, ITERATION_REALS = 29.0 / 2;

static const double ITERATION_RATIOS[] = {1, 10, 50, 100};
static const double PARITY_RATIOS[] = {10, 20, 40, 50, 60, 80, 100};
enum { ITERATION_RATIO_COUNT = 4, PARITY_RATIO_COUNT = 7 };

/* The run of one precision: what every line carries. */
typedef struct {
  const BenchRequest *request;
  Precision precision;
  double copy_gbs;
} Bench;

/* ---- the models ---- */

/* Test case 1 on a side x side grid in one scheme, at its initial state. */
typedef struct {
  Decomp *decomp;
  Swe *swe;
  double dx;
} Model;

static HclStatus model_open(const Bench *b, int side, SweScheme scheme, Model *m) {
  HclStatus status = HCL_OK;
  DecompSpec grid = {.nx = side, .ny = side};
  m->dx = BASIN / side;
  SweConfig config = bench_swe_case1_config(m->dx, b->precision, SWE_ORDERING_HANSEN);
  config.scheme = scheme;
  config.theta = THETA;
  config.krylov = hcl_swe_krylov_defaults();
  TRY(hcl_decomp_create(&grid, &m->decomp));
  TRY(hcl_swe_create(b->request->rt, m->decomp, &config, &m->swe));
  TRY(bench_swe_case1(m->swe, m->decomp, m->dx));
cleanup:
  return status;
}

static void model_close(Model *m) {
  hcl_swe_destroy(&m->swe);
  hcl_decomp_destroy(&m->decomp);
}

/* What a run of steps took: mean wall seconds, level solves and CG iterations per step. */
typedef struct {
  double seconds, solves, iterations;
  RuntimeCounts used; /* the timed steps' launches and waits */
} StepTiming;

/* WARMUPS steps of dt from where the model is, then `steps` timed ones. */
static HclStatus time_steps(const Bench *b, Model *m, double dt, int steps, StepTiming *t) {
  HclStatus status = HCL_OK;
  Runtime *rt = b->request->rt;
  long solves = 0, iterations = 0;
  for (int step = 0; step < WARMUPS; step++) {
    TRY(hcl_swe_step(m->swe, dt));
  }
  TRY(hcl_runtime_finish(rt));
  double start = hcl_progress_now();
  RuntimeCounts before = hcl_runtime_counts(rt);
  for (int step = 0; step < steps; step++) {
    TRY(hcl_swe_step(m->swe, dt));
    SweSolveStats stats = hcl_swe_solve_stats(m->swe);
    solves += stats.solves;
    iterations += stats.iterations;
  }
  t->used = bench_counts_since(rt, before);
  TRY(hcl_runtime_finish(rt));
  t->seconds = (hcl_progress_now() - start) / steps;
  t->solves = (double)solves / steps;
  t->iterations = (double)iterations / steps;
cleanup:
  return status;
}

/* A fresh model of side in scheme, `steps` timed steps of dt after the warm-up. */
static HclStatus run_fresh(const Bench *b, int side, SweScheme scheme, double ratio, int steps, StepTiming *t) {
  HclStatus status = HCL_OK;
  Model m = {0};
  TRY(model_open(b, side, scheme, &m));
  TRY(time_steps(b, &m, ratio * EXPLICIT_STEP_PER_DX * m.dx, steps, t));
cleanup:
  model_close(&m);
  return status;
}

/* Bytes an implicit step moves at least (see the file's head). */
static double implicit_bytes(const Bench *b, int side, const StepTiming *t) {
  double reals = PREDICT_REALS + SOLVE_REALS * t->solves + ITERATION_REALS * t->iterations;
  return (double)side * side * reals * (double)hcl_precision_bytes(b->precision);
}

/* ---- the lines ---- */

static void begin_line(JsonObject *j, const Bench *b, const char *name, int side) {
  bench_json_begin(j, b->request, "swe-implicit", name, b->precision);
  hcl_json_integer(j, "size", side);
  hcl_json_integer(j, "ranks", hcl_par_size());
}

static void end_line(JsonObject *j, const Bench *b) {
  hcl_json_number(j, "copy_gbs", b->copy_gbs);
  if (hcl_par_rank() == 0) {
    hcl_json_print(j, b->request->out);
  }
}

/* Table 10.1: an implicit step at ratio 100 against 100 explicit steps. */
static HclStatus step_time(const Bench *b, int side) {
  HclStatus status = HCL_OK;
  StepTiming implicit, explicit;
  TRY(run_fresh(b, side, SWE_SCHEME_IMPLICIT, TABLE_RATIO, STEP_TIME_STEPS, &implicit));
  TRY(run_fresh(b, side, SWE_SCHEME_EXPLICIT, 1, EXPLICIT_EQUIVALENT, &explicit));
  double bytes = implicit_bytes(b, side, &implicit), gbs = bytes / implicit.seconds * 1e-9;
  double explicit_gbs =
      (double)side * side * EXPLICIT_REALS * (double)hcl_precision_bytes(b->precision) / explicit.seconds * 1e-9;
  double explicit_seconds = EXPLICIT_EQUIVALENT * explicit.seconds;
  JsonObject j;
  begin_line(&j, b, "step_time", side);
  hcl_json_number(&j, "ratio", TABLE_RATIO);
  hcl_json_integer(&j, "steps", STEP_TIME_STEPS);
  hcl_json_number(&j, "seconds", implicit.seconds);
  hcl_json_number(&j, "iterations_per_step", implicit.iterations);
  hcl_json_number(&j, "solves_per_step", implicit.solves);
  bench_json_counts(&j, "step", implicit.used, STEP_TIME_STEPS);
  hcl_json_number(&j, "bytes", bytes);
  hcl_json_number(&j, "gbs", gbs);
  hcl_json_number(&j, "fraction_of_copy", gbs / b->copy_gbs);
  hcl_json_integer(&j, "explicit_steps", EXPLICIT_EQUIVALENT);
  hcl_json_number(&j, "explicit_seconds", explicit_seconds);
  hcl_json_number(&j, "explicit_gbs", explicit_gbs);
  hcl_json_number(&j, "explicit_fraction_of_copy", explicit_gbs / b->copy_gbs);
  hcl_json_number(&j, "implicit_over_explicit", implicit.seconds / explicit_seconds);
  double largest; /* the device memory of each scheme per cell (hcl_swe_device_bytes: what `validate` reports) */
  double cells = (double)side * side;
  hcl_json_number(&j, "device_bytes_per_cell",
                  hcl_swe_device_bytes(side, side, b->precision, SWE_SCHEME_IMPLICIT, &largest) / cells);
  hcl_json_number(&j, "explicit_device_bytes_per_cell",
                  hcl_swe_device_bytes(side, side, b->precision, SWE_SCHEME_EXPLICIT, &largest) / cells);
  end_line(&j, b);
cleanup:
  return status;
}

/* Table 10.2: iterations and solves per step for each ratio, a fresh model each. */
static HclStatus iterations(const Bench *b, int side) {
  HclStatus status = HCL_OK;
  for (int r = 0; r < ITERATION_RATIO_COUNT; r++) {
    StepTiming t;
    TRY(run_fresh(b, side, SWE_SCHEME_IMPLICIT, ITERATION_RATIOS[r], ITERATION_STEPS, &t));
    JsonObject j;
    begin_line(&j, b, "iterations", side);
    hcl_json_number(&j, "ratio", ITERATION_RATIOS[r]);
    hcl_json_integer(&j, "steps", ITERATION_STEPS);
    hcl_json_number(&j, "iterations_per_step", t.iterations);
    hcl_json_number(&j, "solves_per_step", t.solves);
    hcl_json_number(&j, "seconds", t.seconds);
    end_line(&j, b);
  }
cleanup:
  return status;
}

/* A level system like the model's at ratio 100 over still water 1 m deep, into the operator's fields: couplings -a
 * with a = theta^2 g dt^2 h / dx^2 (kernels_cl/swe.cl, level_assemble; the same at every side, dt being 5 dx), 0
 * east of the last column and north of the last row, centre 1 + the sum of the four. */
static HclStatus fill_level_system(Operator *op, const Decomp *decomp, double dx) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = hcl_decomp_local(decomp);
  const DecompSpec *g = hcl_decomp_spec(decomp);
  size_t count = (size_t)l->nx * l->ny;
  double *values = NULL, dt = TABLE_RATIO * EXPLICIT_STEP_PER_DX * dx, h = 1.0;
  double a = THETA * THETA * GRAVITY * dt * dt * h / (dx * dx);
  Field *matrix[3];
  TRY(hcl_stencil5_fields(op, matrix));
  TRY_ALLOC(values, 3 * count);
  for (int j = 0; j < l->ny; j++) {
    for (int i = 0; i < l->nx; i++) {
      int gi = l->x0 + i, gj = l->y0 + j;
      size_t p = (size_t)j * l->nx + i;
      double east = gi < g->nx - 1 ? a : 0, west = gi > 0 ? a : 0;
      double north = gj < g->ny - 1 ? a : 0, south = gj > 0 ? a : 0;
      values[p] = 1 + east + west + north + south;
      values[count + p] = -east;
      values[2 * count + p] = -north;
    }
  }
  for (int f = 0; f < 3; f++) {
    TRY(hcl_field_write_owned(matrix[f], values + (size_t)f * count));
  }
cleanup:
  free(values);
  return status;
}

/* Table 10.3: the RRB factorization of the level system (hcl_precond_setup), mean of SETUP_REPEATS after
 * SETUP_WARMUPS (the first makes the factorization's buffers). */
static HclStatus setup(const Bench *b, int side) {
  HclStatus status = HCL_OK;
  Runtime *rt = b->request->rt;
  Decomp *decomp = NULL;
  Operator *op = NULL;
  Precond *pc = NULL;
  DecompSpec grid = {.nx = side, .ny = side};
  double total = 0;
  TRY(hcl_decomp_create(&grid, &decomp));
  TRY(hcl_stencil5_create(rt, decomp, b->precision, &op));
  TRY(fill_level_system(op, decomp, BASIN / side));
  TRY(hcl_rrb_precond_create(RRB_DEPTH_DEFAULT, &pc));
  TRY(hcl_operator_setup(op));
  for (int r = 0; r < SETUP_WARMUPS; r++) {
    TRY(hcl_precond_setup(pc, op));
  }
  for (int r = 0; r < SETUP_REPEATS; r++) {
    TRY(hcl_runtime_finish(rt));
    double start = hcl_progress_now();
    TRY(hcl_precond_setup(pc, op));
    TRY(hcl_runtime_finish(rt));
    total += hcl_progress_now() - start;
  }
  JsonObject j;
  begin_line(&j, b, "setup", side);
  hcl_json_number(&j, "ratio", TABLE_RATIO);
  hcl_json_integer(&j, "repeats", SETUP_REPEATS);
  if (hcl_rrb_precond_factor(pc)) { /* one rank */
    hcl_json_integer(&j, "levels", hcl_rrb_factor_layout(hcl_rrb_precond_factor(pc))->nlevels + 1);
  }
  hcl_json_number(&j, "seconds", total / SETUP_REPEATS);
  hcl_json_number(&j, "ms", total / SETUP_REPEATS * 1e3);
  end_line(&j, b);
cleanup:
  hcl_precond_destroy(&pc);
  hcl_operator_destroy(&op);
  hcl_decomp_destroy(&decomp);
  return status;
}

/* The ratio where implicit over explicit time first comes to 1 or below, linear between the measured ratios (the
 * first ratio where it starts there); NaN (null) where it never does. */
static double parity_ratio(const double quotient[PARITY_RATIO_COUNT]) {
  for (int r = 0; r < PARITY_RATIO_COUNT; r++) {
    if (quotient[r] <= 1) {
      if (r == 0) {
        return PARITY_RATIOS[0];
      }
      double share = (quotient[r - 1] - 1) / (quotient[r - 1] - quotient[r]);
      return PARITY_RATIOS[r - 1] + share * (PARITY_RATIOS[r] - PARITY_RATIOS[r - 1]);
    }
  }
  return NAN;
}

/* Table 10.6: PARITY_STEPS implicit steps of ratio R against PARITY_STEPS R explicit steps, fresh models each. */
static HclStatus parity(const Bench *b, int side) {
  HclStatus status = HCL_OK;
  double quotient[PARITY_RATIO_COUNT];
  for (int r = 0; r < PARITY_RATIO_COUNT; r++) {
    StepTiming implicit, explicit;
    int explicit_steps = (int)(PARITY_STEPS * PARITY_RATIOS[r]);
    TRY(run_fresh(b, side, SWE_SCHEME_IMPLICIT, PARITY_RATIOS[r], PARITY_STEPS, &implicit));
    TRY(run_fresh(b, side, SWE_SCHEME_EXPLICIT, 1, explicit_steps, &explicit));
    double implicit_seconds = PARITY_STEPS * implicit.seconds, explicit_seconds = explicit_steps * explicit.seconds;
    quotient[r] = implicit_seconds / explicit_seconds;
    JsonObject j;
    begin_line(&j, b, "parity", side);
    hcl_json_number(&j, "ratio", PARITY_RATIOS[r]);
    hcl_json_integer(&j, "steps", PARITY_STEPS);
    hcl_json_number(&j, "seconds", implicit_seconds);
    hcl_json_number(&j, "iterations_per_step", implicit.iterations);
    hcl_json_integer(&j, "explicit_steps", explicit_steps);
    hcl_json_number(&j, "explicit_seconds", explicit_seconds);
    hcl_json_number(&j, "implicit_over_explicit", quotient[r]);
    end_line(&j, b);
  }
  JsonObject j;
  begin_line(&j, b, "parity_ratio", side);
  hcl_json_number(&j, "parity_ratio", parity_ratio(quotient));
  hcl_json_bool(&j, "at_first_ratio", quotient[0] <= 1); /* parity_ratio is then the first ratio, an upper bound */
  hcl_json_number(&j, "first_ratio", PARITY_RATIOS[0]);
  hcl_json_number(&j, "last_ratio", PARITY_RATIOS[PARITY_RATIO_COUNT - 1]);
  end_line(&j, b);
cleanup:
  return status;
}

/* ---- the sweep ---- */

/* Whether the implicit model of side takes at most half the device's memory. */
static bool fits(const DeviceInfo *dev, Precision precision, int side) {
  double largest = 0;
  return hcl_swe_device_bytes(side, side, precision, SWE_SCHEME_IMPLICIT, &largest) <=
         0.5 * (double)dev->global_mem_bytes;
}

/* The sides of one table that fit: from gpu on GPUs, from cpu on CPUs (the whole bench in minutes on two cores),
 * or --size alone. */
static HclStatus table_sides(const Bench *b, const int *gpu, int ngpu, const int *cpu, int ncpu, int out[], int *n) {
  HclStatus status = HCL_OK;
  const DeviceInfo *dev = hcl_runtime_device(b->request->rt);
  bool on_cpu = dev->type == DEVICE_TYPE_CPU;
  const int *all = on_cpu ? cpu : gpu;
  *n = 0;
  if (b->request->size) {
    TRY(bench_side(b->request, "swe-implicit", &out[0]));
    *n = 1;
    goto cleanup;
  }
  for (int i = 0; i < (on_cpu ? ncpu : ngpu); i++) {
    if (fits(dev, b->precision, all[i])) {
      out[(*n)++] = all[i];
    } else {
      hcl_log_info("swe-implicit: side %d skipped: the implicit model needs more than half of '%s''s memory", all[i],
                   dev->device_name);
    }
  }
cleanup:
  return status;
}

static HclStatus sweep(const BenchRequest *request, Precision precision) {
  HclStatus status = HCL_OK;
  static const int step_gpu[] = {96, 192, 384, 768, 1536, 3072}, step_cpu[] = {96, 192, 384};
  static const int iteration_gpu[] = {1536}, parity_gpu[] = {1536, 3072}, one_cpu[] = {384};
  Bench b = {.request = request, .precision = precision};
  int steps[6], nsteps = 0, its[1], nits = 0, parities[2], nparities = 0;
  TRY(table_sides(&b, step_gpu, 6, step_cpu, 3, steps, &nsteps));
  TRY(table_sides(&b, iteration_gpu, 1, one_cpu, 1, its, &nits));
  TRY(table_sides(&b, parity_gpu, 2, one_cpu, 1, parities, &nparities));
  TRY(bench_copy_rate(request->rt, precision, &b.copy_gbs));
  for (int i = 0; i < nsteps; i++) {
    TRY(step_time(&b, steps[i]));
  }
  for (int i = 0; i < nits; i++) {
    TRY(iterations(&b, its[i]));
  }
  for (int i = 0; i < nsteps; i++) {
    TRY(setup(&b, steps[i]));
  }
  for (int i = 0; i < nparities; i++) {
    TRY(parity(&b, parities[i]));
  }
cleanup:
  return status;
}

HclStatus bench_swe_implicit(const BenchRequest *request) {
  return bench_each_precision(request, "swe-implicit", sweep);
}
