/* SPDX-License-Identifier: BSD-3-Clause */
/* vbm.c: state, kernels and time stepping of the linearized variational Boussinesq model (see vbm.h and
 * kernels_cl/vbm.cl). One leapfrog step from level n:
 *   vbm_rhs      b = -div(h D grad phi^n);
 *   CG           M psi^n - div(N grad psi^n) = b, from 2 psi^{n-1} - psi^{n-2} (psi changes smoothly: the
 *                extrapolation saves a CG iteration a frame, 7 to 6 in bench vbm with RRB), preconditioned as the
 *                case chooses (stencil5_precond.h: RRB on one rank, the multigrid on several);
 *   vbm_update   q^{n+1} = q^{n-1} + 2 dt L(q^n, psi^n), written over q^{n-1}, then its ghosts;
 * and the two copies of (zeta, phi) swap roles. The start-up step (Heun) runs the same kernels twice through the
 * scratch level. The psi system's matrix depends on the depth only: assembled and factorized once. */
#include "vbm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clerror.h"
#include "progress.h"
#include "halo.h"
#include "kernel.h"
#include "program.h"
#include "reduce.h"
#include "rrb_precond.h"
#include "stencil5.h"

enum { GHOST = 1, WG_X = 32, WG_Y = 4, SHIP_REALS = 7 }; /* SHIP_REALS: kernels_cl/vbm.cl */
enum {
  KERNEL_COEFFICIENTS,
  KERNEL_RHS,
  KERNEL_UPDATE,
  KERNEL_PRESSURE,
  KERNEL_INCIDENT,
  KERNEL_ENERGY,
  KERNEL_EXTREMES,
  NKERNELS
};
static const char *const kernel_names[NKERNELS] = {"vbm_coefficients", "vbm_rhs",    "vbm_update",  "vbm_pressure",
                                                   "vbm_incident",     "vbm_energy", "vbm_extremes"};
enum { WAVE_REALS = 5 }; /* kernels_cl/vbm.cl: a, kx, ky, g a / omega, phase */
/* The longer of the two tables written every stage (ships and incident waves). */
enum {
  TABLE_REALS_MAX =
      VBM_WAVES_MAX * WAVE_REALS > VBM_SHIPS_MAX *SHIP_REALS ? VBM_WAVES_MAX *WAVE_REALS : VBM_SHIPS_MAX *SHIP_REALS
};

/* A copy of the prognostic levels. */
typedef struct {
  Field *zeta, *phi;
  Halo *halo;
} Level;

struct Vbm {
  Runtime *rt;
  const Decomp *decomp;
  VbmConfig config;
  Level level[2];                /* level[current] holds n, the other n - 1 (and receives n + 1) */
  Level scratch;                 /* the start-up step's intermediate stage */
  Field *good[VBM_STATE_FIELDS]; /* hcl_vbm_checkpoint's copy of the state, made on first use */
  bool good_started;
  int good_current;
  int64_t good_step;
  Field *extremes[VBM_MAXIMA_FIELDS];      /* hcl_vbm_enable_maxima's zeta_max, zeta_min; NULL without */
  Field *extremes_good[VBM_MAXIMA_FIELDS]; /* and their checkpoint */
  int current;
  int64_t step; /* of the present level: the start's is 0 */
  bool started; /* a step was taken since hcl_vbm_set_state: the next is leapfrog */
  double dt;    /* of the leapfrog steps */
  Field *depth, *u_current, *v_current, *energy;
  Field *hd_east, *hd_north;       /* h D of each cell's east and north faces (vbm_coefficients) */
  Field *sponge;                   /* the sponges' damping rate, 1/s (sponge_rates) */
  Field *pressure;                 /* the ships' Ps over the density (vbm_pressure) */
  CellBox pressed;                 /* where pressure was last made nonzero, in this block's cells (nx 0: nowhere) */
  Field *zeta_target, *phi_target; /* what the sponges relax towards: the incident waves in theirs, else 0 */
  VbmWave *waves;                  /* hcl_vbm_set_incident's, nwaves of them entering at side `incident_side` */
  int nwaves, incident_side;
  double incident_ramp;
  cl_mem waves_table;              /* WAVE_REALS REALs per wave, rewritten before every stage */
  Operator *op;                    /* the psi system (stencil5.h) */
  Field *matrix[3], *rhs, *psi[2]; /* psi[c]: psi of the last level of step parity c */
  Vec *rhs_vec, *psi_vec[2];
  Vec *last_psi; /* the last solve's solution (one of psi_vec; unchanged until the next solve), NULL before it */
  Krylov *krylov;
  VbmSolveStats stats;
  bool timed;     /* hcl_vbm_set_timed: the stats' seconds by part, each part waited for */
  bool assembled; /* the psi system's matrix and preconditioner are set up (hcl_vbm_set_state) */
  int nships;
  VbmShipsAt ships_at;
  void *ships_ctx;
  cl_mem ships; /* SHIP_REALS REALs per ship, rewritten before every stage */
  Reducer *reducer;
  cl_program program;
  cl_kernel kernels[NKERNELS];
};

KrylovOptions hcl_vbm_krylov_defaults(void) {
  KrylovOptions o = hcl_krylov_options_default();
  o.norm = KRYLOV_NORM_2;
  o.rtol = 1e-5;
  o.atol = 0;
  o.max_iterations = 500;
  return o;
}

/* Planes of nx ny REALs beside the ghosted fields, as swe_implicit.c counts them for the same solver: RRB's factor,
 * Schur complement, work vector and setup stencils, its preconditioner's three layout vectors and CG's four; and the
 * exact level's inverse and factor. */
static const double RRB_CG_PLANES = 5 + 5 + 1 + 3 + 0.75 + 3 + 4;
/* Ghosted fields: zeta and phi three times (two levels and the scratch), psi twice, the checkpoint's copy of the
 * state, the depth, the two currents, the energy density, the faces' h D, the right-hand side and the matrix's three;
 * the sponges' rates, the ships' pressure and the sponges' targets; the maxima and their checkpoint. */
enum { GHOSTED_FIELDS = 6 + 2 + VBM_STATE_FIELDS + 1 + 2 + 1 + 2 + 1 + 4 + 3, MAXIMA_FIELDS = 2 * VBM_MAXIMA_FIELDS };

double hcl_vbm_device_bytes(int nx, int ny, Precision precision, bool maxima, double *largest_field) {
  double ghosted = (double)(nx + 2 * GHOST) * (ny + 2 * GHOST);
  double exact = fmin((double)nx * ny, RRB_EXACT_MAX);
  *largest_field = ghosted * (double)hcl_precision_bytes(precision);
  double fields = GHOSTED_FIELDS + (maxima ? MAXIMA_FIELDS : 0);
  double reals = fields * ghosted + RRB_CG_PLANES * (double)nx * ny + 2 * exact * exact;
  return reals * (double)hcl_precision_bytes(precision);
}

/* ---- creation ---- */

static HclStatus make_field(Vbm *v, const char *name, Field **f) {
  FieldSpec spec = {.name = name, .nz = 1, .ghost = GHOST, .precision = v->config.precision};
  return hcl_field_create(v->rt, v->decomp, &spec, f);
}

static HclStatus make_level(Vbm *v, Level *l, const char *zeta_name, const char *phi_name) {
  HclStatus status = HCL_OK;
  TRY(make_field(v, zeta_name, &l->zeta));
  TRY(make_field(v, phi_name, &l->phi));
  Field *both[] = {l->zeta, l->phi};
  TRY(hcl_halo_create(both, 2, &l->halo));
cleanup:
  return status;
}

static void free_level(Level *l) {
  hcl_halo_destroy(&l->halo);
  hcl_field_destroy(&l->zeta);
  hcl_field_destroy(&l->phi);
}

/* The psi system: the 5-point operator, its right-hand side and psi as its vectors, CG with RRB. */
static HclStatus make_solver(Vbm *v) {
  HclStatus status = HCL_OK;
  Precond *pc = NULL;
  TRY(hcl_stencil5_create(v->rt, v->decomp, v->config.precision, &v->op));
  TRY(hcl_stencil5_fields(v->op, v->matrix));
  TRY(make_field(v, "psi_rhs", &v->rhs));
  TRY(make_field(v, "psi_even", &v->psi[0]));
  TRY(make_field(v, "psi_odd", &v->psi[1]));
  TRY(hcl_vec_wrap_field(hcl_operator_space(v->op), v->rhs, &v->rhs_vec));
  for (int c = 0; c < 2; c++) {
    TRY(hcl_vec_wrap_field(hcl_operator_space(v->op), v->psi[c], &v->psi_vec[c]));
  }
  TRY(hcl_krylov_create(&v->config.krylov, &v->krylov));
  hcl_krylov_set_operator(v->krylov, v->op);
  TRY(hcl_rrb_precond_create(RRB_DEPTH_DEFAULT, &pc));
  hcl_krylov_set_precond(v->krylov, pc);
cleanup:
  return status;
}

static HclStatus make_fields(Vbm *v) {
  HclStatus status = HCL_OK;
  /* Level c holds the steps of parity c (the start in 0, the start-up step's result in 1, ...): restarts name them
   * so, and the step number says which is the present one. */
  TRY(make_level(v, &v->level[0], "zeta_even", "phi_even"));
  TRY(make_level(v, &v->level[1], "zeta_odd", "phi_odd"));
  TRY(make_level(v, &v->scratch, "zeta_scratch", "phi_scratch"));
  TRY(make_field(v, "depth", &v->depth));
  TRY(make_field(v, "u_current", &v->u_current));
  TRY(make_field(v, "v_current", &v->v_current));
  TRY(make_field(v, "energy", &v->energy));
  TRY(make_field(v, "hd_east", &v->hd_east));
  TRY(make_field(v, "hd_north", &v->hd_north));
  TRY(make_field(v, "sponge", &v->sponge));
  TRY(make_field(v, "pressure", &v->pressure));
  TRY(make_field(v, "zeta_target", &v->zeta_target));
  TRY(make_field(v, "phi_target", &v->phi_target));
cleanup:
  return status;
}

static HclStatus make_kernels(Vbm *v) {
  HclStatus status = HCL_OK;
  cl_int err = CL_SUCCESS;
  KernelConfig kc = {.precision = v->config.precision, .stencil_radius = GHOST, .wg_x = WG_X, .wg_y = WG_Y};
  TRY(hcl_program_build_kernels(v->rt, "vbm", &kc, kernel_names, NKERNELS, &v->program, v->kernels));
  size_t bytes = (size_t)VBM_SHIPS_MAX * SHIP_REALS * hcl_precision_bytes(v->config.precision);
  v->ships = clCreateBuffer(hcl_runtime_context(v->rt), CL_MEM_READ_ONLY, bytes, NULL, &err);
  TRY_CL(err);
  bytes = (size_t)VBM_WAVES_MAX * WAVE_REALS * hcl_precision_bytes(v->config.precision);
  v->waves_table = clCreateBuffer(hcl_runtime_context(v->rt), CL_MEM_READ_ONLY, bytes, NULL, &err);
  TRY_CL(err);
cleanup:
  return status;
}

HclStatus hcl_vbm_create(Runtime *rt, const Decomp *decomp, const VbmConfig *config, Vbm **out) {
  HclStatus status = HCL_OK;
  Vbm *v = NULL;
  const DecompSpec *g = hcl_decomp_spec(decomp);
  *out = NULL;
  REQUIRE(!g->periodic_x && !g->periodic_y, HCL_EDATA,
          "the variational Boussinesq model has no periodic sides: its sides are walls or sponges");
  REQUIRE(config->precision == PRECISION_SINGLE || hcl_runtime_device(rt)->fp64, HCL_ENODEVICE,
          "device '%s' has no fp64 for a double-precision run; use --precision single",
          hcl_runtime_device(rt)->device_name);
  REQUIRE(hcl_krylov_method_is_cg(config->krylov.method), HCL_EDATA,
          "%smethod = %s: the psi system is symmetric positive definite and solved by CG (set %smethod: cg or "
          "pipecg)",
          config->krylov.prefix, hcl_krylov_method_name(config->krylov.method), config->krylov.prefix);
  TRY_ALLOC(v, 1);
  v->rt = rt;
  v->decomp = decomp;
  v->config = *config;
  TRY(make_fields(v));
  TRY(make_solver(v));
  TRY(hcl_reducer_create(rt, decomp, &v->reducer));
  TRY(make_kernels(v));
  *out = v;
  v = NULL;
cleanup:
  hcl_vbm_destroy(&v);
  return status;
}

void hcl_vbm_destroy(Vbm **vbm) {
  if (!vbm || !*vbm) {
    return;
  }
  Vbm *v = *vbm;
  hcl_program_release(&v->program, v->kernels, NKERNELS);
  if (v->ships) {
    clReleaseMemObject(v->ships);
  }
  hcl_reducer_destroy(&v->reducer);
  hcl_krylov_destroy(&v->krylov);
  hcl_vec_destroy(&v->rhs_vec);
  hcl_vec_destroy(&v->psi_vec[0]);
  hcl_vec_destroy(&v->psi_vec[1]);
  hcl_field_destroy(&v->rhs);
  hcl_field_destroy(&v->psi[0]);
  hcl_field_destroy(&v->psi[1]);
  hcl_operator_destroy(&v->op);
  for (int c = 0; c < 2; c++) {
    free_level(&v->level[c]);
  }
  free_level(&v->scratch);
  for (int f = 0; f < VBM_STATE_FIELDS; f++) {
    hcl_field_destroy(&v->good[f]);
  }
  for (int f = 0; f < VBM_MAXIMA_FIELDS; f++) {
    hcl_field_destroy(&v->extremes[f]);
    hcl_field_destroy(&v->extremes_good[f]);
  }
  hcl_field_destroy(&v->depth);
  hcl_field_destroy(&v->u_current);
  hcl_field_destroy(&v->v_current);
  hcl_field_destroy(&v->energy);
  hcl_field_destroy(&v->hd_east);
  hcl_field_destroy(&v->hd_north);
  hcl_field_destroy(&v->sponge);
  hcl_field_destroy(&v->pressure);
  hcl_field_destroy(&v->zeta_target);
  hcl_field_destroy(&v->phi_target);
  free(v->waves);
  if (v->waves_table) {
    clReleaseMemObject(v->waves_table);
  }
  free(v);
  *vbm = NULL;
}

HclStatus hcl_vbm_set_preconditioner(Vbm *v, Precond *pc) {
  hcl_krylov_set_precond(v->krylov, pc);
  return v->assembled ? hcl_krylov_setup(v->krylov) : HCL_OK; /* else hcl_vbm_set_state sets it up */
}

/* ---- the kernels ---- */

/* The arguments every kernel takes after its buffers and scalars. */
static void arg_grid(KernelArgs *a, const Vbm *v) {
  const DecompLocal *d = hcl_decomp_local(v->decomp);
  hcl_arg_int(a, d->nx);
  hcl_arg_int(a, d->ny);
  hcl_arg_int(a, hcl_field_pitch(v->depth));
  hcl_arg_real(a, v->config.precision, v->config.dx);
  hcl_arg_real(a, v->config.precision, v->config.dy);
}

static HclStatus launch(Vbm *v, KernelArgs *a, double reals_per_cell) {
  const DecompLocal *d = hcl_decomp_local(v->decomp);
  double bytes = reals_per_cell * (double)d->nx * d->ny * (double)hcl_precision_bytes(v->config.precision);
  return hcl_kernel_launch(v->rt, a, hcl_kernel_grid(v->rt, d->nx, d->ny, WG_X, WG_Y), bytes);
}

/* The faces' h D and the psi system's matrix from the depth (its ghosts exchanged), their ghosts, and the
 * preconditioner's factorization. */
static HclStatus assemble_coefficients(Vbm *v) {
  HclStatus status = HCL_OK;
  Halo *halo = NULL;
  KernelArgs a = hcl_kernel_args(v->kernels[KERNEL_COEFFICIENTS]);
  hcl_arg_mem(&a, hcl_field_buffer(v->depth));
  hcl_arg_mem(&a, hcl_field_buffer(v->hd_east));
  hcl_arg_mem(&a, hcl_field_buffer(v->hd_north));
  for (int m = 0; m < 3; m++) {
    hcl_arg_mem(&a, hcl_field_buffer(v->matrix[m]));
  }
  arg_grid(&a, v);
  hcl_arg_real(&a, v->config.precision, v->config.kappa);
  TRY(launch(v, &a, 6));
  Field *faces[] = {v->hd_east, v->hd_north};
  TRY(hcl_halo_create(faces, 2, &halo));
  TRY(hcl_halo_exchange(halo));
  TRY(hcl_krylov_setup(v->krylov));
  v->assembled = true;
cleanup:
  hcl_halo_destroy(&halo);
  return status;
}

/* With timing on (hcl_vbm_set_timed), waits for what was enqueued and adds the wall time since *since to
 * stats.seconds[part]; *since becomes now. */
static HclStatus time_part(Vbm *v, VbmPart part, double *since) {
  HclStatus status = HCL_OK;
  if (!v->timed) {
    return HCL_OK;
  }
  TRY(hcl_runtime_finish(v->rt));
  double now = hcl_progress_now();
  v->stats.seconds[part] += now - *since;
  *since = now;
cleanup:
  return status;
}

/* psi[parity] for the level's phi (its ghosts exchanged), from the psi there is or (extrapolate) from
 * 2 psi[other] - psi[parity]; then its ghosts. */
static HclStatus solve_psi(Vbm *v, const Level *l, int parity, bool extrapolate) {
  HclStatus status = HCL_OK;
  KrylovResult result;
  Vec *psi = v->psi_vec[parity];
  double since = hcl_progress_now();
  if (extrapolate) {
    TRY(hcl_vec_axpby(psi, 2, v->psi_vec[1 - parity], -1));
  }
  KernelArgs a = hcl_kernel_args(v->kernels[KERNEL_RHS]);
  hcl_arg_mem(&a, hcl_field_buffer(v->hd_east));
  hcl_arg_mem(&a, hcl_field_buffer(v->hd_north));
  hcl_arg_mem(&a, hcl_field_buffer(l->phi));
  hcl_arg_mem(&a, hcl_field_buffer(v->rhs));
  arg_grid(&a, v);
  TRY(launch(v, &a, 4));
  hcl_vec_touch(v->rhs_vec);
  TRY(time_part(v, VBM_PART_RHS, &since));
  TRY(hcl_krylov_solve(v->krylov, v->rhs_vec, psi, &result));
  v->last_psi = psi;
  TRY(hcl_vec_ghosts(psi));
  TRY(time_part(v, VBM_PART_SOLVE, &since));
  v->stats.solves++;
  v->stats.iterations += result.iterations;
  v->stats.last = result;
cleanup:
  return status;
}

static CellBox box_union(CellBox a, CellBox b) {
  if (a.nx == 0 || a.ny == 0) {
    return b;
  }
  if (b.nx == 0 || b.ny == 0) {
    return a;
  }
  int x0 = a.x0 < b.x0 ? a.x0 : b.x0, y0 = a.y0 < b.y0 ? a.y0 : b.y0;
  int x1 = a.x0 + a.nx > b.x0 + b.nx ? a.x0 + a.nx : b.x0 + b.nx;
  int y1 = a.y0 + a.ny > b.y0 + b.ny ? a.y0 + a.ny : b.y0 + b.ny;
  return (CellBox){x0, y0, x1 - x0, y1 - y0};
}

/* The cells of this block (its own indices) that hold the ships' hulls: each hull's bounding box, a cell wider,
 * clipped to the block; their union (nx 0: none). */
static CellBox hull_box(const Vbm *v, const VbmShip *ships) {
  const DecompLocal *l = hcl_decomp_local(v->decomp);
  const VbmConfig *c = &v->config;
  CellBox all = {0};
  for (int s = 0; s < v->nships; s++) {
    const VbmShip *ship = &ships[s];
    double cx = fabs(cos(ship->heading)), sx = fabs(sin(ship->heading));
    double reach[2] = {ship->length / 2 * cx + ship->beam / 2 * sx, ship->length / 2 * sx + ship->beam / 2 * cx};
    double centre[2] = {(ship->x - c->x0) / c->dx - 0.5 - l->x0, (ship->y - c->y0) / c->dy - 0.5 - l->y0};
    double spacing[2] = {c->dx, c->dy}, extent[2] = {l->nx, l->ny}, first[2], last[2];
    for (int axis = 0; axis < 2; axis++) {
      first[axis] = fmax(floor(centre[axis] - reach[axis] / spacing[axis]) - 1, 0);
      last[axis] = fmin(ceil(centre[axis] + reach[axis] / spacing[axis]) + 1, extent[axis] - 1);
    }
    if (first[0] <= last[0] && first[1] <= last[1]) {
      CellBox hull = {(int)first[0], (int)first[1], (int)(last[0] - first[0]) + 1, (int)(last[1] - first[1]) + 1};
      all = box_union(all, hull);
    }
  }
  return all;
}

/* A table of REALs of the run's precision into buffer (blocking: the host copy is the caller's). */
static HclStatus write_table(Vbm *v, cl_mem buffer, const double *table, size_t n) {
  HclStatus status = HCL_OK;
  float single[TABLE_REALS_MAX];
  const void *host = table;
  ASSERT(n <= TABLE_REALS_MAX);
  if (v->config.precision == PRECISION_SINGLE) {
    for (size_t k = 0; k < n; k++) {
      single[k] = (float)table[k];
    }
    host = single;
  }
  TRY_CL(clEnqueueWriteBuffer(hcl_runtime_queue(v->rt), buffer, CL_TRUE, 0,
                              n * hcl_precision_bytes(v->config.precision), host, 0, NULL, NULL));
cleanup:
  return status;
}

/* Launches kernel args a (its own arguments set) over box, a box of this block's cells, adding what every box
 * kernel takes after them: the box's end, the grid, the block's first global cell and the grid's corner. */
static HclStatus launch_box(Vbm *v, KernelArgs *a, CellBox box, double reals_per_cell) {
  const DecompLocal *l = hcl_decomp_local(v->decomp);
  hcl_arg_int(a, box.x0 + box.nx);
  hcl_arg_int(a, box.y0 + box.ny);
  arg_grid(a, v);
  hcl_arg_int(a, l->x0);
  hcl_arg_int(a, l->y0);
  hcl_arg_real(a, v->config.precision, v->config.x0);
  hcl_arg_real(a, v->config.precision, v->config.y0);
  double bytes = reals_per_cell * box.nx * box.ny * (double)hcl_precision_bytes(v->config.precision);
  return hcl_kernel_launch(v->rt, a, hcl_kernel_grid_at(v->rt, box.x0, box.y0, box.nx, box.ny, WG_X, WG_Y, 1), bytes);
}

/* The ships at time t into the device's table (the write blocks: its host copy lives on this call's stack; one
 * wait a stage, beside CG's one an iteration), and their pressure into the pressure field over the box that holds
 * them now and where they were. */
static HclStatus place_ships(Vbm *v, double t) {
  HclStatus status = HCL_OK;
  VbmShip ships[VBM_SHIPS_MAX];
  double table[VBM_SHIPS_MAX * SHIP_REALS];
  if (v->nships == 0) {
    return HCL_OK;
  }
  v->ships_at(v->ships_ctx, t, ships);
  for (int s = 0; s < v->nships; s++) {
    double *row = table + s * SHIP_REALS;
    row[0] = ships[s].x;
    row[1] = ships[s].y;
    row[2] = cos(ships[s].heading);
    row[3] = sin(ships[s].heading);
    row[4] = ships[s].length / 2;
    row[5] = ships[s].beam / 2;
    row[6] = ships[s].peak;
  }
  TRY(write_table(v, v->ships, table, (size_t)v->nships * SHIP_REALS));
  CellBox now = hull_box(v, ships), box = box_union(now, v->pressed);
  v->pressed = now;
  if (box.nx == 0 || box.ny == 0) {
    return HCL_OK;
  }
  KernelArgs a = hcl_kernel_args(v->kernels[KERNEL_PRESSURE]);
  hcl_arg_mem(&a, hcl_field_buffer(v->pressure));
  hcl_arg_mem(&a, v->ships);
  hcl_arg_int(&a, v->nships);
  TRY(launch_box(v, &a, box, 1));
cleanup:
  return status;
}

/* The cells of this block in the sponge of `side` (nx 0: none). */
static CellBox sponge_box(const Vbm *v, int side) {
  const DecompLocal *l = hcl_decomp_local(v->decomp);
  const DecompSpec *g = hcl_decomp_spec(v->decomp);
  int width = v->config.sponge[side];
  int x0 = 0, x1 = g->nx, y0 = 0, y1 = g->ny; /* global, [x0, x1) x [y0, y1) */
  if (side == VBM_WEST || side == VBM_EAST) {
    x0 = side == VBM_WEST ? 0 : g->nx - width;
    x1 = x0 + width;
  } else {
    y0 = side == VBM_SOUTH ? 0 : g->ny - width;
    y1 = y0 + width;
  }
  x0 = x0 > l->x0 ? x0 : l->x0;
  y0 = y0 > l->y0 ? y0 : l->y0;
  x1 = x1 < l->x0 + l->nx ? x1 : l->x0 + l->nx;
  y1 = y1 < l->y0 + l->ny ? y1 : l->y0 + l->ny;
  return x1 > x0 && y1 > y0 ? (CellBox){x0 - l->x0, y0 - l->y0, x1 - x0, y1 - y0} : (CellBox){0};
}

/* The incident waves at time t (their phases in double, their amplitudes ramped) into the targets of the generating
 * sponge. */
static HclStatus place_incident(Vbm *v, double t) {
  HclStatus status = HCL_OK;
  const double pi = 3.14159265358979323846;
  double table[VBM_WAVES_MAX * WAVE_REALS];
  if (v->nwaves == 0) {
    return HCL_OK;
  }
  double ramp = t < v->incident_ramp ? (1 - cos(pi * fmax(t, 0) / v->incident_ramp)) / 2 : 1;
  for (int w = 0; w < v->nwaves; w++) {
    const VbmWave *wave = &v->waves[w];
    double *row = table + w * WAVE_REALS;
    row[0] = ramp * wave->amplitude;
    row[1] = wave->k * cos(wave->direction);
    row[2] = wave->k * sin(wave->direction);
    row[3] = ramp * v->config.g * wave->amplitude / wave->omega;
    row[4] = fmod(wave->phase - wave->omega * t, 2 * pi);
  }
  TRY(write_table(v, v->waves_table, table, (size_t)v->nwaves * WAVE_REALS));
  CellBox box = sponge_box(v, v->incident_side);
  if (box.nx == 0) {
    return HCL_OK;
  }
  KernelArgs a = hcl_kernel_args(v->kernels[KERNEL_INCIDENT]);
  hcl_arg_mem(&a, hcl_field_buffer(v->zeta_target));
  hcl_arg_mem(&a, hcl_field_buffer(v->phi_target));
  hcl_arg_mem(&a, v->waves_table);
  hcl_arg_int(&a, v->nwaves);
  TRY(launch_box(v, &a, box, 2));
cleanup:
  return status;
}

HclStatus hcl_vbm_set_incident(Vbm *v, int side, const VbmWave *waves, int count, double ramp) {
  HclStatus status = HCL_OK;
  REQUIRE(side >= 0 && side < VBM_SIDES && v->config.sponge[side] > 0, HCL_EDATA,
          "incident waves enter through a sponge: the side they enter at has none");
  REQUIRE(count >= 1 && count <= VBM_WAVES_MAX, HCL_EDATA, "%d incident waves: the model takes 1 to %d", count,
          VBM_WAVES_MAX);
  free(v->waves);
  v->waves = NULL;
  TRY_ALLOC(v->waves, count);
  memcpy(v->waves, waves, (size_t)count * sizeof *waves);
  v->nwaves = count;
  v->incident_side = side;
  v->incident_ramp = ramp;
cleanup:
  return status;
}

/* One stage: base = (alpha base + beta src + gamma dt L(src, psi)) / (1 + gamma dt sigma), src at time t, psi
 * solved for it; then base's ghosts. */
typedef struct {
  double alpha, beta, gamma;
} Stage;

static HclStatus update(Vbm *v, const Level *base, const Level *src, Field *psi, double t, double dt, Stage stage) {
  HclStatus status = HCL_OK;
  Precision p = v->config.precision;
  double since = hcl_progress_now();
  TRY(place_ships(v, t));
  TRY(place_incident(v, t));
  KernelArgs a = hcl_kernel_args(v->kernels[KERNEL_UPDATE]);
  hcl_arg_mem(&a, hcl_field_buffer(base->zeta));
  hcl_arg_mem(&a, hcl_field_buffer(base->phi));
  hcl_arg_mem(&a, hcl_field_buffer(src->zeta));
  hcl_arg_mem(&a, hcl_field_buffer(src->phi));
  hcl_arg_mem(&a, hcl_field_buffer(psi));
  hcl_arg_mem(&a, hcl_field_buffer(v->depth));
  hcl_arg_mem(&a, hcl_field_buffer(v->hd_east));
  hcl_arg_mem(&a, hcl_field_buffer(v->hd_north));
  hcl_arg_mem(&a, hcl_field_buffer(v->u_current));
  hcl_arg_mem(&a, hcl_field_buffer(v->v_current));
  hcl_arg_mem(&a, hcl_field_buffer(v->sponge));
  hcl_arg_mem(&a, hcl_field_buffer(v->pressure));
  hcl_arg_mem(&a, hcl_field_buffer(v->zeta_target));
  hcl_arg_mem(&a, hcl_field_buffer(v->phi_target));
  hcl_arg_real(&a, p, stage.alpha);
  hcl_arg_real(&a, p, stage.beta);
  hcl_arg_real(&a, p, stage.gamma * dt);
  hcl_arg_real(&a, p, v->config.g);
  arg_grid(&a, v);
  TRY(launch(v, &a, stage.alpha != 0 ? 16 : 14));
  TRY(hcl_halo_exchange(base->halo));
  TRY(time_part(v, VBM_PART_UPDATE, &since));
cleanup:
  return status;
}

/* ---- state and steps ---- */

static HclStatus write_owned_or_zero(Field *f, const double *values) {
  return values ? hcl_field_write_owned(f, values) : hcl_field_zero(f);
}

/* values with land (depth <= 0) set to 0, into f: the model holds no water and no potential there. */
static HclStatus write_wet(Field *f, const double *values, const double *depth) {
  HclStatus status = HCL_OK;
  size_t n = (size_t)hcl_field_nx(f) * hcl_field_ny(f);
  double *wet = NULL;
  TRY_ALLOC(wet, n);
  for (size_t p = 0; p < n; p++) {
    wet[p] = depth[p] > 0 ? values[p] : 0;
  }
  TRY(hcl_field_write_owned(f, wet));
cleanup:
  free(wet);
  return status;
}

/* The sponges' damping rate of this rank's cells: at a cell `from` cells inside a side with a sponge `width` cells
 * wide, strength (1 - (from + 1/2) / width)^2, rising smoothly from 0 at the sponge's inner edge; the largest of the
 * four sides'. */
static HclStatus sponge_rates(Vbm *v) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = hcl_decomp_local(v->decomp);
  const DecompSpec *g = hcl_decomp_spec(v->decomp);
  double *rate = NULL;
  TRY_ALLOC(rate, (size_t)l->nx * l->ny);
  for (int j = 0; j < l->ny; j++) {
    for (int i = 0; i < l->nx; i++) {
      int gi = l->x0 + i, gj = l->y0 + j;
      int from[VBM_SIDES] = {gi, g->nx - 1 - gi, gj, g->ny - 1 - gj};
      double most = 0;
      for (int side = 0; side < VBM_SIDES; side++) {
        int width = v->config.sponge[side];
        double r = width > 0 && from[side] < width ? 1 - (from[side] + 0.5) / width : 0;
        most = fmax(most, v->config.sponge_strength * r * r);
      }
      rate[(size_t)j * l->nx + i] = most;
    }
  }
  TRY(hcl_field_write_owned(v->sponge, rate));
cleanup:
  free(rate);
  return status;
}

/* The depth and the currents, and their ghosts: those beyond the grid's sides stay 0, walls (vbm.cl). */
static HclStatus set_statics(Vbm *v, const double *depth, const double *u_current, const double *v_current) {
  HclStatus status = HCL_OK;
  Halo *halo = NULL;
  TRY(hcl_field_write_owned(v->depth, depth));
  TRY(write_owned_or_zero(v->u_current, u_current));
  TRY(write_owned_or_zero(v->v_current, v_current));
  Field *statics[] = {v->depth, v->u_current, v->v_current};
  TRY(hcl_halo_create(statics, 3, &halo));
  TRY(hcl_halo_exchange(halo));
cleanup:
  hcl_halo_destroy(&halo);
  return status;
}

HclStatus hcl_vbm_set_state(Vbm *v, const double *depth, const double *zeta, const double *phi, const double *u_current,
                            const double *v_current) {
  HclStatus status = HCL_OK;
  Level *now = &v->level[0];
  v->current = 0;
  v->step = 0;
  v->started = false;
  TRY(set_statics(v, depth, u_current, v_current));
  TRY(sponge_rates(v));
  TRY(write_wet(now->zeta, zeta, depth));
  TRY(write_wet(now->phi, phi, depth));
  TRY(hcl_halo_exchange(now->halo));
  for (int c = 0; c < 2; c++) {
    TRY(hcl_field_zero(v->psi[c]));
    hcl_vec_touch(v->psi_vec[c]);
  }
  TRY(assemble_coefficients(v));
cleanup:
  return status;
}

HclStatus hcl_vbm_set_ships(Vbm *v, int count, VbmShipsAt at, void *ctx) {
  HclStatus status = HCL_OK;
  REQUIRE(count >= 0 && count <= VBM_SHIPS_MAX && (count == 0 || at), HCL_EDATA,
          "%d ships: the model takes 0 to %d, with a function that places them", count, VBM_SHIPS_MAX);
  v->nships = count;
  v->ships_at = at;
  v->ships_ctx = ctx;
cleanup:
  return status;
}

static HclStatus copy_field(Vbm *v, Field *from, Field *to) {
  HclStatus status = HCL_OK;
  size_t bytes = hcl_field_count(from) * hcl_precision_bytes(v->config.precision);
  TRY_CL(clEnqueueCopyBuffer(hcl_runtime_queue(v->rt), hcl_field_buffer(from), hcl_field_buffer(to), 0, 0, bytes, 0,
                             NULL, NULL));
cleanup:
  return status;
}

static HclStatus copy_level(Vbm *v, const Level *from, const Level *to) {
  HclStatus status = HCL_OK;
  TRY(copy_field(v, from->zeta, to->zeta));
  TRY(copy_field(v, from->phi, to->phi));
cleanup:
  return status;
}

/* Heun's step from q^0 (level[0]) to q^1 (level[1]), second order as leapfrog is:
 *   q* = q^0 + dt L(q^0),   q^1 = (q^0 + q* + dt L(q*)) / 2,
 * q* in the scratch level; level[0] keeps q^0, the leapfrog's q^{n-1}. psi^0 in psi[0], q*'s in psi[1] (from
 * psi^0), where it starts the solve for q^1. */
static HclStatus start_up(Vbm *v, double t, double dt) {
  HclStatus status = HCL_OK;
  const Level *q0 = &v->level[0], *q1 = &v->level[1], *stage = &v->scratch;
  TRY(solve_psi(v, q0, 0, false));
  TRY(update(v, stage, q0, v->psi[0], t, dt, (Stage){.alpha = 0, .beta = 1, .gamma = 1}));
  TRY(copy_level(v, q0, q1));
  TRY(hcl_vec_copy(v->psi_vec[1], v->psi_vec[0]));
  TRY(solve_psi(v, stage, 1, false));
  TRY(update(v, q1, stage, v->psi[1], t + dt, dt, (Stage){.alpha = 0.5, .beta = 0.5, .gamma = 0.5}));
  v->current = 1;
  v->step = 1;
cleanup:
  return status;
}

HclStatus hcl_vbm_step(Vbm *v, double t, double dt) {
  HclStatus status = HCL_OK;
  v->stats = (VbmSolveStats){0};
  if (!v->started) {
    TRY(start_up(v, t, dt));
    v->dt = dt;
    v->started = true;
    return HCL_OK;
  }
  REQUIRE(fabs(dt - v->dt) <= 1e-12 * v->dt, HCL_EINTERNAL,
          "a leapfrog step of %.17g s after steps of %.17g s: the model's step is fixed for a run (please report)", dt,
          v->dt);
  const Level *now = &v->level[v->current], *before = &v->level[1 - v->current];
  TRY(solve_psi(v, now, v->current, v->step >= 2)); /* step 1 starts from q*'s psi (start_up) */
  TRY(update(v, before, now, v->psi[v->current], t, dt, (Stage){.alpha = 1, .beta = 0, .gamma = 2}));
  v->current = 1 - v->current;
  v->step++;
cleanup:
  return status;
}

VbmSolveStats hcl_vbm_solve_stats(const Vbm *v) {
  return v->stats;
}

HclStatus hcl_vbm_last_residual(Vbm *v, double *relative) {
  *relative = NAN;
  return v->last_psi ? hcl_krylov_relative_residual(v->krylov, v->rhs_vec, v->last_psi, relative) : HCL_OK;
}

void hcl_vbm_set_timed(Vbm *v, bool timed) {
  v->timed = timed;
}

Field *hcl_vbm_zeta(Vbm *v) {
  return v->level[v->current].zeta;
}
Field *hcl_vbm_phi(Vbm *v) {
  return v->level[v->current].phi;
}
Field *hcl_vbm_psi(Vbm *v) {
  return v->psi[v->started ? 1 - v->current : v->current];
}
Field *hcl_vbm_depth(Vbm *v) {
  return v->depth;
}

void hcl_vbm_state_fields(Vbm *v, Field *fields[VBM_STATE_FIELDS]) {
  fields[0] = v->level[0].zeta;
  fields[1] = v->level[0].phi;
  fields[2] = v->level[1].zeta;
  fields[3] = v->level[1].phi;
  fields[4] = v->psi[0];
  fields[5] = v->psi[1];
}

HclStatus hcl_vbm_sync_state(Vbm *v, double dt, int64_t step) {
  HclStatus status = HCL_OK;
  v->current = (int)(step & 1);
  v->step = step;
  TRY(hcl_halo_exchange(v->level[0].halo));
  TRY(hcl_halo_exchange(v->level[1].halo));
  for (int c = 0; c < 2; c++) {
    hcl_vec_touch(v->psi_vec[c]);
    TRY(hcl_vec_ghosts(v->psi_vec[c]));
  }
  v->started = true;
  v->dt = dt;
cleanup:
  return status;
}

/* The checkpoint: copies of the state's fields (hcl_vbm_state_fields), which of the levels is the present one and
 * whether the leapfrog has started; the copies made on first use. */
HclStatus hcl_vbm_checkpoint(Vbm *v) {
  HclStatus status = HCL_OK;
  static const char *const names[VBM_STATE_FIELDS] = {"zeta_even_good", "phi_even_good", "zeta_odd_good",
                                                      "phi_odd_good",   "psi_even_good", "psi_odd_good"};
  Field *state[VBM_STATE_FIELDS];
  for (int f = 0; f < VBM_STATE_FIELDS && !v->good[f]; f++) {
    TRY(make_field(v, names[f], &v->good[f]));
  }
  hcl_vbm_state_fields(v, state);
  for (int f = 0; f < VBM_STATE_FIELDS; f++) {
    TRY(copy_field(v, state[f], v->good[f]));
  }
  for (int f = 0; v->extremes[0] && f < VBM_MAXIMA_FIELDS; f++) {
    if (!v->extremes_good[f]) {
      TRY(make_field(v, "extreme_good", &v->extremes_good[f]));
    }
    TRY(copy_field(v, v->extremes[f], v->extremes_good[f]));
  }
  v->good_started = v->started;
  v->good_current = v->current;
  v->good_step = v->step;
cleanup:
  return status;
}

HclStatus hcl_vbm_rollback(Vbm *v) {
  HclStatus status = HCL_OK;
  Field *state[VBM_STATE_FIELDS];
  ASSERT(v->good[0] != NULL);
  hcl_vbm_state_fields(v, state);
  for (int f = 0; f < VBM_STATE_FIELDS; f++) {
    TRY(copy_field(v, v->good[f], state[f]));
  }
  for (int f = 0; v->extremes_good[0] && f < VBM_MAXIMA_FIELDS; f++) {
    TRY(copy_field(v, v->extremes_good[f], v->extremes[f]));
  }
  v->started = v->good_started;
  v->current = v->good_current;
  v->step = v->good_step;
  hcl_vec_touch(v->psi_vec[0]);
  hcl_vec_touch(v->psi_vec[1]);
cleanup:
  return status;
}

HclStatus hcl_vbm_enable_maxima(Vbm *v) {
  HclStatus status = HCL_OK;
  static const char *const names[VBM_MAXIMA_FIELDS] = {"zeta_max", "zeta_min"};
  for (int f = 0; f < VBM_MAXIMA_FIELDS; f++) {
    TRY(make_field(v, names[f], &v->extremes[f]));
    TRY(copy_field(v, hcl_vbm_zeta(v), v->extremes[f]));
  }
cleanup:
  return status;
}

HclStatus hcl_vbm_accumulate_maxima(Vbm *v) {
  KernelArgs a = hcl_kernel_args(v->kernels[KERNEL_EXTREMES]);
  hcl_arg_mem(&a, hcl_field_buffer(hcl_vbm_zeta(v)));
  hcl_arg_mem(&a, hcl_field_buffer(v->extremes[0]));
  hcl_arg_mem(&a, hcl_field_buffer(v->extremes[1]));
  arg_grid(&a, v);
  return launch(v, &a, 5);
}

void hcl_vbm_maxima_fields(Vbm *v, Field *fields[VBM_MAXIMA_FIELDS]) {
  fields[0] = v->extremes[0];
  fields[1] = v->extremes[1];
}

HclStatus hcl_vbm_surface_rms(Vbm *v, double *rms) {
  HclStatus status = HCL_OK;
  double sum = 0;
  const DecompSpec *g = hcl_decomp_spec(v->decomp);
  TRY(hcl_reduce_dot(v->reducer, hcl_field_span(hcl_vbm_zeta(v)), hcl_field_span(hcl_vbm_zeta(v)), &sum));
  *rms = sqrt(sum / ((double)g->nx * g->ny));
cleanup:
  return status;
}

HclStatus hcl_vbm_volume(Vbm *v, double *volume) {
  HclStatus status = HCL_OK;
  double sum = 0;
  TRY(hcl_reduce_sum(v->reducer, hcl_field_span(hcl_vbm_zeta(v)), &sum));
  *volume = sum * v->config.dx * v->config.dy;
cleanup:
  return status;
}

HclStatus hcl_vbm_energy(Vbm *v, double *energy) {
  HclStatus status = HCL_OK;
  double sum = 0;
  int solved = v->started ? 1 - v->current : v->current; /* the level psi was last solved for */
  const Level *now = &v->level[solved];
  KernelArgs a = hcl_kernel_args(v->kernels[KERNEL_ENERGY]);
  hcl_arg_mem(&a, hcl_field_buffer(now->zeta));
  hcl_arg_mem(&a, hcl_field_buffer(now->phi));
  hcl_arg_mem(&a, hcl_field_buffer(v->psi[solved]));
  hcl_arg_mem(&a, hcl_field_buffer(v->depth));
  hcl_arg_mem(&a, hcl_field_buffer(v->hd_east));
  hcl_arg_mem(&a, hcl_field_buffer(v->hd_north));
  for (int m = 0; m < 3; m++) {
    hcl_arg_mem(&a, hcl_field_buffer(v->matrix[m]));
  }
  hcl_arg_mem(&a, hcl_field_buffer(v->energy));
  hcl_arg_real(&a, v->config.precision, v->config.g);
  arg_grid(&a, v);
  TRY(launch(v, &a, 10));
  TRY(hcl_reduce_sum(v->reducer, hcl_field_span(v->energy), &sum));
  *energy = sum * v->config.dx * v->config.dy;
cleanup:
  return status;
}

/* ---- dispersion and the stable step ---- */

/* The shape's h D, M and N at depth h (kernels_cl/vbm.cl's shape_at, in double). */
static void shape_at(double h, double kappa, double *hd, double *m, double *n) {
  double a = kappa * h, a2 = a * a;
  if (kappa == 0) {
    *hd = h * h / 3;
    *m = h / 3;
    *n = 2 * h * h * h / 15;
  } else if (a < 0.1) {
    *hd = h * a2 * (1.0 / 3 - a2 * (2.0 / 15 - a2 * 17.0 / 315));
    *m = kappa * a * a2 * (1.0 / 3 - a2 * (4.0 / 15 - a2 * 17.0 / 105));
    *n = h * a2 * a2 * (2.0 / 15 - a2 * (34.0 / 315 - a2 * 62.0 / 945));
  } else {
    double t = tanh(a), e = exp(-2 * a), sech2 = 4 * e / ((1 + e) * (1 + e));
    *hd = h - t / kappa;
    *m = kappa * (t - a * sech2) / 2;
    *n = h * (1 + sech2 / 2) - 3 * t / (2 * kappa);
  }
}

double hcl_vbm_omega(double g, double h, double kappa, double k) {
  double hd, m, n;
  shape_at(h, kappa, &hd, &m, &n);
  return sqrt(g * k * k * (h - hd * hd * k * k / (m + n * k * k)));
}

double hcl_vbm_phase_speed(double g, double h, double kappa, double k) {
  return k > 0 ? hcl_vbm_omega(g, h, kappa, k) / k : sqrt(g * h);
}

double hcl_vbm_wavenumber(double g, double h, double kappa, double omega) {
  double lo = 0, hi = 1;
  while (hcl_vbm_omega(g, h, kappa, hi) < omega && hi < 1e12) { /* omega grows with k without bound */
    hi *= 2;
  }
  for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; it++) {
    double mid = (lo + hi) / 2;
    (hcl_vbm_omega(g, h, kappa, mid) < omega ? (lo = mid) : (hi = mid));
  }
  return (lo + hi) / 2;
}

double hcl_vbm_stable_step(double g, double h_max, double kappa, double dx, double dy, double u_max, double v_max) {
  double k_max = sqrt(4 / (dx * dx) + 4 / (dy * dy));
  return 1 / (hcl_vbm_omega(g, h_max, kappa, k_max) + fabs(u_max) / dx + fabs(v_max) / dy);
}
