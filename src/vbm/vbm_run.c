/* SPDX-License-Identifier: BSD-3-Clause */
/* vbm_run.c: a variational Boussinesq case as the harness runs and validates it (harness.h): the model (vbm.h) at
 * its fixed step, the ships placed every stage, the divergence guard, the map, history and restart fields, progress
 * lines with CG iterations per frame, and with --realtime the simulated time kept in step with the wall clock (a
 * simulator's frames).
 *
 * Determinism: the step is fixed and a restart holds both leapfrog levels and psi, so a continued run repeats the
 * steps of an uninterrupted one bit for bit. */
#include "model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "log.h"
#include "par.h"
#include "stencil5_precond.h"
#include "vbm.h"
#include "vbm_case.h"

/* Map and gauge variables: the present level. */
static const OutputVariable map_variables[] = {
    {"zeta", "sea_surface_height_above_mean_sea_level", "surface elevation above the still water", "m", NULL, false},
    {"phi", NULL, "velocity potential at the surface", "m2 s-1", NULL, false},
};
enum { MAP_VARIABLES = 2, HISTORY_VARIABLES = 2 };
static const OutputVariable depth_variable = {
    "depth", "sea_floor_depth_below_mean_sea_level", "still-water depth (0 on land)", "m", NULL, false};
static const OutputVariable maxima_variables[VBM_MAXIMA_FIELDS] = {
    {"zeta_max", NULL, "highest surface elevation over the run (0 on land)", "m", NULL, false},
    {"zeta_min", NULL, "lowest surface elevation over the run (0 on land)", "m", NULL, false},
};
/* A restart: the leapfrog's two levels by their steps' parity and psi (hcl_vbm_state_fields), then the maxima where
 * kept. */
static const OutputVariable state_variables[VBM_STATE_FIELDS + VBM_MAXIMA_FIELDS] = {
    {"zeta_even", NULL, "surface elevation at the last even step", "m", NULL, false},
    {"phi_even", NULL, "surface potential at the last even step", "m2 s-1", NULL, false},
    {"zeta_odd", NULL, "surface elevation at the last odd step", "m", NULL, false},
    {"phi_odd", NULL, "surface potential at the last odd step", "m2 s-1", NULL, false},
    {"psi_even", NULL, "the shape's amplitude at the last even step (the next solves' start)", "m s-1", NULL, false},
    {"psi_odd", NULL, "the shape's amplitude at the last odd step", "m s-1", NULL, false},
    {"zeta_max", NULL, "highest surface elevation so far", "m", NULL, false},
    {"zeta_min", NULL, "lowest surface elevation so far", "m", NULL, false},
};
enum { RESTART_FIELDS = VBM_STATE_FIELDS + VBM_MAXIMA_FIELDS };

typedef struct {
  RunContext run; /* first: the harness's */
  VbmSetup setup;
  Vbm *vbm;
  bool maxima;
  int64_t iterations;         /* CG iterations in this process */
  double wall_start, t_start; /* --realtime: the wall clock and the simulated time at the first step */
  int64_t late_frames;        /* --realtime: frames that ended after their deadline */
  double worst_lateness;      /* s */
  double residual;            /* the last psi solve's true relative residual at the last check (NAN: none) */
  NamedPoint *ship_points;    /* ships.nc's stations: each ship's name and its place at t = 0 */
  double *ship_sizes;         /* ships.nc's constants: [length, beam, draft][ship] */
} VbmRun;

/* The run state a ModelOps function gets (its RunContext comes first). */
static VbmRun *vbm_run_of(const RunContext *run) {
  return (VbmRun *)run;
}

static double wall_seconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

/* ---- set-up -------------------------------------------------------------------------------------------------- */

typedef struct {
  size_t n;
  double *depth, *zeta, *phi, *u, *v;
} HostState;

static void host_state_free(HostState *h) {
  free(h->depth);
  free(h->zeta);
  free(h->phi);
  free(h->u);
  free(h->v);
}

static HclStatus host_initial_state(VbmRun *r, HostState *h) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = hcl_decomp_local(r->run.decomp);
  h->n = (size_t)l->nx * l->ny;
  double **arrays[] = {&h->depth, &h->zeta, &h->phi, &h->u, &h->v};
  bool allocated = true;
  for (int a = 0; a < 5; a++) {
    *arrays[a] = malloc(h->n * sizeof **arrays[a]);
    allocated = allocated && *arrays[a];
  }
  TRY(hcl_par_agree(allocated ? HCL_OK
                              : hcl_status_set(HCL_ENOMEM, __FILE__, __LINE__,
                                               "cannot allocate the initial state of %zu cells", h->n)));
  vbm_initial_state(&r->setup, r->run.decomp, h->depth, h->zeta, h->phi, h->u, h->v);
cleanup:
  return status;
}

static double device_bytes(const RunContext *run, double *largest_field) {
  const DecompLocal *l = hcl_decomp_local(run->decomp);
  return hcl_vbm_device_bytes(l->nx, l->ny, run->request->precision, vbm_run_of(run)->maxima, largest_field);
}

/* ships.nc: each ship's track as the run sails it, sampled at the history times: its centre, heading and speed, with
 * its length, beam and draft, the stations named by the ships (at their places at t = 0). */
static const OutputVariable ship_series_variables[] = {
    {"ship_x", "projection_x_coordinate", "x of the ship's centre (in double, as every coordinate)", "m", NULL, false},
    {"ship_y", "projection_y_coordinate", "y of the ship's centre (in double, as every coordinate)", "m", NULL, false},
    {"ship_heading", NULL, "the ship's heading, counter-clockwise from the grid's x axis", "degree", NULL, false},
    {"ship_speed", NULL, "the ship's speed over the ground", "m s-1", NULL, false},
};
enum { SHIP_SERIES = 4 };
static const OutputVariable ship_size_variables[] = {
    {"ship_length", NULL, "length of the ship's pressure pulse (the hull)", "m", NULL, false},
    {"ship_beam", NULL, "beam of the ship's pressure pulse", "m", NULL, false},
    {"ship_draft", NULL, "the ship's draft", "m", NULL, false},
};
enum { SHIP_SIZES = 3 };

/* ships.nc's stations and constants, from the setup's ships. */
static HclStatus prepare_ships(VbmRun *r) {
  HclStatus status = HCL_OK;
  int n = r->setup.nships;
  TRY_ALLOC(r->ship_points, n + 1);
  TRY_ALLOC(r->ship_sizes, (size_t)SHIP_SIZES * n + 1);
  for (int k = 0; k < n; k++) {
    const ShipSpec *ship = &r->setup.ships[k];
    double heading = 0;
    snprintf(r->ship_points[k].name, sizeof r->ship_points[k].name, "%s", ship->name);
    snprintf(r->ship_points[k].origin, sizeof r->ship_points[k].origin, "%.300s", ship->origin);
    ship_track_at(&ship->track, 0, &r->ship_points[k].x, &r->ship_points[k].y, &heading);
    double sizes[SHIP_SIZES] = {ship->length, ship->beam, ship->draft};
    for (int v = 0; v < SHIP_SIZES; v++) {
      r->ship_sizes[(size_t)v * n + k] = sizes[v];
    }
  }
cleanup:
  return status;
}

static HclStatus read_case(RunContext *run) {
  HclStatus status = HCL_OK;
  VbmRun *r = vbm_run_of(run);
  r->residual = NAN;
  TRY(vbm_setup_from_case(run->c, run->request->precision, &r->setup));
  r->maxima = hcl_case_bool(run->c, "output.maxima");
  run->grid = &r->setup.grid;
  TRY(prepare_ships(r));
cleanup:
  return status;
}

static HclStatus open_model(RunContext *run) {
  HclStatus status = HCL_OK;
  VbmRun *r = vbm_run_of(run);
  HostState h = {0};
  Precond *pc = NULL;
  TRY(hcl_vbm_create(run->rt, run->decomp, &r->setup.config, &r->vbm));
  TRY(host_initial_state(r, &h));
  TRY(hcl_stencil5_precond_from_case(run->c, VBM_SOLVER_PREFIX, &pc));
  TRY(hcl_vbm_set_preconditioner(r->vbm, pc)); /* which owns it from here on */
  TRY(hcl_vbm_set_state(r->vbm, h.depth, h.zeta, h.phi, h.u, h.v));
  TRY(hcl_vbm_set_ships(r->vbm, r->setup.nships, vbm_setup_place_ships, &r->setup));
  if (r->setup.nwaves > 0) {
    TRY(hcl_vbm_set_incident(r->vbm, r->setup.incident_side, r->setup.waves, r->setup.nwaves, r->setup.incident_ramp));
  }
  if (r->maxima) {
    TRY(hcl_vbm_enable_maxima(r->vbm));
  }
cleanup:
  host_state_free(&h);
  return status;
}

static void close_model(RunContext *run) {
  VbmRun *r = vbm_run_of(run);
  hcl_vbm_destroy(&r->vbm);
  vbm_setup_free(&r->setup);
  free(r->ship_points);
  free(r->ship_sizes);
}

/* ---- restarts ------------------------------------------------------------------------------------------------ */

static int restart_fields(RunContext *run, Field **fields, OutputVariable *variables, int *required) {
  VbmRun *r = vbm_run_of(run);
  hcl_vbm_state_fields(r->vbm, fields);
  *required = VBM_STATE_FIELDS;
  if (r->maxima) {
    hcl_vbm_maxima_fields(r->vbm, fields + VBM_STATE_FIELDS);
    *required = RESTART_FIELDS;
  }
  memcpy(variables, state_variables, sizeof state_variables);
  return *required;
}

/* The step, which a continued run must share: leapfrog continues only at its own step. */
static int restart_scalars(const RunContext *run, RestartScalar *scalars, int *required) {
  scalars[0] = (RestartScalar){"dt", vbm_run_of(run)->setup.dt, "the fixed time step", "s"};
  return *required = 1;
}

static Field *bed(RunContext *run) {
  return hcl_vbm_depth(vbm_run_of(run)->vbm);
}

/* Both levels, psi and the maxima are read; the step must be this case's. */
static HclStatus resume(RunContext *run, const char *path, const RestartScalar *scalars) {
  HclStatus status = HCL_OK;
  VbmRun *r = vbm_run_of(run);
  double dt = scalars[2].value;
  REQUIRE(fabs(dt - r->setup.dt) <= 1e-12 * r->setup.dt, HCL_EDATA,
          "%s was written with a step of %.10g s and this case's is %.10g s: leapfrog continues only at its own step "
          "(set time.dt: %.10g)",
          path, dt, r->setup.dt, dt);
  TRY(hcl_vbm_sync_state(r->vbm, r->setup.dt, (int64_t)scalars[1].value));
cleanup:
  return status;
}

/* ---- output -------------------------------------------------------------------------------------------------- */

/* Where the files place the cells' centres, and what they say of themselves. */
static OutputFrame frame_of(const RunContext *run) {
  const VbmSetup *s = &vbm_run_of(run)->setup;
  return run_cell_frame(run->c, run->source, s->time_units, s->x0, s->y0, s->config.dx, s->config.dy, s->crs);
}

static void outputs_of(const RunContext *run, RunOutputs *outputs, SeriesLayout *series) {
  const VbmRun *r = vbm_run_of(run);
  *series = (SeriesLayout){.stations = r->ship_points,
                           .nstations = r->setup.nships,
                           .station_series = ship_series_variables,
                           .nstation_series = SHIP_SERIES,
                           .station_constants = ship_size_variables,
                           .nstation_constants = SHIP_SIZES,
                           .constant_values = r->ship_sizes,
                           .moving = true};
  *outputs = (RunOutputs){.variables = map_variables,
                          .nmap = MAP_VARIABLES,
                          .nhistory = HISTORY_VARIABLES,
                          .series_name = r->setup.nships > 0 ? "ships.nc" : NULL,
                          .series = series,
                          .restart_fields = r->maxima ? RESTART_FIELDS : VBM_STATE_FIELDS};
}

/* One sample of ships.nc at time t: [x, y, heading, speed][ship]. The speed is the larger of the track's over the half
 * second before t and the half second after (exact on a leg of constant speed, and at a track's first and last
 * point, where the ship waits before its start and after its end). */
static HclStatus write_ships(VbmRun *r, double t) {
  HclStatus status = HCL_OK;
  static const double HALF_SPAN = 0.5; /* s */
  int n = r->setup.nships;
  double *values = NULL;
  TRY_ALLOC(values, (size_t)SHIP_SERIES * n + 1);
  for (int k = 0; k < n; k++) {
    const ShipTrack *track = &r->setup.ships[k].track;
    double x, y, heading, before[3], after[3];
    ship_track_at(track, t, &x, &y, &heading);
    ship_track_at(track, t - HALF_SPAN, &before[0], &before[1], &before[2]);
    ship_track_at(track, t + HALF_SPAN, &after[0], &after[1], &after[2]);
    double speed = fmax(hypot(x - before[0], y - before[1]), hypot(after[0] - x, after[1] - y)) / HALF_SPAN;
    double sample[SHIP_SERIES] = {x, y, fmod(heading * 180 / 3.14159265358979323846 + 360, 360), speed};
    for (int v = 0; v < SHIP_SERIES; v++) {
      values[(size_t)v * n + k] = sample[v];
    }
  }
  SeriesSample ships = {.station_values = values};
  TRY(hcl_series_write(r->run.files.series, t, &ships));
cleanup:
  free(values);
  return status;
}

static HclStatus write_depth(RunContext *run) {
  return run_write_static(run, &depth_variable, hcl_vbm_depth(vbm_run_of(run)->vbm), 1);
}

static HclStatus write_output(RunContext *run, bool map_due, bool history_due) {
  HclStatus status = HCL_OK;
  VbmRun *r = vbm_run_of(run);
  Field *fields[MAP_VARIABLES] = {hcl_vbm_zeta(r->vbm), hcl_vbm_phi(r->vbm)};
  TRY(run_write_sample(run, fields, map_due, history_due));
  if (history_due && run->files.series) {
    TRY(write_ships(r, run->tl.t));
  }
  if (map_due && r->maxima) {
    Field *maxima[VBM_MAXIMA_FIELDS];
    hcl_vbm_maxima_fields(r->vbm, maxima);
    for (int f = 0; f < VBM_MAXIMA_FIELDS; f++) {
      TRY(hcl_map_write_static(run->files.map, &maxima_variables[f], maxima[f], 1));
    }
  }
cleanup:
  return status;
}

/* ---- the time loop ------------------------------------------------------------------------------------------- */

/* A linear model's surface that reaches this far from still water has blown up. */
static const double DIVERGED_RMS = 1e3;

static HclStatus check_state(RunContext *run, bool save) {
  HclStatus status = HCL_OK;
  VbmRun *r = vbm_run_of(run);
  double rms = 0;
  TRY(hcl_vbm_surface_rms(r->vbm, &rms));
  if (!(rms <= DIVERGED_RMS)) { /* NaN compares false */
    hcl_log_error("the surface's root mean square is %g m", rms);
    run_log_worst(run, hcl_vbm_zeta(r->vbm), "surface elevation");
    TRY(run_stop_at_good(run, HCL_EDIVERGED, false,
                         "the run diverged (lower time.dt or time.cfl; with a current, check its speed)"));
  }
  if (save) {
    TRY(hcl_vbm_checkpoint(r->vbm));
    TRY(hcl_vbm_last_residual(r->vbm, &r->residual));
  }
cleanup:
  return status;
}

static HclStatus rollback(RunContext *run) {
  return hcl_vbm_rollback(vbm_run_of(run)->vbm);
}

/* --realtime: waits until the wall clock reaches the simulated time t, or counts the frame late. */
static void keep_real_time(VbmRun *r, double t) {
  if (r->wall_start == 0) {
    r->wall_start = wall_seconds();
    r->t_start = r->run.tl.t;
    return;
  }
  double ahead = (t - r->t_start) - (wall_seconds() - r->wall_start);
  if (ahead > 0) {
    struct timespec pause = {.tv_sec = (time_t)ahead, .tv_nsec = (long)(1e9 * (ahead - floor(ahead)))};
    nanosleep(&pause, NULL);
  } else if (-ahead > r->setup.dt) {
    if (r->late_frames++ == 0) {
      hcl_log_warn("realtime: the frame at t = %g s ended %.3g s after its deadline: the model runs slower than the "
                   "wall clock (a coarser grid, a longer time.dt or a faster device would keep up)",
                   t, -ahead);
    }
    r->worst_lateness = fmax(r->worst_lateness, -ahead);
  }
}

static HclStatus advance(RunContext *run, TimelineDue *due) {
  HclStatus status = HCL_OK;
  VbmRun *r = vbm_run_of(run);
  double t_next;
  run->dt = timeline_step(&run->tl, r->setup.dt, &t_next);
  ASSERT(fabs(run->dt - r->setup.dt) <= 1e-6 * r->setup.dt); /* every event a whole number of steps (vbm_case.c) */
  HclStatus stepped = hcl_vbm_step(r->vbm, run->tl.t, r->setup.dt);
  if (stepped == HCL_ENOTCONVERGED) {
    hcl_log_error("%s", hcl_status_message());
    hcl_status_clear();
    TRY(run_stop_at_good(run, stepped, true, "the psi system did not converge"));
  }
  TRY(stepped);
  if (r->maxima) {
    TRY(hcl_vbm_accumulate_maxima(r->vbm));
  }
  r->iterations += hcl_vbm_solve_stats(r->vbm).iterations;
  if (run->request->realtime) {
    keep_real_time(r, t_next);
  }
  *due = timeline_advance(&run->tl, t_next);
cleanup:
  return status;
}

static void describe(const RunContext *run, char *extra, size_t size) {
  const VbmRun *r = vbm_run_of(run);
  int64_t steps = run->tl.step > run->first_step ? run->tl.step - run->first_step : 1;
  int written = snprintf(extra, size, "cg=%.2f", (double)r->iterations / (double)steps);
  if (isfinite(r->residual) && written > 0 && (size_t)written < size) { /* the last checked solve's ||b - Ax||/||b|| */
    written += snprintf(extra + written, size - (size_t)written, " res=%.1e", r->residual);
  }
  if (run->request->realtime && written > 0 && (size_t)written < size) {
    snprintf(extra + written, size - (size_t)written, " late=%lld", (long long)r->late_frames);
  }
}

static void finish(RunContext *run) {
  const VbmRun *r = vbm_run_of(run);
  if (run->request->realtime) {
    hcl_log_info("realtime: %lld of %lld frames ended after their deadline (the latest by %.3g s)",
                 (long long)r->late_frames, (long long)(run->tl.step - run->first_step), r->worst_lateness);
  }
}

/* A starting surface that the divergence guard would stop at once is the case's mistake: refused before any file is
 * made. */
static HclStatus check_start(RunContext *run) {
  HclStatus status = HCL_OK;
  double rms = 0;
  TRY(hcl_vbm_surface_rms(vbm_run_of(run)->vbm, &rms));
  REQUIRE(rms <= DIVERGED_RMS, HCL_EDATA,
          "%s: the starting surface's root mean square is %g m, beyond the %g m at which a run counts as diverged "
          "(check initial.height, or the restart)",
          hcl_case_origin(run->c, "initial.height"), rms, DIVERGED_RMS);
cleanup:
  return status;
}

/* ---- validate ------------------------------------------------------------------------------------------------ */

static void print_case(const RunContext *run, FILE *out) {
  const VbmSetup *s = &vbm_run_of(run)->setup;
  const DecompSpec *g = run->grid;
  double limit = hcl_vbm_stable_step(s->config.g, s->max_depth, s->config.kappa, s->config.dx, s->config.dy,
                                     s->max_current[0], s->max_current[1]);
  fprintf(out, "grid: %d x %d cells of %g x %g m, %d x %d ranks; depth up to %g m\n", g->nx, g->ny, s->config.dx,
          s->config.dy, g->px, g->py, s->max_depth);
  run_print_crs(s->crs, out);
  run_print_source(run->c, "bed.file", &s->bed_source, out);
  run_print_source(run->c, "land.file", &s->land_source, out);
  run_print_source(run->c, "current.file", &s->current_source, out);
  fprintf(out, "time step: %.6g s (%.3g of leapfrog's limit %.4g s), %.0f steps to t = %g s\n", s->dt, s->dt / limit,
          limit, round(s->t_end / s->dt), s->t_end);
  fprintf(out, "ships: %d; incident waves: %d; psi system by CG + %s\n", s->nships, s->nwaves,
          hcl_stencil5_precond_name(run->c, VBM_SOLVER_PREFIX));
  for (int k = 0; k < s->nships; k++) {
    char track[256];
    ship_track_describe(&s->ships[k].track, track, sizeof track);
    fprintf(out, "ship '%s' (%s): %g x %g m, draft %g m; %s\n", s->ships[k].name, s->ships[k].origin,
            s->ships[k].length, s->ships[k].beam, s->ships[k].draft, track);
  }
}

static HclStatus vbm_case_check(const Case *c) {
  VbmSetup setup;
  HclStatus status = vbm_setup_from_case(c, PRECISION_DOUBLE, &setup);
  vbm_setup_free(&setup);
  return status;
}

static const ModelOps vbm_ops = {
    .run_size = sizeof(VbmRun),
    .check_interval = "50",
    .point = "cell",
    .read_case = read_case,
    .device_bytes = device_bytes,
    .frame = frame_of,
    .outputs = outputs_of,
    .close = close_model,
    .print = print_case,
    .open = open_model,
    .restart_fields = restart_fields,
    .restart_scalars = restart_scalars,
    .bed = bed,
    .resume = resume,
    .start = check_start,
    .write_static = write_depth,
    .write = write_output,
    .advance = advance,
    .check = check_state,
    .rollback = rollback,
    .describe = describe,
    .finish = finish,
};

const Model vbm_model = {
    .name = "variational-boussinesq",
    .title = "hydrocl variational Boussinesq case (linearized VBM: ship waves, currents, harbours; RRB-PCG)",
    .schema = vbm_case_schema,
    .check = vbm_case_check,
    .capabilities = MODEL_REALTIME,
    .ops = &vbm_ops,
};
