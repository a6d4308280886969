/* SPDX-License-Identifier: BSD-3-Clause */
/* swe.c: state, kernels and step ordering of the explicit shallow-water solver (see swe.h and kernels_cl/swe.cl). */
#include "swe.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clerror.h"
#include "halo.h"
#include "kernel.h"
#include "log.h"
#include "program.h"
#include "reduce.h"
#include "swe_kernel_args.h"
#include "swe_implicit.h"

enum { GHOST = SWE_GHOST, WG_X = 32, WG_Y = 4 }; /* the other kernels' work-groups */
enum {
  KERNEL_HANSEN,
  KERNEL_SIELECKI,
  KERNEL_U,
  KERNEL_V,
  KERNEL_ZETA,
  KERNEL_BOUNDARY,
  KERNEL_SPEED,
  KERNEL_CENTRE,
  KERNEL_MAXIMA,
  KERNEL_MAXIMA_OUTPUT,
  KERNEL_ADD_WATER,
  EXPLICIT_KERNELS
};
enum { NKERNELS = EXPLICIT_KERNELS + SWE_IMPLICIT_KERNELS }; /* the implicit scheme's follow (swe_implicit.h) */
static const char *const explicit_kernel_names[EXPLICIT_KERNELS] = {
    "step_hansen",   "step_sielecki",     "u_step",        "v_step",   "zeta_step", "zeta_boundary", "wave_speed",
    "centre_fields", "accumulate_maxima", "maxima_output", "add_water"};

/* Two copies of each prognostic field: one holds step n, the other receives n + 1. */
struct Swe {
  Runtime *rt;
  const Decomp *decomp;
  SweConfig config;
  Field *zeta[2], *u[2], *v[2]; /* u and v carry their faces' wet flags (-0: dry; kernels_cl/swe.cl) */
  Field *depth, *speed;
  Field *friction_map;                   /* config.friction_map: the cells' friction coefficients; NULL without */
  Field *good[SWE_STATE_FIELDS];         /* hcl_swe_checkpoint's copy of the state, created on first use */
  Field *maxima[SWE_MAXIMA_FIELDS];      /* hcl_swe_enable_maxima's accumulators; NULL without */
  Field *maxima_good[SWE_MAXIMA_FIELDS]; /* and their copy at the checkpoint */
  int current;                           /* which copy holds the present state */
  bool has_level_sides;                  /* a side on which zeta_boundary sets the level */
  double levels[SWE_SIDES];              /* the water-level sides' levels at the end of the next step */
  bool fused;                            /* the explicit step in one kernel, else three (choose_step) */
  int tile[2];                           /* the one kernel's work-group */
  Halo *halo_state[2], *halo_all;
  Halo *halo_zeta[2];    /* the level alone, after water is added; made on first use */
  Halo *state_in_flight; /* the last step's exchange of the new state, ended by the next step or settle */
  Reducer *reducer;
  SweImplicit *implicit; /* the implicit scheme's step, NULL for the explicit scheme */
  cl_program program;
  cl_kernel kernels[NKERNELS];
};

/* The fields hcl_swe_create makes: zeta, u, v twice, depth and the wave speed, and hcl_swe_checkpoint's copy of the state;
 * all with GHOST layers. */
enum { SOLVER_FIELDS = 2 * SWE_STATE_FIELDS + 2 + SWE_STATE_FIELDS };

double hcl_swe_device_bytes(int nx, int ny, Precision precision, SweScheme scheme, double *largest_field) {
  *largest_field = (double)(nx + 2 * GHOST) * (ny + 2 * GHOST) * (double)hcl_precision_bytes(precision);
  double implicit = scheme == SWE_SCHEME_IMPLICIT ? swe_implicit_bytes(nx, ny, precision) : 0;
  return SOLVER_FIELDS * *largest_field + implicit;
}

/* The field the kernels' friction_map argument names: the map, or where there is none any field (never read). */
static Field *friction_field(const Swe *s) {
  return s->friction_map ? s->friction_map : s->depth;
}

static HclStatus make_field(Swe *s, const char *name, Field **f) {
  FieldSpec spec = {.name = name, .nz = 1, .ghost = GHOST, .precision = s->config.precision};
  return hcl_field_create(s->rt, s->decomp, &spec, f);
}

/* What the step must move per cell-update: zeta, u and v read and written once, the bed read once; and what its
 * three kernels move on CPUs, each reading its inputs once (u_step, v_step, zeta_step: 4 in, 1 out). */
enum { STEP_REALS = 7, SPLIT_REALS = 15 };

/* How the explicit step runs (kernels_cl/swe.cl): in one kernel on GPUs, in three on CPUs, unless HYDROCL_SWE_STEP
 * says fused or split (for tests and measurements); the one kernel's work-group, a tile of cells, 32 x 8 unless
 * HYDROCL_SWE_TILE=WxH says otherwise, never above the device's work-group limit. */
static void choose_step(Swe *s) {
  const char *step = getenv("HYDROCL_SWE_STEP");
  s->fused = step && strcmp(step, "fused") == 0   ? true
             : step && strcmp(step, "split") == 0 ? false
                                                  : !hcl_runtime_exact_grid(hcl_runtime_device(s->rt));
  int w = 32, h = 8;
  const char *given = getenv("HYDROCL_SWE_TILE");
  if (given && (sscanf(given, "%dx%d", &w, &h) != 2 || w < 1 || h < 1)) {
    hcl_log_warn("HYDROCL_SWE_TILE=%s is not WxH with W, H >= 1: the step takes 32 x 8", given);
    w = 32;
    h = 8;
  }
  size_t most = hcl_runtime_device(s->rt)->max_work_group_size;
  while ((size_t)w * (size_t)h > most && h > 1) {
    h /= 2;
  }
  s->tile[0] = w;
  s->tile[1] = h;
}

/* Every face of f dry (-0), ghosts included: the faces beyond a closed side are never written, and stay walls. */
static HclStatus mark_dry(Field *f) {
  HclStatus status = HCL_OK;
  double *all = NULL;
  TRY_ALLOC(all, hcl_field_count(f));
  for (size_t p = 0; p < hcl_field_count(f); p++) {
    all[p] = -0.0;
  }
  TRY(hcl_field_write_ghosted(f, all));
cleanup:
  free(all);
  return status;
}

static HclStatus make_halos(Swe *s) {
  HclStatus status = HCL_OK;
  for (int c = 0; c < 2; c++) {
    Field *state[] = {s->zeta[c], s->u[c], s->v[c]};
    TRY(hcl_halo_create(state, SWE_STATE_FIELDS, &s->halo_state[c]));
  }
  Field *all[] = {s->zeta[0], s->u[0], s->v[0], s->depth};
  TRY(hcl_halo_create(all, SWE_STATE_FIELDS + 1, &s->halo_all));
cleanup:
  return status;
}

HclStatus hcl_swe_create(Runtime *rt, const Decomp *decomp, const SweConfig *config, Swe **out) {
  HclStatus status = HCL_OK;
  Swe *s = NULL;
  *out = NULL;
  REQUIRE(config->precision == PRECISION_SINGLE || hcl_runtime_device(rt)->fp64, HCL_ENODEVICE,
          "device '%s' has no fp64 for a double-precision run; use --precision single",
          hcl_runtime_device(rt)->device_name);
  TRY_ALLOC(s, 1);
  s->rt = rt;
  s->decomp = decomp;
  s->config = *config;
  for (int c = 0; c < 2; c++) { /* both copies carry the state's names: restarts and output know them so */
    TRY(make_field(s, "zeta", &s->zeta[c]));
    TRY(make_field(s, "u", &s->u[c]));
    TRY(make_field(s, "v", &s->v[c]));
    TRY(mark_dry(s->u[c]));
    TRY(mark_dry(s->v[c]));
  }
  choose_step(s);
  for (int side = 0; side < SWE_SIDES; side++) {
    s->has_level_sides =
        s->has_level_sides || config->sides[side] == SWE_SIDE_LEVEL || config->sides[side] == SWE_SIDE_WEAK_LEVEL;
  }
  TRY(make_field(s, "depth", &s->depth));
  TRY(make_field(s, "wave_speed", &s->speed));
  if (config->friction_map) {
    TRY(make_field(s, "friction_map", &s->friction_map));
  }
  TRY(make_halos(s));
  TRY(hcl_reducer_create(rt, decomp, &s->reducer));
  char physics[96]; /* the kernels are built for the case's friction law and advection form (kernels_cl/swe.cl) */
  snprintf(physics, sizeof physics, "-DFRICTION=%d -DFRICTION_MAP=%d -DMOMENTUM_ADVECTION=%d", (int)config->friction,
           config->friction_map, config->advection == SWE_ADVECTION_MOMENTUM);
  KernelConfig kc = {
      .precision = config->precision, .stencil_radius = GHOST, .wg_x = WG_X, .wg_y = WG_Y, .defines = physics};
  const char *names[NKERNELS];
  memcpy(names, explicit_kernel_names, sizeof explicit_kernel_names);
  memcpy(names + EXPLICIT_KERNELS, swe_implicit_kernel_names, sizeof swe_implicit_kernel_names);
  bool implicit = config->scheme == SWE_SCHEME_IMPLICIT;
  TRY(hcl_program_build_kernels(rt, "swe", &kc, names, implicit ? NKERNELS : EXPLICIT_KERNELS, &s->program,
                                s->kernels));
  if (implicit) {
    SweState state[2];
    for (int c = 0; c < 2; c++) {
      state[c] = (SweState){s->zeta[c], s->u[c], s->v[c]};
    }
    TRY(swe_implicit_create(rt, decomp, config, state, s->depth, friction_field(s), s->kernels + EXPLICIT_KERNELS,
                            &s->implicit));
  }
  *out = s;
  s = NULL;
cleanup:
  hcl_swe_destroy(&s);
  return status;
}

void hcl_swe_destroy(Swe **swe) {
  if (!swe || !*swe) {
    return;
  }
  Swe *s = *swe;
  swe_implicit_destroy(&s->implicit);
  hcl_program_release(&s->program, s->kernels, NKERNELS);
  hcl_reducer_destroy(&s->reducer);
  for (int c = 0; c < 2; c++) {
    hcl_halo_destroy(&s->halo_state[c]);
    hcl_halo_destroy(&s->halo_zeta[c]);
    hcl_field_destroy(&s->zeta[c]);
    hcl_field_destroy(&s->u[c]);
    hcl_field_destroy(&s->v[c]);
  }
  hcl_halo_destroy(&s->halo_all);
  for (int f = 0; f < SWE_STATE_FIELDS; f++) {
    hcl_field_destroy(&s->good[f]);
  }
  for (int f = 0; f < SWE_MAXIMA_FIELDS; f++) {
    hcl_field_destroy(&s->maxima[f]);
    hcl_field_destroy(&s->maxima_good[f]);
  }
  hcl_field_destroy(&s->depth);
  hcl_field_destroy(&s->speed);
  hcl_field_destroy(&s->friction_map);
  free(s);
  *swe = NULL;
}

/* Ends the last step's state exchange if it is still in flight: every entry point that reads the state's ghosts or
 * exchanges it calls this first. */
static HclStatus settle(Swe *s) {
  Halo *pending = s->state_in_flight;
  s->state_in_flight = NULL;
  return pending ? hcl_halo_end(pending) : HCL_OK;
}

/* Writes the owned values of the state into copy 0 and fills every ghost layer. */
static HclStatus write_state(Swe *s, const double *depth, const double *const state[SWE_STATE_FIELDS]) {
  HclStatus status = HCL_OK;
  Field *fields[SWE_STATE_FIELDS] = {s->zeta[0], s->u[0], s->v[0]};
  s->current = 0;
  TRY(hcl_field_write_owned(s->depth, depth));
  for (int f = 0; f < SWE_STATE_FIELDS; f++) {
    TRY(hcl_field_write_owned(fields[f], state[f]));
  }
  TRY(hcl_halo_exchange(s->halo_all));
cleanup:
  return status;
}

/* A face velocity as the state's first: every face wet (the first step sets the flags), so a -0 becomes +0. */
static double wet_velocity(const double *given, size_t p) {
  return given ? given[p] + 0.0 : 0.0;
}

HclStatus hcl_swe_set_state(Swe *s, const double *depth, const double *zeta, const double *u, const double *v) {
  HclStatus status = HCL_OK;
  double *level = NULL, *u_wet = NULL, *v_wet = NULL;
  size_t n = (size_t)hcl_field_nx(s->depth) * hcl_field_ny(s->depth);
  TRY(settle(s));
  TRY_ALLOC(level, n);
  TRY_ALLOC(u_wet, n);
  TRY_ALLOC(v_wet, n);
  for (size_t p = 0; p < n; p++) {
    level[p] = zeta[p] + depth[p] < 0 ? -depth[p] : zeta[p]; /* below the bed: dry at the bed */
    u_wet[p] = wet_velocity(u, p);
    v_wet[p] = wet_velocity(v, p);
  }
  const double *state[SWE_STATE_FIELDS] = {level, u_wet, v_wet};
  TRY(write_state(s, depth, state));
cleanup:
  free(level);
  free(u_wet);
  free(v_wet);
  return status;
}

HclStatus hcl_swe_set_friction(Swe *s, const double *coefficients) {
  HclStatus status = HCL_OK;
  Halo *halo = NULL;
  REQUIRE(s->friction_map != NULL, HCL_EINTERNAL, "hcl_swe_set_friction on a solver made without a friction map");
  TRY(hcl_field_write_owned(s->friction_map, coefficients));
  TRY(hcl_halo_create(&s->friction_map, 1, &halo)); /* a face on a rank's edge takes its neighbour's cell */
  TRY(hcl_halo_exchange(halo));
cleanup:
  hcl_halo_destroy(&halo);
  return status;
}

HclStatus hcl_swe_sync_state(Swe *s) {
  HclStatus status = HCL_OK;
  TRY(settle(s));
  Field *state[SWE_STATE_FIELDS];
  hcl_swe_state_fields(s, state);
  Halo *halo = NULL;
  TRY(hcl_halo_create(state, SWE_STATE_FIELDS, &halo));
  TRY(hcl_halo_exchange(halo));
cleanup:
  hcl_halo_destroy(&halo);
  return status;
}

void hcl_swe_state_fields(Swe *s, Field *fields[SWE_STATE_FIELDS]) {
  int c = s->current;
  Field *state[SWE_STATE_FIELDS] = {s->zeta[c], s->u[c], s->v[c]};
  memcpy(fields, state, sizeof state);
}

void hcl_swe_set_levels(Swe *s, const double level[SWE_SIDES]) {
  memcpy(s->levels, level, sizeof s->levels);
}

/* One launch of a kernel over the owned cells: the kernel, its leading buffer arguments, the time step, the traffic
 * per cell in REALs (each kernel reads its inputs once and writes its outputs once) and the last argument of
 * wave_speed (with_waves) and centre_fields (mask_dry). */
typedef struct {
  Swe *swe;
  int kernel;
  Field *const *fields;
  int nfields;
  double dt, reals_per_cell;
  bool last_flag;
} SweLaunch;

static HclStatus launch_owned(const SweLaunch *c) {
  Swe *s = c->swe;
  const DecompLocal *l = hcl_decomp_local(s->decomp);
  KernelArgs a = hcl_kernel_args(s->kernels[c->kernel]);
  for (int i = 0; i < c->nfields; i++) {
    hcl_arg_mem(&a, hcl_field_buffer(c->fields[i]));
  }
  swe_arg_common(&a, s->decomp, &s->config, hcl_field_pitch(s->depth), c->dt, friction_field(s));
  if (c->kernel == KERNEL_SPEED || c->kernel == KERNEL_CENTRE) {
    hcl_arg_int(&a, c->last_flag);
  }
  if (c->kernel == KERNEL_BOUNDARY) { /* 1D over the edge cells, few: the driver chooses the work-groups */
    swe_arg_sides(&a, s->decomp, &s->config, s->levels, true);
    return hcl_kernel_launch(s->rt, &a, hcl_kernel_box(1, 2 * (size_t)l->nx + 2 * (size_t)l->ny, 1, 1), 0.0);
  }
  KernelShape shape = hcl_kernel_grid(s->rt, l->nx, l->ny, WG_X, WG_Y);
  double bytes = c->reals_per_cell * (double)l->nx * l->ny * (double)hcl_precision_bytes(s->config.precision);
  return hcl_kernel_launch(s->rt, &a, shape, bytes);
}

static HclStatus launch_speed(Swe *s, int k, Field *const *fields, int nfields, double dt, double reals_per_cell,
                              bool last_flag) {
  SweLaunch c = {s, k, fields, nfields, dt, reals_per_cell, last_flag};
  return launch_owned(&c);
}

static HclStatus launch(Swe *s, int k, Field *const *fields, int nfields, double dt, double reals_per_cell) {
  return launch_speed(s, k, fields, nfields, dt, reals_per_cell, false);
}

/* ---- the explicit step ---- */

/* How far the step's result at a cell reaches into the state at n: the second-order cross terms two faces away,
 * and under the Sielecki ordering those of the new u beside a new v, one more. */
static int step_reach(const Swe *s) {
  return s->config.ordering == SWE_ORDERING_SIELECKI ? 3 : 2;
}

/* The step from copy c into copy n over a box of owned cells. */
typedef struct {
  Swe *swe;
  int c, n;
  double dt;
} StepLaunch;

static size_t round_up(int n, int m) {
  return ((size_t)n + (size_t)m - 1) / (size_t)m * (size_t)m;
}

static HclStatus launch_step(void *context, CellBox box) {
  const StepLaunch *k = context;
  Swe *s = k->swe;
  const int w = s->tile[0], h = s->tile[1], c = k->c, n = k->n;
  const size_t real = hcl_precision_bytes(s->config.precision);
  bool sielecki = s->config.ordering == SWE_ORDERING_SIELECKI;
  KernelArgs a = hcl_kernel_args(s->kernels[sielecki ? KERNEL_SIELECKI : KERNEL_HANSEN]);
  Field *fields[] = {s->zeta[c], s->depth, s->u[c], s->v[c], s->u[n], s->v[n], s->zeta[n]};
  for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
    hcl_arg_mem(&a, hcl_field_buffer(fields[f]));
  }
  hcl_arg_local(&a, (size_t)(w + 1) * (size_t)(h + (sielecki ? 2 : 0)) * real); /* u_tile */
  hcl_arg_local(&a, (size_t)w * (size_t)(h + 1) * real);                        /* v_tile */
  hcl_arg_int(&a, box.x0 + box.nx);
  hcl_arg_int(&a, box.y0 + box.ny);
  swe_arg_common(&a, s->decomp, &s->config, hcl_field_pitch(s->depth), k->dt, friction_field(s));
  KernelShape shape = {.dims = 2,
                       .offset = {(size_t)box.x0, (size_t)box.y0},
                       .global = {round_up(box.nx, w), round_up(box.ny, h)},
                       .local = {(size_t)w, (size_t)h},
                       .has_local = true};
  double bytes = STEP_REALS * (double)box.nx * box.ny * (double)real;
  return hcl_kernel_launch(s->rt, &a, shape, bytes);
}

/* The step over the owned cells: while the last step's state exchange (pending, or NULL) ends, over the cells that
 * read no ghost of it first, then over the strips along the sides (hcl_halo_parts). */
static HclStatus launch_step_behind(Swe *s, Halo *pending, StepLaunch *step) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = hcl_decomp_local(s->decomp);
  CellBox parts[HALO_PARTS_MOST] = {{0, 0, 0, 0}, {0, 0, l->nx, l->ny}};
  int n = pending ? hcl_halo_parts(pending, step_reach(s), 0, parts) : 2;
  for (int k = 0; k < n; k++) {
    if (k == 1 && pending) {
      TRY(hcl_halo_end(pending));
    }
    if (parts[k].nx > 0 && parts[k].ny > 0) {
      TRY(launch_step(step, parts[k]));
    }
  }
cleanup:
  return status;
}

/* A momentum kernel of the three-kernel step (CPUs) over the faces (i_first, j_first) .. (i_end - 1, j_end - 1),
 * reading zeta, depth, the velocities of its transverse means and its own, and writing new. */
static HclStatus launch_face_kernel(Swe *s, int kernel, const CellBox faces, Field *const fields[5], double dt) {
  KernelArgs a = hcl_kernel_args(s->kernels[kernel]);
  for (int f = 0; f < 5; f++) {
    hcl_arg_mem(&a, hcl_field_buffer(fields[f]));
  }
  hcl_arg_int(&a, faces.x0);
  hcl_arg_int(&a, faces.y0);
  hcl_arg_int(&a, faces.x0 + faces.nx);
  hcl_arg_int(&a, faces.y0 + faces.ny);
  swe_arg_common(&a, s->decomp, &s->config, hcl_field_pitch(s->depth), dt, friction_field(s));
  KernelShape shape = hcl_kernel_grid(s->rt, faces.nx, faces.ny, WG_X, WG_Y);
  double bytes = SPLIT_REALS / 3.0 * faces.nx * faces.ny * (double)hcl_precision_bytes(s->config.precision);
  return hcl_kernel_launch(s->rt, &a, shape, bytes);
}

/* The step as u_step, v_step and zeta_step (CPUs: kernels_cl/swe.cl says why), the state's exchange ended first. The
 * new u also on the west rim (and the rows below and above under the Sielecki ordering, for v), the new v also on
 * the south rim, as the tiles of step_hansen and step_sielecki compute them. */
static HclStatus split_step(Swe *s, Halo *pending, int c, int n, double dt) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = hcl_decomp_local(s->decomp);
  bool sielecki = s->config.ordering == SWE_ORDERING_SIELECKI;
  if (pending) {
    TRY(hcl_halo_end(pending));
  }
  Field *u_fields[] = {s->zeta[c], s->depth, s->u[c], s->v[c], s->u[n]};
  Field *v_fields[] = {s->zeta[c], s->depth, sielecki ? s->u[n] : s->u[c], s->v[c], s->v[n]};
  CellBox u_faces = {-1, sielecki ? -1 : 0, l->nx + 1, l->ny + (sielecki ? 2 : 0)};
  TRY(launch_face_kernel(s, KERNEL_U, u_faces, u_fields, dt));
  TRY(launch_face_kernel(s, KERNEL_V, (CellBox){0, -1, l->nx, l->ny + 1}, v_fields, dt));
  Field *z_fields[] = {s->zeta[c], s->depth, s->u[n], s->v[n], s->zeta[n]};
  TRY(launch(s, KERNEL_ZETA, z_fields, 5, dt, 5.0));
cleanup:
  return status;
}

/* Starts the exchange of the new state, left in flight for the next step to hide behind its interior (hcl_halo_parts)
 * where there is one, else completed here. */
static HclStatus exchange_state(Swe *s, Halo *halo) {
  CellBox parts[HALO_PARTS_MOST];
  hcl_halo_parts(halo, step_reach(s), 0, parts);
  if (parts[0].nx == 0 || parts[0].ny == 0) {
    return hcl_halo_exchange(halo);
  }
  HclStatus status = hcl_halo_begin(halo);
  s->state_in_flight = status == HCL_OK ? halo : NULL;
  return status;
}

/* One step. The explicit step is one kernel (step_hansen or step_sielecki; three on CPUs), the water-level sides'
 * cells after it;
 * the new state's exchange travels while the next step computes the cells away from other ranks (settle ends it
 * for everything else). The fields are the same bits as exchanging first: the kernel writes only what it does not
 * read. */
HclStatus hcl_swe_step(Swe *s, double dt) {
  HclStatus status = HCL_OK;
  int c = s->current, n = 1 - c;
  Halo *pending = s->state_in_flight;
  s->state_in_flight = NULL;
  if (s->implicit) {
    TRY(swe_implicit_step(s->implicit, c, dt, s->levels));
    s->current = n;
    goto cleanup;
  }
  if (!s->fused) {
    TRY(split_step(s, pending, c, n, dt));
  } else {
    StepLaunch step = {s, c, n, dt};
    TRY(launch_step_behind(s, pending, &step));
  }
  pending = NULL;
  if (s->has_level_sides) {
    Field *z_args[] = {s->zeta[c], s->depth, s->u[n], s->v[n], s->zeta[n]};
    TRY(launch(s, KERNEL_BOUNDARY, z_args, 5, dt, 0.0));
  }
  TRY(exchange_state(s, s->halo_state[n]));
  s->current = n;
cleanup:
  if (status != HCL_OK && pending) {
    hcl_halo_cancel(pending);
  }
  return status;
}

SweStepShape hcl_swe_step_shape(const Swe *s) {
  return (SweStepShape){s->fused, s->tile[0], s->tile[1], s->fused ? STEP_REALS : SPLIT_REALS};
}

/* add_water on global cell (gi, gj) where this rank owns it, or on every owned cell (gi < 0). */
static HclStatus launch_add_water(Swe *s, double dz, int gi, int gj) {
  const DecompLocal *l = hcl_decomp_local(s->decomp);
  int i = gi < 0 ? -1 : gi - l->x0, j = gi < 0 ? -1 : gj - l->y0;
  if (gi >= 0 && (i < 0 || i >= l->nx || j < 0 || j >= l->ny)) {
    return HCL_OK;
  }
  KernelArgs a = hcl_kernel_args(s->kernels[KERNEL_ADD_WATER]);
  hcl_arg_mem(&a, hcl_field_buffer(s->zeta[s->current]));
  hcl_arg_mem(&a, hcl_field_buffer(s->depth));
  swe_arg_common(&a, s->decomp, &s->config, hcl_field_pitch(s->depth), 0.0, friction_field(s));
  hcl_arg_real(&a, s->config.precision, dz);
  hcl_arg_int(&a, i);
  hcl_arg_int(&a, j);
  KernelShape shape = gi < 0 ? hcl_kernel_grid(s->rt, l->nx, l->ny, WG_X, WG_Y) : hcl_kernel_box(1, 1, 1, 1);
  double cells = gi < 0 ? (double)l->nx * l->ny : 1;
  return hcl_kernel_launch(s->rt, &a, shape, 3 * cells * hcl_precision_bytes(s->config.precision));
}

HclStatus hcl_swe_add_water(Swe *s, double dz, const SweWater *points, int count) {
  HclStatus status = HCL_OK;
  int c = s->current;
  TRY(settle(s));
  if (dz != 0) {
    TRY(launch_add_water(s, dz, -1, -1));
  }
  for (int k = 0; k < count; k++) {
    TRY(launch_add_water(s, points[k].dz, points[k].gi, points[k].gj));
  }
  if (!s->halo_zeta[c]) {
    TRY(hcl_halo_create(&s->zeta[c], 1, &s->halo_zeta[c]));
  }
  TRY(hcl_halo_exchange(s->halo_zeta[c]));
cleanup:
  return status;
}

HclStatus hcl_swe_settle(Swe *s) {
  return settle(s);
}

Field *hcl_swe_zeta(Swe *s) {
  return s->zeta[s->current];
}

Field *hcl_swe_u(Swe *s) {
  return s->u[s->current];
}

Field *hcl_swe_v(Swe *s) {
  return s->v[s->current];
}

Field *hcl_swe_depth(Swe *s) {
  return s->depth;
}

HclStatus hcl_swe_volume(Swe *s, double *volume) {
  HclStatus status = HCL_OK;
  TRY(settle(s));
  double sum_zeta = 0, sum_depth = 0;
  /* Dry cells hold zeta = -depth, so sum(zeta + depth) is the sum of the total depths. */
  TRY(hcl_reduce_sum(s->reducer, hcl_field_span(s->zeta[s->current]), &sum_zeta));
  TRY(hcl_reduce_sum(s->reducer, hcl_field_span(s->depth), &sum_depth));
  *volume = (sum_zeta + sum_depth) * s->config.dx * s->config.dy;
cleanup:
  return status;
}

/* The largest |velocity| (+ sqrt(g h) with waves) over the wet cells. */
static HclStatus max_speed(Swe *s, bool with_waves, double *speed) {
  HclStatus status = HCL_OK;
  TRY(settle(s));
  int c = s->current;
  Field *args[] = {s->zeta[c], s->depth, s->u[c], s->v[c], s->speed};
  TRY(launch_speed(s, KERNEL_SPEED, args, 5, 0.0, 5.0, with_waves));
  TRY(hcl_reduce_max(s->reducer, hcl_field_span(s->speed), speed));
cleanup:
  return status;
}

HclStatus hcl_swe_max_wave_speed(Swe *s, double *speed) {
  return max_speed(s, true, speed);
}

HclStatus hcl_swe_max_flow_speed(Swe *s, double *speed) {
  return max_speed(s, false, speed);
}

HclStatus hcl_swe_set_preconditioner(Swe *s, Precond *pc) {
  HclStatus status = HCL_OK;
  REQUIRE(s->implicit != NULL, HCL_EINTERNAL, "the explicit scheme has no level system to precondition");
  TRY(swe_implicit_set_precond(s->implicit, pc));
  pc = NULL;
cleanup:
  hcl_precond_destroy(&pc);
  return status;
}

KrylovOptions hcl_swe_krylov_defaults(void) {
  KrylovOptions o = hcl_krylov_options_default();
  o.norm = KRYLOV_NORM_M;
  o.rtol = 1e-5;
  o.atol = 0;
  o.max_iterations = 200;
  return o;
}

SweSolveStats hcl_swe_solve_stats(const Swe *s) {
  return s->implicit ? swe_implicit_stats(s->implicit) : (SweSolveStats){0};
}

HclStatus hcl_swe_last_residual(Swe *s, double *relative) {
  *relative = NAN;
  return s->implicit ? swe_implicit_last_residual(s->implicit, relative) : HCL_OK;
}

HclStatus hcl_swe_centre_fields(Swe *s, Field *out[SWE_CENTRE_FIELDS], bool mask_dry) {
  HclStatus status = HCL_OK;
  TRY(settle(s));
  int c = s->current;
  for (int f = 0; f < SWE_CENTRE_FIELDS; f++) {
    ASSERT(hcl_field_ghost(out[f]) == 0 && hcl_field_precision(out[f]) == s->config.precision);
  }
  Field *args[] = {s->zeta[c], s->depth, s->u[c], s->v[c], out[0], out[1], out[2], out[3], out[4]};
  TRY(launch_speed(s, KERNEL_CENTRE, args, 9, 0.0, 9.0, mask_dry));
cleanup:
  return status;
}

/* Copies fields from[0..n) to to[0..n) on the device. */
static HclStatus copy_fields(Swe *s, Field *const *from, Field *const *to, int n) {
  HclStatus status = HCL_OK;
  for (int f = 0; f < n; f++) {
    size_t bytes = hcl_field_count(from[f]) * hcl_precision_bytes(s->config.precision);
    TRY_CL(clEnqueueCopyBuffer(hcl_runtime_queue(s->rt), hcl_field_buffer(from[f]), hcl_field_buffer(to[f]), 0, 0,
                               bytes, 0, NULL, NULL));
  }
cleanup:
  return status;
}

HclStatus hcl_swe_checkpoint(Swe *s) {
  HclStatus status = HCL_OK;
  TRY(settle(s));
  static const char *const names[SWE_STATE_FIELDS] = {"zeta_good", "u_good", "v_good"};
  Field *state[SWE_STATE_FIELDS];
  for (int f = 0; f < SWE_STATE_FIELDS && !s->good[f]; f++) {
    TRY(make_field(s, names[f], &s->good[f]));
  }
  for (int f = 0; s->maxima[0] && f < SWE_MAXIMA_FIELDS && !s->maxima_good[f]; f++) {
    TRY(make_field(s, "maxima_good", &s->maxima_good[f]));
  }
  hcl_swe_state_fields(s, state);
  TRY(copy_fields(s, state, s->good, SWE_STATE_FIELDS));
  if (s->maxima[0]) {
    TRY(copy_fields(s, s->maxima, s->maxima_good, SWE_MAXIMA_FIELDS));
  }
cleanup:
  return status;
}

HclStatus hcl_swe_rollback(Swe *s) {
  HclStatus status = HCL_OK;
  TRY(settle(s));
  Field *state[SWE_STATE_FIELDS];
  ASSERT(s->good[0] != NULL);
  hcl_swe_state_fields(s, state);
  TRY(copy_fields(s, s->good, state, SWE_STATE_FIELDS));
  if (s->maxima_good[0]) {
    TRY(copy_fields(s, s->maxima_good, s->maxima, SWE_MAXIMA_FIELDS));
  }
cleanup:
  return status;
}

/* ---- maxima (output.maxima) ---- */

/* Sets the owned cells of f to value (the start of a fold). */
static HclStatus fill_field(Field *f, double value) {
  HclStatus status = HCL_OK;
  size_t n = (size_t)hcl_field_nx(f) * hcl_field_ny(f);
  double *host = NULL;
  TRY_ALLOC(host, n);
  for (size_t p = 0; p < n; p++) {
    host[p] = value;
  }
  TRY(hcl_field_write_owned(f, host));
cleanup:
  free(host);
  return status;
}

HclStatus hcl_swe_enable_maxima(Swe *s) {
  HclStatus status = HCL_OK;
  TRY(settle(s));
  static const char *const names[SWE_MAXIMA_FIELDS] = {"zeta_max", "h_max", "speed_max", "t_wet"};
  static const double start[SWE_MAXIMA_FIELDS] = {-3.4028234663852886e38, 0, 0, -1}; /* -MAXFLOAT: any level */
  for (int f = 0; f < SWE_MAXIMA_FIELDS; f++) {
    TRY(make_field(s, names[f], &s->maxima[f]));
    TRY(fill_field(s->maxima[f], start[f]));
  }
cleanup:
  return status;
}

void hcl_swe_maxima_fields(Swe *s, Field *fields[SWE_MAXIMA_FIELDS]) {
  memcpy(fields, s->maxima, sizeof s->maxima);
}

/* Launches a maxima kernel on fields with the common arguments, and t for the accumulation. */
static HclStatus launch_maxima(Swe *s, int k, Field *const *fields, int nfields, double t) {
  const DecompLocal *l = hcl_decomp_local(s->decomp);
  KernelArgs a = hcl_kernel_args(s->kernels[k]);
  for (int i = 0; i < nfields; i++) {
    hcl_arg_mem(&a, hcl_field_buffer(fields[i]));
  }
  swe_arg_common(&a, s->decomp, &s->config, hcl_field_pitch(s->depth), 0.0, friction_field(s));
  if (k == KERNEL_MAXIMA) {
    hcl_arg_real(&a, s->config.precision, t);
  }
  KernelShape shape = hcl_kernel_grid_rows(s->rt, l->nx, l->ny, WG_X, WG_Y, 1);
  double bytes = (double)nfields * l->nx * l->ny * (double)hcl_precision_bytes(s->config.precision);
  return hcl_kernel_launch(s->rt, &a, shape, bytes);
}

HclStatus hcl_swe_accumulate_maxima(Swe *s, double t) {
  HclStatus status = HCL_OK;
  TRY(settle(s)); /* the cell-centred speed reads u and v west and south */
  int c = s->current;
  Field *args[] = {s->zeta[c], s->depth, s->u[c], s->v[c], s->maxima[0], s->maxima[1], s->maxima[2], s->maxima[3]};
  TRY(launch_maxima(s, KERNEL_MAXIMA, args, 8, t));
cleanup:
  return status;
}

HclStatus hcl_swe_maxima_output(Swe *s, Field *out[SWE_MAXIMA_FIELDS]) {
  HclStatus status = HCL_OK;
  TRY(settle(s));
  for (int f = 0; f < SWE_MAXIMA_FIELDS; f++) {
    ASSERT(hcl_field_ghost(out[f]) == 0 && hcl_field_precision(out[f]) == s->config.precision);
  }
  Field *args[] = {s->maxima[0], s->maxima[1], s->maxima[2], s->maxima[3], out[0], out[1], out[2], out[3]};
  TRY(launch_maxima(s, KERNEL_MAXIMA_OUTPUT, args, 8, 0.0));
cleanup:
  return status;
}
