/* SPDX-License-Identifier: BSD-3-Clause */
/* swe_kernel_args.h: the arguments every kernel of kernels_cl/swe.cl takes after its buffers, which the explicit
 * step (swe.c) and the semi-implicit one (swe_implicit.c) both pass. */
#ifndef HYDROCL_SWE_KERNEL_ARGS_H
#define HYDROCL_SWE_KERNEL_ARGS_H

#include <stdbool.h>

#include "decomp.h"
#include "kernel.h"
#include "swe.h"

/* The grid and the physics (swe.cl's GRID_ARGS, PHYSICS_ARGS) for a step dt of fields of row pitch `pitch`;
 * friction_map: the field of the cells' friction coefficients (any field of the grid where config->friction_map is
 * false: the kernels then read none). */
void swe_arg_common(KernelArgs *a, const Decomp *decomp, const SweConfig *config, int pitch, double dt,
                    const Field *friction_map);
/* The sides' types, and with with_values their levels (n + 1) and reference levels. */
void swe_arg_sides(KernelArgs *a, const Decomp *decomp, const SweConfig *config, const double levels[SWE_SIDES],
                   bool with_values);

#endif
