/* SPDX-License-Identifier: BSD-3-Clause */
/* rrb.c: the RRB factorization and preconditioner on the device (see rrb.h; kernels in kernels_cl/rrb.cl). */
#include "rrb.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "clerror.h"
#include "kernel.h"
#include "program.h"

/* Planes and table fields as kernels_cl/rrb.cl has them. */
enum { FACTOR_PLANES = 5, SCHUR_PLANES = 5, LT_FIELDS = 6, TERMS_BLACK = 1, TERMS_R1 = 2, TO_WORK = 4 };
/* Levels of at most COARSE_NODES nodes are applied by one work-group of up to COARSE_GROUP work-items in one
 * launch (apply_coarse, built for that size: its registers must allow it). */
enum { WG_X = 32, WG_Y = 4, COARSE_NODES = 4096, COARSE_GROUP = 1024 };
/* The exact level's widest band, as rrb.cl has it: 16 for 256 nodes. */
enum { EXACT_BAND_MAX = 16 };

enum {
  K_SETUP_A,
  K_SETUP_B,
  K_SETUP_EXACT,
  K_EXACT_PRODUCT,
  K_FORWARD_R1,
  K_FORWARD_R2,
  K_BACKWARD_R1,
  K_BACKWARD_BLACK,
  K_BACKWARD_FIRST,
  K_COARSE,
  K_SCHUR,
  NKERNELS
};
static const char *const kernel_names[NKERNELS] = {
    "setup_a",          "setup_b",          "setup_exact",       "exact_product",
    "forward_r1_level", "forward_r2_level", "backward_r1_level", "backward_black_level",
    "backward_first",   "apply_coarse",     "schur_apply"};

struct Rrb {
  Runtime *rt;
  Precision precision;
  RrbLayout layout;               /* the factor's recursive layout */
  RrbLayout vectors;              /* the callers' vectors: level 0's groups, then level 1's grid row-major (rrb.h) */
  int coarse_level;               /* the first level applied by apply_coarse */
  cl_mem table;                   /* the layout for the kernels: LT_FIELDS uints per level and the last level */
  cl_mem factor;                  /* FACTOR_PLANES planes of count REALs */
  cl_mem schur;                   /* SCHUR_PLANES planes, in the vector layout */
  cl_mem work;                    /* the preconditioner's vector from level 1 on, in the recursive layout */
  cl_mem straight[3], rotated[3]; /* setup scratch: a level's straight stencil (from level 1 on) and rotated one */
  cl_mem exact;                   /* the last level's inverse: m x m REALs, in the band order of rrb.cl's exact_order */
  cl_mem exact_factor;            /* setup scratch: Z = D^-1/2 L^-1 of the last level, m x m REALs */
  int exact_band;                 /* the last level's half-bandwidth in the band order */
  size_t group[NKERNELS];         /* the work-items of the one-work-group kernels (apply_coarse, setup_exact) */
  cl_mem failed;                  /* the first level with a pivot that is not positive, INT_MAX when none */
  double *level_seconds;          /* while hcl_rrb_apply_timed runs: its kernels' seconds per level, else NULL */
  cl_program program;
  cl_kernel kernels[NKERNELS];
};

static size_t real_bytes(const Rrb *r) {
  return hcl_precision_bytes(r->precision);
}

/* Local memory of an exact level of m nodes: setup_exact's band, m (EXACT_BAND_MAX + 1) REALs, and apply_coarse's
 * right-hand side and partial sums, m + max(group, m) REALs for its work-group of group; exact_local_bytes the
 * larger of the two. */
static size_t band_bytes(size_t m, size_t real) {
  return (size_t)(EXACT_BAND_MAX + 1) * m * real;
}
static size_t coarse_bytes(size_t m, size_t group, size_t real) {
  return (m + (group > m ? group : m)) * real;
}
static size_t exact_local_bytes(size_t m, size_t group, size_t real) {
  size_t band = band_bytes(m, real), coarse = coarse_bytes(m, group, real);
  return band > coarse ? band : coarse;
}
static size_t exact_nodes(const Rrb *r) {
  return (size_t)r->layout.final_nx * r->layout.final_ny;
}
static size_t exact_band_bytes(const Rrb *r) {
  return band_bytes(exact_nodes(r), real_bytes(r));
}
static size_t coarse_local_bytes(const Rrb *r) {
  return coarse_bytes(exact_nodes(r), r->group[K_COARSE], real_bytes(r));
}
/* apply_coarse's work-group: up to COARSE_GROUP work-items, as the device allows. */
static size_t coarse_group(const Runtime *rt) {
  size_t largest = hcl_runtime_device(rt)->max_work_group_size;
  return largest < COARSE_GROUP ? largest : COARSE_GROUP;
}

int hcl_rrb_exact_fit(const Runtime *rt, Precision precision) {
  int m = RRB_EXACT_MAX;
  while (m > 1 && exact_local_bytes((size_t)m, coarse_group(rt), hcl_precision_bytes(precision)) >
                      hcl_runtime_device(rt)->local_mem_bytes) {
    m--;
  }
  return m;
}

RrbDepth hcl_rrb_depth_on(const Runtime *rt, Precision precision, RrbDepth depth) {
  if (depth.exact_nodes == RRB_EXACT_AUTO) {
    depth.exact_nodes = hcl_rrb_exact_fit(rt, precision);
  }
  return depth;
}

/* setup_exact's work-group: up to COARSE_GROUP work-items, as many as it takes on this device (its registers may
 * allow fewer than the device's largest group). apply_coarse's is fixed when it is built. */
static HclStatus choose_setup_group(Rrb *r) {
  HclStatus status = HCL_OK;
  size_t most = 0;
  TRY(hcl_kernel_group_limit(r->rt, r->kernels[K_SETUP_EXACT], &most));
  r->group[K_SETUP_EXACT] = most < COARSE_GROUP ? most : COARSE_GROUP;
cleanup:
  return status;
}

/* The table of rrb.cl: per level the b1, b2, r1 offsets, the next level's offset, nx, ny; then the last level. */
static HclStatus upload_table(Rrb *r) {
  HclStatus status = HCL_OK;
  const RrbLayout *l = &r->layout;
  size_t n = (size_t)LT_FIELDS * (l->nlevels + 1);
  cl_uint *table = NULL;
  TRY_ALLOC(table, n);
  for (int k = 0; k < l->nlevels; k++) {
    const RrbLevelLayout *v = &l->levels[k];
    cl_uint *t = table + (size_t)LT_FIELDS * k;
    size_t next = k + 1 < l->nlevels ? l->levels[k + 1].offset[RRB_B1] : l->final_offset;
    t[0] = (cl_uint)v->offset[RRB_B1];
    t[1] = (cl_uint)v->offset[RRB_B2];
    t[2] = (cl_uint)v->offset[RRB_R1];
    t[3] = (cl_uint)next;
    t[4] = (cl_uint)v->nx;
    t[5] = (cl_uint)v->ny;
  }
  cl_uint *last = table + (size_t)LT_FIELDS * l->nlevels;
  last[0] = (cl_uint)l->final_offset;
  last[1] = last[2] = last[3] = (cl_uint)l->count;
  last[4] = (cl_uint)l->final_nx;
  last[5] = (cl_uint)l->final_ny;
  TRY(hcl_runtime_buffer(r->rt, n * sizeof *table, "RRB layout table", &r->table));
  TRY_CL(clEnqueueWriteBuffer(hcl_runtime_queue(r->rt), r->table, CL_TRUE, 0, n * sizeof *table, table, 0, NULL, NULL));
cleanup:
  free(table);
  return status;
}

/* Nodes of level e of an nx x ny grid: ceil(nx / 2^e) x ceil(ny / 2^e). */
static long level_nodes(int nx, int ny, int e) {
  long step = 1L << e;
  return ((nx + step - 1) / step) * ((ny + step - 1) / step);
}

HclStatus hcl_rrb_depth_levels(int nx, int ny, RrbDepth depth, int *eliminated) {
  HclStatus status = HCL_OK;
  REQUIRE(depth.levels == 0 || depth.levels >= 2, HCL_EDATA,
          "RRB levels %d: allowed are 2 or more (level 1 is eliminated for the Schur complement), or 0 for as many "
          "as the exact level's size asks",
          depth.levels);
  REQUIRE(depth.exact_nodes >= 0 && depth.exact_nodes <= RRB_EXACT_MAX, HCL_EDATA,
          "RRB exact level of %d nodes: allowed are 1 to %d, or 0 for the most the device holds", depth.exact_nodes,
          RRB_EXACT_MAX);
  if (depth.exact_nodes == RRB_EXACT_AUTO) {
    depth.exact_nodes = RRB_EXACT_MAX;
  }
  int e = 0;
  while (level_nodes(nx, ny, e) > 1 && (e == 0 || level_nodes(nx, ny, e) > depth.exact_nodes) &&
         (depth.levels == 0 || e + 1 < depth.levels)) {
    e++;
  }
  int fewest = e;
  while (level_nodes(nx, ny, fewest) > RRB_EXACT_MAX) {
    fewest++;
  }
  REQUIRE(fewest == e, HCL_EDATA,
          "RRB-%d on a %d x %d grid leaves a last level of %ld nodes, more than the %d that its exact factorization "
          "takes: ask for at least %d levels (or 0: as many as the exact level's size asks)",
          depth.levels, nx, ny, level_nodes(nx, ny, e), RRB_EXACT_MAX, fewest + 1);
  *eliminated = e;
cleanup:
  return status;
}

HclStatus hcl_rrb_create(Runtime *rt, int nx, int ny, Precision precision, RrbDepth depth, Rrb **out) {
  HclStatus status = HCL_OK;
  Rrb *r = NULL;
  int eliminated = 0;
  const bool chosen = depth.exact_nodes != RRB_EXACT_AUTO;
  *out = NULL;
  depth = hcl_rrb_depth_on(rt, precision, depth);
  TRY(hcl_rrb_depth_levels(nx, ny, depth, &eliminated));
  TRY_ALLOC(r, 1);
  r->rt = rt;
  r->precision = precision;
  TRY(hcl_rrb_layout_create(nx, ny, eliminated + 1, 1, &r->layout));
  TRY(hcl_rrb_layout_create(nx, ny, eliminated > 0 ? 2 : 1, 1, &r->vectors));
  REQUIRE(r->layout.count < UINT32_MAX, HCL_EDATA,
          "an RRB block of %d x %d points is beyond the solver's 2^32 places per rank: split the grid over more ranks",
          nx, ny);
  r->coarse_level = r->layout.nlevels;
  while (r->coarse_level > 1 &&
         (long)r->layout.levels[r->coarse_level - 1].nx * r->layout.levels[r->coarse_level - 1].ny <= COARSE_NODES) {
    r->coarse_level--;
  }
  size_t count = r->layout.count, bytes = real_bytes(r);
  size_t next = r->layout.nlevels > 0 ? (size_t)((nx + 1) / 2) * ((ny + 1) / 2) : 1;
  size_t exact = exact_nodes(r);
  r->exact_band = r->layout.final_nx < r->layout.final_ny ? r->layout.final_nx : r->layout.final_ny;
  ASSERT(r->exact_band <= EXACT_BAND_MAX); /* min(fx, fy)^2 <= RRB_EXACT_MAX */
  TRY(upload_table(r));
  TRY(hcl_runtime_buffer(rt, FACTOR_PLANES * count * bytes, "RRB factor", &r->factor));
  TRY(hcl_runtime_buffer(rt, exact * exact * bytes, "RRB exact level's inverse", &r->exact));
  TRY(hcl_runtime_buffer(rt, exact * exact * bytes, "RRB exact level's factor", &r->exact_factor));
  TRY(hcl_runtime_buffer(rt, SCHUR_PLANES * count * bytes, "RRB Schur complement", &r->schur));
  TRY(hcl_runtime_buffer(rt, count * bytes, "RRB preconditioner's work vector", &r->work));
  for (int a = 0; a < 3; a++) {
    TRY(hcl_runtime_buffer(rt, next * bytes, "RRB setup straight stencil", &r->straight[a]));
    TRY(hcl_runtime_buffer(rt, count * bytes, "RRB setup rotated stencil", &r->rotated[a]));
  }
  TRY(hcl_runtime_buffer(rt, sizeof(cl_int), "RRB pivot check", &r->failed));
  r->group[K_COARSE] = coarse_group(rt);
  char defines[64];
  snprintf(defines, sizeof defines, "-DCOARSE_GROUP=%zu", r->group[K_COARSE]);
  KernelConfig config = {.precision = precision, .wg_x = WG_X, .wg_y = WG_Y, .defines = defines};
  TRY(hcl_program_build_kernels(rt, "rrb", &config, kernel_names, NKERNELS, &r->program, r->kernels));
  TRY(choose_setup_group(r));
  size_t local_bytes = exact_local_bytes(exact, r->group[K_COARSE], bytes);
  REQUIRE(local_bytes <= hcl_runtime_device(rt)->local_mem_bytes, HCL_EDATA,
          "the RRB exact level of %d x %d nodes needs %zu bytes of local memory, more than the %llu of this device: "
          "%s",
          r->layout.final_nx, r->layout.final_ny, local_bytes,
          (unsigned long long)hcl_runtime_device(rt)->local_mem_bytes,
          chosen ? "choose a smaller exact level (rrb_exact, --rrb-exact), or 0 for the most this device holds"
                 : "this device cannot hold even one node's");
  *out = r;
  r = NULL;
cleanup:
  hcl_rrb_destroy(&r);
  return status;
}

void hcl_rrb_destroy(Rrb **rrb) {
  if (!rrb || !*rrb) {
    return;
  }
  Rrb *r = *rrb;
  hcl_program_release(&r->program, r->kernels, NKERNELS);
  cl_mem *buffers[] = {&r->table,      &r->factor,      &r->schur,       &r->exact,       &r->exact_factor,
                       &r->failed,     &r->straight[0], &r->straight[1], &r->straight[2], &r->rotated[0],
                       &r->rotated[1], &r->rotated[2],  &r->work};
  for (size_t b = 0; b < sizeof buffers / sizeof buffers[0]; b++) {
    if (*buffers[b]) {
      clReleaseMemObject(*buffers[b]);
    }
  }
  free(r);
  *rrb = NULL;
}

const RrbLayout *hcl_rrb_vector_layout(const Rrb *rrb) {
  return &rrb->vectors;
}

const RrbLayout *hcl_rrb_factor_layout(const Rrb *rrb) {
  return &rrb->layout;
}

size_t hcl_rrb_red_first(const Rrb *rrb) {
  return rrb->layout.nlevels > 0 ? rrb->layout.levels[0].offset[RRB_R1] : rrb->layout.final_offset;
}

/* The leading arguments of the kernels: table, levels, count. */
static KernelArgs begin(Rrb *r, int k) {
  KernelArgs a = hcl_kernel_args(r->kernels[k]);
  hcl_arg_mem(&a, r->table);
  hcl_arg_int(&a, r->layout.nlevels);
  hcl_arg_uint(&a, r->layout.count);
  return a;
}

/* Launches a over shape; bytes: its DRAM traffic, for the profile. While hcl_rrb_apply_timed runs, waits for it and adds
 * its time to level k's. */
static HclStatus launch(Rrb *r, const KernelArgs *a, KernelShape shape, double bytes, int k) {
  HclStatus status = HCL_OK;
  cl_event event = NULL;
  double seconds = 0;
  TRY(hcl_kernel_launch_timed(r->rt, a, shape, bytes, r->level_seconds ? &event : NULL));
  if (event) {
    TRY_CL(clWaitForEvents(1, &event));
    hcl_runtime_count_wait(r->rt);
    TRY(hcl_runtime_event_seconds(event, &seconds));
    r->level_seconds[k] += seconds;
  }
cleanup:
  if (event) {
    clReleaseEvent(event);
  }
  return status;
}

/* A 2D kernel of level k over nx x ny work-items (nothing when empty). */
static HclStatus launch_2d(Rrb *r, KernelArgs *a, int nx, int ny, double bytes, int k) {
  return launch(r, a, hcl_kernel_grid(r->rt, nx, ny, WG_X, WG_Y), bytes, k);
}

/* One work-group of kernel, a kernel of the last levels. */
static HclStatus launch_group(Rrb *r, KernelArgs *a, int kernel, int k) {
  return launch(r, a, hcl_kernel_groups(1, r->group[kernel]), 0, k);
}

static const RrbLevelLayout *level(const Rrb *r, int k) {
  return &r->layout.levels[k];
}

/* Step A of level k from its straight stencil (the matrix on level 0, the scratch after). */
static HclStatus setup_level_a(Rrb *r, int k, const RrbMatrix *matrix) {
  const RrbLevelLayout *l = level(r, k);
  KernelArgs a = hcl_kernel_args(r->kernels[K_SETUP_A]);
  for (int f = 0; f < 3; f++) {
    hcl_arg_mem(&a, k == 0 ? matrix->coefficients[f] : r->straight[f]);
  }
  hcl_arg_long(&a, k == 0 ? (long)matrix->base : 0);
  hcl_arg_int(&a, k == 0 ? matrix->pitch : l->nx);
  hcl_arg_int(&a, k);
  for (int f = 0; f < 3; f++) {
    hcl_arg_mem(&a, r->rotated[f]);
  }
  hcl_arg_mem(&a, r->schur);
  hcl_arg_int(&a, k == 0);
  hcl_arg_mem(&a, r->table);
  hcl_arg_int(&a, r->layout.nlevels);
  hcl_arg_uint(&a, r->layout.count);
  hcl_arg_mem(&a, r->factor);
  hcl_arg_mem(&a, r->failed);
  double bytes = (double)l->nx * l->ny * real_bytes(r) * (3 + 3 + (k == 0 ? 2.5 : 0));
  return launch_2d(r, &a, l->nx, l->ny, bytes, k);
}

/* Step B of level k: the r1 pivots and the next level's straight stencil. */
static HclStatus setup_level_b(Rrb *r, int k) {
  const RrbLevelLayout *l = level(r, k);
  KernelArgs a = hcl_kernel_args(r->kernels[K_SETUP_B]);
  for (int f = 0; f < 3; f++) {
    hcl_arg_mem(&a, r->rotated[f]);
  }
  hcl_arg_int(&a, k);
  for (int f = 0; f < 3; f++) {
    hcl_arg_mem(&a, r->straight[f]);
  }
  hcl_arg_mem(&a, r->table);
  hcl_arg_int(&a, r->layout.nlevels);
  hcl_arg_uint(&a, r->layout.count);
  hcl_arg_mem(&a, r->factor);
  hcl_arg_mem(&a, r->failed);
  int cx = (l->nx + 1) / 2, cy = (l->ny + 1) / 2;
  double bytes = (double)l->nx * l->ny * real_bytes(r) * (1.5 + 0.75 + 1.25);
  return launch_2d(r, &a, cx, cy, bytes, k);
}

HclStatus hcl_rrb_setup(Rrb *r, Field *centre, Field *east, Field *north) {
  HclStatus status = HCL_OK;
  Field *const fields[3] = {centre, east, north};
  const RrbLayout *l = &r->layout;
  int nx = l->nlevels > 0 ? l->levels[0].nx : l->final_nx, ny = l->nlevels > 0 ? l->levels[0].ny : l->final_ny;
  RrbMatrix matrix = {.base = (size_t)hcl_field_ghost(centre) * hcl_field_pitch(centre) + hcl_field_ghost(centre),
                      .pitch = hcl_field_pitch(centre)};
  for (int f = 0; f < 3; f++) {
    ASSERT(hcl_field_nx(fields[f]) == nx && hcl_field_ny(fields[f]) == ny && hcl_field_nz(fields[f]) == 1 &&
           hcl_field_precision(fields[f]) == r->precision && hcl_field_pitch(fields[f]) == matrix.pitch &&
           hcl_field_ghost(fields[f]) == hcl_field_ghost(centre));
    matrix.coefficients[f] = hcl_field_buffer(fields[f]);
  }
  TRY(hcl_rrb_setup_matrix(r, &matrix));
cleanup:
  return status;
}

HclStatus hcl_rrb_setup_matrix(Rrb *r, const RrbMatrix *matrix) {
  HclStatus status = HCL_OK;
  const RrbLayout *l = &r->layout;
  cl_int none = INT_MAX, failed = INT_MAX;
  TRY_CL(clEnqueueWriteBuffer(hcl_runtime_queue(r->rt), r->failed, CL_FALSE, 0, sizeof none, &none, 0, NULL, NULL));
  for (int k = 0; k < l->nlevels; k++) {
    TRY(setup_level_a(r, k, matrix));
    TRY(setup_level_b(r, k));
  }
  KernelArgs a = hcl_kernel_args(r->kernels[K_SETUP_EXACT]);
  for (int f = 0; f < 3; f++) {
    hcl_arg_mem(&a, l->nlevels > 0 ? r->straight[f] : matrix->coefficients[f]);
  }
  hcl_arg_long(&a, l->nlevels > 0 ? 0 : (long)matrix->base);
  hcl_arg_int(&a, l->nlevels > 0 ? l->final_nx : matrix->pitch);
  hcl_arg_mem(&a, r->schur);
  hcl_arg_int(&a, l->nlevels == 0);
  hcl_arg_int(&a, r->exact_band);
  hcl_arg_mem(&a, r->exact_factor);
  hcl_arg_local(&a, exact_band_bytes(r));
  hcl_arg_mem(&a, r->table);
  hcl_arg_int(&a, l->nlevels);
  hcl_arg_uint(&a, l->count);
  hcl_arg_mem(&a, r->factor);
  hcl_arg_mem(&a, r->failed);
  TRY(launch_group(r, &a, K_SETUP_EXACT, l->nlevels));
  KernelArgs p = hcl_kernel_args(r->kernels[K_EXACT_PRODUCT]);
  hcl_arg_mem(&p, r->exact_factor);
  hcl_arg_mem(&p, r->exact);
  hcl_arg_int(&p, (int)exact_nodes(r));
  TRY(launch_2d(r, &p, (int)exact_nodes(r), (int)exact_nodes(r), 0, l->nlevels));
  TRY(hcl_runtime_read(r->rt, r->failed, 0, sizeof failed, &failed));
  REQUIRE(failed == INT_MAX, HCL_EDATA,
          "the RRB factorization met a pivot that is not positive on level %d of %d: the matrix is not symmetric "
          "positive definite%s",
          failed + 1, l->nlevels + 1,
          failed == 0 ? " (a centre coefficient, or the first Schur complement's)"
                      : " (or not diagonally dominant enough for the lumped factorization)");
cleanup:
  return status;
}

/* One stage kernel of level k: src, dst, k, then the extra int argument when extra >= 0. */
static HclStatus stage(Rrb *r, int kernel, int k, cl_mem src, cl_mem dst, int extra, int nx, int ny,
                       double values_per_item) {
  KernelArgs a = begin(r, kernel);
  hcl_arg_mem(&a, r->factor);
  hcl_arg_mem(&a, src);
  hcl_arg_mem(&a, dst);
  hcl_arg_int(&a, k);
  if (extra >= 0) {
    hcl_arg_int(&a, extra);
  }
  return launch_2d(r, &a, nx, ny, values_per_item * nx * ny * real_bytes(r), k);
}

/* Level 0's backward stage: z from r and the work vector (backward_first). */
static HclStatus backward_first(Rrb *r, cl_mem res, cl_mem z) {
  const RrbLevelLayout *l0 = level(r, 0);
  KernelArgs a = begin(r, K_BACKWARD_FIRST);
  hcl_arg_mem(&a, r->factor);
  hcl_arg_mem(&a, res);
  hcl_arg_mem(&a, r->work);
  hcl_arg_mem(&a, z);
  int cx = (l0->nx + 1) / 2, cy = (l0->ny + 1) / 2;
  return launch_2d(r, &a, cx, cy, (double)cx * cy * (2 + 5 + 4) * real_bytes(r), 0);
}

HclStatus hcl_rrb_apply(Rrb *r, cl_mem res, cl_mem z) {
  HclStatus status = HCL_OK;
  const RrbLayout *l = &r->layout;
  int coarse = r->coarse_level;
  if (l->nlevels == 0) { /* a 1 x 1 grid: its one node, by apply_coarse's exact level */
    TRY_CL(clEnqueueCopyBuffer(hcl_runtime_queue(r->rt), res, r->work, 0, 0, real_bytes(r), 0, NULL, NULL));
  } else {
    const RrbLevelLayout *l0 = level(r, 0);
    TRY(stage(r, K_FORWARD_R2, 0, res, r->work, TERMS_R1 | TO_WORK, (l0->nx + 1) / 2, (l0->ny + 1) / 2, 2 + 4 * 1.25));
  }
  for (int k = 1; k < coarse; k++) {
    const RrbLevelLayout *v = level(r, k);
    TRY(stage(r, K_FORWARD_R2, k, r->work, r->work, TERMS_BLACK | TERMS_R1, (v->nx + 1) / 2, (v->ny + 1) / 2,
              4 + 4 * 2.5));
  }
  KernelArgs a = begin(r, K_COARSE);
  hcl_arg_mem(&a, r->factor);
  hcl_arg_mem(&a, r->work);
  hcl_arg_int(&a, coarse);
  hcl_arg_mem(&a, r->exact);
  hcl_arg_local(&a, coarse_local_bytes(r));
  TRY(launch_group(r, &a, K_COARSE, coarse));
  for (int k = coarse - 1; k >= 1; k--) {
    const RrbLevelLayout *v = level(r, k);
    TRY(stage(r, K_BACKWARD_R1, k, r->work, r->work, -1, v->nx / 2, v->ny / 2, 2 + 5 + 4));
    TRY(stage(r, K_BACKWARD_BLACK, k, r->work, r->work, -1, (v->nx + 1) / 2, v->ny, 2 + 5 + 2));
  }
  if (l->nlevels > 0) {
    TRY(backward_first(r, res, z));
  } else {
    TRY_CL(clEnqueueCopyBuffer(hcl_runtime_queue(r->rt), r->work, z, 0, 0, real_bytes(r), 0, NULL, NULL));
  }
cleanup:
  return status;
}

HclStatus hcl_rrb_schur_apply(Rrb *r, cl_mem p, cl_mem q) {
  int nx = r->layout.nlevels > 0 ? level(r, 0)->nx : 1, ny = r->layout.nlevels > 0 ? level(r, 0)->ny : 1;
  int cx = (nx + 1) / 2, cy = (ny + 1) / 2;
  double reds = (double)(r->layout.count - hcl_rrb_red_first(r));
  KernelArgs a = begin(r, K_SCHUR);
  hcl_arg_mem(&a, r->schur);
  hcl_arg_mem(&a, p);
  hcl_arg_mem(&a, q);
  return launch_2d(r, &a, cx, cy, reds * (SCHUR_PLANES + 2) * real_bytes(r), 0);
}

HclStatus hcl_rrb_schur_rhs(Rrb *r, cl_mem b, cl_mem res) {
  HclStatus status = HCL_OK;
  if (r->layout.nlevels == 0 && b != res) {
    TRY_CL(clEnqueueCopyBuffer(hcl_runtime_queue(r->rt), b, res, 0, 0, real_bytes(r), 0, NULL, NULL));
  } else if (r->layout.nlevels > 0) {
    const RrbLevelLayout *l0 = level(r, 0);
    TRY(stage(r, K_FORWARD_R1, 0, b, res, -1, l0->nx / 2, l0->ny / 2, 2 + 2 * 5));
    TRY(stage(r, K_FORWARD_R2, 0, b, res, TERMS_BLACK, (l0->nx + 1) / 2, (l0->ny + 1) / 2, 2 + 2 * 5));
  }
cleanup:
  return status;
}

HclStatus hcl_rrb_recover_black(Rrb *r, cl_mem b, cl_mem x) {
  if (r->layout.nlevels == 0) {
    return HCL_OK;
  }
  const RrbLevelLayout *l0 = level(r, 0);
  return stage(r, K_BACKWARD_BLACK, 0, b, x, -1, (l0->nx + 1) / 2, l0->ny, 2 + 5 + 2);
}

HclStatus hcl_rrb_apply_full(Rrb *r, cl_mem res, cl_mem z) {
  HclStatus status = HCL_OK;
  TRY(hcl_rrb_schur_rhs(r, res, res));
  TRY(hcl_rrb_apply(r, res, z));
  TRY(hcl_rrb_recover_black(r, res, z));
cleanup:
  return status;
}

int hcl_rrb_coarse_level(const Rrb *rrb) {
  return rrb->coarse_level;
}

HclStatus hcl_rrb_apply_timed(Rrb *rrb, cl_mem r, cl_mem z, double level_seconds[RRB_MAX_LEVELS + 1]) {
  for (int k = 0; k <= RRB_MAX_LEVELS; k++) {
    level_seconds[k] = 0;
  }
  rrb->level_seconds = level_seconds;
  HclStatus status = hcl_rrb_apply(rrb, r, z);
  rrb->level_seconds = NULL;
  return status;
}
