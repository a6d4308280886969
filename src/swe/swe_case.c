/* SPDX-License-Identifier: BSD-3-Clause */
/* swe_case.c: the shallow-water case schema, and from a finished case to the solver's setup (see swe_case.h).
 * Shapes follow the thesis' test cases (../shared/papers/swe-gpu-explicit-implicit.txt, section 8.2) and the
 * analytic verification cases (Thacker 1981: planar surface in a paraboloid). */
#include "swe_case.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inputs.h"
#include "log.h"
#include "par.h"
#include "run.h"
#include "stencil5_precond.h"
#include "tides.h"

static const double PI = 3.14159265358979323846;

#define SIDE_KEYS(side)                                                                                                \
  {"boundary." side,                                                                                                   \
   CASE_CHOICE,                                                                                                        \
   "",                                                                                                                 \
   "wall",                                                                                                             \
   CASE_UNBOUNDED,                                                                                                     \
   "wall|periodic|level|weak-level",                                                                                   \
   "the " side " side: a closed wall, periodic (with the opposite side), a prescribed water level, or a level "        \
   "that lets outgoing waves leave"},                                                                                  \
      {"boundary." side "_level",                                                                                      \
       CASE_REAL,                                                                                                      \
       "m",                                                                                                            \
       "0",                                                                                                            \
       CASE_UNBOUNDED,                                                                                                 \
       NULL,                                                                                                           \
       "mean water level of a level side; on a weak-level side (required there) the still-water level the "            \
       "incoming signal (mean + tide, or the file) is measured from"},                                                 \
      {"boundary." side "_tide",                                                                                       \
       CASE_STRING,                                                                                                    \
       "",                                                                                                             \
       "",                                                                                                             \
       CASE_UNBOUNDED,                                                                                                 \
       NULL,                                                                                                           \
       "tidal constituents added to the mean: 'amplitude period phase; ...' in m, s and degrees, each "                \
       "amplitude cos(2 pi t / period - phase), or by name, 'M2 1.0 30; S2 0.3 60' (amplitude and phase; the "         \
       "standard constituents' periods; no nodal corrections: amplitude and phase as at time.start)"},                 \
  {                                                                                                                    \
    "boundary." side "_file", CASE_FILE, "", "", CASE_UNBOUNDED, NULL,                                                 \
        "a time series used instead of mean and tide: CSV 'time,level' (s, m), or netCDF level(time)"                  \
  }

/* The range of the case's depths, heights and levels [m]: the deepest ocean is 11 km; beyond 1e5 m a value is a
 * typing mistake, and in single precision the metres of the water column are lost in its rounding (a hump of 1e8 m
 * over 1 m of water overflowed to NaN within 20 steps). */
#define SWE_LEVEL_RANGE -1e5, 1e5

static const CaseKey swe_case_keys[] = {
    {"model.name", CASE_CHOICE, "", NULL, CASE_UNBOUNDED, "shallow-water", "the model this case is for"},
    {"model.title", CASE_STRING, "", "shallow-water run", CASE_UNBOUNDED, NULL, "a title for the output files"},
    {"grid.nx", CASE_INT, "", NULL, 3, 1000000, NULL, "cells in x"},
    {"grid.ny", CASE_INT, "", NULL, 3, 1000000, NULL, "cells in y"},
    {"grid.lx", CASE_REAL, "m", NULL, 1e-6, 1e9, NULL, "length of the domain in x"},
    {"grid.ly", CASE_REAL, "m", NULL, 1e-6, 1e9, NULL, "length of the domain in y"},
    {"grid.x0", CASE_REAL, "m", "0", CASE_UNBOUNDED, NULL, "x of the west edge"},
    {"grid.y0", CASE_REAL, "m", "0", CASE_UNBOUNDED, NULL, "y of the south edge"},
    {"grid.crs", CASE_STRING, "", "", CASE_UNBOUNDED, NULL,
     "coordinate reference system of x and y: an EPSG code (EPSG:32631) or WKT; '': local Cartesian metres"},
    {"bed.shape", CASE_CHOICE, "", "flat", CASE_UNBOUNDED, "flat|gaussian|ramp|paraboloid|file",
     "flat: depth; gaussian: depth - height exp(-r^2 / (2 width^2)) around (x, y); ramp: depth - height "
     "clamp((x - bed.x) / width, 0, 1); paraboloid: depth (1 - r^2 / width^2) around (x, y); file: bed.file"},
    {"bed.depth", CASE_REAL, "m", "1", SWE_LEVEL_RANGE, NULL,
     "depth of the bed below the reference level (positive down)"},
    {"bed.height", CASE_REAL, "m", "0", SWE_LEVEL_RANGE, NULL, "gaussian, ramp: how far the bed rises"},
    {"bed.x", CASE_REAL, "m", "0", CASE_UNBOUNDED, NULL, "gaussian, paraboloid: centre x; ramp: where the rise starts"},
    {"bed.y", CASE_REAL, "m", "0", CASE_UNBOUNDED, NULL, "gaussian, paraboloid: centre y"},
    {"bed.width", CASE_REAL, "m", "1", 1e-9, HUGE_VAL, NULL,
     "gaussian: standard deviation; ramp: length of the rise; paraboloid: radius where the bed meets the reference"},
    {"bed.file", CASE_FILE, "", "", CASE_UNBOUNDED, NULL,
     "file: a raster (GeoTIFF, ESRI ASCII grid, VRT, netCDF; warped from its CRS onto the cells) or a netCDF (dims "
     "y, x) or CSV (ny lines of nx numbers) grid at the cell centres"},
    {"bed.variable", CASE_STRING, "", "", CASE_UNBOUNDED, NULL, "file: the netCDF variable ('': its only 2D one)"},
    {"bed.positive", CASE_CHOICE, "", "down", CASE_UNBOUNDED, "down|up",
     "file: down when it holds depths below the reference, up when it holds bed elevations"},
    {"initial.shape", CASE_CHOICE, "", "flat", CASE_UNBOUNDED, "flat|gaussian|dam|thacker|file",
     "flat: level; gaussian: level + height exp(-r^2 / (2 width^2)) around (x, y); dam: level west of x, "
     "level_beyond east of it; thacker: Thacker's planar surface of amplitude height in a paraboloid bed"},
    {"initial.level", CASE_REAL, "m", "0", SWE_LEVEL_RANGE, NULL,
     "water level above the reference (cells where the bed is higher start dry)"},
    {"initial.height", CASE_REAL, "m", "0", SWE_LEVEL_RANGE, NULL, "gaussian: height of the hump; thacker: eta"},
    {"initial.x", CASE_REAL, "m", "0", CASE_UNBOUNDED, NULL, "gaussian: centre x; dam: x of the dam"},
    {"initial.y", CASE_REAL, "m", "0", CASE_UNBOUNDED, NULL, "gaussian: centre y"},
    {"initial.width", CASE_REAL, "m", "1", 1e-9, HUGE_VAL, NULL, "gaussian: standard deviation"},
    {"initial.level_beyond", CASE_REAL, "m", "0", SWE_LEVEL_RANGE, NULL, "dam: water level east of the dam"},
    {"initial.file", CASE_FILE, "", "", CASE_UNBOUNDED, NULL,
     "file: the water level above the reference at the cell centres, a file as bed.file (a raster, netCDF or CSV)"},
    {"initial.variable", CASE_STRING, "", "", CASE_UNBOUNDED, NULL, "file: the netCDF variable ('': its only 2D one)"},
    {"initial.fill", CASE_CHOICE, "", "everywhere", CASE_UNBOUNDED, "everywhere|from_boundary|from_point",
     "which cells below the initial level start wet: everywhere; from_boundary: those connected to a level side "
     "through cells below it, so that land behind a dike stays dry; from_point: those connected so to (fill_x, "
     "fill_y)"},
    {"initial.fill_x", CASE_REAL, "m", "0", CASE_UNBOUNDED, NULL, "from_point: x of the seed"},
    {"initial.fill_y", CASE_REAL, "m", "0", CASE_UNBOUNDED, NULL, "from_point: y of the seed"},
    {"rain.rate", CASE_REAL, "mm/h", "0", 0, 1e4, NULL, "rain on every cell, constant"},
    {"rain.file", CASE_FILE, "", "", CASE_UNBOUNDED, NULL,
     "rain on every cell as a series instead: CSV 'time,rain' (s or ISO 8601 dates, mm/h; a header may give other "
     "units, 'time [h],rain [mm/day]'), or netCDF rain(time)"},
    {"sources.file", CASE_FILE, "", "", CASE_UNBOUNDED, NULL,
     "point sources and sinks: CSV rows 'name,x,y,discharge' (m, m, m^3/s; negative: a sink, which takes at most the "
     "water there), the discharge a number or a series file ('time,discharge', relative to this file)"},
    {"physics.g", CASE_REAL, "m/s^2", "9.81", 1e-3, 100, NULL, "gravitational acceleration"},
    {"physics.dry_depth", CASE_REAL, "m", "0.001", 1e-9, 10, NULL,
     "a face dries when its upwinded water depth falls below this, and floods again above it"},
    {"physics.advection", CASE_CHOICE, "", "momentum", CASE_UNBOUNDED, "momentum|energy",
     "Stelling & Duinmeijer advection: momentum-conserving (bores, jumps) or energy-head-conserving (smooth "
     "contractions)"},
    {"physics.ordering", CASE_CHOICE, "", "sielecki", CASE_UNBOUNDED, "sielecki|hansen",
     "sielecki: u, then v with the new u, then zeta; hansen: u and v together, then zeta"},
    {"physics.friction", CASE_CHOICE, "", "chezy", CASE_UNBOUNDED, "none|chezy|manning", "bed friction law"},
    {"physics.friction_file", CASE_FILE, "", "", CASE_UNBOUNDED, NULL,
     "a roughness map instead of physics.chezy or physics.manning: the law's coefficient at every cell centre, a file "
     "as bed.file (a raster, netCDF or CSV); a face takes the mean of its two cells'"},
    {"physics.friction_variable", CASE_STRING, "", "", CASE_UNBOUNDED, NULL,
     "friction_file: the netCDF variable ('': its only 2D one)"},
    {"physics.chezy", CASE_REAL, "m^0.5/s", "65", 1, 1000, NULL, "Chezy coefficient C"},
    {"physics.manning", CASE_REAL, "s/m^(1/3)", "0.025", 1e-4, 1, NULL, "Manning coefficient n"},
    SIDE_KEYS("west"),
    SIDE_KEYS("east"),
    SIDE_KEYS("south"),
    SIDE_KEYS("north"),
    {"time.dt", CASE_REAL, "s", "0", 0, 1e6, NULL,
     "fixed time step, shortened evenly where needed so that steps land on output and restart times; 0: the "
     "largest the CFL number allows"},
    {"time.scheme", CASE_CHOICE, "", "explicit", CASE_UNBOUNDED, "explicit|implicit",
     "explicit: every term at step n, the step bound by the gravity-wave CFL limit; implicit: the level gradient "
     "and the continuity fluxes at theta, a 5-point system for the levels solved each step (solver.*), the step "
     "bound by the flow speed only"},
    {"time.theta", CASE_REAL, "", "0.55", 0.5, 1, NULL,
     "implicit: the weight of the new level in the momentum and continuity equations (0.5: second order in time "
     "and no damping; 1: first order, most damping)"},
    {"time.cfl", CASE_REAL, "", "0.5", 1e-3, 1, NULL,
     "CFL number the time step keeps below: explicit (|u| + sqrt(g h)) dt sqrt(1/dx^2 + 1/dy^2); implicit the "
     "advective |u| dt sqrt(1/dx^2 + 1/dy^2)"},
    {"time.wave_cfl", CASE_REAL, "", "10", 0.01, 1e4, NULL,
     "implicit, with time.dt 0: the gravity-wave Courant number sqrt(g h) dt sqrt(1/dx^2 + 1/dy^2) the step "
     "keeps below as well (accuracy, not stability: Delft3D-FLOW's practice is up to 10)"},
    {"output.mask_dry", CASE_BOOL, "", "true", CASE_UNBOUNDED, NULL,
     "zeta, u and v of dry cells (and of gauges next to one) stored as missing values (_FillValue); false: a dry "
     "cell's zeta is its bed level, u and v 0"},
    {"output.maxima", CASE_BOOL, "", "false", CASE_UNBOUNDED, NULL,
     "map.nc also holds the run's maximum level, depth and speed and each cell's first wetting time"},
};
HclStatus swe_case_schema(CaseSchema *schema) {
  HclStatus status = HCL_OK;
  KrylovOptions defaults = hcl_swe_krylov_defaults();
  TRY(hcl_case_schema_add(schema, "", swe_case_keys, (int)(sizeof swe_case_keys / sizeof swe_case_keys[0])));
  TRY(hcl_krylov_add_keys(schema, SWE_SOLVER_PREFIX, &defaults));
  TRY(hcl_stencil5_add_precond_keys(schema, SWE_SOLVER_PREFIX));
cleanup:
  return status;
}

static HclStatus choice_index(const Case *c, const char *key, const char *const *words, int nwords, int *out) {
  HclStatus status = HCL_OK;
  const char *value = hcl_case_string(c, key);
  for (int w = 0; w < nwords; w++) {
    if (strcmp(value, words[w]) == 0) {
      *out = w;
      return HCL_OK;
    }
  }
  FAIL(HCL_EINTERNAL, "%s: choice '%s' not handled (please report)", key, value);
cleanup:
  return status;
}

/* Parses "amplitude period phase; ..." (m, s, degrees) into signal. */
/* One constituent of a tide key at text: 'NAME amplitude phase' (a named constituent, tides.h: its own period) or
 * 'amplitude period phase'; *used: the characters read, 0 when it is neither. */
static void parse_constituent(const char *text, double *a, double *period, double *phase, int *used,
                              const TideConstituent **named) {
  char name[16];
  *used = 0;
  *named = NULL;
  if (sscanf(text, "%15[A-Za-z0-9] %lf %lf%n", name, a, phase, used) == 3 && (*named = hcl_tide_constituent(name))) {
    *period = hcl_tide_period(*named);
  } else if (sscanf(text, "%lf %lf %lf%n", a, period, phase, used) != 3) {
    *used = 0;
  }
}

/* Parses "amplitude period phase; ..." (m, s, degrees), or a named constituent's "NAME amplitude phase", into
 * signal. */
static HclStatus parse_constituents(const Case *c, const char *key, SweLevelSignal *signal) {
  HclStatus status = HCL_OK;
  const char *text = hcl_case_string(c, key);
  while (*text) {
    double a, period, phase;
    int used = 0;
    const TideConstituent *named;
    while (*text == ' ' || *text == ';') {
      text++;
    }
    if (!*text) {
      break;
    }
    parse_constituent(text, &a, &period, &phase, &used, &named);
    REQUIRE(used > 0, HCL_EDATA,
            "%s: %s must be 'amplitude period phase; ...' in m, s and degrees, or 'NAME amplitude phase; ...' with "
            "NAME one of %s (got '%s')",
            hcl_case_origin(c, key), key, hcl_tide_names(), hcl_case_string(c, key));
    REQUIRE(period > 0 && isfinite(a) && isfinite(phase), HCL_EDATA,
            "%s: %s: a constituent's period must be > 0 s (got '%s')", hcl_case_origin(c, key), key,
            hcl_case_string(c, key));
    REQUIRE(signal->nconstituents < SWE_MAX_CONSTITUENTS, HCL_EDATA, "%s: %s has more than %d constituents",
            hcl_case_origin(c, key), key, SWE_MAX_CONSTITUENTS);
    signal->amplitude[signal->nconstituents] = a;
    signal->period[signal->nconstituents] = period;
    signal->phase[signal->nconstituents] = phase * PI / 180;
    signal->nconstituents++;
    text += used;
    REQUIRE(*text == '\0' || *text == ';' || *text == ' ', HCL_EDATA,
            "%s: %s must be 'amplitude period phase; ...' or 'NAME amplitude phase; ...' (got '%s')",
            hcl_case_origin(c, key), key, hcl_case_string(c, key));
  }
cleanup:
  return status;
}

static bool given(const Case *c, const char *key) {
  return strcmp(hcl_case_origin(c, key), "default") != 0;
}

/* Whether a side's signal key holds something other than its default (a template writes the defaults out). */
static bool set_apart_from_default(const Case *c, const char *key) {
  const char *suffix = strrchr(key, '_');
  return strcmp(suffix, "_level") == 0
             ? hcl_case_real(c, key) != 0
             : (strcmp(suffix, "_file") == 0 ? hcl_case_file(c, key) : hcl_case_string(c, key))[0];
}

/* The signal keys of a side must fit its kind: none set on a wall or periodic side, not both a file and a tide,
 * and a weak-level side states its still-water level (the incoming signal is measured from it). */
static HclStatus check_side_keys(const Case *c, const char *side, const char *kind) {
  HclStatus status = HCL_OK;
  char level[64], tide[64], file[64];
  snprintf(level, sizeof level, "boundary.%s_level", side);
  snprintf(tide, sizeof tide, "boundary.%s_tide", side);
  snprintf(file, sizeof file, "boundary.%s_file", side);
  bool is_level = strcmp(kind, "level") == 0 || strcmp(kind, "weak-level") == 0;
  const char *stray = set_apart_from_default(c, level)  ? level
                      : set_apart_from_default(c, tide) ? tide
                      : set_apart_from_default(c, file) ? file
                                                        : NULL;
  REQUIRE(is_level || stray == NULL, HCL_EDATA, "%s: %s is given but boundary.%s is %s (set boundary.%s: level)",
          stray ? hcl_case_origin(c, stray) : "", stray ? stray : "", side, kind, side);
  REQUIRE(!(set_apart_from_default(c, tide) && set_apart_from_default(c, file)), HCL_EDATA,
          "%s: %s and %s are both given; a side takes its level from one of them", hcl_case_origin(c, file), tide,
          file);
  REQUIRE(strcmp(kind, "level") != 0 || !(set_apart_from_default(c, level) && set_apart_from_default(c, file)),
          HCL_EDATA,
          "%s: %s and %s are both given; on a level side the file holds the whole level (add the mean to "
          "its values, or use %s with a tide)",
          hcl_case_origin(c, file), level, file, level);
  REQUIRE(strcmp(kind, "weak-level") != 0 || given(c, level), HCL_EDATA,
          "boundary.%s is weak-level but %s is not given: set it to the still-water level the incoming signal is "
          "measured from",
          side, level);
cleanup:
  return status;
}

/* A series that starts after t = 0 or ends before time.end is held at its first or last level there: allowed (a
 * spin-up, a quiet end), but more often a file that does not cover the run, so rank 0 says so. */
static void warn_short_series(const Case *c, const char *key, const SweLevelSignal *signal) {
  double first = signal->series_times[0], last = signal->series_times[signal->series_count - 1];
  double t_end = hcl_case_real(c, "time.end");
  if (hcl_par_rank() == 0 && (first > 0 || last < t_end)) {
    hcl_log_warn("%s: the series of %s covers %g s to %g s of a run from 0 s to %g s; its %s level is held beyond that",
                 hcl_case_origin(c, key), hcl_case_file(c, key), first, last, t_end,
                 first > 0 && last < t_end ? "first and last" : (first > 0 ? "first" : "last"));
  }
}

/* The boundaries: periodic sides must come in pairs and set the decomposition; level sides read their signal. */
static HclStatus read_sides(const Case *c, SweSetup *setup) {
  HclStatus status = HCL_OK;
  static const char *const names[SWE_SIDES] = {"west", "east", "south", "north"};
  static const char *const kinds[] = {"wall", "periodic", "level", "weak-level"};
  int kind[SWE_SIDES];
  char key[64];
  for (int side = 0; side < SWE_SIDES; side++) {
    snprintf(key, sizeof key, "boundary.%s", names[side]);
    TRY(choice_index(c, key, kinds, 4, &kind[side]));
  }
  for (int axis = 0; axis < 2; axis++) {
    int a = 2 * axis, b = a + 1;
    REQUIRE((kind[a] == 1) == (kind[b] == 1), HCL_EDATA,
            "%s: boundary.%s is %s but boundary.%s is %s: periodic sides come in pairs",
            hcl_case_origin(c, kind[a] == 1 ? (axis ? "boundary.south" : "boundary.west")
                                            : (axis ? "boundary.north" : "boundary.east")),
            names[a], kinds[kind[a]], names[b], kinds[kind[b]]);
  }
  setup->grid.periodic_x = kind[SWE_WEST] == 1;
  setup->grid.periodic_y = kind[SWE_SOUTH] == 1;
  for (int side = 0; side < SWE_SIDES; side++) {
    TRY(check_side_keys(c, names[side], kinds[kind[side]]));
  }
  for (int side = 0; side < SWE_SIDES; side++) {
    SweLevelSignal *signal = &setup->signals[side];
    setup->config.sides[side] = kind[side] == 2   ? SWE_SIDE_LEVEL
                                : kind[side] == 3 ? SWE_SIDE_WEAK_LEVEL
                                                  : SWE_SIDE_WALL;
    snprintf(key, sizeof key, "boundary.%s_level", names[side]);
    signal->mean = hcl_case_real(c, key);
    setup->config.reference_level[side] = signal->mean;
    snprintf(key, sizeof key, "boundary.%s_tide", names[side]);
    TRY(parse_constituents(c, key, signal));
    snprintf(key, sizeof key, "boundary.%s_file", names[side]);
    if (kind[side] >= 2 && hcl_case_file(c, key)[0]) {
      TRY(hcl_input_read_series(hcl_case_file(c, key), setup->start, "m", &signal->series_times, &signal->series_levels,
                                &signal->series_count));
      warn_short_series(c, key, signal);
    }
  }
cleanup:
  return status;
}

/* The height, centre and width of a shape in section ("bed", "initial"). */
static void read_placement(const Case *c, const char *section, double *height, double *x, double *y, double *width) {
  char key[64];
  double *values[] = {height, x, y, width};
  const char *names[] = {"height", "x", "y", "width"};
  for (int k = 0; k < 4; k++) {
    snprintf(key, sizeof key, "%s.%s", section, names[k]);
    *values[k] = hcl_case_real(c, key);
  }
}

/* Where a grid file's values must lie: the cell centres. */
static InputAxes cell_axes(const SweSetup *setup) {
  return (InputAxes){.x0 = setup->x0 + setup->config.dx / 2,
                     .dx = setup->config.dx,
                     .y0 = setup->y0 + setup->config.dy / 2,
                     .dy = setup->config.dy,
                     .keys = "cell centres, x0 + (i + 0.5) lx / nx of grid.x0, grid.lx, grid.nx and so in y",
                     .crs = setup->crs,
                     .sampling = INPUT_LEVELS};
}

static HclStatus read_bed(const Case *c, SweSetup *setup) {
  HclStatus status = HCL_OK;
  static const char *const shapes[] = {"flat", "gaussian", "ramp", "paraboloid", "file"};
  SweBed *bed = &setup->bed;
  int shape = 0;
  TRY(choice_index(c, "bed.shape", shapes, 5, &shape));
  bed->shape = (BedShape)shape;
  bed->depth = hcl_case_real(c, "bed.depth");
  read_placement(c, "bed", &bed->height, &bed->x, &bed->y, &bed->width);
  if (bed->shape != BED_FILE) {
    goto cleanup;
  }
  InputAxes cells = cell_axes(setup);
  TRY(run_read_bed_file(c, setup->grid.nx, setup->grid.ny, &cells, &bed->values, &bed->source));
cleanup:
  return status;
}

static HclStatus read_initial_file(const Case *c, SweSetup *setup) {
  HclStatus status = HCL_OK;
  SweInitial *in = &setup->initial;
  const char *path = hcl_case_file(c, "initial.file");
  const char *variable = hcl_case_string(c, "initial.variable");
  InputAxes cells = cell_axes(setup);
  REQUIRE(path[0], HCL_EDATA, "%s: initial.shape is file but initial.file is not given",
          hcl_case_origin(c, "initial.shape"));
  TRY_ALLOC(in->values, (size_t)setup->grid.nx * setup->grid.ny);
  TRY(hcl_input_read_grid(path, variable[0] ? variable : NULL, setup->grid.nx, setup->grid.ny, &cells, in->values,
                          &in->source));
cleanup:
  return status;
}

static HclStatus read_initial(const Case *c, SweSetup *setup) {
  HclStatus status = HCL_OK;
  static const char *const shapes[] = {"flat", "gaussian", "dam", "thacker", "file"};
  static const char *const fills[] = {"everywhere", "from_boundary", "from_point"};
  SweInitial *in = &setup->initial;
  int shape = 0, fill = 0;
  TRY(choice_index(c, "initial.shape", shapes, 5, &shape));
  TRY(choice_index(c, "initial.fill", fills, 3, &fill));
  in->fill = (InitialFill)fill;
  in->fill_x = hcl_case_real(c, "initial.fill_x");
  in->fill_y = hcl_case_real(c, "initial.fill_y");
  in->shape = (InitialShape)shape;
  in->level = hcl_case_real(c, "initial.level");
  read_placement(c, "initial", &in->height, &in->x, &in->y, &in->width);
  in->level_beyond = hcl_case_real(c, "initial.level_beyond");
  double x_end = setup->x0 + hcl_case_real(c, "grid.lx");
  REQUIRE(in->shape != INITIAL_DAM || (in->x > setup->x0 && in->x < x_end), HCL_EDATA,
          "%s: initial.x = %g m puts the dam outside the domain (%g to %g m)", hcl_case_origin(c, "initial.x"), in->x,
          setup->x0, x_end);
  REQUIRE(in->shape != INITIAL_THACKER || setup->bed.shape == BED_PARABOLOID, HCL_EDATA,
          "%s: initial.shape thacker needs bed.shape paraboloid (got %s)", hcl_case_origin(c, "initial.shape"),
          hcl_case_string(c, "bed.shape"));
  if (in->shape == INITIAL_FILE) {
    TRY(read_initial_file(c, setup));
  }
cleanup:
  return status;
}

/* physics.friction_file: every cell's coefficient of the friction law, which must be chezy or manning, positive. */
static HclStatus read_friction_map(const Case *c, SweSetup *setup) {
  HclStatus status = HCL_OK;
  const char *path = hcl_case_file(c, "physics.friction_file");
  const char *variable = hcl_case_string(c, "physics.friction_variable");
  size_t n = (size_t)setup->grid.nx * setup->grid.ny;
  InputAxes cells = cell_axes(setup);
  if (!path[0]) {
    goto cleanup;
  }
  REQUIRE(setup->config.friction != SWE_FRICTION_NONE, HCL_EDATA,
          "%s: physics.friction_file gives a roughness map, and physics.friction is none: set it to chezy or manning, "
          "the law the map's values are coefficients of",
          hcl_case_origin(c, "physics.friction_file"));
  TRY_ALLOC(setup->friction_values, n);
  TRY(hcl_input_read_grid(path, variable[0] ? variable : NULL, setup->grid.nx, setup->grid.ny, &cells,
                          setup->friction_values, &setup->friction_source));
  for (size_t p = 0; p < n; p++) {
    REQUIRE(setup->friction_values[p] > 0, HCL_EDATA,
            "%s: the %s coefficient at cell %zu, %zu is %g; a friction coefficient is positive", path,
            hcl_case_string(c, "physics.friction"), p % (size_t)setup->grid.nx, p / (size_t)setup->grid.nx,
            setup->friction_values[p]);
  }
  setup->config.friction_map = true;
cleanup:
  return status;
}

static HclStatus read_physics(const Case *c, Precision precision, SweSetup *setup) {
  HclStatus status = HCL_OK;
  static const char *const frictions[] = {"none", "chezy", "manning"};
  SweConfig *config = &setup->config;
  int friction = 0;
  config->dx = hcl_case_real(c, "grid.lx") / (double)setup->grid.nx;
  config->dy = hcl_case_real(c, "grid.ly") / (double)setup->grid.ny;
  config->g = hcl_case_real(c, "physics.g");
  config->dry_depth = hcl_case_real(c, "physics.dry_depth");
  config->advection =
      strcmp(hcl_case_string(c, "physics.advection"), "energy") == 0 ? SWE_ADVECTION_ENERGY : SWE_ADVECTION_MOMENTUM;
  config->ordering =
      strcmp(hcl_case_string(c, "physics.ordering"), "hansen") == 0 ? SWE_ORDERING_HANSEN : SWE_ORDERING_SIELECKI;
  TRY(choice_index(c, "physics.friction", frictions, 3, &friction));
  config->friction = (SweFriction)friction;
  config->friction_coefficient =
      friction == SWE_FRICTION_MANNING ? hcl_case_real(c, "physics.manning") : hcl_case_real(c, "physics.chezy");
  TRY(read_friction_map(c, setup));
  config->precision = precision;
  config->scheme =
      strcmp(hcl_case_string(c, "time.scheme"), "implicit") == 0 ? SWE_SCHEME_IMPLICIT : SWE_SCHEME_EXPLICIT;
  config->theta = hcl_case_real(c, "time.theta");
  TRY(config->scheme == SWE_SCHEME_IMPLICIT
          ? hcl_stencil5_cg_options_from_case(c, SWE_SOLVER_PREFIX, "the level system", &config->krylov)
          : hcl_krylov_options_from_case(c, SWE_SOLVER_PREFIX, &config->krylov));
cleanup:
  return status;
}

/* Keys that only some choices of another key use: given a value other than their default under another choice
 * they do nothing, which rank 0 says (a warning, not a refusal: switching bed.shape with --set leaves the old
 * shape's keys in the file). */
static const RunKeyUse CHOICE_KEYS[] = {
    {"physics.chezy", "physics.friction", "chezy"},
    {"physics.manning", "physics.friction", "manning"},
    {"bed.height", "bed.shape", "gaussian|ramp"},
    {"bed.x", "bed.shape", "gaussian|ramp|paraboloid"},
    {"bed.y", "bed.shape", "gaussian|paraboloid"},
    {"bed.width", "bed.shape", "gaussian|ramp|paraboloid"},
    {"bed.file", "bed.shape", "file"},
    {"bed.variable", "bed.shape", "file"},
    {"initial.height", "initial.shape", "gaussian|thacker"},
    {"initial.file", "initial.shape", "file"},
    {"initial.variable", "initial.shape", "file"},
    {"initial.fill_x", "initial.fill", "from_point"},
    {"initial.fill_y", "initial.fill", "from_point"},
    {"initial.x", "initial.shape", "gaussian|dam"},
    {"initial.y", "initial.shape", "gaussian"},
    {"initial.width", "initial.shape", "gaussian"},
    {"initial.level_beyond", "initial.shape", "dam"},
    {"time.theta", "time.scheme", "implicit"},
    {"time.wave_cfl", "time.scheme", "implicit"},
    {"physics.ordering", "time.scheme", "explicit"},
    {SWE_SOLVER_PREFIX "method", "time.scheme", "implicit"},
    {SWE_SOLVER_PREFIX "rtol", "time.scheme", "implicit"},
    {SWE_SOLVER_PREFIX "atol", "time.scheme", "implicit"},
    {SWE_SOLVER_PREFIX "max_iterations", "time.scheme", "implicit"},
    {SWE_SOLVER_PREFIX "norm", "time.scheme", "implicit"},
    {SWE_SOLVER_PREFIX "preconditioner", "time.scheme", "implicit"},
    {SWE_SOLVER_PREFIX "rrb_levels", "time.scheme", "implicit"},
    {SWE_SOLVER_PREFIX "rrb_exact", "time.scheme", "implicit"},
};

static HclStatus fill_initial(const Case *c, SweSetup *setup);

HclStatus swe_setup_from_case(const Case *c, Precision precision, SweSetup *setup) {
  HclStatus status = HCL_OK;
  memset(setup, 0, sizeof *setup);
  setup->grid = run_read_grid(c);
  setup->x0 = hcl_case_real(c, "grid.x0");
  setup->y0 = hcl_case_real(c, "grid.y0");
  TRY(run_read_crs(c, "grid.crs", &setup->crs));
  setup->t_end = hcl_case_real(c, "time.end");
  TRY(run_time_units(c, "time.start", &setup->start, setup->time_units, sizeof setup->time_units));
  setup->dt_fixed = hcl_case_real(c, "time.dt");
  setup->cfl = hcl_case_real(c, "time.cfl");
  setup->wave_cfl = hcl_case_real(c, "time.wave_cfl");
  TRY(read_physics(c, precision, setup));
  TRY(read_sides(c, setup));
  TRY(read_bed(c, setup));
  TRY(read_initial(c, setup));
  TRY(fill_initial(c, setup));
  SweForcingGrid cells = {setup->grid.nx,   setup->grid.ny,   setup->x0,   setup->y0,
                          setup->config.dx, setup->config.dy, setup->start};
  TRY(swe_forcing_read(c, &cells, &setup->forcing));
  run_warn_unused_keys(c, CHOICE_KEYS, (int)(sizeof CHOICE_KEYS / sizeof CHOICE_KEYS[0]));
cleanup:
  return status;
}

void swe_setup_free(SweSetup *setup) {
  for (int side = 0; side < SWE_SIDES; side++) {
    free(setup->signals[side].series_times);
    free(setup->signals[side].series_levels);
  }
  free(setup->bed.values);
  free(setup->initial.values);
  free(setup->initial.filled);
  free(setup->friction_values);
  swe_forcing_free(&setup->forcing);
  hcl_crs_destroy(&setup->crs);
  memset(setup, 0, sizeof *setup);
}

double swe_level_at(const SweLevelSignal *signal, double t) {
  if (signal->series_count > 0) {
    return hcl_input_series_at(signal->series_times, signal->series_levels, signal->series_count, t);
  }
  double level = signal->mean;
  for (int k = 0; k < signal->nconstituents; k++) {
    level += signal->amplitude[k] * cos(2 * PI * t / signal->period[k] - signal->phase[k]);
  }
  return level;
}

static double gaussian(double x, double y, double cx, double cy, double width) {
  double r2 = (x - cx) * (x - cx) + (y - cy) * (y - cy);
  return exp(-r2 / (2 * width * width));
}

/* Depth of the bed below the reference at (x, y), global cell (gi, gj). */
static double bed_depth(const SweBed *bed, int nx, int gi, int gj, double x, double y) {
  switch (bed->shape) {
  case BED_GAUSSIAN:
    return bed->depth - bed->height * gaussian(x, y, bed->x, bed->y, bed->width);
  case BED_RAMP:
    return bed->depth - bed->height * fmin(fmax((x - bed->x) / bed->width, 0), 1);
  case BED_PARABOLOID:
    return bed->depth * (1 - ((x - bed->x) * (x - bed->x) + (y - bed->y) * (y - bed->y)) / (bed->width * bed->width));
  case BED_FILE:
    return bed->values[(size_t)gj * nx + gi];
  case BED_FLAT:
    break;
  }
  return bed->depth;
}

/* Thacker's planar surface in a paraboloid (Thacker 1981; SWASHES 4.2.2) at t = 0: for a bed of depth
 * h0 (1 - r^2 / a^2) the level is eta h0 / a^2 (2 (x - xc) - eta), u = 0, v = eta omega with
 * omega = sqrt(2 g h0) / a; the surface then rotates about the centre with period 2 pi / omega. */
static double thacker_level(const SweSetup *s, double x) {
  const SweBed *bed = &s->bed;
  double eta = s->initial.height;
  return eta * bed->depth / (bed->width * bed->width) * (2 * (x - bed->x) - eta);
}

static double initial_level(const SweSetup *s, int gi, int gj, double x, double y) {
  const SweInitial *in = &s->initial;
  switch (in->shape) {
  case INITIAL_FILE:
    return in->values[(size_t)gj * s->grid.nx + gi];
  case INITIAL_GAUSSIAN:
    return in->level + in->height * gaussian(x, y, in->x, in->y, in->width);
  case INITIAL_DAM:
    return x < in->x ? in->level : in->level_beyond;
  case INITIAL_THACKER:
    return thacker_level(s, x);
  case INITIAL_FLAT:
    break;
  }
  return in->level;
}

/* Whether the initial level lies above the bed of global cell (gi, gj): water there, if the fill reaches it. */
static bool below_level(const SweSetup *s, int gi, int gj) {
  double x = s->x0 + (gi + 0.5) * s->config.dx, y = s->y0 + (gj + 0.5) * s->config.dy;
  return initial_level(s, gi, gj, x, y) + bed_depth(&s->bed, s->grid.nx, gi, gj, x, y) > 0;
}

/* A growing stack of global cell indices. */
typedef struct {
  size_t *cells, count, capacity;
} CellStack;

static HclStatus push_cell(CellStack *stack, size_t cell) {
  HclStatus status = HCL_OK;
  if (stack->count == stack->capacity) {
    size_t larger = stack->capacity ? 2 * stack->capacity : 4096;
    size_t *bigger = realloc(stack->cells, larger * sizeof *bigger);
    REQUIRE(bigger != NULL, HCL_ENOMEM, "cannot hold %zu cells for initial.fill", larger);
    stack->cells = bigger;
    stack->capacity = larger;
  }
  stack->cells[stack->count++] = cell;
cleanup:
  return status;
}

/* Marks global cell (gi, gj) filled and pushes it, where the level lies above its bed and it is not yet marked; a
 * periodic axis wraps. */
static HclStatus reach(const SweSetup *s, int gi, int gj, CellStack *stack) {
  const DecompSpec *g = &s->grid;
  gi = g->periodic_x ? (gi + g->nx) % g->nx : gi;
  gj = g->periodic_y ? (gj + g->ny) % g->ny : gj;
  if (gi < 0 || gi >= g->nx || gj < 0 || gj >= g->ny) {
    return HCL_OK;
  }
  size_t cell = (size_t)gj * g->nx + gi;
  if (s->initial.filled[cell] || !below_level(s, gi, gj)) {
    return HCL_OK;
  }
  s->initial.filled[cell] = 1;
  return push_cell(stack, cell);
}

/* The seeds of the fill: every cell of the outermost column (row) of a level side, or the cell holding the point. */
static HclStatus seed(const Case *c, SweSetup *s, CellStack *stack) {
  HclStatus status = HCL_OK;
  const DecompSpec *g = &s->grid;
  if (s->initial.fill == FILL_FROM_POINT) {
    int gi = (int)floor((s->initial.fill_x - s->x0) / s->config.dx);
    int gj = (int)floor((s->initial.fill_y - s->y0) / s->config.dy);
    REQUIRE(gi >= 0 && gi < g->nx && gj >= 0 && gj < g->ny, HCL_EDATA,
            "%s: initial.fill_x, initial.fill_y = (%g, %g) m lie outside the grid",
            hcl_case_origin(c, "initial.fill_x"), s->initial.fill_x, s->initial.fill_y);
    REQUIRE(below_level(s, gi, gj), HCL_EDATA,
            "%s: initial.fill_x, initial.fill_y = (%g, %g) m lie in a cell whose bed is above the initial level: the "
            "seed must be under water",
            hcl_case_origin(c, "initial.fill_x"), s->initial.fill_x, s->initial.fill_y);
    return reach(s, gi, gj, stack);
  }
  bool any = false;
  for (int side = 0; side < SWE_SIDES; side++) {
    bool periodic = side < SWE_SOUTH ? g->periodic_x : g->periodic_y;
    if (periodic || s->config.sides[side] == SWE_SIDE_WALL) {
      continue;
    }
    any = true;
    int length = side < SWE_SOUTH ? g->ny : g->nx;
    for (int k = 0; k < length; k++) {
      int gi = side == SWE_WEST ? 0 : side == SWE_EAST ? g->nx - 1 : k;
      int gj = side == SWE_SOUTH ? 0 : side == SWE_NORTH ? g->ny - 1 : k;
      TRY(reach(s, gi, gj, stack));
    }
  }
  REQUIRE(any, HCL_EDATA, "%s: initial.fill from_boundary fills from level sides, and every side is a wall or periodic",
          hcl_case_origin(c, "initial.fill"));
cleanup:
  return status;
}

/* The cells the initial level fills (initial.fill): from the seeds through the four neighbours of each cell whose
 * bed lies below the level (h > 0, the solver's rule for a wet cell), as water reaching them would; the rest start
 * dry at their bed. Every rank marks the global grid, the same way. */
static HclStatus fill_initial(const Case *c, SweSetup *setup) {
  HclStatus status = HCL_OK;
  SweInitial *in = &setup->initial;
  CellStack stack = {0};
  if (in->fill == FILL_EVERYWHERE) {
    return HCL_OK;
  }
  int nx = setup->grid.nx;
  TRY_ALLOC(in->filled, (size_t)nx * setup->grid.ny);
  memset(in->filled, 0, (size_t)nx * setup->grid.ny);
  TRY(seed(c, setup, &stack));
  while (stack.count > 0) {
    size_t cell = stack.cells[--stack.count];
    int gi = (int)(cell % (size_t)nx), gj = (int)(cell / (size_t)nx);
    TRY(reach(setup, gi - 1, gj, &stack));
    TRY(reach(setup, gi + 1, gj, &stack));
    TRY(reach(setup, gi, gj - 1, &stack));
    TRY(reach(setup, gi, gj + 1, &stack));
  }
  for (int gj = 0; gj < setup->grid.ny; gj++) {
    for (int gi = 0; gi < nx; gi++) {
      in->filled_count += in->filled[(size_t)gj * nx + gi];
      in->below_count += below_level(setup, gi, gj);
    }
  }
cleanup:
  free(stack.cells);
  return status;
}

void swe_local_block(const SweSetup *setup, const Decomp *decomp, const double *values, double *block) {
  const DecompLocal *l = hcl_decomp_local(decomp);
  for (int j = 0; j < l->ny; j++) {
    memcpy(block + (size_t)j * l->nx, values + (size_t)(l->y0 + j) * setup->grid.nx + l->x0,
           (size_t)l->nx * sizeof *block);
  }
}

void swe_initial_state(const SweSetup *s, const Decomp *decomp, double *depth, double *zeta, double *u, double *v) {
  const DecompLocal *l = hcl_decomp_local(decomp);
  double dx = s->config.dx, dy = s->config.dy;
  double thacker_v = 0;
  if (s->initial.shape == INITIAL_THACKER) {
    thacker_v = s->initial.height * sqrt(2 * s->config.g * s->bed.depth) / s->bed.width;
  }
  for (int j = 0; j < l->ny; j++) {
    for (int i = 0; i < l->nx; i++) {
      int gi = l->x0 + i, gj = l->y0 + j;
      double x = s->x0 + (gi + 0.5) * dx, y = s->y0 + (gj + 0.5) * dy;
      size_t p = (size_t)j * l->nx + i;
      depth[p] = bed_depth(&s->bed, s->grid.nx, gi, gj, x, y);
      zeta[p] = initial_level(s, gi, gj, x, y);
      if (s->initial.filled && !s->initial.filled[(size_t)gj * s->grid.nx + gi]) {
        zeta[p] = -depth[p]; /* below the level but cut off from where it comes from: dry, at the bed */
      }
      u[p] = 0;
      v[p] = thacker_v;
    }
  }
}

double swe_initial_speed(const SweSetup *s, const double *depth, const double *zeta, const double *u, const double *v,
                         size_t n, bool with_waves) {
  double fastest = 0;
  for (size_t p = 0; p < n; p++) {
    double h = zeta[p] + depth[p];
    if (h > s->config.dry_depth) {
      fastest = fmax(fastest, sqrt(u[p] * u[p] + v[p] * v[p]) + (with_waves ? sqrt(s->config.g * h) : 0));
    }
  }
  return fastest;
}
