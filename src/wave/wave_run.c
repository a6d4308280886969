/* SPDX-License-Identifier: BSD-3-Clause */
/* wave_run.c: a potential-flow case as the harness runs and validates it (harness.h): the wave model (wave.h;
 * OceanWave3D's method, Engsig-Karup, Madsen & Glimberg 2011, "A massively parallel GPU-accelerated model for
 * analysis of fully nonlinear free surface waves", sections 2 and 3) with its time step from a Courant number or
 * fixed below the ERK4 stability limit, the stability guard with the last good state kept on the host, the map,
 * gauge, kinematics and restart fields, and progress lines with the iterations per Laplace solve.
 *
 * A continued run restarts from eta, phi, the time and the step, and from what the next Laplace solves start from
 * (hcl_wave_solver_memory: Phi and the solutions its first guesses are extrapolated through), so it takes the steps of an
 * uninterrupted run bit for bit; from a restart without that memory its first guesses start afresh and it agrees to
 * the solver's tolerance. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "log.h"
#include "par.h"
#include "restart.h"
#include "wave.h"
#include "wave_case.h"

static const double PI = 3.14159265358979323846;

/* The fields of the run: the state, eta and phi, written every map frame (gauges record eta), then eta's extremes
 * from output.extremes_start on (hcl_wave_track_extremes: after every step), rewritten in the map file and at the
 * gauges with every frame and sample (the maximum elevation map, the run-up along a body); a restart holds all four.
 * eta is the free surface's height above the still water level, the reference datum of the model. */
static const OutputVariable state_variables[] = {
    {"eta", "water_surface_height_above_reference_datum", "free-surface elevation above the still water level", "m",
     NULL, false},
    {"phi", NULL, "velocity potential at the free surface", "m2 s-1", NULL, false},
    {"eta_max", NULL, "highest free-surface elevation after each time step from output.extremes_start on", "m", NULL,
     false},
    {"eta_min", NULL, "lowest free-surface elevation after each time step from output.extremes_start on", "m", NULL,
     false},
};
enum { MAP_VARIABLES = 2, HISTORY_VARIABLES = 1, RESTART_FIELDS = 4 };
static const OutputVariable *const map_variables = state_variables, *const extreme_variables = state_variables + 2;
/* The still-water depth, once in the map file: eta's datum is the still water level. */
static const OutputVariable depth_variable = {
    "depth", "sea_floor_depth_below_geoid", "still-water depth below the still water level", "m", NULL, false};

/* The kinematics lines' profiles (hcl_wave_column_velocities: z, u, v, w at the sigma points) and the scalars of every
 * sample. */
static const OutputVariable profile_variables[] = {
    {"z", NULL, "height of the sigma point above the still water level", "m", NULL, false},
    {"u", "sea_water_x_velocity", "x velocity", "m s-1", NULL, false},
    {"v", "sea_water_y_velocity", "y velocity", "m s-1", NULL, false},
    {"w", "upward_sea_water_velocity", "vertical velocity", "m s-1", NULL, false},
};
static const OutputVariable scalar_variables[] = {
    {"volume", NULL, "integral of eta over the domain (per metre of width in a flume)", "m3", NULL, false},
    {"potential_energy", NULL, "g/2 times the integral of eta^2 (energy per unit density)", "m5 s-2", NULL, false},
    {"kinetic_energy", NULL, "1/2 the integral of phi eta_t (energy per unit density)", "m5 s-2", NULL, false},
};
/* At each line: the free surface every sample, the still-water depth once. */
static const OutputVariable line_surface_variable = {"eta",
                                                     "water_surface_height_above_reference_datum",
                                                     "free-surface elevation above the still water level",
                                                     "m",
                                                     NULL,
                                                     false};
static const OutputVariable line_depth_variable = {
    "depth", "sea_floor_depth_below_geoid", "still-water depth below the still water level", "m", NULL, false};
enum { PROFILE_VARIABLES = 4, SCALAR_VARIABLES = 3 };

typedef struct {
  RunContext run; /* first: the harness's */
  WaveSetup setup;
  Wave *wave;
  NamedPoint *lines;   /* kinematics lines, moved to their grid points */
  int *line_points;    /* [nlines][2]: their global (i, j) */
  double *line_depths; /* [nlines]: the still-water depth at each */
  int nlines;
  double dt_max;              /* the step the case asks for */
  double step_limit;          /* ERK4's stability limit (hcl_wave_step_limit) */
  double deepest;             /* the deepest still water [m] */
  size_t n;                   /* this rank's points */
  double *h, *eta, *phi;      /* the initial state, then the last good state (host) */
  int64_t iterations, solves; /* Laplace iterations and solves of the steps so far */
  double extremes_start;      /* eta_max and eta_min hold the extremes from this time on (output.extremes_start) */
} WaveRun;

/* The run state a ModelOps function gets (its RunContext comes first). */
static WaveRun *wave_run_of(const RunContext *run) {
  return (WaveRun *)run;
}

/* ---- set-up -------------------------------------------------------------------------------------------------- */

/* The sides of the grid, in output.runup's order after auto: west i = 0, east i = nx - 1, south j = 0, north j =
 * ny - 1. */
typedef enum { WALL_NONE, WALL_WEST, WALL_EAST, WALL_SOUTH, WALL_NORTH } Wall;

/* The global (i, j) of the points along a wall, in order along it (points NULL: only their count). */
static int wall_points(const WaveSetup *s, Wall wall, int *points) {
  const DecompSpec *g = &s->grid;
  bool along_j = wall == WALL_WEST || wall == WALL_EAST;
  int n = along_j ? g->ny : g->nx;
  for (int k = 0; k < n && points; k++) {
    points[2 * k] = along_j ? (wall == WALL_WEST ? 0 : g->nx - 1) : k;
    points[2 * k + 1] = along_j ? k : (wall == WALL_SOUTH ? 0 : g->ny - 1);
  }
  return n;
}

/* The wall output.runup names (auto|none|west|east|south|north); auto is a polar grid's cylinder, its west side. */
static Wall runup_wall(const WaveRun *r) {
  int choice = hcl_case_choice(r->run.c, "output.runup");
  return choice > 0 ? (Wall)(choice - 1) : r->setup.geometry.type == WAVE_GRID_POLAR ? WALL_WEST : WALL_NONE;
}

/* The run-up gauges: one at every point of the wall output.runup names, runup_0000 onwards along it. */
static HclStatus add_runup_gauges(WaveRun *r) {
  HclStatus status = HCL_OK;
  Wall wall = runup_wall(r);
  int *points = NULL;
  if (wall == WALL_NONE) {
    goto cleanup;
  }
  int n = wall_points(&r->setup, wall, NULL);
  TRY_ALLOC(points, 2 * (size_t)n);
  wall_points(&r->setup, wall, points);
  Gauge *more = realloc(r->run.gauges, ((size_t)r->run.ngauges + n) * sizeof *more);
  REQUIRE(more != NULL, HCL_ENOMEM, "cannot hold %d run-up gauges", n);
  r->run.gauges = more;
  for (int k = 0; k < n; k++) {
    Gauge *g = &r->run.gauges[r->run.ngauges++];
    memset(g, 0, sizeof *g);
    snprintf(g->name, sizeof g->name, "runup_%04d", k);
    snprintf(g->origin, sizeof g->origin, "%s", hcl_case_origin(r->run.c, "output.runup"));
    wave_setup_point(&r->setup, points[2 * k], points[2 * k + 1], &g->x, &g->y);
  }
cleanup:
  free(points);
  return status;
}

/* Where point p lies on the grid: its fractional global index (fi, fj), on a Cartesian grid from the spacing. */
static HclStatus locate_point(const WaveRun *r, const NamedPoint *p, const char *what, double *fi, double *fj) {
  HclStatus status = HCL_OK;
  const WaveSetup *s = &r->setup;
  const DecompSpec *g = &s->grid;
  if (s->geometry.type == WAVE_GRID_CARTESIAN) {
    double last_x, last_y;
    wave_setup_point(s, g->nx - 1, g->ny - 1, &last_x, &last_y);
    TRY(run_check_points(p, 1, what, "the grid points", s->config.x0, last_x, s->config.y0, last_y));
    *fi = g->nx == 1 ? 0 : (p->x - s->config.x0) / s->config.laplace.dx;
    *fj = g->ny == 1 ? 0 : (p->y - s->config.y0) / s->config.laplace.dy;
  } else {
    REQUIRE(hcl_mapping_locate(&s->geometry.map, g->nx, g->ny, g->periodic_x, g->periodic_y, p->x, p->y, fi, fj),
            HCL_EDATA, "%s: %s '%s' at (%g, %g) m lies outside the %s (no cell of it holds the point)", p->origin, what,
            p->name, p->x, p->y, s->geometry.map.name);
  }
cleanup:
  return status;
}

/* The gauges of output.gauges and output.gauge_file, within the grid (bilinear interpolation, history.h), and the
 * run-up gauges. */
static HclStatus read_gauges(RunContext *run) {
  HclStatus status = HCL_OK;
  WaveRun *r = wave_run_of(run);
  double fi, fj;
  TRY(run_read_points(r->run.c, "output.gauges", "output.gauge_file", &r->run.gauges, &r->run.ngauges));
  for (int k = 0; k < r->run.ngauges; k++) {
    TRY(locate_point(r, &r->run.gauges[k], "gauge", &fi, &fj));
  }
  TRY(add_runup_gauges(r));
cleanup:
  return status;
}

/* The kinematics lines of output.kinematics, each moved to the nearest grid point: the model's velocities live on
 * its columns. */
static HclStatus read_lines(WaveRun *r) {
  HclStatus status = HCL_OK;
  const DecompSpec *g = &r->setup.grid;
  TRY(run_read_points(r->run.c, "output.kinematics", NULL, &r->lines, &r->nlines));
  TRY_ALLOC(r->line_points, 2 * (size_t)r->nlines + 1);
  for (int k = 0; k < r->nlines; k++) {
    double fi, fj;
    TRY(locate_point(r, &r->lines[k], "kinematics line", &fi, &fj));
    int gi = (int)lround(fi) % g->nx, gj = (int)lround(fj) % g->ny; /* a periodic direction's last cell wraps */
    r->line_points[2 * k] = gi;
    r->line_points[2 * k + 1] = gj;
    wave_setup_point(&r->setup, gi, gj, &r->lines[k].x, &r->lines[k].y);
  }
cleanup:
  return status;
}

/* This rank's initial state on the host, checked against the guard, and the deepest still water of all ranks.
 * Collective. */
static HclStatus host_initial_state(WaveRun *r) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = hcl_decomp_local(r->run.decomp);
  r->n = (size_t)l->nx * l->ny;
  r->h = malloc(r->n * sizeof *r->h);
  r->eta = malloc(r->n * sizeof *r->eta);
  r->phi = malloc(r->n * sizeof *r->phi);
  bool allocated = r->h && r->eta && r->phi; /* agreed before anything collective */
  TRY(hcl_par_agree(allocated ? HCL_OK
                              : hcl_status_set(HCL_ENOMEM, __FILE__, __LINE__,
                                               "cannot allocate the initial state of %zu points", r->n)));
  wave_initial_state(&r->setup, r->run.decomp, r->h, r->eta, r->phi);
  TRY(hcl_par_agree(wave_check_initial(r->run.c, &r->setup, r->run.decomp, r->h, r->eta)));
  r->deepest = 0;
  for (size_t p = 0; p < r->n; p++) {
    r->deepest = fmax(r->deepest, r->h[p]);
  }
  TRY(hcl_par_max_double(&r->deepest));
cleanup:
  return status;
}

/* The speed of the Courant number: the incident wave's celerity, or the long-wave speed of the deepest water. */
static double courant_speed(const WaveRun *r) {
  return r->setup.celerity > 0 ? r->setup.celerity : sqrt(r->setup.config.g * r->deepest);
}

/* The smallest spacing between neighbouring points along the directions that vary. */
static double least_spacing(const WaveSetup *s) {
  const DecompSpec *g = &s->grid;
  if (s->geometry.type == WAVE_GRID_CARTESIAN) {
    return fmin(g->nx > 1 ? s->config.laplace.dx : HUGE_VAL, g->ny > 1 ? s->config.laplace.dy : HUGE_VAL);
  }
  double least = HUGE_VAL;
  for (long j = 0; j < g->ny; j++) {
    for (long i = 0; i < g->nx; i++) {
      double x, y, xe, ye, xn, yn;
      wave_setup_point(s, i, j, &x, &y);
      wave_setup_point(s, i + 1, j, &xe, &ye);
      wave_setup_point(s, i, j + 1, &xn, &yn);
      least = fmin(least, fmin(hypot(xe - x, ye - y), hypot(xn - x, yn - y)));
    }
  }
  return least;
}

/* The incident wave's largest horizontal velocity at the surface by linear theory, u = a omega / tanh(k h) (a the
 * amplitude: H / 2, or Hs / 2 at the peak period), 0 without one. */
static double orbital_speed(const WaveRun *r) {
  const WaveSetup *s = &r->setup;
  if (s->incident_kind == WAVE_INCIDENT_STREAM || s->incident_kind == WAVE_INCIDENT_LINEAR) {
    const RegularWave *w = &s->regular;
    return 0.5 * w->height * (2 * PI / w->period) / tanh(w->k * w->depth);
  }
  if (s->incident_kind == WAVE_INCIDENT_IRREGULAR) {
    double omega = 2 * PI / hcl_case_real(r->run.c, "waves.tp"), k = omega / s->celerity;
    return 0.5 * hcl_case_real(r->run.c, "waves.hs") * omega / tanh(k * s->incident_depth);
  }
  return 0;
}

/* The nonlinear surface conditions carry the surface along at the water's speed, a limit ERK4's linear one does not
 * see: a warning where the incident wave's orbital speed crosses more than half the smallest spacing in a step
 * (near a body it may double). Measured on the Kriebel cylinder (cases/cylinder-kriebel.yml, H200, 2026-11-27): at
 * 4 mm cells u dt / dx = 0.91 went unstable after 9 s, 0.45 ran; at 8 mm cells 0.45 ran. */
static void warn_advection(const WaveRun *r, double dx) {
  double courant = orbital_speed(r) * r->dt_max / dx;
  if (r->setup.config.equations == WAVE_NONLINEAR && courant > 0.5 && hcl_par_rank() == 0) {
    hcl_log_warn(
        "%s: the incident wave's surface velocity, %.3g m/s, crosses %.2g of the smallest spacing (%.3g m) in a "
        "step of %.4g s; the nonlinear surface conditions may go unstable above about 0.5 (near a body the "
        "velocity can double): a step of %.3g s keeps it at 0.5",
        hcl_case_origin(r->run.c, r->setup.dt_fixed > 0 ? "time.dt" : "time.courant"), orbital_speed(r), courant, dx,
        r->dt_max, 0.5 * dx / orbital_speed(r));
  }
}

/* The step: time.dt, or from the Courant number, Cr = c dt / min(dx, dy); either at most ERK4's stability limit for
 * the linearized surface conditions on this grid (hcl_wave_step_limit), else refused. */
static HclStatus choose_step(WaveRun *r) {
  HclStatus status = HCL_OK;
  const WaveSetup *s = &r->setup;
  r->step_limit = hcl_wave_step_limit(&s->config, &s->grid, r->deepest);
  double c = courant_speed(r), dx = least_spacing(s);
  if (s->dt_fixed > 0) {
    REQUIRE(s->dt_fixed <= r->step_limit, HCL_EDATA,
            "%s: time.dt = %g s is above the stability limit of ERK4 on this grid, %.4g s (the shortest wave the "
            "grid holds, 2 spacings long, in %g m of water); allowed 0 < time.dt <= %.4g s, or 0 for a step from "
            "time.courant",
            hcl_case_origin(r->run.c, "time.dt"), s->dt_fixed, r->step_limit, r->deepest, r->step_limit);
    r->dt_max = s->dt_fixed;
  } else {
    r->dt_max = s->courant * dx / c;
    REQUIRE(r->dt_max <= r->step_limit, HCL_EDATA,
            "%s: time.courant = %g gives dt = %.4g s (c = %.4g m/s, spacing %g m), above the stability limit of ERK4 "
            "on this grid, %.4g s; allowed time.courant <= %.4g",
            hcl_case_origin(r->run.c, "time.courant"), s->courant, r->dt_max, c, dx, r->step_limit,
            r->step_limit * c / dx);
  }
  warn_advection(r, dx);
cleanup:
  return status;
}

/* The device memory of this rank's block, estimated before anything is allocated: the Laplace solver at its bytes
 * per unknown (README: 39 in mixed precision, 57 in double, 29 in single, all levels and work fields) and the
 * model's own fields: 14 planes of the state, its stages and its point fields (15 for the linear equations), and the
 * solutions the first guess is extrapolated from. *largest: the 3D potential. */
static double device_bytes(const RunContext *run, double *largest) {
  const WaveConfig *c = &wave_run_of(run)->setup.config;
  const DecompLocal *l = hcl_decomp_local(run->decomp);
  int ghost = c->laplace.order / 2;
  double plane = (double)(l->nx + 2 * ghost) * (l->ny + 2 * ghost);
  double per_unknown = c->laplace.precision == LAPLACE_DOUBLE ? 57 : c->laplace.precision == LAPLACE_SINGLE ? 29 : 39;
  double real = c->laplace.precision == LAPLACE_SINGLE ? 4 : 8;
  double planes =
      (c->equations == WAVE_LINEAR ? 15 : 14) + (c->extrapolation > 1 ? c->extrapolation * (c->laplace.nz + 1.0) : 0);
  *largest = (c->laplace.nz + 1.0) * plane * real;
  return per_unknown * l->nx * l->ny * c->laplace.nz + planes * plane * real;
}

static const char *precision_word(LaplacePrecision p) {
  return p == LAPLACE_MIXED ? "mixed" : p == LAPLACE_DOUBLE ? "double" : "single";
}

static HclStatus read_case(RunContext *run) {
  HclStatus status = HCL_OK;
  WaveRun *r = wave_run_of(run);
  const RunRequest *request = run->request;
  LaplacePrecision given = request->mixed                           ? LAPLACE_MIXED
                           : request->precision == PRECISION_SINGLE ? LAPLACE_SINGLE
                                                                    : LAPLACE_DOUBLE;
  TRY(wave_setup_from_case(run->c, request->precision_given ? &given : NULL, &r->setup));
  r->extremes_start = hcl_case_real(run->c, "output.extremes_start");
  run->grid = &r->setup.grid;
  run->precision = precision_word(r->setup.config.laplace.precision);
cleanup:
  return status;
}

/* The value of a (this rank's points, row by row, as hcl_field_read_owned) at every kinematics line, from the rank that
 * owns its point: out[line]. Collective. */
static HclStatus line_values(const WaveRun *r, const double *a, double *out) {
  const DecompLocal *l = hcl_decomp_local(r->run.decomp);
  for (int k = 0; k < r->nlines; k++) {
    int i = r->line_points[2 * k] - l->x0, j = r->line_points[2 * k + 1] - l->y0;
    bool owned = i >= 0 && i < l->nx && j >= 0 && j < l->ny;
    out[k] = owned ? a[(size_t)j * l->nx + i] : 0.0; /* one owner: the sum over the ranks is exact */
  }
  return hcl_par_sum_doubles(out, r->nlines);
}

/* The kinematics lines and their depths, the initial state on the host and the step. Collective. */
static HclStatus prepare(RunContext *run) {
  HclStatus status = HCL_OK;
  WaveRun *r = wave_run_of(run);
  TRY(read_lines(r));
  TRY(host_initial_state(r));
  TRY_ALLOC(r->line_depths, (size_t)r->nlines + 1);
  TRY(line_values(r, r->h, r->line_depths));
  TRY(choose_step(r));
cleanup:
  return status;
}

static HclStatus open_model(RunContext *run) {
  HclStatus status = HCL_OK;
  WaveRun *r = wave_run_of(run);
  TRY(hcl_wave_create(run->rt, run->decomp, &r->setup.config, r->h, &r->wave));
  hcl_log_verbose("device memory: %.4g MB on rank 0 (estimated %.4g MB)", hcl_wave_device_bytes(r->wave) / 1e6,
                  device_bytes(run, &(double){0}) / 1e6);
  if (r->setup.incident.components > 0) {
    TRY(hcl_wave_set_incident(r->wave, &r->setup.incident));
  }
  TRY(hcl_wave_set_state(r->wave, 0, r->eta, r->phi));
  TRY(hcl_wave_track_extremes(r->wave)); /* a continued run's restart overwrites them */
cleanup:
  return status;
}

static void close_model(RunContext *run) {
  WaveRun *r = wave_run_of(run);
  hcl_wave_destroy(&r->wave);
  free(r->lines);
  free(r->line_points);
  free(r->line_depths);
  free(r->h);
  free(r->eta);
  free(r->phi);
  wave_setup_free(&r->setup);
}

/* ---- restarts ------------------------------------------------------------------------------------------------ */

/* The Laplace solver's memory in a restart (hcl_wave_solver_memory), named as its fields are. */
static const OutputVariable solver_variables[WAVE_SOLVER_FIELDS_MAX] = {
    {"Phi", NULL, "velocity potential at the sigma points: the last Laplace solve's solution", "m2 s-1", NULL, false},
    {"Phi_history_0", NULL, "a remembered Laplace solution that first guesses are extrapolated through", "m2 s-1", NULL,
     false},
    {"Phi_history_1", NULL, "a remembered Laplace solution that first guesses are extrapolated through", "m2 s-1", NULL,
     false},
    {"Phi_history_2", NULL, "a remembered Laplace solution that first guesses are extrapolated through", "m2 s-1", NULL,
     false},
};
static const RestartScalar solver_scalars[WAVE_SOLVER_SCALARS] = {
    {"Phi_history_count", 0, "how many Laplace solutions are remembered", "1"},
    {"Phi_history_newest", 0, "the slot of the newest remembered solution", "1"},
    {"Phi_history_time_0", 0, "model time of the solution in slot 0", "s"},
    {"Phi_history_time_1", 0, "model time of the solution in slot 1", "s"},
    {"Phi_history_time_2", 0, "model time of the solution in slot 2", "s"},
};

/* eta and phi at the free surface and the extremes, which a continued run must find, then the solver's memory. */
static int restart_fields(RunContext *run, Field **fields, OutputVariable *variables, int *required) {
  Wave *wave = wave_run_of(run)->wave;
  double memory[WAVE_SOLVER_SCALARS];
  Field *state[RESTART_FIELDS] = {hcl_wave_eta(wave), hcl_wave_phi(wave), hcl_wave_eta_max(wave),
                                  hcl_wave_eta_min(wave)};
  int nsolver = hcl_wave_solver_memory(wave, fields + RESTART_FIELDS, memory);
  memcpy(fields, state, sizeof state);
  memcpy(variables, state_variables, sizeof state_variables);
  memcpy(variables + RESTART_FIELDS, solver_variables, (size_t)nsolver * sizeof *solver_variables);
  *required = RESTART_FIELDS;
  return RESTART_FIELDS + nsolver;
}

/* The solver's memory: none required (read_solver_memory). */
static int restart_scalars(const RunContext *run, RestartScalar *scalars, int *required) {
  Field *fields[WAVE_SOLVER_FIELDS_MAX];
  double memory[WAVE_SOLVER_SCALARS];
  hcl_wave_solver_memory(wave_run_of(run)->wave, fields, memory);
  for (int i = 0; i < WAVE_SOLVER_SCALARS; i++) {
    scalars[i] = solver_scalars[i];
    scalars[i].value = memory[i];
  }
  *required = 0;
  return WAVE_SOLVER_SCALARS;
}

static Field *bed(RunContext *run) {
  return hcl_wave_depth(wave_run_of(run)->wave);
}

/* The Laplace solver's memory from the restart at path, where it holds one of this case's time.extrapolation (an
 * earlier hydrocl's, or another extrapolation's, has none that fits: the first guesses then start afresh). */
static HclStatus read_solver_memory(WaveRun *r, const char *path) {
  HclStatus status = HCL_OK;
  Field *fields[WAVE_SOLVER_FIELDS_MAX];
  double memory[WAVE_SOLVER_SCALARS];
  const char *names[WAVE_SOLVER_FIELDS_MAX + WAVE_SOLVER_SCALARS + 1];
  RestartScalar scalars[WAVE_SOLVER_SCALARS];
  bool holds = false;
  int nfields = hcl_wave_solver_memory(r->wave, fields, memory), nnames = 0;
  for (int i = 0; i < nfields; i++) {
    names[nnames++] = solver_variables[i].name;
  }
  for (int i = 0; i < WAVE_SOLVER_SCALARS; i++) {
    names[nnames++] = solver_scalars[i].name;
    scalars[i] = solver_scalars[i];
  }
  if (nfields < WAVE_SOLVER_FIELDS_MAX) { /* none beyond this case's: another extrapolation's memory does not fit */
    names[nnames++] = solver_variables[nfields].name;
  }
  TRY(hcl_restart_holds(path, names, nnames - (nfields < WAVE_SOLVER_FIELDS_MAX ? 1 : 0), &holds));
  bool more = false;
  if (holds && nfields < WAVE_SOLVER_FIELDS_MAX) {
    TRY(hcl_restart_holds(path, &names[nnames - 1], 1, &more));
  }
  if (!holds || more) {
    hcl_log_verbose(
        "%s holds no Laplace solver memory for time.extrapolation = %d: the first guesses start afresh, and "
        "the run agrees with an uninterrupted one to the solver's tolerance",
        path, (int)hcl_case_int(r->run.c, "time.extrapolation"));
    goto cleanup;
  }
  TRY(hcl_restart_read(path, fields, nfields, scalars, WAVE_SOLVER_SCALARS));
  for (int i = 0; i < WAVE_SOLVER_SCALARS; i++) {
    memory[i] = scalars[i].value;
  }
  TRY(hcl_wave_restore_solver_memory(r->wave, memory));
cleanup:
  return status;
}

/* eta and phi as the model's state at the restart's time, then the solver's memory where the restart holds it. */
static HclStatus resume(RunContext *run, const char *path, const RestartScalar *scalars) {
  HclStatus status = HCL_OK;
  WaveRun *r = wave_run_of(run);
  TRY(hcl_field_read_owned(hcl_wave_eta(r->wave), r->eta));
  TRY(hcl_field_read_owned(hcl_wave_phi(r->wave), r->phi));
  TRY(hcl_wave_set_state(r->wave, scalars[0].value, r->eta, r->phi));
  TRY(read_solver_memory(r, path));
cleanup:
  return status;
}

/* ---- output -------------------------------------------------------------------------------------------------- */

/* Where the files place the grid points (Cartesian or curvilinear), and what they say of themselves. */
static OutputFrame frame_of(const RunContext *run) {
  const WaveSetup *s = &wave_run_of(run)->setup;
  return (OutputFrame){.title = hcl_case_string(run->c, "model.title"),
                       .source = run->source,
                       .time_units = s->time_units,
                       .x0 = s->config.x0,
                       .dx = s->config.laplace.dx,
                       .y0 = s->config.y0,
                       .dy = s->config.laplace.dy,
                       .map = s->config.laplace.map,
                       .points = "grid point",
                       .crs = s->crs};
}

/* What the run's files hold: the map, the gauges, and kinematics.nc's lines with their depths and the scalars. */
static void outputs_of(const RunContext *run, RunOutputs *outputs, SeriesLayout *series) {
  const WaveRun *r = wave_run_of(run);
  *series = (SeriesLayout){.stations = r->lines,
                           .nstations = r->nlines,
                           .nodes = r->setup.config.laplace.nz,
                           .profiles = profile_variables,
                           .nprofiles = PROFILE_VARIABLES,
                           .station_series = &line_surface_variable,
                           .nstation_series = 1,
                           .station_constants = &line_depth_variable,
                           .nstation_constants = 1,
                           .constant_values = r->line_depths,
                           .scalars = scalar_variables,
                           .nscalars = hcl_case_bool(run->c, "output.energy") ? SCALAR_VARIABLES : 1};
  *outputs = (RunOutputs){.variables = map_variables,
                          .nmap = MAP_VARIABLES,
                          .nhistory = HISTORY_VARIABLES,
                          .series_name = "kinematics.nc",
                          .series = series,
                          .restart_fields = RESTART_FIELDS};
}

static HclStatus write_depth(RunContext *run) {
  return hcl_map_write_static(run->files.map, &depth_variable, hcl_wave_depth(wave_run_of(run)->wave), 1);
}
/* z, u, v, w at the sigma points of every kinematics line, gathered from the ranks that own them:
 * values[line][node][4]. Collective (one Laplace solve for the present state). */
static HclStatus line_velocities(WaveRun *r, double *values) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = hcl_decomp_local(r->run.decomp);
  int nz = r->setup.config.laplace.nz, ncolumns = 0, *columns = NULL, *owner = NULL;
  double *mine = NULL;
  TRY_ALLOC(columns, 2 * (size_t)r->nlines + 1);
  TRY_ALLOC(owner, (size_t)r->nlines + 1);
  TRY_ALLOC(mine, (size_t)r->nlines * nz * 4 + 1);
  for (int k = 0; k < r->nlines; k++) {
    int i = r->line_points[2 * k] - l->x0, j = r->line_points[2 * k + 1] - l->y0;
    if (i >= 0 && i < l->nx && j >= 0 && j < l->ny) {
      columns[2 * ncolumns] = i;
      columns[2 * ncolumns + 1] = j;
      owner[ncolumns++] = k;
    }
  }
  TRY(hcl_wave_column_velocities(r->wave, ncolumns, columns, mine));
  memset(values, 0, sizeof *values * (size_t)r->nlines * nz * 4);
  for (int c = 0; c < ncolumns; c++) { /* each line has one owner: the sum over the ranks is exact */
    memcpy(values + (size_t)owner[c] * nz * 4, mine + (size_t)c * nz * 4, sizeof *values * nz * 4);
  }
  TRY(hcl_par_sum_doubles(values, r->nlines * nz * 4));
cleanup:
  free(columns);
  free(owner);
  free(mine);
  return status;
}

/* One sample of kinematics.nc: the lines' profiles [z, u, v, w][line][node] and free surface, the volume and the
 * energy. r->eta holds the present state (check_state comes before every write). */
static HclStatus write_series(WaveRun *r) {
  HclStatus status = HCL_OK;
  int nz = r->setup.config.laplace.nz;
  size_t per_line = (size_t)nz * 4;
  double scalars[SCALAR_VARIABLES] = {0}, *values = NULL, *profiles = NULL, *surface = NULL;
  TRY(hcl_wave_volume(r->wave, &scalars[0]));
  if (hcl_case_bool(r->run.c, "output.energy")) {
    TRY(hcl_wave_energy(r->wave, &scalars[1], &scalars[2]));
  }
  TRY_ALLOC(values, per_line * r->nlines + 1);
  TRY_ALLOC(profiles, per_line * r->nlines + 1);
  TRY_ALLOC(surface, (size_t)r->nlines + 1);
  if (r->nlines > 0) {
    TRY(line_velocities(r, values));
    TRY(line_values(r, r->eta, surface));
  }
  for (int k = 0; k < r->nlines; k++) {
    for (int node = 0; node < nz; node++) {
      for (int v = 0; v < PROFILE_VARIABLES; v++) {
        profiles[((size_t)v * r->nlines + k) * nz + node] = values[k * per_line + (size_t)node * 4 + v];
      }
    }
  }
  SeriesSample sample = {.profiles = profiles, .station_values = surface, .scalars = scalars};
  TRY(hcl_series_write(r->run.files.series, r->run.tl.t, &sample));
cleanup:
  free(values);
  free(profiles);
  free(surface);
  return status;
}

/* Writes a map frame and a sample (gauges, kinematics, volume and energy) of the present state, as asked. */
static HclStatus write_output(RunContext *run, bool map_due, bool history_due) {
  HclStatus status = HCL_OK;
  WaveRun *r = wave_run_of(run);
  Field *fields[MAP_VARIABLES] = {hcl_wave_eta(r->wave), hcl_wave_phi(r->wave)};
  Field *extremes[2] = {hcl_wave_eta_max(r->wave), hcl_wave_eta_min(r->wave)};
  TRY(run_write_sample(run, fields, map_due, history_due));
  if (map_due) {
    for (int e = 0; e < 2; e++) {
      TRY(hcl_map_write_static(run->files.map, &extreme_variables[e], extremes[e], 1));
    }
  }
  if (history_due && run->files.history) {
    for (int e = 0; e < 2; e++) {
      TRY(hcl_history_write_static(run->files.history, &extreme_variables[e], extremes[e], 1));
    }
  }
  if (history_due) {
    TRY(write_series(r));
  }
cleanup:
  return status;
}

/* ---- the time loop ------------------------------------------------------------------------------------------- */

/* The state as the last good one (on the host). */
static HclStatus rollback(RunContext *run) {
  WaveRun *r = wave_run_of(run);
  return hcl_wave_set_state(r->wave, run->t_good, r->eta, r->phi);
}

/* The run failed (the guard, or a Laplace solve that failed: a water column that vanished, or no convergence):
 * the failure's message (the solver names its keys as the case does, solver.*), and the stop at the last good
 * state. */
static HclStatus stop_failed(RunContext *run, HclStatus code, bool during_step) {
  char why[1200];
  snprintf(why, sizeof why, "%s", hcl_status_message());
  hcl_status_clear();
  return run_stop_at_good(run, code, during_step, why);
}

/* Every check_interval steps and before anything is written: the guard (hcl_wave_check), and with save the state as the
 * last good one. */
static HclStatus check_state(RunContext *run, bool save) {
  HclStatus status = HCL_OK;
  WaveRun *r = wave_run_of(run);
  HclStatus guard = hcl_wave_check(r->wave, r->setup.guard_factor);
  if (guard == HCL_EDIVERGED) {
    TRY(stop_failed(run, HCL_EDIVERGED, false));
  }
  TRY(guard);
  if (save) {
    TRY(hcl_field_read_owned(hcl_wave_eta(r->wave), r->eta));
    TRY(hcl_field_read_owned(hcl_wave_phi(r->wave), r->phi));
  }
cleanup:
  return status;
}

/* One step: as long as the case asks, shrunk evenly so the next event falls exactly on a step. A Laplace solve that
 * fails on a water column that vanished means the run blew up (exit 79); one that does not converge keeps its own
 * status (exit 78). Either way the last good state is written. */
static HclStatus advance(RunContext *run, TimelineDue *due) {
  HclStatus status = HCL_OK;
  WaveRun *r = wave_run_of(run);
  double t_next;
  WaveStepStats stats = {0};
  run->dt = timeline_step(&run->tl, r->dt_max, &t_next);
  ASSERT(run->dt > 0); /* events lie strictly after t (schedule_start, schedule_due) */
  HclStatus stepped = hcl_wave_step(r->wave, run->dt, false, &stats);
  if (stepped == HCL_EDATA || stepped == HCL_ENOTCONVERGED) {
    TRY(stop_failed(run, stepped == HCL_EDATA ? HCL_EDIVERGED : stepped, true));
  }
  TRY(stepped);
  r->iterations += stats.iterations;
  r->solves += stats.solves;
  if (run->tl.t < r->extremes_start && t_next >= r->extremes_start) { /* from here on: forget the start-up's */
    TRY(hcl_wave_track_extremes(r->wave));
  }
  *due = timeline_advance(&run->tl, t_next);
cleanup:
  return status;
}

/* The progress line's mean defect-correction iterations per Laplace solve, over the run so far. */
static void describe(const RunContext *run, char *extra, size_t size) {
  const WaveRun *r = wave_run_of(run);
  snprintf(extra, size, "iters=%.2f", r->solves > 0 ? (double)r->iterations / r->solves : 0.0);
}

/* ---- validate ------------------------------------------------------------------------------------------------ */

static void print_geometry(const WaveRun *r, FILE *out) {
  const WaveSetup *s = &r->setup;
  const DecompSpec *g = r->run.grid;
  const LaplaceConfig *l = &s->config.laplace;
  const MappingPolar *p = &s->geometry.polar;
  double last_x, last_y;
  wave_setup_point(s, g->nx - 1, g->ny - 1, &last_x, &last_y);
  if (s->geometry.type == WAVE_GRID_POLAR) {
    /* the cells' aspect ratio at the cylinder: radial over angular spacing (1: square, the conformal O-grid) */
    fprintf(out,
            "grid: polar, %d points along the radius from r = %g m to %g m (%s, %.4g m at the cylinder) x %d around "
            "(%.4g m at the cylinder; cells %.3g times as long radially as around), centre (%g, %g) m, depth up to "
            "%g m; %d x %d ranks\n",
            g->nx, p->radius, p->outer, p->stretching > 0 ? "geometric" : "uniform", l->dx, g->ny, l->dy, l->dx / l->dy,
            p->cx, p->cy, r->deepest, g->px, g->py);
    return;
  }
  if (s->geometry.type == WAVE_GRID_FILE) {
    double box[4], sx, sy;
    wave_setup_extent(s, box, &sx, &sy);
    fprintf(out,
            "grid: %d x %d points from %s, x %g to %g m, y %g to %g m, mean spacing %.4g m along i and %.4g m along j, "
            "depth up to %g m; %d x %d ranks\n",
            g->nx, g->ny, hcl_case_file(r->run.c, "grid.file"), box[0], box[1], box[2], box[3], l->dx, l->dy,
            r->deepest, g->px, g->py);
    return;
  }
  fprintf(out, "grid: %s%d x %d points of %g x %g m, x %g to %g m, y %g to %g m%s, depth up to %g m; %d x %d ranks\n",
          s->geometry.type == WAVE_GRID_MAPPED ? "mapped (non-orthogonal), " : "", g->nx, g->ny, l->dx, l->dy,
          s->config.x0, last_x, s->config.y0, last_y, g->ny == 1 ? " (a flume)" : "", r->deepest, g->px, g->py);
}

static void print_grid(const WaveRun *r, FILE *out) {
  const WaveSetup *s = &r->setup;
  const LaplaceConfig *l = &s->config.laplace;
  print_geometry(r, out);
  run_print_crs(s->crs, out);
  run_print_source(r->run.c, "bed.file", &s->bed.source, out);
  char method[32] = "defect correction";
  if (l->krylov.method == KRYLOV_GMRES) {
    snprintf(method, sizeof method, "GMRES(%d)", l->krylov.restart);
  }
  fprintf(out,
          "solver: %d %s sigma points, order %d, %s precision, %s, preconditioner %s, to rtol %g, atol %g (%s); "
          "%s equations\n",
          l->nz, l->sigma == LAPLACE_SIGMA_UNIFORM ? "uniform" : "cosine", l->order, precision_word(l->precision),
          method, l->preconditioner == LAPLACE_MG ? "one multigrid V-cycle" : "none", l->krylov.rtol, l->krylov.atol,
          l->krylov.norm == KRYLOV_NORM_RMS ? "rms norm"
          : l->krylov.norm == KRYLOV_NORM_2 ? "2-norm"
                                            : "preconditioned norm",
          s->config.equations == WAVE_LINEAR ? "linear" : "nonlinear");
}

static void print_waves(const WaveRun *r, FILE *out) {
  const WaveSetup *s = &r->setup;
  const RegularWave *w = &s->regular;
  if (s->incident_kind == WAVE_INCIDENT_STREAM || s->incident_kind == WAVE_INCIDENT_LINEAR) {
    fprintf(out,
            "incident wave: %s, H = %g m, T = %.4g s in h = %g m: k = %.5g 1/m, L = %.5g m, c = %.5g m/s, kh = %.3g, "
            "H / H_max = %.3g\n",
            s->incident_kind == WAVE_INCIDENT_STREAM ? "stream function" : "linear", w->height, w->period, w->depth,
            w->k, w->length, w->celerity, w->k * w->depth, w->height / hcl_waves_breaking_height(w->depth, w->length));
  } else if (s->incident_kind == WAVE_INCIDENT_IRREGULAR) {
    fprintf(out, "incident wave: irregular, Hs = %g m, Tp = %g s in h = %g m, %d components; c at Tp = %.5g m/s\n",
            hcl_case_real(r->run.c, "waves.hs"), hcl_case_real(r->run.c, "waves.tp"), s->incident_depth,
            s->irregular.components, s->celerity);
  } else {
    fprintf(out, "incident wave: none\n");
  }
  for (int n = 0; n < s->config.nzones; n++) {
    const WaveZone *z = &s->config.zones[n];
    static const char *const inward[] = {"+x", "-x", "+y", "-y"};
    const char *kind = z->kind == WAVE_ZONE_GENERATE ? "generation" : "absorption";
    if (z->region == WAVE_REGION_RING) {
      fprintf(out, "relaxation zone %d: %s ring, r %g to %g m about (%g, %g) m, towards its centre\n", n + 1, kind,
              z->r0, z->r1, z->cx, z->cy);
    } else {
      fprintf(out, "relaxation zone %d: %s, x %g to %g m, y %g to %g m, towards %s\n", n + 1, kind, z->x0, z->x1, z->y0,
              z->y1, inward[z->inward]);
    }
  }
}

/* validate's lines: the grid and solver, the waves and zones, the step, the kinematics lines. */
static void print_case(const RunContext *run, FILE *out) {
  const WaveRun *r = wave_run_of(run);
  const WaveSetup *s = &r->setup;
  double c = courant_speed(r);
  print_grid(r, out);
  print_waves(r, out);
  fprintf(out,
          "time step: %s %.4g s (Courant number %.3g for c = %.4g m/s; ERK4 stability limit %.4g s), about %.0f "
          "steps to t = %g s\n",
          s->dt_fixed > 0 ? "fixed" : "from time.courant,", r->dt_max, c * r->dt_max / least_spacing(s), c,
          r->step_limit, ceil(s->t_end / r->dt_max - 1e-9), s->t_end);
  for (int k = 0; k < r->nlines; k++) {
    fprintf(out, "kinematics line '%s' at the grid point x = %g m, y = %g m\n", r->lines[k].name, r->lines[k].x,
            r->lines[k].y);
  }
}

/* Mixed and double precision solve in double. */
static bool wave_needs_fp64(const Case *c, const RunRequest *request) {
  return request->precision_given ? request->precision == PRECISION_DOUBLE /* mixed: double */
                                  : strcmp(hcl_case_string(c, "solver.precision"), "single") != 0;
}

static HclStatus wave_case_check(const Case *c) {
  WaveSetup setup;
  HclStatus status = wave_setup_from_case(c, NULL, &setup);
  wave_setup_free(&setup);
  return status;
}

static const ModelOps wave_ops = {
    .run_size = sizeof(WaveRun),
    .check_interval = "10",
    .point = "point",
    .read_case = read_case,
    .device_bytes = device_bytes,
    .read_gauges = read_gauges,
    .prepare = prepare,
    .frame = frame_of,
    .outputs = outputs_of,
    .close = close_model,
    .print = print_case,
    .open = open_model,
    .restart_fields = restart_fields,
    .restart_scalars = restart_scalars,
    .bed = bed,
    .resume = resume,
    .write_static = write_depth,
    .write = write_output,
    .advance = advance,
    .check = check_state,
    .rollback = rollback,
    .describe = describe,
};

const Model wave_model = {
    .name = "potential-flow",
    .title = "hydrocl potential-flow case (fully nonlinear potential-flow waves, OceanWave3D's method)",
    .schema = wave_case_schema,
    .needs_fp64 = wave_needs_fp64,
    .check = wave_case_check,
    .capabilities = MODEL_MIXED_PRECISION,
    .ops = &wave_ops,
};
