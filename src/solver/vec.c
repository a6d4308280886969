/* SPDX-License-Identifier: BSD-3-Clause */
/* vec.c: the solvers' device vectors (see vec.h; kernels in kernels_cl/blas1.cl, reductions in reduce.h). */
#include "vec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clerror.h"
#include "kernel.h"
#include "program.h"

enum { WG_X = 32, WG_Y = 4, WG_RANGE = 256 };

/* The blas1.cl operations, each a _grid and a _range kernel. */
typedef enum { OP_SET, OP_SCALE, OP_AXPY, OP_AYPX, OP_AXPBY, OP_WAXPBY, OP_AXPY_PAIR, OP_DIVIDE, OPS } Op;
static const char *const op_names[OPS] = {"set", "scale", "axpy", "aypx", "axpby", "waxpby", "axpy_pair", "divide"};
/* Vectors each operation reads or writes (for the bytes it moves: each read once, each written once more). */
static const int op_reads[OPS] = {0, 1, 2, 2, 2, 2, 4, 2};
static const int op_writes[OPS] = {1, 1, 1, 1, 1, 1, 2, 1};
enum { CONVERT_COPY, CONVERT_AXPY, CONVERTS };
static const char *const convert_names[CONVERTS] = {"convert_copy", "convert_axpy"};

struct VecSpace {
  Runtime *rt;
  const Decomp *decomp;
  bool range;
  FieldSpec spec; /* fields: the shape (name unused) */
  size_t count;   /* ranges: the buffers' length in values */
  size_t first, end;
  Precision precision;
  double global_count;
  Reducer *reducer;
  cl_program program;
  cl_kernel kernels[OPS];
  cl_program convert_program[2]; /* by the precision of x; built on first use */
  cl_kernel convert_kernels[2][CONVERTS];
  VecGhostFill ghost_fill;
  void *ghost_ctx;
  int ghost_fill_sides;
};

struct Vec {
  VecSpace *space;
  Field *field; /* field vectors */
  bool owns_field;
  Halo *halo; /* made at the first hcl_vec_ghosts */
  bool ghosts_current;
  cl_mem buffer; /* range vectors */
  bool owns_buffer;
};

static HclStatus build(VecSpace *s) {
  HclStatus status = HCL_OK;
  char names[OPS][32];
  const char *pointers[OPS];
  for (int op = 0; op < OPS; op++) {
    snprintf(names[op], sizeof names[op], "%s_%s", op_names[op], s->range ? "range" : "grid");
    pointers[op] = names[op];
  }
  KernelConfig config = {.precision = s->precision, .wg_x = WG_X, .wg_y = WG_Y};
  TRY(hcl_program_build_kernels(s->rt, "blas1", &config, pointers, OPS, &s->program, s->kernels));
cleanup:
  return status;
}

static HclStatus create_space(Runtime *rt, const Decomp *decomp, Precision precision, VecSpace **out) {
  HclStatus status = HCL_OK;
  VecSpace *s = NULL;
  TRY_ALLOC(s, 1);
  s->rt = rt;
  s->decomp = decomp;
  s->precision = precision;
  TRY(hcl_reducer_create(rt, decomp, &s->reducer));
  *out = s;
  s = NULL;
cleanup:
  hcl_vspace_destroy(&s);
  return status;
}

HclStatus hcl_vspace_create_fields(Runtime *rt, const Decomp *decomp, const FieldSpec *spec, VecSpace **out) {
  HclStatus status = HCL_OK;
  VecSpace *s = NULL;
  *out = NULL;
  TRY(create_space(rt, decomp, spec->precision, &s));
  s->spec = *spec;
  s->spec.name = NULL;
  const DecompSpec *g = hcl_decomp_spec(decomp);
  s->global_count = (double)g->nx * g->ny * spec->nz;
  TRY(build(s));
  *out = s;
  s = NULL;
cleanup:
  hcl_vspace_destroy(&s);
  return status;
}

HclStatus hcl_vspace_create_range(Runtime *rt, const Decomp *decomp, Precision precision, size_t count, size_t first,
                                  size_t end, VecSpace **out) {
  HclStatus status = HCL_OK;
  VecSpace *s = NULL;
  *out = NULL;
  ASSERT(first <= end && end <= count && end <= UINT32_MAX);
  TRY(create_space(rt, decomp, precision, &s));
  s->range = true;
  s->count = count;
  s->first = first;
  s->end = end;
  s->global_count = (double)(end - first);
  TRY(build(s));
  *out = s;
  s = NULL;
cleanup:
  hcl_vspace_destroy(&s);
  return status;
}

void hcl_vspace_destroy(VecSpace **space) {
  if (!space || !*space) {
    return;
  }
  VecSpace *s = *space;
  hcl_program_release(&s->program, s->kernels, OPS);
  for (int p = 0; p < 2; p++) {
    hcl_program_release(&s->convert_program[p], s->convert_kernels[p], CONVERTS);
  }
  hcl_reducer_destroy(&s->reducer);
  free(s);
  *space = NULL;
}

void hcl_vspace_set_ghost_fill(VecSpace *space, VecGhostFill fill, void *ctx, int sides) {
  space->ghost_fill = fill;
  space->ghost_ctx = ctx;
  space->ghost_fill_sides = sides;
}

Precision hcl_vspace_precision(const VecSpace *space) {
  return space->precision;
}

bool hcl_vspace_is_range(const VecSpace *space) {
  return space->range;
}

double hcl_vspace_global_count(const VecSpace *space) {
  return space->global_count;
}

Reducer *hcl_vspace_reducer(VecSpace *space) {
  return space->reducer;
}

Runtime *hcl_vspace_runtime(const VecSpace *space) {
  return space->rt;
}

/* ---- vectors ---- */

HclStatus hcl_vec_create(VecSpace *space, const char *name, Vec **out) {
  HclStatus status = HCL_OK;
  Vec *v = NULL;
  *out = NULL;
  TRY_ALLOC(v, 1);
  v->space = space;
  if (space->range) {
    TRY(hcl_runtime_buffer(space->rt, space->count * hcl_precision_bytes(space->precision), name, &v->buffer));
    v->owns_buffer = true;
  } else {
    FieldSpec spec = space->spec;
    spec.name = name;
    TRY(hcl_field_create(space->rt, space->decomp, &spec, &v->field));
    v->owns_field = true;
  }
  *out = v;
  v = NULL;
cleanup:
  hcl_vec_destroy(&v);
  return status;
}

HclStatus hcl_vec_wrap_field(VecSpace *space, Field *field, Vec **out) {
  HclStatus status = HCL_OK;
  Vec *v = NULL;
  *out = NULL;
  REQUIRE(!space->range && hcl_field_decomp(field) == space->decomp && hcl_field_nz(field) == space->spec.nz &&
              hcl_field_ghost(field) == space->spec.ghost && hcl_field_precision(field) == space->precision,
          HCL_EINTERNAL,
          "field '%s' (%d planes, ghost %d, %s) is not of the vector space (%d planes, ghost %d, %s) (please report)",
          hcl_field_name(field), hcl_field_nz(field), hcl_field_ghost(field),
          hcl_precision_name(hcl_field_precision(field)), space->spec.nz, space->spec.ghost,
          hcl_precision_name(space->precision));
  TRY_ALLOC(v, 1);
  v->space = space;
  v->field = field;
  *out = v;
cleanup:
  return status;
}

HclStatus hcl_vec_wrap_buffer(VecSpace *space, cl_mem buffer, Vec **out) {
  HclStatus status = HCL_OK;
  Vec *v = NULL;
  *out = NULL;
  ASSERT(space->range);
  TRY_ALLOC(v, 1);
  v->space = space;
  v->buffer = buffer;
  *out = v;
cleanup:
  return status;
}

void hcl_vec_destroy(Vec **vec) {
  if (!vec || !*vec) {
    return;
  }
  Vec *v = *vec;
  hcl_halo_destroy(&v->halo);
  if (v->owns_field) {
    hcl_field_destroy(&v->field);
  }
  if (v->owns_buffer && v->buffer) {
    clReleaseMemObject(v->buffer);
  }
  free(v);
  *vec = NULL;
}

VecSpace *hcl_vec_space(const Vec *v) {
  return v->space;
}

Field *hcl_vec_field(const Vec *v) {
  return v->field;
}

cl_mem hcl_vec_buffer(const Vec *v) {
  return v->field ? hcl_field_buffer(v->field) : v->buffer;
}

Span hcl_vec_span(const Vec *v) {
  const VecSpace *s = v->space;
  return v->field ? hcl_field_span(v->field) : hcl_span_range(v->buffer, s->precision, s->first, s->end);
}

static HclStatus make_halo(Vec *v) {
  HclStatus status = HCL_OK;
  if (!v->halo) {
    TRY(hcl_halo_create(&v->field, 1, &v->halo));
  }
cleanup:
  return status;
}

/* After the halo exchange of vector vec: the space's fill, and the ghosts are current. */
static HclStatus fill_after_exchange(void *vec) {
  HclStatus status = HCL_OK;
  Vec *v = vec;
  if (v->space->ghost_fill) {
    TRY(v->space->ghost_fill(v->space->ghost_ctx, v->field));
  }
  v->ghosts_current = true;
cleanup:
  return status;
}

HclStatus hcl_vec_ghosts(Vec *v) {
  HclStatus status = HCL_OK;
  if (!v->field || v->ghosts_current) {
    goto cleanup;
  }
  TRY(make_halo(v));
  TRY(hcl_halo_exchange(v->halo));
  TRY(fill_after_exchange(v));
cleanup:
  return status;
}

HclStatus hcl_vec_ghosts_behind(Vec *v, int reach, CellBoxLaunch launch, void *context) {
  HclStatus status = HCL_OK;
  ASSERT(v->field);
  const DecompLocal *l = hcl_decomp_local(hcl_field_decomp(v->field));
  if (v->ghosts_current) {
    TRY(launch(context, (CellBox){0, 0, l->nx, l->ny}));
    goto cleanup;
  }
  TRY(make_halo(v));
  HaloOverlap how = {.reach = reach,
                     .late_sides = v->space->ghost_fill ? v->space->ghost_fill_sides : 0,
                     .then = fill_after_exchange,
                     .then_context = v};
  TRY(hcl_halo_overlap(v->halo, how, launch, context));
cleanup:
  return status;
}

void hcl_vec_touch(Vec *v) {
  v->ghosts_current = false;
}

/* ---- updates ---- */

/* Launches operation op on the space's places, vectors[0] written (and vectors[2] by axpy_pair), then the
 * scalars. */
static HclStatus launch(Op op, Vec *const *vectors, int nvectors, const double *scalars, int nscalars) {
  const VecSpace *s = vectors[0]->space;
  KernelArgs a = hcl_kernel_args(s->kernels[op]);
  for (int v = 0; v < nvectors; v++) {
    hcl_arg_mem(&a, hcl_vec_buffer(vectors[v]));
  }
  for (int c = 0; c < nscalars; c++) {
    hcl_arg_real(&a, s->precision, scalars[c]);
  }
  vectors[0]->ghosts_current = false;
  if (op == OP_AXPY_PAIR) {
    vectors[2]->ghosts_current = false;
  }
  Span span = hcl_vec_span(vectors[0]);
  double bytes = (double)(op_reads[op] + op_writes[op]) * (double)hcl_span_count(&span) *
                 (double)hcl_precision_bytes(s->precision);
  if (s->range) {
    hcl_arg_uint(&a, s->first);
    hcl_arg_uint(&a, s->end);
    return hcl_kernel_launch(s->rt, &a, hcl_kernel_range(s->rt, s->end - s->first, WG_RANGE), bytes);
  }
  hcl_arg_int(&a, (int)span.nx);
  hcl_arg_int(&a, (int)span.ny);
  hcl_arg_int(&a, (int)span.nz);
  hcl_arg_ulong(&a, span.base);
  hcl_arg_int(&a, (int)span.pitch);
  hcl_arg_ulong(&a, span.plane);
  return hcl_kernel_launch(s->rt, &a, hcl_kernel_grid(s->rt, (int)span.nx, (int)span.ny, WG_X, WG_Y), bytes);
}

/* Two vectors of one operation must share its space. */
static HclStatus check_space(Vec *const *vectors, int n) {
  HclStatus status = HCL_OK;
  for (int v = 1; v < n; v++) {
    ASSERT(vectors[v]->space == vectors[0]->space);
  }
cleanup:
  return status;
}

static HclStatus update(Op op, Vec *const *vectors, int nvectors, const double *scalars, int nscalars) {
  HclStatus status = HCL_OK;
  TRY(check_space(vectors, nvectors));
  TRY(launch(op, vectors, nvectors, scalars, nscalars));
cleanup:
  return status;
}

HclStatus hcl_vec_set(Vec *y, double value) {
  return update(OP_SET, (Vec *[]){y}, 1, (double[]){value}, 1);
}

HclStatus hcl_vec_copy(Vec *y, Vec *x) {
  HclStatus status = HCL_OK;
  const VecSpace *s = y->space;
  size_t bytes = hcl_precision_bytes(s->precision), offset = 0, length = 0;
  TRY(check_space((Vec *[]){y, x}, 2));
  if (y == x) {
    goto cleanup;
  }
  if (s->range) {
    offset = s->first * bytes;
    length = (s->end - s->first) * bytes;
  } else { /* the whole field, ghosts included: one copy, and y's ghosts are then as current as x's */
    length = hcl_field_count(y->field) * bytes;
  }
  if (length > 0) {
    TRY_CL(clEnqueueCopyBuffer(hcl_runtime_queue(s->rt), hcl_vec_buffer(x), hcl_vec_buffer(y), offset, offset, length,
                               0, NULL, NULL));
  }
  y->ghosts_current = x->ghosts_current;
cleanup:
  return status;
}

HclStatus hcl_vec_scale(Vec *y, double a) {
  return update(OP_SCALE, (Vec *[]){y}, 1, (double[]){a}, 1);
}

HclStatus hcl_vec_axpy(Vec *y, double a, Vec *x) {
  return update(OP_AXPY, (Vec *[]){y, x}, 2, (double[]){a}, 1);
}

HclStatus hcl_vec_aypx(Vec *y, double b, Vec *x) {
  return update(OP_AYPX, (Vec *[]){y, x}, 2, (double[]){b}, 1);
}

HclStatus hcl_vec_axpby(Vec *y, double a, Vec *x, double b) {
  return update(OP_AXPBY, (Vec *[]){y, x}, 2, (double[]){a, b}, 2);
}

HclStatus hcl_vec_waxpby(Vec *w, double a, Vec *x, double b, Vec *y) {
  return update(OP_WAXPBY, (Vec *[]){w, x, y}, 3, (double[]){a, b}, 2);
}

HclStatus hcl_vec_axpy_pair(Vec *y, double a, Vec *x, Vec *v, double b, Vec *u) {
  return update(OP_AXPY_PAIR, (Vec *[]){y, x, v, u}, 4, (double[]){a, b}, 2);
}

HclStatus hcl_vec_divide(Vec *z, Vec *x, Vec *y) {
  return update(OP_DIVIDE, (Vec *[]){z, x, y}, 3, NULL, 0);
}

/* The convert_ kernels of y's space for an x of precision p (XREAL), built on first use. */
static HclStatus convert_kernel(VecSpace *s, Precision p, int which, cl_kernel *kernel) {
  HclStatus status = HCL_OK;
  if (!s->convert_program[p]) {
    char defines[32];
    snprintf(defines, sizeof defines, "-DXREAL=%s", hcl_precision_name(p));
    KernelConfig config = {.precision = s->precision, .wg_x = WG_X, .wg_y = WG_Y, .defines = defines};
    HclStatus built = hcl_program_build_kernels(s->rt, "blas1", &config, convert_names, CONVERTS,
                                                &s->convert_program[p], s->convert_kernels[p]);
    if (built != HCL_OK) {
      hcl_program_release(&s->convert_program[p], s->convert_kernels[p], CONVERTS);
      TRY(built);
    }
  }
  *kernel = s->convert_kernels[p][which];
cleanup:
  return status;
}

static HclStatus convert(int which, Vec *y, Vec *x, const double *a) {
  HclStatus status = HCL_OK;
  VecSpace *s = y->space;
  cl_kernel kernel = NULL;
  ASSERT(y->field && x->field);
  Span ys = hcl_vec_span(y), xs = hcl_vec_span(x);
  ASSERT(ys.nx == xs.nx && ys.ny == xs.ny && ys.nz == xs.nz && hcl_field_decomp(x->field) == s->decomp);
  TRY(convert_kernel(s, xs.precision, which, &kernel));
  KernelArgs args = hcl_kernel_args(kernel);
  hcl_arg_mem(&args, ys.buffer);
  hcl_arg_mem(&args, xs.buffer);
  if (a) {
    hcl_arg_real(&args, s->precision, *a);
  }
  hcl_arg_int(&args, (int)ys.nx);
  hcl_arg_int(&args, (int)ys.ny);
  hcl_arg_int(&args, (int)ys.nz);
  hcl_arg_ulong(&args, ys.base);
  hcl_arg_int(&args, (int)ys.pitch);
  hcl_arg_ulong(&args, ys.plane);
  hcl_arg_ulong(&args, xs.base);
  hcl_arg_int(&args, (int)xs.pitch);
  hcl_arg_ulong(&args, xs.plane);
  y->ghosts_current = false;
  double bytes = (double)hcl_span_count(&ys) * ((a ? 2.0 : 1.0) * (double)hcl_precision_bytes(ys.precision) +
                                                (double)hcl_precision_bytes(xs.precision));
  TRY(hcl_kernel_launch(s->rt, &args, hcl_kernel_grid(s->rt, (int)ys.nx, (int)ys.ny, WG_X, WG_Y), bytes));
cleanup:
  return status;
}

HclStatus hcl_vec_convert(Vec *y, Vec *x) {
  return convert(CONVERT_COPY, y, x, NULL);
}

HclStatus hcl_vec_axpy_convert(Vec *y, double a, Vec *x) {
  return convert(CONVERT_AXPY, y, x, &a);
}

/* ---- reductions ---- */

HclStatus hcl_vec_dot(Vec *x, Vec *y, double *result) {
  HclStatus status = HCL_OK;
  TRY(check_space((Vec *[]){x, y}, 2));
  TRY(hcl_reduce_dot(x->space->reducer, hcl_vec_span(x), hcl_vec_span(y), result));
cleanup:
  return status;
}

HclStatus hcl_vec_dot2(Vec *a, Vec *b, Vec *c, double result[2]) {
  HclStatus status = HCL_OK;
  TRY(check_space((Vec *[]){a, b, c}, 3));
  TRY(hcl_reduce_dot2(a->space->reducer, hcl_vec_span(a), hcl_vec_span(b), hcl_vec_span(c), result));
cleanup:
  return status;
}

HclStatus hcl_vec_dot3_start(Vec *a, Vec *b, Vec *c) {
  HclStatus status = HCL_OK;
  TRY(check_space((Vec *[]){a, b, c}, 3));
  TRY(hcl_reduce_dot3_start(a->space->reducer, hcl_vec_span(a), hcl_vec_span(b), hcl_vec_span(c)));
cleanup:
  return status;
}

HclStatus hcl_vec_dot3_wait(VecSpace *space, double result[3]) {
  return hcl_reduce_dot3_wait(space->reducer, result);
}

HclStatus hcl_vec_norm(Vec *x, double *result) {
  HclStatus status = HCL_OK;
  double squares = 0;
  TRY(hcl_vec_dot(x, x, &squares));
  *result = sqrt(squares);
cleanup:
  return status;
}
