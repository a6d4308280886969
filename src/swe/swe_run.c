/* SPDX-License-Identifier: BSD-3-Clause */
/* swe_run.c: `hydrocl run` and `hydrocl validate` of a shallow-water case (model.h): the time loop around the
 * solver (swe.h) with the CFL time step, water-level boundary signals, the divergence guard, map, history and
 * restart output, progress lines and clean stops on SIGTERM/SIGUSR1.
 *
 * Determinism: the time step depends only on the simulated time, the global step number and the CFL step of the
 * present check interval, all of which a restart stores, so a continued run repeats the steps of an uninterrupted
 * one bit for bit. Steps shrink evenly to land exactly on output, restart and end times. */
#include "model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "log.h"
#include "mapfile.h"
#include "par.h"
#include "restart.h"
#include "run.h"
#include "schedule.h"
#include "signals.h"
#include "stencil5_precond.h"
#include "swe.h"
#include "swe_case.h"
#include "version.h"

enum { PATH_SIZE = 1024 };
static const char *const RESTART_PREFIX = "restart";

/* Map variables: zeta from the solver, the rest from swe_centre_fields in its order. CF standard names: the level
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
/* output.maxima: over the run so far, in map.nc on (y, x), rewritten with every frame (swe_maxima_output's order);
 * missing where a cell was never wet. t_wet's units are the output's time units (maxima_variables). */
static const OutputVariable maxima_output_variables[SWE_MAXIMA_FIELDS] = {
    {"zeta_max", NULL, "maximum water level above the reference over the run", "m", NULL, true},
    {"h_max", NULL, "maximum water depth over the run", "m", NULL, true},
    {"speed_max", NULL, "maximum cell-centred current speed over the run", "m s-1", NULL, true},
    {"t_wet", NULL, "time the cell was first wet", NULL, NULL, true},
};

typedef struct {
  const Case *c;
  const RunRequest *request;
  Runtime *rt;
  SweSetup setup;
  Decomp *decomp;
  Swe *swe;
  Field *centre[SWE_CENTRE_FIELDS];
  bool maxima;                          /* output.maxima */
  Field *maxima_out[SWE_MAXIMA_FIELDS]; /* their cell-centred output */
  OutputVariable maxima_variables[SWE_MAXIMA_FIELDS];
  RunFiles files;
  Gauge *gauges;
  int ngauges;
  Timeline tl;       /* simulated time, step, output events */
  double dt_cfl, dt; /* the CFL step of this check interval, the last step taken */
  double max_depth;  /* of the bed below the reference, over the grid: how deep a level boundary can fill */
  double t_good;     /* time of the last checkpoint (swe_checkpoint) */
  int64_t step_good;
  int64_t solves, iterations; /* the implicit scheme's level solves and CG iterations in this process */
  int64_t first_step;         /* the step this process started from (a continued run's restart step) */
  double residual;            /* the last level solve's true relative residual at the last check (NAN: none) */
  char source[256];
  char restarted_from[PATH_SIZE]; /* the restart a continued run read, "" for a fresh run */
  bool keep_cfl_step; /* a continued run's first check keeps the restart's CFL step: the uninterrupted run goes on
                       * with it to its next check (a stop by a signal comes between checks) */
} SweRun;

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
  return fmax(fmax(measured, boundary_speed(r, r->tl.t)), sqrt(r->setup.config.g * r->setup.config.dry_depth));
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
  const DecompLocal *l = decomp_local(r->decomp);
  h->n = (size_t)l->nx * l->ny;
  h->depth = malloc(h->n * sizeof *h->depth);
  h->zeta = malloc(h->n * sizeof *h->zeta);
  h->u = malloc(h->n * sizeof *h->u);
  h->v = malloc(h->n * sizeof *h->v);
  bool allocated = h->depth && h->zeta && h->u && h->v; /* agreed before anything collective */
  TRY(par_agree(
      allocated ? HCL_OK
                : status_set(HCL_ENOMEM, __FILE__, __LINE__, "cannot allocate the initial state of %zu cells", h->n)));
  swe_initial_state(&r->setup, r->decomp, h->depth, h->zeta, h->u, h->v);
  r->max_depth = -HUGE_VAL;
  for (size_t p = 0; p < h->n; p++) {
    r->max_depth = fmax(r->max_depth, h->depth[p]);
  }
  TRY(par_max_double(&r->max_depth));
cleanup:
  return status;
}

static HclStatus set_initial_state(SweRun *r) {
  HclStatus status = HCL_OK;
  HostState h = {0};
  TRY(host_initial_state(r, &h));
  TRY(swe_set_state(r->swe, h.depth, h.zeta, h.u, h.v));
cleanup:
  host_state_free(&h);
  return status;
}

/* The speeds a state's time step is chosen for: the fastest signal |u| + sqrt(g h) and flow |u| over the wet cells. */
typedef struct {
  double wave, flow;
} Speeds;

static bool implicit_scheme(const SweRun *r) {
  return r->setup.config.scheme == SWE_SCHEME_IMPLICIT;
}

/* The CFL-limited step: explicit, cfl on the fastest signal; implicit, cfl on the flow and wave_cfl on the signal. */
static double cfl_limited_step(const SweRun *r, Speeds speeds) {
  const SweSetup *s = &r->setup;
  double wave_step = cfl_step(&s->config, implicit_scheme(r) ? s->wave_cfl : s->cfl, signal_speed(r, speeds.wave));
  return implicit_scheme(r) ? fmin(wave_step, cfl_step(&s->config, s->cfl, speeds.flow)) : wave_step;
}

/* No shallow-water signal comes near this speed (sqrt(g h) is 330 m/s over 11 km of ocean): a state that holds
 * one has blown up, even while its numbers are still finite. */
static const double DIVERGED_SPEED = 1e5;

/* Where the starting state came from, for a message that refuses it: the restart a continued run read, or the case's
 * bed and initial keys that are set (with where), the bed file's path among them. */
static void describe_start(const SweRun *r, char *text, size_t size) {
  static const char *const keys[] = {"bed.shape",     "bed.depth",     "bed.height",     "bed.file",
                                     "initial.shape", "initial.level", "initial.height", "initial.level_beyond"};
  if (r->restarted_from[0]) {
    snprintf(text, size, "restart '%s'; continue from an earlier restart or start afresh", r->restarted_from);
    return;
  }
  const char *separator = ": ";
  int used = snprintf(text, size, "the bed and initial keys");
  for (size_t k = 0; k < sizeof keys / sizeof keys[0] && used > 0 && (size_t)used < size; k++) {
    if (!case_at_default(r->c, keys[k])) {
      used += snprintf(text + used, size - (size_t)used, "%s%s = %s (%s)", separator, keys[k],
                       case_string(r->c, keys[k]), case_origin(r->c, keys[k]));
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
          case_origin(r->c, "time.dt"), r->setup.dt_fixed, implicit ? "advective" : "CFL", limit,
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
  TRY(swe_max_wave_speed(r->swe, &speeds->wave));
  if (implicit_scheme(r)) {
    TRY(swe_max_flow_speed(r->swe, &speeds->flow));
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

/* The device memory the run needs on this rank: the solver's (swe_device_bytes), the output's cell-centred
 * fields, which have no ghosts, and the maxima's accumulators, their checkpoint and output; and the largest field. */
static double bytes_per_rank(const SweRun *r, double *largest_field) {
  const DecompLocal *l = decomp_local(r->decomp);
  double solver = swe_device_bytes(l->nx, l->ny, r->request->precision, r->setup.config.scheme, largest_field);
  double plain = (double)l->nx * l->ny * (double)precision_bytes(r->request->precision);
  double maxima = r->maxima ? SWE_MAXIMA_FIELDS * (2 * *largest_field + plain) : 0;
  return solver + SWE_CENTRE_FIELDS * plain + maxima;
}

/* Refuses a grid too large for the device before anything is allocated. Collective. */
static HclStatus check_device_memory(const SweRun *r) {
  double largest_field, needed = bytes_per_rank(r, &largest_field);
  return run_check_device_memory(r->rt, r->decomp, needed, largest_field, "cells");
}

/* The host side of a run: the case's set-up, the decomposition, the gauges, the memory check and the output
 * schedules. */
static HclStatus open_setup(Runtime *rt, const Case *c, const RunRequest *request, SweRun *r) {
  HclStatus status = HCL_OK;
  memset(r, 0, sizeof *r);
  r->residual = NAN;
  r->c = c;
  r->request = request;
  r->rt = rt;
  TRY(swe_setup_from_case(c, request->precision, &r->setup));
  r->maxima = case_bool(c, "output.maxima");
  memcpy(r->maxima_variables, maxima_output_variables, sizeof r->maxima_variables);
  r->maxima_variables[SWE_MAXIMA_FIELDS - 1].units = r->setup.time_units;
  TRY(run_create_decomp(c, &r->setup.grid, &r->decomp));
  TRY(run_read_cell_gauges(c, r->setup.x0, r->setup.y0, r->setup.config.dx, r->setup.config.dy, r->setup.grid.nx,
                           r->setup.grid.ny, &r->gauges, &r->ngauges));
  TRY(check_device_memory(r));
  double history_interval = case_real(c, "output.history_interval");
  if (history_interval == 0) {
    history_interval = case_real(c, "output.interval");
  }
  timeline_start(&r->tl, r->setup.t_end, case_real(c, "output.interval"), r->ngauges > 0 ? history_interval : 0,
                 case_real(c, "restart.interval"), 0, 0); /* no gauges: no samples */
  snprintf(r->source, sizeof r->source, "hydrocl %s (%s), %s, %s", HYDROCL_VERSION, HYDROCL_GIT,
           runtime_device(rt)->device_name, precision_name(request->precision));
cleanup:
  return status;
}

static HclStatus open_model(Runtime *rt, const Case *c, const RunRequest *request, SweRun *r) {
  HclStatus status = HCL_OK;
  TRY(open_setup(rt, c, request, r));
  TRY(swe_create(rt, r->decomp, &r->setup.config, &r->swe));
  if (implicit_scheme(r)) {
    Precond *pc = NULL;
    TRY(stencil5_precond_from_case(c, SWE_SOLVER_PREFIX, &pc));
    TRY(swe_set_preconditioner(r->swe, pc));
  }
  for (int f = 0; f < SWE_CENTRE_FIELDS; f++) {
    FieldSpec spec = {.name = map_variables[f].name, .nz = 1, .ghost = 0, .precision = request->precision};
    TRY(field_create(rt, r->decomp, &spec, &r->centre[f]));
  }
  for (int f = 0; r->maxima && f < SWE_MAXIMA_FIELDS; f++) {
    FieldSpec spec = {.name = r->maxima_variables[f].name, .nz = 1, .ghost = 0, .precision = request->precision};
    TRY(field_create(rt, r->decomp, &spec, &r->maxima_out[f]));
  }
  if (r->maxima) {
    TRY(swe_enable_maxima(r->swe));
  }
  TRY(set_initial_state(r));
cleanup:
  return status;
}

static void close_model(SweRun *r) {
  run_close_files(&r->files);
  for (int f = 0; f < SWE_CENTRE_FIELDS; f++) {
    field_destroy(&r->centre[f]);
  }
  for (int f = 0; f < SWE_MAXIMA_FIELDS; f++) {
    field_destroy(&r->maxima_out[f]);
  }
  swe_destroy(&r->swe);
  decomp_destroy(&r->decomp);
  free(r->gauges);
  swe_setup_free(&r->setup);
}

/* ---- restarts ------------------------------------------------------------------------------------------------ */

/* The state as the model holds it (swe_state_fields): levels and face velocities on the staggered grid, each
 * velocity carrying its face's wet flag (-0: dry); nothing masked. */
static const OutputVariable state_variables[SWE_STATE_FIELDS + SWE_MAXIMA_FIELDS] = {
    {"zeta", "water_surface_height_above_reference_datum", "water level above the reference (the bed level where dry)",
     "m", NULL, false},
    {"u", "sea_water_x_velocity", "x velocity at the cell's face towards +x (-0: the face is dry or a wall)", "m s-1",
     NULL, false},
    {"v", "sea_water_y_velocity", "y velocity at the cell's face towards +y (-0: the face is dry or a wall)", "m s-1",
     NULL, false},
    /* output.maxima's accumulators (swe_maxima_fields): -3.4e38, 0, 0 and -1 where a cell was never wet */
    {"zeta_max", NULL, "maximum water level above the reference so far (-3.4e38: never wet)", "m", NULL, false},
    {"h_max", NULL, "maximum water depth so far", "m", NULL, false},
    {"speed_max", NULL, "maximum cell-centred current speed so far", "m s-1", NULL, false},
    {"t_wet", NULL, "model time the cell was first wet (-1: never)", "s", NULL, false},
};
enum { RESTART_FIELDS = SWE_STATE_FIELDS + SWE_MAXIMA_FIELDS };

/* The fields a restart holds: the state, then the maxima where the run keeps them; returns how many. */
static int restart_fields(SweRun *r, Field *fields[RESTART_FIELDS]) {
  swe_state_fields(r->swe, fields);
  if (!r->maxima) {
    return SWE_STATE_FIELDS;
  }
  swe_maxima_fields(r->swe, fields + SWE_STATE_FIELDS);
  return RESTART_FIELDS;
}

/* Where the files place the cells' centres, and what they say of themselves. */
static RunFrame frame_of(const SweRun *r) {
  return run_cell_frame(r->c, r->source, r->setup.time_units, r->setup.x0, r->setup.y0, r->setup.config.dx,
                        r->setup.config.dy, r->setup.crs);
}

/* A restart's metadata, and what a continued run must share with it (run_check_restart). */
static RestartSpec restart_spec(SweRun *r) {
  RunFrame frame = frame_of(r);
  return run_restart_spec(&frame, state_variables, swe_depth(r->swe));
}

static HclStatus write_restart(void *model, double t, int64_t step) {
  HclStatus status = HCL_OK;
  SweRun *r = model;
  Field *fields[RESTART_FIELDS];
  RestartSpec base = restart_spec(r);
  RestartScalar scalars[] = {{"time", t, "time", NULL},
                             {"dt_cfl", r->dt_cfl, "the CFL-limited step of the last check interval", "s"}};
  int nfields = restart_fields(r, fields);
  TRY(run_write_restart(r->c, r->request, &r->files, RESTART_PREFIX, &base, step, fields, nfields, scalars, 2));
cleanup:
  return status;
}

/* Continues from request->restart ("latest" or a file): state, time, step and CFL step. */
static HclStatus read_restart(SweRun *r) {
  HclStatus status = HCL_OK;
  Field *fields[RESTART_FIELDS];
  char path[PATH_SIZE];
  RestartScalar scalars[] = {{.name = "time"}, {.name = "step"}, {.name = "dt_cfl"}};
  RestartSpec base = restart_spec(r);
  TRY(run_restart_path(r->request, RESTART_PREFIX, path, sizeof path));
  TRY(run_check_restart(r->c, r->request, path, &base));
  TRY(restart_read(path, fields, restart_fields(r, fields), scalars, 3));
  snprintf(r->restarted_from, sizeof r->restarted_from, "%s", path);
  r->keep_cfl_step = true;
  TRY(swe_sync_state(r->swe));
  r->dt_cfl = scalars[2].value;
  TRY(run_resume(&r->tl, path, scalars[0].value, (int64_t)scalars[1].value));
cleanup:
  return status;
}

/* ---- output -------------------------------------------------------------------------------------------------- */

/* What the run's files hold (run_open_files), for opening them and for validate's estimate of their size. */
static RunOutputs outputs_of(const SweRun *r) {
  return (RunOutputs){.variables = map_variables,
                      .nmap = MAP_VARIABLES,
                      .nhistory = HISTORY_VARIABLES,
                      .gauges = r->gauges,
                      .ngauges = r->ngauges,
                      .restart_fields = r->maxima ? RESTART_FIELDS : SWE_STATE_FIELDS};
}

static HclStatus open_output(SweRun *r) {
  RunFrame frame = frame_of(r);
  OutputSpec base = run_output_spec(&frame, r->c);
  RunOutputs outputs = outputs_of(r);
  return run_open_files(r->rt, r->decomp, r->c, r->request, RESTART_PREFIX, &r->tl, &base, &outputs, &r->files);
}

/* The bed level in the map file and at the gauges. */
static HclStatus write_bed(SweRun *r) {
  HclStatus status = HCL_OK;
  TRY(map_write_static(r->files.map, &bed_variable, swe_depth(r->swe), -1));
  if (r->files.history) {
    TRY(history_write_static(r->files.history, &bed_variable, swe_depth(r->swe), -1));
  }
cleanup:
  return status;
}

/* The maxima so far in the map file, replacing the last frame's: after the last frame they are the run's. */
static HclStatus write_maxima(SweRun *r) {
  HclStatus status = HCL_OK;
  TRY(swe_maxima_output(r->swe, r->maxima_out));
  for (int f = 0; f < SWE_MAXIMA_FIELDS; f++) {
    TRY(map_write_static(r->files.map, &r->maxima_variables[f], r->maxima_out[f], 1));
  }
cleanup:
  return status;
}

/* Writes a map frame and a gauge sample (when there are gauges) of the present state, as asked. */
static HclStatus write_output(void *model, bool map_due, bool history_due) {
  HclStatus status = HCL_OK;
  SweRun *r = model;
  history_due = history_due && r->files.history;
  if (!map_due && !history_due) {
    return HCL_OK;
  }
  TRY(swe_centre_fields(r->swe, r->centre, case_bool(r->c, "output.mask_dry")));
  if (map_due) {
    TRY(map_write(r->files.map, r->tl.t, r->centre));
  }
  if (map_due && r->maxima) {
    TRY(write_maxima(r));
  }
  if (history_due) {
    TRY(history_write(r->files.history, r->tl.t, r->centre));
  }
cleanup:
  return status;
}

/* ---- the time loop ------------------------------------------------------------------------------------------- */

/* Logs where the water level went bad on this rank: its first NaN, else its largest level if absurd. Best
 * effort: it never fails, so every rank goes on to write the last good state. */
static void locate_divergence(SweRun *r) {
  const DecompLocal *l = decomp_local(r->decomp);
  size_t n = (size_t)l->nx * l->ny, worst = 0;
  double *zeta = malloc(n * sizeof *zeta);
  if (!zeta || field_read_owned(swe_zeta(r->swe), zeta) != HCL_OK) {
    free(zeta);
    return;
  }
  for (size_t p = 0; p < n && isfinite(zeta[worst]); p++) {
    if (!isfinite(zeta[p]) || fabs(zeta[p]) > fabs(zeta[worst])) {
      worst = p;
    }
  }
  if (!(fabs(zeta[worst]) < 1e4)) {
    double x = r->setup.x0 + (l->x0 + (double)(worst % (size_t)l->nx) + 0.5) * r->setup.config.dx;
    double y = r->setup.y0 + (l->y0 + (double)(worst / (size_t)l->nx) + 0.5) * r->setup.config.dy;
    if (isfinite(zeta[worst])) {
      log_error("water level %g m at x = %.6g m, y = %.6g m", zeta[worst], x, y);
    } else { /* a user reads no "nan" */
      log_error("the water level overflowed (it is no longer a number) at x = %.6g m, y = %.6g m", x, y);
    }
  }
  free(zeta);
}

/* The run diverged between the last checkpoint and now: go back to the checkpoint, write it as a restart and
 * stop with HCL_EDIVERGED, saying when and where. */
static HclStatus stop_diverged(SweRun *r, double speed) {
  HclStatus status = HCL_OK;
  locate_divergence(r);
  double t_bad = r->tl.t;
  int64_t step_bad = r->tl.step;
  TRY(swe_rollback(r->swe));
  TRY(write_restart(r, r->t_good, r->step_good));
  char speed_text[96];
  if (isfinite(speed)) {
    snprintf(speed_text, sizeof speed_text, "the fastest signal |u| + sqrt(g h) is %g m/s", speed);
  } else { /* a user reads no "nan" */
    snprintf(speed_text, sizeof speed_text,
             "the state overflowed (its fastest signal |u| + sqrt(g h) is no longer a number)");
  }
  FAIL(HCL_EDIVERGED,
       "the run diverged between t = %g s (step %lld) and t = %g s (step %lld), dt = %.4g s: %s; the last good state "
       "(t = %g s) is in %s/%s-%lld.nc. Check the boundary data, lower time.cfl or time.dt, or raise physics.dry_depth",
       r->t_good, (long long)r->step_good, t_bad, (long long)step_bad, r->dt, speed_text, r->t_good,
       r->request->output_dir, RESTART_PREFIX, (long long)r->step_good);
cleanup:
  return status;
}

/* The implicit step failed (its level system did not converge, or drying did not settle) between the last
 * checkpoint and now: the solver's message is logged, the checkpoint is written as a restart, and the run stops with
 * the solver's status, saying where the last good state is. */
static HclStatus stop_failed_step(SweRun *r, HclStatus failed) {
  HclStatus status = HCL_OK;
  log_error("%s", status_message());
  status_clear();
  TRY(swe_rollback(r->swe));
  TRY(write_restart(r, r->t_good, r->step_good));
  FAIL(failed,
       "the step from t = %g s (step %lld, dt = %.4g s) failed; the last good state (t = %g s) is in %s/%s-%lld.nc",
       r->tl.t, (long long)r->tl.step, r->dt, r->t_good, r->request->output_dir, RESTART_PREFIX,
       (long long)r->step_good);
cleanup:
  return status;
}

/* Every check_interval steps and before anything is written: the divergence guard, the checkpoint and the CFL
 * step. */
static HclStatus check_state(void *model) {
  HclStatus status = HCL_OK;
  SweRun *r = model;
  Speeds speeds;
  TRY(measure_speeds(r, &speeds));
  if (!(speeds.wave <= DIVERGED_SPEED)) { /* NaN compares false */
    TRY(stop_diverged(r, speeds.wave));
  }
  TRY(swe_checkpoint(r->swe));
  TRY(swe_last_residual(r->swe, &r->residual));
  r->t_good = r->tl.t;
  r->step_good = r->tl.step;
  if (r->setup.dt_fixed == 0 && !r->keep_cfl_step) {
    r->dt_cfl = cfl_limited_step(r, speeds);
  }
  r->keep_cfl_step = false;
cleanup:
  return status;
}

/* The divergence guard of check_state alone: before the restart of a stop between checks, whose CFL step must stay
 * the one the uninterrupted run goes on with. */
static HclStatus guard_state(void *model) {
  HclStatus status = HCL_OK;
  SweRun *r = model;
  Speeds speeds;
  TRY(measure_speeds(r, &speeds));
  if (!(speeds.wave <= DIVERGED_SPEED)) {
    TRY(stop_diverged(r, speeds.wave));
  }
cleanup:
  return status;
}

/* One step: as long as the CFL step allows, shrunk evenly so the next event falls exactly on a step. */
static HclStatus advance(void *model, Timeline *tl, double *dt, TimelineDue *due) {
  HclStatus status = HCL_OK;
  SweRun *r = model;
  double t_next;
  *dt = r->dt = timeline_step(tl, r->dt_cfl, &t_next);
  ASSERT(r->dt > 0); /* events lie strictly after t (schedule_start, schedule_due) */
  double levels[SWE_SIDES];
  for (int side = 0; side < SWE_SIDES; side++) {
    levels[side] = swe_level_at(&r->setup.signals[side], tl->t + r->dt);
  }
  swe_set_levels(r->swe, levels);
  HclStatus stepped = swe_step(r->swe, r->dt);
  if (stepped == HCL_ENOTCONVERGED || stepped == HCL_EDIVERGED) {
    TRY(stop_failed_step(r, stepped));
  }
  TRY(stepped);
  if (r->maxima) {
    TRY(swe_accumulate_maxima(r->swe, t_next));
  }
  SweSolveStats stats = swe_solve_stats(r->swe);
  r->solves += stats.solves;
  r->iterations += stats.iterations;
  *due = timeline_advance(tl, t_next);
cleanup:
  return status;
}

/* The implicit scheme's progress: CG iterations per step, level solves per step where drying made some steps solve
 * again, over the steps this process took, and the last checked solve's true relative residual ||b - A x|| / ||b||. */
static void describe(void *model, char *extra, size_t size) {
  const SweRun *r = model;
  int64_t steps = r->tl.step > r->first_step ? r->tl.step - r->first_step : 1;
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

static HclStatus time_loop(SweRun *r) {
  static const RunSteps steps = {.advance = advance,
                                 .check = check_state,
                                 .guard = guard_state,
                                 .write = write_output,
                                 .write_restart = write_restart,
                                 .describe = describe};
  const DecompSpec *g = decomp_spec(r->decomp);
  return run_time_loop(&steps, r, &r->tl, r->setup.check_interval, (double)g->nx * g->ny,
                       case_real(r->c, "output.progress"));
}

static HclStatus swe_run(Runtime *rt, const Case *c, const RunRequest *request) {
  HclStatus status = HCL_OK;
  SweRun r;
  signals_install();
  TRY(open_model(rt, c, request, &r));
  if (request->restart) {
    TRY(read_restart(&r));
    r.first_step = r.tl.step;
  }
  TRY(choose_step(&r, request->restart != NULL));
  TRY(open_output(&r));
  TRY(write_bed(&r));
  if (!request->restart && r.maxima) { /* the initial state; a continued run's maxima come with its restart */
    TRY(swe_accumulate_maxima(r.swe, 0));
  }
  if (!request->restart) {
    TRY(write_output(&r, true, true));
  }
  TRY(time_loop(&r));
  log_info("done: t = %g s after %lld steps; output in %s", r.tl.t, (long long)r.tl.step, request->output_dir);
cleanup:
  close_model(&r);
  return status;
}

/* ---- validate ------------------------------------------------------------------------------------------------ */

static HclStatus swe_validate(Runtime *rt, const Case *c, const RunRequest *request, FILE *out) {
  HclStatus status = HCL_OK;
  SweRun r;
  HostState initial = {0};
  TRY(open_setup(rt, c, request, &r)); /* the host side only: validate allocates nothing on the device */
  TRY(host_initial_state(&r, &initial));
  Speeds speeds = {
      .wave = swe_initial_speed(&r.setup, initial.depth, initial.zeta, initial.u, initial.v, initial.n, true),
      .flow = swe_initial_speed(&r.setup, initial.depth, initial.zeta, initial.u, initial.v, initial.n, false)};
  TRY(par_max_double(&speeds.wave));
  TRY(par_max_double(&speeds.flow));
  TRY(choose_step_for(&r, speeds, false));
  const DecompSpec *g = decomp_spec(r.decomp);
  const DeviceInfo *dev = runtime_device(rt);
  double frames = 1 + (double)schedule_count_until(&r.tl.map, r.setup.t_end); /* t = 0, the events, the end */
  RunOutputs outputs = outputs_of(&r);
  RunOutputSize size = run_output_size(r.decomp, c, &r.tl, &outputs, case_bool(c, "output.double"), true);
  if (par_rank() == 0) {
    fprintf(out, "case is valid: %s\n", case_string(c, "model.title"));
    fprintf(out, "grid: %d x %d cells of %g x %g m, %d x %d ranks\n", g->nx, g->ny, r.setup.config.dx,
            r.setup.config.dy, g->px, g->py);
    run_print_crs(r.setup.crs, out);
    fprintf(out, "time step: %s %.4g s (CFL %g at the start), about %.0f steps to t = %g s\n",
            r.setup.dt_fixed > 0 ? "fixed" : "CFL-limited, at first", r.dt_cfl, r.setup.cfl,
            ceil(r.setup.t_end / r.dt_cfl), r.setup.t_end);
    if (implicit_scheme(&r)) {
      double courant = r.dt_cfl * signal_speed(&r, speeds.wave) /
                       cfl_step(&r.setup.config, 1.0, 1.0); /* the step over the explicit CFL limit */
      fprintf(out,
              "scheme: implicit, theta %g, level system by CG + %s; gravity-wave Courant number %.3g at the "
              "start (the explicit scheme's limit: 1)\n",
              r.setup.config.theta, stencil5_precond_name(c, SWE_SOLVER_PREFIX), courant);
    }
    double largest_field, bytes = bytes_per_rank(&r, &largest_field);
    const DecompLocal *l = decomp_local(r.decomp);
    fprintf(out, "device memory: %.3g MB per rank of %.3g MB on %s (%.0f bytes per cell)\n", bytes / 1e6,
            (double)dev->global_mem_bytes / 1e6, dev->device_name, bytes / ((double)l->nx * l->ny));
    fprintf(out, "output: %.0f map frames of %.3g MB uncompressed; %d gauges; restarts of %.3g MB\n", frames,
            size.map / frames / 1e6, r.ngauges, (double)g->nx * g->ny * SWE_STATE_FIELDS * 8 / 1e6);
  }
  TRY(run_check_output_size(c, request, &size, out));
cleanup:
  host_state_free(&initial);
  close_model(&r);
  return status;
}

static HclStatus swe_case_check(const Case *c) {
  SweSetup setup;
  HclStatus status = swe_setup_from_case(c, PRECISION_DOUBLE, &setup);
  swe_setup_free(&setup);
  return status;
}

const Model swe_model = {
    .name = "shallow-water",
    .title = "hydrocl shallow-water case (Stelling & Duinmeijer, explicit, with wetting and drying)",
    .schema = swe_case_schema,
    .validate = swe_validate,
    .run = swe_run,
    .check = swe_case_check,
};
