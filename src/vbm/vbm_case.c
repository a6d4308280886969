/* SPDX-License-Identifier: BSD-3-Clause */
/* vbm_case.c: the variational Boussinesq case schema, and from a finished case to the model's setup (see
 * vbm_case.h). */
#include "vbm_case.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inputs.h"
#include "log.h"
#include "par.h"
#include "run.h"
#include "stencil5_precond.h"
#include "waves.h"

static const double PI = 3.14159265358979323846;

/* The deepest water of a case [m], a bound against typing mistakes (the oceans' deepest is 11 km): bed.depth's range
 * in the schema, and a bed file's. */
#define VBM_DEPTH_MAX 1e5

#define SIDE_KEY(side)                                                                                                 \
  {                                                                                                                    \
    "boundary." side, CASE_CHOICE, "", "wall", CASE_UNBOUNDED, "wall|sponge",                                          \
        "the " side " side: a closed wall, or a sponge layer that absorbs the waves leaving there"                     \
  }

static const CaseKey vbm_case_keys[] = {
    {"model.name", CASE_CHOICE, "", NULL, CASE_UNBOUNDED, "variational-boussinesq", "the model this case is for"},
    {"model.title", CASE_STRING, "", "ship waves", CASE_UNBOUNDED, NULL, "a title for the output files"},
    {"grid.nx", CASE_INT, "", NULL, 3, 1000000, NULL, "cells in x"},
    {"grid.ny", CASE_INT, "", NULL, 3, 1000000, NULL, "cells in y"},
    {"grid.lx", CASE_REAL, "m", NULL, 1e-6, 1e9, NULL, "length of the domain in x"},
    {"grid.ly", CASE_REAL, "m", NULL, 1e-6, 1e9, NULL, "length of the domain in y"},
    {"grid.x0", CASE_REAL, "m", "0", CASE_UNBOUNDED, NULL, "x of the west edge"},
    {"grid.y0", CASE_REAL, "m", "0", CASE_UNBOUNDED, NULL, "y of the south edge"},
    {"grid.crs", CASE_STRING, "", "", CASE_UNBOUNDED, NULL,
     "coordinate reference system of x and y: an EPSG code (EPSG:32631) or WKT; '': local Cartesian metres"},
    {"bed.shape", CASE_CHOICE, "", "flat", CASE_UNBOUNDED, "flat|file", "flat: bed.depth everywhere; file: bed.file"},
    {"bed.depth", CASE_REAL, "m", "10", -HUGE_VAL, VBM_DEPTH_MAX, NULL,
     "still-water depth (positive down; <= 0: land)"},
    {"bed.file", CASE_FILE, "", "", CASE_UNBOUNDED, NULL,
     "file: a raster (GeoTIFF, ESRI ASCII grid, VRT, netCDF; warped from its CRS onto the cells) or a netCDF (dims "
     "y, x) or CSV (ny lines of nx numbers) grid of depths at the cell centres; <= 0: land"},
    {"bed.variable", CASE_STRING, "", "", CASE_UNBOUNDED, NULL, "file: the netCDF variable ('': its only 2D one)"},
    {"bed.positive", CASE_CHOICE, "", "down", CASE_UNBOUNDED, "down|up",
     "file: down when it holds depths below the still water, up when it holds bed elevations"},
    {"land.file", CASE_FILE, "", "", CASE_UNBOUNDED, NULL,
     "a mask of land (quays, islands, breakwaters) at the cell centres, a file as bed.file (a raster's nearest "
     "pixel): nonzero is land; "
     "'': land only where the depth is <= 0"},
    {"land.variable", CASE_STRING, "", "", CASE_UNBOUNDED, NULL, "the mask's netCDF variable ('': its only 2D one)"},
    {"current.u", CASE_REAL, "m/s", "0", -100, 100, NULL, "a uniform current's x component"},
    {"current.v", CASE_REAL, "m/s", "0", -100, 100, NULL, "a uniform current's y component"},
    {"current.file", CASE_FILE, "", "", CASE_UNBOUNDED, NULL,
     "a steady current at the cell centres instead: a netCDF file with variables u and v (dims y, x) in m/s"},
    {"initial.shape", CASE_CHOICE, "", "flat", CASE_UNBOUNDED, "flat|gaussian",
     "flat: still water; gaussian: a hump height exp(-r^2 / (2 width^2)) around (x, y) at rest"},
    {"initial.height", CASE_REAL, "m", "0", CASE_UNBOUNDED, NULL, "gaussian: height of the hump"},
    {"initial.x", CASE_REAL, "m", "0", CASE_UNBOUNDED, NULL, "gaussian: centre x"},
    {"initial.y", CASE_REAL, "m", "0", CASE_UNBOUNDED, NULL, "gaussian: centre y"},
    {"initial.width", CASE_REAL, "m", "1", 1e-9, HUGE_VAL, NULL, "gaussian: standard deviation"},
    {"physics.g", CASE_REAL, "m/s^2", "9.81", 1e-3, 100, NULL, "gravitational acceleration"},
    {"physics.shape", CASE_CHOICE, "", "parabolic", CASE_UNBOUNDED, "parabolic|cosh",
     "the vertical shape of the potential: parabolic (Pade dispersion, within 1% of Airy's phase speed up to k h = "
     "2.3) or cosh(kappa (z + h)) (exact at k = kappa: choose kappa where the waves that matter are)"},
    {"physics.kappa", CASE_REAL, "1/m", "0", 0, 1e6, NULL,
     "cosh: kappa (for a ship at speed U over deep water, its cusp waves' 1.5 g / U^2)"},
    SIDE_KEY("west"),
    SIDE_KEY("east"),
    SIDE_KEY("south"),
    SIDE_KEY("north"),
    {"boundary.sponge_width", CASE_REAL, "m", "0", 0, 1e9, NULL,
     "width of every sponge layer (at least two cells; required where a side is a sponge)"},
    {"boundary.sponge_strength", CASE_REAL, "1/s", "1", 1e-6, 1e6, NULL,
     "a sponge's damping rate at its side, falling quadratically to 0 at its inner edge"},
    {"waves.side", CASE_CHOICE, "", "none", CASE_UNBOUNDED, "none|west|east|south|north",
     "the side incident waves enter at (a sponge, which makes them there and absorbs what leaves); none: no waves"},
    {"waves.incident", CASE_CHOICE, "", "regular", CASE_UNBOUNDED, "regular|irregular",
     "a linear regular wave, or an irregular sea (random phases)"},
    {"waves.height", CASE_REAL, "m", "0", 0, 1e3, NULL, "regular: H, crest to trough"},
    {"waves.period", CASE_REAL, "s", "0", 0, 1e4, NULL, "regular: T"},
    {"waves.hs", CASE_REAL, "m", "0", 0, 1e3, NULL, "irregular: the significant wave height Hs = 4 sqrt(m0)"},
    {"waves.tp", CASE_REAL, "s", "0", 0, 1e4, NULL, "irregular: the peak period"},
    {"waves.spectrum", CASE_CHOICE, "", "jonswap", CASE_UNBOUNDED, "jonswap|pm",
     "irregular: JONSWAP or Pierson-Moskowitz"},
    {"waves.gamma", CASE_REAL, "", "3.3", 1, 10, NULL, "irregular, jonswap: the peak enhancement factor"},
    {"waves.components", CASE_INT, "", "100", 1, VBM_WAVES_MAX, NULL,
     "irregular: components over 0.5 to 4 times the peak frequency"},
    {"waves.seed", CASE_INT, "", "1", 0, 9.2e18, NULL, "irregular: the seed of the random phases"},
    {"waves.angle", CASE_REAL, "degrees", "0", -80, 80, NULL,
     "the waves' direction from the side's inward normal, counter-clockwise"},
    {"waves.depth", CASE_REAL, "m", "0", 0, 1e5, NULL,
     "the depth the waves' lengths are taken for (the model's dispersion relation); 0: the mean depth of the side's "
     "sponge"},
    {"waves.ramp", CASE_REAL, "s", "20", 0, 1e6, NULL, "the waves' amplitudes rise from 0 over this time"},
    {"ship.length", CASE_REAL, "m", "0", 0, 1e5, NULL, "length of the ship's pressure pulse; 0: no ship here"},
    {"ship.beam", CASE_REAL, "m", "0", 0, 1e5, NULL, "beam of the pulse"},
    {"ship.draft", CASE_REAL, "m", "0", 0, 1e3, NULL,
     "the pulse's peak pressure as a draft: Ps = g draft at the centre, cos^2 along and across the hull"},
    {"ship.x", CASE_REAL, "m", "0", CASE_UNBOUNDED, NULL, "straight track: x of the centre at t = 0"},
    {"ship.y", CASE_REAL, "m", "0", CASE_UNBOUNDED, NULL, "straight track: y of the centre at t = 0"},
    {"ship.heading", CASE_REAL, "degrees", "0", CASE_UNBOUNDED, NULL,
     "straight track: heading, counter-clockwise from +x"},
    {"ship.speed", CASE_REAL, "m/s", "0", -1e3, 1e3, NULL, "straight track: speed"},
    {"ship.track", CASE_FILE, "", "", CASE_UNBOUNDED, NULL,
     "a track instead of the straight line: CSV 'x,y,speed' waypoints, a 'time,x,y[,heading]' series, or an AIS-like "
     "'time,lat,lon[,course]' series in WGS 84 degrees (needs grid.crs); times in seconds or ISO 8601"},
    {"ships.file", CASE_FILE, "", "", CASE_UNBOUNDED, NULL,
     "more ships: CSV 'name,length,beam,draft,x,y,heading,speed,track' (track: '' for a straight line, or a "
     "waypoint or series file)"},
    {"ships.ramp", CASE_REAL, "s", "10", 0, 1e6, NULL,
     "the ships' pressure rises from 0 over this time (as (1 - cos(pi t / ramp)) / 2), sparing the start a jolt"},
    {"time.dt", CASE_REAL, "s", "0", 0, 1e6, NULL,
     "the fixed time step (a frame); output, gauge, restart and end times must be whole numbers of it; 0: the "
     "largest time.cfl allows that lands on output.interval"},
    {"time.cfl", CASE_REAL, "", "0.5", 1e-3, 0.99, NULL,
     "with time.dt 0: the step's fraction of leapfrog's stability limit 1 / (omega_max + |u| / dx + |v| / dy)"},
    {"output.maxima", CASE_BOOL, "", "false", CASE_UNBOUNDED, NULL,
     "map.nc also holds each cell's highest and lowest surface elevation over the run"},
};

HclStatus vbm_case_schema(CaseSchema *schema) {
  HclStatus status = HCL_OK;
  KrylovOptions defaults = hcl_vbm_krylov_defaults();
  TRY(hcl_case_schema_add(schema, "", vbm_case_keys, (int)(sizeof vbm_case_keys / sizeof vbm_case_keys[0])));
  TRY(hcl_krylov_add_keys(schema, VBM_SOLVER_PREFIX, &defaults));
  TRY(hcl_stencil5_add_precond_keys(schema, VBM_SOLVER_PREFIX));
cleanup:
  return status;
}

/* ---- depth, land and current ---- */

static double global_max(const double *values, size_t n, bool absolute) {
  double most = 0;
  for (size_t p = 0; p < n; p++) {
    most = fmax(most, absolute ? fabs(values[p]) : values[p]);
  }
  return most;
}

/* The psi system's diagonal is M + 2 N (1/dx^2 + 1/dy^2) against off-diagonals N / dx^2, N / dy^2, with M = h / 3
 * and N = 2 h^3 / 15 (the parabolic shape): its diagonal dominance, (5 / 2) (dx / h)^2 of it, is lost to rounding
 * where the depth is 1e8 cells deep (an RRB pivot that is not positive); 1e6 keeps it 1e3 above double's
 * epsilon. Deeper is no model of waves either: beyond a few cells every wave the grid holds is a deep-water one. */
static const double DEPTH_CELLS_MAX = 1e6;

/* Where a grid file's values must lie: the model's cell centres; how a raster's are sampled onto them. */
static InputAxes cell_axes(const VbmSetup *setup, InputSampling sampling) {
  const VbmConfig *config = &setup->config;
  return (InputAxes){.x0 = setup->x0 + config->dx / 2,
                     .dx = config->dx,
                     .y0 = setup->y0 + config->dy / 2,
                     .dy = config->dy,
                     .keys = "cell centres, x0 + (i + 0.5) lx / nx of grid.x0, grid.lx, grid.nx and so in y",
                     .crs = setup->crs,
                     .sampling = sampling};
}

static HclStatus read_bed(const Case *c, VbmSetup *setup) {
  HclStatus status = HCL_OK;
  size_t n = (size_t)setup->grid.nx * setup->grid.ny;
  setup->depth = hcl_case_real(c, "bed.depth");
  setup->max_depth = setup->depth;
  InputAxes cells = cell_axes(setup, INPUT_LEVELS);
  if (strcmp(hcl_case_string(c, "bed.shape"), "file") == 0) {
    TRY(run_read_bed_file(c, setup->grid.nx, setup->grid.ny, &cells, &setup->bed_values, &setup->bed_source));
    setup->max_depth = global_max(setup->bed_values, n, false);
  }
  const char *key = setup->bed_values ? "bed.file" : "bed.depth";
  REQUIRE(setup->max_depth > 0, HCL_EDATA, "%s: the depth is nowhere above 0 m: the grid holds no water",
          hcl_case_origin(c, key));
  REQUIRE(setup->max_depth <= VBM_DEPTH_MAX, HCL_EDATA, "%s: bed.file holds a depth of %g m; depths are at most %g m",
          hcl_case_origin(c, key), setup->max_depth, VBM_DEPTH_MAX); /* bed.depth's range is the schema's */
  double cell = fmin(setup->config.dx, setup->config.dy);
  REQUIRE(setup->max_depth <= DEPTH_CELLS_MAX * cell, HCL_EDATA,
          "%s: the depth of %g m (%s) is %.3g cells of %g m (grid.lx / grid.nx, grid.ly / grid.ny): the psi system "
          "loses its diagonal to rounding beyond %g cells; use depths of at most %g m or larger cells",
          hcl_case_origin(c, key), setup->max_depth, key, setup->max_depth / cell, cell, DEPTH_CELLS_MAX,
          DEPTH_CELLS_MAX * cell);
  const char *land = hcl_case_file(c, "land.file");
  if (land[0]) {
    const char *variable = hcl_case_string(c, "land.variable");
    TRY_ALLOC(setup->land, n);
    InputAxes land_cells = cell_axes(setup, INPUT_CLASSES);
    TRY(hcl_input_read_grid(land, variable[0] ? variable : NULL, setup->grid.nx, setup->grid.ny, &land_cells,
                            setup->land, &setup->land_source));
  }
cleanup:
  return status;
}

static HclStatus read_current(const Case *c, VbmSetup *setup) {
  HclStatus status = HCL_OK;
  static const char *const names[2] = {"u", "v"};
  const char *path = hcl_case_file(c, "current.file");
  size_t n = (size_t)setup->grid.nx * setup->grid.ny;
  setup->current[0] = hcl_case_real(c, "current.u");
  setup->current[1] = hcl_case_real(c, "current.v");
  for (int k = 0; k < 2; k++) {
    setup->max_current[k] = fabs(setup->current[k]);
  }
  if (!path[0]) {
    return HCL_OK;
  }
  size_t length = strlen(path);
  REQUIRE(length > 3 && strcmp(path + length - 3, ".nc") == 0, HCL_EDATA,
          "%s: current.file must be a netCDF file with variables u and v (got '%s')",
          hcl_case_origin(c, "current.file"), path);
  REQUIRE(setup->current[0] == 0 && setup->current[1] == 0, HCL_EDATA,
          "%s: current.u or current.v is given beside current.file; the current comes from one of them",
          hcl_case_origin(c, setup->current[0] != 0 ? "current.u" : "current.v"));
  InputAxes cells = cell_axes(setup, INPUT_LEVELS);
  for (int k = 0; k < 2; k++) {
    TRY_ALLOC(setup->current_values[k], n);
    TRY(hcl_input_read_grid(path, names[k], setup->grid.nx, setup->grid.ny, &cells, setup->current_values[k],
                            &setup->current_source));
    setup->max_current[k] = global_max(setup->current_values[k], n, true);
  }
cleanup:
  return status;
}

/* ---- sides ---- */

static HclStatus read_sides(const Case *c, VbmSetup *setup) {
  HclStatus status = HCL_OK;
  static const char *const keys[VBM_SIDES] = {"boundary.west", "boundary.east", "boundary.south", "boundary.north"};
  VbmConfig *config = &setup->config;
  double width = hcl_case_real(c, "boundary.sponge_width");
  config->sponge_strength = hcl_case_real(c, "boundary.sponge_strength");
  for (int side = 0; side < VBM_SIDES; side++) {
    if (hcl_case_choice(c, keys[side]) == 0) {
      continue;
    }
    double spacing = side < VBM_SOUTH ? config->dx : config->dy;
    int cells = (int)lround(width / spacing), across = side < VBM_SOUTH ? setup->grid.nx : setup->grid.ny;
    REQUIRE(cells >= 2 && 2 * cells <= across, HCL_EDATA,
            "%s: %s is a sponge %g m wide (boundary.sponge_width), %d cells of %g m: a sponge needs at least 2 "
            "cells and at most half the grid (%d)",
            hcl_case_origin(c, "boundary.sponge_width"), keys[side], width, cells, spacing, across / 2);
    config->sponge[side] = cells;
  }
cleanup:
  return status;
}

/* ---- ships ---- */

/* The ship of the ship.* keys, when ship.length is given. */
static HclStatus read_ship_keys(const Case *c, const TrackFrame *frame, ShipSpec *ship) {
  HclStatus status = HCL_OK;
  memset(ship, 0, sizeof *ship);
  snprintf(ship->name, sizeof ship->name, "ship");
  snprintf(ship->origin, sizeof ship->origin, "%s", hcl_case_origin(c, "ship.length"));
  ship->length = hcl_case_real(c, "ship.length");
  ship->beam = hcl_case_real(c, "ship.beam");
  ship->draft = hcl_case_real(c, "ship.draft");
  REQUIRE(ship->beam > 0, HCL_EDATA, "%s: ship.length is given, ship.beam must be > 0 m too (got %g)",
          hcl_case_origin(c, "ship.beam"), ship->beam);
  const char *track = hcl_case_file(c, "ship.track");
  if (track[0]) {
    TRY(ship_track_read(track, frame, &ship->track));
  } else {
    ship->track = ship_track_straight(hcl_case_real(c, "ship.x"), hcl_case_real(c, "ship.y"),
                                      hcl_case_real(c, "ship.heading"), hcl_case_real(c, "ship.speed"));
  }
cleanup:
  return status;
}

static HclStatus read_ships(const Case *c, VbmSetup *setup) {
  HclStatus status = HCL_OK;
  ShipSpec *fleet = NULL;
  int nfleet = 0;
  const char *path = hcl_case_file(c, "ships.file");
  TrackFrame frame = {.start = setup->start, .crs = setup->crs};
  if (path[0]) {
    TRY(ships_read_csv(path, &frame, &fleet, &nfleet));
  }
  bool one = hcl_case_real(c, "ship.length") > 0;
  int total = nfleet + (one ? 1 : 0);
  REQUIRE(total <= VBM_SHIPS_MAX, HCL_EDATA, "%s: %d ships; the model takes at most %d", path, total, VBM_SHIPS_MAX);
  TRY_ALLOC(setup->ships, total + 1);
  if (one) {
    TRY(read_ship_keys(c, &frame, &setup->ships[0]));
    setup->nships = 1;
  }
  for (int s = 0; s < nfleet; s++) {
    setup->ships[setup->nships++] = fleet[s];
  }
  nfleet = 0; /* their tracks moved into setup->ships: only the array is freed below */
  double x_last = setup->x0 + hcl_case_real(c, "grid.lx"), y_last = setup->y0 + hcl_case_real(c, "grid.ly");
  TRY(ships_check(setup->ships, setup->nships, setup->x0, x_last, setup->y0, y_last));
  setup->ship_ramp = hcl_case_real(c, "ships.ramp");
cleanup:
  ships_free(fleet, nfleet);
  return status;
}

void vbm_setup_place_ships(void *ctx, double t, VbmShip *ships) {
  const VbmSetup *setup = ctx;
  double ramp = t < setup->ship_ramp ? (1 - cos(PI * fmax(t, 0) / setup->ship_ramp)) / 2 : 1;
  for (int s = 0; s < setup->nships; s++) {
    const ShipSpec *spec = &setup->ships[s];
    VbmShip *ship = &ships[s];
    ship_track_at(&spec->track, t, &ship->x, &ship->y, &ship->heading);
    ship->length = spec->length;
    ship->beam = spec->beam;
    ship->peak = ramp * setup->config.g * spec->draft;
  }
}

/* ---- incident waves ---- */

/* The mean still-water depth (land counted out) of the cells within `width` cells of side: the depth the incident
 * waves are made over. */
static double side_depth(const VbmSetup *setup, int side, int width) {
  double sum = 0;
  long count = 0;
  for (int j = 0; j < setup->grid.ny; j++) {
    for (int i = 0; i < setup->grid.nx; i++) {
      int from[VBM_SIDES] = {i, setup->grid.nx - 1 - i, j, setup->grid.ny - 1 - j};
      size_t g = (size_t)j * setup->grid.nx + i;
      double h = setup->bed_values ? setup->bed_values[g] : setup->depth;
      if (from[side] < width && h > 0 && !(setup->land && setup->land[g] != 0)) {
        sum += h;
        count++;
      }
    }
  }
  return count ? sum / count : 0;
}

/* The regular wave or the irregular sea's components entering at waves.side, with the model's wave numbers. */
static HclStatus read_incident(const Case *c, VbmSetup *setup) {
  HclStatus status = HCL_OK;
  static const double inward[VBM_SIDES] = {0, 180, 90, 270}; /* degrees from +x */
  IrregularWave sea = {0};
  int side = hcl_case_choice(c, "waves.side") - 1;
  setup->incident_side = side;
  if (side < 0) {
    return HCL_OK;
  }
  const VbmConfig *config = &setup->config;
  REQUIRE(config->sponge[side] > 0, HCL_EDATA,
          "%s: waves.side is %s, which is a wall: waves enter through a sponge "
          "(set boundary.%s: sponge)",
          hcl_case_origin(c, "waves.side"), hcl_case_string(c, "waves.side"), hcl_case_string(c, "waves.side"));
  double depth = hcl_case_real(c, "waves.depth");
  depth = depth > 0 ? depth : side_depth(setup, side, config->sponge[side]);
  REQUIRE(depth > 0, HCL_EDATA, "%s: the sponge of waves.side holds no water to make waves in",
          hcl_case_origin(c, "waves.side"));
  double direction = (inward[side] + hcl_case_real(c, "waves.angle")) * PI / 180;
  setup->incident_ramp = hcl_case_real(c, "waves.ramp");
  if (hcl_case_choice(c, "waves.incident") == 0) {
    double height = hcl_case_real(c, "waves.height"), period = hcl_case_real(c, "waves.period");
    REQUIRE(height > 0 && period > 0, HCL_EDATA,
            "%s: a regular wave needs waves.height and waves.period > 0 (got "
            "%g m, %g s)",
            hcl_case_origin(c, height > 0 ? "waves.period" : "waves.height"), height, period);
    TRY_ALLOC(setup->waves, 1);
    double w = 2 * PI / period;
    setup->waves[0] = (VbmWave){.amplitude = height / 2,
                                .omega = w,
                                .k = hcl_vbm_wavenumber(config->g, depth, config->kappa, w),
                                .direction = direction};
    setup->nwaves = 1;
    goto cleanup;
  }
  IrregularWaveSpec spec = hcl_waves_irregular_spec_default();
  spec.spectrum = hcl_case_choice(c, "waves.spectrum") == 0 ? WAVES_JONSWAP : WAVES_PIERSON_MOSKOWITZ;
  spec.g = config->g;
  spec.depth = depth;
  spec.hs = hcl_case_real(c, "waves.hs");
  spec.tp = hcl_case_real(c, "waves.tp");
  spec.gamma = hcl_case_real(c, "waves.gamma");
  spec.direction = direction;
  spec.components = (int)hcl_case_int(c, "waves.components");
  spec.seed = (uint64_t)hcl_case_int(c, "waves.seed");
  REQUIRE(spec.hs > 0 && spec.tp > 0, HCL_EDATA,
          "%s: an irregular sea needs waves.hs and waves.tp > 0 (got %g m, %g s)",
          hcl_case_origin(c, spec.hs > 0 ? "waves.tp" : "waves.hs"), spec.hs, spec.tp);
  TRY(hcl_waves_irregular_create(&spec, &sea));
  TRY_ALLOC(setup->waves, sea.components);
  for (int w = 0; w < sea.components; w++) {
    setup->waves[w] = (VbmWave){.amplitude = sea.amplitude[w],
                                .omega = sea.omega[w],
                                .k = hcl_vbm_wavenumber(config->g, depth, config->kappa, sea.omega[w]),
                                .direction = direction,
                                .phase = sea.phase[w]};
  }
  setup->nwaves = sea.components;
cleanup:
  hcl_waves_irregular_free(&sea);
  return status;
}

/* ---- time ---- */

/* Whether interval is a whole number of steps dt (to rounding). */
static bool whole_steps(double interval, double dt) {
  double steps = interval / dt;
  return fabs(steps - round(steps)) <= 1e-6 * fmax(1, steps);
}

/* The fixed step: time.dt within leapfrog's limit, or the largest step time.cfl allows that lands on
 * output.interval (or on time.end without one); then every interval a whole number of steps. */
static HclStatus choose_step(const Case *c, VbmSetup *setup) {
  HclStatus status = HCL_OK;
  const VbmConfig *config = &setup->config;
  double limit = hcl_vbm_stable_step(config->g, setup->max_depth, config->kappa, config->dx, config->dy,
                                     setup->max_current[0], setup->max_current[1]);
  double given = hcl_case_real(c, "time.dt"), frame = hcl_case_real(c, "output.interval");
  REQUIRE(given<limit, HCL_EDATA,
                "%s: time.dt = %g s breaks leapfrog's stability limit %.4g s (the grid's shortest waves over %g m of "
                "water%s); set it below, or 0 for the largest time.cfl allows",
                hcl_case_origin(c, "time.dt"), given, limit, setup->max_depth,
                setup->max_current[0] + setup->max_current[1]> 0
              ? ", with the current"
              : "");
  setup->cfl = hcl_case_real(c, "time.cfl");
  setup->dt = given;
  if (given == 0) {
    double base = frame > 0 ? frame : setup->t_end;
    setup->dt = base / ceil(base / (setup->cfl * limit));
  }
  const char *keys[] = {"output.interval", "output.history_interval", "restart.interval", "time.end"};
  for (int k = 0; k < 4; k++) {
    double interval = hcl_case_real(c, keys[k]);
    REQUIRE(interval == 0 || whole_steps(interval, setup->dt), HCL_EDATA,
            "%s: %s = %g s is not a whole number of steps of %g s (leapfrog's step is fixed); make it %g s or %g s",
            hcl_case_origin(c, keys[k]), keys[k], interval, setup->dt, floor(interval / setup->dt) * setup->dt,
            ceil(interval / setup->dt) * setup->dt);
  }
cleanup:
  return status;
}

/* ---- the whole ---- */

static const RunKeyUse CHOICE_KEYS[] = {
    {"bed.file", "bed.shape", "file"},
    {"bed.variable", "bed.shape", "file"},
    {"initial.height", "initial.shape", "gaussian"},
    {"initial.x", "initial.shape", "gaussian"},
    {"initial.y", "initial.shape", "gaussian"},
    {"initial.width", "initial.shape", "gaussian"},
    {"physics.kappa", "physics.shape", "cosh"},
    {"waves.height", "waves.incident", "regular"},
    {"waves.period", "waves.incident", "regular"},
    {"waves.hs", "waves.incident", "irregular"},
    {"waves.tp", "waves.incident", "irregular"},
};

HclStatus vbm_setup_from_case(const Case *c, Precision precision, VbmSetup *setup) {
  HclStatus status = HCL_OK;
  memset(setup, 0, sizeof *setup);
  setup->grid = run_read_grid(c);
  setup->x0 = hcl_case_real(c, "grid.x0");
  setup->y0 = hcl_case_real(c, "grid.y0");
  TRY(run_read_crs(c, "grid.crs", &setup->crs));
  VbmConfig *config = &setup->config;
  config->dx = hcl_case_real(c, "grid.lx") / (double)setup->grid.nx;
  config->dy = hcl_case_real(c, "grid.ly") / (double)setup->grid.ny;
  config->x0 = setup->x0;
  config->y0 = setup->y0;
  config->g = hcl_case_real(c, "physics.g");
  config->kappa = hcl_case_choice(c, "physics.shape") == 1 ? hcl_case_real(c, "physics.kappa") : 0;
  REQUIRE(hcl_case_choice(c, "physics.shape") == 0 || config->kappa > 0, HCL_EDATA,
          "%s: physics.shape is cosh and needs physics.kappa > 0 1/m (the wavenumber where the dispersion is exact)",
          hcl_case_origin(c, "physics.shape"));
  config->precision = precision;
  TRY(hcl_stencil5_cg_options_from_case(c, VBM_SOLVER_PREFIX, "the psi system", &config->krylov));
  setup->t_end = hcl_case_real(c, "time.end");
  TRY(run_time_units(c, "time.start", &setup->start, setup->time_units, sizeof setup->time_units));
  TRY(read_bed(c, setup));
  TRY(read_current(c, setup));
  TRY(read_sides(c, setup));
  TRY(read_ships(c, setup));
  TRY(read_incident(c, setup));
  setup->initial = hcl_case_choice(c, "initial.shape") == 1 ? VBM_INITIAL_GAUSSIAN : VBM_INITIAL_FLAT;
  setup->initial_height = hcl_case_real(c, "initial.height");
  setup->initial_x = hcl_case_real(c, "initial.x");
  setup->initial_y = hcl_case_real(c, "initial.y");
  setup->initial_width = hcl_case_real(c, "initial.width");
  TRY(choose_step(c, setup));
  run_warn_unused_keys(c, CHOICE_KEYS, (int)(sizeof CHOICE_KEYS / sizeof CHOICE_KEYS[0]));
cleanup:
  return status;
}

void vbm_setup_free(VbmSetup *setup) {
  free(setup->bed_values);
  free(setup->land);
  free(setup->current_values[0]);
  free(setup->current_values[1]);
  ships_free(setup->ships, setup->nships);
  free(setup->waves);
  hcl_crs_destroy(&setup->crs);
  memset(setup, 0, sizeof *setup);
}

void vbm_initial_state(const VbmSetup *setup, const Decomp *decomp, double *depth, double *zeta, double *phi, double *u,
                       double *v) {
  const DecompLocal *l = hcl_decomp_local(decomp);
  const VbmConfig *config = &setup->config;
  for (int j = 0; j < l->ny; j++) {
    for (int i = 0; i < l->nx; i++) {
      size_t p = (size_t)j * l->nx + i, g = (size_t)(l->y0 + j) * setup->grid.nx + (size_t)(l->x0 + i);
      double x = setup->x0 + (l->x0 + i + 0.5) * config->dx, y = setup->y0 + (l->y0 + j + 0.5) * config->dy;
      double h = setup->bed_values ? setup->bed_values[g] : setup->depth;
      bool land = h <= 0 || (setup->land && setup->land[g] != 0);
      depth[p] = land ? 0 : h;
      double r2 = (x - setup->initial_x) * (x - setup->initial_x) + (y - setup->initial_y) * (y - setup->initial_y);
      double w = setup->initial_width;
      zeta[p] = setup->initial == VBM_INITIAL_GAUSSIAN && !land ? setup->initial_height * exp(-r2 / (2 * w * w)) : 0;
      phi[p] = 0;
      u[p] = setup->current_values[0] ? setup->current_values[0][g] : setup->current[0];
      v[p] = setup->current_values[1] ? setup->current_values[1][g] : setup->current[1];
    }
  }
}
