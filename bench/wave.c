/* SPDX-License-Identifier: BSD-3-Clause */
/* wave.c: `hydrocl bench wave`, the potential-flow wave model's time step (wave.h; issue 8's performance targets),
 * and `hydrocl bench wave-table4`, the paper's Table 4 (../shared/papers/fnpf-multigpu-scalability.txt section 5.3).
 *
 * wave: a 3D tank of N x N x 9 points, 1 m deep, in which a linear wave of period T = 2 s and height 5 cm (kh =
 * 1.2, L = 5.2 m) runs from a generation zone one wavelength wide on the west side to an absorption zone two
 * wavelengths wide on the east side, walls on the other two sides; 16 points per wavelength (dx = L / 16 = 0.33 m),
 * sixth order, dt = T / 32 = 1/16 s (Courant number c dt / dx = 0.5). The tank starts filled with the incident
 * wave, so every step is representative from the first. The Laplace solver runs to the paper's Table 4 tolerances
 * (rtol 1e-4, atol 1e-5 on the 2-norm) with its default V(1,1) cycle and K max. Reported per step, after a warm-up
 * (kernel builds, first launches), over STEPS steps (one wave period):
 * - solve_ms, rates_ms, relax_ms: hcl_wave_step's own split (it waits for the queue after each part), the Laplace
 *   solves with their extrapolated guesses, the surface conditions and stage updates, the relaxation zones;
 * - output_ms: eta read to the host, what writing a map costs the time loop before the file system;
 * - step_ms: a second pass of STEPS steps without the waits (the time loop as a run drives it), and from it
 *   steps_per_s and real_time_ratio, simulated seconds per wall second (dt / step_ms);
 * - iterations_per_solve: defect-correction iterations per Laplace solve, over both passes;
 * - gbs, fraction_of_copy: the traffic every launch of one step declares (hcl_runtime_launch's bytes: the arrays each
 *   kernel must read and write) per step_ms, against the copy rate measured in the same run.
 * Sizes 129, 257, 513, 1025 on GPUs, 129 and 257 on CPUs; --size N for one. Mixed precision unless --precision.
 * Each size runs twice, "grid" naming the run: on the Cartesian grid, and on mapping.h's skewed rectangle of the
 * same extent (stretch = skew = 0.15; the zones and the wave are the same in physical coordinates): the
 * curvilinear model's step against the Cartesian one's (issue 33).
 *
 * wave-table4: the Gaussian hump (wave_hump.h) at N x N x 9 (default 257) for dsigma/dx = 4, 2, 1, 0.5 and K = 1,
 * 3, 5 and max: the average iterations per solve over HUMP_STEPS steps beside the paper's. */
#include "bench.h"

#include <stdlib.h>

#include "log.h"
#include "par.h"
#include "progress.h"
#include "wave.h"
#include "wave_hump.h"

/* STEPS: one wave period. MIN_SIZE: the tank holds a generation zone of one wavelength, an absorption zone of two
 * and one wavelength between. */
enum { NZ = 9, ORDER = 6, WARM_STEPS = 2, STEPS_PER_PERIOD = 32, STEPS = STEPS_PER_PERIOD };
enum { POINTS_PER_WAVELENGTH = 16, MIN_SIZE = 4 * POINTS_PER_WAVELENGTH + 1 };
static const double PERIOD = 2, DEPTH = 1, HEIGHT = 0.05;

/* The tank: its model, the incident wave, host arrays of the owned points for the state and for output. */
typedef struct {
  Decomp *decomp;
  Wave *wave;
  WaveIncident incident;
  double *eta, *phi;
  double dx, dt;
  MappingRectangle rectangle; /* the skewed grid's map, when map.point is set */
  Mapping map;
} Tank;

static void tank_close(Tank *t) {
  hcl_wave_destroy(&t->wave);
  hcl_decomp_destroy(&t->decomp);
  hcl_wave_incident_free(&t->incident);
  free(t->eta);
  free(t->phi);
  *t = (Tank){0};
}

static WaveZone zone(WaveZoneKind kind, double x0, double x1, double width, WaveZoneInward inward) {
  return (WaveZone){.kind = kind,
                    .x0 = x0,
                    .x1 = x1,
                    .y0 = 0,
                    .y1 = width,
                    .inward = inward,
                    .shape = WAVE_SHAPE_EXPONENTIAL,
                    .power = 3.5};
}

static WaveConfig tank_config(int n, LaplacePrecision precision, double length, double dx) {
  WaveConfig c = hcl_wave_config_default();
  c.laplace.dx = c.laplace.dy = dx;
  c.laplace.nz = NZ;
  c.laplace.order = ORDER;
  c.laplace.precision = precision;
  /* Table 4's tolerances, in every precision (single's rounding floor is about 1e-6 of rms(b), test_laplace). */
  c.laplace.krylov.rtol = 1e-4;
  c.laplace.krylov.atol = hcl_laplace_rms_atol(1e-5, n, n, NZ);
  double side = (n - 1) * dx;
  c.nzones = 2;
  c.zones[0] = zone(WAVE_ZONE_GENERATE, 0, length, side, WAVE_INWARD_PLUS_X);
  c.zones[1] = zone(WAVE_ZONE_ABSORB, side - 2 * length, side, side, WAVE_INWARD_MINUS_X);
  return c;
}

/* The tank filled with the incident wave at t = 0, on the Cartesian grid or the skewed one. Collective. */
static HclStatus tank_open(Runtime *rt, int n, LaplacePrecision precision, bool skewed, Tank *t) {
  HclStatus status = HCL_OK;
  double *h = NULL;
  RegularWave linear;
  RegularWaveSpec spec = hcl_waves_regular_spec_default();
  spec.depth = DEPTH;
  spec.height = HEIGHT;
  spec.period = PERIOD;
  *t = (Tank){.dt = PERIOD / STEPS_PER_PERIOD};
  TRY(hcl_waves_solve_linear(&spec, &linear));
  TRY(hcl_wave_incident_regular(&linear, 0, 0, &t->incident));
  t->dx = linear.length / POINTS_PER_WAVELENGTH;
  if (skewed) {
    double side = (n - 1) * t->dx;
    t->rectangle = (MappingRectangle){.lx = side, .ly = side, .dx = t->dx, .dy = t->dx, .stretch = 0.15, .skew = 0.15};
    t->map = (Mapping){hcl_mapping_rectangle_point, &t->rectangle, "bench wave's skewed rectangle"};
  }
  DecompSpec grid = {.nx = n, .ny = n};
  TRY(hcl_decomp_create(&grid, &t->decomp));
  const DecompLocal *l = hcl_decomp_local(t->decomp);
  size_t count = (size_t)l->nx * l->ny;
  TRY_ALLOC(h, count);
  TRY_ALLOC(t->eta, count);
  TRY_ALLOC(t->phi, count);
  for (int j = 0; j < l->ny; j++) {
    for (int i = 0; i < l->nx; i++) {
      size_t at = (size_t)j * l->nx + i;
      double x = (l->x0 + i) * t->dx, y = (l->y0 + j) * t->dx;
      if (skewed) {
        hcl_mapping_rectangle_point(&t->rectangle, l->x0 + i, l->y0 + j, &x, &y);
      }
      h[at] = DEPTH;
      t->eta[at] = hcl_wave_incident_eta(&t->incident, x, y, 0);
      t->phi[at] = hcl_wave_incident_phi(&t->incident, x, y, 0);
    }
  }
  WaveConfig c = tank_config(n, precision, linear.length, t->dx);
  c.laplace.map = skewed ? &t->map : NULL;
  TRY(hcl_wave_create(rt, t->decomp, &c, h, &t->wave));
  TRY(hcl_wave_set_incident(t->wave, &t->incident));
  TRY(hcl_wave_set_state(t->wave, 0, t->eta, t->phi));
cleanup:
  free(h);
  if (status != HCL_OK) {
    tank_close(t);
  }
  return status;
}

typedef struct {
  double solve, rates, relax, output, step; /* seconds per step */
  double bytes;                             /* counted per step */
  long iterations, solves;
  RuntimeCounts used; /* the launches and waits of free_pass's STEPS steps */
} StepFigures;

/* STEPS steps with hcl_wave_step's split, each followed by eta read to the host. */
static HclStatus split_pass(Tank *t, StepFigures *f) {
  HclStatus status = HCL_OK;
  for (int s = 0; s < STEPS; s++) {
    WaveStepStats stats;
    TRY(hcl_wave_step(t->wave, t->dt, true, &stats));
    double start = hcl_progress_now();
    TRY(hcl_field_read_owned(hcl_wave_eta(t->wave), t->eta));
    f->output += (hcl_progress_now() - start) / STEPS;
    f->solve += stats.solve_seconds / STEPS;
    f->rates += stats.rates_seconds / STEPS;
    f->relax += stats.relax_seconds / STEPS;
    f->iterations += stats.iterations;
    f->solves += stats.solves;
  }
cleanup:
  return status;
}

/* STEPS steps as a run's time loop drives them (no waits but the solver's reductions). */
static HclStatus free_pass(Runtime *rt, Tank *t, StepFigures *f) {
  HclStatus status = HCL_OK;
  TRY(hcl_runtime_finish(rt));
  double start = hcl_progress_now();
  RuntimeCounts before = hcl_runtime_counts(rt);
  for (int s = 0; s < STEPS; s++) {
    WaveStepStats stats;
    TRY(hcl_wave_step(t->wave, t->dt, false, &stats));
    f->iterations += stats.iterations;
    f->solves += stats.solves;
  }
  f->used = bench_counts_since(rt, before);
  TRY(hcl_runtime_finish(rt));
  f->step = (hcl_progress_now() - start) / STEPS;
cleanup:
  return status;
}

/* The bytes every launch of one step declares, from the profile. */
static HclStatus step_bytes(Runtime *rt, Tank *t, double *bytes) {
  HclStatus status = HCL_OK;
  double seconds = 0;
  WaveStepStats stats;
  hcl_runtime_set_profile(rt, true);
  TRY(hcl_runtime_profile_clear(rt));
  TRY(hcl_wave_step(t->wave, t->dt, false, &stats));
  TRY(hcl_runtime_profile_total(rt, &seconds, bytes));
  TRY(hcl_runtime_profile_clear(rt));
cleanup:
  hcl_runtime_set_profile(rt, false);
  return status;
}

static const char *mode_name(LaplacePrecision p) {
  return p == LAPLACE_DOUBLE ? "double" : p == LAPLACE_MIXED ? "mixed" : "single";
}

static void print_step(const BenchRequest *request, int n, LaplacePrecision precision, const Tank *t,
                       const StepFigures *f, double copy_gbs) {
  JsonObject j;
  double gbs = f->bytes / f->step * 1e-9;
  bench_json_begin(&j, request, "wave", "step", precision == LAPLACE_SINGLE ? PRECISION_SINGLE : PRECISION_DOUBLE);
  hcl_json_string(&j, "mode", mode_name(precision));
  hcl_json_string(&j, "grid", t->map.point ? "skewed" : "cartesian");
  hcl_json_integer(&j, "size", n);
  hcl_json_integer(&j, "nz", NZ);
  hcl_json_integer(&j, "order", ORDER);
  hcl_json_integer(&j, "levels", hcl_laplace_levels(hcl_wave_laplace(t->wave)));
  hcl_json_number(&j, "dx", t->dx);
  hcl_json_number(&j, "dt", t->dt);
  hcl_json_integer(&j, "steps", STEPS);
  hcl_json_number(&j, "solve_ms", f->solve * 1e3);
  hcl_json_number(&j, "rates_ms", f->rates * 1e3);
  hcl_json_number(&j, "relax_ms", f->relax * 1e3);
  hcl_json_number(&j, "output_ms", f->output * 1e3);
  hcl_json_number(&j, "step_ms", f->step * 1e3);
  hcl_json_number(&j, "seconds", f->step);
  hcl_json_number(&j, "iterations_per_solve", (double)f->iterations / f->solves);
  bench_json_counts(&j, "step", f->used, STEPS);
  hcl_json_number(&j, "steps_per_s", 1 / f->step);
  hcl_json_number(&j, "real_time_ratio", t->dt / f->step);
  hcl_json_number(&j, "bytes_per_step", f->bytes);
  hcl_json_number(&j, "gbs", gbs);
  hcl_json_number(&j, "copy_gbs", copy_gbs);
  hcl_json_number(&j, "fraction_of_copy", gbs / copy_gbs);
  hcl_json_number(&j, "device_bytes", hcl_wave_device_bytes(t->wave));
  if (hcl_par_rank() == 0) {
    hcl_json_print(&j, request->out);
  }
}

static HclStatus measure_size(const BenchRequest *request, int n, LaplacePrecision precision, bool skewed,
                              double copy_gbs) {
  HclStatus status = HCL_OK;
  Runtime *rt = request->rt;
  Tank t = {0};
  StepFigures f = {0};
  TRY(tank_open(rt, n, precision, skewed, &t));
  for (int s = 0; s < WARM_STEPS; s++) {
    WaveStepStats stats;
    TRY(hcl_wave_step(t.wave, t.dt, true, &stats));
  }
  TRY(hcl_field_read_owned(hcl_wave_eta(t.wave), t.eta));
  TRY(split_pass(&t, &f));
  TRY(free_pass(rt, &t, &f));
  TRY(step_bytes(rt, &t, &f.bytes));
  TRY(hcl_wave_check(t.wave, 0.5)); /* the figures are of a sane run */
  print_step(request, n, precision, &t, &f, copy_gbs);
cleanup:
  tank_close(&t);
  return status;
}

HclStatus bench_wave(const BenchRequest *request) {
  HclStatus status = HCL_OK;
  const DeviceInfo *dev = hcl_runtime_device(request->rt);
  const int gpu_sizes[] = {129, 257, 513, 1025}, cpu_sizes[] = {129, 257};
  int side = 0, nsizes = dev->type == DEVICE_TYPE_CPU ? 2 : 4;
  const int *sizes = dev->type == DEVICE_TYPE_CPU ? cpu_sizes : gpu_sizes;
  if (request->size) {
    TRY(bench_side(request, "wave", &side));
    REQUIRE(side >= MIN_SIZE, HCL_EUSAGE,
            "bench wave --size %d: the tank needs at least %d points per side (%d per "
            "wavelength, four wavelengths: the generation and absorption zones and the region between)",
            side, MIN_SIZE, POINTS_PER_WAVELENGTH);
    sizes = &side;
    nsizes = 1;
  }
  LaplacePrecision precision = LAPLACE_MIXED;
  if (request->precision_given) {
    precision = request->precision == PRECISION_DOUBLE ? LAPLACE_DOUBLE : LAPLACE_SINGLE;
  } else if (!dev->fp64) {
    precision = LAPLACE_SINGLE;
    hcl_log_info("bench wave: device without fp64: single precision");
  }
  double copy_gbs = 0;
  TRY(bench_copy_rate(request->rt, precision == LAPLACE_SINGLE ? PRECISION_SINGLE : PRECISION_DOUBLE, &copy_gbs));
  for (int s = 0; s < nsizes; s++) {
    TRY(measure_size(request, sizes[s], precision, false, copy_gbs));
    TRY(measure_size(request, sizes[s], precision, true, copy_gbs));
  }
cleanup:
  return status;
}

/* ---- wave-table4 ---- */

/* The paper ran each entry until its average stopped changing in the first three digits; after HUMP_STEPS steps
 * the average moves by less than 0.005 per step, 0.013 where it is above 10 (K = 1 at fine aspect ratios): below
 * its third digit in every entry (last_change; bench/README.md). */
enum { HUMP_STEPS = 100, HUMP_DEFAULT_SIZE = 257, HUMP_MIN_SIZE = 129 };

static void print_hump(const BenchRequest *request, int n, const WaveHumpPaperEntry *paper, WaveHumpCriterion criterion,
                       const WaveConfig *c, const WaveHumpAverage *a, bool converged) {
  static const char *const guesses[] = {"", "last", "linear", "quadratic"};
  JsonObject j;
  bench_json_begin(&j, request, "wave-table4", "hump", PRECISION_DOUBLE);
  hcl_json_string(&j, "mode", "mixed");
  hcl_json_string(&j, "criterion", criterion == WAVE_HUMP_TWO_NORM ? "two_norm" : "rms");
  hcl_json_string(&j, "guess",
                  guesses[c->extrapolation]); /* each solve's first guess: extrapolated, or the last solution */
  hcl_json_integer(&j, "size", n);
  hcl_json_integer(&j, "nz", c->laplace.nz);
  hcl_json_number(&j, "aspect", paper->aspect);
  hcl_json_integer(&j, "k", paper->levels); /* -1: as many as the grid allows */
  hcl_json_integer(&j, "k_used", a->levels - 1);
  hcl_json_number(&j, "dx", c->laplace.dx);
  hcl_json_number(&j, "dt", a->dt);
  hcl_json_number(&j, "courant", WAVE_HUMP_COURANT);
  hcl_json_bool(&j, "converged", converged); /* false: a solve ran out of iterations after `steps` steps */
  hcl_json_integer(&j, "steps", a->steps);
  hcl_json_integer(&j, "solves", a->solves);
  hcl_json_number(&j, "iterations", a->iterations);
  hcl_json_number(&j, "last_change", a->last_change);
  hcl_json_number(&j, "solve_ms", a->solve_seconds * 1e3);
  hcl_json_number(&j, "seconds", a->solve_seconds);
  hcl_json_number(&j, "paper_iterations", paper->iterations);
  if (hcl_par_rank() == 0) {
    hcl_json_print(&j, request->out);
  }
}

HclStatus bench_wave_table4(const BenchRequest *request) {
  HclStatus status = HCL_OK;
  int n = HUMP_DEFAULT_SIZE;
  const DeviceInfo *dev = hcl_runtime_device(request->rt);
  REQUIRE(dev->fp64, HCL_ENODEVICE, "bench wave-table4 runs in mixed precision: device '%s' has no fp64",
          dev->device_name);
  REQUIRE(!request->precision_given, HCL_EUSAGE, "bench wave-table4 runs in mixed precision only (no --precision)");
  if (request->size) {
    TRY(bench_side(request, "wave-table4", &n));
    REQUIRE(n >= HUMP_MIN_SIZE, HCL_EUSAGE, "bench wave-table4 --size %d: K = 5 needs at least %d points per side", n,
            HUMP_MIN_SIZE);
  }
  /* The paper's criterion with the model's guess (linear extrapolation) and with the last solution as it is (the paper
   * does not say which it took), and our RMS criterion as it stands. */
  const struct {
    WaveHumpCriterion criterion;
    int extrapolation;
  } runs[] = {{WAVE_HUMP_TWO_NORM, 2}, {WAVE_HUMP_TWO_NORM, 1}, {WAVE_HUMP_RMS, 2}};
  for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
    for (int row = 0; row < WAVE_HUMP_TABLE4_ROWS; row++) {
      const WaveHumpPaperEntry *paper = &HCL_WAVE_HUMP_TABLE4[row];
      WaveConfig config = hcl_wave_hump_table4_config(n, paper->aspect, paper->levels, runs[r].criterion);
      config.extrapolation = runs[r].extrapolation;
      WaveHumpAverage average;
      status = hcl_wave_hump_average(request->rt, n, &config, HUMP_STEPS, &average);
      bool converged = status != HCL_ENOTCONVERGED;
      if (!converged) { /* a K too weak for the aspect ratio: a result of the table */
        hcl_log_info("bench wave-table4: %s", hcl_status_message());
        hcl_status_clear();
        status = HCL_OK;
      }
      TRY(status);
      print_hump(request, n, paper, runs[r].criterion, &config, &average, converged);
    }
  }
cleanup:
  return status;
}
