/* laplace.c: set-up, operator and outer iterations of the potential-flow Laplace solver (see laplace.h,
 * kernels_cl/laplace.cl; the preconditioner is mg.h). */
#include "laplace.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clerror.h"
#include "fd.h"
#include "halo.h"
#include "kernel.h"
#include "mg.h"
#include "mirror.h"
#include "par.h"
#include "program.h"
#include "reduce.h"

static const double PI = 3.14159265358979323846;

enum { WG_X = 32, WG_Y = 4, COL_PLANES = 9, GMRES_RESTART_MAX = 100 };
enum {
  K_COLUMNS,
  K_RESIDUAL,
  K_RESIDUAL_SURFACE,
  K_RESIDUAL_OUTER,
  K_TO_VCYCLE,
  K_COMBINE,
  K_UPDATE,
  K_COPY_PLANE,
  K_SURFACE_W,
  NKERNELS
};
static const char *const kernel_names[NKERNELS] = {"columns",   "residual_high", "residual_surface",
                                                   "residual_outer", "to_vcycle", "combine",
                                                   "update",    "copy_plane",    "surface_w"};

struct Laplace {
  Runtime *rt;
  const Decomp *decomp;
  LaplaceConfig config;
  Precision outer, inner; /* Phi and the operator; the V-cycle */
  int radius, width;      /* order / 2 (the ghost width), order + 1 (the centred stencils) */
  double *sigma;          /* nz points */
  double rows;            /* nx ny (nz + 1): the unknowns, Dirichlet rows included */
  Field *phi3;            /* Phi: nz + 1 planes */
  Field *eta, *h, *depth, *col, *w; /* 2D: eta and h with mirrored ghosts, d = eta + h, coefficients, w */
  Field *source;          /* NULL until laplace_set_source */
  Field **krylov;         /* GMRES: restart + 1 vectors of Phi's layout, then z */
  Halo *phi3_halo, *eta_halo, **krylov_halo;
  Mirror *mirror;
  Mg *mg;
  Reducer *reducer;
  cl_mem horizontal, vertical; /* the stencils (laplace.cl) */
  int *vertical_first;         /* the first node of each of the nz + 1 nodes' sigma stencils */
  cl_program program;
  cl_kernel kernels[NKERNELS];
};

double laplace_rms_atol(double atol_2, int nx, int ny, int nz) {
  return atol_2 / sqrt((double)nx * ny * (nz + 1));
}

LaplaceConfig laplace_config_default(void) {
  return (LaplaceConfig){.nz = 9,
                         .sigma = LAPLACE_SIGMA_UNIFORM,
                         .order = 6,
                         .precision = LAPLACE_MIXED,
                         .method = LAPLACE_DEFECT_CORRECTION,
                         .gmres_restart = 10,
                         .rtol = 1e-6,
                         .atol = 1e-10,
                         .max_iterations = 100,
                         .levels = LAPLACE_LEVELS_MAX,
                         .pre_sweeps = 1,
                         .post_sweeps = 1,
                         .coarse_sweeps = 4};
}

/* ---- set-up ---- */

static HclStatus check_config(const LaplaceConfig *c, const DecompSpec *g, const DeviceInfo *dev) {
  HclStatus status = HCL_OK;
  REQUIRE(c->order == 2 || c->order == 4 || c->order == 6 || c->order == 8, HCL_EDATA,
          "laplace.order = %d: allowed are 2, 4, 6 and 8", c->order);
  REQUIRE(c->nz >= 3 && c->nz > c->order, HCL_EDATA,
          "laplace.nz = %d: the vertical needs at least 3 points and more than the order (%d), so that its "
          "order + 2 point stencils fit with the ghost below the bottom",
          c->nz, c->order);
  REQUIRE(c->nz <= LAPLACE_NZ_MAX, HCL_EDATA,
          "laplace.nz = %d: at most %d sigma points (the kernels hold a column in private arrays)", c->nz, LAPLACE_NZ_MAX);
  REQUIRE(c->dx > 0 && c->dy > 0 && isfinite(c->dx) && isfinite(c->dy), HCL_EDATA,
          "laplace.dx = %g, dy = %g: the spacing must be positive", c->dx, c->dy);
  REQUIRE((g->nx == 1 || g->nx > c->order) && (g->ny == 1 || g->ny > c->order), HCL_EDATA,
          "a %d x %d grid is too small for order-%d stencils: each direction needs one point (a flume) or at least "
          "%d",
          g->nx, g->ny, c->order, c->order + 1);
  REQUIRE(c->rtol >= 0 && c->atol >= 0 && c->rtol + c->atol > 0, HCL_EDATA,
          "laplace.rtol = %g, atol = %g: both >= 0 and not both 0", c->rtol, c->atol);
  REQUIRE(c->max_iterations >= 1 && c->max_iterations <= LAPLACE_HISTORY_MAX, HCL_EDATA,
          "laplace.max_iterations = %d: allowed 1 to %d", c->max_iterations, LAPLACE_HISTORY_MAX);
  REQUIRE(c->pre_sweeps >= 0 && c->post_sweeps >= 0 && c->pre_sweeps + c->post_sweeps >= 1 && c->coarse_sweeps >= 1,
          HCL_EDATA, "mg sweeps pre = %d, post = %d, coarse = %d: none negative, pre + post >= 1, coarse >= 1",
          c->pre_sweeps, c->post_sweeps, c->coarse_sweeps);
  REQUIRE(c->levels >= -1, HCL_EDATA, "mg.levels = %d: a number of restrictions >= 0, or -1 for the most",
          c->levels);
  REQUIRE(c->method == LAPLACE_DEFECT_CORRECTION ||
              (c->gmres_restart >= 1 && c->gmres_restart <= GMRES_RESTART_MAX),
          HCL_EDATA, "laplace.gmres_restart = %d: allowed 1 to %d", c->gmres_restart, GMRES_RESTART_MAX);
  REQUIRE(c->precision == LAPLACE_SINGLE || dev->fp64, HCL_ENODEVICE,
          "device '%s' has no fp64 for the %s Laplace solver; use laplace.precision single", dev->device_name,
          c->precision == LAPLACE_DOUBLE ? "double" : "mixed");
cleanup:
  return status;
}

/* A positive, finite depth at every owned point; every rank learns the first failure. */
static HclStatus check_depth(const Decomp *decomp, const double *h) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = decomp_local(decomp);
  for (int j = 0; j < l->ny; j++) {
    for (int i = 0; i < l->nx; i++) {
      double value = h[(size_t)j * l->nx + i];
      REQUIRE(value > 0 && isfinite(value), HCL_EDATA,
              "depth h = %g at point (%d, %d): the potential-flow solver needs water everywhere (h > 0)", value,
              l->x0 + i, l->y0 + j);
    }
  }
cleanup:
  return par_agree(status);
}

static void make_sigma(const LaplaceConfig *c, double *sigma) {
  for (int k = 0; k < c->nz; k++) {
    double s = (double)k / (c->nz - 1);
    sigma[k] = c->sigma == LAPLACE_SIGMA_COSINE ? sin(0.5 * PI * s) : s;
  }
  sigma[c->nz - 1] = 1;
}

/* The centred horizontal weights d1x, d2x, d1y, d2y on the uniform spacing (zero along a direction of one point:
 * nothing varies along it), and per sigma node the stencil of fd_stencils on the nz + 1 nodes with the ghost: its
 * weights on the device, its first node into first (nz + 1 values, for the kernels' build). */
static HclStatus make_stencils(Laplace *L, int *first) {
  HclStatus status = HCL_OK;
  const DecompSpec *g = decomp_spec(L->decomp);
  int nodes = L->config.nz + 1, w = L->width, vw = L->width + 1, stride = 2 * vw + 1;
  double *horizontal = NULL, *vertical = NULL, *offsets = NULL, *se = NULL, weights[3 * FD_WIDTH_MAX];
  FdStencils s = {0};
  TRY_ALLOC(horizontal, 4 * w);
  TRY_ALLOC(offsets, w);
  for (int m = 0; m < w; m++) {
    offsets[m] = m - L->radius;
  }
  TRY(fd_weights(0, offsets, w, 2, weights));
  for (int m = 0; m < w; m++) {
    double ix = g->nx > 1 ? 1 / L->config.dx : 0, iy = g->ny > 1 ? 1 / L->config.dy : 0;
    horizontal[m] = weights[w + m] * ix;
    horizontal[w + m] = weights[2 * w + m] * ix * ix;
    horizontal[2 * w + m] = weights[w + m] * iy;
    horizontal[3 * w + m] = weights[2 * w + m] * iy * iy;
  }
  TRY_ALLOC(se, nodes);
  se[0] = -L->sigma[1];
  for (int k = 0; k < L->config.nz; k++) {
    se[k + 1] = L->sigma[k];
  }
  TRY(fd_stencils_create(se, nodes, L->config.order, &s));
  TRY_ALLOC(vertical, (size_t)nodes * stride);
  for (int p = 0; p < nodes; p++) {
    double *v = vertical + (size_t)p * stride;
    first[p] = s.first[p];
    memcpy(v, s.d1 + (size_t)p * vw, sizeof *v * vw);
    memcpy(v + vw, s.d2 + (size_t)p * vw, sizeof *v * vw);
    v[2 * vw] = se[p];
  }
  TRY(runtime_upload_reals(L->rt, L->outer, horizontal, 4 * (size_t)w, "Laplace horizontal stencils", &L->horizontal));
  TRY(runtime_upload_reals(L->rt, L->outer, vertical, (size_t)nodes * stride, "Laplace sigma stencils", &L->vertical));
cleanup:
  fd_stencils_free(&s);
  free(horizontal);
  free(vertical);
  free(offsets);
  free(se);
  return status;
}

static HclStatus make_field(Laplace *L, const char *name, int planes, Field **out) {
  FieldSpec spec = {.name = name, .nz = planes, .ghost = L->radius, .precision = L->outer};
  return field_create(L->rt, L->decomp, &spec, out);
}

static HclStatus make_fields(Laplace *L, const double *h) {
  HclStatus status = HCL_OK;
  Halo *h_halo = NULL;
  TRY(make_field(L, "Phi", L->config.nz + 1, &L->phi3));
  TRY(make_field(L, "laplace_eta", 1, &L->eta));
  TRY(make_field(L, "laplace_h", 1, &L->h));
  TRY(make_field(L, "laplace_depth", 1, &L->depth));
  TRY(make_field(L, "laplace_columns", COL_PLANES, &L->col));
  TRY(make_field(L, "w", 1, &L->w));
  TRY(halo_create(&L->phi3, 1, &L->phi3_halo));
  TRY(halo_create(&L->eta, 1, &L->eta_halo));
  TRY(halo_create(&L->h, 1, &h_halo));
  TRY(field_write_owned(L->h, h));
  TRY(mirror_exchange(L->mirror, h_halo, L->h));
  if (L->config.method == LAPLACE_GMRES) {
    int vectors = L->config.gmres_restart + 2; /* v_0 .. v_m, and z */
    TRY_ALLOC(L->krylov, vectors);
    TRY_ALLOC(L->krylov_halo, vectors);
    for (int v = 0; v < vectors; v++) {
      TRY(make_field(L, "gmres_vector", L->config.nz + 1, &L->krylov[v]));
      TRY(halo_create(&L->krylov[v], 1, &L->krylov_halo[v]));
    }
  }
cleanup:
  halo_destroy(&h_halo);
  return status;
}

/* The kernels for this solver's precisions, order, nz and sigma stencils (first: their first nodes). */
static HclStatus build(Laplace *L, const int *first) {
  HclStatus status = HCL_OK;
  char defines[2048];
  int at = snprintf(defines, sizeof defines, "-DVREAL=%s -DRADIUS=%d -DWIDTH=%d -DVWIDTH=%d -DNZ=%d -DVFIRST=",
                    precision_name(L->inner), L->radius, L->width, L->width + 1, L->config.nz);
  for (int p = 0; p <= L->config.nz && at < (int)sizeof defines; p++) {
    at += snprintf(defines + at, sizeof defines - at, "%s%d", p ? "," : "", first[p]);
  }
  ASSERT(at < (int)sizeof defines);
  KernelConfig config = {.precision = L->outer, .stencil_radius = L->radius, .wg_x = WG_X, .wg_y = WG_Y,
                         .defines = defines};
  TRY(program_build_kernels(L->rt, "laplace", &config, kernel_names, NKERNELS, &L->program, L->kernels));
cleanup:
  return status;
}

HclStatus laplace_create(Runtime *rt, const Decomp *decomp, const LaplaceConfig *config, const double *h,
                         Laplace **out) {
  HclStatus status = HCL_OK;
  Laplace *L = NULL;
  const DecompSpec *g = decomp_spec(decomp);
  *out = NULL;
  TRY(check_config(config, g, runtime_device(rt)));
  TRY(check_depth(decomp, h));
  TRY_ALLOC(L, 1);
  L->rt = rt;
  L->decomp = decomp;
  L->config = *config;
  L->outer = config->precision == LAPLACE_SINGLE ? PRECISION_SINGLE : PRECISION_DOUBLE;
  L->inner = config->precision == LAPLACE_DOUBLE ? PRECISION_DOUBLE : PRECISION_SINGLE;
  L->radius = config->order / 2;
  L->width = config->order + 1;
  L->rows = (double)g->nx * g->ny * (config->nz + 1);
  TRY_ALLOC(L->sigma, config->nz);
  make_sigma(config, L->sigma);
  TRY(mirror_create(rt, &L->mirror));
  TRY(reducer_create(rt, decomp, &L->reducer));
  TRY_ALLOC(L->vertical_first, config->nz + 1);
  TRY(make_stencils(L, L->vertical_first));
  TRY(build(L, L->vertical_first));
  TRY(make_fields(L, h));
  double depth_sum = 0;
  TRY(reduce_sum(L->reducer, field_span(L->h), &depth_sum));
  MgSpec mg = {.dx = config->dx, .dy = config->dy, .nz = config->nz, .sigma = L->sigma,
               .depth_scale = depth_sum / ((double)g->nx * g->ny), .precision = L->inner, .levels = config->levels,
               .pre_sweeps = config->pre_sweeps, .post_sweeps = config->post_sweeps,
               .coarse_sweeps = config->coarse_sweeps};
  TRY(mg_create(rt, decomp, L->mirror, &mg, h, &L->mg));
  *out = L;
  L = NULL;
cleanup:
  laplace_destroy(&L);
  return status;
}

void laplace_destroy(Laplace **laplace) {
  if (!laplace || !*laplace) {
    return;
  }
  Laplace *L = *laplace;
  if (L->krylov) {
    for (int v = 0; v < L->config.gmres_restart + 2; v++) {
      halo_destroy(&L->krylov_halo[v]);
      field_destroy(&L->krylov[v]);
    }
  }
  free(L->krylov);
  free(L->krylov_halo);
  mg_destroy(&L->mg);
  halo_destroy(&L->phi3_halo);
  halo_destroy(&L->eta_halo);
  Field *fields[] = {L->phi3, L->eta, L->h, L->depth, L->col, L->w, L->source};
  for (size_t f = 0; f < sizeof fields / sizeof *fields; f++) {
    field_destroy(&fields[f]);
  }
  if (L->horizontal) {
    clReleaseMemObject(L->horizontal);
  }
  if (L->vertical) {
    clReleaseMemObject(L->vertical);
  }
  program_release(&L->program, L->kernels, NKERNELS);
  reducer_destroy(&L->reducer);
  mirror_destroy(&L->mirror);
  free(L->sigma);
  free(L->vertical_first);
  free(L);
  *laplace = NULL;
}

/* ---- launches ---- */

/* The launch shape of a kernel over the owned columns. */
static KernelShape owned_grid(const Laplace *L) {
  const DecompLocal *l = decomp_local(L->decomp);
  return kernel_grid(L->rt, l->nx, l->ny, WG_X, WG_Y);
}

static void arg_shape(KernelArgs *a, const Laplace *L) {
  arg_int(a, decomp_local(L->decomp)->nx);
  arg_int(a, decomp_local(L->decomp)->ny);
  arg_int(a, field_pitch(L->phi3));
  arg_ulong(a, (size_t)field_pitch(L->phi3) * field_rows(L->phi3));
}

/* pitch and plane of a V-cycle field */
static void arg_vshape(KernelArgs *a, Field *f) {
  arg_int(a, field_pitch(f));
  arg_ulong(a, (size_t)field_pitch(f) * field_rows(f));
}

static double column_points(const Laplace *L) {
  return (double)decomp_local(L->decomp)->nx * decomp_local(L->decomp)->ny;
}

static double outer_bytes(const Laplace *L) {
  return (double)precision_bytes(L->outer);
}

static HclStatus check_input(Laplace *L, Field *f, const char *what) {
  HclStatus status = HCL_OK;
  REQUIRE(field_decomp(f) == L->decomp && field_nz(f) == 1 && field_precision(f) == L->outer, HCL_EINTERNAL,
          "laplace: %s must be a 2D %s field on the solver's decomposition (got '%s': %d planes, %s)", what,
          precision_name(L->outer), field_name(f), field_nz(f), precision_name(field_precision(f)));
cleanup:
  return status;
}

/* The coefficients of eq. 5 from eta, and Phi's surface plane from phi. */
static HclStatus prepare(Laplace *L, Field *eta, Field *phi) {
  HclStatus status = HCL_OK;
  TRY(check_input(L, eta, "eta"));
  TRY(check_input(L, phi, "phi"));
  KernelArgs a = kernel_args(L->kernels[K_COPY_PLANE]);
  arg_mem(&a, field_buffer(L->eta));
  arg_int(&a, 0);
  arg_mem(&a, field_buffer(eta));
  arg_int(&a, field_pitch(eta));
  arg_int(&a, field_ghost(eta));
  arg_shape(&a, L);
  TRY(kernel_launch(L->rt, &a, owned_grid(L), 2 * column_points(L) * outer_bytes(L)));
  TRY(mirror_exchange(L->mirror, L->eta_halo, L->eta));
  a = kernel_args(L->kernels[K_COLUMNS]);
  arg_mem(&a, field_buffer(L->col));
  arg_mem(&a, field_buffer(L->depth));
  arg_mem(&a, field_buffer(L->eta));
  arg_mem(&a, field_buffer(L->h));
  arg_shape(&a, L);
  arg_mem(&a, L->horizontal);
  TRY(kernel_launch(L->rt, &a, owned_grid(L), (2 + 1 + COL_PLANES) * column_points(L) * outer_bytes(L)));
  double shallowest = 0;
  TRY(reduce_min(L->reducer, field_span(L->depth), &shallowest));
  REQUIRE(shallowest > 0, HCL_EDATA,
          "the water column eta + h falls to %g: the free surface reached the bottom (or eta is not finite), which "
          "the potential-flow solver cannot represent",
          shallowest);
  a = kernel_args(L->kernels[K_COPY_PLANE]);
  arg_mem(&a, field_buffer(L->phi3));
  arg_int(&a, L->config.nz);
  arg_mem(&a, field_buffer(phi));
  arg_int(&a, field_pitch(phi));
  arg_int(&a, field_ghost(phi));
  arg_shape(&a, L);
  TRY(kernel_launch(L->rt, &a, owned_grid(L), 2 * column_points(L) * outer_bytes(L)));
cleanup:
  return status;
}

/* The residual f - A x of x (Phi's layout; ghosts exchanged here through x_halo, or NULL where they are valid
 * already), with or without the sources: into the V-cycle's right-hand side, or into out (Phi's layout) when out is
 * not NULL. surface_only takes x as zero below the surface:
 * the residual is then b, the right-hand side of the system below the surface (into the V-cycle's field). */
static HclStatus residual(Laplace *L, Field *x, Halo *x_halo, bool with_source, bool surface_only, Field *out) {
  HclStatus status = HCL_OK;
  if (x_halo) {
    TRY(mirror_exchange(L->mirror, x_halo, x));
  }
  Field *res = out ? out : mg_rhs(L->mg);
  int k = out ? K_RESIDUAL_OUTER : surface_only ? K_RESIDUAL_SURFACE : K_RESIDUAL;
  KernelArgs a = kernel_args(L->kernels[k]);
  arg_mem(&a, field_buffer(res));
  arg_mem(&a, field_buffer(x));
  arg_mem(&a, field_buffer(L->col));
  arg_mem(&a, field_buffer(L->source && with_source ? L->source : x));
  arg_int(&a, L->source && with_source);
  arg_shape(&a, L);
  if (!out) {
    arg_vshape(&a, res);
  }
  arg_mem(&a, L->horizontal);
  arg_mem(&a, L->vertical);
  double planes = L->config.nz + 1;
  TRY(kernel_launch(L->rt, &a, owned_grid(L),
             planes * column_points(L) * (outer_bytes(L) + (double)precision_bytes(field_precision(res))) +
                 COL_PLANES * column_points(L) * outer_bytes(L)));
cleanup:
  return status;
}

/* rms over all rows of a field of residuals */
static HclStatus rms(Laplace *L, Field *f, double *out) {
  HclStatus status = HCL_OK;
  double squares = 0;
  TRY(reduce_dot(L->reducer, field_span(f), field_span(f), &squares));
  *out = sqrt(squares / L->rows);
cleanup:
  return status;
}

/* x += weight times the V-cycle's correction below the surface. */
static HclStatus add_correction(Laplace *L, Field *x, double weight) {
  HclStatus status = HCL_OK;
  Field *delta = mg_correction(L->mg);
  KernelArgs a = kernel_args(L->kernels[K_UPDATE]);
  arg_mem(&a, field_buffer(x));
  arg_mem(&a, field_buffer(delta));
  arg_real(&a, L->outer, weight);
  arg_shape(&a, L);
  arg_vshape(&a, delta);
  TRY(kernel_launch(L->rt, &a, owned_grid(L),
             L->config.nz * column_points(L) * (2 * outer_bytes(L) + (double)precision_bytes(L->inner))));
cleanup:
  return status;
}

/* ---- the outer iterations ---- */

/* Algorithm 1 of fnpf-gpu-model: r = b - A Phi; stop on rms(r) <= target; Phi += V-cycle(r). */
static HclStatus defect_correction(Laplace *L, double target, LaplaceResult *result) {
  HclStatus status = HCL_OK;
  int k = 0;
  for (;; k++) {
    TRY(residual(L, L->phi3, k ? L->phi3_halo : NULL, true, false, NULL)); /* b's residual exchanged Phi */
    TRY(rms(L, mg_rhs(L->mg), &result->history[k]));
    if (result->history[k] <= target || !isfinite(result->history[k]) || k == L->config.max_iterations) {
      break;
    }
    TRY(mg_vcycle(L->mg));
    TRY(add_correction(L, L->phi3, 1));
  }
  result->iterations = k;
  result->converged = result->history[k] <= target;
cleanup:
  return status;
}

/* y = a x + b y over whole fields of Phi's layout. */
static HclStatus combine(Laplace *L, Field *y, double b, Field *x, double a) {
  HclStatus status = HCL_OK;
  size_t n = field_count(y), global = (n + 255) / 256 * 256;
  KernelArgs args = kernel_args(L->kernels[K_COMBINE]);
  arg_mem(&args, field_buffer(y));
  arg_real(&args, L->outer, b);
  arg_mem(&args, field_buffer(x));
  arg_real(&args, L->outer, a);
  arg_ulong(&args, n);
  TRY(kernel_launch(L->rt, &args, kernel_box(1, global, 1, 1), 3.0 * n * outer_bytes(L)));
cleanup:
  return status;
}

/* z = M^-1 x: x into the V-cycle's right-hand side, one V-cycle, z = 0 + the correction. */
static HclStatus precondition(Laplace *L, Field *x, Field *z) {
  HclStatus status = HCL_OK;
  Field *rhs = mg_rhs(L->mg);
  KernelArgs a = kernel_args(L->kernels[K_TO_VCYCLE]);
  arg_mem(&a, field_buffer(rhs));
  arg_mem(&a, field_buffer(x));
  arg_shape(&a, L);
  arg_vshape(&a, rhs);
  TRY(kernel_launch(L->rt, &a, owned_grid(L),
             (L->config.nz + 1) * column_points(L) * (outer_bytes(L) + (double)precision_bytes(L->inner))));
  TRY(mg_vcycle(L->mg));
  TRY(field_zero(z));
  TRY(add_correction(L, z, 1));
cleanup:
  return status;
}

/* Givens rotation (c, s) that zeroes b in (a, b). */
static void givens(double a, double b, double *c, double *s) {
  double r = hypot(a, b);
  *c = r > 0 ? a / r : 1;
  *s = r > 0 ? b / r : 0;
}

/* GMRES(m) right-preconditioned by the V-cycle (Saad, Iterative Methods for Sparse Linear Systems, Algorithm 9.5),
 * on -A (whose Krylov vectors are residual_outer's output as it is: -A z with no source), modified Gram-Schmidt,
 * restarted every m steps; Phi += M^-1 V y once per cycle. history[k] is the rms residual the least-squares problem
 * gives after k preconditioner applications, checked against the true residual at every restart. */
static HclStatus gmres(Laplace *L, double target, LaplaceResult *result) {
  HclStatus status = HCL_OK;
  int m = L->config.gmres_restart, k = 0;
  Field **v = L->krylov, *z = L->krylov[m + 1];
  double *hess = NULL, *cs = NULL, *sn = NULL, *g = NULL, *y = NULL;
  TRY_ALLOC(hess, (size_t)(m + 1) * m);
  TRY_ALLOC(cs, m);
  TRY_ALLOC(sn, m);
  TRY_ALLOC(g, m + 1);
  TRY_ALLOC(y, m);
#define H(i, j) hess[(size_t)(i) * m + (j)]
  for (;;) {
    TRY(residual(L, L->phi3, k ? L->phi3_halo : NULL, true, false, v[0])); /* b's residual exchanged Phi */
    double beta = 0;
    TRY(rms(L, v[0], &beta));
    result->history[k] = beta;
    if (beta <= target || !isfinite(beta) || k >= L->config.max_iterations) {
      break;
    }
    TRY(combine(L, v[0], -1 / (beta * sqrt(L->rows)), v[0], 0)); /* v0 = -r / ||r||: the rhs of -A */
    memset(g, 0, sizeof *g * (m + 1));
    g[0] = beta * sqrt(L->rows);
    int j = 0;
    for (; j < m && k < L->config.max_iterations; j++) {
      TRY(precondition(L, v[j], z));
      TRY(residual(L, z, L->krylov_halo[m + 1], false, false, v[j + 1])); /* v_{j+1} = -A M^-1 v_j */
      for (int i = 0; i <= j; i++) {
        TRY(reduce_dot(L->reducer, field_span(v[j + 1]), field_span(v[i]), &H(i, j)));
        TRY(combine(L, v[j + 1], 1, v[i], -H(i, j)));
      }
      double norm = 0;
      TRY(reduce_dot(L->reducer, field_span(v[j + 1]), field_span(v[j + 1]), &norm));
      H(j + 1, j) = sqrt(norm);
      if (H(j + 1, j) > 0) {
        TRY(combine(L, v[j + 1], 1 / H(j + 1, j), v[j + 1], 0));
      }
      for (int i = 0; i < j; i++) { /* the earlier rotations on column j */
        double top = cs[i] * H(i, j) + sn[i] * H(i + 1, j);
        H(i + 1, j) = -sn[i] * H(i, j) + cs[i] * H(i + 1, j);
        H(i, j) = top;
      }
      givens(H(j, j), H(j + 1, j), &cs[j], &sn[j]);
      H(j, j) = cs[j] * H(j, j) + sn[j] * H(j + 1, j);
      H(j + 1, j) = 0;
      g[j + 1] = -sn[j] * g[j];
      g[j] = cs[j] * g[j];
      k++;
      result->history[k] = fabs(g[j + 1]) / sqrt(L->rows);
      if (result->history[k] <= target || H(j, j) == 0) {
        j++;
        break;
      }
    }
    for (int i = j - 1; i >= 0; i--) { /* back substitution of the rotated Hessenberg system */
      double sum = g[i];
      for (int c = i + 1; c < j; c++) {
        sum -= H(i, c) * y[c];
      }
      y[i] = H(i, i) != 0 ? sum / H(i, i) : 0;
    }
    TRY(combine(L, v[0], y[0], v[0], 0)); /* u = V y, in v0 */
    for (int i = 1; i < j; i++) {
      TRY(combine(L, v[0], 1, v[i], y[i]));
    }
    TRY(precondition(L, v[0], z)); /* Phi += M^-1 u */
    TRY(combine(L, L->phi3, 1, z, 1));
  }
#undef H
  result->iterations = k;
  result->converged = result->history[k] <= target;
cleanup:
  free(hess);
  free(cs);
  free(sn);
  free(g);
  free(y);
  return status;
}

/* The message of a solve that did not converge: the history and what to change. */
static HclStatus not_converged(const Laplace *L, const LaplaceResult *r, double target) {
  char history[1024] = "";
  size_t used = 0;
  for (int k = 0; k <= r->iterations && used + 16 < sizeof history; k++) {
    if (k == 12 && r->iterations > 16) { /* the first twelve, then the last four */
      used += (size_t)snprintf(history + used, sizeof history - used, " ...");
      k = r->iterations - 4;
    }
    used += (size_t)snprintf(history + used, sizeof history - used, " %.3g", r->history[k]);
  }
  return status_set(HCL_ENOTCONVERGED, __FILE__, __LINE__,
                    "the Laplace solve did not converge: rms residual%s after %d iterations, target %.3g (rtol %g x "
                    "rms(b) %.3g + atol %g). Try more multigrid restrictions (mg.levels: %d now), more sweeps, %s, or a "
                    "larger laplace.max_iterations",
                    history, r->iterations, target, L->config.rtol, r->rms_b, L->config.atol,
                    mg_levels(L->mg) - 1,
                    L->config.method == LAPLACE_GMRES ? "a longer GMRES restart" : "laplace.method gmres");
}

HclStatus laplace_solve(Laplace *L, Field *eta, Field *phi, LaplaceResult *result) {
  HclStatus status = HCL_OK;
  memset(result, 0, sizeof *result);
  TRY(prepare(L, eta, phi));
  TRY(residual(L, L->phi3, L->phi3_halo, true, true, NULL));
  TRY(rms(L, mg_rhs(L->mg), &result->rms_b));
  double target = L->config.rtol * result->rms_b + L->config.atol;
  if (L->config.method == LAPLACE_GMRES) {
    TRY(gmres(L, target, result));
  } else {
    TRY(defect_correction(L, target, result));
  }
  if (!result->converged) {
    status = not_converged(L, result, target);
    goto cleanup;
  }
  KernelArgs a = kernel_args(L->kernels[K_SURFACE_W]);
  arg_mem(&a, field_buffer(L->w));
  arg_mem(&a, field_buffer(L->phi3));
  arg_mem(&a, field_buffer(L->col));
  arg_shape(&a, L);
  arg_int(&a, L->config.nz);
  arg_mem(&a, L->vertical);
  TRY(kernel_launch(L->rt, &a, owned_grid(L), (L->width + 2) * column_points(L) * outer_bytes(L)));
cleanup:
  return status;
}

HclStatus laplace_compute_residual(Laplace *L, Field *eta, Field *phi) {
  HclStatus status = HCL_OK;
  TRY(prepare(L, eta, phi));
  TRY(residual(L, L->phi3, L->phi3_halo, true, false, NULL));
cleanup:
  return status;
}

HclStatus laplace_set_source(Laplace *L, const double *source) {
  HclStatus status = HCL_OK;
  double *owned = NULL;
  const DecompLocal *l = decomp_local(L->decomp);
  size_t plane = (size_t)l->nx * l->ny, n = plane * (L->config.nz + 1);
  field_destroy(&L->source);
  if (!source) {
    goto cleanup;
  }
  TRY_ALLOC(owned, n);
  memcpy(owned, source, sizeof *owned * (n - plane)); /* the top plane stays zero */
  TRY(make_field(L, "laplace_source", L->config.nz + 1, &L->source));
  TRY(field_write_owned(L->source, owned));
cleanup:
  free(owned);
  return status;
}

HclStatus laplace_set_potential(Laplace *L, const double *potential) {
  return field_write_owned(L->phi3, potential);
}

Field *laplace_potential(Laplace *L) {
  return L->phi3;
}

Field *laplace_residual(Laplace *L) {
  return mg_rhs(L->mg);
}

Field *laplace_w(Laplace *L) {
  return L->w;
}

const double *laplace_sigma(const Laplace *L) {
  return L->sigma;
}

cl_mem laplace_sigma_stencils(const Laplace *L) {
  return L->vertical;
}

const int *laplace_sigma_stencil_first(const Laplace *L) {
  return L->vertical_first;
}

int laplace_levels(const Laplace *L) {
  return mg_levels(L->mg);
}

HclStatus laplace_describe_levels(const Laplace *L, char **text) {
  HclStatus status = HCL_OK;
  int n = mg_levels(L->mg);
  TRY_ALLOC(*text, (size_t)n * 64 + 1);
  size_t used = 0;
  for (int l = 0; l < n; l++) {
    int nx, ny, nz;
    mg_level_shape(L->mg, l, &nx, &ny, &nz);
    used += (size_t)snprintf(*text + used, 64, "level %d: %d x %d x %d\n", l, nx, ny, nz);
  }
cleanup:
  return status;
}

double laplace_device_bytes(const Laplace *L) {
  double bytes = mg_device_bytes(L->mg);
  Field *fields[] = {L->phi3, L->eta, L->h, L->depth, L->col, L->w, L->source};
  for (size_t f = 0; f < sizeof fields / sizeof *fields; f++) {
    if (fields[f]) {
      bytes += (double)field_count(fields[f]) * precision_bytes(field_precision(fields[f]));
    }
  }
  if (L->krylov) {
    for (int v = 0; v < L->config.gmres_restart + 2; v++) {
      bytes += (double)field_count(L->krylov[v]) * precision_bytes(L->outer);
    }
  }
  return bytes;
}
