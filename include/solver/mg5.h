/* SPDX-License-Identifier: BSD-3-Clause */
/* mg5.h: geometric multigrid for the 5-point systems of stencil5.h as a preconditioner (precond.h) any Krylov method
 * can use: the semi-implicit shallow-water pressure system, the ship-wave model's psi system, the Poisson problem.
 *
 * The method is hypre's PFMG (Ashby & Falgout 1996) with a 5-point coarse operator (kernels_cl/mg5.cl says how):
 * - semicoarsening: each level halves one direction, the one whose couplings are strongest (summed over the level's
 *   grid; PFMG's rule, which coarsens a strongly anisotropic system along its strong direction only, where a point
 *   smoother is enough); levels down to one point, on any number of ranks.
 * - operator-dependent interpolation (Dendy's collapsed stencil) and the Galerkin coarse operator R S P, R = P^T,
 *   folded back onto 5 points so every level is one: Galerkin because coefficients that jump (a tidal flat, a dry
 *   cell's zero couplings, a ship's hull) have no rediscretization from the matrix alone, and R S P with these
 *   weights keeps the jumps where S has them.
 * - red-black Gauss-Seidel, one half-sweep pair before and the reverse pair after each coarse correction, so the
 *   V-cycle is a symmetric positive definite M (CG's need); on the coarsest grid as many symmetric sweeps as it has
 *   points across. PFMG's skipped relaxation: the second level of an x-then-y pair below an isotropic level (its
 *   couplings' sums in x and y within a factor 2) is not relaxed, its correction the coarse one interpolated.
 * - several ranks: the first level of at most 65536 points (HYDROCL_MG_GATHER_POINTS), or the first some rank could
 *   no longer keep a point of, is gathered onto every rank (gather.h): each rank restricts its block of it, one MPI_Allgatherv a V-cycle
 *   assembles it everywhere, and every rank runs the levels below alone, with no exchange. The setup gathers the
 *   Galerkin product the same way. The levels above are communication-avoiding (mg5.c: plan_wide): a level's b is
 *   exchanged once a visit over ghosts wide enough (3 to 12) that its sweeps, residual and prolongation compute the
 *   ghosts they read themselves, one exchange a level where the plain cycle (HYDROCL_MG_WIDE=0; periodic sides,
 *   blocks narrower than the ghosts) exchanges before each half-sweep, residual and grid transfer, with the same
 *   bits.
 * - the coarse levels in one launch (closed sides): from the first level of one rank or gathered onto every rank of
 *   at most 16 points a work-item of one work-group (4096 points with 256 work-items), the rest of the V-cycle is one
 *   kernel of one work-group, its steps separated by barriers, on a packed copy of those levels' matrices made at
 *   every setup.
 *
 * A preconditioner in another precision than its operator's (float for a double system: mixed-precision CG) makes
 * its own finest level, a copy of the operator's matrix converted at every setup, and converts r and z on the way
 * in and out. The directions are chosen at the first setup and kept; every setup recomputes the levels' weights
 * and matrices on the device. Every call is collective. */
#ifndef HYDROCL_MG5_H
#define HYDROCL_MG5_H

#include <stdbool.h>

#include "precision.h"
#include "precond.h"
#include "status.h"

typedef struct {
  bool own_precision;  /* false: the operator's precision */
  Precision precision; /* of the levels when own_precision */
  bool level_by_level; /* no one-launch tail (tests compare the two paths) */
} Mg5Options;

HclStatus hcl_mg5_precond_create(const Mg5Options *options, Precond **out);

/* The levels of a preconditioner that has been set up (0 otherwise), and level l's global grid and the direction it
 * halves to the next (0: x, 1: y, -1: the coarsest): for reports and tests. */
int hcl_mg5_levels(const Precond *pc);
void hcl_mg5_level_shape(const Precond *pc, int l, int *nx, int *ny, int *halves);
/* Level l's ghost width: 1, or wider on a level split over the ranks of the communication-avoiding cycle. */
int hcl_mg5_level_ghost(const Precond *pc, int l);

#endif
