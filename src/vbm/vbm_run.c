/* SPDX-License-Identifier: BSD-3-Clause */
/* vbm_run.c: `hydrocl run` and `hydrocl validate` of a variational Boussinesq case (model.h): the time loop around
 * the model (vbm.h) at its fixed step, the ships placed every stage, the divergence guard, map, history and restart
 * output, progress lines with CG iterations per frame, clean stops on SIGTERM/SIGUSR1, and with --realtime the
 * simulated time kept in step with the wall clock (a simulator's frames).
 *
 * Determinism: the step is fixed and a restart holds both leapfrog levels and psi, so a continued run repeats the
 * steps of an uninterrupted one bit for bit. */
#include "model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "history.h"
#include "log.h"
#include "mapfile.h"
#include "par.h"
#include "restart.h"
#include "run.h"
#include "schedule.h"
#include "signals.h"
#include "stencil5_precond.h"
#include "vbm.h"
#include "vbm_case.h"
#include "version.h"

enum { PATH_SIZE = 1024 };
static const char *const RESTART_PREFIX = "restart";

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
/* A restart: the leapfrog's two levels by their steps' parity and psi (vbm_state_fields), then the maxima where
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
  const Case *c;
  const RunRequest *request;
  Runtime *rt;
  VbmSetup setup;
  Decomp *decomp;
  Vbm *vbm;
  bool maxima;
  RunFiles files;
  Gauge *gauges;
  int ngauges;
  Timeline tl;
  double t_good;
  int64_t step_good;
  int64_t iterations, first_step; /* CG iterations in this process, and the step it started from */
  double wall_start, t_start;     /* --realtime: the wall clock and the simulated time at the first step */
  int64_t late_frames;            /* --realtime: frames that ended after their deadline */
  double worst_lateness;          /* s */
  double residual;                /* the last psi solve's true relative residual at the last check (NAN: none) */
  char source[256];
} VbmRun;

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
  const DecompLocal *l = decomp_local(r->decomp);
  h->n = (size_t)l->nx * l->ny;
  double **arrays[] = {&h->depth, &h->zeta, &h->phi, &h->u, &h->v};
  bool allocated = true;
  for (int a = 0; a < 5; a++) {
    *arrays[a] = malloc(h->n * sizeof **arrays[a]);
    allocated = allocated && *arrays[a];
  }
  TRY(par_agree(
      allocated ? HCL_OK
                : status_set(HCL_ENOMEM, __FILE__, __LINE__, "cannot allocate the initial state of %zu cells", h->n)));
  vbm_initial_state(&r->setup, r->decomp, h->depth, h->zeta, h->phi, h->u, h->v);
cleanup:
  return status;
}

static double bytes_per_rank(const VbmRun *r, double *largest_field) {
  const DecompLocal *l = decomp_local(r->decomp);
  return vbm_device_bytes(l->nx, l->ny, r->request->precision, r->maxima, largest_field);
}

static HclStatus open_setup(Runtime *rt, const Case *c, const RunRequest *request, VbmRun *r) {
  HclStatus status = HCL_OK;
  memset(r, 0, sizeof *r);
  r->residual = NAN;
  r->c = c;
  r->request = request;
  r->rt = rt;
  TRY(vbm_setup_from_case(c, request->precision, &r->setup));
  r->maxima = case_bool(c, "output.maxima");
  TRY(run_create_decomp(c, &r->setup.grid, &r->decomp));
  TRY(run_read_cell_gauges(c, r->setup.x0, r->setup.y0, r->setup.config.dx, r->setup.config.dy, r->setup.grid.nx,
                           r->setup.grid.ny, &r->gauges, &r->ngauges));
  double largest_field, needed = bytes_per_rank(r, &largest_field);
  TRY(run_check_device_memory(rt, r->decomp, needed, largest_field, "cells"));
  double history_interval = case_real(c, "output.history_interval");
  if (history_interval == 0) {
    history_interval = case_real(c, "output.interval");
  }
  timeline_start(&r->tl, r->setup.t_end, case_real(c, "output.interval"), r->ngauges > 0 ? history_interval : 0,
                 case_real(c, "restart.interval"), 0, 0);
  snprintf(r->source, sizeof r->source, "hydrocl %s (%s), %s, %s", HYDROCL_VERSION, HYDROCL_GIT,
           runtime_device(rt)->device_name, precision_name(request->precision));
cleanup:
  return status;
}

static HclStatus open_model(Runtime *rt, const Case *c, const RunRequest *request, VbmRun *r) {
  HclStatus status = HCL_OK;
  HostState h = {0};
  Precond *pc = NULL;
  TRY(open_setup(rt, c, request, r));
  TRY(vbm_create(rt, r->decomp, &r->setup.config, &r->vbm));
  TRY(host_initial_state(r, &h));
  TRY(stencil5_precond_from_case(c, VBM_SOLVER_PREFIX, &pc));
  TRY(vbm_set_preconditioner(r->vbm, pc)); /* which owns it from here on */
  TRY(vbm_set_state(r->vbm, h.depth, h.zeta, h.phi, h.u, h.v));
  TRY(vbm_set_ships(r->vbm, r->setup.nships, vbm_setup_place_ships, &r->setup));
  if (r->setup.nwaves > 0) {
    TRY(vbm_set_incident(r->vbm, r->setup.incident_side, r->setup.waves, r->setup.nwaves, r->setup.incident_ramp));
  }
  if (r->maxima) {
    TRY(vbm_enable_maxima(r->vbm));
  }
cleanup:
  host_state_free(&h);
  return status;
}

static void close_model(VbmRun *r) {
  run_close_files(&r->files);
  vbm_destroy(&r->vbm);
  decomp_destroy(&r->decomp);
  free(r->gauges);
  vbm_setup_free(&r->setup);
}

/* ---- restarts ------------------------------------------------------------------------------------------------ */

static int restart_fields(VbmRun *r, Field *fields[RESTART_FIELDS]) {
  vbm_state_fields(r->vbm, fields);
  if (!r->maxima) {
    return VBM_STATE_FIELDS;
  }
  vbm_maxima_fields(r->vbm, fields + VBM_STATE_FIELDS);
  return RESTART_FIELDS;
}

/* Where the files place the cells' centres, and what they say of themselves. */
static RunFrame frame_of(const VbmRun *r) {
  return run_cell_frame(r->c, r->source, r->setup.time_units, r->setup.x0, r->setup.y0, r->setup.config.dx,
                        r->setup.config.dy, r->setup.crs);
}

/* A restart's metadata, and what a continued run must share with it (run_check_restart). */
static RestartSpec restart_spec(VbmRun *r) {
  RunFrame frame = frame_of(r);
  return run_restart_spec(&frame, state_variables, vbm_depth(r->vbm));
}

static HclStatus write_restart(void *model, double t, int64_t step) {
  HclStatus status = HCL_OK;
  VbmRun *r = model;
  Field *fields[RESTART_FIELDS];
  RestartSpec base = restart_spec(r);
  RestartScalar scalars[] = {{"time", t, "time", NULL}, {"dt", r->setup.dt, "the fixed time step", "s"}};
  int nfields = restart_fields(r, fields);
  TRY(run_write_restart(r->c, r->request, &r->files, RESTART_PREFIX, &base, step, fields, nfields, scalars, 2));
cleanup:
  return status;
}

/* Continues from request->restart: both levels, psi, the maxima, time and step; the step must be this case's. */
static HclStatus read_restart(VbmRun *r) {
  HclStatus status = HCL_OK;
  Field *fields[RESTART_FIELDS];
  char path[PATH_SIZE];
  RestartScalar scalars[] = {{.name = "time"}, {.name = "step"}, {.name = "dt"}};
  RestartSpec base = restart_spec(r);
  TRY(run_restart_path(r->request, RESTART_PREFIX, path, sizeof path));
  TRY(run_check_restart(r->c, r->request, path, &base));
  TRY(restart_read(path, fields, restart_fields(r, fields), scalars, 3));
  REQUIRE(fabs(scalars[2].value - r->setup.dt) <= 1e-12 * r->setup.dt, HCL_EDATA,
          "%s was written with a step of %.10g s and this case's is %.10g s: leapfrog continues only at its own step "
          "(set time.dt: %.10g)",
          path, scalars[2].value, r->setup.dt, scalars[2].value);
  TRY(vbm_sync_state(r->vbm, r->setup.dt, (int64_t)scalars[1].value));
  TRY(run_resume(&r->tl, path, scalars[0].value, (int64_t)scalars[1].value));
cleanup:
  return status;
}

/* ---- output -------------------------------------------------------------------------------------------------- */

static RunOutputs outputs_of(const VbmRun *r) {
  return (RunOutputs){.variables = map_variables,
                      .nmap = MAP_VARIABLES,
                      .nhistory = HISTORY_VARIABLES,
                      .gauges = r->gauges,
                      .ngauges = r->ngauges,
                      .restart_fields = r->maxima ? RESTART_FIELDS : VBM_STATE_FIELDS};
}

static HclStatus open_output(VbmRun *r) {
  HclStatus status = HCL_OK;
  RunFrame frame = frame_of(r);
  OutputSpec base = run_output_spec(&frame, r->c);
  RunOutputs outputs = outputs_of(r);
  TRY(run_open_files(r->rt, r->decomp, r->c, r->request, RESTART_PREFIX, &r->tl, &base, &outputs, &r->files));
  TRY(map_write_static(r->files.map, &depth_variable, vbm_depth(r->vbm), 1));
  if (r->files.history) {
    TRY(history_write_static(r->files.history, &depth_variable, vbm_depth(r->vbm), 1));
  }
cleanup:
  return status;
}

static HclStatus write_output(void *model, bool map_due, bool history_due) {
  HclStatus status = HCL_OK;
  VbmRun *r = model;
  Field *fields[MAP_VARIABLES] = {vbm_zeta(r->vbm), vbm_phi(r->vbm)};
  if (map_due) {
    TRY(map_write(r->files.map, r->tl.t, fields));
  }
  if (map_due && r->maxima) {
    Field *maxima[VBM_MAXIMA_FIELDS];
    vbm_maxima_fields(r->vbm, maxima);
    for (int f = 0; f < VBM_MAXIMA_FIELDS; f++) {
      TRY(map_write_static(r->files.map, &maxima_variables[f], maxima[f], 1));
    }
  }
  if (history_due && r->files.history) {
    TRY(history_write(r->files.history, r->tl.t, fields));
  }
cleanup:
  return status;
}

/* ---- the time loop ------------------------------------------------------------------------------------------- */

/* The last good state written as a restart, and the run stopped with `failed`, saying when and where it is. */
static HclStatus stop_at_checkpoint(VbmRun *r, HclStatus failed, const char *what) {
  HclStatus status = HCL_OK;
  double t_bad = r->tl.t;
  int64_t step_bad = r->tl.step;
  TRY(vbm_rollback(r->vbm));
  TRY(write_restart(r, r->t_good, r->step_good));
  FAIL(failed,
       "%s between t = %g s (step %lld) and t = %g s (step %lld), dt = %.4g s; the last good state (t = %g s) is in "
       "%s/%s-%lld.nc",
       what, r->t_good, (long long)r->step_good, t_bad, (long long)step_bad, r->setup.dt, r->t_good,
       r->request->output_dir, RESTART_PREFIX, (long long)r->step_good);
cleanup:
  return status;
}

/* Logs where the surface went bad on this rank: its first NaN, else its largest elevation. Best effort: it never
 * fails, so every rank goes on to write the last good state. */
static void locate_divergence(VbmRun *r) {
  const DecompLocal *l = decomp_local(r->decomp);
  size_t n = (size_t)l->nx * l->ny, worst = 0;
  double *zeta = malloc(n * sizeof *zeta);
  if (!zeta || field_read_owned(vbm_zeta(r->vbm), zeta) != HCL_OK) {
    free(zeta);
    return;
  }
  for (size_t p = 0; p < n && isfinite(zeta[worst]); p++) {
    if (!isfinite(zeta[p]) || fabs(zeta[p]) > fabs(zeta[worst])) {
      worst = p;
    }
  }
  double x = r->setup.x0 + (l->x0 + (double)(worst % (size_t)l->nx) + 0.5) * r->setup.config.dx;
  double y = r->setup.y0 + (l->y0 + (double)(worst / (size_t)l->nx) + 0.5) * r->setup.config.dy;
  log_error("surface elevation %g m at x = %.6g m, y = %.6g m", zeta[worst], x, y);
  free(zeta);
}

/* A linear model's surface that reaches this far from still water has blown up. */
static const double DIVERGED_RMS = 1e3;

static HclStatus check_state(void *model) {
  HclStatus status = HCL_OK;
  VbmRun *r = model;
  double rms = 0;
  TRY(vbm_surface_rms(r->vbm, &rms));
  if (!(rms <= DIVERGED_RMS)) { /* NaN compares false */
    log_error("the surface's root mean square is %g m", rms);
    locate_divergence(r);
    TRY(stop_at_checkpoint(r, HCL_EDIVERGED,
                           "the run diverged (lower time.dt or time.cfl; with a current, check its speed)"));
  }
  TRY(vbm_checkpoint(r->vbm));
  TRY(vbm_last_residual(r->vbm, &r->residual));
  r->t_good = r->tl.t;
  r->step_good = r->tl.step;
cleanup:
  return status;
}

/* --realtime: waits until the wall clock reaches the simulated time t, or counts the frame late. */
static void keep_real_time(VbmRun *r, double t) {
  if (r->wall_start == 0) {
    r->wall_start = wall_seconds();
    r->t_start = r->tl.t;
    return;
  }
  double ahead = (t - r->t_start) - (wall_seconds() - r->wall_start);
  if (ahead > 0) {
    struct timespec pause = {.tv_sec = (time_t)ahead, .tv_nsec = (long)(1e9 * (ahead - floor(ahead)))};
    nanosleep(&pause, NULL);
  } else if (-ahead > r->setup.dt) {
    if (r->late_frames++ == 0) {
      log_warn("realtime: the frame at t = %g s ended %.3g s after its deadline: the model runs slower than the "
               "wall clock (a coarser grid, a longer time.dt or a faster device would keep up)",
               t, -ahead);
    }
    r->worst_lateness = fmax(r->worst_lateness, -ahead);
  }
}

static HclStatus advance(void *model, Timeline *tl, double *dt, TimelineDue *due) {
  HclStatus status = HCL_OK;
  VbmRun *r = model;
  double t_next;
  *dt = timeline_step(tl, r->setup.dt, &t_next);
  ASSERT(fabs(*dt - r->setup.dt) <= 1e-6 * r->setup.dt); /* every event a whole number of steps (vbm_case.c) */
  HclStatus stepped = vbm_step(r->vbm, tl->t, r->setup.dt);
  if (stepped == HCL_ENOTCONVERGED) {
    log_error("%s", status_message());
    status_clear();
    TRY(stop_at_checkpoint(r, stepped, "the psi system did not converge"));
  }
  TRY(stepped);
  if (r->maxima) {
    TRY(vbm_accumulate_maxima(r->vbm));
  }
  r->iterations += vbm_solve_stats(r->vbm).iterations;
  if (r->request->realtime) {
    keep_real_time(r, t_next);
  }
  *due = timeline_advance(tl, t_next);
cleanup:
  return status;
}

static void describe(void *model, char *extra, size_t size) {
  const VbmRun *r = model;
  int64_t steps = r->tl.step > r->first_step ? r->tl.step - r->first_step : 1;
  int written = snprintf(extra, size, "cg=%.2f", (double)r->iterations / (double)steps);
  if (isfinite(r->residual) && written > 0 && (size_t)written < size) { /* the last checked solve's ||b - Ax||/||b|| */
    written += snprintf(extra + written, size - (size_t)written, " res=%.1e", r->residual);
  }
  if (r->request->realtime && written > 0 && (size_t)written < size) {
    snprintf(extra + written, size - (size_t)written, " late=%lld", (long long)r->late_frames);
  }
}

static HclStatus time_loop(VbmRun *r) {
  static const RunSteps steps = {.advance = advance,
                                 .check = check_state,
                                 .write = write_output,
                                 .write_restart = write_restart,
                                 .describe = describe};
  const DecompSpec *g = decomp_spec(r->decomp);
  return run_time_loop(&steps, r, &r->tl, r->setup.check_interval, (double)g->nx * g->ny,
                       case_real(r->c, "output.progress"));
}

/* A starting surface that the divergence guard would stop at once is the case's mistake: refused before any file is
 * made. */
static HclStatus check_start(VbmRun *r) {
  HclStatus status = HCL_OK;
  double rms = 0;
  TRY(vbm_surface_rms(r->vbm, &rms));
  REQUIRE(rms <= DIVERGED_RMS, HCL_EDATA,
          "%s: the starting surface's root mean square is %g m, beyond the %g m at which a run counts as diverged "
          "(check initial.height, or the restart)",
          case_origin(r->c, "initial.height"), rms, DIVERGED_RMS);
cleanup:
  return status;
}

static HclStatus vbm_run(Runtime *rt, const Case *c, const RunRequest *request) {
  HclStatus status = HCL_OK;
  VbmRun r;
  signals_install();
  TRY(open_model(rt, c, request, &r));
  if (request->restart) {
    TRY(read_restart(&r));
    r.first_step = r.tl.step;
  }
  TRY(check_start(&r));
  TRY(open_output(&r));
  if (!request->restart) {
    TRY(write_output(&r, true, true));
  }
  TRY(time_loop(&r));
  log_info("done: t = %g s after %lld steps; output in %s", r.tl.t, (long long)r.tl.step, request->output_dir);
  if (request->realtime) {
    log_info("realtime: %lld of %lld frames ended after their deadline (the latest by %.3g s)",
             (long long)r.late_frames, (long long)(r.tl.step - r.first_step), r.worst_lateness);
  }
cleanup:
  close_model(&r);
  return status;
}

/* ---- validate ------------------------------------------------------------------------------------------------ */

static HclStatus vbm_validate(Runtime *rt, const Case *c, const RunRequest *request, FILE *out) {
  HclStatus status = HCL_OK;
  VbmRun r;
  TRY(open_setup(rt, c, request, &r)); /* the host side only: validate allocates nothing on the device */
  const DecompSpec *g = decomp_spec(r.decomp);
  const VbmSetup *s = &r.setup;
  const DeviceInfo *dev = runtime_device(rt);
  double frames = 1 + (double)schedule_count_until(&r.tl.map, s->t_end);
  RunOutputs outputs = outputs_of(&r);
  RunOutputSize size = run_output_size(r.decomp, c, &r.tl, &outputs, case_bool(c, "output.double"), true);
  double limit = vbm_stable_step(s->config.g, s->max_depth, s->config.kappa, s->config.dx, s->config.dy,
                                 s->max_current[0], s->max_current[1]);
  if (par_rank() == 0) {
    fprintf(out, "case is valid: %s\n", case_string(c, "model.title"));
    fprintf(out, "grid: %d x %d cells of %g x %g m, %d x %d ranks; depth up to %g m\n", g->nx, g->ny, s->config.dx,
            s->config.dy, g->px, g->py, s->max_depth);
    run_print_crs(s->crs, out);
    fprintf(out, "time step: %.6g s (%.3g of leapfrog's limit %.4g s), %.0f steps to t = %g s\n", s->dt, s->dt / limit,
            limit, round(s->t_end / s->dt), s->t_end);
    fprintf(out, "ships: %d; incident waves: %d; psi system by CG + %s\n", s->nships, s->nwaves,
            stencil5_precond_name(c, VBM_SOLVER_PREFIX));
    double largest_field, bytes = bytes_per_rank(&r, &largest_field);
    const DecompLocal *l = decomp_local(r.decomp);
    fprintf(out, "device memory: %.3g MB per rank of %.3g MB on %s (%.0f bytes per cell)\n", bytes / 1e6,
            (double)dev->global_mem_bytes / 1e6, dev->device_name, bytes / ((double)l->nx * l->ny));
    fprintf(out, "output: %.0f map frames of %.3g MB uncompressed; %d gauges; restarts of %.3g MB\n", frames,
            size.map / frames / 1e6, r.ngauges, (double)g->nx * g->ny * outputs.restart_fields * 8 / 1e6);
  }
  TRY(run_check_output_size(c, request, &size, out));
cleanup:
  close_model(&r);
  return status;
}

static HclStatus vbm_case_check(const Case *c) {
  VbmSetup setup;
  HclStatus status = vbm_setup_from_case(c, PRECISION_DOUBLE, &setup);
  vbm_setup_free(&setup);
  return status;
}

const Model vbm_model = {
    .name = "variational-boussinesq",
    .title = "hydrocl variational Boussinesq case (linearized VBM: ship waves, currents, harbours; RRB-PCG)",
    .schema = vbm_case_schema,
    .validate = vbm_validate,
    .run = vbm_run,
    .check = vbm_case_check,
    .capabilities = MODEL_REALTIME,
};
