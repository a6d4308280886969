/* SPDX-License-Identifier: BSD-3-Clause */
/* wave.c: the potential-flow wave model's state, ERK4 stepping, relaxation zones and diagnostics (wave.h;
 * kernels_cl/wave.cl; the Laplace solve is laplace.h). */
#include "wave.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clerror.h"
#include "fd.h"
#include "halo.h"
#include "kernel.h"
#include "mapping.h"
#include "mirror.h"
#include "program.h"
#include "progress.h"
#include "reduce.h"

#define PI 3.14159265358979323846

enum { WG_X = 32, WG_Y = 4 };
/* A curvilinear grid's planes (wave.cl's GRID_PARAMS): mapping.h's metric terms, then the points' x and y. */
enum { GRID_X = MAPPING_PLANES, GRID_Y, GRID_PLANES };
enum { K_STAGE, K_ENERGY_INTEGRANDS, K_RELAX, K_GUARD, K_COLUMN_VELOCITY, K_LAGRANGE, K_EXTREMES, K_SMOOTH, NKERNELS };
static const char *const kernel_names[NKERNELS] = {"stage",           "energy_integrands", "relax",    "guard",
                                                   "column_velocity", "lagrange",          "extremes", "smooth"};

/* A 2D pair of fields (eta, phi) with one halo for both: the state, the two alternating stage states, the sums. */
typedef struct {
  Field *eta, *phi;
  Halo *halo;
} Pair;

struct Wave {
  Runtime *rt;
  const Decomp *decomp;
  WaveConfig config;
  Precision precision;
  int radius, width;
  Laplace *laplace;
  Pair y, stage[2], acc;
  Field *h, *still, *weight, *generate, *area; /* h mirrored; still: eta = 0 for the linear operator */
  Field *grid;                                 /* a curvilinear grid's planes (GRID_PLANES), else NULL */
  Field *eta_max, *eta_min;                    /* eta's extremes since hcl_wave_track_extremes, else NULL */
  Field *scratch[2];
  Mirror *mirror;
  Reducer *reducer;
  cl_mem d1, components;
  cl_mem smoothing; /* the Savitzky-Golay weights along x, then along y (config.filter_interval > 0) */
  long steps;       /* taken since hcl_wave_create, for the filter's interval */
  int ncomponents;
  double current_x, current_y, potential_rate; /* of the incident wave */
  Field *history[WAVE_EXTRAPOLATION_MAX];      /* Phi at history_time[m], newest at `newest` */
  double history_time[WAVE_EXTRAPOLATION_MAX];
  int history_count, newest;
  double t;
  cl_program program;
  cl_kernel kernels[NKERNELS];
};

WaveConfig hcl_wave_config_default(void) {
  return (WaveConfig){
      .laplace = hcl_laplace_config_default(), .g = 9.81, .equations = WAVE_NONLINEAR, .extrapolation = 2};
}

double hcl_wave_step_limit(const WaveConfig *c, const DecompSpec *grid, double deepest) {
  double k2 = c->laplace.map ? hcl_mapping_largest_wavenumber2(c->laplace.map, grid->nx, grid->ny)
                             : (grid->nx > 1 ? 1 / (c->laplace.dx * c->laplace.dx) : 0) +
                                   (grid->ny > 1 ? 1 / (c->laplace.dy * c->laplace.dy) : 0);
  double k = PI * sqrt(k2), omega = sqrt(c->g * k * tanh(k * deepest));
  return 2 * sqrt(2.0) / omega;
}

/* ---- set-up ---- */

static const char *zone_name(const WaveZone *z) {
  return z->kind == WAVE_ZONE_GENERATE ? "generation" : "absorption";
}

/* The box the grid's points span (a curvilinear grid's: its points' extremes) and half a spacing of slack. */
static void domain_box(const WaveConfig *c, const DecompSpec *g, double box[4], double *sx, double *sy) {
  if (!c->laplace.map) {
    box[0] = c->x0;
    box[1] = c->x0 + (g->nx - 1) * c->laplace.dx;
    box[2] = c->y0;
    box[3] = c->y0 + (g->ny - 1) * c->laplace.dy;
    *sx = 0.5 * c->laplace.dx;
    *sy = 0.5 * c->laplace.dy;
    return;
  }
  const Mapping *map = c->laplace.map;
  box[0] = box[2] = INFINITY;
  box[1] = box[3] = -INFINITY;
  for (long j = 0; j < g->ny; j++) {
    for (long i = 0; i < g->nx; i++) {
      double x, y;
      map->point(map->ctx, i, j, &x, &y);
      box[0] = fmin(box[0], x);
      box[1] = fmax(box[1], x);
      box[2] = fmin(box[2], y);
      box[3] = fmax(box[3], y);
    }
  }
  *sx = *sy = 0.5 * fmax(box[1] - box[0], box[3] - box[2]) / (fmax(g->nx, g->ny) - 1); /* about half a spacing */
}

/* Each zone: a box with the ramp's extent positive, inside the grid (half a spacing of slack) and holding points. */
static HclStatus check_zones(const WaveConfig *c, const DecompSpec *g) {
  HclStatus status = HCL_OK;
  double box[4], sx, sy;
  domain_box(c, g, box, &sx, &sy);
  double X0 = box[0], X1 = box[1], Y0 = box[2], Y1 = box[3];
  REQUIRE(c->nzones >= 0 && c->nzones <= WAVE_ZONES_MAX, HCL_EDATA, "%d relaxation zones: at most %d", c->nzones,
          WAVE_ZONES_MAX);
  for (int n = 0; n < c->nzones; n++) {
    const WaveZone *z = &c->zones[n];
    bool along_x = z->inward == WAVE_INWARD_PLUS_X || z->inward == WAVE_INWARD_MINUS_X;
    if (z->region == WAVE_REGION_RING) {
      REQUIRE(z->r0 >= 0 && z->r1 > z->r0 && isfinite(z->r1) && isfinite(z->cx) && isfinite(z->cy), HCL_EDATA,
              "relaxation zone %d (%s): the ring from r = %g to %g m about (%g, %g) m is empty: it needs 0 <= r0 < r1",
              n + 1, zone_name(z), z->r0, z->r1, z->cx, z->cy);
      continue;
    }
    REQUIRE(z->x0 <= z->x1 && z->y0 <= z->y1 && (along_x ? z->x1 > z->x0 : z->y1 > z->y0), HCL_EDATA,
            "relaxation zone %d (%s): x %g to %g m, y %g to %g m is empty along its ramp (%s): the box needs "
            "x0 < x1 and y0 <= y1 (or the reverse for a ramp along y)",
            n + 1, zone_name(z), z->x0, z->x1, z->y0, z->y1, along_x ? "x" : "y");
    REQUIRE(z->x0 >= X0 - sx && z->x1 <= X1 + sx && z->y0 >= Y0 - sy && z->y1 <= Y1 + sy, HCL_EDATA,
            "relaxation zone %d (%s): x %g to %g m, y %g to %g m lies outside the domain, x %g to %g m, y %g to %g m",
            n + 1, zone_name(z), z->x0, z->x1, z->y0, z->y1, X0, X1, Y0, Y1);
    REQUIRE(z->shape == WAVE_SHAPE_POLYNOMIAL || (z->power > 0 && isfinite(z->power)), HCL_EDATA,
            "relaxation zone %d: power = %g: the exponential shape needs p > 0 (OceanWave3D uses 3.5)", n + 1,
            z->power);
  }
cleanup:
  return status;
}

static HclStatus check_config(const WaveConfig *c, const DecompSpec *g) {
  HclStatus status = HCL_OK;
  REQUIRE(c->g > 0 && isfinite(c->g), HCL_EDATA, "physics.g = %g m/s^2: must be > 0", c->g);
  REQUIRE(c->extrapolation >= 1 && c->extrapolation <= WAVE_EXTRAPOLATION_MAX, HCL_EDATA,
          "time.extrapolation = %d: the initial guess of a solve extrapolates through 1 (the last solution) to %d "
          "earlier solutions",
          c->extrapolation, WAVE_EXTRAPOLATION_MAX);
  REQUIRE(c->ramp_time >= 0 && isfinite(c->ramp_time), HCL_EDATA, "waves.ramp_time = %g s: must be >= 0", c->ramp_time);
  REQUIRE(isfinite(c->x0) && isfinite(c->y0), HCL_EDATA, "grid.x0 = %g, grid.y0 = %g: must be finite", c->x0, c->y0);
  REQUIRE(c->filter_interval >= 0, HCL_EDATA, "physics.filter_interval = %d: steps between filterings, 0 for none",
          c->filter_interval);
  TRY(check_zones(c, g));
cleanup:
  return status;
}

/* G(xi) of a zone's shape: 1 at xi = 0 (the model), 0 at xi = 1 (the target). */
static double zone_weight(const WaveZone *z, double xi) {
  xi = fmin(fmax(xi, 0), 1);
  if (z->shape == WAVE_SHAPE_POLYNOMIAL) {
    return 1 - xi * xi * (3 - 2 * xi);
  }
  return 1 - (exp(pow(xi, z->power)) - 1) / (exp(1.0) - 1);
}

/* Where the point (x, y) lies in the zone: xi in [0, 1] from the inner edge, or -1 outside. Points within 1e-9 of a
 * spacing of an edge belong (grid points placed on it). */
static double zone_position(const WaveZone *z, double x, double y, double dx, double dy) {
  double ex = 1e-9 * dx, ey = 1e-9 * dy;
  if (z->region == WAVE_REGION_RING) {
    double r = hypot(x - z->cx, y - z->cy), e = fmax(ex, ey);
    return r < z->r0 - e || r > z->r1 + e ? -1 : (r - z->r0) / (z->r1 - z->r0);
  }
  if (x < z->x0 - ex || x > z->x1 + ex || y < z->y0 - ey || y > z->y1 + ey) {
    return -1;
  }
  switch (z->inward) {
  case WAVE_INWARD_PLUS_X:
    return (z->x1 - x) / (z->x1 - z->x0);
  case WAVE_INWARD_MINUS_X:
    return (x - z->x0) / (z->x1 - z->x0);
  case WAVE_INWARD_PLUS_Y:
    return (z->y1 - y) / (z->y1 - z->y0);
  default:
    return (y - z->y0) / (z->y1 - z->y0);
  }
}

/* The quadrature weight of point i of n along a direction of spacing d: the trapezoidal rule between walls (half
 * a cell at a wall point), whole cells when periodic, 1 m across a direction of one point. The sums of the cosine
 * modes a basin with walls at its end points holds vanish exactly with these weights (volume is conserved). */
static double cell(int i, int n, double d, bool periodic) {
  return n == 1 ? 1 : !periodic && (i == 0 || i == n - 1) ? 0.5 * d : d;
}

static HclStatus make_field(Wave *W, const char *name, int planes, Field **out) {
  FieldSpec spec = {.name = name, .nz = planes, .ghost = W->radius, .precision = W->precision};
  return hcl_field_create(W->rt, W->decomp, &spec, out);
}

/* A curvilinear grid's planes: the metric terms of the model's order, the points' positions, into W->grid, and the
 * whole field on the host (owned points) into *host. */
static HclStatus make_grid(Wave *W, double **host) {
  HclStatus status = HCL_OK;
  const Mapping *map = W->config.laplace.map;
  const DecompLocal *l = hcl_decomp_local(W->decomp);
  size_t n = (size_t)l->nx * l->ny;
  TRY(make_field(W, "wave_grid", GRID_PLANES, &W->grid));
  TRY(hcl_mapping_write_metrics(map, W->config.laplace.order, 1, 1, W->grid, 0));
  TRY_ALLOC(*host, n * GRID_PLANES);
  TRY(hcl_field_read_owned(W->grid, *host));
  for (int j = 0; j < l->ny; j++) {
    for (int i = 0; i < l->nx; i++) {
      size_t at = (size_t)j * l->nx + i;
      map->point(map->ctx, l->x0 + i, l->y0 + j, &(*host)[GRID_X * n + at], &(*host)[GRID_Y * n + at]);
    }
  }
  TRY(hcl_field_write_owned(W->grid, *host));
cleanup:
  return status;
}

/* The position of owned point (i, j): the map's, or (x0 + i dx, y0 + j dy); grid is make_grid's host copy. */
static void point_position(const Wave *W, const double *grid, int i, int j, double *x, double *y) {
  const DecompLocal *l = hcl_decomp_local(W->decomp);
  size_t n = (size_t)l->nx * l->ny, at = (size_t)j * l->nx + i;
  *x = grid ? grid[GRID_X * n + at] : W->config.x0 + (l->x0 + i) * W->config.laplace.dx;
  *y = grid ? grid[GRID_Y * n + at] : W->config.y0 + (l->y0 + j) * W->config.laplace.dy;
}

/* The relaxation weight (product over the zones covering a point), whether its target is the incident wave, and
 * the area each point stands for (on a curvilinear grid the Jacobian times the quadrature weights of unit
 * spacing: the trapezoidal rule in the index directions). */
static HclStatus make_point_fields(Wave *W) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = hcl_decomp_local(W->decomp);
  const DecompSpec *g = hcl_decomp_spec(W->decomp);
  size_t n = (size_t)l->nx * l->ny;
  double *weight = NULL, *generate = NULL, *area = NULL, *grid = NULL;
  TRY_ALLOC(weight, n);
  TRY_ALLOC(generate, n);
  TRY_ALLOC(area, n);
  const WaveConfig *c = &W->config;
  if (c->laplace.map) {
    TRY(make_grid(W, &grid));
  }
  double box[4], slack_x, slack_y;
  domain_box(c, g, box, &slack_x, &slack_y);
  for (int j = 0; j < l->ny; j++) {
    for (int i = 0; i < l->nx; i++) {
      double x, y, G = 1;
      point_position(W, grid, i, j, &x, &y);
      bool incident = false;
      for (int z = 0; z < c->nzones; z++) {
        double xi = zone_position(&c->zones[z], x, y, 2 * slack_x, 2 * slack_y);
        if (xi >= 0) {
          G *= zone_weight(&c->zones[z], xi);
          incident = incident || c->zones[z].kind == WAVE_ZONE_GENERATE;
        }
      }
      weight[(size_t)j * l->nx + i] = G;
      generate[(size_t)j * l->nx + i] = incident;
      double dx = grid ? 1 : c->laplace.dx, dy = grid ? 1 : c->laplace.dy;
      double jacobian = grid ? grid[MAPPING_JACOBIAN * n + (size_t)j * l->nx + i] : 1;
      area[(size_t)j * l->nx + i] =
          jacobian * cell(l->x0 + i, g->nx, dx, g->periodic_x) * cell(l->y0 + j, g->ny, dy, g->periodic_y);
    }
  }
  TRY(hcl_field_write_owned(W->weight, weight));
  TRY(hcl_field_write_owned(W->generate, generate));
  TRY(hcl_field_write_owned(W->area, area));
cleanup:
  free(weight);
  free(generate);
  free(area);
  free(grid);
  return status;
}

static HclStatus make_pair(Wave *W, const char *eta, const char *phi, Pair *p) {
  HclStatus status = HCL_OK;
  TRY(make_field(W, eta, 1, &p->eta));
  TRY(make_field(W, phi, 1, &p->phi));
  TRY(hcl_halo_create((Field *[]){p->eta, p->phi}, 2, &p->halo));
cleanup:
  return status;
}

static void pair_destroy(Pair *p) {
  hcl_halo_destroy(&p->halo);
  hcl_field_destroy(&p->eta);
  hcl_field_destroy(&p->phi);
}

/* The centred first-derivative weights along x and y, scaled (zero along a direction of one point); on a
 * curvilinear grid along the index directions, unscaled. */
static HclStatus make_stencils(Wave *W) {
  HclStatus status = HCL_OK;
  const DecompSpec *g = hcl_decomp_spec(W->decomp);
  int w = W->width;
  double d1[2 * FD_WIDTH_MAX], offsets[FD_WIDTH_MAX], weights[2 * FD_WIDTH_MAX];
  for (int m = 0; m < w; m++) {
    offsets[m] = m - W->radius;
  }
  TRY(hcl_fd_weights(0, offsets, w, 1, weights));
  for (int m = 0; m < w; m++) {
    bool mapped = W->config.laplace.map != NULL;
    d1[m] = g->nx > 1 ? weights[w + m] / (mapped ? 1 : W->config.laplace.dx) : 0;
    d1[w + m] = g->ny > 1 ? weights[w + m] / (mapped ? 1 : W->config.laplace.dy) : 0;
  }
  TRY(hcl_runtime_upload_reals(W->rt, W->precision, d1, 2 * (size_t)w, "wave derivative weights", &W->d1));
cleanup:
  return status;
}

/* The Savitzky-Golay smoothing weights c[0..2r] of 2r + 1 points and polynomial degree p: the value at the middle of
 * the least-squares polynomial through the points, c_k = sum_m [(A^T A)^-1]_0m k^m with A_km = k^m, k = -r..r. */
static void savitzky_golay(int r, int p, double *c) {
  double normal[FD_WIDTH_MAX][FD_WIDTH_MAX + 1] = {{0}}, z[FD_WIDTH_MAX];
  int n = p + 1;
  for (int a = 0; a < n; a++) {
    for (int b = 0; b < n; b++) {
      for (int k = -r; k <= r; k++) {
        normal[a][b] += pow(k, a) * pow(k, b);
      }
    }
    normal[a][n] = a == 0; /* (A^T A) z = e_0 */
  }
  for (int col = 0; col < n; col++) { /* Gauss-Jordan: A^T A is symmetric positive definite, no pivoting needed */
    for (int row = 0; row < n; row++) {
      double f = row == col ? 0 : normal[row][col] / normal[col][col];
      for (int k = col; k <= n && row != col; k++) {
        normal[row][k] -= f * normal[col][k];
      }
    }
  }
  for (int a = 0; a < n; a++) {
    z[a] = normal[a][n] / normal[a][a];
  }
  for (int k = -r; k <= r; k++) {
    c[k + r] = 0;
    for (int m = 0; m < n; m++) {
      c[k + r] += z[m] * pow(k, m);
    }
  }
}

/* The filter's weights along x and along y: Savitzky-Golay over the stencils' width (the state's ghosts reach that
 * far) and of the highest degree that still smooths, width - 3; the identity along a direction of one point. */
static HclStatus make_smoothing(Wave *W) {
  HclStatus status = HCL_OK;
  const DecompSpec *g = hcl_decomp_spec(W->decomp);
  int w = W->width;
  double c[FD_WIDTH_MAX], weights[2 * FD_WIDTH_MAX];
  savitzky_golay(W->radius, w - 3, c);
  for (int m = 0; m < w; m++) {
    weights[m] = g->nx > 1 ? c[m] : m == W->radius;
    weights[w + m] = g->ny > 1 ? c[m] : m == W->radius;
  }
  TRY(hcl_runtime_upload_reals(W->rt, W->precision, weights, 2 * (size_t)w, "wave smoothing weights", &W->smoothing));
cleanup:
  return status;
}

/* The kernels for the model's precision, order and equations; the column velocities read the Laplace solver's own
 * sigma stencils (hcl_laplace_sigma_stencils), whose first nodes are a build constant as in laplace.cl. */
static HclStatus build(Wave *W) {
  HclStatus status = HCL_OK;
  char defines[2048];
  const int *first = hcl_laplace_sigma_stencil_first(W->laplace);
  int at =
      snprintf(defines, sizeof defines, "-DRADIUS=%d -DWIDTH=%d -DVWIDTH=%d -DNZ=%d -DLINEAR=%d%s -DVFIRST=", W->radius,
               W->width, W->config.laplace.order + 2, W->config.laplace.nz, W->config.equations == WAVE_LINEAR,
               W->config.laplace.map ? " -DCURVILINEAR" : "");
  for (int p = 0; p <= W->config.laplace.nz && at < (int)sizeof defines; p++) {
    at += snprintf(defines + at, sizeof defines - at, "%s%d", p ? "," : "", first[p]);
  }
  ASSERT(at < (int)sizeof defines);
  KernelConfig config = {
      .precision = W->precision, .stencil_radius = W->radius, .wg_x = WG_X, .wg_y = WG_Y, .defines = defines};
  TRY(hcl_program_build_kernels(W->rt, "wave", &config, kernel_names, NKERNELS, &W->program, W->kernels));
cleanup:
  return status;
}

static HclStatus make_fields(Wave *W, const double *h) {
  HclStatus status = HCL_OK;
  Halo *h_halo = NULL;
  TRY(make_pair(W, "eta", "phi", &W->y));
  TRY(make_pair(W, "eta_stage_a", "phi_stage_a", &W->stage[0]));
  TRY(make_pair(W, "eta_stage_b", "phi_stage_b", &W->stage[1]));
  TRY(make_pair(W, "eta_sum", "phi_sum", &W->acc));
  TRY(make_field(W, "wave_h", 1, &W->h));
  TRY(make_field(W, "wave_weight", 1, &W->weight));
  TRY(make_field(W, "wave_generate", 1, &W->generate));
  TRY(make_field(W, "wave_area", 1, &W->area));
  TRY(make_field(W, "wave_scratch", 1, &W->scratch[0]));
  TRY(make_field(W, "wave_scratch", 1, &W->scratch[1]));
  if (W->config.equations == WAVE_LINEAR) {
    TRY(make_field(W, "still_water", 1, &W->still));
  }
  for (int m = 0; m < W->config.extrapolation && W->config.extrapolation > 1; m++) {
    static const char *const names[WAVE_EXTRAPOLATION_MAX] = {"Phi_history_0", "Phi_history_1", "Phi_history_2"};
    TRY(make_field(W, names[m], W->config.laplace.nz + 1, &W->history[m]));
  }
  TRY(hcl_halo_create(&W->h, 1, &h_halo));
  TRY(hcl_field_write_owned(W->h, h));
  TRY(hcl_mirror_exchange(W->mirror, h_halo, W->h));
  TRY(make_point_fields(W));
cleanup:
  hcl_halo_destroy(&h_halo);
  return status;
}

HclStatus hcl_wave_create(Runtime *rt, const Decomp *decomp, const WaveConfig *config, const double *h, Wave **out) {
  HclStatus status = HCL_OK;
  Wave *W = NULL;
  *out = NULL;
  TRY(check_config(config, hcl_decomp_spec(decomp)));
  TRY_ALLOC(W, 1);
  W->rt = rt;
  W->decomp = decomp;
  W->config = *config;
  W->precision = config->laplace.precision == LAPLACE_SINGLE ? PRECISION_SINGLE : PRECISION_DOUBLE;
  W->radius = config->laplace.order / 2;
  W->width = config->laplace.order + 1;
  TRY(hcl_laplace_create(rt, decomp, &config->laplace, h, &W->laplace));
  TRY(hcl_mirror_create(rt, &W->mirror));
  TRY(hcl_reducer_create(rt, decomp, &W->reducer));
  TRY(build(W));
  TRY(make_stencils(W));
  if (config->filter_interval > 0) {
    TRY(make_smoothing(W));
  }
  TRY(make_fields(W, h));
  *out = W;
  W = NULL;
cleanup:
  hcl_wave_destroy(&W);
  return status;
}

void hcl_wave_destroy(Wave **wave) {
  if (!wave || !*wave) {
    return;
  }
  Wave *W = *wave;
  pair_destroy(&W->y);
  pair_destroy(&W->stage[0]);
  pair_destroy(&W->stage[1]);
  pair_destroy(&W->acc);
  Field *fields[] = {W->h,    W->still,   W->weight,  W->generate,   W->area,
                     W->grid, W->eta_max, W->eta_min, W->scratch[0], W->scratch[1]};
  for (size_t f = 0; f < sizeof fields / sizeof *fields; f++) {
    hcl_field_destroy(&fields[f]);
  }
  for (int m = 0; m < WAVE_EXTRAPOLATION_MAX; m++) {
    hcl_field_destroy(&W->history[m]);
  }
  cl_mem buffers[] = {W->d1, W->components, W->smoothing};
  for (size_t b = 0; b < sizeof buffers / sizeof *buffers; b++) {
    if (buffers[b]) {
      clReleaseMemObject(buffers[b]);
    }
  }
  hcl_program_release(&W->program, W->kernels, NKERNELS);
  hcl_reducer_destroy(&W->reducer);
  hcl_mirror_destroy(&W->mirror);
  hcl_laplace_destroy(&W->laplace);
  free(W);
  *wave = NULL;
}

HclStatus hcl_wave_set_incident(Wave *W, const WaveIncident *incident) {
  HclStatus status = HCL_OK;
  double *table = NULL;
  if (W->components) {
    clReleaseMemObject(W->components);
    W->components = NULL;
  }
  W->ncomponents = 0;
  W->current_x = W->current_y = W->potential_rate = 0;
  if (!incident) {
    goto cleanup;
  }
  size_t n = incident->components > 0 ? (size_t)incident->components : 1;
  TRY_ALLOC(table, 6 * n);
  memset(table, 0, sizeof *table * 6 * n);
  for (int c = 0; c < incident->components; c++) {
    double *k = table + 6 * c;
    k[0] = incident->kx[c];
    k[1] = incident->ky[c];
    k[2] = incident->omega[c];
    k[3] = incident->phase[c];
    k[4] = incident->eta_amplitude[c];
    k[5] = incident->phi_amplitude[c];
  }
  TRY(hcl_runtime_upload_reals(W->rt, W->precision, table, 6 * n, "incident wave components", &W->components));
  W->ncomponents = incident->components;
  W->current_x = incident->current_x;
  W->current_y = incident->current_y;
  W->potential_rate = incident->potential_rate;
cleanup:
  free(table);
  return status;
}

HclStatus hcl_wave_set_state(Wave *W, double t, const double *eta, const double *phi) {
  HclStatus status = HCL_OK;
  TRY(hcl_field_write_owned(W->y.eta, eta));
  TRY(hcl_field_write_owned(W->y.phi, phi));
  W->t = t;
  W->history_count = 0;
cleanup:
  return status;
}

int hcl_wave_solver_memory(Wave *W, Field **fields, double *scalars) {
  int n = W->config.extrapolation > 1 ? W->config.extrapolation : 0;
  fields[0] = hcl_laplace_potential(W->laplace);
  for (int m = 0; m < n; m++) {
    fields[1 + m] = W->history[m];
  }
  scalars[0] = W->history_count;
  scalars[1] = W->newest;
  for (int m = 0; m < WAVE_EXTRAPOLATION_MAX; m++) {
    scalars[2 + m] = m < n ? W->history_time[m] : 0;
  }
  return 1 + n;
}

HclStatus hcl_wave_restore_solver_memory(Wave *W, const double *scalars) {
  HclStatus status = HCL_OK;
  int n = W->config.extrapolation > 1 ? W->config.extrapolation : 0;
  REQUIRE(scalars[0] >= 0 && scalars[0] <= n && scalars[1] >= 0 && (n == 0 || scalars[1] < n) &&
              scalars[0] == floor(scalars[0]) && scalars[1] == floor(scalars[1]),
          HCL_EDATA, "the restart's Laplace solver memory (%g solutions, the newest %g) does not fit %d remembered",
          scalars[0], scalars[1], n);
  W->history_count = (int)scalars[0];
  W->newest = (int)scalars[1];
  for (int m = 0; m < n; m++) {
    W->history_time[m] = scalars[2 + m];
  }
cleanup:
  return status;
}

/* ---- launches ---- */

/* The launch shape of a kernel over the owned points. */
static KernelShape owned_grid(const Wave *W) {
  const DecompLocal *l = hcl_decomp_local(W->decomp);
  return hcl_kernel_grid(W->rt, l->nx, l->ny, WG_X, WG_Y);
}

static double points(const Wave *W) {
  return (double)hcl_decomp_local(W->decomp)->nx * hcl_decomp_local(W->decomp)->ny;
}

static double real_bytes(const Wave *W) {
  return (double)hcl_precision_bytes(W->precision);
}

/* A curvilinear grid's planes and their stride (wave.cl's GRID_PARAMS); nothing on a Cartesian grid. */
static void arg_grid(KernelArgs *a, const Wave *W) {
  if (W->grid) {
    hcl_arg_mem(a, hcl_field_buffer(W->grid));
    hcl_arg_ulong(a, (size_t)hcl_field_pitch(W->grid) * hcl_field_rows(W->grid));
  }
}

static void arg_shape(KernelArgs *a, const Wave *W) {
  hcl_arg_int(a, hcl_decomp_local(W->decomp)->nx);
  hcl_arg_int(a, hcl_decomp_local(W->decomp)->ny);
  hcl_arg_int(a, hcl_field_pitch(W->y.eta));
}

/* The walls' mirror images in a pair's ghosts, once its exchange (other ranks, periodic sides) has ended. */
static HclStatus mirror_pair(Wave *W, Pair *p) {
  HclStatus status = HCL_OK;
  TRY(hcl_mirror_fill(W->mirror, p->eta));
  TRY(hcl_mirror_fill(W->mirror, p->phi));
cleanup:
  return status;
}

/* The ghosts of a pair valid: other ranks and periodic sides, then the walls. */
static HclStatus exchange(Wave *W, Pair *p) {
  HclStatus status = HCL_OK;
  TRY(hcl_halo_exchange(p->halo));
  TRY(mirror_pair(W, p));
cleanup:
  return status;
}

/* ---- the initial guess: Lagrange extrapolation in time through earlier solutions ---- */

/* Keeps the solve's Phi as the solution at time t (replacing one of the same time, else the oldest). */
static HclStatus remember(Wave *W, double t) {
  HclStatus status = HCL_OK;
  int n = W->config.extrapolation;
  if (n < 2) {
    goto cleanup;
  }
  if (!(W->history_count > 0 && W->history_time[W->newest] == t)) {
    W->newest = (W->newest + 1) % n;
    W->history_count = W->history_count < n ? W->history_count + 1 : n;
  }
  W->history_time[W->newest] = t;
  Field *phi3 = hcl_laplace_potential(W->laplace);
  size_t bytes = hcl_field_count(phi3) * hcl_precision_bytes(W->precision);
  TRY_CL(clEnqueueCopyBuffer(hcl_runtime_queue(W->rt), hcl_field_buffer(phi3), hcl_field_buffer(W->history[W->newest]),
                             0, 0, bytes, 0, NULL, NULL));
cleanup:
  return status;
}

/* Phi = the Lagrange polynomial through the remembered solutions, at t. Nothing when the newest is at t already
 * (the solver's Phi is that solution) or none is remembered. */
static HclStatus extrapolate(Wave *W, double t) {
  HclStatus status = HCL_OK;
  int n = W->history_count, slot[WAVE_EXTRAPOLATION_MAX];
  if (n == 0 || W->history_time[W->newest] == t) {
    goto cleanup;
  }
  double coefficient[WAVE_EXTRAPOLATION_MAX];
  for (int m = 0; m < n; m++) {
    slot[m] = (W->newest - m + W->config.extrapolation) % W->config.extrapolation;
  }
  for (int m = 0; m < n; m++) {
    coefficient[m] = 1;
    for (int q = 0; q < n; q++) {
      if (q != m) {
        coefficient[m] *= (t - W->history_time[slot[q]]) / (W->history_time[slot[m]] - W->history_time[slot[q]]);
      }
    }
  }
  Field *phi3 = hcl_laplace_potential(W->laplace);
  size_t count = hcl_field_count(phi3), global = (count + 255) / 256 * 256;
  KernelArgs a = hcl_kernel_args(W->kernels[K_LAGRANGE]);
  hcl_arg_mem(&a, hcl_field_buffer(phi3));
  for (int m = 0; m < WAVE_EXTRAPOLATION_MAX; m++) {
    hcl_arg_mem(&a, hcl_field_buffer(W->history[slot[m < n ? m : 0]]));
  }
  for (int m = 0; m < WAVE_EXTRAPOLATION_MAX; m++) {
    hcl_arg_real(&a, W->precision, m < n ? coefficient[m] : 0);
  }
  hcl_arg_int(&a, n);
  hcl_arg_ulong(&a, count);
  TRY(hcl_kernel_launch(W->rt, &a, hcl_kernel_box(1, global, 1, 1), (n + 1.0) * count * real_bytes(W)));
cleanup:
  return status;
}

/* Solves the Laplace problem of the state p at time t from the extrapolated guess; w in hcl_laplace_w. */
static HclStatus solve(Wave *W, Pair *p, double t, int *iterations) {
  HclStatus status = HCL_OK;
  LaplaceResult result;
  TRY(extrapolate(W, t));
  TRY(hcl_laplace_solve(W->laplace, W->still ? W->still : p->eta, p->phi, &result));
  TRY(remember(W, t));
  *iterations += result.iterations;
cleanup:
  return status;
}

/* ---- time stepping ---- */

static HclStatus stage(Wave *W, Pair *in, Pair *next, double g, double b_dt, double a_dt, int kind) {
  KernelArgs a = hcl_kernel_args(W->kernels[K_STAGE]);
  hcl_arg_mem(&a, hcl_field_buffer(in->eta));
  hcl_arg_mem(&a, hcl_field_buffer(in->phi));
  hcl_arg_mem(&a, hcl_field_buffer(hcl_laplace_w(W->laplace)));
  hcl_arg_mem(&a, hcl_field_buffer(W->y.eta));
  hcl_arg_mem(&a, hcl_field_buffer(W->y.phi));
  hcl_arg_mem(&a, hcl_field_buffer(W->acc.eta));
  hcl_arg_mem(&a, hcl_field_buffer(W->acc.phi));
  hcl_arg_mem(&a, hcl_field_buffer(next->eta));
  hcl_arg_mem(&a, hcl_field_buffer(next->phi));
  arg_shape(&a, W);
  hcl_arg_real(&a, W->precision, g);
  hcl_arg_real(&a, W->precision, b_dt);
  hcl_arg_real(&a, W->precision, a_dt);
  hcl_arg_int(&a, kind);
  hcl_arg_mem(&a, W->d1);
  arg_grid(&a, W);
  double reads = W->config.equations == WAVE_LINEAR ? 2 : 2 + 2 * W->width; /* the stage state and w */
  return hcl_kernel_launch(W->rt, &a, owned_grid(W),
                           points(W) * real_bytes(W) *
                               (reads + (kind == 2   ? 4
                                         : kind == 1 ? 8
                                                     : 6)));
}

/* (1 - cos(pi t / T_ramp)) / 2 while t < T_ramp, then 1. */
static double ramp(const Wave *W, double t) {
  double T = W->config.ramp_time;
  return T > 0 && t < T ? 0.5 * (1 - cos(PI * t / T)) : 1;
}

static HclStatus relax(Wave *W) {
  const DecompLocal *l = hcl_decomp_local(W->decomp);
  const WaveConfig *c = &W->config;
  KernelArgs a = hcl_kernel_args(W->kernels[K_RELAX]);
  hcl_arg_mem(&a, hcl_field_buffer(W->y.eta));
  hcl_arg_mem(&a, hcl_field_buffer(W->y.phi));
  hcl_arg_mem(&a, hcl_field_buffer(W->weight));
  hcl_arg_mem(&a, hcl_field_buffer(W->generate));
  arg_shape(&a, W);
  hcl_arg_int(&a, l->x0);
  hcl_arg_int(&a, l->y0);
  double reals[] = {c->x0, c->y0, c->laplace.dx, c->laplace.dy, W->t, ramp(W, W->t)};
  for (size_t r = 0; r < sizeof reals / sizeof *reals; r++) {
    hcl_arg_real(&a, W->precision, reals[r]);
  }
  hcl_arg_mem(&a, W->components ? W->components : W->d1);
  hcl_arg_int(&a, W->ncomponents);
  hcl_arg_real(&a, W->precision, W->current_x);
  hcl_arg_real(&a, W->precision, W->current_y);
  hcl_arg_real(&a, W->precision, W->potential_rate);
  arg_grid(&a, W);
  return hcl_kernel_launch(W->rt, &a, owned_grid(W), points(W) * real_bytes(W));
}

/* out = the filter's weights along one direction (0: x, 1: y) applied to in, eta and phi. */
static HclStatus smooth_along(Wave *W, Pair *in, Pair *out, int direction) {
  KernelArgs a = hcl_kernel_args(W->kernels[K_SMOOTH]);
  hcl_arg_mem(&a, hcl_field_buffer(in->eta));
  hcl_arg_mem(&a, hcl_field_buffer(in->phi));
  hcl_arg_mem(&a, hcl_field_buffer(out->eta));
  hcl_arg_mem(&a, hcl_field_buffer(out->phi));
  arg_shape(&a, W);
  hcl_arg_int(&a, direction);
  hcl_arg_mem(&a, W->smoothing);
  return hcl_kernel_launch(W->rt, &a, owned_grid(W), 4 * points(W) * real_bytes(W));
}

HclStatus hcl_wave_filter(Wave *W) {
  HclStatus status = HCL_OK;
  ASSERT(W->smoothing);
  TRY(exchange(W, &W->y));
  TRY(smooth_along(W, &W->y, &W->stage[0], 0));
  TRY(exchange(W, &W->stage[0]));
  TRY(smooth_along(W, &W->stage[0], &W->y, 1));
cleanup:
  return status;
}

/* eta_max = max(eta_max, eta), eta_min = min(eta_min, eta). */
static HclStatus update_extremes(Wave *W) {
  KernelArgs a = hcl_kernel_args(W->kernels[K_EXTREMES]);
  hcl_arg_mem(&a, hcl_field_buffer(W->y.eta));
  hcl_arg_mem(&a, hcl_field_buffer(W->eta_max));
  hcl_arg_mem(&a, hcl_field_buffer(W->eta_min));
  arg_shape(&a, W);
  return hcl_kernel_launch(W->rt, &a, owned_grid(W), 5 * points(W) * real_bytes(W));
}

/* Seconds since *since, after waiting for the queue when timing; moves *since on. */
static HclStatus lap(Wave *W, bool timing, double *since, double *into) {
  HclStatus status = HCL_OK;
  if (timing) {
    TRY(hcl_runtime_finish(W->rt));
    double now = hcl_progress_now();
    *into += now - *since;
    *since = now;
  }
cleanup:
  return status;
}

/* ERK4: stage s solves at t + c_s dt for the state it was given, then (stage kernel) adds b_s dt k_s to the sum and
 * forms the next stage's state y + a_s dt k_s; the last stage writes y. States alternate between two buffers. The
 * state's ghosts travel while the Laplace problem is solved, which reads the state but not its ghosts. */
HclStatus hcl_wave_step(Wave *W, double dt, bool timing, WaveStepStats *stats) {
  static const double c[4] = {0, 0.5, 0.5, 1}, a[4] = {0.5, 0.5, 1, 0}, b[4] = {1. / 6, 1. / 3, 1. / 3, 1. / 6};
  HclStatus status = HCL_OK;
  WaveStepStats s = {.solves = 4};
  double since = hcl_progress_now();
  Pair *in = &W->y;
  for (int k = 0; k < 4; k++) {
    Pair *next = &W->stage[k % 2];
    TRY(hcl_halo_begin(in->halo));
    TRY(solve(W, in, W->t + c[k] * dt, &s.iterations));
    TRY(lap(W, timing, &since, &s.solve_seconds));
    TRY(hcl_halo_end(in->halo));
    TRY(mirror_pair(W, in));
    TRY(stage(W, in, next, W->config.g, b[k] * dt, a[k] * dt, k == 0 ? 0 : k == 3 ? 2 : 1));
    TRY(lap(W, timing, &since, &s.rates_seconds));
    in = next;
  }
  W->t += dt;
  if (W->config.nzones > 0) {
    TRY(relax(W));
    TRY(lap(W, timing, &since, &s.relax_seconds));
  }
  W->steps++;
  if (W->config.filter_interval > 0 && W->steps % W->config.filter_interval == 0) {
    TRY(hcl_wave_filter(W));
  }
  if (W->eta_max) {
    TRY(update_extremes(W));
  }
cleanup:
  if (status != HCL_OK) {
    hcl_halo_cancel(in->halo);
  }
  if (stats) {
    *stats = s;
  }
  return status;
}

double hcl_wave_time(const Wave *W) {
  return W->t;
}

Field *hcl_wave_eta(Wave *W) {
  return W->y.eta;
}

Field *hcl_wave_phi(Wave *W) {
  return W->y.phi;
}

Field *hcl_wave_depth(Wave *W) {
  return W->h;
}

HclStatus hcl_wave_track_extremes(Wave *W) {
  HclStatus status = HCL_OK;
  if (!W->eta_max) {
    TRY(make_field(W, "eta_max", 1, &W->eta_max));
    TRY(make_field(W, "eta_min", 1, &W->eta_min));
  }
  size_t bytes =
      hcl_field_count(W->y.eta) * hcl_precision_bytes(W->precision); /* the same layout: copied on the device */
  TRY_CL(clEnqueueCopyBuffer(hcl_runtime_queue(W->rt), hcl_field_buffer(W->y.eta), hcl_field_buffer(W->eta_max), 0, 0,
                             bytes, 0, NULL, NULL));
  TRY_CL(clEnqueueCopyBuffer(hcl_runtime_queue(W->rt), hcl_field_buffer(W->y.eta), hcl_field_buffer(W->eta_min), 0, 0,
                             bytes, 0, NULL, NULL));
cleanup:
  return status;
}

Field *hcl_wave_eta_max(Wave *W) {
  return W->eta_max;
}

Field *hcl_wave_eta_min(Wave *W) {
  return W->eta_min;
}

Laplace *hcl_wave_laplace(Wave *W) {
  return W->laplace;
}

/* ---- diagnostics ---- */

/* The first owned point of this rank where eta or phi is not finite or |eta| > factor h, on the host. */
static HclStatus find_bad_point(Wave *W, double factor, char *where, size_t size) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = hcl_decomp_local(W->decomp);
  size_t n = (size_t)l->nx * l->ny;
  double *eta = NULL, *phi = NULL, *h = NULL;
  TRY_ALLOC(eta, n);
  TRY_ALLOC(phi, n);
  TRY_ALLOC(h, n);
  TRY(hcl_field_read_owned(W->y.eta, eta));
  TRY(hcl_field_read_owned(W->y.phi, phi));
  TRY(hcl_field_read_owned(W->h, h));
  where[0] = '\0';
  for (size_t p = 0; p < n; p++) {
    if (!isfinite(eta[p]) || !isfinite(phi[p]) || fabs(eta[p]) > factor * h[p]) {
      int i = l->x0 + (int)(p % l->nx), j = l->y0 + (int)(p / l->nx);
      double x = W->config.x0 + i * W->config.laplace.dx, y = W->config.y0 + j * W->config.laplace.dy;
      if (W->config.laplace.map) {
        W->config.laplace.map->point(W->config.laplace.map->ctx, i, j, &x, &y);
      }
      snprintf(where, size, "at point (%d, %d), x = %g m, y = %g m: eta = %g m, phi = %g m^2/s, depth %g m", i, j, x, y,
               eta[p], phi[p], h[p]);
      break;
    }
  }
cleanup:
  free(eta);
  free(phi);
  free(h);
  return status;
}

HclStatus hcl_wave_check(Wave *W, double factor) {
  HclStatus status = HCL_OK;
  KernelArgs a = hcl_kernel_args(W->kernels[K_GUARD]);
  hcl_arg_mem(&a, hcl_field_buffer(W->scratch[0]));
  hcl_arg_mem(&a, hcl_field_buffer(W->y.eta));
  hcl_arg_mem(&a, hcl_field_buffer(W->y.phi));
  hcl_arg_mem(&a, hcl_field_buffer(W->h));
  arg_shape(&a, W);
  TRY(hcl_kernel_launch(W->rt, &a, owned_grid(W), 4 * points(W) * real_bytes(W)));
  double largest = 0;
  TRY(hcl_reduce_max(W->reducer, hcl_field_span(W->scratch[0]), &largest));
  if (largest <= factor) {
    goto cleanup;
  }
  char where[256] = "";
  TRY(find_bad_point(W, factor, where, sizeof where));
  /* The rank that holds the point says where; the others say when. */
  FAIL(HCL_EDIVERGED,
       "the wave model went unstable at t = %.6g s, %s (the guard stops where eta or phi is not finite or |eta| > %g "
       "times the depth). Try a smaller time.dt or Courant number, more points per wavelength, or a lower wave",
       W->t, where[0] ? where : "on another rank", factor);
cleanup:
  return status;
}

HclStatus hcl_wave_volume(Wave *W, double *volume) {
  return hcl_reduce_dot(W->reducer, hcl_field_span(W->y.eta), hcl_field_span(W->area), volume);
}

/* Solves for the present state (the next step's first solve then starts from its solution). */
static HclStatus solve_present(Wave *W) {
  int iterations = 0;
  return solve(W, &W->y, W->t, &iterations);
}

HclStatus hcl_wave_energy(Wave *W, double *potential, double *kinetic) {
  HclStatus status = HCL_OK;
  TRY(solve_present(W));
  TRY(exchange(W, &W->y));
  KernelArgs a = hcl_kernel_args(W->kernels[K_ENERGY_INTEGRANDS]);
  hcl_arg_mem(&a, hcl_field_buffer(W->scratch[0]));
  hcl_arg_mem(&a, hcl_field_buffer(W->scratch[1]));
  hcl_arg_mem(&a, hcl_field_buffer(W->area));
  hcl_arg_mem(&a, hcl_field_buffer(W->y.eta));
  hcl_arg_mem(&a, hcl_field_buffer(W->y.phi));
  hcl_arg_mem(&a, hcl_field_buffer(hcl_laplace_w(W->laplace)));
  arg_shape(&a, W);
  hcl_arg_real(&a, W->precision, W->config.g);
  hcl_arg_mem(&a, W->d1);
  arg_grid(&a, W);
  TRY(hcl_kernel_launch(W->rt, &a, owned_grid(W), (5 + 2 * W->width) * points(W) * real_bytes(W)));
  double eta_squares = 0, flux = 0;
  TRY(hcl_reduce_dot(W->reducer, hcl_field_span(W->y.eta), hcl_field_span(W->scratch[1]), &eta_squares));
  TRY(hcl_reduce_dot(W->reducer, hcl_field_span(W->y.phi), hcl_field_span(W->scratch[0]), &flux));
  *potential = 0.5 * W->config.g * eta_squares;
  *kinetic = 0.5 * flux;
cleanup:
  return status;
}

HclStatus hcl_wave_column_velocities(Wave *W, int ncolumns, const int *columns, double *out) {
  HclStatus status = HCL_OK;
  int nz = W->config.laplace.nz;
  cl_mem cols = NULL, values = NULL;
  cl_int *host_cols = NULL;
  TRY(solve_present(W));
  TRY(exchange(W, &W->y));
  if (ncolumns == 0) {
    goto cleanup;
  }
  TRY_ALLOC(host_cols, 2 * (size_t)ncolumns);
  for (int c = 0; c < 2 * ncolumns; c++) {
    host_cols[c] = columns[c];
  }
  size_t count = (size_t)ncolumns * nz * 4, bytes = count * hcl_precision_bytes(W->precision);
  TRY(hcl_runtime_buffer(W->rt, sizeof(cl_int) * 2 * ncolumns, "kinematics columns", &cols));
  TRY(hcl_runtime_buffer(W->rt, bytes, "kinematics values", &values));
  cl_command_queue q = hcl_runtime_queue(W->rt);
  TRY_CL(clEnqueueWriteBuffer(q, cols, CL_TRUE, 0, sizeof(cl_int) * 2 * ncolumns, host_cols, 0, NULL, NULL));
  Field *phi3 = hcl_laplace_potential(W->laplace), *eta = W->still ? W->still : W->y.eta;
  KernelArgs a = hcl_kernel_args(W->kernels[K_COLUMN_VELOCITY]);
  hcl_arg_mem(&a, values);
  hcl_arg_mem(&a, cols);
  hcl_arg_int(&a, ncolumns);
  hcl_arg_mem(&a, hcl_field_buffer(phi3));
  hcl_arg_mem(&a, hcl_field_buffer(eta));
  hcl_arg_mem(&a, hcl_field_buffer(W->h));
  hcl_arg_int(&a, hcl_field_pitch(phi3));
  hcl_arg_ulong(&a, (size_t)hcl_field_pitch(phi3) * hcl_field_rows(phi3));
  hcl_arg_mem(&a, W->d1);
  hcl_arg_mem(&a, hcl_laplace_sigma_stencils(W->laplace));
  arg_grid(&a, W);
  TRY(hcl_kernel_launch(W->rt, &a, hcl_kernel_box(2, (size_t)ncolumns, (size_t)nz, 1), (double)bytes));
  if (hcl_precision_bytes(W->precision) == sizeof(double)) {
    TRY(hcl_runtime_read(W->rt, values, 0, bytes, out));
  } else {
    float *single = NULL;
    TRY_ALLOC(single, count);
    HclStatus read = hcl_runtime_read(W->rt, values, 0, bytes, single);
    for (size_t v = 0; read == HCL_OK && v < count; v++) {
      out[v] = single[v];
    }
    free(single);
    TRY(read);
  }
cleanup:
  free(host_cols);
  if (cols) {
    clReleaseMemObject(cols);
  }
  if (values) {
    clReleaseMemObject(values);
  }
  return status;
}

double hcl_wave_device_bytes(const Wave *W) {
  double bytes = hcl_laplace_device_bytes(W->laplace);
  Field *fields[] = {
      W->y.eta,      W->y.phi,      W->stage[0].eta, W->stage[0].phi, W->stage[1].eta, W->stage[1].phi, W->acc.eta,
      W->acc.phi,    W->h,          W->still,        W->weight,       W->generate,     W->area,         W->scratch[0],
      W->scratch[1], W->history[0], W->history[1],   W->history[2],   W->grid,         W->eta_max,      W->eta_min};
  for (size_t f = 0; f < sizeof fields / sizeof *fields; f++) {
    if (fields[f]) {
      bytes += (double)hcl_field_count(fields[f]) * hcl_precision_bytes(hcl_field_precision(fields[f]));
    }
  }
  return bytes;
}
