/* SPDX-License-Identifier: BSD-3-Clause */
/* swe_run.c: a shallow-water case as the harness runs and validates it (harness.h): the solver (swe.h) with the CFL
 * time step, water-level boundary signals, the divergence guard, the map, history and restart fields, and progress
 * lines.
 *
 * Determinism: the time step depends only on the simulated time, the global step number and the CFL step of the
 * present check interval, all of which a restart stores, so a continued run repeats the steps of an uninterrupted
 * one bit for bit. Steps shrink evenly to land exactly on output, restart and end times. */
#include "model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "log.h"
#include "par.h"
#include "stencil5_precond.h"
#include "swe.h"
#include "swe_case.h"

enum { PATH_SIZE = 1024 };

/* Map variables: zeta from the solver, the rest from hcl_swe_centre_fields in its order. CF standard names: the level
 * of a river, lake or sea over an arbitrary datum; velocities along the grid axes, which need not point east. */
/* zeta, u and v are missing where a cell is dry (output.mask_dry); at a gauge where any cell it is interpolated
 * from is dry, and its wet flag is then 0. */
static const OutputVariable map_variables[] = {
    {"zeta", "water_surface_height_above_reference_datum", "water level above the reference", "m", NULL, true},
    {"h", "sea_floor_depth_below_sea_surface", "total water depth", "m", NULL, false},
    {"u", "sea_water_x_velocity", "x velocity at cell centres", "m s-1", NULL, true},
    {"v", "sea_water_y_velocity", "y velocity at cell centres", "m s-1", NULL, true},
    {"wet", NULL, "wet flag (1 wet, 0 dry)", "1", "dry wet", false},
};
enum { MAP_VARIABLES = 5, HISTORY_VARIABLES = 5 }; /* gauges record all of them */
/* The bed level, once a file: the model's depth (positive down from the reference datum) as a height on zeta's
 * datum, so that zeta - zb is the water depth of a wet cell. */
static const OutputVariable bed_variable = {"zb", "altitude", "bed level above the reference datum", "m", NULL, false};
/* output.maxima: over the run so far, in map.nc on (y, x), rewritten with every frame (hcl_swe_maxima_output's order);
 * missing where a cell was never wet. t_wet's units are the output's time units (maxima_variables). */
static const OutputVariable maxima_output_variables[SWE_MAXIMA_FIELDS] = {
    {"zeta_max", NULL, "maximum water level above the reference over the run", "m", NULL, true},
    {"h_max", NULL, "maximum water depth over the run", "m", NULL, true},
    {"speed_max", NULL, "maximum cell-centred current speed over the run", "m s-1", NULL, true},
    {"t_wet", NULL, "time the cell was first wet", NULL, NULL, true},
};

/* The speeds a state's time step is chosen for: the fastest signal |u| + sqrt(g h) and flow |u| over the wet cells. */
typedef struct {
  double wave, flow;
} Speeds;

typedef struct {
  RunContext run; /* first: the harness's */
  SweSetup setup;
  Swe *swe;
  Field *centre[SWE_CENTRE_FIELDS];
  bool maxima;                          /* output.maxima */
  Field *maxima_out[SWE_MAXIMA_FIELDS]; /* their cell-centred output */
  OutputVariable maxima_variables[SWE_MAXIMA_FIELDS];
  double dt_cfl;              /* the CFL step of this check interval */
  double max_depth;           /* of the bed below the reference, over the grid: how deep a level boundary can fill */
  Speeds start_speeds;        /* validate: the initial state's (preview) */
  int64_t solves, iterations; /* the implicit scheme's level solves and CG iterations in this process */
  double residual;            /* the last level solve's true relative residual at the last check (NAN: none) */
  char restarted_from[PATH_SIZE]; /* the restart a continued run read, "" for a fresh run */
  bool keep_cfl_step; /* a continued run's first check keeps the restart's CFL step: the uninterrupted run goes on
                       * with it to its next check (a stop by a signal comes between checks) */
} SweRun;

/* The run state a ModelOps function gets (its RunContext comes first). */
static SweRun *swe_run_of(const RunContext *run) {
  return (SweRun *)run;
}

/* ---- time ---------------------------------------------------------------------------------------------------- */

/* A floor for the CFL speed from the level boundaries at time t: the long-wave speed sqrt(g h) of their level over
 * the deepest bed, so that a grid that starts dry (no wet cell to measure) still takes steps the incoming water
 * can live with until the next check measures it. */
static double boundary_speed(const SweRun *r, double t) {
  double fastest = 0;
  for (int side = 0; side < SWE_SIDES; side++) {
    double h = swe_level_at(&r->setup.signals[side], t) + r->max_depth;
    if (r->setup.config.sides[side] != SWE_SIDE_WALL && h > 0) {
      fastest = fmax(fastest, sqrt(r->setup.config.g * h));
    }
  }
  return fastest;
}

/* The speed the CFL step is taken for: the fastest signal measured in the wet cells, at least that of the level
 * boundaries, and where the grid is all dry or at rest in no water (any step is stable) that of the dry depth. A
 * wet cell's speed is never below the dry depth's (it has more water), so the last floor changes nothing else. */
static double signal_speed(const SweRun *r, double measured) {
  return fmax(fmax(measured, boundary_speed(r, r->run.tl.t)), sqrt(r->setup.config.g * r->setup.config.dry_depth));
}

/* The CFL step for the fastest signal: cfl / (speed sqrt(1/dx^2 + 1/dy^2)). */
static double cfl_step(const SweConfig *config, double cfl, double speed) {
  return cfl / (speed * sqrt(1 / (config->dx * config->dx) + 1 / (config->dy * config->dy)));
}

/* ---- set-up -------------------------------------------------------------------------------------------------- */

/* The initial state of this rank's block on the host (swe_initial_state). */
typedef struct {
  size_t n;
  double *depth, *zeta, *u, *v;
} HostState;

static void host_state_free(HostState *h) {
  free(h->depth);
  free(h->zeta);
  free(h->u);
  free(h->v);
}

/* Fills *h and sets r->max_depth, the deepest bed over all ranks. Collective. */
static HclStatus host_initial_state(SweRun *r, HostState *h) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = hcl_decomp_local(r->run.decomp);
  h->n = (size_t)l->nx * l->ny;
  h->depth = malloc(h->n * sizeof *h->depth);
  h->zeta = malloc(h->n * sizeof *h->zeta);
  h->u = malloc(h->n * sizeof *h->u);
  h->v = malloc(h->n * sizeof *h->v);
  bool allocated = h->depth && h->zeta && h->u && h->v; /* agreed before anything collective */
  TRY(hcl_par_agree(allocated ? HCL_OK
                              : hcl_status_set(HCL_ENOMEM, __FILE__, __LINE__,
                                               "cannot allocate the initial state of %zu cells", h->n)));
  swe_initial_state(&r->setup, r->run.decomp, h->depth, h->zeta, h->u, h->v);
  r->max_depth = -HUGE_VAL;
  for (size_t p = 0; p < h->n; p++) {
    r->max_depth = fmax(r->max_depth, h->depth[p]);
  }
  TRY(hcl_par_max_double(&r->max_depth));
cleanup:
  return status;
}

static HclStatus set_initial_state(SweRun *r) {
  HclStatus status = HCL_OK;
  HostState h = {0};
  TRY(host_initial_state(r, &h));
  TRY(hcl_swe_set_state(r->swe, h.depth, h.zeta, h.u, h.v));
cleanup:
  host_state_free(&h);
  return status;
}

static bool implicit_scheme(const SweRun *r) {
  return r->setup.config.scheme == SWE_SCHEME_IMPLICIT;
}

/* The CFL-limited step: explicit, cfl on the fastest signal; implicit, cfl on the flow and wave_cfl on the signal. */
static double cfl_limited_step(const SweRun *r, Speeds speeds) {
  const SweSetup *s = &r->setup;
  double hcl_wave_step = cfl_step(&s->config, implicit_scheme(r) ? s->wave_cfl : s->cfl, signal_speed(r, speeds.wave));
  return implicit_scheme(r) ? fmin(hcl_wave_step, cfl_step(&s->config, s->cfl, speeds.flow)) : hcl_wave_step;
}

/* No shallow-water signal comes near this speed (sqrt(g h) is 330 m/s over 11 km of ocean): a state that holds
 * one has blown up, even while its numbers are still finite. */
static const double DIVERGED_SPEED = 1e5;

/* Where the starting state came from, for a message that refuses it: the restart a continued run read, or the case's
 * bed and initial keys that are set (with where), the bed file's path among them. */
static void describe_start(const SweRun *r, char *text, size_t size) {
  static const char *const keys[] = {"bed.shape",     "bed.depth",     "bed.height",     "bed.file",
                                     "initial.shape", "initial.level", "initial.height", "initial.level_beyond",
                                     "initial.file",  "initial.fill"};
  if (r->restarted_from[0]) {
    snprintf(text, size, "restart '%s'; continue from an earlier restart or start afresh", r->restarted_from);
    return;
  }
  const char *separator = ": ";
  int used = snprintf(text, size, "the bed and initial keys");
  for (size_t k = 0; k < sizeof keys / sizeof keys[0] && used > 0 && (size_t)used < size; k++) {
    if (!hcl_case_at_default(r->run.c, keys[k])) {
      used += snprintf(text + used, size - (size_t)used, "%s%s = %s (%s)", separator, keys[k],
                       hcl_case_string(r->run.c, keys[k]), hcl_case_origin(r->run.c, keys[k]));
      separator = "; ";
    }
  }
}

/* Checks a fixed time step against the stability limit of the present state, at a Courant number of 1: the CFL
 * limit of the explicit scheme, the advective limit of the implicit one. Sets the step: the fixed one, or the
 * CFL-limited one unless keep_cfl_step (a continued run keeps the restart's, so that it repeats the steps of an
 * uninterrupted run). */
static HclStatus choose_step_for(SweRun *r, Speeds speeds, bool keep_cfl_step) {
  HclStatus status = HCL_OK;
  const SweConfig *config = &r->setup.config;
  char start[1536];
  describe_start(r, start, sizeof start);
  REQUIRE(isfinite(speeds.wave), HCL_EDATA, "the starting state holds a NaN or infinity; check %s", start);
  /* A state this fast would stop the run at its first check with nothing good to go back to: refused before any
   * output is written. */
  REQUIRE(speeds.wave <= DIVERGED_SPEED, HCL_EDATA,
          "the starting state's fastest signal |u| + sqrt(g h) is %g m/s, above the %g m/s no shallow-water flow "
          "reaches (water %g m deep gives %g m/s); check %s",
          speeds.wave, DIVERGED_SPEED, 11000.0, sqrt(9.81 * 11000.0), start);
  bool implicit = implicit_scheme(r);
  double speed = implicit ? speeds.flow : signal_speed(r, speeds.wave);
  double limit = cfl_step(config, 1.0, speed);
  REQUIRE(r->setup.dt_fixed <= limit, HCL_EDATA,
          "%s: time.dt = %g s breaks the %s limit of the starting state: %.4g s (%s = %.4g m/s, dx = %g m, dy = %g "
          "m); set time.dt below %.4g s or 0 for a CFL-limited step",
          hcl_case_origin(r->run.c, "time.dt"), r->setup.dt_fixed, implicit ? "advective" : "CFL", limit,
          implicit ? "fastest flow |u|" : "fastest signal |u| + sqrt(g h)", speed, config->dx, config->dy, limit);
  if (r->setup.dt_fixed > 0) {
    r->dt_cfl = r->setup.dt_fixed;
  } else if (!keep_cfl_step) {
    r->dt_cfl = cfl_limited_step(r, speeds);
  }
cleanup:
  return status;
}

/* The speeds of the state on the device (the flow speed only for the implicit scheme). */
static HclStatus measure_speeds(SweRun *r, Speeds *speeds) {
  HclStatus status = HCL_OK;
  speeds->flow = 0;
  TRY(hcl_swe_max_wave_speed(r->swe, &speeds->wave));
  if (implicit_scheme(r)) {
    TRY(hcl_swe_max_flow_speed(r->swe, &speeds->flow));
  }
cleanup:
  return status;
}

/* choose_step_for the speeds of the state on the device. */
static HclStatus choose_step(SweRun *r, bool keep_cfl_step) {
  HclStatus status = HCL_OK;
  Speeds speeds;
  TRY(measure_speeds(r, &speeds));
  TRY(choose_step_for(r, speeds, keep_cfl_step));
cleanup:
  return status;
}

/* The device memory the run needs on this rank: the solver's (hcl_swe_device_bytes), the output's cell-centred
 * fields, which have no ghosts, and the maxima's accumulators, their checkpoint and output; and the largest field. */
static double device_bytes(const RunContext *run, double *largest_field) {
  const SweRun *r = swe_run_of(run);
  const DecompLocal *l = hcl_decomp_local(run->decomp);
  double solver = hcl_swe_device_bytes(l->nx, l->ny, run->request->precision, r->setup.config.scheme, largest_field);
  double plain = (double)l->nx * l->ny * (double)hcl_precision_bytes(run->request->precision);
  double maxima = r->maxima ? SWE_MAXIMA_FIELDS * (2 * *largest_field + plain) : 0;
  double friction_map = r->setup.friction_values ? *largest_field : 0; /* hcl_swe_set_friction's field */
  return solver + SWE_CENTRE_FIELDS * plain + maxima + friction_map;
}

static HclStatus read_case(RunContext *run) {
  HclStatus status = HCL_OK;
  SweRun *r = swe_run_of(run);
  r->residual = NAN;
  TRY(swe_setup_from_case(run->c, run->request->precision, &r->setup));
  r->maxima = hcl_case_bool(run->c, "output.maxima");
  memcpy(r->maxima_variables, maxima_output_variables, sizeof r->maxima_variables);
  r->maxima_variables[SWE_MAXIMA_FIELDS - 1].units = r->setup.time_units;
  run->grid = &r->setup.grid;
cleanup:
  return status;
}

/* physics.friction_file's coefficients on this rank's cells. */
static HclStatus set_friction_map(SweRun *r) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = hcl_decomp_local(r->run.decomp);
  double *block = NULL;
  if (!r->setup.friction_values) {
    goto cleanup;
  }
  TRY_ALLOC(block, (size_t)l->nx * l->ny);
  swe_local_block(&r->setup, r->run.decomp, r->setup.friction_values, block);
  TRY(hcl_swe_set_friction(r->swe, block));
cleanup:
  free(block);
  return status;
}

static HclStatus open_model(RunContext *run) {
  HclStatus status = HCL_OK;
  SweRun *r = swe_run_of(run);
  TRY(hcl_swe_create(run->rt, run->decomp, &r->setup.config, &r->swe));
  TRY(set_friction_map(r));
  if (implicit_scheme(r)) {
    Precond *pc = NULL;
    TRY(hcl_stencil5_precond_from_case(run->c, SWE_SOLVER_PREFIX, &pc));
    TRY(hcl_swe_set_preconditioner(r->swe, pc));
  }
  for (int f = 0; f < SWE_CENTRE_FIELDS; f++) {
    FieldSpec spec = {.name = map_variables[f].name, .nz = 1, .ghost = 0, .precision = run->request->precision};
    TRY(hcl_field_create(run->rt, run->decomp, &spec, &r->centre[f]));
  }
  for (int f = 0; r->maxima && f < SWE_MAXIMA_FIELDS; f++) {
    FieldSpec spec = {.name = r->maxima_variables[f].name, .nz = 1, .ghost = 0, .precision = run->request->precision};
    TRY(hcl_field_create(run->rt, run->decomp, &spec, &r->maxima_out[f]));
  }
  if (r->maxima) {
    TRY(hcl_swe_enable_maxima(r->swe));
  }
  TRY(set_initial_state(r));
cleanup:
  return status;
}

static void close_model(RunContext *run) {
  SweRun *r = swe_run_of(run);
  for (int f = 0; f < SWE_CENTRE_FIELDS; f++) {
    hcl_field_destroy(&r->centre[f]);
  }
  for (int f = 0; f < SWE_MAXIMA_FIELDS; f++) {
    hcl_field_destroy(&r->maxima_out[f]);
  }
  hcl_swe_destroy(&r->swe);
  swe_setup_free(&r->setup);
}

/* ---- restarts ------------------------------------------------------------------------------------------------ */

/* The state as the model holds it (hcl_swe_state_fields): levels and face velocities on the staggered grid, each
 * velocity carrying its face's wet flag (-0: dry); nothing masked. */
static const OutputVariable state_variables[SWE_STATE_FIELDS + SWE_MAXIMA_FIELDS] = {
    {"zeta", "water_surface_height_above_reference_datum", "water level above the reference (the bed level where dry)",
     "m", NULL, false},
    {"u", "sea_water_x_velocity", "x velocity at the cell's face towards +x (-0: the face is dry or a wall)", "m s-1",
     NULL, false},
    {"v", "sea_water_y_velocity", "y velocity at the cell's face towards +y (-0: the face is dry or a wall)", "m s-1",
     NULL, false},
    /* output.maxima's accumulators (hcl_swe_maxima_fields): -3.4e38, 0, 0 and -1 where a cell was never wet */
    {"zeta_max", NULL, "maximum water level above the reference so far (-3.4e38: never wet)", "m", NULL, false},
    {"h_max", NULL, "maximum water depth so far", "m", NULL, false},
    {"speed_max", NULL, "maximum cell-centred current speed so far", "m s-1", NULL, false},
    {"t_wet", NULL, "model time the cell was first wet (-1: never)", "s", NULL, false},
};
enum { RESTART_FIELDS = SWE_STATE_FIELDS + SWE_MAXIMA_FIELDS };

/* The fields a restart holds: the state, then the maxima where the run keeps them; all of them required. */
static int restart_fields(RunContext *run, Field **fields, OutputVariable *variables, int *required) {
  SweRun *r = swe_run_of(run);
  hcl_swe_state_fields(r->swe, fields);
  *required = SWE_STATE_FIELDS;
  if (r->maxima) {
    hcl_swe_maxima_fields(r->swe, fields + SWE_STATE_FIELDS);
    *required = RESTART_FIELDS;
  }
  memcpy(variables, state_variables, sizeof state_variables);
  return *required;
}

/* The CFL step of the interval, which a continued run goes on with to its first check. */
static int restart_scalars(const RunContext *run, RestartScalar *scalars, int *required) {
  scalars[0] =
      (RestartScalar){"dt_cfl", swe_run_of(run)->dt_cfl, "the CFL-limited step of the last check interval", "s"};
  return *required = 1;
}

static Field *bed(RunContext *run) {
  return hcl_swe_depth(swe_run_of(run)->swe);
}

static HclStatus resume(RunContext *run, const char *path, const RestartScalar *scalars) {
  SweRun *r = swe_run_of(run);
  snprintf(r->restarted_from, sizeof r->restarted_from, "%s", path);
  r->keep_cfl_step = true;
  r->dt_cfl = scalars[2].value;
  return hcl_swe_sync_state(r->swe);
}

/* The time step of the starting state (a continued run keeps the restart's CFL step), and the maxima of a fresh
 * run's initial state (a continued run's come with its restart). */
static HclStatus start(RunContext *run) {
  HclStatus status = HCL_OK;
  SweRun *r = swe_run_of(run);
  TRY(choose_step(r, run->request->restart != NULL));
  if (!run->request->restart && r->maxima) {
    TRY(hcl_swe_accumulate_maxima(r->swe, 0));
  }
cleanup:
  return status;
}

/* ---- output -------------------------------------------------------------------------------------------------- */

/* Where the files place the cells' centres, and what they say of themselves. */
static OutputFrame frame_of(const RunContext *run) {
  const SweSetup *s = &swe_run_of(run)->setup;
  return run_cell_frame(run->c, run->source, s->time_units, s->x0, s->y0, s->config.dx, s->config.dy, s->crs);
}

/* What the run's files hold (run_open_files), for opening them and for validate's estimate of their size. */
static void outputs_of(const RunContext *run, RunOutputs *outputs, SeriesLayout *series) {
  (void)series;
  *outputs = (RunOutputs){.variables = map_variables,
                          .nmap = MAP_VARIABLES,
                          .nhistory = HISTORY_VARIABLES,
                          .restart_fields = swe_run_of(run)->maxima ? RESTART_FIELDS : SWE_STATE_FIELDS};
}

/* The bed level in the map file and at the gauges. */
static HclStatus write_bed(RunContext *run) {
  return run_write_static(run, &bed_variable, hcl_swe_depth(swe_run_of(run)->swe), -1);
}

/* The maxima so far in the map file, replacing the last frame's: after the last frame they are the run's. */
static HclStatus write_maxima(SweRun *r) {
  HclStatus status = HCL_OK;
  TRY(hcl_swe_maxima_output(r->swe, r->maxima_out));
  for (int f = 0; f < SWE_MAXIMA_FIELDS; f++) {
    TRY(hcl_map_write_static(r->run.files.map, &r->maxima_variables[f], r->maxima_out[f], 1));
  }
cleanup:
  return status;
}

/* Writes a map frame and a gauge sample (when there are gauges) of the present state, as asked. */
static HclStatus write_output(RunContext *run, bool map_due, bool history_due) {
  HclStatus status = HCL_OK;
  SweRun *r = swe_run_of(run);
  history_due = history_due && run->files.history;
  if (!map_due && !history_due) {
    return HCL_OK;
  }
  TRY(hcl_swe_centre_fields(r->swe, r->centre, hcl_case_bool(run->c, "output.mask_dry")));
  TRY(run_write_sample(run, r->centre, map_due, history_due));
  if (map_due && r->maxima) {
    TRY(write_maxima(r));
  }
cleanup:
  return status;
}

/* ---- the time loop ------------------------------------------------------------------------------------------- */

/* The run diverged between the last checkpoint and now: where and how fast, then the stop at the last good state. */
static HclStatus stop_diverged(SweRun *r, double speed) {
  run_log_worst(&r->run, hcl_swe_zeta(r->swe), "water level");
  if (isfinite(speed)) {
    hcl_log_error("the fastest signal |u| + sqrt(g h) is %g m/s", speed);
  } else { /* a user reads no "nan" */
    hcl_log_error("the state overflowed (its fastest signal |u| + sqrt(g h) is no longer a number)");
  }
  return run_stop_at_good(&r->run, HCL_EDIVERGED, false,
                          "the run diverged (check the boundary data, lower time.cfl or time.dt, or raise "
                          "physics.dry_depth)");
}

/* Every check_interval steps and before anything is written: the divergence guard, and with save the checkpoint
 * and the CFL step of the next interval. */
static HclStatus check_state(RunContext *run, bool save) {
  HclStatus status = HCL_OK;
  SweRun *r = swe_run_of(run);
  Speeds speeds;
  TRY(measure_speeds(r, &speeds));
  if (!(speeds.wave <= DIVERGED_SPEED)) { /* NaN compares false */
    TRY(stop_diverged(r, speeds.wave));
  }
  if (!save) { /* the CFL step stays the one the uninterrupted run goes on with */
    goto cleanup;
  }
  TRY(hcl_swe_checkpoint(r->swe));
  TRY(hcl_swe_last_residual(r->swe, &r->residual));
  if (r->setup.dt_fixed == 0 && !r->keep_cfl_step) {
    r->dt_cfl = cfl_limited_step(r, speeds);
  }
  r->keep_cfl_step = false;
cleanup:
  return status;
}

static HclStatus rollback(RunContext *run) {
  return hcl_swe_rollback(swe_run_of(run)->swe);
}

/* One step: as long as the CFL step allows, shrunk evenly so the next event falls exactly on a step. An implicit
 * step that fails (its level system did not converge, or drying did not settle) stops the run at the last good
 * state, after the solver's message. */
static HclStatus advance(RunContext *run, TimelineDue *due) {
  HclStatus status = HCL_OK;
  SweRun *r = swe_run_of(run);
  double t_next;
  run->dt = timeline_step(&run->tl, r->dt_cfl, &t_next);
  ASSERT(run->dt > 0); /* events lie strictly after t (schedule_start, schedule_due) */
  double levels[SWE_SIDES];
  for (int side = 0; side < SWE_SIDES; side++) {
    levels[side] = swe_level_at(&r->setup.signals[side], run->tl.t + run->dt);
  }
  hcl_swe_set_levels(r->swe, levels);
  TRY(swe_forcing_apply(&r->setup.forcing, r->swe, r->setup.config.dx, r->setup.config.dy, run->tl.t, run->dt));
  HclStatus stepped = hcl_swe_step(r->swe, run->dt);
  if (stepped == HCL_ENOTCONVERGED || stepped == HCL_EDIVERGED) {
    hcl_log_error("%s", hcl_status_message());
    hcl_status_clear();
    TRY(run_stop_at_good(run, stepped, true, "the step failed"));
  }
  TRY(stepped);
  if (r->maxima) {
    TRY(hcl_swe_accumulate_maxima(r->swe, t_next));
  }
  SweSolveStats stats = hcl_swe_solve_stats(r->swe);
  r->solves += stats.solves;
  r->iterations += stats.iterations;
  *due = timeline_advance(&run->tl, t_next);
cleanup:
  return status;
}

/* The implicit scheme's progress: CG iterations per step, level solves per step where drying made some steps solve
 * again, over the steps this process took, and the last checked solve's true relative residual ||b - A x|| / ||b||. */
static void describe(const RunContext *run, char *extra, size_t size) {
  const SweRun *r = swe_run_of(run);
  int64_t steps = run->tl.step > run->first_step ? run->tl.step - run->first_step : 1;
  extra[0] = '\0';
  if (!implicit_scheme(r)) {
    return;
  }
  int used = snprintf(extra, size, "cg=%.2f", (double)r->iterations / (double)steps);
  if (r->solves > steps && used > 0 && (size_t)used < size) {
    used += snprintf(extra + used, size - (size_t)used, " solves=%.3f", (double)r->solves / steps);
  }
  if (isfinite(r->residual) && used > 0 && (size_t)used < size) {
    snprintf(extra + used, size - (size_t)used, " res=%.1e", r->residual);
  }
}

/* ---- validate ------------------------------------------------------------------------------------------------ */

/* The time step of the initial state, built on the host. Collective. */
static HclStatus preview(RunContext *run) {
  HclStatus status = HCL_OK;
  SweRun *r = swe_run_of(run);
  HostState initial = {0};
  TRY(host_initial_state(r, &initial));
  Speeds *speeds = &r->start_speeds;
  speeds->wave = swe_initial_speed(&r->setup, initial.depth, initial.zeta, initial.u, initial.v, initial.n, true);
  speeds->flow = swe_initial_speed(&r->setup, initial.depth, initial.zeta, initial.u, initial.v, initial.n, false);
  TRY(hcl_par_max_double(&speeds->wave));
  TRY(hcl_par_max_double(&speeds->flow));
  TRY(choose_step_for(r, *speeds, false));
cleanup:
  host_state_free(&initial);
  return status;
}

static void print_case(const RunContext *run, FILE *out) {
  const SweRun *r = swe_run_of(run);
  const DecompSpec *g = run->grid;
  fprintf(out, "grid: %d x %d cells of %g x %g m, %d x %d ranks\n", g->nx, g->ny, r->setup.config.dx,
          r->setup.config.dy, g->px, g->py);
  run_print_crs(r->setup.crs, out);
  run_print_source(run->c, "bed.file", &r->setup.bed.source, out);
  run_print_source(run->c, "physics.friction_file", &r->setup.friction_source, out);
  run_print_source(run->c, "initial.file", &r->setup.initial.source, out);
  swe_forcing_print(&r->setup.forcing, out);
  const SweInitial *in = &r->setup.initial;
  if (in->fill != FILL_EVERYWHERE) {
    fprintf(
        out, "initial fill: %s, %zu of the %zu cells below the initial level start wet; %zu cut off from it stay dry\n",
        hcl_case_string(run->c, "initial.fill"), in->filled_count, in->below_count, in->below_count - in->filled_count);
  }
  fprintf(out, "time step: %s %.4g s (CFL %g at the start), about %.0f steps to t = %g s\n",
          r->setup.dt_fixed > 0 ? "fixed" : "CFL-limited, at first", r->dt_cfl, r->setup.cfl,
          ceil(r->setup.t_end / r->dt_cfl), r->setup.t_end);
  if (implicit_scheme(r)) {
    double courant = r->dt_cfl * signal_speed(r, r->start_speeds.wave) /
                     cfl_step(&r->setup.config, 1.0, 1.0); /* the step over the explicit CFL limit */
    fprintf(out,
            "scheme: implicit, theta %g, level system by CG + %s; gravity-wave Courant number %.3g at the "
            "start (the explicit scheme's limit: 1)\n",
            r->setup.config.theta, hcl_stencil5_precond_name(run->c, SWE_SOLVER_PREFIX), courant);
  }
}

static HclStatus swe_case_check(const Case *c) {
  SweSetup setup;
  HclStatus status = swe_setup_from_case(c, PRECISION_DOUBLE, &setup);
  swe_setup_free(&setup);
  return status;
}

static const ModelOps swe_ops = {
    .run_size = sizeof(SweRun),
    .check_interval = "20",
    .point = "cell",
    .read_case = read_case,
    .device_bytes = device_bytes,
    .frame = frame_of,
    .outputs = outputs_of,
    .close = close_model,
    .preview = preview,
    .print = print_case,
    .open = open_model,
    .restart_fields = restart_fields,
    .restart_scalars = restart_scalars,
    .bed = bed,
    .resume = resume,
    .start = start,
    .write_static = write_bed,
    .write = write_output,
    .advance = advance,
    .check = check_state,
    .rollback = rollback,
    .describe = describe,
};

const Model swe_model = {
    .name = "shallow-water",
    .title = "hydrocl shallow-water case (Stelling & Duinmeijer, explicit, with wetting and drying)",
    .schema = swe_case_schema,
    .check = swe_case_check,
    .ops = &swe_ops,
};
