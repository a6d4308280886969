/* SPDX-License-Identifier: BSD-3-Clause */
/* mg.h: the multigrid preconditioner of the potential-flow Laplace solver (laplace.h; fnpf-gpu-model.txt section 4,
 * fnpf-multigpu-scalability.txt section 5): one V-cycle on the second-order discretization of the linearized
 * sigma-transformed operator (eta = 0, so it depends on the depth h only and is set up once), smoothed by zebra-line
 * Gauss-Seidel: the columns coloured red-black in the horizontal, each vertical line (the ghost below the bottom
 * included) solved exactly by the modified Thomas algorithm (eqs. 11-14). The line factors are formed inside the
 * sweep from four stored coefficients per column (1/h, grad h, lap h) rather than stored per row: the sweep is
 * bound by memory traffic, and the 3 nz factors per column would double it (and the memory per unknown). Closed
 * sides are read as mirror images inside the kernels (hcl_mirror_sides), so the cycle fills no ghost layers there.
 *
 * Levels: semi-coarsening (fnpf-multigpu-scalability 5.1): the horizontal directions whose spacing is below the
 * vertical one (mean depth / (nz - 1)) are halved while any is; then every direction that can be. A direction can be
 * halved while it keeps at least 5 points (3 in sigma) and its point count allows (odd between walls, even when
 * periodic; nz odd). On several ranks each coarse level lives on hcl_decomp_create_coarse's decomposition of the finer
 * one until a level is small (mg.c: GATHER_COLUMNS) or would leave a rank without a point: that level and the coarser
 * ones are gathered onto every rank (hcl_decomp_create_replicated), so the levels, and the cycle's arithmetic, are the
 * same on any number of ranks. The split levels run the communication-avoiding cycle where they can (mg.c:
 * plan_wide: wider ghosts, one exchange a visit). Restriction is full weighting, prolongation linear interpolation (in sigma at the actual spacing); the
 * coarsest level gets coarse_sweeps sweeps from zero.
 *
 * Curvilinear grids (mapping.h): every level's operator is the same discretization on the level's own grid, its
 * metric terms recomputed there by second-order differences of the map at the level's points (level point I is
 * the finest level's point stride I) rather than restricted from the finer level's, so that each level is the
 * Galerkin-free rediscretization the Cartesian levels are; the semi-coarsening compares the mean physical spacing
 * along each index direction (hcl_mapping_mean_spacing) with the vertical one. The metric term 2 g12 u_xigamma of a
 * non-orthogonal grid is left out of the V-cycle: it couples a column to its diagonal neighbours, which have its
 * own colour in the zebra sweep, so no sweep could take it in without a race; an orthogonal grid (g12 = 0, as an
 * O-grid's) loses nothing, and a skewed one pays in iterations of the outer method (README).
 *
 * All fields have nz + 1 planes as in laplace.h, and ghost width 1 except on the split levels of the
 * communication-avoiding cycle. Every call is collective. */
#ifndef HYDROCL_MG_H
#define HYDROCL_MG_H

#include "casefile.h"
#include "decomp.h"
#include "field.h"
#include "mapping.h"
#include "mirror.h"
#include "precond.h"
#include "runtime.h"
#include "status.h"

enum { MG_LEVELS_MOST = -1 };

/* What a user sets of the V-cycle. */
/* Where the V-cycle runs its coarse levels in one launch of one work-group (closed sides only; on several ranks the
 * levels gathered onto every rank): by default
 * on GPUs, where it saves launches; not on CPUs, where that work-group runs on one core (PoCL, 2 cores: Whalin's
 * case 17-24% slower with it). Tests compare MG_TAIL_ALWAYS with MG_TAIL_NEVER. */
typedef enum { MG_TAIL_ON_GPUS = 0, MG_TAIL_NEVER, MG_TAIL_ALWAYS } MgTail;

typedef struct {
  int levels;                                 /* restrictions K; MG_LEVELS_MOST: as many as the grid allows */
  int pre_sweeps, post_sweeps, coarse_sweeps; /* zebra-line Gauss-Seidel sweeps (one red and one black half each) */
  MgTail tail;                                /* the coarse levels in one launch: on GPUs, never, always */
} MgOptions;

/* K as many as the grid allows, V(1,1), 4 coarse sweeps. */
MgOptions hcl_mg_options_default(void);
/* The case-file keys levels, pre_sweeps, post_sweeps, coarse_sweeps under prefix ("solver."), with defaults. */
HclStatus hcl_mg_add_keys(CaseSchema *schema, const char *prefix, const MgOptions *defaults);
/* The options a finished case sets under prefix; checked as hcl_mg_check_options checks them, naming the case's line. */
HclStatus hcl_mg_options_from_case(const Case *c, const char *prefix, MgOptions *out);
/* None negative, pre + post >= 1, coarse >= 1, levels >= -1: HCL_EDATA naming prefix's keys, after where c (NULL:
 * none) set them. */
HclStatus hcl_mg_check_options(const MgOptions *o, const char *prefix, const Case *c);

typedef struct {
  double dx, dy;       /* spacing of the finest level [m] of a Cartesian grid (map NULL) */
  const Mapping *map;  /* a curvilinear grid (mapping.h; borrowed while the levels live), or NULL */
  int nz;              /* sigma points of the finest level */
  const double *sigma; /* nz points from 0 to 1 (borrowed during hcl_mg_create) */
  double depth_scale;  /* mean depth [m]: the vertical spacing for the semi-coarsening choice */
  Precision precision; /* of every level */
  MgOptions options;
  const char *prefix; /* of the keys that set options, for messages (static) */
} MgSpec;

typedef struct Mg Mg;

/* Sets up the levels for depth h (this rank's owned points of the finest level, x fastest): the coarse grids,
 * their depth by injection and the column coefficients. More levels asked for than
 * the grid allows is HCL_EDATA with the most it allows. Borrows rt, decomp and mirror. */
HclStatus hcl_mg_create(Runtime *rt, const Decomp *decomp, Mirror *mirror, const MgSpec *spec, const double *h,
                        Mg **out);
void hcl_mg_destroy(Mg **mg);

Field *hcl_mg_rhs(Mg *mg);        /* the finest level's right-hand side: the caller writes the defect here */
Field *hcl_mg_correction(Mg *mg); /* the finest level's V-cycle result */

/* correction = one V-cycle applied to rhs, from a zero correction. */
HclStatus hcl_mg_vcycle(Mg *mg);

/* The V-cycle as a preconditioner (precond.h) of an operator on fields of nz + 1 planes on the finest level's
 * decomposition: it takes ownership of mg. Its input and output are the finest level's right-hand side and correction
 * (hcl_mg_rhs, hcl_mg_correction, in the V-cycle's precision, ghost width 1): a residual written there is preconditioned
 * without a copy; any other vector is converted in and out. Symmetric it is not (Gauss-Seidel sweeps in one order),
 * so it serves GMRES and defect correction. Collective. */
HclStatus hcl_mg_precond_create(Mg *mg, Precond **out);
/* The hierarchy of a multigrid preconditioner (borrowed), NULL for another preconditioner. */
Mg *hcl_mg_precond_hierarchy(Precond *pc);

int hcl_mg_levels(const Mg *mg);
void hcl_mg_level_shape(const Mg *mg, int level, int *nx, int *ny, int *nz); /* global points of a level */
double hcl_mg_device_bytes(const Mg *mg);

#endif
