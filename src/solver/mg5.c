/* SPDX-License-Identifier: BSD-3-Clause */
/* mg5.c: the semicoarsening multigrid preconditioner of the 5-point systems (see mg5.h; kernels in
 * kernels_cl/mg5.cl). */
#include "mg5.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "clerror.h"
#include "env.h"
#include "gather.h"
#include "halo.h"
#include "kernel.h"
#include "log.h"
#include "par.h"
#include "program.h"
#include "stencil5.h"

enum { WG_X = 32, WG_Y = 4, MAX_LEVELS = 64 };
enum { K_WEIGHTS, K_RAP, K_COLLAPSE, K_RESTRICT, K_PROLONG, K_RESIDUAL, K_SMOOTH, K_SMOOTH_FIRST, K_TAIL, NKERNELS };
static const char *const kernel_names[NKERNELS] = {"mg_weights",  "mg_rap",          "mg_collapse",
                                                   "mg_restrict", "mg_prolong",      "mg_residual",
                                                   "mg_smooth",   "mg_smooth_first", "mg_tail"};
/* The tail: the levels from the first of at most TAIL_POINTS_PER_ITEM points a work-item on, in one launch. */
enum { TAIL_GROUP = 256, TAIL_POINTS_PER_ITEM = 16 };
/* On several ranks, the first level of at most GATHER_POINTS points, or the first that would leave a rank without a
 * point, is gathered onto every rank, which runs the levels below alone (gather.h). Every rank then computes the
 * gathered levels down to the tail's, where a split level would exchange: on two ranks sharing an H200, a solve of
 * the 4095^2 model problem (9 iterations) took 0.076 s gathering at 4096 points (the tail's capacity; 12 levels
 * split), 0.070 at 16384, 0.064 at 65536 (8 split), 0.063 at 262144, 0.075 at 1048576; on two PoCL ranks at 2047^2
 * 4096 and 65536 measured alike (2026-11-29). */
enum { GATHER_POINTS = 65536 };
/* The most fields one gather assembles: the Galerkin product's matrix and corners. */
enum { GATHERED_FIELDS = 5 };
/* The widest ghosts a split level takes for the communication-avoiding cycle (plan_wide): beyond, a level exchanges
 * its correction at the end of its visit instead of computing the ghosts its finer level reads. */
enum { WIDE_GHOST_MAX = 12 };

/* The largest level gathered: GATHER_POINTS, or the environment's HYDROCL_MG_GATHER_POINTS (0: only where splitting
 * would leave a rank without a point). */
static double gather_points(void) {
  return hcl_env_count("HYDROCL_MG_GATHER_POINTS", GATHER_POINTS);
}
/* A tail level's row in the table (mg5.cl's TAIL_* fields): nx, ny, pitch, halves, relaxed, then the offsets of its
 * arrays in the packed buffer. */
enum { ROW_NX, ROW_NY, ROW_PITCH, ROW_HALVES, ROW_RELAXED, ROW_ARRAYS, TAIL_ARRAYS = 8, ROW_FIELDS = 13 };
enum { RED, BLACK };
enum { HALVES_NONE = -1, HALVES_X = 0, HALVES_Y = 1 };

typedef struct {
  Decomp *own_decomp; /* NULL on the finest level, which is the operator's */
  const Decomp *decomp;
  Operator *op; /* this level's 5-point operator: the system's (borrowed) or made here */
  bool owns_op;
  Field *matrix[3]; /* op's centre, east, north (their ghosts exchanged by hcl_operator_setup) */
  Vec *b, *x, *r; /* right-hand side and correction (the finest level's are the apply's, unless converted), residual */
  Vec *wm, *wp;   /* the interpolation weights from the next level's points at -d and +d */
  Halo *weights_halo, *corners_halo; /* wm and wp; x and r as the Galerkin product's corners (setup) */
  int halves;                        /* the direction halved to the next level, or HALVES_NONE */
  bool relaxed;                      /* false: PFMG's skipped relaxation (mg5.h) */
  bool isotropic;                    /* its couplings' sums in x and y within a factor 2 of each other */
  int ghost;        /* of its fields: 1, or wider on a split level of the communication-avoiding cycle */
  int reach;        /* that cycle: the ghosts of x the prolongation into this level writes */
  bool exchange_up; /* that cycle: x exchanged at the end of the visit (its finer level reads more than it keeps) */
} Level;

typedef struct {
  Mg5Options options;
  Precision precision; /* the levels' */
  Runtime *rt;
  Level levels[MAX_LEVELS];
  int nlevels;
  bool converts;      /* the levels' precision is not the operator's: the finest level is its converted copy */
  bool wide;          /* the split levels run the communication-avoiding cycle (plan_wide) */
  int coarse_sweeps;  /* symmetric sweep pairs on the coarsest level */
  int gathered;       /* the first level gathered onto every rank, or nlevels (none: one rank, or none small) */
  Gather *gather;     /* its assembly from the ranks' blocks */
  int tail;           /* the first level of the one-launch tail, or nlevels (none: periodic sides) */
  double tail_points; /* the tail's levels' points together */
  size_t tail_group;  /* its work-group */
  cl_mem pack, table; /* the tail's arrays and their table */
  int tail_offsets[MAX_LEVELS][TAIL_ARRAYS];
  cl_program program;
  cl_kernel kernels[NKERNELS];
} Mg5;

static void level_free(Level *L) {
  hcl_halo_destroy(&L->weights_halo);
  hcl_halo_destroy(&L->corners_halo);
  Vec **vectors[] = {&L->b, &L->x, &L->r, &L->wm, &L->wp};
  for (size_t v = 0; v < sizeof vectors / sizeof vectors[0]; v++) {
    hcl_vec_destroy(vectors[v]);
  }
  if (L->owns_op) {
    hcl_operator_destroy(&L->op);
  }
  L->owns_op = false;
  hcl_decomp_destroy(&L->own_decomp);
}

static void destroy(void *ctx) {
  Mg5 *m = ctx;
  if (!m) {
    return;
  }
  for (int l = m->nlevels - 1; l >= 0; l--) {
    level_free(&m->levels[l]);
  }
  cl_mem buffers[] = {m->pack, m->table};
  for (size_t b = 0; b < 2; b++) {
    if (buffers[b]) {
      clReleaseMemObject(buffers[b]);
    }
  }
  hcl_gather_destroy(&m->gather);
  hcl_program_release(&m->program, m->kernels, NKERNELS);
  free(m);
}

/* ---- launches ---- */

static const DecompLocal *local_of(const Level *L) {
  return hcl_decomp_local(L->decomp);
}

static int pitch_of(const Level *L) {
  return hcl_field_pitch(L->matrix[0]);
}

/* How far a kernel moves its pointers to address the level's fields with mg5.cl's AT (ghost width 1). */
static int shift_of(const Level *L) {
  return (L->ghost - 1) * (pitch_of(L) + 1);
}

static bool split(const Level *L) {
  return local_of(L)->px * local_of(L)->py > 1;
}

/* The finest level is a copy of the operator's: converted to the levels' precision, or with wider ghosts. */
static bool own_finest(const Mg5 *m) {
  return m->converts || m->wide;
}

/* A launch over nx x ny points, arrays: the values it moves a point. */
static HclStatus launch_box(Mg5 *m, KernelArgs *a, int nx, int ny, double arrays) {
  return hcl_kernel_launch(m->rt, a, hcl_kernel_grid(m->rt, nx, ny, WG_X, WG_Y),
                           arrays * nx * ny * hcl_precision_bytes(m->precision));
}

static HclStatus launch_points(Mg5 *m, KernelArgs *a, const Level *L, double arrays) {
  return launch_box(m, a, local_of(L)->nx, local_of(L)->ny, arrays);
}

/* A launch over a box of the level's points (local indices, ghosts included on a wide level) of a kernel whose last
 * arguments are the box's first point and the level's shift (mg5.cl). */
static HclStatus launch_in(Mg5 *m, KernelArgs *a, const Level *L, CellBox box, double arrays) {
  hcl_arg_int(a, box.x0);
  hcl_arg_int(a, box.y0);
  hcl_arg_int(a, shift_of(L));
  return launch_box(m, a, box.nx, box.ny, arrays);
}

/* Level L's owned points and w more on each side towards another rank (a wide level's ghosts; it has no periodic
 * side, plan_wide). */
static CellBox widened(const Level *L, int w) {
  const DecompLocal *l = local_of(L);
  int west = l->neighbor[1][0] >= 0 ? w : 0, east = l->neighbor[1][2] >= 0 ? w : 0;
  int south = l->neighbor[0][1] >= 0 ? w : 0, north = l->neighbor[2][1] >= 0 ? w : 0;
  return (CellBox){-west, -south, l->nx + west + east, l->ny + south + north};
}

static void arg_matrix(KernelArgs *a, const Level *L) {
  for (int f = 0; f < 3; f++) {
    hcl_arg_mem(a, hcl_field_buffer(L->matrix[f]));
  }
}

/* The direction's unit vector and the fine block's local indices of the coarse block's first point (mg5.cl). */
static void arg_direction(KernelArgs *a, const Level *f, const Level *c) {
  const DecompLocal *lf = local_of(f), *lc = local_of(c);
  bool x = f->halves == HALVES_X;
  hcl_arg_int(a, x);
  hcl_arg_int(a, !x);
  hcl_arg_int(a, (x ? 2 * lc->x0 + 1 : lc->x0) - lf->x0);
  hcl_arg_int(a, (x ? lc->y0 : 2 * lc->y0 + 1) - lf->y0);
}

/* A grid transfer into level c (its kernel's arguments up to the coarse box's size given: mg5.cl's mg_restrict,
 * mg_rap), over c's points, or on the gathered level over the points of this rank's block of f, which one gather then
 * assembles on every rank in the fields the transfer wrote (made). arrays: the values it moves a point. */
static HclStatus launch_transfer(Mg5 *m, KernelArgs *a, Level *f, Level *c, double arrays, Field *const *made,
                                 int count) {
  HclStatus status = HCL_OK;
  bool gathered = c == &m->levels[m->gathered];
  int box[4] = {0, 0, local_of(c)->nx, local_of(c)->ny};
  if (gathered) {
    hcl_gather_block(m->gather, box);
  }
  hcl_arg_int(a, box[2]);
  hcl_arg_int(a, box[3]);
  hcl_arg_int(a, pitch_of(f));
  hcl_arg_int(a, pitch_of(c));
  arg_direction(a, f, c);
  hcl_arg_int(a, box[0]);
  hcl_arg_int(a, box[1]);
  hcl_arg_int(a, shift_of(f));
  hcl_arg_int(a, shift_of(c));
  if (box[2] > 0 && box[3] > 0) {
    TRY(launch_box(m, a, box[2], box[3], arrays));
  }
  if (gathered) {
    TRY(hcl_gather_fields(m->gather, made, count));
  }
cleanup:
  return status;
}

/* One red-black half-sweep of colour on level L over box, or (first) the red and the black one from x = 0. The
 * ghosts it reads (b's for the first, else x's) are the caller's to exchange. */
static HclStatus smooth(Mg5 *m, Level *L, Vec *b, Vec *x, int colour, bool first, CellBox box) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = local_of(L);
  KernelArgs a = hcl_kernel_args(m->kernels[first ? K_SMOOTH_FIRST : K_SMOOTH]);
  arg_matrix(&a, L);
  hcl_arg_mem(&a, hcl_vec_buffer(b));
  hcl_arg_mem(&a, hcl_vec_buffer(x));
  hcl_arg_int(&a, box.nx);
  hcl_arg_int(&a, box.ny);
  hcl_arg_int(&a, pitch_of(L));
  hcl_arg_int(&a, (l->x0 + l->y0) & 1);
  hcl_arg_int(&a, colour);
  TRY(launch_in(m, &a, L, box, first ? 5 : 6));
  hcl_vec_touch(x);
cleanup:
  return status;
}

/* r = b - S x over box (x's ghosts exchanged by the caller). */
static HclStatus residual(Mg5 *m, Level *L, Vec *b, Vec *x, CellBox box) {
  HclStatus status = HCL_OK;
  KernelArgs a = hcl_kernel_args(m->kernels[K_RESIDUAL]);
  arg_matrix(&a, L);
  hcl_arg_mem(&a, hcl_vec_buffer(b));
  hcl_arg_mem(&a, hcl_vec_buffer(x));
  hcl_arg_mem(&a, hcl_vec_buffer(L->r));
  hcl_arg_int(&a, box.nx);
  hcl_arg_int(&a, box.ny);
  hcl_arg_int(&a, pitch_of(L));
  TRY(launch_in(m, &a, L, box, 7));
  hcl_vec_touch(L->r);
cleanup:
  return status;
}

/* b_c = P^T r (r's ghosts exchanged by the caller); on the gathered level, each rank's block assembled on every
 * rank. */
static HclStatus restrict_to(Mg5 *m, Level *f, Vec *r, Level *c) {
  HclStatus status = HCL_OK;
  KernelArgs a = hcl_kernel_args(m->kernels[K_RESTRICT]);
  hcl_arg_mem(&a, hcl_vec_buffer(r));
  hcl_arg_mem(&a, hcl_vec_buffer(f->wm));
  hcl_arg_mem(&a, hcl_vec_buffer(f->wp));
  hcl_arg_mem(&a, hcl_vec_buffer(c->b));
  TRY(launch_transfer(m, &a, f, c, 6, (Field *[]){hcl_vec_field(c->b)}, 1));
  hcl_vec_touch(c->b);
cleanup:
  return status;
}

/* x_f += P e_c (add), or x_f = P e_c, over a box of f's points (e_c's ghosts exchanged by the caller). */
static HclStatus prolong_to(Mg5 *m, Level *c, Level *f, Vec *x, bool add, CellBox box) {
  HclStatus status = HCL_OK;
  const DecompLocal *lf = local_of(f), *lc = local_of(c);
  bool along_x = f->halves == HALVES_X;
  KernelArgs a = hcl_kernel_args(m->kernels[K_PROLONG]);
  hcl_arg_mem(&a, hcl_vec_buffer(x));
  hcl_arg_mem(&a, hcl_vec_buffer(c->x));
  hcl_arg_mem(&a, hcl_vec_buffer(f->wm));
  hcl_arg_mem(&a, hcl_vec_buffer(f->wp));
  hcl_arg_int(&a, box.nx);
  hcl_arg_int(&a, box.ny);
  hcl_arg_int(&a, pitch_of(f));
  hcl_arg_int(&a, pitch_of(c));
  hcl_arg_int(&a, along_x);
  hcl_arg_int(&a, !along_x);
  hcl_arg_int(&a, along_x ? lf->x0 : lf->y0);
  hcl_arg_int(&a, along_x ? lc->x0 : lc->y0);
  hcl_arg_int(&a, along_x ? lf->y0 - lc->y0 : lf->x0 - lc->x0);
  hcl_arg_int(&a, add);
  hcl_arg_int(&a, box.x0);
  hcl_arg_int(&a, box.y0);
  hcl_arg_int(&a, shift_of(f));
  hcl_arg_int(&a, shift_of(c));
  TRY(launch_box(m, &a, box.nx, box.ny, add ? 4.5 : 3.5));
  hcl_vec_touch(x);
cleanup:
  return status;
}

/* ---- the V-cycle ---- */

/* The levels from the tail's first on, one launch of one work-group (mg5.cl: mg_tail). */
static HclStatus tail_cycle(Mg5 *m, Vec *b, Vec *x) {
  HclStatus status = HCL_OK;
  KernelArgs a = hcl_kernel_args(m->kernels[K_TAIL]);
  hcl_arg_mem(&a, m->pack);
  hcl_arg_mem(&a, m->table);
  hcl_arg_int(&a, m->nlevels - m->tail);
  hcl_arg_int(&a, m->coarse_sweeps);
  hcl_arg_mem(&a, hcl_vec_buffer(b));
  hcl_arg_mem(&a, hcl_vec_buffer(x));
  TRY(hcl_kernel_launch(m->rt, &a, hcl_kernel_groups(1, m->tail_group),
                        30 * m->tail_points * hcl_precision_bytes(m->precision)));
  hcl_vec_touch(x);
cleanup:
  return status;
}

/* A half-sweep over the owned points, the ghosts it reads exchanged first. */
static HclStatus sweep(Mg5 *m, Level *L, Vec *b, Vec *x, int colour, bool first) {
  HclStatus status = HCL_OK;
  TRY(hcl_vec_ghosts(first ? b : x));
  TRY(smooth(m, L, b, x, colour, first, widened(L, 0)));
cleanup:
  return status;
}

/* x = M_l^-1 b on level l, from x = 0: a red and a black half-sweep, the coarse correction, the black and the red;
 * on the coarsest level coarse_sweeps such pairs each way; on a level that is not relaxed, the coarse correction of
 * b alone (M_l^-1 = P M_{l+1}^-1 P^T). Every step on the owned points, the ghosts it reads exchanged before it. */
static HclStatus cycle(Mg5 *m, int l, Vec *b, Vec *x) {
  HclStatus status = HCL_OK;
  Level *L = &m->levels[l], *C = &m->levels[l + 1];
  CellBox own = widened(L, 0);
  if (l == m->tail) {
    TRY(tail_cycle(m, b, x));
    goto cleanup;
  }
  if (!L->relaxed) {
    TRY(hcl_vec_ghosts(b));
    TRY(restrict_to(m, L, b, C));
    TRY(cycle(m, l + 1, C->b, C->x));
    TRY(hcl_vec_ghosts(C->x));
    TRY(prolong_to(m, C, L, x, false, own));
    goto cleanup;
  }
  int pairs = L->halves == HALVES_NONE ? m->coarse_sweeps : 1;
  TRY(sweep(m, L, b, x, RED, true));
  for (int s = 1; s < pairs; s++) {
    TRY(sweep(m, L, b, x, RED, false));
    TRY(sweep(m, L, b, x, BLACK, false));
  }
  if (L->halves != HALVES_NONE) {
    TRY(hcl_vec_ghosts(x));
    TRY(residual(m, L, b, x, own));
    TRY(hcl_vec_ghosts(L->r));
    TRY(restrict_to(m, L, L->r, C));
    TRY(cycle(m, l + 1, C->b, C->x));
    TRY(hcl_vec_ghosts(C->x));
    TRY(prolong_to(m, C, L, x, true, own));
  }
  for (int s = 0; s < pairs; s++) {
    TRY(sweep(m, L, b, x, BLACK, false));
    TRY(sweep(m, L, b, x, RED, false));
  }
cleanup:
  return status;
}

/* The communication-avoiding V-cycle from split level l down (plan_wide): the level's b exchanged once over its
 * ghosts, then each step over as many of them as it can still compute, so that x ends the visit valid on the reach
 * its finer level's prolongation reads, with no other exchange (or, where the level exchanges up, on its own points
 * and then exchanged). The gathered level and those below run the plain cycle, alone on every rank. A step's result
 * on a ghost point is its owner's arithmetic on its owner's values: the plain cycle's bits. */
static HclStatus wide_cycle(Mg5 *m, int l) {
  HclStatus status = HCL_OK;
  Level *L = &m->levels[l], *C = &m->levels[l + 1];
  if (l == m->gathered) {
    TRY(cycle(m, l, L->b, L->x));
    goto cleanup;
  }
  TRY(hcl_vec_ghosts(L->b));
  if (L->relaxed) {
    TRY(smooth(m, L, L->b, L->x, RED, true, widened(L, L->ghost - 1))); /* reads b one point further */
    TRY(residual(m, L, L->b, L->x, widened(L, 1))); /* the restriction reads one point beyond the block */
    TRY(restrict_to(m, L, L->r, C));
  } else {
    TRY(restrict_to(m, L, L->b, C));
  }
  TRY(wide_cycle(m, l + 1));
  TRY(prolong_to(m, C, L, L->x, L->relaxed, widened(L, L->reach)));
  if (L->relaxed) {
    TRY(smooth(m, L, L->b, L->x, BLACK, false, widened(L, L->reach - 1)));
    TRY(smooth(m, L, L->b, L->x, RED, false, widened(L, L->reach - 2)));
  }
  if (L->exchange_up) {
    TRY(hcl_vec_ghosts(L->x));
  }
cleanup:
  return status;
}

static HclStatus apply(void *ctx, Vec *r, Vec *z) {
  HclStatus status = HCL_OK;
  Mg5 *m = ctx;
  Level *L = &m->levels[0];
  if (!own_finest(m)) {
    TRY(cycle(m, 0, r, z));
    goto cleanup;
  }
  TRY(hcl_vec_convert(L->b, r));
  TRY(m->wide ? wide_cycle(m, 0) : cycle(m, 0, L->b, L->x));
  TRY(hcl_vec_convert(z, L->x));
cleanup:
  return status;
}

/* ---- set-up ---- */

/* The interpolation weights of level f towards the next, their ghosts exchanged. */
static HclStatus make_weights(Mg5 *m, Level *f) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = local_of(f);
  bool along_x = f->halves == HALVES_X;
  KernelArgs a = hcl_kernel_args(m->kernels[K_WEIGHTS]);
  arg_matrix(&a, f);
  hcl_arg_mem(&a, hcl_vec_buffer(f->wm));
  hcl_arg_mem(&a, hcl_vec_buffer(f->wp));
  hcl_arg_int(&a, l->nx);
  hcl_arg_int(&a, l->ny);
  hcl_arg_int(&a, pitch_of(f));
  hcl_arg_int(&a, along_x);
  hcl_arg_int(&a, !along_x);
  hcl_arg_int(&a, (along_x ? l->x0 : l->y0) & 1);
  hcl_arg_int(&a, shift_of(f));
  TRY(launch_points(m, &a, f, 5));
  hcl_vec_touch(f->wm);
  hcl_vec_touch(f->wp);
  TRY(hcl_halo_exchange(f->weights_halo));
cleanup:
  return status;
}

/* Level c's matrix from level f's: R S P row by row (its corners into c's x and r, as scratch; on the gathered level
 * each rank's block, assembled on every rank), folded onto 5 points, its matrix's ghosts exchanged and its centre
 * checked (hcl_operator_setup). */
static HclStatus make_coarse_matrix(Mg5 *m, Level *f, Level *c) {
  HclStatus status = HCL_OK;
  const DecompLocal *lc = local_of(c);
  TRY(make_weights(m, f));
  KernelArgs a = hcl_kernel_args(m->kernels[K_RAP]);
  arg_matrix(&a, f);
  hcl_arg_mem(&a, hcl_vec_buffer(f->wm));
  hcl_arg_mem(&a, hcl_vec_buffer(f->wp));
  arg_matrix(&a, c);
  hcl_arg_mem(&a, hcl_vec_buffer(c->x));
  hcl_arg_mem(&a, hcl_vec_buffer(c->r));
  Field *made[] = {c->matrix[0], c->matrix[1], c->matrix[2], hcl_vec_field(c->x), hcl_vec_field(c->r)};
  TRY(launch_transfer(m, &a, f, c, 20, made, GATHERED_FIELDS));
  hcl_vec_touch(c->x);
  hcl_vec_touch(c->r);
  TRY(hcl_halo_exchange(c->corners_halo));
  a = hcl_kernel_args(m->kernels[K_COLLAPSE]);
  arg_matrix(&a, c);
  hcl_arg_mem(&a, hcl_vec_buffer(c->x));
  hcl_arg_mem(&a, hcl_vec_buffer(c->r));
  hcl_arg_int(&a, lc->nx);
  hcl_arg_int(&a, lc->ny);
  hcl_arg_int(&a, pitch_of(c));
  hcl_arg_int(&a, shift_of(c));
  TRY(launch_points(m, &a, c, 8));
  TRY(hcl_operator_setup(c->op));
cleanup:
  return status;
}

/* Whether the level below L can halve a direction: two points or more, an even count across a periodic side, and a
 * point left on every rank, or L split (the level below is then gathered onto every rank: coarse_decomp). */
static bool can_halve(const Level *L, bool along_x) {
  const DecompSpec *g = hcl_decomp_spec(L->decomp);
  int n = along_x ? g->nx : g->ny;
  bool periodic = along_x ? g->periodic_x : g->periodic_y;
  return n >= 2 && !(periodic && n % 2) && (split(L) || hcl_decomp_can_halve_odd(L->decomp, along_x, !along_x));
}

/* PFMG's rule: the direction of the stronger couplings (summed over the level), of those the level can halve;
 * HALVES_NONE when it can halve neither. */
static HclStatus choose_direction(Level *L, int *halves) {
  HclStatus status = HCL_OK;
  L->isotropic = false;
  bool can_x = can_halve(L, true), can_y = can_halve(L, false);
  *halves = can_x ? HALVES_X : can_y ? HALVES_Y : HALVES_NONE;
  if (can_x && can_y) {
    double east = 0, north = 0;
    Reducer *reducer = hcl_vspace_reducer(hcl_operator_space(L->op));
    TRY(hcl_reduce_sum(reducer, hcl_field_span(L->matrix[1]), &east));
    TRY(hcl_reduce_sum(reducer, hcl_field_span(L->matrix[2]), &north));
    *halves = fabs(north) > fabs(east) ? HALVES_Y : HALVES_X;
    L->isotropic = fabs(north) <= 2 * fabs(east) && fabs(east) <= 2 * fabs(north);
  }
cleanup:
  return status;
}

/* PFMG's skipped relaxation: a level halving the other direction than the relaxed, isotropic level before it (the
 * second half of an isotropic pair, x then y) is not relaxed; the finest and the coarsest always are. Skipping also
 * below anisotropic levels cost the 1000:1 system of test_mg5 two iterations at 1023^2 (14 against 12). */
static void choose_relaxed(Mg5 *m) {
  for (int l = 0; l < m->nlevels; l++) {
    Level *L = &m->levels[l], *finer = l > 0 ? &m->levels[l - 1] : NULL;
    L->relaxed =
        !finer || L->halves == HALVES_NONE || !finer->relaxed || !finer->isotropic || finer->halves == L->halves;
  }
}

/* A level's operator (made on its decomposition with its ghosts unless given), its matrix and its vectors. */
static HclStatus make_level(Mg5 *m, Level *L, Operator *given, bool own_vectors) {
  HclStatus status = HCL_OK;
  if (given) {
    L->op = given;
  } else {
    TRY(hcl_stencil5_create_ghosted(m->rt, L->decomp, m->precision, L->ghost, &L->op));
    L->owns_op = true;
  }
  TRY(hcl_stencil5_fields(L->op, L->matrix));
  VecSpace *space = hcl_operator_space(L->op);
  if (own_vectors) {
    TRY(hcl_vec_create(space, "multigrid right-hand side", &L->b));
    TRY(hcl_vec_create(space, "multigrid correction", &L->x));
  }
  TRY(hcl_vec_create(space, "multigrid residual", &L->r));
  TRY(hcl_vec_create(space, "multigrid weights -", &L->wm));
  TRY(hcl_vec_create(space, "multigrid weights +", &L->wp));
  TRY(hcl_halo_create((Field *[]){hcl_vec_field(L->wm), hcl_vec_field(L->wp)}, 2, &L->weights_halo));
  if (own_vectors) {
    TRY(hcl_halo_create((Field *[]){hcl_vec_field(L->x), hcl_vec_field(L->r)}, 2, &L->corners_halo));
  }
cleanup:
  return status;
}

/* The finest level: the operator itself, or a copy in the levels' precision or with wider ghosts (its matrix
 * converted at every setup). */
static HclStatus make_finest(Mg5 *m, Operator *op) {
  m->levels[0].decomp = hcl_stencil5_decomp(op);
  return make_level(m, &m->levels[0], own_finest(m) ? NULL : op, own_finest(m));
}

/* The tail's packed arrays: the matrices and weights copied from the levels' fields at every setup (b, x and r are
 * the tail's own, their ghosts the zeros the buffer starts with). */
static HclStatus pack_tail(Mg5 *m) {
  HclStatus status = HCL_OK;
  size_t real = hcl_precision_bytes(m->precision);
  for (int l = m->tail; l < m->nlevels; l++) {
    Level *L = &m->levels[l];
    Field *from[] = {L->matrix[0], L->matrix[1], L->matrix[2], hcl_vec_field(L->wm), hcl_vec_field(L->wp)};
    for (int f = 0; f < 5; f++) {
      TRY_CL(clEnqueueCopyBuffer(hcl_runtime_queue(m->rt), hcl_field_buffer(from[f]), m->pack, 0,
                                 (size_t)m->tail_offsets[l][f] * real, hcl_field_count(from[f]) * real, 0, NULL, NULL));
    }
  }
cleanup:
  return status;
}

/* Where the tail starts (on a level of one rank, or gathered onto every rank, with closed sides: the tail exchanges
 * no ghosts), its table and buffer. */
static HclStatus plan_tail(Mg5 *m) {
  HclStatus status = HCL_OK;
  int *table = NULL;
  const DecompSpec *g = hcl_decomp_spec(m->levels[0].decomp);
  m->tail = m->nlevels;
  if (m->options.level_by_level || g->periodic_x || g->periodic_y) {
    goto cleanup;
  }
  TRY(hcl_kernel_group_limit(m->rt, m->kernels[K_TAIL], &m->tail_group));
  m->tail_group = m->tail_group < TAIL_GROUP ? m->tail_group : TAIL_GROUP;
  for (int l = 1; l < m->nlevels && m->tail == m->nlevels; l++) {
    const DecompSpec *s = hcl_decomp_spec(m->levels[l].decomp);
    if (!split(&m->levels[l]) && (double)s->nx * s->ny <= (double)TAIL_POINTS_PER_ITEM * m->tail_group) {
      m->tail = l;
    }
  }
  int rows = m->nlevels - m->tail;
  if (rows == 0) {
    goto cleanup;
  }
  TRY_ALLOC(table, (size_t)rows * ROW_FIELDS);
  int used = 0;
  for (int l = m->tail; l < m->nlevels; l++) {
    Level *L = &m->levels[l];
    int *row = table + (size_t)(l - m->tail) * ROW_FIELDS, count = (int)hcl_field_count(L->matrix[0]);
    row[ROW_NX] = local_of(L)->nx;
    row[ROW_NY] = local_of(L)->ny;
    row[ROW_PITCH] = pitch_of(L);
    row[ROW_HALVES] = L->halves;
    row[ROW_RELAXED] = L->relaxed;
    m->tail_points += (double)local_of(L)->nx * local_of(L)->ny;
    for (int a = 0; a < TAIL_ARRAYS; a++) {
      row[ROW_ARRAYS + a] = m->tail_offsets[l][a] = used;
      used += count;
    }
  }
  size_t bytes = (size_t)used * hcl_precision_bytes(m->precision);
  TRY(hcl_runtime_buffer(m->rt, bytes, "multigrid tail", &m->pack));
  TRY(hcl_runtime_zero(m->rt, m->pack, bytes));
  TRY(hcl_runtime_buffer(m->rt, sizeof *table * (size_t)rows * ROW_FIELDS, "multigrid tail table", &m->table));
  TRY_CL(clEnqueueWriteBuffer(hcl_runtime_queue(m->rt), m->table, CL_TRUE, 0, sizeof *table * (size_t)rows * ROW_FIELDS,
                              table, 0, NULL, NULL));
cleanup:
  free(table);
  return status;
}

/* Level c's decomposition below level f's: gathered onto every rank (replicated) where f is split and c small, or
 * where splitting c would leave a rank without a point; else f's blocks halved. */
static HclStatus coarse_decomp(Mg5 *m, const Level *f, int c) {
  HclStatus status = HCL_OK;
  bool along_x = f->halves == HALVES_X;
  const DecompSpec *g = hcl_decomp_spec(f->decomp);
  int nx = along_x ? g->nx / 2 : g->nx, ny = along_x ? g->ny : g->ny / 2; /* decomp.h: floor(n / 2) */
  Decomp **made = &m->levels[c].own_decomp;
  if (!split(f) || ((double)nx * ny > gather_points() && hcl_decomp_can_halve_odd(f->decomp, along_x, !along_x))) {
    TRY(hcl_decomp_create_odd(f->decomp, along_x, !along_x, made));
    goto cleanup;
  }
  m->gathered = c;
  TRY(hcl_decomp_create_replicated(f->decomp, nx, ny, made));
  TRY(hcl_gather_create(f->decomp, along_x, !along_x, true, nx, ny,
                        (size_t)GATHERED_FIELDS * nx * ny * hcl_precision_bytes(m->precision), &m->gather));
cleanup:
  return status;
}

static void describe(const Mg5 *m) {
  int split_levels = 0;
  char ghosts[MAX_LEVELS * 8] = "", tail[32] = "none";
  for (int l = 0; l < m->nlevels; l++) {
    split_levels += split(&m->levels[l]);
  }
  size_t used = 0;
  for (int l = 0; m->wide && l < m->gathered && used < sizeof ghosts; l++) {
    used += (size_t)snprintf(ghosts + used, sizeof ghosts - used, " %d%s", m->levels[l].ghost,
                             m->levels[l].exchange_up ? "+" : "");
  }
  if (m->tail < m->nlevels) {
    snprintf(tail, sizeof tail, "from level %d", m->tail);
  }
  hcl_log_verbose(
      "5-point multigrid: %d levels, %d split over the ranks (%s%s), %d gathered onto every rank; one-launch "
      "tail %s",
      m->nlevels, split_levels, m->wide ? "communication-avoiding, ghosts" : "plain cycle", ghosts,
      split_levels ? m->nlevels - m->gathered : 0, tail);
}

/* The fewest points a rank owns of level L along a direction split over several ranks (a ghost width may not exceed
 * it: field.h). */
static int smallest_block(const Level *L) {
  const DecompLocal *l = local_of(L);
  int smallest = INT_MAX;
  for (int r = 0; r < hcl_par_size(); r++) {
    int x0, y0, nx, ny;
    hcl_decomp_block_of(L->decomp, r, &x0, &y0, &nx, &ny);
    smallest = l->px > 1 && nx < smallest ? nx : smallest;
    smallest = l->py > 1 && ny < smallest ? ny : smallest;
  }
  return smallest;
}

/* The ghosts of level c the prolongation into reach ghosts of its finer level reads: along the halved direction
 * half of them and one more (a fine point's parents are g / 2 - 1 and g / 2), across it as many. */
static int coarse_keep(int reach) {
  int along = (reach + 1) / 2 + 1;
  return reach > along ? reach : along;
}

/* The communication-avoiding cycle (after the ghost-avoiding smoothing of Williams et al., Optimization of geometric
 * multigrid for emerging multi- and manycore processors, 2012, as the potential-flow V-cycle's, laplace/mg.c): a
 * split level exchanges its b once a visit, over ghosts wide enough that its steps compute the ghosts they read
 * themselves. Planned from the finest level down, each level keeping the ghosts of x its finer level's prolongation
 * reads (keep): the first half-sweep pair from x = 0 over ghost - 1 (it reads b and c one point further), the
 * residual over 1 (the restriction's reach), on the way back the prolongation over reach = keep + 2 and the two
 * half-sweeps each over one fewer, which needs ghost >= keep + 3 (a level PFMG leaves unrelaxed needs fewer; the
 * widths are the relaxed ones). Where that exceeds WIDE_GHOST_MAX the level exchanges x at the end of its visit
 * instead (keep from its own points). False (the plain cycle) on one rank, across a periodic side, where a rank's
 * block is narrower than its level's ghosts, and with the environment's HYDROCL_MG_WIDE=0 (the rank tests compare
 * the two). */
static bool plan_wide(Mg5 *m) {
  const DecompSpec *g = hcl_decomp_spec(m->levels[0].decomp);
  if (!split(&m->levels[0]) || g->periodic_x || g->periodic_y || hcl_env_count("HYDROCL_MG_WIDE", 1) == 0) {
    return false;
  }
  int ghost[MAX_LEVELS], reach[MAX_LEVELS], keep = 0;
  bool up[MAX_LEVELS];
  for (int l = 0; l < m->gathered; l++) {
    up[l] = keep + 3 > WIDE_GHOST_MAX;
    ghost[l] = !up[l] ? keep + 3 : keep > 3 ? keep : 3;
    if (ghost[l] > WIDE_GHOST_MAX || ghost[l] > smallest_block(&m->levels[l])) {
      return false;
    }
    reach[l] = (up[l] ? 0 : keep) + (m->levels[l].relaxed ? 2 : 0);
    keep = coarse_keep(reach[l]);
  }
  for (int l = 0; l < m->gathered; l++) {
    m->levels[l].ghost = ghost[l];
    m->levels[l].reach = reach[l];
    m->levels[l].exchange_up = up[l];
  }
  return true;
}

/* The hierarchy: each level's direction from its matrix (or as planned: a second build, with the widths of
 * plan_wide), then the next level and its matrix. */
static HclStatus build_levels(Mg5 *m, Operator *op, bool planned) {
  HclStatus status = HCL_OK;
  if (!planned) {
    m->levels[0].ghost = 1;
  }
  TRY(make_finest(m, op));
  m->nlevels = 1;
  if (own_finest(m)) {
    TRY(hcl_stencil5_convert_matrix(m->levels[0].op, op));
  }
  for (int l = 0;; l++) {
    Level *f = &m->levels[l];
    if (!planned) {
      TRY(choose_direction(f, &f->halves));
    }
    if (f->halves == HALVES_NONE || l + 1 == MAX_LEVELS) {
      f->halves = HALVES_NONE;
      break;
    }
    Level *c = &m->levels[l + 1];
    TRY(coarse_decomp(m, f, l + 1));
    c->decomp = c->own_decomp;
    if (!planned) {
      c->ghost = 1;
    }
    m->nlevels++;
    TRY(make_level(m, c, NULL, true));
    TRY(make_coarse_matrix(m, f, c));
  }
cleanup:
  return status;
}

/* The hierarchy at the first setup, built again with wider ghosts where the communication-avoiding cycle applies,
 * and its tail. */
static HclStatus first_setup(Mg5 *m, Operator *op) {
  HclStatus status = HCL_OK;
  m->gathered = MAX_LEVELS; /* none yet (launch_transfer) */
  TRY(build_levels(m, op, false));
  m->gathered = m->gathered < m->nlevels ? m->gathered : m->nlevels;
  const DecompSpec *coarsest = hcl_decomp_spec(m->levels[m->nlevels - 1].decomp);
  m->coarse_sweeps = coarsest->nx + coarsest->ny;
  choose_relaxed(m);
  if (plan_wide(m)) {
    for (int l = m->nlevels - 1; l >= 0; l--) {
      level_free(&m->levels[l]);
    }
    hcl_gather_destroy(&m->gather); /* it holds the first build's communicator */
    m->wide = true;
    TRY(build_levels(m, op, true));
  }
  TRY(plan_tail(m));
  TRY(pack_tail(m));
  describe(m);
cleanup:
  return status;
}

static HclStatus setup(void *ctx, Operator *op) {
  HclStatus status = HCL_OK;
  Mg5 *m = ctx;
  Field *matrix[3];
  TRY(hcl_stencil5_fields(op, matrix)); /* a 5-point operator, or HCL_EDATA naming it */
  if (m->nlevels == 0) {
    m->rt = hcl_stencil5_runtime(op);
    m->precision = m->options.own_precision ? m->options.precision : hcl_vspace_precision(hcl_operator_space(op));
    m->converts = m->precision != hcl_vspace_precision(hcl_operator_space(op));
    KernelConfig config = {.precision = m->precision, .stencil_radius = 1, .wg_x = WG_X, .wg_y = WG_Y};
    TRY(hcl_program_build_kernels(m->rt, "mg5", &config, kernel_names, NKERNELS, &m->program, m->kernels));
    TRY(first_setup(m, op));
    goto cleanup;
  }
  ASSERT(hcl_stencil5_decomp(op) == m->levels[0].decomp);
  if (own_finest(m)) {
    TRY(hcl_stencil5_convert_matrix(m->levels[0].op, op));
  }
  for (int l = 0; l + 1 < m->nlevels; l++) {
    TRY(make_coarse_matrix(m, &m->levels[l], &m->levels[l + 1]));
  }
  TRY(pack_tail(m));
cleanup:
  return status;
}

static const PrecondOps OPS = {.name = "mg", .setup = setup, .apply = apply, .destroy = destroy};

HclStatus hcl_mg5_precond_create(const Mg5Options *options, Precond **out) {
  HclStatus status = HCL_OK;
  Mg5 *m = NULL;
  *out = NULL;
  TRY_ALLOC(m, 1);
  m->options = *options;
  TRY(hcl_precond_create(&OPS, m, true, out));
cleanup:
  return status;
}

static const Mg5 *mg_of(const Precond *pc) {
  return hcl_precond_ops(pc) == &OPS ? hcl_precond_context(pc) : NULL;
}

int hcl_mg5_levels(const Precond *pc) {
  const Mg5 *m = mg_of(pc);
  return m ? m->nlevels : 0;
}

void hcl_mg5_level_shape(const Precond *pc, int l, int *nx, int *ny, int *halves) {
  const Level *L = &mg_of(pc)->levels[l];
  *nx = hcl_decomp_spec(L->decomp)->nx;
  *ny = hcl_decomp_spec(L->decomp)->ny;
  *halves = L->halves;
}

int hcl_mg5_level_ghost(const Precond *pc, int l) {
  return mg_of(pc)->levels[l].ghost;
}
