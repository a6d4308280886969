/* SPDX-License-Identifier: BSD-3-Clause */
/* laplace.c: set-up and operator of the potential-flow Laplace solver (see laplace.h, kernels_cl/laplace.cl); the
 * preconditioner is mg.h's V-cycle, the iterations krylov.h's. */
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

enum { WG_X = 32, WG_Y = 4, COL_PLANES = 9 };
enum { K_COLUMNS, K_DEFECT_V, K_DEFECT_O, K_SURFACE_V, K_SURFACE_O, K_APPLY_O, K_COPY_PLANE, K_SURFACE_W, NKERNELS };
static const char *const kernel_names[NKERNELS] = {"columns",   "defect_v", "defect_o",   "surface_v",
                                                   "surface_o", "apply_o",  "copy_plane", "surface_w"};

struct Laplace {
  Runtime *rt;
  const Decomp *decomp;
  LaplaceConfig config;
  Precision outer, inner;           /* Phi and the operator; the V-cycle */
  int radius, width;                /* order / 2 (the ghost width), order + 1 (the centred stencils) */
  int col_planes;                   /* COL_PLANES, and the metric terms' after them on a curvilinear grid */
  double *sigma;                    /* nz points */
  Field *phi3;                      /* Phi: nz + 1 planes */
  Field *eta, *h, *depth, *col, *w; /* 2D: eta and h with mirrored ghosts, d = eta + h, coefficients, w */
  Field *source;                    /* NULL until hcl_laplace_set_source */
  Halo *eta_halo;
  Mirror *mirror;
  VecSpace *space;             /* Phi's layout: the operator's vectors, their ghosts mirrored across walls */
  Vec *phi;                    /* Phi as a vector */
  Vec *residual;               /* hcl_laplace_compute_residual's: the V-cycle's input, or Phi's layout without one */
  Operator *op;                /* the sigma-transformed operator, with its own right-hand side */
  Krylov *krylov;              /* owns the preconditioner, which owns the levels */
  Mg *mg;                      /* the levels (borrowed from the preconditioner), NULL without it */
  cl_mem horizontal, vertical; /* the stencils (laplace.cl) */
  int *vertical_first;         /* the first node of each of the nz + 1 nodes' sigma stencils */
  cl_program program;
  cl_kernel kernels[NKERNELS];
};

double hcl_laplace_rms_atol(double atol_2, int nx, int ny, int nz) {
  return atol_2 / sqrt((double)nx * ny * (nz + 1));
}

LaplaceConfig hcl_laplace_config_default(void) {
  KrylovOptions krylov = hcl_krylov_options_default();
  krylov.method = KRYLOV_DC;
  krylov.rtol = 1e-6;
  krylov.atol = 1e-10;
  krylov.max_iterations = 100;
  krylov.norm = KRYLOV_NORM_RMS;
  krylov.prefix = "laplace.";
  return (LaplaceConfig){.nz = 9,
                         .sigma = LAPLACE_SIGMA_UNIFORM,
                         .order = 6,
                         .precision = LAPLACE_MIXED,
                         .preconditioner = LAPLACE_MG,
                         .mg = hcl_mg_options_default(),
                         .krylov = krylov,
                         .prefix = "laplace."};
}

/* ---- keys and checks ---- */

static const char *const PRECISION_NAMES = "mixed|double|single";
static const char *const SIGMA_NAMES = "uniform|cosine";
static const char *const PRECONDITIONER_NAMES = "mg|none";

/* The word at position index of a '|'-separated list, into buf. */
static const char *choice_word(const char *choices, int index, char *buf, size_t size) {
  const char *p = choices;
  for (int k = 0; k < index; k++) {
    p = strchr(p, '|') + 1;
  }
  size_t n = strcspn(p, "|");
  snprintf(buf, size, "%.*s", (int)n, p);
  return buf;
}

HclStatus hcl_laplace_add_keys(CaseSchema *schema, const char *prefix, const LaplaceConfig *d) {
  HclStatus status = HCL_OK;
  char nz[16], order[16], precision[16], sigma[16], preconditioner[16];
  snprintf(nz, sizeof nz, "%d", d->nz);
  snprintf(order, sizeof order, "%d", d->order);
  const CaseKey keys[] = {
      {"nz", CASE_INT, "", nz, 3, LAPLACE_NZ_MAX, NULL,
       "points in the vertical (sigma) of the Laplace problem, more than the order"},
      {"order", CASE_INT, "", order, 2, 8, NULL, "order of the finite differences: 2, 4, 6 or 8"},
      {"sigma", CASE_CHOICE, "", choice_word(SIGMA_NAMES, (int)d->sigma, sigma, sizeof sigma), CASE_UNBOUNDED,
       SIGMA_NAMES, "the sigma points: uniform, or cosine (clustered towards the surface)"},
      {"precision", CASE_CHOICE, "", choice_word(PRECISION_NAMES, (int)d->precision, precision, sizeof precision),
       CASE_UNBOUNDED, PRECISION_NAMES,
       "mixed: the iteration in double, the multigrid preconditioner in float; --precision overrides"},
      {"preconditioner", CASE_CHOICE, "",
       choice_word(PRECONDITIONER_NAMES, (int)d->preconditioner, preconditioner, sizeof preconditioner), CASE_UNBOUNDED,
       PRECONDITIONER_NAMES, "mg (one multigrid V-cycle on the linearized operator) or none"},
  };
  TRY(hcl_case_schema_add(schema, prefix, keys, (int)(sizeof keys / sizeof keys[0])));
  TRY(hcl_mg_add_keys(schema, prefix, &d->mg));
  TRY(hcl_krylov_add_keys(schema, prefix, &d->krylov));
cleanup:
  return status;
}

HclStatus hcl_laplace_check(const LaplaceConfig *c, int nx, int ny, const Case *cs) {
  HclStatus status = HCL_OK;
  const char *p = c->prefix;
  char at[CASE_WHERE_MAX];
  REQUIRE(c->order == 2 || c->order == 4 || c->order == 6 || c->order == 8, HCL_EDATA,
          "%s%sorder = %d: allowed are 2, 4, 6 and 8", hcl_case_where(cs, p, "order", at), p, c->order);
  REQUIRE(c->nz >= 3 && c->nz > c->order && c->nz <= LAPLACE_NZ_MAX, HCL_EDATA,
          "%s%snz = %d: the vertical needs at least 3 points, more than the order (%sorder %d) so that its order + 2 "
          "point stencils fit with the ghost below the bottom, and at most %d sigma points (the kernels hold a column "
          "in private arrays)",
          hcl_case_where(cs, p, "nz", at), p, c->nz, p, c->order, LAPLACE_NZ_MAX);
  REQUIRE(c->map || (c->dx > 0 && c->dy > 0 && isfinite(c->dx) && isfinite(c->dy)), HCL_EDATA,
          "the spacing dx = %g, dy = %g must be positive", c->dx, c->dy);
  for (int axis = 0; axis < 2; axis++) {
    int n = axis ? ny : nx;
    REQUIRE(c->map == NULL || n > c->order, HCL_EDATA,
            "%sa %d x %d %s is too small for %sorder %d stencils: a curvilinear grid needs at least %d points each "
            "way",
            hcl_case_where(cs, p, "order", at), nx, ny, c->map ? c->map->name : "", p, c->order, c->order + 1);
    REQUIRE(n == 1 || n > c->order, HCL_EDATA,
            "%sa %d x %d grid is too small for %sorder %d stencils: each direction needs one point (a flume) or at "
            "least %d",
            hcl_case_where(cs, p, "order", at), nx, ny, p, c->order, c->order + 1);
  }
  TRY(hcl_mg_check_options(&c->mg, p, cs));
  TRY(hcl_krylov_check(&c->krylov, cs, "the sigma-transformed Laplace operator", false,
                       c->preconditioner == LAPLACE_MG ? "the multigrid V-cycle" : "none",
                       c->preconditioner != LAPLACE_MG));
cleanup:
  return status;
}

HclStatus hcl_laplace_config_from_case(const Case *c, const char *prefix, const LaplacePrecision *precision, int nx,
                                       int ny, LaplaceConfig *config) {
  HclStatus status = HCL_OK;
  char key[CASE_KEY_MAX];
  config->prefix = prefix;
  config->nz = (int)hcl_case_int(c, hcl_case_key(key, prefix, "nz"));
  config->order = (int)hcl_case_int(c, hcl_case_key(key, prefix, "order"));
  config->sigma = (LaplaceSigma)hcl_case_choice(c, hcl_case_key(key, prefix, "sigma"));
  config->precision = (LaplacePrecision)hcl_case_choice(c, hcl_case_key(key, prefix, "precision"));
  if (precision) {
    config->precision = *precision;
  }
  config->preconditioner = (LaplacePreconditioner)hcl_case_choice(c, hcl_case_key(key, prefix, "preconditioner"));
  TRY(hcl_mg_options_from_case(c, prefix, &config->mg));
  TRY(hcl_krylov_options_from_case(c, prefix, &config->krylov));
  TRY(hcl_laplace_check(config, nx, ny, c));
cleanup:
  return status;
}

/* ---- set-up ---- */

/* A positive, finite depth at every owned point; every rank learns the first failure. */
static HclStatus check_depth(const Decomp *decomp, const double *h) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = hcl_decomp_local(decomp);
  for (int j = 0; j < l->ny; j++) {
    for (int i = 0; i < l->nx; i++) {
      double value = h[(size_t)j * l->nx + i];
      REQUIRE(value > 0 && isfinite(value), HCL_EDATA,
              "depth h = %g at point (%d, %d): the potential-flow solver needs water everywhere (h > 0)", value,
              l->x0 + i, l->y0 + j);
    }
  }
cleanup:
  return hcl_par_agree(status);
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
  const DecompSpec *g = hcl_decomp_spec(L->decomp);
  int nodes = L->config.nz + 1, w = L->width, vw = L->width + 1, stride = 2 * vw + 1;
  double *horizontal = NULL, *vertical = NULL, *offsets = NULL, *se = NULL, weights[3 * FD_WIDTH_MAX];
  FdStencils s = {0};
  TRY_ALLOC(horizontal, 4 * w);
  TRY_ALLOC(offsets, w);
  for (int m = 0; m < w; m++) {
    offsets[m] = m - L->radius;
  }
  TRY(hcl_fd_weights(0, offsets, w, 2, weights));
  for (int m = 0; m < w; m++) { /* a curvilinear grid's along the index directions, at unit spacing */
    double ix = g->nx == 1 ? 0 : L->config.map ? 1 : 1 / L->config.dx;
    double iy = g->ny == 1 ? 0 : L->config.map ? 1 : 1 / L->config.dy;
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
  TRY(hcl_fd_stencils_create(se, nodes, L->config.order, &s));
  TRY_ALLOC(vertical, (size_t)nodes * stride);
  for (int p = 0; p < nodes; p++) {
    double *v = vertical + (size_t)p * stride;
    first[p] = s.first[p];
    memcpy(v, s.d1 + (size_t)p * vw, sizeof *v * vw);
    memcpy(v + vw, s.d2 + (size_t)p * vw, sizeof *v * vw);
    v[2 * vw] = se[p];
  }
  TRY(hcl_runtime_upload_reals(L->rt, L->outer, horizontal, 4 * (size_t)w, "Laplace horizontal stencils",
                               &L->horizontal));
  TRY(hcl_runtime_upload_reals(L->rt, L->outer, vertical, (size_t)nodes * stride, "Laplace sigma stencils",
                               &L->vertical));
cleanup:
  hcl_fd_stencils_free(&s);
  free(horizontal);
  free(vertical);
  free(offsets);
  free(se);
  return status;
}

static HclStatus make_field(Laplace *L, const char *name, int planes, Field **out) {
  FieldSpec spec = {.name = name, .nz = planes, .ghost = L->radius, .precision = L->outer};
  return hcl_field_create(L->rt, L->decomp, &spec, out);
}

static HclStatus make_fields(Laplace *L, const double *h) {
  HclStatus status = HCL_OK;
  Halo *h_halo = NULL;
  TRY(make_field(L, "Phi", L->config.nz + 1, &L->phi3));
  TRY(make_field(L, "laplace_eta", 1, &L->eta));
  TRY(make_field(L, "laplace_h", 1, &L->h));
  TRY(make_field(L, "laplace_depth", 1, &L->depth));
  TRY(make_field(L, "laplace_columns", L->col_planes, &L->col));
  TRY(make_field(L, "w", 1, &L->w));
  TRY(hcl_halo_create(&L->eta, 1, &L->eta_halo));
  TRY(hcl_halo_create(&L->h, 1, &h_halo));
  TRY(hcl_field_write_owned(L->h, h));
  TRY(hcl_mirror_exchange(L->mirror, h_halo, L->h));
  if (L->config.map) {
    TRY(hcl_mapping_write_metrics(L->config.map, L->config.order, 1, 1, L->col, COL_PLANES));
  }
cleanup:
  hcl_halo_destroy(&h_halo);
  return status;
}

/* The kernels for this solver's precisions, order, nz and sigma stencils (first: their first nodes). */
static HclStatus build(Laplace *L, const int *first) {
  HclStatus status = HCL_OK;
  char defines[2048];
  int at = snprintf(defines, sizeof defines,
                    "-DVREAL=%s -DRADIUS=%d -DWIDTH=%d -DVWIDTH=%d -DNZ=%d%s -DVFIRST=", hcl_precision_name(L->inner),
                    L->radius, L->width, L->width + 1, L->config.nz, L->config.map ? " -DCURVILINEAR" : "");
  for (int p = 0; p <= L->config.nz && at < (int)sizeof defines; p++) {
    at += snprintf(defines + at, sizeof defines - at, "%s%d", p ? "," : "", first[p]);
  }
  ASSERT(at < (int)sizeof defines);
  KernelConfig config = {
      .precision = L->outer, .stencil_radius = L->radius, .wg_x = WG_X, .wg_y = WG_Y, .defines = defines};
  TRY(hcl_program_build_kernels(L->rt, "laplace", &config, kernel_names, NKERNELS, &L->program, L->kernels));
cleanup:
  return status;
}

/* Phi's ghosts on walls, mirrored after the exchange (VecGhostFill). */
static HclStatus mirror_ghosts(void *mirror, Field *field) {
  return hcl_mirror_fill(mirror, field);
}

static const OperatorOps OPERATOR_OPS; /* the sigma-transformed operator, below */

/* The V-cycle on the linearized operator for depth h (owned points), as the preconditioner. */
static HclStatus make_multigrid(Laplace *L, const double *h, Precond **pc) {
  HclStatus status = HCL_OK;
  Mg *mg = NULL;
  const DecompSpec *g = hcl_decomp_spec(L->decomp);
  double depth_sum = 0;
  TRY(hcl_reduce_sum(hcl_vspace_reducer(L->space), hcl_field_span(L->h), &depth_sum));
  MgSpec spec = {.dx = L->config.dx,
                 .dy = L->config.dy,
                 .nz = L->config.nz,
                 .sigma = L->sigma,
                 .map = L->config.map,
                 .depth_scale = depth_sum / ((double)g->nx * g->ny),
                 .precision = L->inner,
                 .options = L->config.mg,
                 .prefix = L->config.prefix};
  TRY(hcl_mg_create(L->rt, L->decomp, L->mirror, &spec, h, &mg));
  L->mg = mg;
  TRY(hcl_mg_precond_create(mg, pc));
cleanup:
  if (status != HCL_OK) {
    L->mg = NULL;
  }
  return status;
}

/* The operator on Phi's layout and the Krylov method with its preconditioner. */
static HclStatus make_solver(Laplace *L, const double *h) {
  HclStatus status = HCL_OK;
  Precond *pc = NULL;
  FieldSpec spec = {.nz = L->config.nz + 1, .ghost = L->radius, .precision = L->outer};
  TRY(hcl_vspace_create_fields(L->rt, L->decomp, &spec, &L->space));
  hcl_vspace_set_ghost_fill(L->space, mirror_ghosts, L->mirror,
                            hcl_mirror_sides(L->decomp) & (HALO_WEST | HALO_EAST | HALO_SOUTH | HALO_NORTH));
  TRY(hcl_vec_wrap_field(L->space, L->phi3, &L->phi));
  TRY(hcl_operator_create(&OPERATOR_OPS, L, L->space, false, &L->op));
  KrylovOptions options = L->config.krylov;
  options.prefix = L->config.prefix;
  TRY(hcl_krylov_create(&options, &L->krylov));
  if (L->config.preconditioner == LAPLACE_MG) {
    TRY(make_multigrid(L, h, &pc));
  } else {
    TRY(hcl_precond_none(&pc));
  }
  hcl_krylov_set_precond(L->krylov, pc);
  hcl_krylov_set_operator(L->krylov, L->op);
  TRY(hcl_krylov_setup(L->krylov));
cleanup:
  return status;
}

HclStatus hcl_laplace_create(Runtime *rt, const Decomp *decomp, const LaplaceConfig *config, const double *h,
                             Laplace **out) {
  HclStatus status = HCL_OK;
  Laplace *L = NULL;
  const DecompSpec *g = hcl_decomp_spec(decomp);
  const DeviceInfo *dev = hcl_runtime_device(rt);
  *out = NULL;
  TRY(hcl_laplace_check(config, g->nx, g->ny, NULL));
  REQUIRE(config->precision == LAPLACE_SINGLE || dev->fp64, HCL_ENODEVICE,
          "device '%s' has no fp64 for the %s Laplace solver; use %sprecision single", dev->device_name,
          config->precision == LAPLACE_DOUBLE ? "double" : "mixed", config->prefix);
  TRY(check_depth(decomp, h));
  TRY_ALLOC(L, 1);
  L->rt = rt;
  L->decomp = decomp;
  L->config = *config;
  L->outer = config->precision == LAPLACE_SINGLE ? PRECISION_SINGLE : PRECISION_DOUBLE;
  L->inner = config->precision == LAPLACE_DOUBLE ? PRECISION_DOUBLE : PRECISION_SINGLE;
  L->radius = config->order / 2;
  L->width = config->order + 1;
  L->col_planes = COL_PLANES + (config->map ? MAPPING_PLANES : 0);
  TRY_ALLOC(L->sigma, config->nz);
  make_sigma(config, L->sigma);
  TRY(hcl_mirror_create(rt, &L->mirror));
  TRY_ALLOC(L->vertical_first, config->nz + 1);
  TRY(make_stencils(L, L->vertical_first));
  TRY(build(L, L->vertical_first));
  TRY(make_fields(L, h));
  TRY(make_solver(L, h));
  *out = L;
  L = NULL;
cleanup:
  hcl_laplace_destroy(&L);
  return status;
}

void hcl_laplace_destroy(Laplace **laplace) {
  if (!laplace || !*laplace) {
    return;
  }
  Laplace *L = *laplace;
  hcl_krylov_destroy(&L->krylov); /* the preconditioner and the levels with it */
  hcl_operator_destroy(&L->op);
  hcl_vec_destroy(&L->phi);
  hcl_vec_destroy(&L->residual);
  hcl_vspace_destroy(&L->space);
  hcl_halo_destroy(&L->eta_halo);
  Field *fields[] = {L->phi3, L->eta, L->h, L->depth, L->col, L->w, L->source};
  for (size_t f = 0; f < sizeof fields / sizeof *fields; f++) {
    hcl_field_destroy(&fields[f]);
  }
  if (L->horizontal) {
    clReleaseMemObject(L->horizontal);
  }
  if (L->vertical) {
    clReleaseMemObject(L->vertical);
  }
  hcl_program_release(&L->program, L->kernels, NKERNELS);
  hcl_mirror_destroy(&L->mirror);
  free(L->sigma);
  free(L->vertical_first);
  free(L);
  *laplace = NULL;
}

/* ---- launches ---- */

/* The launch shape of a kernel over the owned columns. */
static KernelShape owned_grid(const Laplace *L) {
  const DecompLocal *l = hcl_decomp_local(L->decomp);
  return hcl_kernel_grid(L->rt, l->nx, l->ny, WG_X, WG_Y);
}

static void arg_shape(KernelArgs *a, const Laplace *L) {
  hcl_arg_int(a, hcl_decomp_local(L->decomp)->nx);
  hcl_arg_int(a, hcl_decomp_local(L->decomp)->ny);
  hcl_arg_int(a, hcl_field_pitch(L->phi3));
  hcl_arg_ulong(a, (size_t)hcl_field_pitch(L->phi3) * hcl_field_rows(L->phi3));
}

static double column_points(const Laplace *L) {
  return (double)hcl_decomp_local(L->decomp)->nx * hcl_decomp_local(L->decomp)->ny;
}

static double outer_bytes(const Laplace *L) {
  return (double)hcl_precision_bytes(L->outer);
}

static HclStatus check_input(Laplace *L, Field *f, const char *what) {
  HclStatus status = HCL_OK;
  REQUIRE(hcl_field_decomp(f) == L->decomp && hcl_field_nz(f) == 1 && hcl_field_precision(f) == L->outer, HCL_EINTERNAL,
          "laplace: %s must be a 2D %s field on the solver's decomposition (got '%s': %d planes, %s)", what,
          hcl_precision_name(L->outer), hcl_field_name(f), hcl_field_nz(f), hcl_precision_name(hcl_field_precision(f)));
cleanup:
  return status;
}

/* dst plane dst_plane (Phi's layout) = a 2D field of the outer precision. */
static HclStatus copy_plane(Laplace *L, Field *dst, int dst_plane, Field *src) {
  KernelArgs a = hcl_kernel_args(L->kernels[K_COPY_PLANE]);
  hcl_arg_mem(&a, hcl_field_buffer(dst));
  hcl_arg_int(&a, dst_plane);
  hcl_arg_mem(&a, hcl_field_buffer(src));
  hcl_arg_int(&a, hcl_field_pitch(src));
  hcl_arg_int(&a, hcl_field_ghost(src));
  arg_shape(&a, L);
  return hcl_kernel_launch(L->rt, &a, owned_grid(L), 2 * column_points(L) * outer_bytes(L));
}

/* The coefficients of eq. 5 from eta, and Phi's surface plane from phi. */
/* HCL_EDATA where a water column of the last prepare vanished (eta + h <= 0, or not finite), its message replacing
 * any earlier one (the failed solve's it explains). */
static HclStatus check_columns(Laplace *L) {
  HclStatus status = HCL_OK;
  double shallowest = 0;
  TRY(hcl_reduce_min(hcl_vspace_reducer(L->space), hcl_field_span(L->depth), &shallowest));
  if (!(shallowest > 0)) {
    hcl_status_clear();
    FAIL(HCL_EDATA,
         "the water column eta + h falls to %g: the free surface reached the bottom (or eta is not finite), which "
         "the potential-flow solver cannot represent",
         shallowest);
  }
cleanup:
  return status;
}

static HclStatus prepare(Laplace *L, Field *eta, Field *phi) {
  HclStatus status = HCL_OK;
  TRY(check_input(L, eta, "eta"));
  TRY(check_input(L, phi, "phi"));
  TRY(copy_plane(L, L->eta, 0, eta));
  TRY(hcl_mirror_exchange(L->mirror, L->eta_halo, L->eta));
  KernelArgs a = hcl_kernel_args(L->kernels[K_COLUMNS]);
  hcl_arg_mem(&a, hcl_field_buffer(L->col));
  hcl_arg_mem(&a, hcl_field_buffer(L->depth));
  hcl_arg_mem(&a, hcl_field_buffer(L->eta));
  hcl_arg_mem(&a, hcl_field_buffer(L->h));
  arg_shape(&a, L);
  hcl_arg_mem(&a, L->horizontal);
  TRY(hcl_kernel_launch(L->rt, &a, owned_grid(L), (2 + 1 + L->col_planes) * column_points(L) * outer_bytes(L)));
  TRY(copy_plane(L, L->phi3, L->config.nz, phi));
  hcl_vec_touch(L->phi);
cleanup:
  return status;
}

/* ---- the operator (operator.h) ---- */

/* One of the column kernels on x (Phi's layout; its ghosts exchanged meanwhile unless current) into out, any layout
 * of the outer precision (kernel k_outer) or the V-cycle's (k_inner): the defect f - A x with or without the
 * sources, the right-hand side b (x taken as zero below the surface) or the product A x. */
static HclStatus column_kernel(Laplace *L, int k_outer, int k_inner, Vec *x, bool with_source, Vec *out) {
  HclStatus status = HCL_OK;
  Span o = hcl_vec_span(out);
  ASSERT(o.nz == (size_t)L->config.nz + 1 && o.nx == (size_t)hcl_decomp_local(L->decomp)->nx);
  KernelArgs a = hcl_kernel_args(L->kernels[o.precision == L->outer ? k_outer : k_inner]);
  hcl_arg_mem(&a, o.buffer);
  hcl_arg_mem(&a, hcl_vec_buffer(x));
  hcl_arg_mem(&a, hcl_field_buffer(L->col));
  hcl_arg_mem(&a, hcl_field_buffer(L->source && with_source ? L->source : L->phi3));
  hcl_arg_int(&a, L->source && with_source);
  arg_shape(&a, L);
  hcl_arg_ulong(&a, o.base);
  hcl_arg_int(&a, (int)o.pitch);
  hcl_arg_ulong(&a, o.plane);
  hcl_arg_mem(&a, L->horizontal);
  hcl_arg_mem(&a, L->vertical);
  double planes = L->config.nz + 1;
  BoxKernel launch = {L->rt, a, WG_X, WG_Y,
                      planes * (outer_bytes(L) + (double)hcl_precision_bytes(o.precision)) +
                          (L->col_planes - (L->config.map ? 1 : 0)) * outer_bytes(L)}; /* all but the Jacobian */
  TRY(hcl_vec_ghosts_behind(x, L->radius, hcl_halo_launch_box, &launch));
  hcl_vec_touch(out);
cleanup:
  return status;
}

/* y = A x (x's surface plane zero: a correction). */
static HclStatus op_apply(void *ctx, Vec *x, Vec *y) {
  HclStatus status = HCL_OK;
  Laplace *L = ctx;
  REQUIRE(hcl_vec_span(y).precision == L->outer, HCL_EINTERNAL,
          "the Laplace operator's product goes to Phi's precision");
  TRY(column_kernel(L, K_APPLY_O, K_APPLY_O, x, false, y));
cleanup:
  return status;
}

/* r = b - A x, b the operator's own: the surface values and the sources. */
static HclStatus op_residual(void *ctx, Vec *b, Vec *x, Vec *r) {
  HclStatus status = HCL_OK;
  ASSERT(b == NULL);
  TRY(column_kernel(ctx, K_DEFECT_O, K_DEFECT_V, x, true, r));
cleanup:
  return status;
}

/* r = b, from the surface values in Phi's top plane and the sources. */
static HclStatus op_rhs(void *ctx, Vec *r) {
  Laplace *L = ctx;
  return column_kernel(L, K_SURFACE_O, K_SURFACE_V, L->phi, true, r);
}

static const OperatorOps OPERATOR_OPS = {
    .name = "the sigma-transformed Laplace operator", .apply = op_apply, .residual = op_residual, .rhs = op_rhs};

/* ---- solves ---- */

HclStatus hcl_laplace_solve(Laplace *L, Field *eta, Field *phi, LaplaceResult *result) {
  HclStatus status = HCL_OK;
  TRY(prepare(L, eta, phi));
  status = hcl_krylov_solve(L->krylov, NULL, L->phi, result);
  if (status != HCL_OK) { /* a vanished column fails the solve (columns kernel): said instead of the solve's message */
    HclStatus vanished = check_columns(L);
    status = vanished == HCL_EDATA ? vanished : status;
    goto cleanup;
  }
  KernelArgs a = hcl_kernel_args(L->kernels[K_SURFACE_W]);
  hcl_arg_mem(&a, hcl_field_buffer(L->w));
  hcl_arg_mem(&a, hcl_field_buffer(L->phi3));
  hcl_arg_mem(&a, hcl_field_buffer(L->col));
  arg_shape(&a, L);
  hcl_arg_int(&a, L->config.nz);
  hcl_arg_mem(&a, L->vertical);
  TRY(hcl_kernel_launch(L->rt, &a, owned_grid(L), (L->width + 2) * column_points(L) * outer_bytes(L)));
cleanup:
  return status;
}

/* Where hcl_laplace_compute_residual writes: the V-cycle's input, or a vector of Phi's layout without the V-cycle. */
static HclStatus residual_vector(Laplace *L, Vec **out) {
  HclStatus status = HCL_OK;
  *out = hcl_precond_input(hcl_krylov_precond(L->krylov));
  if (!*out) {
    if (!L->residual) {
      TRY(hcl_vec_create(L->space, "laplace_residual", &L->residual));
    }
    *out = L->residual;
  }
cleanup:
  return status;
}

HclStatus hcl_laplace_compute_residual(Laplace *L, Field *eta, Field *phi) {
  HclStatus status = HCL_OK;
  Vec *r = NULL;
  TRY(prepare(L, eta, phi));
  TRY(check_columns(L));
  TRY(residual_vector(L, &r));
  TRY(op_residual(L, NULL, L->phi, r));
cleanup:
  return status;
}

HclStatus hcl_laplace_sweep(Laplace *L, bool sweep, bool refresh) {
  HclStatus status = HCL_OK;
  Vec *r = NULL;
  if (refresh) {
    hcl_vec_touch(L->phi);
  }
  if (!sweep) {
    TRY(hcl_vec_ghosts(L->phi));
    goto cleanup;
  }
  TRY(residual_vector(L, &r));
  TRY(op_residual(L, NULL, L->phi, r));
cleanup:
  return status;
}

HclStatus hcl_laplace_set_source(Laplace *L, const double *source) {
  HclStatus status = HCL_OK;
  double *owned = NULL;
  const DecompLocal *l = hcl_decomp_local(L->decomp);
  size_t plane = (size_t)l->nx * l->ny, n = plane * (L->config.nz + 1);
  hcl_field_destroy(&L->source);
  if (!source) {
    goto cleanup;
  }
  TRY_ALLOC(owned, n);
  memcpy(owned, source, sizeof *owned * (n - plane)); /* the top plane stays zero */
  TRY(make_field(L, "laplace_source", L->config.nz + 1, &L->source));
  TRY(hcl_field_write_owned(L->source, owned));
cleanup:
  free(owned);
  return status;
}

HclStatus hcl_laplace_set_potential(Laplace *L, const double *potential) {
  hcl_vec_touch(L->phi);
  return hcl_field_write_owned(L->phi3, potential);
}

Field *hcl_laplace_potential(Laplace *L) {
  return L->phi3;
}

Field *hcl_laplace_residual(Laplace *L) {
  Vec *r = hcl_precond_input(hcl_krylov_precond(L->krylov));
  return r ? hcl_vec_field(r) : L->residual ? hcl_vec_field(L->residual) : NULL;
}

Field *hcl_laplace_w(Laplace *L) {
  return L->w;
}

const double *hcl_laplace_sigma(const Laplace *L) {
  return L->sigma;
}

cl_mem hcl_laplace_sigma_stencils(const Laplace *L) {
  return L->vertical;
}

const int *hcl_laplace_sigma_stencil_first(const Laplace *L) {
  return L->vertical_first;
}

int hcl_laplace_levels(const Laplace *L) {
  return L->mg ? hcl_mg_levels(L->mg) : 0;
}

HclStatus hcl_laplace_describe_levels(const Laplace *L, char **text) {
  HclStatus status = HCL_OK;
  int n = hcl_laplace_levels(L);
  TRY_ALLOC(*text, (size_t)n * 64 + 16);
  snprintf(*text, 16, "%s", n ? "" : "no multigrid\n");
  size_t used = strlen(*text);
  for (int l = 0; l < n; l++) {
    int nx, ny, nz;
    hcl_mg_level_shape(L->mg, l, &nx, &ny, &nz);
    used += (size_t)snprintf(*text + used, 64, "level %d: %d x %d x %d\n", l, nx, ny, nz);
  }
cleanup:
  return status;
}

/* The Krylov method's own vectors of Phi's layout: GMRES's basis and z; defect correction's residual and correction
 * and the right-hand side's only without the V-cycle, whose own it uses (krylov.c). */
static int krylov_vectors(const LaplaceConfig *c) {
  if (c->krylov.method == KRYLOV_GMRES) {
    return c->krylov.restart + 2; /* the basis, and z (with the V-cycle) or b (without: M^-1 v is v itself) */
  }
  return c->preconditioner == LAPLACE_MG ? 0 : 2;
}

double hcl_laplace_device_bytes(const Laplace *L) {
  double bytes = L->mg ? hcl_mg_device_bytes(L->mg) : 0;
  Field *fields[] = {L->phi3, L->eta, L->h, L->depth, L->col, L->w, L->source};
  for (size_t f = 0; f < sizeof fields / sizeof *fields; f++) {
    if (fields[f]) {
      bytes += (double)hcl_field_count(fields[f]) * hcl_precision_bytes(hcl_field_precision(fields[f]));
    }
  }
  return bytes + krylov_vectors(&L->config) * (double)hcl_field_count(L->phi3) * outer_bytes(L);
}
