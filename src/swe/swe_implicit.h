/* SPDX-License-Identifier: BSD-3-Clause */
/* swe_implicit.h: the semi-implicit scheme's step for swe.c (swe.h; kernels_cl/swe.cl, its last section): the face
 * predictors, the level system assembled on the device as a 5-point operator (stencil5.h), CG with the RRB
 * preconditioner through krylov.h, the new state from the solved levels, and drying within the step. */
#ifndef HYDROCL_SWE_IMPLICIT_H
#define HYDROCL_SWE_IMPLICIT_H

#include <CL/cl.h>

#include "decomp.h"
#include "field.h"
#include "kernel.h"
#include "precond.h"
#include "runtime.h"
#include "status.h"
#include "swe.h"

/* The prognostic fields of one copy of the state (u and v carry their faces' wet flags: -0 dry). */
typedef struct {
  Field *zeta, *u, *v;
} SweState;

/* The ghost width of every field the scheme's kernels take (kernels_cl/swe.cl: STENCIL_RADIUS). */
enum { SWE_GHOST = 3 };

/* The implicit scheme's kernels in swe.cl, in this order. */
enum { SWE_K_PREDICT, SWE_K_ASSEMBLE, SWE_K_UPDATE, SWE_K_DRY_NEGATIVE, SWE_IMPLICIT_KERNELS };
extern const char *const swe_implicit_kernel_names[SWE_IMPLICIT_KERNELS];

typedef struct SweImplicit SweImplicit;

/* Borrows everything it is given: the two copies of the state, the bed depth, the friction map (or any field where
 * config->friction_map is false), the kernels (built by swe.c). */
HclStatus swe_implicit_create(Runtime *rt, const Decomp *decomp, const SweConfig *config, const SweState state[2],
                              Field *depth, Field *friction_map, const cl_kernel kernels[SWE_IMPLICIT_KERNELS],
                              SweImplicit **out);
void swe_implicit_destroy(SweImplicit **implicit);
HclStatus swe_implicit_set_precond(SweImplicit *implicit, Precond *pc);

/* One step from copy `current` into the other, the water-level sides at levels (n + 1). */
HclStatus swe_implicit_step(SweImplicit *implicit, int current, double dt, const double levels[SWE_SIDES]);
SweSolveStats swe_implicit_stats(const SweImplicit *implicit);
/* ||b - A x|| / ||b|| of the last level solve, recomputed (NAN before the first). Collective. */
HclStatus swe_implicit_last_residual(SweImplicit *implicit, double *relative);

/* The device bytes swe_implicit_create and its first step add on an nx x ny block (hcl_swe_device_bytes). */
double swe_implicit_bytes(int nx, int ny, Precision precision);

#endif
