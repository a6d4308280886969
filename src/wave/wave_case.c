/* SPDX-License-Identifier: BSD-3-Clause */
/* wave_case.c: the potential-flow case schema, and from a finished case to the model's setup (see wave_case.h).
 * The model is OceanWave3D's (../shared/papers/fnpf-gpu-model.txt sections 2 and 3); the shapes are the papers'
 * and the validation cases: a linear standing wave in a closed basin, the Gaussian hump of
 * fnpf-multigpu-scalability.txt section 5.3 (eq. 16), the submerged bar and Whalin's shoal (wave_shapes.h). */
#include "wave_case.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inputs.h"
#include "log.h"
#include "par.h"
#include "run.h"
#include "wave_shapes.h"

static const double PI = 3.14159265358979323846;

static const CaseKey wave_case_keys[] = {
    {"model.name", CASE_CHOICE, "", NULL, CASE_UNBOUNDED, "potential-flow", "the model this case is for"},
    {"model.title", CASE_STRING, "", "potential-flow run", CASE_UNBOUNDED, NULL, "a title for the output files"},
    {"grid.type", CASE_CHOICE, "", "cartesian", CASE_UNBOUNDED, "cartesian|mapped|polar|file",
     "cartesian: the rectangle of lx x ly; mapped: the same rectangle on a smooth non-orthogonal grid (grid.stretch, "
     "grid.skew; a test of the curvilinear operator); polar: the O-grid around a bottom-mounted vertical cylinder "
     "(grid.radius, grid.outer_radius; i along the radius from the cylinder's wall, j along the angle, periodic); "
     "file: the points of grid.file"},
    {"grid.file", CASE_FILE, "", "", CASE_UNBOUNDED, NULL,
     "file: a netCDF file with the grid's points as 2D coordinates x(j, i), y(j, i) in metres (ROMS' x_rho, y_rho, "
     "Delft3D-FLOW's and most grid generators' layout): nx the length of the last dimension, ny of the first; i and j "
     "must be right-handed (j anticlockwise from i); walls should meet the grid lines at right angles; a periodic "
     "direction closes on itself (an O-grid: the last point is not the first again)"},
    {"grid.x_variable", CASE_STRING, "", "", CASE_UNBOUNDED, NULL, "file: the variable of x ('': x, else x_rho)"},
    {"grid.y_variable", CASE_STRING, "", "", CASE_UNBOUNDED, NULL, "file: the variable of y ('': y, else y_rho)"},
    {"grid.nx", CASE_INT, "", "0", 0, 1000000, NULL,
     "points in x (1: no variation along x); between walls the first and last points lie on them; polar: points "
     "along the radius, the first on the cylinder"},
    {"grid.ny", CASE_INT, "", "0", 0, 1000000, NULL,
     "points in y (1: a 2D flume in x and z); polar: points around the cylinder (theta_j = 360 j / ny degrees "
     "anticlockwise from +x)"},
    {"grid.lx", CASE_REAL, "m", "0", 0, 1e9, NULL,
     "length of the domain in x: from the first point to the last (dx = lx / (nx - 1)); when periodic, the period "
     "(dx = lx / nx)"},
    {"grid.ly", CASE_REAL, "m", "0", 0, 1e9, NULL, "length of the domain in y, as grid.lx (not used when ny is 1)"},
    {"grid.x0", CASE_REAL, "m", "0", CASE_UNBOUNDED, NULL,
     "x of the first point (the west wall); polar: x of the cylinder's centre"},
    {"grid.y0", CASE_REAL, "m", "0", CASE_UNBOUNDED, NULL,
     "y of the first point (the south wall); polar: y of the cylinder's centre"},
    {"grid.stretch", CASE_REAL, "", "0.1", 0, 0.9, NULL,
     "mapped: the spacing varies by this fraction along each direction (gridmap.h: MappingRectangle)"},
    {"grid.skew", CASE_REAL, "", "0.1", 0, 0.9, NULL,
     "mapped: how far the grid lines lean from square inside (0.15: up to 17 degrees on a square); stretch + skew "
     "< 1"},
    {"grid.radius", CASE_REAL, "m", "0", 0, 1e6, NULL, "polar: the cylinder's radius a"},
    {"grid.outer_radius", CASE_REAL, "m", "0", 0, 1e9, NULL, "polar: the radius R of the grid's outer edge"},
    {"grid.radial", CASE_CHOICE, "", "geometric", CASE_UNBOUNDED, "geometric|uniform",
     "polar: the radial spacing, geometric (r_i = a (R / a)^(i / (nx - 1)): cells of the same shape at every radius, "
     "square when nx - 1 = ln(R / a) ny / (2 pi), the multigrid's best case) or uniform"},
    {"grid.periodic_x", CASE_BOOL, "", "false", CASE_UNBOUNDED, NULL, "periodic in x instead of walls west and east"},
    {"grid.periodic_y", CASE_BOOL, "", "false", CASE_UNBOUNDED, NULL, "periodic in y instead of walls south and north"},
    {"grid.crs", CASE_STRING, "", "", CASE_UNBOUNDED, NULL,
     "coordinate reference system of x and y: an EPSG code (EPSG:32631) or WKT; '': local Cartesian metres"},
    {"physics.g", CASE_REAL, "m/s^2", "9.81", 1e-3, 100, NULL, "gravitational acceleration"},
    {"physics.equations", CASE_CHOICE, "", "nonlinear", CASE_UNBOUNDED, "nonlinear|linear",
     "the fully nonlinear surface conditions (fnpf-gpu-model eqs. 1a, 1b), or their linearization on the still "
     "water (eta_t = w, phi_t = -g eta)"},
    {"physics.filter_interval", CASE_INT, "", "0", 0, 1000000, NULL,
     "steps between Savitzky-Golay smoothings of eta and phi along each grid direction (order + 1 points, degree "
     "order - 2: the grid's shortest wave is damped, a wave 13 points long loses 3e-4 per application and direction "
     "at order 6), as OceanWave3D filters nonlinear runs; counted from the run's (or the continued run's) start; 0: "
     "none"},
    {"bed.shape", CASE_CHOICE, "", "flat", CASE_UNBOUNDED, "flat|bar|whalin|file",
     "flat: depth; bar: Beji and Battjes' submerged bar; whalin: Whalin's shoal (both with their origin at bed.x, "
     "bed.y); file: bed.file"},
    {"bed.depth", CASE_REAL, "m", "1", 1e-6, 1e5, NULL, "flat: the still-water depth"},
    {"bed.x", CASE_REAL, "m", "0", CASE_UNBOUNDED, NULL,
     "bar: x of its wave paddle (the bar's slope starts 6 m beyond); whalin: x of the basin's start (the shoal "
     "rises from 10.67 m beyond on the centreline)"},
    {"bed.y", CASE_REAL, "m", "0", CASE_UNBOUNDED, NULL,
     "whalin: y of the basin's side wall (its centreline lies 3.048 m beyond)"},
    {"bed.file", CASE_FILE, "", "", CASE_UNBOUNDED, NULL,
     "file: the still-water depth at the grid points: a raster (GeoTIFF, ESRI ASCII grid, VRT, netCDF; warped onto a "
     "Cartesian grid) or a netCDF (dims y, x) or CSV (ny lines of nx numbers) grid"},
    {"bed.variable", CASE_STRING, "", "", CASE_UNBOUNDED, NULL, "file: the netCDF variable ('': its only 2D one)"},
    {"bed.positive", CASE_CHOICE, "", "down", CASE_UNBOUNDED, "down|up",
     "file: down when it holds depths below the still water, up when it holds bed elevations"},
    {"initial.shape", CASE_CHOICE, "", "still", CASE_UNBOUNDED, "still|standing|gaussian|wave",
     "still: eta = phi = 0; standing: eta = amplitude cos(kx (x - x0)) cos(ky (y - y0)), phi = 0, with mx and my "
     "half-wavelengths across the basin; gaussian: eta = height exp(-r^2 / (2 width^2)) around (x, y), phi = 0; "
     "wave: the incident wave everywhere"},
    {"initial.amplitude", CASE_REAL, "m", "0", CASE_UNBOUNDED, NULL, "standing: A"},
    {"initial.mx", CASE_INT, "", "1", 0, 1000000, NULL,
     "standing: half-wavelengths along x between the walls, kx = mx pi / lx (periodic: wavelengths, 2 mx pi / lx)"},
    {"initial.my", CASE_INT, "", "0", 0, 1000000, NULL, "standing: the same along y"},
    {"initial.height", CASE_REAL, "m", "0", CASE_UNBOUNDED, NULL, "gaussian: the hump's height (kappa)"},
    {"initial.x", CASE_REAL, "m", "0", CASE_UNBOUNDED, NULL, "gaussian: centre x"},
    {"initial.y", CASE_REAL, "m", "0", CASE_UNBOUNDED, NULL, "gaussian: centre y (not used in a flume: a ridge)"},
    {"initial.width", CASE_REAL, "m", "1", 1e-9, HUGE_VAL, NULL, "gaussian: the standard deviation (rho)"},
    {"waves.incident", CASE_CHOICE, "", "none", CASE_UNBOUNDED, "none|stream|linear|irregular",
     "the wave the generation zones make: none (they relax towards rest), a stream-function (Rienecker and Fenton) "
     "or linear regular wave, or an irregular sea"},
    {"waves.height", CASE_REAL, "m", "0", 0, 1e4, NULL, "stream, linear: H, crest to trough"},
    {"waves.period", CASE_REAL, "s", "0", 0, 1e5, NULL, "stream, linear: T (0: from waves.length)"},
    {"waves.length", CASE_REAL, "m", "0", 0, 1e7, NULL, "stream, linear: L (0: from waves.period)"},
    {"waves.criterion", CASE_CHOICE, "", "eulerian", CASE_UNBOUNDED, "eulerian|stokes",
     "stream: which mean current waves.current is, the Eulerian c_E or the mass-transport c_S"},
    {"waves.current", CASE_REAL, "m/s", "0", -1e3, 1e3, NULL, "stream, linear: the mean current, along the wave"},
    {"waves.modes", CASE_INT, "", "20", WAVES_MODES_MIN, WAVES_MODES_MAX, NULL,
     "stream: Fourier modes of the stream-function solution"},
    {"waves.direction", CASE_REAL, "deg", "0", -360, 360, NULL,
     "direction the waves travel towards, counter-clockwise from +x"},
    {"waves.x_origin", CASE_REAL, "m", "0", CASE_UNBOUNDED, NULL,
     "stream, linear: where a crest passes at t = 0 (along the direction of travel)"},
    {"waves.depth", CASE_REAL, "m", "0", 0, 1e5, NULL,
     "the depth the incident wave is computed for (0: the still-water depth in the middle of the first generation "
     "zone, or the deepest point without one)"},
    {"waves.hs", CASE_REAL, "m", "0", 0, 1e3, NULL, "irregular: the significant wave height Hs = 4 sqrt(m0)"},
    {"waves.tp", CASE_REAL, "s", "0", 0, 1e4, NULL, "irregular: the peak period"},
    {"waves.spectrum", CASE_CHOICE, "", "jonswap", CASE_UNBOUNDED, "jonswap|pm",
     "irregular: JONSWAP or Pierson-Moskowitz"},
    {"waves.gamma", CASE_REAL, "", "3.3", 1, 10, NULL, "irregular, jonswap: the peak enhancement factor"},
    {"waves.components", CASE_INT, "", "200", 1, WAVES_COMPONENTS_MAX, NULL,
     "irregular: components over 0.5 to 4 times the peak frequency"},
    {"waves.seed", CASE_INT, "", "1", 0, 9.2e18, NULL, "irregular: the seed of the random phases"},
    {"waves.ramp_time", CASE_REAL, "s", "0", 0, 1e9, NULL,
     "the incident wave rises as (1 - cos(pi t / ramp_time)) / 2 over this time from t = 0 (0: in full at once)"},
    {"relaxation.zones", CASE_STRING, "", "", CASE_UNBOUNDED, NULL,
     "relaxation zones, 'KIND AXIS FROM TO INWARD [ACROSS FROM TO] [SHAPE [POWER]]; ...': KIND generate (towards "
     "the incident wave) or absorb (towards rest); the weight ramps along AXIS (x or y) from FROM to TO [m] and "
     "hands over to the model towards INWARD (+x, -x, +y or -y, along AXIS); the zone spans the whole domain "
     "across unless ACROSS (the other axis) FROM TO [m] is given; SHAPE exponential (POWER, default 3.5) or "
     "polynomial. E.g. 'generate x 0 3 +x; absorb x 27 35 -x'. Or a ring, 'KIND ring FROM TO [about X Y] [SHAPE "
     "[POWER]]': the points FROM <= r <= TO [m] from (X, Y) (default: the polar grid's centre), handing over "
     "inwards; a generation ring at the edge of an O-grid makes the incident wave and absorbs what the body "
     "scatters"},
    {"time.dt", CASE_REAL, "s", "0", 0, 1e6, NULL,
     "fixed time step, shortened evenly where needed so that steps land on output and restart times; at most the "
     "ERK4 stability limit; 0: from time.courant"},
    {"time.courant", CASE_REAL, "", "0.5", 1e-3, 10, NULL,
     "Courant number Cr = c dt / min(dx, dy) of the step when time.dt is 0, c the incident wave's celerity (an "
     "irregular sea's at its peak period) or sqrt(g h) of the deepest water without one"},
    {"time.extrapolation", CASE_INT, "", "3", 1, WAVE_EXTRAPOLATION_MAX, NULL,
     "earlier solutions each solve's first guess is extrapolated in time from (1: the last one as it is)"},
    {"time.guard_factor", CASE_REAL, "", "1", 1e-6, 1e6, NULL,
     "the run stops as diverged (exit 79) where |eta| exceeds this times the still-water depth, or eta or phi is "
     "not a number"},
    {"output.kinematics", CASE_POINTS, "m", "[]", CASE_UNBOUNDED, NULL,
     "vertical lines for z, u, v, w at the sigma points: [{name: K1, x: 10, y: 0}, ...] (each at the nearest grid "
     "point)"},
    {"output.runup", CASE_CHOICE, "", "auto", CASE_UNBOUNDED, "auto|none|west|east|south|north",
     "gauges at every grid point of one wall, named runup_0000, runup_0001, ... along it, in history.nc with eta's "
     "extremes over the run (eta_max, eta_min): west is i = 0, east i = nx - 1, south j = 0, north j = ny - 1; auto: "
     "the cylinder of a polar grid (west), none on other grids"},
    {"output.extremes_start", CASE_REAL, "s", "0", 0, 1e12, NULL,
     "eta_max and eta_min (map.nc, history.nc) hold the extremes from this time on: after the start-up, the fully "
     "developed run-up"},
    {"output.energy", CASE_BOOL, "", "true", CASE_UNBOUNDED, NULL,
     "record the energy with the volume at every sample (one Laplace solve each)"},
};
static const int wave_case_nkeys = (int)(sizeof wave_case_keys / sizeof wave_case_keys[0]);

HclStatus wave_case_schema(CaseSchema *schema) {
  HclStatus status = HCL_OK;
  LaplaceConfig defaults = hcl_laplace_config_default();
  defaults.prefix = defaults.krylov.prefix = "solver.";
  TRY(hcl_case_schema_add(schema, "", wave_case_keys, wave_case_nkeys));
  TRY(hcl_laplace_add_keys(schema, "solver.", &defaults));
cleanup:
  return status;
}

/* ---- grid and solver ---- */

/* The spacing along one direction of n points over length: between walls the end points lie on them. */
static double spacing(int n, double length, bool periodic) {
  return n == 1 ? 0 : periodic ? length / n : length / (n - 1);
}

/* The rectangle of grid.lx x grid.ly: its spacing, and the mapped grid's map of it. */
static HclStatus read_rectangle(const Case *c, WaveSetup *s) {
  HclStatus status = HCL_OK;
  DecompSpec *g = &s->grid;
  WaveGeometry *geo = &s->geometry;
  REQUIRE(hcl_case_real(c, "grid.lx") > 0 || g->nx == 1, HCL_EDATA, "%s: grid.lx must be > 0 when grid.nx = %d > 1",
          hcl_case_origin(c, "grid.lx"), g->nx);
  REQUIRE(g->ny == 1 || hcl_case_real(c, "grid.ly") > 0, HCL_EDATA, "%s: grid.ly must be > 0 when grid.ny = %d > 1",
          hcl_case_origin(c, "grid.ly"), g->ny);
  double dx = spacing(g->nx, hcl_case_real(c, "grid.lx"), g->periodic_x);
  double dy = spacing(g->ny, hcl_case_real(c, "grid.ly"), g->periodic_y);
  s->config.laplace.dx = dx > 0 ? dx : dy; /* a direction of one point takes no differences: any spacing */
  s->config.laplace.dy = dy > 0 ? dy : dx;
  if (geo->type == WAVE_GRID_MAPPED) {
    REQUIRE(g->nx > 1 && g->ny > 1, HCL_EDATA, "%s: grid.type mapped needs points in both directions (nx %d, ny %d)",
            hcl_case_origin(c, "grid.type"), g->nx, g->ny);
    REQUIRE(hcl_case_real(c, "grid.stretch") + hcl_case_real(c, "grid.skew") < 1, HCL_EDATA,
            "%s: grid.stretch + grid.skew = %g: the map folds unless their sum is below 1",
            hcl_case_origin(c, "grid.skew"), hcl_case_real(c, "grid.stretch") + hcl_case_real(c, "grid.skew"));
    geo->rectangle = (MappingRectangle){.x0 = s->config.x0,
                                        .y0 = s->config.y0,
                                        .lx = g->periodic_x ? g->nx * dx : (g->nx - 1) * dx,
                                        .ly = g->periodic_y ? g->ny * dy : (g->ny - 1) * dy,
                                        .dx = dx,
                                        .dy = dy,
                                        .stretch = hcl_case_real(c, "grid.stretch"),
                                        .skew = hcl_case_real(c, "grid.skew")};
    geo->map = (Mapping){hcl_mapping_rectangle_point, &geo->rectangle, "mapped rectangle"};
  }
cleanup:
  return status;
}

/* The O-grid around the cylinder: i along the radius, j around it (periodic). */
static HclStatus read_polar(const Case *c, WaveSetup *s) {
  HclStatus status = HCL_OK;
  DecompSpec *g = &s->grid;
  WaveGeometry *geo = &s->geometry;
  double a = hcl_case_real(c, "grid.radius"), R = hcl_case_real(c, "grid.outer_radius");
  REQUIRE(a > 0 && R > a, HCL_EDATA,
          "%s: grid.type polar needs 0 < grid.radius < grid.outer_radius (got radius %g m, outer_radius %g m)",
          hcl_case_origin(c, "grid.radius"), a, R);
  REQUIRE(g->nx >= 3 && g->ny >= 8, HCL_EDATA,
          "%s: grid.type polar needs at least 3 points along the radius (grid.nx = %d) and 8 around (grid.ny = %d)",
          hcl_case_origin(c, "grid.nx"), g->nx, g->ny);
  REQUIRE(!g->periodic_x && (g->periodic_y || hcl_case_at_default(c, "grid.periodic_y")), HCL_EDATA,
          "%s: a polar grid is periodic around the cylinder (j) and walled along the radius (i): leave "
          "grid.periodic_x and grid.periodic_y out",
          hcl_case_origin(c, g->periodic_x ? "grid.periodic_x" : "grid.periodic_y"));
  g->periodic_y = true;
  geo->polar = (MappingPolar){.cx = s->config.x0,
                              .cy = s->config.y0,
                              .radius = a,
                              .outer = R,
                              .stretching = hcl_case_choice(c, "grid.radial") == 0 ? log(R / a) : 0,
                              .nr = g->nx,
                              .ntheta = g->ny};
  /* the stencils reach order / 2 points inside the cylinder's wall: the formula must stay at r > 0 there (the
   * solver's keys are read after the grid's) */
  double inner = hcl_mapping_polar_radius(&geo->polar, -(double)hcl_case_int(c, "solver.order") / 2);
  REQUIRE(inner > 0, HCL_EDATA,
          "%s: the polar grid's first radial spacing, %g m, is too wide for the cylinder of radius %g m: the "
          "stencils reach past its centre; use more points along the radius (grid.nx) or grid.radial geometric",
          hcl_case_origin(c, "grid.nx"), hcl_mapping_polar_radius(&geo->polar, 1) - a, a);
  geo->map = (Mapping){hcl_mapping_polar_point, &geo->polar, "polar grid"};
  s->config.laplace.dx = hcl_mapping_polar_radius(&geo->polar, 1) - a; /* nominal: the spacings at the cylinder */
  s->config.laplace.dy = 2 * PI * a / g->ny;
cleanup:
  return status;
}

/* The file's x and y, by the names the case gives or the usual ones; both of one shape. */
static HclStatus read_points(const Case *c, WaveSetup *s) {
  HclStatus status = HCL_OK;
  WaveGeometry *geo = &s->geometry;
  const char *path = hcl_case_file(c, "grid.file"),
             *given[2] = {hcl_case_string(c, "grid.x_variable"), hcl_case_string(c, "grid.y_variable")};
  const char *usual[2][2] = {{"x", "x_rho"}, {"y", "y_rho"}};
  char found[2][INPUT_NAME_SIZE];
  int nx[2], ny[2];
  double **values[2] = {&geo->x, &geo->y};
  REQUIRE(path[0], HCL_EDATA, "%s: grid.type is file but grid.file is not given", hcl_case_origin(c, "grid.type"));
  for (int a = 0; a < 2; a++) {
    TRY(hcl_input_grid_shape(path, given[a][0] ? &given[a] : usual[a], given[a][0] ? 1 : 2, &nx[a], &ny[a], found[a]));
  }
  REQUIRE(nx[0] == nx[1] && ny[0] == ny[1], HCL_EDATA, "%s: %s is %d x %d but %s is %d x %d (j, i)", path, found[0],
          ny[0], nx[0], found[1], ny[1], nx[1]);
  /* The declared size against the host's memory before any of it is taken: the coordinates alone, x and y in
   * double, must fit (a file declaring 10^6 x 10^6 points is a mistake to report, not an allocation to fail). */
  double bytes = 2.0 * sizeof(double) * nx[0] * ny[0];
  double memory = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
  REQUIRE(memory <= 0 || bytes <= memory, HCL_EDATA,
          "%s: the grid file declares %d x %d points (j, i), whose coordinates alone take %.4g GB, more than this "
          "machine's %.4g GB of memory; give a grid of fewer points",
          path, ny[0], nx[0], bytes / 1e9, memory / 1e9);
  for (int a = 0; a < 2; a++) {
    TRY_ALLOC(*values[a], (size_t)nx[0] * ny[0]);
    TRY(hcl_input_read_grid(path, found[a], nx[0], ny[0], NULL, *values[a], NULL)); /* the coordinates themselves */
  }
  s->grid.nx = nx[0];
  s->grid.ny = ny[0];
  snprintf(geo->name, sizeof geo->name, "grid of %s", path);
cleanup:
  return status;
}

/* The file's points are metres: beyond this the cells' cross products and areas overflow (1e300 gives inf - inf), and
 * no sea is that large. */
static const double COORDINATE_MAX = 1e9;

/* Every point of the file's grid within COORDINATE_MAX, naming the first that is not. */
static HclStatus check_points(const Case *c, const WaveSetup *s) {
  HclStatus status = HCL_OK;
  const WaveGeometry *geo = &s->geometry;
  size_t n = (size_t)s->grid.nx * s->grid.ny;
  for (size_t p = 0; p < n; p++) {
    REQUIRE(fabs(geo->x[p]) <= COORDINATE_MAX && fabs(geo->y[p]) <= COORDINATE_MAX, HCL_EDATA,
            "%s: point (%zu, %zu) of the grid is at x = %g m, y = %g m: the points' coordinates are metres within "
            "+-%g m",
            hcl_case_origin(c, "grid.file"), p % (size_t)s->grid.nx, p / (size_t)s->grid.nx, geo->x[p], geo->y[p],
            COORDINATE_MAX);
  }
cleanup:
  return status;
}

/* What is wrong with a cell, if anything. */
typedef enum { CELL_SOUND, CELL_FLAT, CELL_CLOCKWISE, CELL_FOLDED } CellShape;

/* A cell, corners (i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1) in order around it: sound where it is convex and
 * right-handed (the cross product of its edges positive at every corner) with an area (shoelace) above 1e-8 of its
 * longest edge squared (no edge collapsed to a point up to rounding); flat where its area is below that either way;
 * clockwise where every corner turns right; else folded. */
static CellShape cell_shape(const Mapping *map, long i, long j) {
  double x[4], y[4], area = 0, longest = 0;
  static const int di[4] = {0, 1, 1, 0}, dj[4] = {0, 0, 1, 1};
  int left = 0, right = 0;
  for (int k = 0; k < 4; k++) {
    map->point(map->ctx, i + di[k], j + dj[k], &x[k], &y[k]);
  }
  for (int k = 0; k < 4; k++) {
    int next = (k + 1) % 4, last = (k + 3) % 4;
    double cross = (x[next] - x[k]) * (y[last] - y[k]) - (y[next] - y[k]) * (x[last] - x[k]);
    left += cross > 0;
    right += cross < 0;
    area += 0.5 * (x[k] * y[next] - x[next] * y[k]);
    longest = fmax(longest, hypot(x[next] - x[k], y[next] - y[k]));
  }
  if (fabs(area) <= 1e-8 * longest * longest) {
    return CELL_FLAT;
  }
  return left == 4 ? CELL_SOUND : right == 4 ? CELL_CLOCKWISE : CELL_FOLDED;
}

/* Every cell of the file's grid (a periodic direction's closing cells too) convex and right-handed. */
static HclStatus check_cells(const Case *c, const WaveSetup *s) {
  HclStatus status = HCL_OK;
  static const char *const what[] = {"", "has no area (two or more of its corners meet, or all lie on a line)",
                                     "turns clockwise", "folds (is not convex)"};
  const DecompSpec *g = &s->grid;
  const Mapping *map = &s->geometry.map;
  long cells_x = g->periodic_x ? g->nx : g->nx - 1, cells_y = g->periodic_y ? g->ny : g->ny - 1, bad = 0;
  long clockwise = 0, first_i = -1, first_j = -1;
  CellShape first = CELL_SOUND;
  for (long j = 0; j < cells_y; j++) {
    for (long i = 0; i < cells_x; i++) {
      CellShape shape = cell_shape(map, i, j);
      clockwise += shape == CELL_CLOCKWISE;
      if (shape != CELL_SOUND && bad++ == 0) {
        first = shape;
        first_i = i;
        first_j = j;
      }
    }
  }
  if (bad == 0) {
    goto cleanup;
  }
  double x, y;
  map->point(map->ctx, first_i, first_j, &x, &y);
  REQUIRE(clockwise < cells_x * cells_y, HCL_EDATA,
          "%s: every cell of the grid turns clockwise: j must run anticlockwise from i; reverse one direction of the "
          "file's points",
          hcl_case_origin(c, "grid.file"));
  bool closing = (g->periodic_x && first_i == g->nx - 1) || (g->periodic_y && first_j == g->ny - 1);
  FAIL(
      HCL_EDATA,
      "%s: %ld of the grid's %ld cells fold, turn clockwise or have no area; the first, the cell from point (%ld, %ld) "
      "at x = %g m, y = %g m, %s%s",
      hcl_case_origin(c, "grid.file"), bad, cells_x * cells_y, first_i, first_j, x, y, what[first],
      closing ? ": it closes a periodic direction, whose last point must not repeat its first" : "");
cleanup:
  return status;
}

/* Warnings, naming the worst point: spacing that changes by more than 30% from one cell to the next (the
 * differences lose their order there), and grid lines meeting a wall more than 5 degrees from square (the no-flux
 * condition holds along the grid line, not the wall's normal). */
static void warn_smoothness(const Case *c, const WaveSetup *s) {
  const DecompSpec *g = &s->grid;
  const Mapping *map = &s->geometry.map;
  double worst_ratio = 1, worst_angle = 0;
  long ratio_at[2] = {0, 0}, angle_at[2] = {0, 0};
  for (long j = 0; j < g->ny; j++) {
    for (long i = 0; i < g->nx; i++) {
      double p[3][3][2]; /* the point and its neighbours, [di + 1][dj + 1] */
      for (int a = -1; a <= 1; a++) {
        for (int b = -1; b <= 1; b++) {
          map->point(map->ctx, i + a, j + b, &p[a + 1][b + 1][0], &p[a + 1][b + 1][1]);
        }
      }
      double east = hypot(p[2][1][0] - p[1][1][0], p[2][1][1] - p[1][1][1]);
      double west = hypot(p[1][1][0] - p[0][1][0], p[1][1][1] - p[0][1][1]);
      double north = hypot(p[1][2][0] - p[1][1][0], p[1][2][1] - p[1][1][1]);
      double south = hypot(p[1][1][0] - p[1][0][0], p[1][1][1] - p[1][0][1]);
      double ratio = fmax(fmax(east / west, west / east), fmax(north / south, south / north));
      if (ratio > worst_ratio) {
        worst_ratio = ratio;
        ratio_at[0] = i;
        ratio_at[1] = j;
      }
      bool wall_x = !g->periodic_x && (i == 0 || i == g->nx - 1), wall_y = !g->periodic_y && (j == 0 || j == g->ny - 1);
      /* the angle between the two grid directions' centred differences, 90 degrees on an orthogonal grid */
      double ax = p[2][1][0] - p[0][1][0], ay = p[2][1][1] - p[0][1][1];
      double bx = p[1][2][0] - p[1][0][0], by = p[1][2][1] - p[1][0][1];
      double angle = fabs(90 - acos((ax * bx + ay * by) / (hypot(ax, ay) * hypot(bx, by))) * 180 / PI);
      if ((wall_x || wall_y) && angle > worst_angle) {
        worst_angle = angle;
        angle_at[0] = i;
        angle_at[1] = j;
      }
    }
  }
  double x, y;
  if (worst_ratio > 1.3 && hcl_par_rank() == 0) {
    map->point(map->ctx, ratio_at[0], ratio_at[1], &x, &y);
    hcl_log_warn(
        "%s: the grid's spacing changes by a factor %.3g from one cell to the next at point (%ld, %ld), x = %g m, "
        "y = %g m: the finite differences lose accuracy where it changes by more than 30%%",
        hcl_case_origin(c, "grid.file"), worst_ratio, ratio_at[0], ratio_at[1], x, y);
  }
  if (worst_angle > 5 && hcl_par_rank() == 0) {
    map->point(map->ctx, angle_at[0], angle_at[1], &x, &y);
    hcl_log_warn(
        "%s: a grid line meets a wall %.3g degrees from square at point (%ld, %ld), x = %g m, y = %g m: no flux "
        "holds along the grid line there, not along the wall's normal",
        hcl_case_origin(c, "grid.file"), worst_angle, angle_at[0], angle_at[1], x, y);
  }
}

/* A grid of points from a netCDF file. */
static HclStatus read_file_grid(const Case *c, WaveSetup *s) {
  HclStatus status = HCL_OK;
  DecompSpec *g = &s->grid;
  WaveGeometry *geo = &s->geometry;
  int order = (int)hcl_case_int(c, "solver.order"), least = order + 1;
  TRY(read_points(c, s));
  REQUIRE(g->nx >= least && g->ny >= least, HCL_EDATA,
          "%s: the grid of grid.file is %d x %d points; the stencils of order %d need at least %d along each direction",
          hcl_case_origin(c, "grid.file"), g->nx, g->ny, order, least);
  TRY(check_points(c, s));
  geo->table = (MappingTable){g->nx, g->ny, g->periodic_x, g->periodic_y, order, geo->x, geo->y};
  geo->map = (Mapping){hcl_mapping_table_point, &geo->table, geo->name};
  TRY(check_cells(c, s));
  warn_smoothness(c, s);
  double sums[2];
  hcl_mapping_spacing_sums(&geo->map, 0, 0, g->nx, g->ny, sums);
  s->config.laplace.dx = sums[0] / ((double)g->nx * g->ny); /* nominal: the mean spacings */
  s->config.laplace.dy = sums[1] / ((double)g->nx * g->ny);
  s->config.x0 = geo->x[0];
  s->config.y0 = geo->y[0];
cleanup:
  return status;
}

static HclStatus read_grid(const Case *c, WaveSetup *s) {
  HclStatus status = HCL_OK;
  DecompSpec *g = &s->grid;
  g->nx = (int)hcl_case_int(c, "grid.nx");
  g->ny = (int)hcl_case_int(c, "grid.ny");
  g->px = (int)hcl_case_int(c, "grid.px");
  g->py = (int)hcl_case_int(c, "grid.py");
  g->periodic_x = hcl_case_bool(c, "grid.periodic_x");
  g->periodic_y = hcl_case_bool(c, "grid.periodic_y");
  s->geometry.type = (WaveGridType)hcl_case_choice(c, "grid.type");
  s->config.x0 = hcl_case_real(c, "grid.x0");
  s->config.y0 = hcl_case_real(c, "grid.y0");
  if (s->geometry.type == WAVE_GRID_FILE) {
    TRY(read_file_grid(c, s));
    goto cleanup;
  }
  REQUIRE(g->nx >= 1 && g->ny >= 1, HCL_EDATA, "%s: grid.%s is required (the points along %s), at least 1",
          hcl_case_origin(c, g->nx < 1 ? "grid.nx" : "grid.ny"), g->nx < 1 ? "nx" : "ny", g->nx < 1 ? "x" : "y");
  REQUIRE(g->nx > 1 || g->ny > 1, HCL_EDATA, "%s: grid.nx and grid.ny are both 1: a wave needs a direction to travel",
          hcl_case_origin(c, "grid.nx"));
  REQUIRE(!(g->periodic_x && g->nx == 1) && !(g->periodic_y && g->ny == 1), HCL_EDATA,
          "%s: a direction of one point cannot be periodic (grid.periodic_x %s with nx %d, periodic_y %s with ny %d)",
          hcl_case_origin(c, g->periodic_x && g->nx == 1 ? "grid.periodic_x" : "grid.periodic_y"),
          g->periodic_x ? "true" : "false", g->nx, g->periodic_y ? "true" : "false", g->ny);
  if (s->geometry.type == WAVE_GRID_POLAR) {
    TRY(read_polar(c, s));
  } else {
    TRY(read_rectangle(c, s));
  }
cleanup:
  return status;
}

/* The solver's map: set once the laplace configuration is read (read_solver resets it). */
static void attach_map(WaveSetup *s) {
  s->config.laplace.map = s->geometry.type == WAVE_GRID_CARTESIAN ? NULL : &s->geometry.map;
}

/* The Laplace solver's keys under solver.: its module reads and checks them (laplace.h). */
static HclStatus read_solver(const Case *c, const LaplacePrecision *precision, WaveSetup *s) {
  return hcl_laplace_config_from_case(c, "solver.", precision, s->grid.nx, s->grid.ny, &s->config.laplace);
}

/* ---- bed ---- */

void wave_setup_point(const WaveSetup *s, long gi, long gj, double *x, double *y) {
  if (s->geometry.type == WAVE_GRID_CARTESIAN) {
    *x = s->config.x0 + (double)gi * s->config.laplace.dx;
    *y = s->config.y0 + (double)gj * s->config.laplace.dy;
  } else {
    s->geometry.map.point(s->geometry.map.ctx, gi, gj, x, y);
  }
}

double wave_setup_depth(const WaveSetup *s, int gi, int gj) {
  const WaveBed *bed = &s->bed;
  double x, y;
  wave_setup_point(s, gi, gj, &x, &y);
  switch (bed->shape) {
  case WAVE_BED_BAR:
    return hcl_wave_bar_depth(x - bed->x);
  case WAVE_BED_WHALIN:
    return hcl_wave_whalin_depth(x - bed->x, y - bed->y);
  case WAVE_BED_FILE:
    return bed->values[(size_t)gj * s->grid.nx + gi];
  case WAVE_BED_FLAT:
    break;
  }
  return bed->depth;
}

static HclStatus read_bed(const Case *c, WaveSetup *s) {
  HclStatus status = HCL_OK;
  WaveBed *bed = &s->bed;
  bed->shape = (WaveBedShape)hcl_case_choice(c, "bed.shape");
  bed->depth = hcl_case_real(c, "bed.depth");
  bed->x = hcl_case_real(c, "bed.x");
  bed->y = hcl_case_real(c, "bed.y");
  if (bed->shape == WAVE_BED_FILE) {
    /* A Cartesian grid's points are x0 + i dx; a mapped, polar or file grid's are curvilinear, unchecked. */
    InputAxes points = {.x0 = s->config.x0,
                        .dx = s->config.laplace.dx,
                        .y0 = s->config.y0,
                        .dy = s->config.laplace.dy,
                        .keys = "points x0 + i dx of grid.x0, grid.lx, grid.nx and so in y",
                        .crs = s->crs,
                        .sampling = INPUT_LEVELS};
    bool cartesian = s->geometry.type == WAVE_GRID_CARTESIAN;
    TRY(run_read_bed_file(c, s->grid.nx, s->grid.ny, cartesian ? &points : NULL, &bed->values, &bed->source));
  }
cleanup:
  return status;
}

/* ---- relaxation zones ---- */

/* Reads "FROM TO" after *text into lo, hi; false when they are not two numbers. */
static bool read_range(const char **text, double *lo, double *hi) {
  int used = 0;
  if (sscanf(*text, " %lf %lf%n", lo, hi, &used) != 2 || !isfinite(*lo) || !isfinite(*hi)) {
    return false;
  }
  *text += used;
  return true;
}

/* The next word of *text (at most size - 1 characters) into word; "" at the end. */
static void read_word(const char **text, char *word, size_t size) {
  int used = 0;
  word[0] = '\0';
  char format[16];
  snprintf(format, sizeof format, " %%%zus%%n", size - 1);
  if (sscanf(*text, format, word, &used) == 1) {
    *text += used;
  }
}

/* The optional "ACROSS FROM TO" (a box along axis) or "about X Y" (a ring, axis '\0'), then "SHAPE [POWER]". */
static bool read_zone_options(const char *text, char axis, WaveZone *z) {
  char word[32];
  read_word(&text, word, sizeof word);
  if (axis && (word[0] == 'x' || word[0] == 'y') && word[1] == '\0') {
    double *lo = word[0] == 'x' ? &z->x0 : &z->y0, *hi = word[0] == 'x' ? &z->x1 : &z->y1;
    if (word[0] == axis || !read_range(&text, lo, hi)) {
      return false;
    }
    read_word(&text, word, sizeof word);
  }
  if (!axis && strcmp(word, "about") == 0) {
    if (!read_range(&text, &z->cx, &z->cy)) {
      return false;
    }
    read_word(&text, word, sizeof word);
  }
  if (strcmp(word, "polynomial") == 0) {
    z->shape = WAVE_SHAPE_POLYNOMIAL;
    read_word(&text, word, sizeof word);
  } else if (strcmp(word, "exponential") == 0) {
    int used = 0;
    if (sscanf(text, " %lf%n", &z->power, &used) == 1) {
      text += used;
    }
    read_word(&text, word, sizeof word);
  }
  return word[0] == '\0';
}

void wave_setup_extent(const WaveSetup *s, double box[4], double *sx, double *sy) {
  long nx = s->grid.nx, ny = s->grid.ny;
  bool cartesian = s->geometry.type == WAVE_GRID_CARTESIAN; /* its corners suffice */
  box[0] = box[2] = HUGE_VAL;
  box[1] = box[3] = -HUGE_VAL;
  for (long j = 0; j < ny; j += cartesian && ny > 1 ? ny - 1 : 1) {
    for (long i = 0; i < nx; i += cartesian && nx > 1 ? nx - 1 : 1) {
      double x, y;
      wave_setup_point(s, i, j, &x, &y);
      box[0] = fmin(box[0], x);
      box[1] = fmax(box[1], x);
      box[2] = fmin(box[2], y);
      box[3] = fmax(box[3], y);
    }
  }
  *sx = 0.5 * s->config.laplace.dx;
  *sy = 0.5 * s->config.laplace.dy;
}

/* A ring, "KIND ring FROM TO [about X Y] [SHAPE [POWER]]", about the polar grid's centre unless given. */
static bool parse_ring(const char *text, const WaveSetup *s, WaveZone *z) {
  if (!read_range(&text, &z->r0, &z->r1)) {
    return false;
  }
  z->region = WAVE_REGION_RING;
  z->cx = s->geometry.type == WAVE_GRID_POLAR ? s->geometry.polar.cx : NAN;
  z->cy = s->geometry.type == WAVE_GRID_POLAR ? s->geometry.polar.cy : NAN;
  return read_zone_options(text, '\0', z);
}

/* One zone, "KIND AXIS FROM TO INWARD [ACROSS FROM TO] [SHAPE [POWER]]" (across defaults to the whole domain) or
 * "KIND ring FROM TO [about X Y] [SHAPE [POWER]]". */
static bool parse_zone(const char *text, const WaveSetup *s, WaveZone *z) {
  static const char *const inwards[] = {"+x", "-x", "+y", "-y"};
  char kind[32], axis[32], inward[32];
  double lo, hi, box[4], sx, sy;
  read_word(&text, kind, sizeof kind);
  read_word(&text, axis, sizeof axis);
  if (strcmp(kind, "generate") != 0 && strcmp(kind, "absorb") != 0) {
    return false;
  }
  wave_setup_extent(s, box, &sx, &sy);
  *z = (WaveZone){.kind = kind[0] == 'g' ? WAVE_ZONE_GENERATE : WAVE_ZONE_ABSORB,
                  .shape = WAVE_SHAPE_EXPONENTIAL,
                  .power = 3.5,
                  .x0 = box[0],
                  .x1 = box[1],
                  .y0 = box[2],
                  .y1 = box[3]};
  if (strcmp(axis, "ring") == 0) {
    return parse_ring(text, s, z);
  }
  if ((strcmp(axis, "x") != 0 && strcmp(axis, "y") != 0) || !read_range(&text, &lo, &hi)) {
    return false;
  }
  read_word(&text, inward, sizeof inward);
  int direction = -1;
  for (int d = 0; d < 4; d++) {
    direction = strcmp(inward, inwards[d]) == 0 ? d : direction;
  }
  if (direction < 0 || inward[1] != axis[0]) {
    return false;
  }
  z->inward = (WaveZoneInward)direction;
  *(axis[0] == 'x' ? &z->x0 : &z->y0) = lo;
  *(axis[0] == 'x' ? &z->x1 : &z->y1) = hi;
  return read_zone_options(text, axis[0], z);
}

/* A ring's radii and centre: 0 <= FROM < TO, a centre given where the grid is not polar. */
static HclStatus check_ring(const Case *c, int n, const char *text, const WaveZone *z) {
  HclStatus status = HCL_OK;
  const char *key = "relaxation.zones";
  REQUIRE(isfinite(z->cx) && isfinite(z->cy), HCL_EDATA,
          "%s: %s: ring %d ('%s') needs its centre, 'about X Y', on a grid that is not polar", hcl_case_origin(c, key),
          key, n, text);
  REQUIRE(z->r0 >= 0 && z->r1 > z->r0, HCL_EDATA,
          "%s: %s: ring %d ('%s') is empty: it needs 0 <= FROM < TO (got %g to %g m)", hcl_case_origin(c, key), key, n,
          text, z->r0, z->r1);
cleanup:
  return status;
}

/* A zone's box against the domain (half a spacing of slack, as hcl_wave_create allows) and its ramp not empty. */
static HclStatus check_zone(const Case *c, const WaveSetup *s, int n, const char *text, const WaveZone *z) {
  HclStatus status = HCL_OK;
  const char *key = "relaxation.zones";
  double box[4], sx, sy;
  wave_setup_extent(s, box, &sx, &sy);
  if (z->region == WAVE_REGION_RING) {
    TRY(check_ring(c, n, text, z));
  } else {
    bool along_x = z->inward == WAVE_INWARD_PLUS_X || z->inward == WAVE_INWARD_MINUS_X;
    REQUIRE(along_x ? z->x1 > z->x0 && z->y1 >= z->y0 : z->y1 > z->y0 && z->x1 >= z->x0, HCL_EDATA,
            "%s: %s: zone %d ('%s') is empty: FROM must lie below TO (x %g to %g m, y %g to %g m)",
            hcl_case_origin(c, key), key, n, text, z->x0, z->x1, z->y0, z->y1);
    REQUIRE(z->x0 >= box[0] - sx && z->x1 <= box[1] + sx && z->y0 >= box[2] - sy && z->y1 <= box[3] + sy, HCL_EDATA,
            "%s: %s: zone %d ('%s') covers x %g to %g m, y %g to %g m, outside the domain's grid points, x %g to %g "
            "m, y %g to %g m",
            hcl_case_origin(c, key), key, n, text, z->x0, z->x1, z->y0, z->y1, box[0], box[1], box[2], box[3]);
  }
  REQUIRE(z->shape == WAVE_SHAPE_POLYNOMIAL || (z->power > 0 && z->power <= 100), HCL_EDATA,
          "%s: %s: zone %d ('%s'): the exponential shape's power must be > 0 and at most 100 (got %g; OceanWave3D "
          "uses 3.5)",
          hcl_case_origin(c, key), key, n, text, z->power);
cleanup:
  return status;
}

static HclStatus read_zones(const Case *c, WaveSetup *s) {
  HclStatus status = HCL_OK;
  const char *key = "relaxation.zones";
  char text[512];
  const char *cursor = hcl_case_string(c, key);
  WaveConfig *config = &s->config;
  while (*cursor) {
    cursor += strspn(cursor, " \t");
    size_t length = strcspn(cursor, ";");
    snprintf(text, sizeof text, "%.*s", (int)(length < sizeof text ? length : sizeof text - 1), cursor);
    cursor += length + (cursor[length] == ';');
    for (size_t n = strlen(text); n > 0 && (text[n - 1] == ' ' || text[n - 1] == '\t'); n--) {
      text[n - 1] = '\0';
    }
    if (!text[0]) {
      continue;
    }
    REQUIRE(config->nzones < WAVE_ZONES_MAX, HCL_EDATA, "%s: %s holds more than %d zones", hcl_case_origin(c, key), key,
            WAVE_ZONES_MAX);
    WaveZone *z = &config->zones[config->nzones];
    REQUIRE(parse_zone(text, s, z), HCL_EDATA,
            "%s: %s: zone %d ('%s') must read 'generate|absorb x|y FROM TO +x|-x|+y|-y [x|y FROM TO] "
            "[exponential [POWER]|polynomial]', the direction along the axis and the extent across on the other "
            "(e.g. 'generate x 0 3 +x'), or 'generate|absorb ring FROM TO [about X Y] [exponential [POWER]|"
            "polynomial]'",
            hcl_case_origin(c, key), key, config->nzones + 1, text);
    TRY(check_zone(c, s, config->nzones + 1, text, z));
    config->nzones++;
  }
cleanup:
  return status;
}

/* ---- incident waves ---- */

/* The global grid point nearest (x, y): on a Cartesian grid from the spacing, else by a search of every point. */
static void nearest_point(const WaveSetup *s, double x, double y, int *gi, int *gj) {
  double nearest = HUGE_VAL;
  *gi = *gj = 0;
  if (s->geometry.type == WAVE_GRID_CARTESIAN) {
    long i = lround((x - s->config.x0) / s->config.laplace.dx), j = lround((y - s->config.y0) / s->config.laplace.dy);
    *gi = (int)(i < 0 ? 0 : i >= s->grid.nx ? s->grid.nx - 1 : i);
    *gj = (int)(j < 0 ? 0 : j >= s->grid.ny ? s->grid.ny - 1 : j);
    return;
  }
  for (int j = 0; j < s->grid.ny; j++) {
    for (int i = 0; i < s->grid.nx; i++) {
      double px, py;
      wave_setup_point(s, i, j, &px, &py);
      if (hypot(px - x, py - y) < nearest) {
        nearest = hypot(px - x, py - y);
        *gi = i;
        *gj = j;
      }
    }
  }
}

/* The depth the incident wave is computed for: waves.depth, else at the grid point nearest the middle of the first
 * generation zone (a ring's: on its +x side), else the deepest point. */
static double incident_depth(const Case *c, const WaveSetup *s) {
  if (hcl_case_real(c, "waves.depth") > 0) {
    return hcl_case_real(c, "waves.depth");
  }
  for (int n = 0; n < s->config.nzones; n++) {
    const WaveZone *z = &s->config.zones[n];
    if (z->kind == WAVE_ZONE_GENERATE) {
      bool ring = z->region == WAVE_REGION_RING;
      int gi, gj;
      nearest_point(s, ring ? z->cx + 0.5 * (z->r0 + z->r1) : 0.5 * (z->x0 + z->x1),
                    ring ? z->cy : 0.5 * (z->y0 + z->y1), &gi, &gj);
      return wave_setup_depth(s, gi, gj);
    }
  }
  double deepest = 0;
  for (int gj = 0; gj < s->grid.ny; gj++) {
    for (int gi = 0; gi < s->grid.nx; gi++) {
      deepest = fmax(deepest, wave_setup_depth(s, gi, gj));
    }
  }
  return deepest;
}

/* A refusal of waves.h (which names its settings as the case's keys, waves.*), with the origin of key, the wave's
 * height. */
static HclStatus explain_wave(const Case *c, HclStatus status, const char *key) {
  char message[1200];
  snprintf(message, sizeof message, "%s", hcl_status_message());
  hcl_status_clear();
  return hcl_status_set(status, __FILE__, __LINE__, "%s: waves.incident = %s: %s", hcl_case_origin(c, key),
                        hcl_case_string(c, "waves.incident"), message);
}

static HclStatus solve_regular(const Case *c, WaveSetup *s) {
  HclStatus status = HCL_OK;
  RegularWaveSpec spec = hcl_waves_regular_spec_default();
  spec.g = s->config.g;
  spec.depth = s->incident_depth;
  spec.height = hcl_case_real(c, "waves.height");
  spec.period = hcl_case_real(c, "waves.period");
  spec.length = hcl_case_real(c, "waves.length");
  spec.criterion = hcl_case_choice(c, "waves.criterion") == 0 ? WAVES_CURRENT_EULERIAN : WAVES_CURRENT_STOKES;
  spec.current = hcl_case_real(c, "waves.current");
  spec.modes = (int)hcl_case_int(c, "waves.modes");
  status = s->incident_kind == WAVE_INCIDENT_STREAM ? hcl_waves_solve_stream(&spec, &s->regular)
                                                    : hcl_waves_solve_linear(&spec, &s->regular);
  if (status != HCL_OK) {
    status = explain_wave(c, status, "waves.height");
    goto cleanup;
  }
  TRY(hcl_wave_incident_regular(&s->regular, hcl_case_real(c, "waves.direction") * PI / 180,
                                hcl_case_real(c, "waves.x_origin"), &s->incident));
  s->celerity = s->regular.celerity;
cleanup:
  return status;
}

static HclStatus solve_irregular(const Case *c, WaveSetup *s) {
  HclStatus status = HCL_OK;
  IrregularWaveSpec spec = hcl_waves_irregular_spec_default();
  spec.spectrum = hcl_case_choice(c, "waves.spectrum") == 0 ? WAVES_JONSWAP : WAVES_PIERSON_MOSKOWITZ;
  spec.g = s->config.g;
  spec.depth = s->incident_depth;
  spec.hs = hcl_case_real(c, "waves.hs");
  spec.tp = hcl_case_real(c, "waves.tp");
  spec.gamma = hcl_case_real(c, "waves.gamma");
  spec.direction = hcl_case_real(c, "waves.direction") * PI / 180;
  spec.components = (int)hcl_case_int(c, "waves.components");
  spec.seed = (uint64_t)hcl_case_int(c, "waves.seed");
  double k = 0;
  status = hcl_waves_irregular_create(&spec, &s->irregular);
  if (status == HCL_OK) {
    status = hcl_waves_solve_dispersion(spec.g, spec.depth, spec.tp, 0, &k);
  }
  if (status != HCL_OK) {
    status = explain_wave(c, status, "waves.hs");
    goto cleanup;
  }
  TRY(hcl_wave_incident_irregular(&s->irregular, &s->incident));
  s->celerity = 2 * PI / spec.tp / k;
cleanup:
  return status;
}

static HclStatus read_incident(const Case *c, WaveSetup *s) {
  HclStatus status = HCL_OK;
  s->incident_kind = (WaveIncidentKind)hcl_case_choice(c, "waves.incident");
  s->config.ramp_time = hcl_case_real(c, "waves.ramp_time");
  if (s->incident_kind == WAVE_INCIDENT_NONE) {
    goto cleanup;
  }
  s->incident_depth = incident_depth(c, s);
  if (s->incident_kind == WAVE_INCIDENT_IRREGULAR) {
    TRY(solve_irregular(c, s));
  } else {
    TRY(solve_regular(c, s));
  }
  bool generates = false;
  for (int n = 0; n < s->config.nzones; n++) {
    generates = generates || s->config.zones[n].kind == WAVE_ZONE_GENERATE;
  }
  if (!generates && hcl_par_rank() == 0 && hcl_case_choice(c, "initial.shape") != WAVE_INITIAL_WAVE) {
    hcl_log_warn("%s: waves.incident is %s but relaxation.zones has no generation zone and initial.shape is not wave: "
                 "the incident wave is not used",
                 hcl_case_origin(c, "waves.incident"), hcl_case_string(c, "waves.incident"));
  }
cleanup:
  return status;
}

/* ---- initial state ---- */

static HclStatus read_initial(const Case *c, WaveSetup *s) {
  HclStatus status = HCL_OK;
  WaveInitial *in = &s->initial;
  in->shape = (WaveInitialShape)hcl_case_choice(c, "initial.shape");
  in->amplitude = hcl_case_real(c, "initial.amplitude");
  in->mx = (int)hcl_case_int(c, "initial.mx");
  in->my = (int)hcl_case_int(c, "initial.my");
  in->height = hcl_case_real(c, "initial.height");
  in->x = hcl_case_real(c, "initial.x");
  in->y = hcl_case_real(c, "initial.y");
  in->width = hcl_case_real(c, "initial.width");
  if (in->shape == WAVE_INITIAL_STANDING) {
    REQUIRE(s->geometry.type != WAVE_GRID_POLAR, HCL_EDATA,
            "%s: initial.shape standing is a mode of the rectangle of grid.lx x grid.ly: not for a polar grid",
            hcl_case_origin(c, "initial.shape"));
    REQUIRE(s->grid.nx > 1 || in->mx == 0, HCL_EDATA, "%s: initial.mx = %d but grid.nx is 1: nothing varies along x",
            hcl_case_origin(c, "initial.mx"), in->mx);
    REQUIRE(s->grid.ny > 1 || in->my == 0, HCL_EDATA, "%s: initial.my = %d but grid.ny is 1: nothing varies along y",
            hcl_case_origin(c, "initial.my"), in->my);
  }
  REQUIRE(in->shape != WAVE_INITIAL_WAVE || s->incident_kind != WAVE_INCIDENT_NONE, HCL_EDATA,
          "%s: initial.shape is wave but waves.incident is none: choose the wave", hcl_case_origin(c, "initial.shape"));
  REQUIRE(in->shape != WAVE_INITIAL_WAVE || s->config.ramp_time == 0, HCL_EDATA,
          "%s: initial.shape is wave, in full from t = 0, but waves.ramp_time = %g s would fade it in: set it to 0",
          hcl_case_origin(c, "waves.ramp_time"), s->config.ramp_time);
cleanup:
  return status;
}

/* The wavenumber of a standing mode of m half-wavelengths (between walls) or wavelengths (periodic) over n points
 * of spacing d. */
static double standing_k(int m, int n, double d, bool periodic) {
  return n == 1 ? 0 : periodic ? 2 * PI * m / (n * d) : PI * m / ((n - 1) * d);
}

/* eta and phi of the initial state at global point (gi, gj). */
static void initial_point(const WaveSetup *s, int gi, int gj, double *eta, double *phi) {
  const WaveInitial *in = &s->initial;
  double x, y;
  wave_setup_point(s, gi, gj, &x, &y);
  double dx = x - in->x, dy = s->grid.ny == 1 ? 0 : y - in->y;
  *eta = *phi = 0;
  switch (in->shape) {
  case WAVE_INITIAL_STANDING:
    *eta = in->amplitude *
           cos(standing_k(in->mx, s->grid.nx, s->config.laplace.dx, s->grid.periodic_x) * (x - s->config.x0)) *
           cos(standing_k(in->my, s->grid.ny, s->config.laplace.dy, s->grid.periodic_y) * (y - s->config.y0));
    break;
  case WAVE_INITIAL_GAUSSIAN: /* fnpf-multigpu-scalability eq. 16 */
    *eta = in->height * exp(-(dx * dx + dy * dy) / (2 * in->width * in->width));
    break;
  case WAVE_INITIAL_WAVE:
    *eta = hcl_wave_incident_eta(&s->incident, x, y, 0);
    *phi = hcl_wave_incident_phi(&s->incident, x, y, 0);
    break;
  case WAVE_INITIAL_STILL:
    break;
  }
}

void wave_initial_state(const WaveSetup *s, const Decomp *decomp, double *h, double *eta, double *phi) {
  const DecompLocal *l = hcl_decomp_local(decomp);
  for (int j = 0; j < l->ny; j++) {
    for (int i = 0; i < l->nx; i++) {
      size_t p = (size_t)j * l->nx + i;
      h[p] = wave_setup_depth(s, l->x0 + i, l->y0 + j);
      initial_point(s, l->x0 + i, l->y0 + j, &eta[p], &phi[p]);
    }
  }
}

HclStatus wave_check_initial(const Case *c, const WaveSetup *s, const Decomp *decomp, const double *h,
                             const double *eta) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = hcl_decomp_local(decomp);
  for (int j = 0; j < l->ny; j++) {
    for (int i = 0; i < l->nx; i++) {
      size_t p = (size_t)j * l->nx + i;
      double x, y;
      wave_setup_point(s, l->x0 + i, l->y0 + j, &x, &y);
      REQUIRE(h[p] > 0 && isfinite(h[p]), HCL_EDATA,
              "%s: the still-water depth is %g m at point (%d, %d), x = %g m, y = %g m: the potential-flow model "
              "needs water everywhere (h > 0)",
              hcl_case_origin(c, "bed.shape"), h[p], l->x0 + i, l->y0 + j, x, y);
      REQUIRE(fabs(eta[p]) <= s->guard_factor * h[p] && eta[p] > -h[p], HCL_EDATA,
              "%s: initial.shape %s puts eta = %g m at x = %g m, y = %g m, where the depth is %g m: allowed |eta| <= "
              "time.guard_factor (%g) times the depth, and above the bed",
              hcl_case_origin(c, "initial.shape"), hcl_case_string(c, "initial.shape"), eta[p], x, y, h[p],
              s->guard_factor);
    }
  }
cleanup:
  return status;
}

/* Keys that only some choices of another key use (run.h). */
static const RunKeyUse CHOICE_KEYS[] = {
    {"grid.nx", "grid.type", "cartesian|mapped|polar"},
    {"grid.ny", "grid.type", "cartesian|mapped|polar"},
    {"grid.x0", "grid.type", "cartesian|mapped|polar"},
    {"grid.y0", "grid.type", "cartesian|mapped|polar"},
    {"grid.file", "grid.type", "file"},
    {"grid.x_variable", "grid.type", "file"},
    {"grid.y_variable", "grid.type", "file"},
    {"grid.lx", "grid.type", "cartesian|mapped"},
    {"grid.ly", "grid.type", "cartesian|mapped"},
    {"grid.stretch", "grid.type", "mapped"},
    {"grid.skew", "grid.type", "mapped"},
    {"grid.radius", "grid.type", "polar"},
    {"grid.outer_radius", "grid.type", "polar"},
    {"grid.radial", "grid.type", "polar"},
    {"bed.depth", "bed.shape", "flat"},
    {"bed.x", "bed.shape", "bar|whalin"},
    {"bed.y", "bed.shape", "whalin"},
    {"bed.file", "bed.shape", "file"},
    {"bed.variable", "bed.shape", "file"},
    {"initial.amplitude", "initial.shape", "standing"},
    {"initial.mx", "initial.shape", "standing"},
    {"initial.my", "initial.shape", "standing"},
    {"initial.height", "initial.shape", "gaussian"},
    {"initial.x", "initial.shape", "gaussian"},
    {"initial.y", "initial.shape", "gaussian"},
    {"initial.width", "initial.shape", "gaussian"},
    {"waves.height", "waves.incident", "stream|linear"},
    {"waves.period", "waves.incident", "stream|linear"},
    {"waves.length", "waves.incident", "stream|linear"},
    {"waves.criterion", "waves.incident", "stream"},
    {"waves.current", "waves.incident", "stream|linear"},
    {"waves.modes", "waves.incident", "stream"},
    {"waves.x_origin", "waves.incident", "stream|linear"},
    {"waves.hs", "waves.incident", "irregular"},
    {"waves.tp", "waves.incident", "irregular"},
    {"waves.spectrum", "waves.incident", "irregular"},
    {"waves.gamma", "waves.incident", "irregular"},
    {"waves.components", "waves.incident", "irregular"},
    {"waves.seed", "waves.incident", "irregular"},
    {"solver.gmres_restart", "solver.method", "gmres"},
};

static void read_time(const Case *c, WaveSetup *s) {
  s->t_end = hcl_case_real(c, "time.end");
  s->dt_fixed = hcl_case_real(c, "time.dt");
  s->courant = hcl_case_real(c, "time.courant");
  s->guard_factor = hcl_case_real(c, "time.guard_factor");
  s->config.extrapolation = (int)hcl_case_int(c, "time.extrapolation");
}

HclStatus wave_setup_from_case(const Case *c, const LaplacePrecision *precision, WaveSetup *s) {
  HclStatus status = HCL_OK;
  memset(s, 0, sizeof *s);
  s->config = hcl_wave_config_default();
  s->config.g = hcl_case_real(c, "physics.g");
  s->config.equations = hcl_case_choice(c, "physics.equations") == 0 ? WAVE_NONLINEAR : WAVE_LINEAR;
  s->config.filter_interval = (int)hcl_case_int(c, "physics.filter_interval");
  read_time(c, s);
  TRY(run_time_units(c, "time.start", &s->start, s->time_units, sizeof s->time_units));
  TRY(read_grid(c, s));
  TRY(run_read_crs(c, "grid.crs", &s->crs));
  TRY(read_solver(c, precision, s));
  attach_map(s);
  TRY(read_bed(c, s));
  TRY(read_zones(c, s));
  TRY(read_incident(c, s));
  TRY(read_initial(c, s));
  run_warn_unused_keys(c, CHOICE_KEYS, (int)(sizeof CHOICE_KEYS / sizeof CHOICE_KEYS[0]));
cleanup:
  return status;
}

void wave_setup_free(WaveSetup *s) {
  free(s->bed.values);
  free(s->geometry.x);
  free(s->geometry.y);
  hcl_waves_irregular_free(&s->irregular);
  hcl_wave_incident_free(&s->incident);
  hcl_crs_destroy(&s->crs);
  memset(s, 0, sizeof *s);
}
