/* SPDX-License-Identifier: BSD-3-Clause */
/* swe_implicit.c: the semi-implicit shallow-water step (see swe_implicit.h; the scheme's equations head the last
 * section of kernels_cl/swe.cl). One step:
 *   face_predict      u and v predictors, responses and flux depths from the state at n, the wet flags;
 *   level_assemble    the system for the step's change of level: matrix, right-hand side, the first guess 0 (the
 *                     last level; a Dirichlet row starts at its change);
 *   CG                from there, the preconditioner set up on each new matrix;
 *   level_update      the velocities from the solved levels, the levels in flux form, the new depths;
 * and where a depth came out negative, dry_negative_faces dries the faces around it and the step is solved again
 * from the assembly (Delft3D-FLOW's drying check): volume is never clipped away. */
#include "swe_implicit.h"

#include <math.h>
#include <stdlib.h>

#include "halo.h"
#include "krylov.h"
#include "reduce.h"
#include "swe_kernel_args.h"
#include "rrb_precond.h"
#include "stencil5.h"

const char *const swe_implicit_kernel_names[SWE_IMPLICIT_KERNELS] = {"face_predict", "level_assemble", "level_update",
                                                                     "dry_negative_faces"};

enum { GHOST = SWE_GHOST, WG_X = 32, WG_Y = 4 };
enum { FACE_FIELDS = 6 }; /* pu, pv, ru, rv, hu, hv */

/* A step that dries cells solves again; each pass dries every face around the cells that went negative, so few are
 * ever needed. Beyond this many the state is broken. */
enum { MAX_SOLVES = 32 };

struct SweImplicit {
  Runtime *rt;
  const Decomp *decomp;
  SweConfig config;
  SweState state[2];
  Field *depth;
  Field *friction_map;       /* the kernels' friction_map argument (swe_arg_common) */
  Field *faces[FACE_FIELDS]; /* the predictors p, responses r and flux depths h of the u and v faces */
  Field *h_new;              /* the total depth at n + 1, for the drying check */
  Halo *faces_halo, *h_new_halo, *next_halo[2];
  Reducer *reducer;
  Operator *op;
  Field *matrix[3], *rhs, *x;
  Vec *rhs_vec, *x_vec;
  bool solved; /* a level solve has been made: rhs_vec and x_vec hold its system and solution */
  Krylov *krylov;
  SweSolveStats stats;
  cl_kernel kernels[SWE_IMPLICIT_KERNELS];
};
enum { PU, PV, RU, RV, HU, HV };

/* Planes of nx ny REALs beside the ghosted fields: RRB's factor, Schur complement, work vector and setup stencils
 * (rrb.c: 5 + 5 + 1 + 3 rotated + 3 straight of a quarter), its preconditioner's three layout vectors
 * (rrb_precond.c) and CG's four; and the exact level's inverse and factor, each as many REALs as the square of its
 * nodes (at most the default depth's RRB_EXACT_MAX). */
static const double RRB_CG_PLANES = 5 + 5 + 1 + 3 + 0.75 + 3 + 4;

double swe_implicit_bytes(int nx, int ny, Precision precision) {
  double ghost2 = (double)(nx + 2 * GHOST) * (ny + 2 * GHOST), ghost1 = (double)(nx + 2) * (ny + 2);
  double exact = fmin((double)nx * ny, RRB_EXACT_MAX);
  double reals = (FACE_FIELDS + 1) * ghost2 + 5 * ghost1 + RRB_CG_PLANES * (double)nx * ny + 2 * exact * exact;
  return reals * (double)hcl_precision_bytes(precision);
}

void swe_implicit_destroy(SweImplicit **implicit) {
  if (!implicit || !*implicit) {
    return;
  }
  SweImplicit *s = *implicit;
  hcl_krylov_destroy(&s->krylov);
  hcl_vec_destroy(&s->rhs_vec);
  hcl_vec_destroy(&s->x_vec);
  hcl_field_destroy(&s->rhs);
  hcl_field_destroy(&s->x);
  hcl_operator_destroy(&s->op);
  hcl_reducer_destroy(&s->reducer);
  hcl_halo_destroy(&s->faces_halo);
  hcl_halo_destroy(&s->h_new_halo);
  hcl_halo_destroy(&s->next_halo[0]);
  hcl_halo_destroy(&s->next_halo[1]);
  for (int f = 0; f < FACE_FIELDS; f++) {
    hcl_field_destroy(&s->faces[f]);
  }
  hcl_field_destroy(&s->h_new);
  free(s);
  *implicit = NULL;
}

static HclStatus make_field(SweImplicit *s, const char *name, int ghost, Field **f) {
  FieldSpec spec = {.name = name, .nz = 1, .ghost = ghost, .precision = s->config.precision};
  return hcl_field_create(s->rt, s->decomp, &spec, f);
}

static HclStatus make_fields(SweImplicit *s) {
  HclStatus status = HCL_OK;
  static const char *const names[FACE_FIELDS] = {"u_predictor", "v_predictor",  "u_response",
                                                 "v_response",  "u_flux_depth", "v_flux_depth"};
  for (int f = 0; f < FACE_FIELDS; f++) {
    TRY(make_field(s, names[f], GHOST, &s->faces[f]));
  }
  TRY(make_field(s, "depth_next", GHOST, &s->h_new));
  TRY(hcl_halo_create(s->faces, FACE_FIELDS, &s->faces_halo));
  TRY(hcl_halo_create(&s->h_new, 1, &s->h_new_halo));
  for (int c = 0; c < 2; c++) {
    const SweState *st = &s->state[c];
    Field *next[] = {st->zeta, st->u, st->v};
    TRY(hcl_halo_create(next, 3, &s->next_halo[c]));
  }
cleanup:
  return status;
}

/* The level system: the 5-point operator, its right-hand side and solution fields, CG with RRB. */
static HclStatus make_solver(SweImplicit *s) {
  HclStatus status = HCL_OK;
  Precond *pc = NULL;
  TRY(hcl_stencil5_create(s->rt, s->decomp, s->config.precision, &s->op));
  TRY(hcl_stencil5_fields(s->op, s->matrix));
  TRY(make_field(s, "level_change_rhs", 1, &s->rhs));
  TRY(make_field(s, "level_change", 1, &s->x));
  TRY(hcl_vec_wrap_field(hcl_operator_space(s->op), s->rhs, &s->rhs_vec));
  TRY(hcl_vec_wrap_field(hcl_operator_space(s->op), s->x, &s->x_vec));
  TRY(hcl_krylov_create(&s->config.krylov, &s->krylov));
  hcl_krylov_set_operator(s->krylov, s->op);
  TRY(hcl_rrb_precond_create(RRB_DEPTH_DEFAULT, &pc));
  hcl_krylov_set_precond(s->krylov, pc);
cleanup:
  return status;
}

HclStatus swe_implicit_create(Runtime *rt, const Decomp *decomp, const SweConfig *config, const SweState state[2],
                              Field *depth, Field *friction_map, const cl_kernel kernels[SWE_IMPLICIT_KERNELS],
                              SweImplicit **out) {
  HclStatus status = HCL_OK;
  SweImplicit *s = NULL;
  const DecompSpec *g = hcl_decomp_spec(decomp);
  *out = NULL;
  REQUIRE(!g->periodic_x && !g->periodic_y, HCL_EDATA,
          "the implicit scheme has no periodic sides (its level system is solved on the grid as it lies); use "
          "walls or water-level sides, or the explicit scheme");
  REQUIRE(config->theta >= 0.5 && config->theta <= 1, HCL_EDATA,
          "theta = %g: the implicit scheme is stable for 0.5 <= theta <= 1 (0.5 second order in time, 1 first "
          "order and most damping)",
          config->theta);
  REQUIRE(hcl_krylov_method_is_cg(config->krylov.method), HCL_EDATA,
          "%smethod = %s: the level system is symmetric positive definite and solved by CG (set %smethod: cg or "
          "pipecg)",
          config->krylov.prefix, hcl_krylov_method_name(config->krylov.method), config->krylov.prefix);
  TRY_ALLOC(s, 1);
  s->rt = rt;
  s->decomp = decomp;
  s->config = *config;
  s->state[0] = state[0];
  s->state[1] = state[1];
  s->depth = depth;
  s->friction_map = friction_map;
  for (int k = 0; k < SWE_IMPLICIT_KERNELS; k++) {
    s->kernels[k] = kernels[k];
  }
  TRY(make_fields(s));
  TRY(hcl_reducer_create(rt, decomp, &s->reducer));
  TRY(make_solver(s));
  *out = s;
  s = NULL;
cleanup:
  swe_implicit_destroy(&s);
  return status;
}

HclStatus swe_implicit_set_precond(SweImplicit *s, Precond *pc) {
  hcl_krylov_set_precond(s->krylov, pc);
  return HCL_OK;
}

SweSolveStats swe_implicit_stats(const SweImplicit *s) {
  return s->stats;
}

HclStatus swe_implicit_last_residual(SweImplicit *s, double *relative) {
  *relative = NAN;
  return s->solved ? hcl_krylov_relative_residual(s->krylov, s->rhs_vec, s->x_vec, relative) : HCL_OK;
}

/* ---- the kernels ---- */

/* Launches kernel k over the owned cells: buffers, the common arguments, then theta and what else it takes. */
typedef struct {
  SweImplicit *s;
  KernelArgs a;
} Launch;

static Launch launch_begin(SweImplicit *s, int k, Field *const *fields, int nfields) {
  Launch l = {s, hcl_kernel_args(s->kernels[k])};
  for (int f = 0; f < nfields; f++) {
    hcl_arg_mem(&l.a, hcl_field_buffer(fields[f]));
  }
  return l;
}

static HclStatus launch_end(Launch *l, double reals_per_cell) {
  const DecompLocal *d = hcl_decomp_local(l->s->decomp);
  KernelShape shape = hcl_kernel_grid(l->s->rt, d->nx, d->ny, WG_X, WG_Y);
  double bytes = reals_per_cell * (double)d->nx * d->ny * (double)hcl_precision_bytes(l->s->config.precision);
  return hcl_kernel_launch(l->s->rt, &l->a, shape, bytes);
}

/* The arguments after the buffers: the common ones for a step of dt, theta, and (with_pitch) the matrix's pitch. */
static void arg_scheme(Launch *l, double dt, bool with_pitch) {
  SweImplicit *s = l->s;
  swe_arg_common(&l->a, s->decomp, &s->config, hcl_field_pitch(s->depth), dt, s->friction_map);
  hcl_arg_real(&l->a, s->config.precision, s->config.theta);
  if (with_pitch) {
    hcl_arg_int(&l->a, hcl_field_pitch(s->x));
  }
}

/* face_predict: reads 4 fields (zeta, depth, u, v) and writes 6. */
static HclStatus predict(SweImplicit *s, const SweState *now, double dt) {
  Field *fields[] = {now->zeta,    s->depth,     now->u,       now->v,       s->faces[PU],
                     s->faces[PV], s->faces[RU], s->faces[RV], s->faces[HU], s->faces[HV]};
  Launch l = launch_begin(s, SWE_K_PREDICT, fields, 10);
  arg_scheme(&l, dt, false);
  return launch_end(&l, 10);
}

/* level_assemble: reads 10 fields, writes the matrix, the right-hand side and the guess. */
static HclStatus assemble(SweImplicit *s, const SweState *now, double dt, const double levels[SWE_SIDES]) {
  HclStatus status = HCL_OK;
  Field *fields[] = {now->zeta,    s->depth,     now->u,       now->v,       s->faces[PU],
                     s->faces[PV], s->faces[RU], s->faces[RV], s->faces[HU], s->faces[HV],
                     s->matrix[0], s->matrix[1], s->matrix[2], s->rhs,       s->x};
  Launch l = launch_begin(s, SWE_K_ASSEMBLE, fields, 15);
  arg_scheme(&l, dt, true);
  swe_arg_sides(&l.a, s->decomp, &s->config, levels, true);
  TRY(launch_end(&l, 15));
  hcl_vec_touch(s->rhs_vec);
  hcl_vec_touch(s->x_vec);
cleanup:
  return status;
}

/* level_update: reads 11 fields, writes 4. */
static HclStatus update(SweImplicit *s, const SweState *now, const SweState *next, double dt,
                        const double levels[SWE_SIDES]) {
  HclStatus status = HCL_OK;
  TRY(hcl_vec_ghosts(s->x_vec));
  Field *fields[] = {now->zeta,    s->depth,     now->u,       now->v,       s->faces[PU],
                     s->faces[PV], s->faces[RU], s->faces[RV], s->faces[HU], s->faces[HV],
                     s->x,         next->u,      next->v,      next->zeta,   s->h_new};
  Launch l = launch_begin(s, SWE_K_UPDATE, fields, 15);
  arg_scheme(&l, dt, true);
  swe_arg_sides(&l.a, s->decomp, &s->config, levels, true);
  TRY(launch_end(&l, 15));
cleanup:
  return status;
}

/* dry_negative_faces, then the faces' ghosts. */
static HclStatus dry_negative(SweImplicit *s) {
  HclStatus status = HCL_OK;
  TRY(hcl_halo_exchange(s->h_new_halo));
  Field *fields[] = {s->h_new, s->faces[PU], s->faces[PV], s->faces[RU], s->faces[RV], s->faces[HU], s->faces[HV]};
  Launch l = launch_begin(s, SWE_K_DRY_NEGATIVE, fields, 7);
  swe_arg_common(&l.a, s->decomp, &s->config, hcl_field_pitch(s->depth), 0.0, s->friction_map);
  TRY(launch_end(&l, 7));
  TRY(hcl_halo_exchange(s->faces_halo));
cleanup:
  return status;
}

/* ---- the step ---- */

/* Assembles and solves the level system and updates the state; *negative: whether a depth came out below 0. */
static HclStatus solve_and_update(SweImplicit *s, const SweState *now, const SweState *next, double dt,
                                  const double levels[SWE_SIDES], bool *negative) {
  HclStatus status = HCL_OK;
  KrylovResult result;
  double shallowest = 0;
  TRY(assemble(s, now, dt, levels));
  TRY(hcl_krylov_setup(s->krylov));
  TRY(hcl_krylov_solve(s->krylov, s->rhs_vec, s->x_vec, &result));
  s->stats.solves++;
  s->stats.iterations += result.iterations;
  s->stats.last = result;
  s->solved = true;
  TRY(update(s, now, next, dt, levels));
  TRY(hcl_reduce_min(s->reducer, hcl_field_span(s->h_new), &shallowest));
  *negative = shallowest < 0;
cleanup:
  return status;
}

HclStatus swe_implicit_step(SweImplicit *s, int current, double dt, const double levels[SWE_SIDES]) {
  HclStatus status = HCL_OK;
  const SweState *now = &s->state[current], *next = &s->state[1 - current];
  bool negative = true;
  s->stats = (SweSolveStats){0};
  TRY(predict(s, now, dt));
  TRY(hcl_halo_exchange(s->faces_halo));
  TRY(solve_and_update(s, now, next, dt, levels, &negative));
  while (negative) {
    REQUIRE(s->stats.solves < MAX_SOLVES, HCL_EDIVERGED,
            "a water depth stays negative after %d solves of the step, each drying the faces around such cells: "
            "the state is broken (lower time.dt, or raise physics.dry_depth)",
            s->stats.solves);
    TRY(dry_negative(s));
    TRY(solve_and_update(s, now, next, dt, levels, &negative));
  }
  TRY(hcl_halo_exchange(s->next_halo[1 - current]));
cleanup:
  return status;
}
