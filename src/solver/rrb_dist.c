/* SPDX-License-Identifier: BSD-3-Clause */
/* rrb_dist.c: the RRB preconditioner on several ranks (see rrb_dist.h; kernels dist_* in kernels_cl/rrb.cl). */
#include "rrb_dist.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "clerror.h"
#include "halo.h"
#include "kernel.h"
#include "par.h"
#include "program.h"
#include "rrb.h"

enum { WG_X = 32, WG_Y = 4, FACTOR_PLANES = 5 };

enum {
  K_COPY,
  K_SETUP_A,
  K_SETUP_B,
  K_FORWARD_RED,
  K_FORWARD_R2,
  K_BACKWARD_R1,
  K_BACKWARD_BLACK,
  K_PACK,
  K_UNPACK,
  NKERNELS
};
static const char *const kernel_names[NKERNELS] = {"dist_copy",           "dist_setup_a",    "dist_setup_b",
                                                   "dist_forward_red",    "dist_forward_r2", "dist_backward_r1",
                                                   "dist_backward_black", "dist_pack",       "dist_unpack"};

/* Level k's nodes i0 .. i0 + ni - 1 by j0 .. j0 + nj - 1 (global level indices) in a kernel's launch. */
typedef struct {
  int k, i0, j0, ni, nj;
} Nodes;

/* The coarse level: its whole grid on every rank, solved by the one-rank solver. */
typedef struct {
  int nx, ny;
  Nodes own;                /* this rank's nodes of it */
  Nodes seen;               /* the nodes of its block and ghost layers */
  int *recv_bytes, *displs; /* per rank, for MPI_Allgatherv: its nodes' bytes and where they land */
  size_t *place;            /* per rank's node, in gathered order: its place in the layout of the coarse solver */
  size_t *natural;          /* the same: its index in the coarse grid's natural order */
  unsigned char *packed, *gathered, *layout, *solution; /* host: own nodes, all, in layout order, natural order */
  cl_mem packed_dev, in_dev, z_dev, solution_dev, matrix_dev[3];
  Rrb *solver;
} Coarse;

struct RrbDist {
  Runtime *rt;
  const Decomp *decomp;
  Precision precision;
  int levels, ghost;
  Field *straight[3], *rotated[3], *factor[FACTOR_PLANES], *work;
  Halo *straight_halo, *rotated_halo, *factor_halo, *work_halo;
  Coarse coarse;
  int exchanges; /* ghost exchanges of the last application */
  cl_mem failed;
  cl_program program;
  cl_kernel kernels[NKERNELS];
};

static size_t real_bytes(const RrbDist *r) {
  return hcl_precision_bytes(r->precision);
}

/* ceil(a / b) for b > 0 and any a. */
static int ceil_div(int a, int b) {
  return a >= 0 ? (a + b - 1) / b : -((-a) / b);
}

/* The points of [lo, hi) of the first level that are nodes of a level with the given step: first, count. */
static void nodes_in(int lo, int hi, int step, int *first, int *count) {
  *first = ceil_div(lo, step);
  *count = ceil_div(hi, step) - *first;
}

/* The level-k nodes of an owned block x0 .. x0 + nx - 1 (by y), widened by `margin` points each side within the
 * global grid. */
static Nodes block_nodes(const RrbDist *r, int k, int x0, int y0, int nx, int ny, int margin) {
  const DecompSpec *g = hcl_decomp_spec(r->decomp);
  Nodes n = {.k = k};
  int lo_x = x0 - margin < 0 ? 0 : x0 - margin, hi_x = x0 + nx + margin > g->nx ? g->nx : x0 + nx + margin;
  int lo_y = y0 - margin < 0 ? 0 : y0 - margin, hi_y = y0 + ny + margin > g->ny ? g->ny : y0 + ny + margin;
  nodes_in(lo_x, hi_x, 1 << k, &n.i0, &n.ni);
  nodes_in(lo_y, hi_y, 1 << k, &n.j0, &n.nj);
  return n;
}

static Nodes own_nodes(const RrbDist *r, int k) {
  const DecompLocal *l = hcl_decomp_local(r->decomp);
  return block_nodes(r, k, l->x0, l->y0, l->nx, l->ny, 0);
}

/* Appends the LEVEL_ARGS of rrb.cl for nodes n: where level n.k keeps node (i, j) in the work fields, the level's
 * global grid, the nodes. */
static void arg_level(const RrbDist *r, KernelArgs *a, Nodes n) {
  const DecompSpec *g = hcl_decomp_spec(r->decomp);
  const DecompLocal *l = hcl_decomp_local(r->decomp);
  long pitch = hcl_field_pitch(r->work), step = 1L << n.k;
  hcl_arg_long(a, (long)r->ghost * pitch + r->ghost - (long)l->y0 * pitch - l->x0);
  hcl_arg_long(a, step * pitch);
  hcl_arg_int(a, (int)step);
  hcl_arg_int(a, ceil_div(g->nx, (int)step));
  hcl_arg_int(a, ceil_div(g->ny, (int)step));
  hcl_arg_int(a, n.i0);
  hcl_arg_int(a, n.j0);
  hcl_arg_int(a, n.ni);
  hcl_arg_int(a, n.nj);
}

static void arg_factor(const RrbDist *r, KernelArgs *a) {
  for (int f = 0; f < FACTOR_PLANES; f++) {
    hcl_arg_mem(a, hcl_field_buffer(r->factor[f]));
  }
}

/* A kernel over the nodes n (nothing when there are none). */
static HclStatus launch(RrbDist *r, KernelArgs *a, Nodes n, double values_per_node) {
  return hcl_kernel_launch(r->rt, a, hcl_kernel_grid(r->rt, n.ni, n.nj, WG_X, WG_Y),
                           values_per_node * n.ni * n.nj * real_bytes(r));
}

/* dst = src over the owned points (fields of this decomposition and precision, any ghost widths). */
static HclStatus copy_owned(RrbDist *r, Field *src, Field *dst) {
  const DecompLocal *l = hcl_decomp_local(r->decomp);
  KernelArgs a = hcl_kernel_args(r->kernels[K_COPY]);
  hcl_arg_mem(&a, hcl_field_buffer(src));
  hcl_arg_long(&a, (long)hcl_field_ghost(src) * hcl_field_pitch(src) + hcl_field_ghost(src));
  hcl_arg_int(&a, hcl_field_pitch(src));
  hcl_arg_mem(&a, hcl_field_buffer(dst));
  hcl_arg_long(&a, (long)hcl_field_ghost(dst) * hcl_field_pitch(dst) + hcl_field_ghost(dst));
  hcl_arg_int(&a, hcl_field_pitch(dst));
  hcl_arg_int(&a, l->nx);
  hcl_arg_int(&a, l->ny);
  return launch(r, &a, (Nodes){.ni = l->nx, .nj = l->ny}, 2);
}

/* ---- Creation */

static HclStatus make_field(RrbDist *r, const char *name, Field **f) {
  FieldSpec spec = {.name = name, .nz = 1, .ghost = r->ghost, .precision = r->precision};
  return hcl_field_create(r->rt, r->decomp, &spec, f);
}

/* K: levels are distributed while the remaining grid has more than coarse_nodes nodes, every block is at least
 * 2^K points wide in a split direction (the ghost width: two nodes of level K - 1, the reach of setup's steps), and
 * level K is one that the one-rank factorization would eliminate, not its exact one: more than exact_nodes nodes
 * and, with a chosen number of levels, at most levels - 2 (the coarse solver eliminates its first level). */
static int distributed_levels(const Decomp *decomp, RrbDepth depth, int coarse_nodes) {
  const DecompSpec *g = hcl_decomp_spec(decomp);
  int narrowest = INT_MAX;
  if (g->px > 1 || g->periodic_x) {
    narrowest = g->nx / g->px;
  }
  if ((g->py > 1 || g->periodic_y) && g->ny / g->py < narrowest) {
    narrowest = g->ny / g->py;
  }
  int k = 0;
  while ((double)ceil_div(g->nx, 1 << k) * ceil_div(g->ny, 1 << k) > coarse_nodes && k < 30 &&
         (double)ceil_div(g->nx, 2 << k) * ceil_div(g->ny, 2 << k) > depth.exact_nodes &&
         (depth.levels == 0 || k + 2 < depth.levels) && (narrowest == INT_MAX || (2L << k) <= narrowest)) {
    k++;
  }
  return k;
}

/* The coarse level's bookkeeping: every rank's nodes, their places, the host and device buffers, the solver. */
static HclStatus create_coarse(RrbDist *r, RrbDepth depth) {
  HclStatus status = HCL_OK;
  Coarse *c = &r->coarse;
  const DecompSpec *g = hcl_decomp_spec(r->decomp);
  int step = 1 << r->levels, ranks = hcl_par_size();
  c->nx = ceil_div(g->nx, step);
  c->ny = ceil_div(g->ny, step);
  c->own = own_nodes(r, r->levels);
  const DecompLocal *l = hcl_decomp_local(r->decomp);
  c->seen = block_nodes(r, r->levels, l->x0, l->y0, l->nx, l->ny, r->ghost);
  size_t count = (size_t)c->nx * c->ny, bytes = real_bytes(r);
  REQUIRE(count * bytes < INT_MAX, HCL_EDATA, "the RRB coarse level of %d x %d nodes is too large to gather", c->nx,
          c->ny);
  RrbDepth rest = {.levels = depth.levels > 0 ? depth.levels - r->levels : 0, .exact_nodes = depth.exact_nodes};
  TRY(hcl_rrb_create(r->rt, c->nx, c->ny, r->precision, rest, &c->solver));
  TRY_ALLOC(c->recv_bytes, ranks);
  TRY_ALLOC(c->displs, ranks);
  TRY_ALLOC(c->place, count);
  TRY_ALLOC(c->natural, count);
  size_t at = 0;
  for (int q = 0; q < ranks; q++) {
    int x0, y0, nx, ny;
    hcl_decomp_block_of(r->decomp, q, &x0, &y0, &nx, &ny);
    Nodes n = block_nodes(r, r->levels, x0, y0, nx, ny, 0);
    c->displs[q] = (int)(at * bytes);
    for (int j = n.j0; j < n.j0 + n.nj; j++) {
      for (int i = n.i0; i < n.i0 + n.ni; i++, at++) {
        c->place[at] = hcl_rrb_layout_index(hcl_rrb_vector_layout(c->solver), i, j);
        c->natural[at] = (size_t)j * c->nx + i;
      }
    }
    c->recv_bytes[q] = (int)(at * bytes) - c->displs[q];
  }
  ASSERT(at == count);
  TRY_ALLOC(c->packed, (size_t)c->own.ni * c->own.nj * bytes + 1);
  TRY_ALLOC(c->gathered, count * bytes);
  TRY_ALLOC(c->layout, count * bytes);
  TRY_ALLOC(c->solution, count * bytes);
  TRY(hcl_runtime_buffer(r->rt, (size_t)c->own.ni * c->own.nj * bytes + bytes, "RRB coarse block", &c->packed_dev));
  TRY(hcl_runtime_buffer(r->rt, count * bytes, "RRB coarse right-hand side", &c->in_dev));
  TRY(hcl_runtime_buffer(r->rt, count * bytes, "RRB coarse solution", &c->z_dev));
  TRY(hcl_runtime_buffer(r->rt, count * bytes, "RRB coarse solution, natural order", &c->solution_dev));
  for (int f = 0; f < 3; f++) {
    TRY(hcl_runtime_buffer(r->rt, count * bytes, "RRB coarse matrix", &c->matrix_dev[f]));
  }
cleanup:
  return status;
}

static void destroy_coarse(Coarse *c) {
  cl_mem buffers[] = {c->packed_dev,    c->in_dev,        c->z_dev,        c->solution_dev,
                      c->matrix_dev[0], c->matrix_dev[1], c->matrix_dev[2]};
  for (size_t b = 0; b < sizeof buffers / sizeof buffers[0]; b++) {
    if (buffers[b]) {
      clReleaseMemObject(buffers[b]);
    }
  }
  hcl_rrb_destroy(&c->solver);
  free(c->recv_bytes);
  free(c->displs);
  free(c->place);
  free(c->natural);
  free(c->packed);
  free(c->gathered);
  free(c->layout);
  free(c->solution);
}

/* The fields and their halos; every rank returns the same status (hcl_field_create, hcl_halo_create agree). */
static HclStatus create_fields(RrbDist *r) {
  HclStatus status = HCL_OK;
  static const char *const straight[3] = {"RRB straight centre", "RRB straight east", "RRB straight north"};
  static const char *const rotated[3] = {"RRB rotated centre", "RRB rotated ne", "RRB rotated nw"};
  for (int f = 0; f < 3; f++) {
    TRY(make_field(r, straight[f], &r->straight[f]));
    TRY(make_field(r, rotated[f], &r->rotated[f]));
  }
  for (int f = 0; f < FACTOR_PLANES; f++) {
    TRY(make_field(r, "RRB factor", &r->factor[f]));
  }
  TRY(make_field(r, "RRB work", &r->work));
  TRY(hcl_halo_create(r->straight, 3, &r->straight_halo));
  TRY(hcl_halo_create(r->rotated, 3, &r->rotated_halo));
  TRY(hcl_halo_create(r->factor, FACTOR_PLANES, &r->factor_halo));
  TRY(hcl_halo_create(&r->work, 1, &r->work_halo));
cleanup:
  return status;
}

HclStatus rrb_dist_create(Runtime *rt, const Decomp *decomp, Precision precision, RrbDepth depth, int coarse_nodes,
                          RrbDist **out) {
  HclStatus status = HCL_OK;
  RrbDist *r = NULL;
  int eliminated;
  *out = NULL;
  depth = hcl_rrb_depth_on(rt, precision, depth);
  depth.exact_nodes = -depth.exact_nodes; /* every rank the same: the smallest fit of their devices */
  TRY(hcl_par_max_int(&depth.exact_nodes));
  depth.exact_nodes = -depth.exact_nodes;
  TRY(hcl_rrb_depth_levels(hcl_decomp_spec(decomp)->nx, hcl_decomp_spec(decomp)->ny, depth, &eliminated));
  TRY_ALLOC(r, 1);
  r->rt = rt;
  r->decomp = decomp;
  r->precision = precision;
  r->levels = distributed_levels(decomp, depth, coarse_nodes > 0 ? coarse_nodes : 1);
  r->ghost = 1 << r->levels;
  TRY(create_fields(r));
  TRY(hcl_par_agree(create_coarse(r, depth)));
  TRY(hcl_par_agree(hcl_runtime_buffer(rt, sizeof(cl_int), "RRB pivot check", &r->failed)));
  KernelConfig config = {.precision = precision, .wg_x = WG_X, .wg_y = WG_Y};
  TRY(hcl_par_agree(hcl_program_build_kernels(rt, "rrb", &config, kernel_names, NKERNELS, &r->program, r->kernels)));
  *out = r;
  r = NULL;
cleanup:
  rrb_dist_destroy(&r);
  return status;
}

void rrb_dist_destroy(RrbDist **rrb) {
  if (!rrb || !*rrb) {
    return;
  }
  RrbDist *r = *rrb;
  hcl_program_release(&r->program, r->kernels, NKERNELS);
  if (r->failed) {
    clReleaseMemObject(r->failed);
  }
  destroy_coarse(&r->coarse);
  Halo **halos[] = {&r->straight_halo, &r->rotated_halo, &r->factor_halo, &r->work_halo};
  for (size_t h = 0; h < sizeof halos / sizeof halos[0]; h++) {
    hcl_halo_destroy(halos[h]);
  }
  for (int f = 0; f < 3; f++) {
    hcl_field_destroy(&r->straight[f]);
    hcl_field_destroy(&r->rotated[f]);
  }
  for (int f = 0; f < FACTOR_PLANES; f++) {
    hcl_field_destroy(&r->factor[f]);
  }
  hcl_field_destroy(&r->work);
  free(r);
  *rrb = NULL;
}

int rrb_dist_levels(const RrbDist *rrb) {
  return rrb->levels;
}

int rrb_dist_exchanges(const RrbDist *rrb) {
  return rrb->exchanges;
}

/* ---- The coarse level */

/* Every rank's level-K values of field f into c->gathered (every rank's nodes, in rank order). Collective. */
static HclStatus gather_coarse(RrbDist *r, Field *f) {
  HclStatus status = HCL_OK;
  Coarse *c = &r->coarse;
  size_t own_bytes = (size_t)c->own.ni * c->own.nj * real_bytes(r);
  KernelArgs a = hcl_kernel_args(r->kernels[K_PACK]);
  hcl_arg_mem(&a, hcl_field_buffer(f));
  hcl_arg_mem(&a, c->packed_dev);
  arg_level(r, &a, c->own);
  TRY(launch(r, &a, c->own, 2));
  if (own_bytes > 0) {
    TRY(hcl_runtime_read(r->rt, c->packed_dev, 0, own_bytes, c->packed));
  }
  TRY(hcl_par_allgatherv(hcl_decomp_comm(r->decomp), c->packed, (int)own_bytes, c->gathered, c->recv_bytes, c->displs));
cleanup:
  return status;
}

/* c->gathered rearranged by index[] (the layout's places or natural order) into dst. */
static void rearrange(const RrbDist *r, const size_t *index, unsigned char *dst) {
  const Coarse *c = &r->coarse;
  size_t bytes = real_bytes(r), count = (size_t)c->nx * c->ny;
  for (size_t n = 0; n < count; n++) {
    memcpy(dst + index[n] * bytes, c->gathered + n * bytes, bytes);
  }
}

/* The coarse level's matrix from every rank's level-K stencil, factorized on every rank. */
static HclStatus setup_coarse(RrbDist *r) {
  HclStatus status = HCL_OK;
  Coarse *c = &r->coarse;
  size_t bytes = (size_t)c->nx * c->ny * real_bytes(r);
  RrbMatrix matrix = {.base = 0, .pitch = c->nx};
  for (int f = 0; f < 3; f++) {
    TRY(gather_coarse(r, r->straight[f]));
    rearrange(r, c->natural, c->solution);
    TRY_CL(clEnqueueWriteBuffer(hcl_runtime_queue(r->rt), c->matrix_dev[f], CL_TRUE, 0, bytes, c->solution, 0, NULL,
                                NULL));
    matrix.coefficients[f] = c->matrix_dev[f];
  }
  TRY(hcl_rrb_setup_matrix(c->solver, &matrix));
cleanup:
  return status;
}

/* The coarse level of the work field solved exactly as the one-rank solver does, its values put back at the
 * nodes of this block and its ghost layers. */
static HclStatus solve_coarse(RrbDist *r) {
  HclStatus status = HCL_OK;
  Coarse *c = &r->coarse;
  cl_command_queue queue = hcl_runtime_queue(r->rt);
  size_t count = (size_t)c->nx * c->ny, bytes = count * real_bytes(r);
  TRY(gather_coarse(r, r->work));
  rearrange(r, c->place, c->layout);
  TRY_CL(clEnqueueWriteBuffer(queue, c->in_dev, CL_FALSE, 0, bytes, c->layout, 0, NULL, NULL));
  TRY(hcl_rrb_apply_full(c->solver, c->in_dev, c->z_dev));
  TRY(hcl_runtime_read(r->rt, c->z_dev, 0, bytes, c->layout));
  size_t size = real_bytes(r);
  for (size_t n = 0; n < count; n++) {
    memcpy(c->solution + c->natural[n] * size, c->layout + c->place[n] * size, size);
  }
  TRY_CL(clEnqueueWriteBuffer(queue, c->solution_dev, CL_FALSE, 0, bytes, c->solution, 0, NULL, NULL));
  KernelArgs a = hcl_kernel_args(r->kernels[K_UNPACK]);
  hcl_arg_mem(&a, hcl_field_buffer(r->work));
  hcl_arg_mem(&a, c->solution_dev);
  arg_level(r, &a, c->seen);
  TRY(launch(r, &a, c->seen, 2));
  /* The host buffers are reused by the next application: the non-blocking writes must have read them. */
  TRY(hcl_runtime_finish(r->rt));
cleanup:
  return status;
}

/* ---- Setup and application */

/* A setup step of level k (K_SETUP_A: straight -> rotated and the black nodes' factor; K_SETUP_B: rotated ->
 * straight of level k + 1 and the r1 nodes' factor) over this rank's nodes. */
static HclStatus setup_step(RrbDist *r, int kernel, int k) {
  Field **from = kernel == K_SETUP_A ? r->straight : r->rotated, **to = kernel == K_SETUP_A ? r->rotated : r->straight;
  KernelArgs a = hcl_kernel_args(r->kernels[kernel]);
  for (int f = 0; f < 3; f++) {
    hcl_arg_mem(&a, hcl_field_buffer(from[f]));
  }
  for (int f = 0; f < 3; f++) {
    hcl_arg_mem(&a, hcl_field_buffer(to[f]));
  }
  arg_factor(r, &a);
  Nodes n = own_nodes(r, k);
  arg_level(r, &a, n);
  hcl_arg_int(&a, k);
  hcl_arg_mem(&a, r->failed);
  return launch(r, &a, n, 3 * 9 + 3 + 2.5);
}

/* The first level that met a pivot that is not positive on any rank, INT_MAX when none. Collective. */
static HclStatus first_failed_level(RrbDist *r, int *level) {
  HclStatus status = HCL_OK;
  cl_int failed = INT_MAX;
  TRY(hcl_runtime_read(r->rt, r->failed, 0, sizeof failed, &failed));
  double lowest = -(double)failed;
  TRY(hcl_par_max_double(&lowest));
  *level = (int)-lowest;
cleanup:
  return status;
}

HclStatus rrb_dist_setup(RrbDist *r, Field *centre, Field *east, Field *north) {
  HclStatus status = HCL_OK;
  Field *matrix[3] = {centre, east, north};
  cl_int none = INT_MAX;
  int failed = INT_MAX;
  TRY_CL(clEnqueueWriteBuffer(hcl_runtime_queue(r->rt), r->failed, CL_FALSE, 0, sizeof none, &none, 0, NULL, NULL));
  for (int f = 0; f < 3; f++) {
    TRY(copy_owned(r, matrix[f], r->straight[f]));
  }
  for (int k = 0; k < r->levels; k++) {
    TRY(hcl_halo_exchange(r->straight_halo));
    TRY(setup_step(r, K_SETUP_A, k));
    TRY(hcl_halo_exchange(r->rotated_halo));
    TRY(setup_step(r, K_SETUP_B, k));
  }
  TRY(hcl_halo_exchange(r->factor_halo));
  TRY(first_failed_level(r, &failed));
  REQUIRE(failed == INT_MAX, HCL_EDATA,
          "the RRB factorization met a pivot that is not positive on level %d: the matrix is not symmetric positive "
          "definite%s",
          failed + 1, failed == 0 ? "" : " (or not diagonally dominant enough for the lumped factorization)");
  TRY(setup_coarse(r));
cleanup:
  return status;
}

/* One substitution stage on the work field over the nodes n (none: nothing). */
static HclStatus stage_nodes(RrbDist *r, int kernel, Nodes n) {
  if (n.ni <= 0 || n.nj <= 0) {
    return HCL_OK;
  }
  KernelArgs a = hcl_kernel_args(r->kernels[kernel]);
  hcl_arg_mem(&a, hcl_field_buffer(r->work));
  arg_factor(r, &a);
  arg_level(r, &a, n);
  return launch(r, &a, n, 2 + 5 * 2.5);
}

/* One substitution stage of level k over this rank's nodes, widened by `margin` points. */
static HclStatus stage(RrbDist *r, int kernel, int k, int margin) {
  const DecompLocal *l = hcl_decomp_local(r->decomp);
  return stage_nodes(r, kernel, block_nodes(r, k, l->x0, l->y0, l->nx, l->ny, margin));
}

/* The ghost exchange before a group of levels, travelling while its first stage (level k, `margin` points wide)
 * updates the nodes whose neighbours, one step away, are this rank's (hcl_halo_parts with reach 2^k), then the rest of
 * its nodes: the frame around them, in four boxes. Each node's update reads nodes of the other class only, so the
 * split changes no bit. */
static HclStatus exchange_behind_stage(RrbDist *r, int kernel, int k, int margin) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = hcl_decomp_local(r->decomp);
  CellBox parts[HALO_PARTS_MOST];
  hcl_halo_parts(r->work_halo, 1 << k, 0, parts);
  Nodes all = block_nodes(r, k, l->x0, l->y0, l->nx, l->ny, margin);
  Nodes in = block_nodes(r, k, l->x0 + parts[0].x0, l->y0 + parts[0].y0, parts[0].nx, parts[0].ny, 0);
  if (parts[0].nx == 0 || parts[0].ny == 0 || in.ni <= 0 || in.nj <= 0) {
    TRY(hcl_halo_exchange(r->work_halo));
    TRY(stage_nodes(r, kernel, all));
    goto cleanup;
  }
  TRY(hcl_halo_begin(r->work_halo));
  TRY(stage_nodes(r, kernel, in));
  TRY(hcl_halo_end(r->work_halo));
  const Nodes frame[4] = {{k, all.i0, all.j0, all.ni, in.j0 - all.j0}, /* south, corners included */
                          {k, all.i0, in.j0 + in.nj, all.ni, all.j0 + all.nj - in.j0 - in.nj}, /* north */
                          {k, all.i0, in.j0, in.i0 - all.i0, in.nj},                           /* west */
                          {k, in.i0 + in.ni, in.j0, all.i0 + all.ni - in.i0 - in.ni, in.nj}};  /* east */
  for (int b = 0; b < 4; b++) {
    TRY(stage_nodes(r, kernel, frame[b]));
  }
cleanup:
  if (status != HCL_OK) {
    hcl_halo_cancel(r->work_halo);
  }
  return status;
}

/* Communication-avoiding substitutions: after one ghost exchange a rank runs several levels, each also on the nodes
 * of the ghost layers it can still compute from what it holds, so the next level needs no exchange. The margins (in
 * fine points, s = 2^l the level's step) follow from what each stage reads: a level's first stage reads
 * neighbours one step away, its second stage the first stage's results one step away, and the next level's nodes are
 * a subset of this level's. Forward, from the group's last level down: its r2 stage on the block (margin 0) and
 * its red stage one step further; a lower level's r2 stage as far as the next level's red stage reads, its red stage
 * one step further. Backward, from the group's first (finest) level up: its black stage on the block and its r1
 * stage one step further; a coarser level's black stage as far as the finer level's r1 stage reads. A group is as
 * many levels as keep every read within the ghost width 2^K. A node computed in a ghost layer gets the bits its
 * owner computes (the same kernel on the same values), so the result is the level-by-level one. */
static int forward_margins(int first, int end, int red[], int r2[]) {
  int reach = 0;
  for (int l = end - 1; l >= first; l--) {
    r2[l] = l == end - 1 ? 0 : red[l + 1] + (1 << (l + 1));
    red[l] = r2[l] + (1 << l);
    reach = red[l] + (1 << l);
  }
  return reach; /* of the first level's reads, into the exchanged ghosts */
}

static int backward_margins(int bottom, int top, int black[], int r1[]) {
  int reach = 0;
  for (int l = bottom; l <= top; l++) {
    black[l] = l == bottom ? 0 : r1[l - 1] + (1 << (l - 1));
    r1[l] = black[l] + (1 << l);
    reach = r1[l] + (1 << l);
  }
  return reach; /* of the coarsest level's reads, into the exchanged ghosts */
}

/* Forward: levels in groups of as many as the ghost width allows, one exchange before each group. */
static HclStatus forward(RrbDist *r, int *exchanges) {
  HclStatus status = HCL_OK;
  int red[RRB_MAX_LEVELS], r2[RRB_MAX_LEVELS];
  for (int first = 0, end; first < r->levels; first = end) {
    end = first + 1;
    while (end < r->levels && forward_margins(first, end + 1, red, r2) <= r->ghost) {
      end++;
    }
    ASSERT(forward_margins(first, end, red, r2) <= r->ghost);
    TRY(exchange_behind_stage(r, K_FORWARD_RED, first, red[first]));
    (*exchanges)++;
    for (int k = first; k < end; k++) {
      if (k > first) {
        TRY(stage(r, K_FORWARD_RED, k, red[k]));
      }
      TRY(stage(r, K_FORWARD_R2, k, r2[k]));
    }
  }
cleanup:
  return status;
}

/* Backward: from the last distributed level up to the first, in groups as forward's. */
static HclStatus backward(RrbDist *r, int *exchanges) {
  HclStatus status = HCL_OK;
  int black[RRB_MAX_LEVELS], r1[RRB_MAX_LEVELS];
  for (int top = r->levels - 1, bottom; top >= 0; top = bottom - 1) {
    bottom = top;
    while (bottom > 0 && backward_margins(bottom - 1, top, black, r1) <= r->ghost) {
      bottom--;
    }
    ASSERT(backward_margins(bottom, top, black, r1) <= r->ghost);
    TRY(exchange_behind_stage(r, K_BACKWARD_R1, top, r1[top]));
    (*exchanges)++;
    for (int k = top; k >= bottom; k--) {
      if (k < top) {
        TRY(stage(r, K_BACKWARD_R1, k, r1[k]));
      }
      TRY(stage(r, K_BACKWARD_BLACK, k, black[k]));
    }
  }
cleanup:
  return status;
}

HclStatus rrb_dist_apply(RrbDist *r, Field *res, Field *z) {
  HclStatus status = HCL_OK;
  int exchanges = 0;
  TRY(copy_owned(r, res, r->work));
  TRY(forward(r, &exchanges));
  TRY(solve_coarse(r));
  TRY(backward(r, &exchanges));
  TRY(copy_owned(r, r->work, z));
  r->exchanges = exchanges;
cleanup:
  return status;
}
