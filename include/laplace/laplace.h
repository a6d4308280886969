/* SPDX-License-Identifier: BSD-3-Clause */
/* laplace.h: the sigma-transformed Laplace problem of fully nonlinear potential flow, solved on the device
 * (../shared/papers/fnpf-gpu-model.txt sections 2 to 4, fnpf-multigpu-scalability.txt sections 2 to 5,
 * fnpf-mixed-precision.txt): given the free surface elevation eta, the surface potential phi and the still-water
 * depth h, the potential Phi in the fluid and the vertical velocity w at the surface.
 *
 * Grid: the horizontal nx x ny points of the decomposition (spacing dx, dy, or a curvilinear grid, mapping.h: the
 * operator's horizontal derivatives then act along the grid's index directions and the map's metric terms turn
 * them into physical ones; a closed side is a no-flux wall, a periodic side periodic, decomp.h), nz points in sigma = (z + h) / (eta + h) from 0 (bottom) to 1 (surface),
 * uniform or clustered towards the surface, and one ghost plane below the bottom for the kinematic bottom
 * condition. 3D fields are [nz + 1][ny + 2g][nx + 2g]: plane 0 the ghost below the bottom, plane k + 1 the point
 * sigma_k. A direction of one point (a 2D flume) has no derivative along it.
 *
 * The operator (fnpf-gpu-model eq. 4, coefficients eq. 5), matrix-free with finite differences of order 2 to 8
 * (fd.h) and the coefficients formed from eta and h on the fly:
 *   sigma = 1:      Phi = phi                                                                     (4a)
 *   0 <= sigma < 1: Phi_xx + Phi_yy + lap(sigma) Phi_s + 2 grad(sigma) . grad(Phi_s)
 *                     + (|grad(sigma)|^2 + (1/d)^2) Phi_ss = f                                       (4b)
 *   sigma = 0:      (1/d + grad(h) . grad(sigma)) Phi_s + grad(h) . grad(Phi) = f_b     (the bottom, ghost row)
 * with d = eta + h, f = f_b = 0 unless a source is set (hcl_laplace_set_source, for manufactured solutions). Walls are
 * planes of symmetry: Phi, eta and h are mirrored into the ghost layers (mirror.h), so the normal flux through
 * them is zero to every order (and so is the normal slope of h at a wall).
 *
 * The solver: the operator above (operator.h: an operator with its own right-hand side, not symmetric) solved by a
 * Krylov method of krylov.h, defect correction by default (fnpf-gpu-model Algorithm 1: Phi += M^-1 (b - A Phi)) or
 * GMRES(m), until the residual's RMS falls to rtol times that of b plus atol (multigpu-scalability eq. 14), where b is
 * the right-hand side of the rows below the surface once the surface values phi are moved over, with the sources (eq.
 * 9: b "accounts for in-homogenous boundary conditions"; the residual's units, so that rtol means the same at any
 * spacing). M^-1 is one multigrid V-cycle on the second-order linearized operator (eta = 0; mg.h's preconditioner),
 * or none. CG does not apply (the operator is not symmetric) and is refused naming the methods that do. Precision:
 * double, single, or mixed (fnpf-mixed-precision: the outer iteration in double, the V-cycle in float). Every call is
 * collective over the decomposition; ghosts are exchanged before every operator application, so the residual
 * history on any number of ranks is the one-rank history to rounding.
 *
 * Keys: the solver's settings are a case file's keys under a prefix the model chooses ("solver." in the wave model;
 * "laplace." when set through this API, as its messages then name them): nz, order, sigma, precision, preconditioner,
 * the V-cycle's (mg.h) and the Krylov method's (krylov.h). */
#ifndef HYDROCL_LAPLACE_H
#define HYDROCL_LAPLACE_H

#include <stdbool.h>

#include "casefile.h"
#include "decomp.h"
#include "field.h"
#include "krylov.h"
#include "mapping.h"
#include "mg.h"
#include "runtime.h"
#include "status.h"

typedef enum { LAPLACE_MIXED, LAPLACE_DOUBLE, LAPLACE_SINGLE } LaplacePrecision; /* the order of the case's choices */
typedef enum { LAPLACE_SIGMA_UNIFORM, LAPLACE_SIGMA_COSINE } LaplaceSigma;
typedef enum { LAPLACE_MG, LAPLACE_NO_PRECONDITIONER } LaplacePreconditioner;

enum { LAPLACE_NZ_MAX = 129 };

typedef struct {
  double dx, dy;      /* horizontal spacing [m] of a Cartesian grid (map NULL) */
  const Mapping *map; /* a curvilinear grid (mapping.h; borrowed while the solver lives), or NULL: Cartesian */
  int nz;             /* points in sigma, >= 3, > order, <= LAPLACE_NZ_MAX */
  LaplaceSigma sigma; /* uniform, or sigma_k = sin(pi k / (2 (nz - 1))): clustered towards the surface */
  int order;          /* of the finite differences: 2, 4, 6 or 8; the ghost width is order / 2 */
  LaplacePrecision precision;
  LaplacePreconditioner preconditioner;
  MgOptions mg;         /* the V-cycle: K (MG_LEVELS_MOST: while the grid stays >= 5 x 5 x 3), the sweeps */
  KrylovOptions krylov; /* the method and its stopping rule: rms(r) <= rtol rms(b) + atol */
  const char *prefix;   /* of the keys that set these, for messages (static; krylov.prefix is the same) */
} LaplaceConfig;

/* The keys of the solver under prefix, with defaults' values: nz, order, sigma, precision, preconditioner (mg|none),
 * mg.h's and krylov.h's. */
HclStatus hcl_laplace_add_keys(CaseSchema *schema, const char *prefix, const LaplaceConfig *defaults);
/* The config a finished case sets under prefix (dx, dy left as they are), precision overriding its precision key
 * when not NULL, checked with hcl_laplace_check (grid nx x ny points), the case's
 * lines in the messages. */
HclStatus hcl_laplace_config_from_case(const Case *c, const char *prefix, const LaplacePrecision *precision, int nx,
                                       int ny, LaplaceConfig *config);
/* Everything of config that needs no device: the order, nz against it and the grid of nx x ny points (a curvilinear
 * one of more than order points each way), the spacing of a Cartesian one,
 * the V-cycle's options and whether the method applies to the operator (CG does not): HCL_EDATA naming the key under
 * config->prefix, after where c (NULL: none) set it. */
HclStatus hcl_laplace_check(const LaplaceConfig *config, int nx, int ny, const Case *c);

/* The absolute tolerance of this solver's RMS criterion that equals atol_2 on the 2-norm of the residual over the
 * nx x ny x (nz + 1) unknowns (fnpf-multigpu-scalability eq. 14 reads ||r|| <= rtol ||b|| + atol in the 2-norm;
 * rtol means the same in both norms): atol_2 / sqrt(nx ny (nz + 1)). */
double hcl_laplace_rms_atol(double atol_2, int nx, int ny, int nz);

/* The defaults: 6th order, 9 uniform sigma points, mixed precision, the V-cycle with K max, V(1,1) and 4 coarse
 * sweeps, defect correction to rtol 1e-6, atol 1e-10 in the rms norm, 100 iterations, GMRES(10) when chosen, the
 * prefix "laplace.". dx, dy to be set. */
LaplaceConfig hcl_laplace_config_default(void);

/* A solve's outcome (krylov.h): iterations (preconditioner applications), reference (rms of b: the surface values'
 * image below the surface and the sources), history (rms of the residual before iteration k), converged. */
typedef KrylovResult LaplaceResult;

typedef struct Laplace Laplace;

/* Sets up the solver for depth h (this rank's owned points, x fastest) on decomp: the stencils, the fields, the
 * multigrid levels, the Krylov method. Bad settings (hcl_laplace_check's, a depth <= 0, a device without fp64 for double
 * or mixed) are HCL_EDATA or HCL_ENODEVICE, naming the key and the value. Borrows rt and decomp. Collective. */
HclStatus hcl_laplace_create(Runtime *rt, const Decomp *decomp, const LaplaceConfig *config, const double *h,
                             Laplace **out);
void hcl_laplace_destroy(Laplace **laplace);

/* Solves for Phi given eta and phi: 2D fields (nz 1) of the outer precision (float when single, else double) on
 * decomp, with any ghost width (read on owned points only). Starts from the Phi left by the previous solve (zero at
 * first; hcl_laplace_set_potential replaces it), and computes w. A solve that does not converge within max_iterations is
 * HCL_ENOTCONVERGED with the residual history and what to change (krylov.h); a non-positive water column d = eta + h
 * is HCL_EDATA. The result's history is borrowed until the next solve. Collective. */
HclStatus hcl_laplace_solve(Laplace *laplace, Field *eta, Field *phi, LaplaceResult *result);

/* The residual b - A Phi of the current Phi with the surface set from phi, into hcl_laplace_residual (tests: the
 * operator's truncation error). */
HclStatus hcl_laplace_compute_residual(Laplace *laplace, Field *eta, Field *phi);
/* On the state of the last solve or residual (bench halo: the exchange's overlap): one sweep of the high-order
 * defect r = b - A Phi into hcl_laplace_residual, with Phi's ghosts refreshed behind it as in every solve (refresh) or
 * taken as current; with sweep false, the refresh alone. Collective. */
HclStatus hcl_laplace_sweep(Laplace *laplace, bool sweep, bool refresh);

/* Sources f and f_b: host array of this rank's owned points of all nz + 1 planes (plane 0 f_b, plane k + 1 f at
 * sigma_k; the top plane is ignored), or NULL for none. */
HclStatus hcl_laplace_set_source(Laplace *laplace, const double *source);
/* Replaces Phi (owned points of the nz + 1 planes; the top plane is overwritten by phi at the next solve). */
HclStatus hcl_laplace_set_potential(Laplace *laplace, const double *potential);

Field *hcl_laplace_potential(Laplace *laplace); /* Phi, [nz + 1] planes, outer precision (borrowed) */
Field *hcl_laplace_residual(Laplace *laplace);  /* the last residual: the V-cycle's precision and layout (borrowed) */
Field *hcl_laplace_w(Laplace *laplace);         /* w = Phi_s / d at the surface (fnpf-gpu-model eq. 6), 2D (borrowed) */
const double *hcl_laplace_sigma(const Laplace *laplace); /* the nz sigma points */
/* The sigma stencils (fd.h) of the nz + 1 nodes (node 0 the ghost below the bottom, node k + 1 sigma_k), on the
 * device in the outer precision: per node order + 2 weights of d/dsigma, order + 2 of d2/dsigma2 on the nodes from
 * hcl_laplace_sigma_stencil_first's, then the node's sigma (the ghost's: -sigma_1). Borrowed. */
cl_mem hcl_laplace_sigma_stencils(const Laplace *laplace);
const int *hcl_laplace_sigma_stencil_first(const Laplace *laplace); /* nz + 1 values */
int hcl_laplace_levels(const Laplace *laplace); /* multigrid levels used (K + 1); 0 without the V-cycle */
/* One line per multigrid level: "level 0: 65 x 65 x 9" ... ("no multigrid" without it); caller frees. */
HclStatus hcl_laplace_describe_levels(const Laplace *laplace, char **text);
double hcl_laplace_device_bytes(const Laplace *laplace); /* device memory held, all fields and levels */

#endif
