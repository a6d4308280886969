/* SPDX-License-Identifier: BSD-3-Clause */
/* swe_kernel_args.c: see swe_kernel_args.h. */
#include "swe_kernel_args.h"

#include <string.h>

void swe_arg_common(KernelArgs *a, const Decomp *decomp, const SweConfig *c, int pitch, double dt,
                    const Field *friction_map) {
  const DecompLocal *l = hcl_decomp_local(decomp);
  const DecompSpec *g = hcl_decomp_spec(decomp);
  int ints[9] = {l->nx, l->ny, pitch, l->x0, l->y0, g->nx, g->ny, !g->periodic_x, !g->periodic_y};
  double reals[6] = {dt, c->dx, c->dy, c->g, c->dry_depth, c->friction_coefficient};
  for (int i = 0; i < 9; i++) {
    hcl_arg_int(a, ints[i]);
  }
  for (int i = 0; i < 6; i++) {
    hcl_arg_real(a, c->precision, reals[i]);
  }
  hcl_arg_mem(a, hcl_field_buffer(friction_map));
}

void swe_arg_sides(KernelArgs *a, const Decomp *decomp, const SweConfig *config, const double levels[SWE_SIDES],
                   bool with_values) {
  const DecompSpec *g = hcl_decomp_spec(decomp);
  bool periodic[SWE_SIDES] = {g->periodic_x, g->periodic_x, g->periodic_y, g->periodic_y};
  cl_int4 types;
  for (int side = 0; side < SWE_SIDES; side++) {
    types.s[side] = periodic[side] ? SWE_SIDE_WALL : (cl_int)config->sides[side];
  }
  hcl_arg_bytes(a, sizeof types, &types);
  if (!with_values) {
    return;
  }
  if (config->precision == PRECISION_DOUBLE) {
    cl_double4 level, reference;
    memcpy(level.s, levels, sizeof level.s);
    memcpy(reference.s, config->reference_level, sizeof reference.s);
    hcl_arg_bytes(a, sizeof level, &level);
    hcl_arg_bytes(a, sizeof reference, &reference);
  } else {
    cl_float4 level, reference;
    for (int side = 0; side < SWE_SIDES; side++) {
      level.s[side] = (float)levels[side];
      reference.s[side] = (float)config->reference_level[side];
    }
    hcl_arg_bytes(a, sizeof level, &level);
    hcl_arg_bytes(a, sizeof reference, &reference);
  }
}
