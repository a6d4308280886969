/* SPDX-License-Identifier: BSD-3-Clause */
/* mg.c: levels, setup and V-cycle of the potential-flow multigrid preconditioner (see mg.h and
 * kernels_cl/multigrid.cl). */
#include "mg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clerror.h"
#include "env.h"
#include "fd.h"
#include "gather.h"
#include "halo.h"
#include "kernel.h"
#include "log.h"
#include "program.h"

enum { WG_X = 32, WG_Y = 4, MG_LEVELS_MAX = 32, MIN_HORIZONTAL = 5, MIN_VERTICAL = 3 };
/* On several ranks, the first coarse level of at most GATHER_COLUMNS columns, or the first a rank would be left
 * without a point on, is gathered onto every rank (replicated): each rank restricts its block, one allgather
 * assembles the level everywhere, and every rank runs the rest of the V-cycle alone (the one-launch tail where it
 * would on one rank), so the coarse levels exchange nothing (fnpf-multigpu-scalability section 5 names the coarse
 * levels' messages as what limits scaling). Solving it redundantly costs the gather once; gathering it to one rank
 * and scattering the correction back would add a second message. GATHER_COLUMNS is the tail's capacity at 512
 * work-items (TAIL_COLUMNS_PER_ITEM each). */
enum { GATHER_COLUMNS = 4096 };
/* The widest ghosts a split level takes for the communication-avoiding cycle (plan_wide): enough that V(2,2) with
 * 4 coarse sweeps keeps every ghost it needs down four split levels without an exchange on the way up (bench
 * scaling's defect-correction iteration). Wider strips cost bandwidth: 12 ghosts of a 1025^2 x 10 float level are
 * 2 MB an exchange, about the ~100 us of latency an exchange saves between two GPUs (bench/README.md, halo). */
enum { WIDE_GHOST_MAX = 12 };
enum { COLUMN_PLANES = 4, CURVILINEAR_PLANES = 9 };                /* a column's coefficients (multigrid.cl) */
enum { VERT_STRIDE = 8, RESTRICT_STRIDE = 4, PROLONG_STRIDE = 2 }; /* as in multigrid.cl */
/* A level of at most 2 GROUP_MAX columns (about one pass of a work-group per colour) is smoothed in one launch of
 * one work-group (smooth_level). From the first level of at most TAIL_COLUMNS_PER_ITEM columns a work-item of
 * vcycle_tail's work-group on, where mg.h's MgTail asks for it, the V-cycle runs in one launch of that work-group
 * (H100, 2026-11-27: 8 against 2 took a wave step at 129^2 x 9 from 4.12 to 3.80 ms and a defect-correction
 * iteration at 257^2 x 9 from 0.52 to 0.41 ms, medians of five; bench/README.md). */
enum { GROUP_MAX = 512, TAIL_COLUMNS_PER_ITEM = 8 };
/* A tail level's row in the tail's table (multigrid.cl's TAIL_* fields). */
enum {
  TAIL_NX,
  TAIL_NY,
  TAIL_PITCH,
  TAIL_PLANE,
  TAIL_NZ,
  TAIL_WALLS,
  TAIL_FX,
  TAIL_FY,
  TAIL_COUNT,
  TAIL_U,
  TAIL_RHS,
  TAIL_RES,
  TAIL_COL,
  TAIL_SPACING,
  TAIL_VERTICAL,
  TAIL_RESTRICTION,
  TAIL_PROLONGATION,
  TAIL_FIELDS
};
enum { K_COLUMNS, K_SMOOTH, K_SMOOTH_LEVEL, K_RESIDUAL, K_RESTRICT, K_PROLONG, K_TAIL, NKERNELS };
static const char *const kernel_names[NKERNELS] = {"level_columns",     "smooth",      "smooth_level", "residual_low",
                                                   "restrict_residual", "prolong_add", "vcycle_tail"};

typedef struct {
  const Decomp *decomp; /* level 0: the caller's; coarser levels: own_decomp */
  Decomp *own_decomp;
  int nx, ny, nz;         /* global points */
  int fx, fy, fz;         /* 2 in the directions this level halved the finer one's, else 1 (level 0: 1) */
  int stride_x, stride_y; /* point I of this level is the finest level's point stride I */
  double dx, dy;
  double *sigma;        /* nz points */
  Field *u, *rhs, *res; /* correction, right-hand side, residual: nz + 1 planes */
  Field *col;           /* COLUMN_PLANES or CURVILINEAR_PLANES (multigrid.cl) */
  int walls;            /* hcl_mirror_sides of the level's decomposition */
  int ghost;            /* of the level's fields: 1, or wider on a split level of the communication-avoiding cycle */
  int keep;             /* that cycle: the ghosts of u valid when the visit ends (the finer level's prolongation) */
  int reach;            /* that cycle: the ghosts the prolongation into this level writes (keep + 2 post_sweeps) */
  bool exchange_up;     /* that cycle: u exchanged when the visit ends, where computing keep ghosts would need more */
  bool replicated;      /* every rank holds the whole level (GATHER_COLUMNS) */
  bool one_group;       /* smoothed by smooth_level: one rank, no periodic side, at most 2 x group columns */
  bool zero_start;      /* a visit's first half-sweep may take u as zero: no colour meets itself across a periodic
                         * side (an odd periodic count would read the last visit's values there) */
  Halo *u_halo, *res_halo, *rhs_halo;
  cl_mem vertical;     /* VERT_STRIDE per node p = 0 .. nz: sigma weights and sigma */
  cl_mem restriction;  /* levels >= 1: RESTRICT_STRIDE per node P = 0 .. nz: fine centre node, three weights */
  cl_mem prolongation; /* levels >= 1: PROLONG_STRIDE per finer node: the coarse node below, the upper's weight */
} Level;

struct Mg {
  Runtime *rt;
  Mirror *mirror;
  MgSpec spec;
  int nlevels;
  Level level[MG_LEVELS_MAX];
  cl_program program;
  cl_kernel kernels[NKERNELS];
  size_t group;               /* smooth_level's work-group size */
  int tail;                   /* the first level of the one-launch tail, or nlevels (none) */
  size_t tail_group;          /* vcycle_tail's work-group size */
  double tail_points;         /* the tail's levels' points together */
  double tail_bytes;          /* its pack's */
  cl_mem pack, table, tables; /* the tail's fields, its rows of TAIL_FIELDS, its REAL tables (multigrid.cl) */
  bool wide;                  /* the split levels run the communication-avoiding cycle (plan_wide) */
  int gathered;               /* the first replicated level, or nlevels (none) */
  Gather *gather;             /* its assembly from the ranks' blocks */
};

/* ---- the levels ---- */

static bool can_halve(int n, bool periodic, int min_points) {
  int coarse = periodic ? n / 2 : (n + 1) / 2;
  return n > 1 && n % 2 == (periodic ? 0 : 1) && coarse >= min_points;
}

/* The directions the level below fine halves (mg.h): the horizontal ones finer than the vertical spacing while any
 * is, else every one that can be. False when none can. (A rank left without a point gathers the level instead:
 * describe_coarse.) */
static bool choose_halving(const Level *fine, const MgSpec *spec, const DecompSpec *g, bool halve[3]) {
  bool can_x = can_halve(fine->nx, g->periodic_x, MIN_HORIZONTAL);
  bool can_y = can_halve(fine->ny, g->periodic_y, MIN_HORIZONTAL);
  bool can_z = can_halve(fine->nz, false, MIN_VERTICAL);
  double dz = spec->depth_scale / (fine->nz - 1);
  bool finer_x = can_x && fine->dx < dz, finer_y = can_y && fine->dy < dz;
  halve[0] = finer_x || finer_y ? finer_x : can_x;
  halve[1] = finer_x || finer_y ? finer_y : can_y;
  halve[2] = finer_x || finer_y ? false : can_z;
  return halve[0] || halve[1] || halve[2];
}

/* The largest level gathered onto every rank: GATHER_COLUMNS, or the environment's HYDROCL_MG_GATHER_COLUMNS (0:
 * only where splitting would leave a rank without a point; the rank tests run so, to split more levels). */
static double gather_columns(void) {
  return hcl_env_count("HYDROCL_MG_GATHER_COLUMNS", GATHER_COLUMNS);
}

static bool split(const Level *L) {
  return hcl_decomp_local(L->decomp)->px * hcl_decomp_local(L->decomp)->py > 1;
}

/* Level c's decomposition below level f's: gathered onto every rank (replicated) where f is split and c small, or
 * where splitting c would leave a rank without a point; else f's blocks halved. */
static HclStatus coarse_decomp(const Level *f, Level *c, const bool halve[3]) {
  int nx = halve[0] ? (f->nx + 1) / 2 : f->nx, ny = halve[1] ? (f->ny + 1) / 2 : f->ny; /* decomp.h */
  c->replicated =
      split(f) && ((double)nx * ny <= gather_columns() || !hcl_decomp_can_coarsen(f->decomp, halve[0], halve[1]));
  return c->replicated ? hcl_decomp_create_replicated(f->decomp, nx, ny, &c->own_decomp)
                       : hcl_decomp_create_coarse(f->decomp, halve[0], halve[1], &c->own_decomp);
}

/* Level l + 1's sizes from level l's and the halving. */
static HclStatus describe_coarse(Mg *m, int l, const bool halve[3]) {
  HclStatus status = HCL_OK;
  const Level *f = &m->level[l];
  Level *c = &m->level[l + 1];
  c->fx = halve[0] ? 2 : 1;
  c->fy = halve[1] ? 2 : 1;
  c->fz = halve[2] ? 2 : 1;
  TRY(coarse_decomp(f, c, halve));
  c->decomp = c->own_decomp;
  c->nx = hcl_decomp_spec(c->decomp)->nx;
  c->ny = hcl_decomp_spec(c->decomp)->ny;
  c->nz = halve[2] ? (f->nz + 1) / 2 : f->nz;
  c->dx = f->dx * c->fx;
  c->dy = f->dy * c->fy;
  c->stride_x = f->stride_x * c->fx;
  c->stride_y = f->stride_y * c->fy;
  TRY_ALLOC(c->sigma, c->nz);
  for (int k = 0; k < c->nz; k++) {
    c->sigma[k] = f->sigma[k * c->fz];
  }
cleanup:
  return status;
}

static HclStatus plan_levels(Mg *m, const Decomp *decomp) {
  HclStatus status = HCL_OK;
  const MgSpec *s = &m->spec;
  const DecompSpec *g = hcl_decomp_spec(decomp);
  Level *top = &m->level[0];
  top->decomp = decomp;
  top->nx = g->nx;
  top->ny = g->ny;
  top->nz = s->nz;
  top->fx = top->fy = top->fz = 1;
  top->stride_x = top->stride_y = 1;
  top->dx = s->dx;
  top->dy = s->dy;
  if (s->map) {
    TRY(hcl_mapping_mean_spacing(s->map, decomp, &top->dx, &top->dy));
  }
  TRY_ALLOC(top->sigma, s->nz);
  for (int k = 0; k < s->nz; k++) {
    top->sigma[k] = s->sigma[k];
  }
  m->nlevels = 1;
  bool halve[3];
  while (m->nlevels < MG_LEVELS_MAX && (s->options.levels < 0 || m->nlevels <= s->options.levels) &&
         choose_halving(&m->level[m->nlevels - 1], s, g, halve)) {
    TRY(describe_coarse(m, m->nlevels - 1, halve));
    m->nlevels++;
  }
  REQUIRE(s->options.levels < 0 || m->nlevels == s->options.levels + 1, HCL_EDATA,
          "%slevels = %d restrictions, but a %d x %d x %d grid allows at most %d (each halving keeps at least %d x "
          "%d x %d points, odd counts between walls, even periodic); ask for fewer, or -1 for the most",
          s->prefix, s->options.levels, g->nx, g->ny, s->nz, m->nlevels - 1, MIN_HORIZONTAL, MIN_HORIZONTAL,
          MIN_VERTICAL);
cleanup:
  return status;
}

/* ---- the communication-avoiding cycle ---- */

/* The fewest points a rank owns along a split direction of level L (a ghost width may not exceed it: field.h). */
static int smallest_block(const Level *L) {
  const DecompSpec *g = hcl_decomp_spec(L->decomp);
  int smallest = g->nx > g->ny ? g->nx : g->ny;
  for (int r = 0; r < g->px * g->py; r++) {
    int x0, y0, nx, ny;
    hcl_decomp_block_of(L->decomp, r, &x0, &y0, &nx, &ny);
    smallest = (g->px > 1 || g->periodic_x) && nx < smallest ? nx : smallest;
    smallest = (g->py > 1 || g->periodic_y) && ny < smallest ? ny : smallest;
  }
  return smallest;
}

/* The ghost width a split level needs for its visit to compute what it reads of its ghosts itself, given keep, the
 * ghosts of u valid at its end; reach: the ghosts the prolongation into it writes. Each half-sweep reads the other
 * colour one column away, so the region a half-sweep can compute shrinks by a column, except the first from zero
 * (it reads its own column's rhs only). Down: rhs exchanged over g ghosts, 2 pre half-sweeps shrink u's region to
 * g - (2 pre - 1), which must cover the residual's (1 ghost, for the restriction's reach) and the prolongation's
 * (reach) on the way up; the post half-sweeps then shrink reach = keep + 2 post to keep. The coarsest level's
 * 2 coarse half-sweeps from zero end on g - (2 coarse - 1) >= keep. */
static int wide_ghost(const MgOptions *o, bool coarsest, int keep, int *reach) {
  int pre = o->pre_sweeps, post = o->post_sweeps, coarse = o->coarse_sweeps;
  *reach = coarsest ? 0 : keep + 2 * post;
  int need = coarsest ? keep + 2 * coarse - 1 : pre == 0 ? *reach : 2 * pre - 1 + (*reach > 2 ? *reach : 2);
  return need > 1 ? need : 1;
}

/* The ghosts of level c the prolongation into the ghosts of its finer level f reads: a halved direction's fine
 * point (global) 2 I + s reads coarse points I and I + 1; a kept direction's the point itself. */
static int coarse_reach(const Level *f, const Level *c) {
  int x = c->fx == 2 ? f->reach / 2 + 1 : f->reach, y = c->fy == 2 ? f->reach / 2 + 1 : f->reach;
  return x > y ? x : y;
}

/* The communication-avoiding V-cycle on the split levels (Williams et al., Optimization of geometric multigrid for
 * emerging multi- and manycore processors, 2012: deeper ghost zones exchanged once, the smoother's work repeated
 * in them): a split level exchanges its rhs once a visit, over ghosts wide enough (wide_ghost) that its sweeps, the
 * residual the restriction reads, and on the way back the prolongation and the post-sweeps compute the ghosts they
 * read themselves, where the plain cycle exchanges u before each half-sweep and the residual, the residual before
 * the restriction and the coarse correction before the prolongation: one exchange per split level, one gather for
 * the replicated ones, against about six. A sweep's result in a ghost column is the same arithmetic on the same
 * values as on the rank that owns it, so the cycle is the plain one's to the bit. Widths are planned from the
 * finest level down (a level keeps the ghosts its finer level's prolongation reads); where they would exceed
 * WIDE_GHOST_MAX the level exchanges u at the end of its visit instead (exchange_up), which lets it keep none.
 * False (the plain cycle) with the environment's HYDROCL_MG_WIDE=0 (the rank tests compare the two), on one rank, where a periodic side with an odd count lets a colour meet itself (the
 * values of a ghost column would depend on the order of the half-sweep's work-items), or where a rank owns fewer
 * points than a level's ghosts. */
static bool plan_wide(Mg *m) {
  const MgOptions *o = &m->spec.options;
  int keep = 0; /* level 0: the V-cycle's correction, read on owned points only */
  if (!split(&m->level[0]) || hcl_env_count("HYDROCL_MG_WIDE", 1) == 0) {
    return false;
  }
  for (int l = 0; l < m->gathered; l++) {
    Level *L = &m->level[l];
    const DecompSpec *g = hcl_decomp_spec(L->decomp);
    if ((g->periodic_x && L->nx % 2) || (g->periodic_y && L->ny % 2)) {
      return false;
    }
    bool coarsest = l == m->nlevels - 1;
    int ghost = wide_ghost(o, coarsest, keep, &L->reach);
    L->exchange_up = ghost > WIDE_GHOST_MAX;
    if (L->exchange_up) {
      ghost = wide_ghost(o, coarsest, 0, &L->reach);
      ghost = ghost > keep ? ghost : keep;
    }
    if (ghost > WIDE_GHOST_MAX || ghost > smallest_block(L)) {
      return false;
    }
    L->ghost = ghost;
    L->keep = keep;
    keep = coarsest ? 0 : coarse_reach(L, &m->level[l + 1]);
  }
  if (m->gathered < m->nlevels) { /* read across a periodic side only: across a wall the fine region stops */
    const DecompSpec *g = hcl_decomp_spec(m->level[m->gathered].decomp);
    m->level[m->gathered].ghost = (g->periodic_x || g->periodic_y) && keep > 1 ? keep : 1;
  }
  return true;
}

/* The ghost widths of every level: wide on the split levels where plan_wide allows, else 1. */
static void plan_ghosts(Mg *m) {
  m->gathered = m->nlevels;
  for (int l = m->nlevels - 1; l >= 0; l--) {
    m->level[l].ghost = 1;
    m->gathered = m->level[l].replicated ? l : m->gathered;
  }
  m->wide = plan_wide(m);
  if (!m->wide) {
    for (int l = 0; l < m->nlevels; l++) {
      m->level[l].ghost = 1;
      m->level[l].exchange_up = false;
    }
  }
}

/* ---- the gathered level ---- */

/* The assembly of the gathered level from the ranks' blocks: the coarse points of each rank's block of the finer,
 * split level (decomp.h's coarse_start rule: point I of c is point fx I of f). */
static HclStatus plan_gather(Mg *m) {
  if (m->gathered == m->nlevels) {
    return HCL_OK;
  }
  const Level *f = &m->level[m->gathered - 1], *c = &m->level[m->gathered];
  size_t bytes = (size_t)c->nx * c->ny * (c->nz + 1) * sizeof(double); /* the widest use */
  return hcl_gather_create(f->decomp, c->fx == 2, c->fy == 2, false, c->nx, c->ny, bytes, &m->gather);
}

/* ---- constant tables ---- */

/* sigma at the nz + 1 nodes of a level: the ghost below the bottom mirrors the first point above it. */
static double node_sigma(const Level *L, int p) {
  return p == 0 ? -L->sigma[1] : L->sigma[p - 1];
}

/* The 3-point weights of d/dsigma and d2/dsigma2 at every node between the ghost and the surface (hcl_fd_weights on
 * the actual spacing), and sigma. */
static size_t vertical_count(const Level *L) {
  return (size_t)(L->nz + 1) * VERT_STRIDE;
}

static HclStatus vertical_table(const Level *L, double *table) {
  HclStatus status = HCL_OK;
  double w[9];
  for (int p = 0; p <= L->nz; p++) {
    double *v = table + p * VERT_STRIDE;
    v[6] = node_sigma(L, p);
    if (p >= 1 && p < L->nz) {
      double nodes[3] = {node_sigma(L, p - 1), node_sigma(L, p), node_sigma(L, p + 1)};
      TRY(hcl_fd_weights(nodes[1], nodes, 3, 2, w));
      for (int q = 0; q < 3; q++) {
        v[q] = w[3 + q];
        v[3 + q] = w[6 + q];
      }
    }
  }
cleanup:
  return status;
}

static HclStatus make_vertical(Mg *m, Level *L) {
  HclStatus status = HCL_OK;
  double *table = NULL;
  TRY_ALLOC(table, vertical_count(L));
  TRY(vertical_table(L, table));
  TRY(hcl_runtime_upload_reals(m->rt, m->spec.precision, table, vertical_count(L), "multigrid sigma weights",
                               &L->vertical));
cleanup:
  free(table);
  return status;
}

static size_t restriction_count(const Level *c) {
  return (size_t)(c->nz + 1) * RESTRICT_STRIDE;
}

static size_t prolongation_count(const Level *f) {
  return (size_t)(f->nz + 1) * PROLONG_STRIDE;
}

/* The vertical transfers between level c and the finer level f. Restriction, per coarse node P: full weighting
 * 1/4 1/2 1/4 about fine node 2P - 1; the bottom condition's row (P = 0) injected; the bottom row (P = 1) weighs
 * itself and the row above only, as if mirrored (the row below is the other equation); the surface none. Without
 * vertical halving, injection. Prolongation, per fine node p: linear in sigma between the coarse nodes around it
 * (the fine ghost lies between the coarse ghost and the bottom). Into zeroed arrays of restriction_count(c) and
 * prolongation_count(f). */
static void transfer_tables(const Level *f, const Level *c, double *restriction, double *prolongation) {
  for (int P = 0; P < c->nz; P++) {
    double *r = restriction + P * RESTRICT_STRIDE;
    if (c->fz == 1 || P == 0) {
      r[0] = P;
      r[2] = 1;
    } else if (P == 1) {
      r[0] = 1;
      r[2] = r[3] = 0.5;
    } else {
      r[0] = 2 * P - 1;
      r[1] = r[3] = 0.25;
      r[2] = 0.5;
    }
  }
  restriction[c->nz * RESTRICT_STRIDE] = f->nz; /* the surface: zero weights */
  for (int p = 0; p <= f->nz; p++) {
    double *t = prolongation + p * PROLONG_STRIDE, s = node_sigma(f, p);
    int below = c->fz == 1 ? p : 0;
    while (c->fz == 2 && below + 1 < c->nz && node_sigma(c, below + 1) <= s) {
      below++;
    }
    t[0] = below;
    t[1] =
        c->fz == 1 || p == f->nz ? 0 : (s - node_sigma(c, below)) / (node_sigma(c, below + 1) - node_sigma(c, below));
  }
}

static HclStatus make_transfers(Mg *m, const Level *f, Level *c) {
  HclStatus status = HCL_OK;
  double *restriction = NULL, *prolongation = NULL;
  TRY_ALLOC(restriction, restriction_count(c));
  TRY_ALLOC(prolongation, prolongation_count(f));
  transfer_tables(f, c, restriction, prolongation);
  TRY(hcl_runtime_upload_reals(m->rt, m->spec.precision, restriction, restriction_count(c),
                               "multigrid restriction weights", &c->restriction));
  TRY(hcl_runtime_upload_reals(m->rt, m->spec.precision, prolongation, prolongation_count(f),
                               "multigrid prolongation weights", &c->prolongation));
cleanup:
  free(restriction);
  free(prolongation);
  return status;
}

/* ---- launches ---- */

/* The launch shape of a kernel over nx x ny columns. */
static KernelShape columns(const Mg *m, int nx, int ny) {
  return hcl_kernel_grid(m->rt, nx, ny, WG_X, WG_Y);
}

/* Where a level's fields' point (0, 0) lies from the place multigrid.cl's AT takes for it (ghost width 1). */
static int level_origin(const Level *L) {
  return (L->ghost - 1) * (hcl_field_pitch(L->u) + 1);
}

/* nx, ny, pitch, plane, origin of a level's fields (all share them). */
static void arg_shape(KernelArgs *a, const Level *L) {
  hcl_arg_int(a, hcl_decomp_local(L->decomp)->nx);
  hcl_arg_int(a, hcl_decomp_local(L->decomp)->ny);
  hcl_arg_int(a, hcl_field_pitch(L->u));
  hcl_arg_ulong(a, (size_t)hcl_field_pitch(L->u) * hcl_field_rows(L->u));
  hcl_arg_int(a, level_origin(L));
}

/* The horizontal difference scalars 1/dx^2, 1/dy^2, 1/(2 dx), 1/(2 dy); zero along a direction of one point. */
static void level_spacing(const Level *L, double spacing[4]) {
  double idx = L->nx > 1 ? 1 / L->dx : 0, idy = L->ny > 1 ? 1 / L->dy : 0;
  spacing[0] = idx * idx;
  spacing[1] = idy * idy;
  spacing[2] = 0.5 * idx;
  spacing[3] = 0.5 * idy;
}

static void arg_spacing(KernelArgs *a, const Mg *m, const Level *L, bool halves) {
  double spacing[4];
  level_spacing(L, spacing);
  for (int k = 0; k < (halves ? 4 : 2); k++) {
    hcl_arg_real(a, m->spec.precision, spacing[k]);
  }
}

static double level_points(const Level *L) {
  return (double)hcl_decomp_local(L->decomp)->nx * hcl_decomp_local(L->decomp)->ny;
}

static double real_bytes(const Mg *m) {
  return (double)hcl_precision_bytes(m->spec.precision);
}

/* ---- setup ---- */

static HclStatus make_field(Mg *m, const Level *L, const char *name, int planes, Field **out) {
  FieldSpec spec = {.name = name, .nz = planes, .ghost = L->ghost, .precision = m->spec.precision};
  return hcl_field_create(m->rt, L->decomp, &spec, out);
}

/* The depth of a block of level c's points (global x0, y0, nx x ny) from level f's owned points by injection:
 * coarse point I is fine point 2 I, which this rank owns (hcl_decomp_create_coarse, plan_gather). */
static HclStatus inject_block(const Level *f, const Level *c, const int block[4], const double *fine, double *coarse) {
  HclStatus status = HCL_OK;
  const DecompLocal *lf = hcl_decomp_local(f->decomp);
  int off_x = c->fx * block[0] - lf->x0, off_y = c->fy * block[1] - lf->y0;
  for (int j = 0; j < block[3]; j++) {
    for (int i = 0; i < block[2]; i++) {
      int fi = c->fx * i + off_x, fj = c->fy * j + off_y;
      ASSERT(fi >= 0 && fi < lf->nx && fj >= 0 && fj < lf->ny);
      coarse[(size_t)j * block[2] + i] = fine[(size_t)fj * lf->nx + fi];
    }
  }
cleanup:
  return status;
}

/* The depth of level l (owned points) from level l - 1's: injected, and on the gathered level assembled from every
 * rank's block. */
static HclStatus inject_depth(Mg *m, int l, const double *fine, double **coarse) {
  HclStatus status = HCL_OK;
  const Level *f = &m->level[l - 1], *c = &m->level[l];
  const DecompLocal *lc = hcl_decomp_local(c->decomp);
  TRY_ALLOC(*coarse, (size_t)lc->nx * lc->ny);
  if (l != m->gathered) {
    TRY(inject_block(f, c, (int[4]){lc->x0, lc->y0, lc->nx, lc->ny}, fine, *coarse));
    goto cleanup;
  }
  int block[4];
  hcl_gather_block(m->gather, block);
  TRY(inject_block(f, c, block, fine, hcl_gather_mine(m->gather)));
  TRY(hcl_gather_assemble(m->gather, 1, sizeof(double)));
  memcpy(*coarse, hcl_gather_image(m->gather), sizeof **coarse * lc->nx * lc->ny);
cleanup:
  return status;
}

/* Column coefficients of level L from its depth h (owned points), and on a curvilinear grid from the metric terms
 * of the map at the level's points. */
static HclStatus setup_level(Mg *m, Level *L, const double *h) {
  HclStatus status = HCL_OK;
  Field *depth = NULL, *metric = NULL;
  Halo *depth_halo = NULL, *col_halo = NULL;
  const MgSpec *spec = &m->spec;
  TRY(make_field(m, L, "mg_correction", L->nz + 1, &L->u));
  TRY(make_field(m, L, "mg_rhs", L->nz + 1, &L->rhs));
  TRY(make_field(m, L, "mg_residual", L->nz + 1, &L->res));
  TRY(make_field(m, L, "mg_columns", spec->map ? CURVILINEAR_PLANES : COLUMN_PLANES, &L->col));
  if (spec->map) {
    TRY(make_field(m, L, "mg_metric", MAPPING_PLANES, &metric));
    TRY(hcl_mapping_write_metrics(spec->map, 2, L->stride_x, L->stride_y, metric, 0));
  }
  TRY(make_field(m, L, "mg_depth", 1, &depth));
  TRY(hcl_halo_create(&L->u, 1, &L->u_halo));
  TRY(hcl_halo_create(&L->res, 1, &L->res_halo));
  TRY(hcl_halo_create(&L->rhs, 1, &L->rhs_halo));
  TRY(hcl_halo_create(&L->col, 1, &col_halo));
  TRY(hcl_halo_create(&depth, 1, &depth_halo));
  TRY(make_vertical(m, L));
  L->walls = hcl_mirror_sides(L->decomp);
  const DecompSpec *g = hcl_decomp_spec(L->decomp);
  const DecompLocal *l = hcl_decomp_local(L->decomp);
  L->one_group = l->px * l->py == 1 && !g->periodic_x && !g->periodic_y && level_points(L) <= 2.0 * m->group;
  L->zero_start = !(g->periodic_x && L->nx % 2) && !(g->periodic_y && L->ny % 2);
  TRY(hcl_field_write_owned(depth, h));
  TRY(hcl_mirror_exchange(m->mirror, depth_halo, depth));
  KernelArgs a = hcl_kernel_args(m->kernels[K_COLUMNS]);
  hcl_arg_mem(&a, hcl_field_buffer(L->col));
  hcl_arg_mem(&a, hcl_field_buffer(depth));
  if (metric) {
    hcl_arg_mem(&a, hcl_field_buffer(metric));
  }
  arg_shape(&a, L);
  arg_spacing(&a, m, L, true);
  double planes = metric ? 5 + MAPPING_OPERATOR_PLANES + CURVILINEAR_PLANES : 5 + COLUMN_PLANES;
  TRY(hcl_kernel_launch(m->rt, &a, columns(m, hcl_decomp_local(L->decomp)->nx, hcl_decomp_local(L->decomp)->ny),
                        planes * level_points(L) * real_bytes(m)));
  if (L->ghost > 1) { /* the wide cycle's sweeps and residual reach into the ghosts */
    TRY(hcl_halo_exchange(col_halo));
  }
  TRY(hcl_runtime_finish(m->rt)); /* the depth and metric fields go */
cleanup:
  hcl_halo_destroy(&col_halo);
  hcl_halo_destroy(&depth_halo);
  hcl_field_destroy(&depth);
  hcl_field_destroy(&metric);
  return status;
}

/* ---- the one-launch tail ---- */

/* The tail's first level: the first from which every level has at most TAIL_COLUMNS_PER_ITEM columns a work-item of
 * vcycle_tail's work-group, with closed sides and on one rank or gathered onto every rank (the tail exchanges no
 * ghosts) where options.tail asks for it (mg.h); none (nlevels) where that leaves a single level. */
static int tail_start(const Mg *m) {
  const DecompSpec *g = hcl_decomp_spec(m->level[0].decomp);
  MgTail asked = m->spec.options.tail;
  bool wanted =
      asked == MG_TAIL_ALWAYS || (asked == MG_TAIL_ON_GPUS && hcl_runtime_device(m->rt)->type == DEVICE_TYPE_GPU);
  if (!wanted || g->periodic_x || g->periodic_y) {
    return m->nlevels;
  }
  int tail = m->nlevels, top = split(&m->level[0]) ? m->gathered : 1;
  while (tail > top && level_points(&m->level[tail - 1]) <= (double)TAIL_COLUMNS_PER_ITEM * m->tail_group) {
    tail--;
  }
  return m->nlevels - tail >= 2 ? tail : m->nlevels;
}

/* Tail level l's row of the table; used: the pack's and the tables' elements taken so far, advanced. */
static void tail_row(const Mg *m, int l, int *row, size_t used[2]) {
  const Level *L = &m->level[l];
  size_t count = hcl_field_count(L->u);
  row[TAIL_NX] = L->nx;
  row[TAIL_NY] = L->ny;
  row[TAIL_PITCH] = hcl_field_pitch(L->u);
  row[TAIL_PLANE] = hcl_field_pitch(L->u) * hcl_field_rows(L->u);
  row[TAIL_NZ] = L->nz;
  row[TAIL_WALLS] = L->walls;
  row[TAIL_FX] = L->fx;
  row[TAIL_FY] = L->fy;
  row[TAIL_COUNT] = (int)count;
  row[TAIL_U] = (int)used[0];
  row[TAIL_RHS] = (int)(used[0] + count);
  row[TAIL_RES] = (int)(used[0] + 2 * count);
  row[TAIL_COL] = (int)(used[0] + 3 * count);
  used[0] += 3 * count + hcl_field_count(L->col);
  row[TAIL_SPACING] = (int)used[1];
  row[TAIL_VERTICAL] = (int)(used[1] + 4);
  row[TAIL_RESTRICTION] = (int)(used[1] + 4 + vertical_count(L));
  row[TAIL_PROLONGATION] = (int)(used[1] + 4 + vertical_count(L) + restriction_count(L));
  used[1] += 4 + vertical_count(L) + restriction_count(L) + prolongation_count(&m->level[l - 1]);
}

/* The tail's REAL tables: per level its spacing, sigma weights and transfers from the level above. */
static HclStatus tail_tables(Mg *m, const int *rows, size_t count) {
  HclStatus status = HCL_OK;
  double *tables = NULL;
  TRY_ALLOC(tables, count);
  for (int l = m->tail; l < m->nlevels; l++) {
    const int *row = rows + (size_t)(l - m->tail) * TAIL_FIELDS;
    level_spacing(&m->level[l], tables + row[TAIL_SPACING]);
    TRY(vertical_table(&m->level[l], tables + row[TAIL_VERTICAL]));
    transfer_tables(&m->level[l - 1], &m->level[l], tables + row[TAIL_RESTRICTION], tables + row[TAIL_PROLONGATION]);
  }
  TRY(hcl_runtime_upload_reals(m->rt, m->spec.precision, tables, count, "multigrid tail tables", &m->tables));
cleanup:
  free(tables);
  return status;
}

/* Where the tail starts, its table, tables and fields (the column coefficients copied from the levels' fields, the
 * rest zero). */
static HclStatus plan_tail(Mg *m) {
  HclStatus status = HCL_OK;
  int *rows = NULL;
  TRY(hcl_kernel_group_limit(m->rt, m->kernels[K_TAIL], &m->tail_group));
  m->tail_group = m->tail_group < GROUP_MAX ? m->tail_group : GROUP_MAX;
  m->tail = tail_start(m);
  int levels = m->nlevels - m->tail;
  if (levels == 0) {
    goto cleanup;
  }
  TRY_ALLOC(rows, (size_t)levels * TAIL_FIELDS);
  size_t used[2] = {0, 0};
  for (int l = m->tail; l < m->nlevels; l++) {
    ASSERT(m->level[l].ghost == 1); /* vcycle_tail addresses ghost width 1 */
    tail_row(m, l, rows + (size_t)(l - m->tail) * TAIL_FIELDS, used);
    m->tail_points += level_points(&m->level[l]);
  }
  TRY(tail_tables(m, rows, used[1]));
  size_t real = hcl_precision_bytes(m->spec.precision), table_bytes = sizeof *rows * (size_t)levels * TAIL_FIELDS;
  m->tail_bytes = (double)(used[0] * real);
  TRY(hcl_runtime_buffer(m->rt, used[0] * real, "multigrid tail", &m->pack));
  TRY(hcl_runtime_zero(m->rt, m->pack, used[0] * real));
  for (int l = m->tail; l < m->nlevels; l++) {
    Field *col = m->level[l].col;
    TRY_CL(clEnqueueCopyBuffer(hcl_runtime_queue(m->rt), hcl_field_buffer(col), m->pack, 0,
                               (size_t)rows[(size_t)(l - m->tail) * TAIL_FIELDS + TAIL_COL] * real,
                               hcl_field_count(col) * real, 0, NULL, NULL));
  }
  TRY(hcl_runtime_buffer(m->rt, table_bytes, "multigrid tail table", &m->table));
  TRY_CL(clEnqueueWriteBuffer(hcl_runtime_queue(m->rt), m->table, CL_TRUE, 0, table_bytes, rows, 0, NULL, NULL));
cleanup:
  free(rows);
  return status;
}

/* The plan of the cycle, in the verbose log. */
static void describe(const Mg *m) {
  const char *tail = m->tail < m->nlevels ? ", the coarse ones in one launch" : "";
  if (!split(&m->level[0])) {
    hcl_log_verbose("multigrid: %d levels%s", m->nlevels, tail);
    return;
  }
  char ghosts[MG_LEVELS_MAX * 8] = "";
  size_t used = 0;
  for (int l = 0; m->wide && l < m->gathered && used < sizeof ghosts; l++) {
    used += (size_t)snprintf(ghosts + used, sizeof ghosts - used, " %d%s", m->level[l].ghost,
                             m->level[l].exchange_up ? " (u exchanged up)" : "");
  }
  hcl_log_verbose("multigrid: %d levels; %d split over the ranks, %s%s; %d gathered onto every rank%s", m->nlevels,
                  m->gathered, m->wide ? "communication-avoiding, ghosts" : "plain cycle", ghosts,
                  m->nlevels - m->gathered, tail);
}

HclStatus hcl_mg_create(Runtime *rt, const Decomp *decomp, Mirror *mirror, const MgSpec *spec, const double *h,
                        Mg **out) {
  HclStatus status = HCL_OK;
  Mg *m = NULL;
  double *depth[2] = {NULL, NULL};
  *out = NULL;
  TRY(hcl_mg_check_options(&spec->options, spec->prefix, NULL));
  TRY_ALLOC(m, 1);
  m->rt = rt;
  m->mirror = mirror;
  m->spec = *spec;
  TRY(plan_levels(m, decomp));
  plan_ghosts(m);
  TRY(plan_gather(m));
  m->spec.sigma = NULL; /* borrowed for the setup only: the levels keep copies */
  char defines[256];
  snprintf(defines, sizeof defines,
           "-DNZ_MAX=%d -DMIRROR_WEST=%d -DMIRROR_EAST=%d -DMIRROR_SOUTH=%d -DMIRROR_NORTH=%d -DMIRROR_SINGLE_X=%d "
           "-DMIRROR_SINGLE_Y=%d%s",
           m->level[0].nz, MIRROR_WEST, MIRROR_EAST, MIRROR_SOUTH, MIRROR_NORTH, MIRROR_SINGLE_X, MIRROR_SINGLE_Y,
           spec->map ? " -DCURVILINEAR" : "");
  KernelConfig config = {
      .precision = spec->precision, .stencil_radius = 1, .wg_x = WG_X, .wg_y = WG_Y, .defines = defines};
  TRY(hcl_program_build_kernels(rt, "multigrid", &config, kernel_names, NKERNELS, &m->program, m->kernels));
  TRY(hcl_kernel_group_limit(rt, m->kernels[K_SMOOTH_LEVEL], &m->group));
  m->group = m->group < GROUP_MAX ? m->group : GROUP_MAX; /* as many as its registers allow, up to GROUP_MAX */
  const double *level_depth = h;
  for (int l = 0; l < m->nlevels; l++) {
    if (l > 0) {
      free(depth[l % 2]);
      depth[l % 2] = NULL;
      TRY(inject_depth(m, l, level_depth, &depth[l % 2]));
      level_depth = depth[l % 2];
      TRY(make_transfers(m, &m->level[l - 1], &m->level[l]));
    }
    TRY(setup_level(m, &m->level[l], level_depth));
  }
  TRY(plan_tail(m));
  describe(m);
  *out = m;
  m = NULL;
cleanup:
  free(depth[0]);
  free(depth[1]);
  hcl_mg_destroy(&m);
  return status;
}

void hcl_mg_destroy(Mg **mg) {
  if (!mg || !*mg) {
    return;
  }
  Mg *m = *mg;
  hcl_program_release(&m->program, m->kernels, NKERNELS);
  hcl_gather_destroy(&m->gather);
  cl_mem tail[] = {m->pack, m->table, m->tables};
  for (int k = 0; k < 3; k++) {
    if (tail[k]) {
      clReleaseMemObject(tail[k]);
    }
  }
  for (int l = 0; l < MG_LEVELS_MAX; l++) {
    Level *L = &m->level[l];
    hcl_halo_destroy(&L->u_halo);
    hcl_halo_destroy(&L->res_halo);
    hcl_halo_destroy(&L->rhs_halo);
    hcl_field_destroy(&L->u);
    hcl_field_destroy(&L->rhs);
    hcl_field_destroy(&L->res);
    hcl_field_destroy(&L->col);
    if (L->vertical) {
      clReleaseMemObject(L->vertical);
    }
    if (L->restriction) {
      clReleaseMemObject(L->restriction);
    }
    if (L->prolongation) {
      clReleaseMemObject(L->prolongation);
    }
    free(L->sigma);
    hcl_decomp_destroy(&L->own_decomp);
  }
  free(m);
  *mg = NULL;
}

/* ---- the V-cycle ---- */

/* A launch over a box of columns (local indices; on a wide level ghosts included) of a kernel that takes the box
 * as its last argument (multigrid.cl: first i, first j, end i, end j), its other arguments set. pairs: a half-sweep,
 * launched over the box's columns of one colour; else over every column of the box. */
typedef struct {
  Mg *mg;
  KernelArgs args;
  double bytes_per_column;
  bool pairs;
} BoxLaunch;

static HclStatus launch_box(void *context, CellBox box) {
  BoxLaunch *c = context;
  cl_int4 corners = {{box.x0, box.y0, box.x0 + box.nx, box.y0 + box.ny}};
  KernelArgs a = c->args;
  hcl_arg_bytes(&a, sizeof corners, &corners);
  int across = c->pairs ? (box.x0 + box.nx - (box.x0 & ~1) + 1) / 2 : box.nx; /* a row's columns of one colour */
  return hcl_kernel_launch(c->mg->rt, &a, columns(c->mg, across, box.ny), c->bytes_per_column * box.nx * box.ny);
}

/* Level L's owned columns and w more on each side towards another rank or across a periodic side (a wide level's
 * ghosts; the kernels mirror across walls, so no column lies beyond one). */
static CellBox widened(const Level *L, int w) {
  const DecompLocal *l = hcl_decomp_local(L->decomp);
  int west = L->walls & MIRROR_WEST ? 0 : w, east = L->walls & MIRROR_EAST ? 0 : w;
  int south = L->walls & MIRROR_SOUTH ? 0 : w, north = L->walls & MIRROR_NORTH ? 0 : w;
  return (CellBox){-west, -south, l->nx + west + east, l->ny + south + north};
}

/* A half-sweep's launch over the columns of one colour of a box, zero_guess: u taken as zero. Exactly those
 * columns: the sweep updates u in place. */
static BoxLaunch half_sweep(Mg *m, Level *L, int colour, bool zero_guess) {
  const DecompLocal *l = hcl_decomp_local(L->decomp);
  KernelArgs a = hcl_kernel_args(m->kernels[K_SMOOTH]);
  hcl_arg_mem(&a, hcl_field_buffer(L->u));
  hcl_arg_mem(&a, hcl_field_buffer(L->rhs));
  hcl_arg_mem(&a, hcl_field_buffer(L->col));
  arg_shape(&a, L);
  hcl_arg_int(&a, L->nz);
  hcl_arg_int(&a, (l->x0 + l->y0 + colour) % 2);
  hcl_arg_int(&a, L->walls);
  hcl_arg_int(&a, zero_guess);
  hcl_arg_mem(&a, L->vertical);
  arg_spacing(&a, m, L, true);
  /* half the columns: their rhs, 4 coefficients and u written once (the neighbours' u is the other half's) */
  return (BoxLaunch){m, a, (L->nz + 2.0) * real_bytes(m), true};
}

/* One zebra sweep: the red columns, then the black, each with the other colour's ghosts fresh (closed sides need
 * none: the kernels mirror); the columns away from other ranks are updated while those ghosts travel. zero_guess: u
 * is taken as zero before it (the first sweep of a level's visit). */
static HclStatus sweep(Mg *m, Level *L, bool zero_guess) {
  HclStatus status = HCL_OK;
  for (int colour = 0; colour < 2; colour++) {
    BoxLaunch launch = half_sweep(m, L, colour, zero_guess && colour == 0);
    if (zero_guess && colour == 0) {
      TRY(launch_box(&launch, widened(L, 0)));
    } else {
      TRY(hcl_halo_overlap(L->u_halo, (HaloOverlap){.reach = 1}, launch_box, &launch));
    }
  }
cleanup:
  return status;
}

/* res = rhs - M u over a box (the operator reaches one column away). */
static BoxLaunch residual(Mg *m, Level *L) {
  KernelArgs a = hcl_kernel_args(m->kernels[K_RESIDUAL]);
  hcl_arg_mem(&a, hcl_field_buffer(L->res));
  hcl_arg_mem(&a, hcl_field_buffer(L->u));
  hcl_arg_mem(&a, hcl_field_buffer(L->rhs));
  hcl_arg_mem(&a, hcl_field_buffer(L->col));
  arg_shape(&a, L);
  hcl_arg_int(&a, L->nz);
  hcl_arg_int(&a, L->walls);
  hcl_arg_mem(&a, L->vertical);
  arg_spacing(&a, m, L, true);
  return (BoxLaunch){m, a, 3.0 * (L->nz + 1) * real_bytes(m), false};
}

/* rhs of c = restricted residual of f over c's points x0, y0, nx x ny (local indices of c). */
static HclStatus launch_restriction(Mg *m, Level *f, Level *c, int x0, int y0, int nx, int ny) {
  const DecompLocal *lf = hcl_decomp_local(f->decomp), *lc = hcl_decomp_local(c->decomp);
  KernelArgs a = hcl_kernel_args(m->kernels[K_RESTRICT]);
  hcl_arg_mem(&a, hcl_field_buffer(c->rhs));
  hcl_arg_mem(&a, hcl_field_buffer(f->res));
  hcl_arg_int(&a, nx);
  hcl_arg_int(&a, ny);
  hcl_arg_int(&a, hcl_field_pitch(c->rhs));
  hcl_arg_ulong(&a, (size_t)hcl_field_pitch(c->rhs) * hcl_field_rows(c->rhs));
  hcl_arg_int(&a, level_origin(c) + y0 * hcl_field_pitch(c->rhs) + x0);
  hcl_arg_int(&a, c->nz);
  hcl_arg_int(&a, lf->nx);
  hcl_arg_int(&a, lf->ny);
  hcl_arg_int(&a, f->walls);
  hcl_arg_int(&a, hcl_field_pitch(f->res));
  hcl_arg_ulong(&a, (size_t)hcl_field_pitch(f->res) * hcl_field_rows(f->res));
  hcl_arg_int(&a, level_origin(f));
  hcl_arg_int(&a, c->fx);
  hcl_arg_int(&a, c->fy);
  hcl_arg_int(&a, c->fx * (lc->x0 + x0) - lf->x0);
  hcl_arg_int(&a, c->fy * (lc->y0 + y0) - lf->y0);
  hcl_arg_mem(&a, c->restriction);
  double points = (double)nx * ny;
  return hcl_kernel_launch(m->rt, &a, columns(m, nx, ny),
                           ((f->nz + 1) * level_points(f) * points / level_points(c) + (c->nz + 1) * points) *
                               real_bytes(m));
}

/* The gathered level's rhs: every rank restricts its block, which one allgather assembles on every rank. */
static HclStatus restrict_gathered(Mg *m, Level *f, Level *c) {
  HclStatus status = HCL_OK;
  int block[4];
  hcl_gather_block(m->gather, block);
  if (block[2] > 0 && block[3] > 0) {
    TRY(launch_restriction(m, f, c, block[0], block[1], block[2], block[3]));
  }
  TRY(hcl_gather_fields(m->gather, &c->rhs, 1));
cleanup:
  return status;
}

/* rhs of c = restricted residual of f, the residual's ghosts exchanged first where exchange says. */
static HclStatus restrict_to(Mg *m, Level *f, Level *c, bool exchange) {
  HclStatus status = HCL_OK;
  if (exchange) {
    TRY(hcl_halo_exchange(f->res_halo));
  }
  if (c == &m->level[m->gathered] && split(f)) {
    TRY(restrict_gathered(m, f, c));
  } else {
    const DecompLocal *lc = hcl_decomp_local(c->decomp);
    TRY(launch_restriction(m, f, c, 0, 0, lc->nx, lc->ny));
  }
cleanup:
  return status;
}

/* u of f += interpolated u of c over a box of f's columns, c's ghosts exchanged first where exchange says. */
static HclStatus prolong_to(Mg *m, Level *c, Level *f, CellBox box, bool exchange) {
  HclStatus status = HCL_OK;
  const DecompLocal *lf = hcl_decomp_local(f->decomp), *lc = hcl_decomp_local(c->decomp);
  if (exchange) {
    TRY(hcl_halo_exchange(c->u_halo));
  }
  KernelArgs a = hcl_kernel_args(m->kernels[K_PROLONG]);
  hcl_arg_mem(&a, hcl_field_buffer(f->u));
  hcl_arg_mem(&a, hcl_field_buffer(c->u));
  arg_shape(&a, f);
  hcl_arg_int(&a, f->nz);
  hcl_arg_int(&a, hcl_field_pitch(c->u));
  hcl_arg_ulong(&a, (size_t)hcl_field_pitch(c->u) * hcl_field_rows(c->u));
  hcl_arg_int(&a, level_origin(c));
  hcl_arg_int(&a, c->fx);
  hcl_arg_int(&a, c->fy);
  hcl_arg_int(&a, lf->x0);
  hcl_arg_int(&a, lf->y0);
  hcl_arg_int(&a, lc->x0);
  hcl_arg_int(&a, lc->y0);
  hcl_arg_mem(&a, c->prolongation);
  double coarse_share = level_points(c) / level_points(f); /* of a fine column's coarse reads */
  BoxLaunch launch = {m, a, (2.0 * (f->nz + 1) + (c->nz + 1) * coarse_share) * real_bytes(m), false};
  TRY(launch_box(&launch, box));
cleanup:
  return status;
}

/* count sweeps of level L, the first from zero when zero_guess: in one launch on a one_group level. */
static HclStatus sweeps(Mg *m, Level *L, int count, bool zero_guess) {
  HclStatus status = HCL_OK;
  if (count == 0) {
    goto cleanup;
  }
  if (!L->one_group) {
    for (int s = 0; s < count; s++) {
      TRY(sweep(m, L, zero_guess && s == 0));
    }
    goto cleanup;
  }
  KernelArgs a = hcl_kernel_args(m->kernels[K_SMOOTH_LEVEL]);
  hcl_arg_mem(&a, hcl_field_buffer(L->u));
  hcl_arg_mem(&a, hcl_field_buffer(L->rhs));
  hcl_arg_mem(&a, hcl_field_buffer(L->col));
  arg_shape(&a, L);
  hcl_arg_int(&a, L->nz);
  hcl_arg_int(&a, count);
  hcl_arg_int(&a, L->walls);
  hcl_arg_int(&a, zero_guess);
  hcl_arg_mem(&a, L->vertical);
  arg_spacing(&a, m, L, true);
  TRY(hcl_kernel_launch(m->rt, &a, hcl_kernel_groups(1, m->group),
                        count * 2 * (L->nz + 2.0) * level_points(L) * real_bytes(m)));
cleanup:
  return status;
}

/* The V-cycle from the tail's first level down, in one launch (multigrid.cl: vcycle_tail). */
static HclStatus tail_cycle(Mg *m) {
  Level *L = &m->level[m->tail];
  const MgOptions *o = &m->spec.options;
  KernelArgs a = hcl_kernel_args(m->kernels[K_TAIL]);
  hcl_arg_mem(&a, m->pack);
  hcl_arg_mem(&a, m->table);
  hcl_arg_mem(&a, m->tables);
  hcl_arg_int(&a, m->nlevels - m->tail);
  hcl_arg_int(&a, o->pre_sweeps);
  hcl_arg_int(&a, o->post_sweeps);
  hcl_arg_int(&a, o->coarse_sweeps);
  hcl_arg_mem(&a, hcl_field_buffer(L->rhs));
  hcl_arg_mem(&a, hcl_field_buffer(L->u));
  /* about the sweeps' traffic: u, rhs and the columns twice per sweep and level, the transfers once */
  double sweeps = o->pre_sweeps + o->post_sweeps + o->coarse_sweeps;
  return hcl_kernel_launch(m->rt, &a, hcl_kernel_groups(1, m->tail_group),
                           2 * sweeps * (L->nz + 2.0) * m->tail_points * real_bytes(m));
}

/* The V-cycle from level l down, for the correction u = 0 + ... of level l (no zeroing where a sweep comes first). */
static HclStatus cycle(Mg *m, int l) {
  HclStatus status = HCL_OK;
  Level *L = &m->level[l];
  if (l == m->tail) {
    return tail_cycle(m);
  }
  int first = l == m->nlevels - 1 ? m->spec.options.coarse_sweeps : m->spec.options.pre_sweeps;
  if (first == 0 || !L->zero_start) {
    TRY(hcl_field_zero(L->u));
  }
  if (l == m->nlevels - 1) {
    TRY(sweeps(m, L, first, L->zero_start));
    goto cleanup;
  }
  TRY(sweeps(m, L, first, L->zero_start));
  BoxLaunch res = residual(m, L);
  TRY(hcl_halo_overlap(L->u_halo, (HaloOverlap){.reach = 1}, launch_box, &res));
  TRY(restrict_to(m, L, &m->level[l + 1], true));
  TRY(cycle(m, l + 1));
  TRY(prolong_to(m, &m->level[l + 1], L, widened(L, 0), true));
  TRY(sweeps(m, L, m->spec.options.post_sweeps, false));
cleanup:
  return status;
}

/* count sweeps of a wide level after the prolongation wrote u over width ghosts (plan_wide): each half-sweep over a
 * ghost column fewer than the one before, the first over width - 1. */
static HclStatus wide_sweeps(Mg *m, Level *L, int count, int width) {
  HclStatus status = HCL_OK;
  for (int h = 0; h < 2 * count; h++) {
    BoxLaunch launch = half_sweep(m, L, h % 2, false);
    TRY(launch_box(&launch, widened(L, width - 1 - h)));
  }
cleanup:
  return status;
}

/* The first half-sweep of a wide level's visit, from zero over all its ghosts, with the exchange of rhs: it reads
 * only its own column's rhs, so the owned columns are swept while the ghosts travel (where halo.h finds the
 * interior worth it), then the ring of ghost columns around them. */
static HclStatus first_half_sweep(Mg *m, Level *L) {
  HclStatus status = HCL_OK;
  CellBox parts[HALO_PARTS_MOST], all = widened(L, L->ghost), own = widened(L, 0);
  BoxLaunch launch = half_sweep(m, L, 0, true);
  hcl_halo_parts(L->rhs_halo, 0, 0, parts);
  if (parts[0].nx == 0 || parts[0].ny == 0) {
    TRY(hcl_halo_exchange(L->rhs_halo));
    TRY(launch_box(&launch, all));
    goto cleanup;
  }
  TRY(hcl_halo_begin(L->rhs_halo));
  TRY(launch_box(&launch, own));
  TRY(hcl_halo_end(L->rhs_halo));
  int south = own.y0 - all.y0, north = all.y0 + all.ny - own.ny, west = own.x0 - all.x0;
  int east = all.x0 + all.nx - own.nx;
  CellBox ring[4] = {{all.x0, all.y0, all.nx, south},
                     {all.x0, own.ny, all.nx, north},
                     {all.x0, 0, west, own.ny},
                     {own.nx, 0, east, own.ny}};
  for (int k = 0; k < 4; k++) {
    if (ring[k].nx > 0 && ring[k].ny > 0) {
      TRY(launch_box(&launch, ring[k]));
    }
  }
cleanup:
  if (status != HCL_OK) {
    hcl_halo_cancel(L->rhs_halo);
  }
  return status;
}

/* count sweeps of a wide level from zero: the first half-sweep with rhs's exchange, then each over a ghost column
 * fewer than the one before. */
static HclStatus wide_first_sweeps(Mg *m, Level *L, int count) {
  HclStatus status = HCL_OK;
  TRY(first_half_sweep(m, L));
  for (int h = 1; h < 2 * count; h++) {
    BoxLaunch launch = half_sweep(m, L, h % 2, false);
    TRY(launch_box(&launch, widened(L, L->ghost - h)));
  }
cleanup:
  return status;
}

/* The communication-avoiding V-cycle from split level l down (plan_wide): rhs exchanged once over the level's
 * ghosts, then no exchange until the gathered level's gather, or where the level exchanges u at the end. */
static HclStatus wide_cycle(Mg *m, int l) {
  HclStatus status = HCL_OK;
  Level *L = &m->level[l];
  const MgOptions *o = &m->spec.options;
  if (l == m->gathered) {
    return cycle(m, l);
  }
  bool coarsest = l == m->nlevels - 1;
  int first = coarsest ? o->coarse_sweeps : o->pre_sweeps;
  if (first == 0) {
    TRY(hcl_halo_exchange(L->rhs_halo));
    TRY(hcl_field_zero(L->u));
  } else {
    TRY(wide_first_sweeps(m, L, first));
  }
  if (!coarsest) {
    Level *c = &m->level[l + 1];
    BoxLaunch res = residual(m, L);
    TRY(launch_box(&res, widened(L, 1)));
    TRY(restrict_to(m, L, c, false));
    TRY(wide_cycle(m, l + 1));
    TRY(prolong_to(m, c, L, widened(L, L->reach), l + 1 == m->gathered)); /* there: periodic ghosts, one rank's */
    TRY(wide_sweeps(m, L, o->post_sweeps, L->reach));
  }
  if (L->exchange_up) {
    TRY(hcl_halo_exchange(L->u_halo));
  }
cleanup:
  return status;
}

HclStatus hcl_mg_vcycle(Mg *m) {
  return m->wide ? wide_cycle(m, 0) : cycle(m, 0);
}

Field *hcl_mg_rhs(Mg *m) {
  return m->level[0].rhs;
}

Field *hcl_mg_correction(Mg *m) {
  return m->level[0].u;
}

int hcl_mg_levels(const Mg *m) {
  return m->nlevels;
}

void hcl_mg_level_shape(const Mg *m, int level, int *nx, int *ny, int *nz) {
  *nx = m->level[level].nx;
  *ny = m->level[level].ny;
  *nz = m->level[level].nz;
}

double hcl_mg_device_bytes(const Mg *m) {
  double bytes = m->tail_bytes;
  for (int l = 0; l < m->nlevels; l++) {
    const Level *L = &m->level[l];
    Field *fields[] = {L->u, L->rhs, L->res, L->col};
    for (int f = 0; f < 4; f++) {
      bytes += (double)hcl_field_count(fields[f]) * hcl_precision_bytes(hcl_field_precision(fields[f]));
    }
  }
  return bytes;
}

/* ---- options and case keys ---- */

MgOptions hcl_mg_options_default(void) {
  return (MgOptions){.levels = MG_LEVELS_MOST, .pre_sweeps = 1, .post_sweeps = 1, .coarse_sweeps = 4};
}

HclStatus hcl_mg_check_options(const MgOptions *o, const char *prefix, const Case *c) {
  HclStatus status = HCL_OK;
  char at[CASE_WHERE_MAX];
  REQUIRE(o->pre_sweeps >= 0 && o->post_sweeps >= 0 && o->pre_sweeps + o->post_sweeps >= 1, HCL_EDATA,
          "%s%spre_sweeps = %d and %spost_sweeps = %d: none negative, and the V-cycle needs a smoothing sweep",
          hcl_case_where(c, prefix, "pre_sweeps", at), prefix, o->pre_sweeps, prefix, o->post_sweeps);
  REQUIRE(o->coarse_sweeps >= 1, HCL_EDATA, "%s%scoarse_sweeps = %d: at least 1",
          hcl_case_where(c, prefix, "coarse_sweeps", at), prefix, o->coarse_sweeps);
  REQUIRE(o->levels >= MG_LEVELS_MOST, HCL_EDATA, "%s%slevels = %d: a number of restrictions >= 0, or -1 for the most",
          hcl_case_where(c, prefix, "levels", at), prefix, o->levels);
cleanup:
  return status;
}

HclStatus hcl_mg_add_keys(CaseSchema *schema, const char *prefix, const MgOptions *d) {
  char levels[16], pre[16], post[16], coarse[16];
  snprintf(levels, sizeof levels, "%d", d->levels);
  snprintf(pre, sizeof pre, "%d", d->pre_sweeps);
  snprintf(post, sizeof post, "%d", d->post_sweeps);
  snprintf(coarse, sizeof coarse, "%d", d->coarse_sweeps);
  const CaseKey keys[] = {
      {"levels", CASE_INT, "", levels, -1, MG_LEVELS_MAX - 1, NULL,
       "mg: multigrid restrictions; -1: as many as the grid allows"},
      {"pre_sweeps", CASE_INT, "", pre, 0, 100, NULL, "mg: zebra-line Gauss-Seidel sweeps before a restriction"},
      {"post_sweeps", CASE_INT, "", post, 0, 100, NULL, "mg: sweeps after a prolongation"},
      {"coarse_sweeps", CASE_INT, "", coarse, 1, 1000, NULL, "mg: sweeps on the coarsest grid"},
  };
  return hcl_case_schema_add(schema, prefix, keys, (int)(sizeof keys / sizeof keys[0]));
}

HclStatus hcl_mg_options_from_case(const Case *c, const char *prefix, MgOptions *out) {
  char key[CASE_KEY_MAX];
  out->levels = (int)hcl_case_int(c, hcl_case_key(key, prefix, "levels"));
  out->pre_sweeps = (int)hcl_case_int(c, hcl_case_key(key, prefix, "pre_sweeps"));
  out->post_sweeps = (int)hcl_case_int(c, hcl_case_key(key, prefix, "post_sweeps"));
  out->coarse_sweeps = (int)hcl_case_int(c, hcl_case_key(key, prefix, "coarse_sweeps"));
  return hcl_mg_check_options(out, prefix, c);
}

/* ---- the V-cycle as a preconditioner ---- */

typedef struct {
  Mg *mg;
  VecSpace *space; /* the finest level's fields */
  Vec *rhs, *correction;
} MgPc;

static void pc_destroy(void *ctx) {
  MgPc *p = ctx;
  if (!p) {
    return;
  }
  hcl_vec_destroy(&p->rhs);
  hcl_vec_destroy(&p->correction);
  hcl_vspace_destroy(&p->space);
  hcl_mg_destroy(&p->mg);
  free(p);
}

/* z = one V-cycle applied to r, from a zero correction (r and z converted where they are not the cycle's own). */
static HclStatus pc_apply(void *ctx, Vec *r, Vec *z) {
  HclStatus status = HCL_OK;
  MgPc *p = ctx;
  if (r != p->rhs) {
    TRY(hcl_vec_convert(p->rhs, r));
  }
  TRY(hcl_mg_vcycle(p->mg));
  hcl_vec_touch(p->correction);
  if (z != p->correction) {
    TRY(hcl_vec_convert(z, p->correction));
  }
cleanup:
  return status;
}

static Vec *pc_input(void *ctx) {
  return ((MgPc *)ctx)->rhs;
}

static Vec *pc_output(void *ctx) {
  return ((MgPc *)ctx)->correction;
}

static void pc_hint(void *ctx, char *text, size_t size) {
  const MgPc *p = ctx;
  snprintf(text, size, "more multigrid restrictions (%slevels: %d now), more sweeps", p->mg->spec.prefix,
           p->mg->nlevels - 1);
}

static const PrecondOps MG_OPS = {
    .name = "mg", .apply = pc_apply, .input = pc_input, .output = pc_output, .hint = pc_hint, .destroy = pc_destroy};

HclStatus hcl_mg_precond_create(Mg *mg, Precond **out) {
  HclStatus status = HCL_OK;
  MgPc *p = NULL;
  *out = NULL;
  TRY_ALLOC(p, 1);
  p->mg = mg;
  mg = NULL;
  Field *rhs = hcl_mg_rhs(p->mg);
  FieldSpec spec = {.nz = hcl_field_nz(rhs), .ghost = hcl_field_ghost(rhs), .precision = hcl_field_precision(rhs)};
  TRY(hcl_vspace_create_fields(p->mg->rt, hcl_field_decomp(rhs), &spec, &p->space));
  TRY(hcl_vec_wrap_field(p->space, rhs, &p->rhs));
  TRY(hcl_vec_wrap_field(p->space, hcl_mg_correction(p->mg), &p->correction));
  MgPc *owned = p; /* hcl_precond_create takes it, also when it fails */
  p = NULL;
  TRY(hcl_precond_create(&MG_OPS, owned, false, out));
cleanup:
  hcl_mg_destroy(&mg);
  pc_destroy(p);
  return status;
}

Mg *hcl_mg_precond_hierarchy(Precond *pc) {
  return hcl_precond_ops(pc) == &MG_OPS ? ((MgPc *)hcl_precond_context(pc))->mg : NULL;
}
