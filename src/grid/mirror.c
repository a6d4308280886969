/* SPDX-License-Identifier: BSD-3-Clause */
/* mirror.c: mirror-symmetric ghost layers on closed sides (see mirror.h, kernels_cl/mirror.cl). */
#include "mirror.h"

#include <stdlib.h>

#include "clerror.h"
#include "kernel.h"
#include "program.h"

enum { KERNEL_X, KERNEL_Y, NKERNELS };
static const char *const kernel_names[NKERNELS] = {"mirror_x", "mirror_y"};

struct Mirror {
  Runtime *rt;
  cl_program program;
  cl_kernel kernels[NKERNELS];
};

HclStatus hcl_mirror_create(Runtime *rt, Mirror **out) {
  HclStatus status = HCL_OK;
  Mirror *m = NULL;
  *out = NULL;
  TRY_ALLOC(m, 1);
  m->rt = rt;
  KernelConfig config = {.precision = PRECISION_SINGLE}; /* precision-blind: 32-bit words */
  TRY(hcl_program_build_kernels(rt, "mirror", &config, kernel_names, NKERNELS, &m->program, m->kernels));
  *out = m;
  m = NULL;
cleanup:
  hcl_mirror_destroy(&m);
  return status;
}

void hcl_mirror_destroy(Mirror **mirror) {
  if (!mirror || !*mirror) {
    return;
  }
  hcl_program_release(&(*mirror)->program, (*mirror)->kernels, NKERNELS);
  free(*mirror);
  *mirror = NULL;
}

/* A closed direction of n global points can mirror g ghosts when n > g, or repeat its one point. */
static HclStatus check_length(const Field *f, int n, char axis) {
  HclStatus status = HCL_OK;
  int g = hcl_field_ghost(f);
  REQUIRE(n == 1 || n > g, HCL_EDATA,
          "field '%s': %d points along %c between closed sides are too few to mirror %d ghost layers (need one, or "
          "at least %d)",
          hcl_field_name(f), n, axis, g, g + 1);
cleanup:
  return status;
}

int hcl_mirror_sides(const Decomp *decomp) {
  const DecompSpec *s = hcl_decomp_spec(decomp);
  const DecompLocal *l = hcl_decomp_local(decomp);
  int sides = 0;
  if (!s->periodic_x) {
    sides |=
        (l->cx == 0 ? MIRROR_WEST : 0) | (l->cx == l->px - 1 ? MIRROR_EAST : 0) | (s->nx == 1 ? MIRROR_SINGLE_X : 0);
  }
  if (!s->periodic_y) {
    sides |=
        (l->cy == 0 ? MIRROR_SOUTH : 0) | (l->cy == l->py - 1 ? MIRROR_NORTH : 0) | (s->ny == 1 ? MIRROR_SINGLE_Y : 0);
  }
  return sides;
}

HclStatus hcl_mirror_fill(Mirror *m, Field *f) {
  HclStatus status = HCL_OK;
  const DecompSpec *s = hcl_decomp_spec(hcl_field_decomp(f));
  const DecompLocal *l = hcl_decomp_local(hcl_field_decomp(f));
  int g = hcl_field_ghost(f), words = (int)(hcl_precision_bytes(hcl_field_precision(f)) / 4);
  int sides = hcl_mirror_sides(hcl_field_decomp(f));
  int west = (sides & MIRROR_WEST) != 0, east = (sides & MIRROR_EAST) != 0;
  int south = (sides & MIRROR_SOUTH) != 0, north = (sides & MIRROR_NORTH) != 0;
  if (g == 0) {
    goto cleanup;
  }
  if (west || east) {
    TRY(check_length(f, s->nx, 'x'));
    KernelArgs a = hcl_kernel_args(m->kernels[KERNEL_X]);
    hcl_arg_mem(&a, hcl_field_buffer(f));
    hcl_arg_int(&a, words);
    hcl_arg_int(&a, l->nx);
    hcl_arg_int(&a, g);
    hcl_arg_int(&a, hcl_field_pitch(f));
    hcl_arg_int(&a, west);
    hcl_arg_int(&a, east);
    hcl_arg_int(&a, (sides & MIRROR_SINGLE_X) != 0);
    TRY(hcl_kernel_launch(m->rt, &a, hcl_kernel_box(3, (size_t)g, (size_t)hcl_field_rows(f), (size_t)hcl_field_nz(f)),
                          0));
  }
  if (south || north) {
    TRY(check_length(f, s->ny, 'y'));
    KernelArgs a = hcl_kernel_args(m->kernels[KERNEL_Y]);
    hcl_arg_mem(&a, hcl_field_buffer(f));
    hcl_arg_int(&a, words);
    hcl_arg_int(&a, l->ny);
    hcl_arg_int(&a, g);
    hcl_arg_int(&a, hcl_field_pitch(f));
    hcl_arg_int(&a, hcl_field_rows(f));
    hcl_arg_int(&a, south);
    hcl_arg_int(&a, north);
    hcl_arg_int(&a, (sides & MIRROR_SINGLE_Y) != 0);
    TRY(hcl_kernel_launch(m->rt, &a, hcl_kernel_box(3, (size_t)hcl_field_pitch(f), (size_t)g, (size_t)hcl_field_nz(f)),
                          0));
  }
cleanup:
  return status;
}

HclStatus hcl_mirror_exchange(Mirror *m, Halo *halo, Field *f) {
  HclStatus status = HCL_OK;
  TRY(hcl_halo_exchange(halo));
  TRY(hcl_mirror_fill(m, f));
cleanup:
  return status;
}
