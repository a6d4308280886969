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

HclStatus mirror_create(Runtime *rt, Mirror **out) {
  HclStatus status = HCL_OK;
  Mirror *m = NULL;
  *out = NULL;
  TRY_ALLOC(m, 1);
  m->rt = rt;
  KernelConfig config = {.precision = PRECISION_SINGLE}; /* precision-blind: 32-bit words */
  TRY(program_build_kernels(rt, "mirror", &config, kernel_names, NKERNELS, &m->program, m->kernels));
  *out = m;
  m = NULL;
cleanup:
  mirror_destroy(&m);
  return status;
}

void mirror_destroy(Mirror **mirror) {
  if (!mirror || !*mirror) {
    return;
  }
  program_release(&(*mirror)->program, (*mirror)->kernels, NKERNELS);
  free(*mirror);
  *mirror = NULL;
}

/* A closed direction of n global points can mirror g ghosts when n > g, or repeat its one point. */
static HclStatus check_length(const Field *f, int n, char axis) {
  HclStatus status = HCL_OK;
  int g = field_ghost(f);
  REQUIRE(n == 1 || n > g, HCL_EDATA,
          "field '%s': %d points along %c between closed sides are too few to mirror %d ghost layers (need one, or "
          "at least %d)",
          field_name(f), n, axis, g, g + 1);
cleanup:
  return status;
}

int mirror_sides(const Decomp *decomp) {
  const DecompSpec *s = decomp_spec(decomp);
  const DecompLocal *l = decomp_local(decomp);
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

HclStatus mirror_fill(Mirror *m, Field *f) {
  HclStatus status = HCL_OK;
  const DecompSpec *s = decomp_spec(field_decomp(f));
  const DecompLocal *l = decomp_local(field_decomp(f));
  int g = field_ghost(f), words = (int)(precision_bytes(field_precision(f)) / 4);
  int sides = mirror_sides(field_decomp(f));
  int west = (sides & MIRROR_WEST) != 0, east = (sides & MIRROR_EAST) != 0;
  int south = (sides & MIRROR_SOUTH) != 0, north = (sides & MIRROR_NORTH) != 0;
  if (g == 0) {
    goto cleanup;
  }
  if (west || east) {
    TRY(check_length(f, s->nx, 'x'));
    KernelArgs a = kernel_args(m->kernels[KERNEL_X]);
    arg_mem(&a, field_buffer(f));
    arg_int(&a, words);
    arg_int(&a, l->nx);
    arg_int(&a, g);
    arg_int(&a, field_pitch(f));
    arg_int(&a, west);
    arg_int(&a, east);
    arg_int(&a, (sides & MIRROR_SINGLE_X) != 0);
    TRY(kernel_launch(m->rt, &a, kernel_box(3, (size_t)g, (size_t)field_rows(f), (size_t)field_nz(f)), 0));
  }
  if (south || north) {
    TRY(check_length(f, s->ny, 'y'));
    KernelArgs a = kernel_args(m->kernels[KERNEL_Y]);
    arg_mem(&a, field_buffer(f));
    arg_int(&a, words);
    arg_int(&a, l->ny);
    arg_int(&a, g);
    arg_int(&a, field_pitch(f));
    arg_int(&a, field_rows(f));
    arg_int(&a, south);
    arg_int(&a, north);
    arg_int(&a, (sides & MIRROR_SINGLE_Y) != 0);
    TRY(kernel_launch(m->rt, &a, kernel_box(3, (size_t)field_pitch(f), (size_t)g, (size_t)field_nz(f)), 0));
  }
cleanup:
  return status;
}

HclStatus mirror_exchange(Mirror *m, Halo *halo, Field *f) {
  HclStatus status = HCL_OK;
  TRY(halo_exchange(halo));
  TRY(mirror_fill(m, f));
cleanup:
  return status;
}
