/* SPDX-License-Identifier: BSD-3-Clause */
/* stencil5.c: the 5-point symmetric operator (see stencil5.h; kernels in kernels_cl/stencil5.cl). */
#include "stencil5.h"

#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "program.h"

enum { WG_X = 32, WG_Y = 4 };
enum { K_APPLY, K_RESIDUAL, K_BLACK_JACOBI, NKERNELS };
static const char *const kernel_names[NKERNELS] = {"apply_stencil", "residual_stencil", "black_jacobi"};

typedef struct {
  Runtime *rt;
  const Decomp *decomp;
  Precision precision;
  int ghost; /* of its fields */
  VecSpace *space;
  Field *centre, *east, *north;
  Vec *matrix_vecs[3]; /* centre (the diagonal), east and north as vectors of the space */
  Halo *matrix_halo;   /* centre, east, north: their ghosts exchanged by setup */
  cl_program program;
  cl_kernel kernels[NKERNELS];
} Stencil5;

static void destroy(void *ctx) {
  Stencil5 *s = ctx;
  if (!s) {
    return;
  }
  hcl_program_release(&s->program, s->kernels, NKERNELS);
  for (int f = 0; f < 3; f++) {
    hcl_vec_destroy(&s->matrix_vecs[f]);
  }
  hcl_halo_destroy(&s->matrix_halo);
  hcl_field_destroy(&s->centre);
  hcl_field_destroy(&s->east);
  hcl_field_destroy(&s->north);
  hcl_vspace_destroy(&s->space);
  free(s);
}

static HclStatus setup(void *ctx) {
  HclStatus status = HCL_OK;
  Stencil5 *s = ctx;
  double smallest = 0;
  TRY(hcl_halo_exchange(s->matrix_halo));
  TRY(hcl_reduce_min(hcl_vspace_reducer(s->space), hcl_field_span(s->centre), &smallest));
  REQUIRE(smallest > 0, HCL_EDATA,
          "the matrix has a centre coefficient of %g: a symmetric positive definite matrix has every one positive",
          smallest);
cleanup:
  return status;
}

/* The place of point (0, 0) in the fields (stencil5.cl). */
static int origin_of(const Stencil5 *s) {
  return s->ghost * (hcl_field_pitch(s->centre) + 1);
}

/* Kernel k with the stencil and vectors (x first) as its arguments, while x's ghosts travel (vec.h). */
static HclStatus launch(Stencil5 *s, int k, Vec *const *vectors, int nvectors) {
  const DecompLocal *l = hcl_decomp_local(s->decomp);
  KernelArgs a = hcl_kernel_args(s->kernels[k]);
  hcl_arg_mem(&a, hcl_field_buffer(s->centre));
  hcl_arg_mem(&a, hcl_field_buffer(s->east));
  hcl_arg_mem(&a, hcl_field_buffer(s->north));
  for (int v = 0; v < nvectors; v++) {
    hcl_arg_mem(&a, hcl_vec_buffer(vectors[v]));
  }
  hcl_arg_int(&a, l->nx);
  hcl_arg_int(&a, l->ny);
  hcl_arg_int(&a, hcl_field_pitch(s->centre));
  hcl_arg_int(&a, origin_of(s));
  BoxKernel launch = {s->rt, a, WG_X, WG_Y, (3.0 + nvectors) * hcl_precision_bytes(s->precision)};
  return hcl_vec_ghosts_behind(vectors[0], 1, hcl_halo_launch_box, &launch);
}

static HclStatus apply(void *ctx, Vec *x, Vec *y) {
  HclStatus status = HCL_OK;
  TRY(launch(ctx, K_APPLY, (Vec *[]){x, y}, 2));
  hcl_vec_touch(y);
cleanup:
  return status;
}

static HclStatus residual(void *ctx, Vec *b, Vec *x, Vec *r) {
  HclStatus status = HCL_OK;
  ASSERT(b != NULL);
  TRY(launch(ctx, K_RESIDUAL, (Vec *[]){x, b, r}, 3));
  hcl_vec_touch(r);
cleanup:
  return status;
}

static HclStatus diagonal(void *ctx, Vec *d) {
  Stencil5 *s = ctx;
  return hcl_vec_copy(d, s->matrix_vecs[0]);
}

static const OperatorOps OPS = {.name = "the 5-point stencil",
                                .setup = setup,
                                .apply = apply,
                                .residual = residual,
                                .diagonal = diagonal,
                                .destroy = destroy};

static HclStatus make_field(Stencil5 *s, const char *name, Field **f) {
  FieldSpec spec = {.name = name, .nz = 1, .ghost = s->ghost, .precision = s->precision};
  return hcl_field_create(s->rt, s->decomp, &spec, f);
}

HclStatus hcl_stencil5_create(Runtime *rt, const Decomp *decomp, Precision precision, Operator **out) {
  return hcl_stencil5_create_ghosted(rt, decomp, precision, 1, out);
}

HclStatus hcl_stencil5_create_ghosted(Runtime *rt, const Decomp *decomp, Precision precision, int ghost,
                                      Operator **out) {
  HclStatus status = HCL_OK;
  Stencil5 *s = NULL;
  *out = NULL;
  TRY_ALLOC(s, 1);
  s->rt = rt;
  s->decomp = decomp;
  s->precision = precision;
  s->ghost = ghost;
  FieldSpec spec = {.nz = 1, .ghost = ghost, .precision = precision};
  TRY(hcl_vspace_create_fields(rt, decomp, &spec, &s->space));
  TRY(make_field(s, "centre", &s->centre));
  TRY(make_field(s, "east", &s->east));
  TRY(make_field(s, "north", &s->north));
  Field *matrix[] = {s->centre, s->east, s->north};
  for (int f = 0; f < 3; f++) {
    TRY(hcl_vec_wrap_field(s->space, matrix[f], &s->matrix_vecs[f]));
  }
  TRY(hcl_halo_create(matrix, 3, &s->matrix_halo));
  KernelConfig config = {.precision = precision, .stencil_radius = 1, .wg_x = WG_X, .wg_y = WG_Y};
  TRY(hcl_program_build_kernels(rt, "stencil5", &config, kernel_names, NKERNELS, &s->program, s->kernels));
  Stencil5 *owned = s; /* hcl_operator_create takes it, also when it fails */
  s = NULL;
  TRY(hcl_operator_create(&OPS, owned, owned->space, true, out));
cleanup:
  destroy(s);
  return status;
}

/* The context of a 5-point operator, or NULL. */
static Stencil5 *stencil_of(Operator *op) {
  return hcl_operator_ops(op) == &OPS ? hcl_operator_context(op) : NULL;
}

HclStatus hcl_stencil5_fields(Operator *op, Field *fields[3]) {
  HclStatus status = HCL_OK;
  Stencil5 *s = stencil_of(op);
  REQUIRE(s != NULL, HCL_EDATA, "%s is not a 5-point stencil operator, whose coefficients this needs",
          hcl_operator_name(op));
  fields[0] = s->centre;
  fields[1] = s->east;
  fields[2] = s->north;
cleanup:
  return status;
}

Runtime *hcl_stencil5_runtime(Operator *op) {
  return stencil_of(op)->rt;
}

const Decomp *hcl_stencil5_decomp(Operator *op) {
  return stencil_of(op)->decomp;
}

HclStatus hcl_stencil5_black_jacobi(Operator *op, Vec *x, Vec *r) {
  Stencil5 *s = stencil_of(op);
  const DecompLocal *l = hcl_decomp_local(s->decomp);
  KernelArgs a = hcl_kernel_args(s->kernels[K_BLACK_JACOBI]);
  hcl_arg_mem(&a, hcl_vec_buffer(x));
  hcl_arg_mem(&a, hcl_vec_buffer(r));
  hcl_arg_mem(&a, hcl_field_buffer(s->centre));
  hcl_arg_int(&a, l->nx);
  hcl_arg_int(&a, l->ny);
  hcl_arg_int(&a, hcl_field_pitch(s->centre));
  hcl_arg_int(&a, origin_of(s));
  hcl_arg_int(&a, (l->x0 + l->y0) & 1);
  hcl_vec_touch(x);
  return hcl_kernel_launch(s->rt, &a, hcl_kernel_grid(s->rt, l->nx, l->ny, WG_X, WG_Y),
                           4.0 * l->nx * l->ny * hcl_precision_bytes(s->precision));
}

HclStatus hcl_stencil5_convert_matrix(Operator *to, Operator *from) {
  HclStatus status = HCL_OK;
  Stencil5 *t = stencil_of(to), *f = stencil_of(from);
  ASSERT(t && f && t->decomp == f->decomp);
  for (int k = 0; k < 3; k++) {
    TRY(hcl_vec_convert(t->matrix_vecs[k], f->matrix_vecs[k]));
  }
  TRY(hcl_operator_setup(to));
cleanup:
  return status;
}
