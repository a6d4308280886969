/* SPDX-License-Identifier: BSD-3-Clause */
/* gather.c: a coarse level assembled on every rank from the ranks' blocks (see gather.h). */
#include "gather.h"

#include <stdlib.h>
#include <string.h>

#include "clerror.h"
#include "par.h"
#include "runtime.h"

struct Gather {
  const ParComm *comm;  /* the split level's ranks */
  int nx, ny;           /* the coarse level */
  int *blocks;          /* per rank: x0, y0, nx, ny */
  int *counts, *displs; /* per rank: bytes of its block and where they start in all */
  size_t bytes_most;
  void *mine, *all, *image; /* this rank's block, every block in rank order, the whole level */
};

/* The first coarse point at or after fine point x along a direction: decomp.h's coarse_start and odd_start. */
static int coarse_start(int x, bool halved, bool odd) {
  return !halved ? x : odd ? x / 2 : (x + 1) / 2;
}

HclStatus hcl_gather_create(const Decomp *fine, bool halve_x, bool halve_y, bool odd, int nx, int ny, size_t bytes_most,
                            Gather **out) {
  HclStatus status = HCL_OK;
  Gather *g = NULL;
  int ranks = hcl_par_size();
  *out = NULL;
  TRY_ALLOC(g, 1);
  g->comm = hcl_decomp_comm(fine);
  g->nx = nx;
  g->ny = ny;
  g->bytes_most = bytes_most;
  TRY_ALLOC(g->blocks, 4 * (size_t)ranks);
  TRY_ALLOC(g->counts, ranks);
  TRY_ALLOC(g->displs, ranks);
  for (int r = 0; r < ranks; r++) {
    int x0, y0, fnx, fny, *b = g->blocks + 4 * r;
    hcl_decomp_block_of(fine, r, &x0, &y0, &fnx, &fny);
    b[0] = coarse_start(x0, halve_x, odd);
    b[1] = coarse_start(y0, halve_y, odd);
    b[2] = coarse_start(x0 + fnx, halve_x, odd) - b[0];
    b[3] = coarse_start(y0 + fny, halve_y, odd) - b[1];
  }
  TRY_ALLOC(g->mine, bytes_most);
  TRY_ALLOC(g->all, bytes_most);
  TRY_ALLOC(g->image, bytes_most);
  *out = g;
  g = NULL;
cleanup:
  hcl_gather_destroy(&g);
  return status;
}

void hcl_gather_destroy(Gather **gather) {
  Gather *g = *gather;
  if (!g) {
    return;
  }
  free(g->blocks);
  free(g->counts);
  free(g->displs);
  free(g->mine);
  free(g->all);
  free(g->image);
  free(g);
  *gather = NULL;
}

void hcl_gather_block(const Gather *g, int block[4]) {
  memcpy(block, g->blocks + 4 * hcl_par_rank(), 4 * sizeof *block);
}

void *hcl_gather_mine(Gather *g) {
  return g->mine;
}

const void *hcl_gather_image(const Gather *g) {
  return g->image;
}

HclStatus hcl_gather_assemble(Gather *g, int planes, size_t value_bytes) {
  HclStatus status = HCL_OK;
  int ranks = hcl_par_size(), at = 0;
  ASSERT((size_t)g->nx * g->ny * planes * value_bytes <= g->bytes_most);
  for (int r = 0; r < ranks; r++) {
    g->counts[r] = g->blocks[4 * r + 2] * g->blocks[4 * r + 3] * planes * (int)value_bytes;
    g->displs[r] = at;
    at += g->counts[r];
  }
  TRY(hcl_par_allgatherv(g->comm, g->mine, g->counts[hcl_par_rank()], g->all, g->counts, g->displs));
  for (int r = 0; r < ranks; r++) {
    const int *b = g->blocks + 4 * r;
    const char *from = (const char *)g->all + g->displs[r];
    size_t row = (size_t)b[2] * value_bytes;
    for (int p = 0; p < planes; p++) {
      for (int j = 0; j < b[3]; j++) {
        size_t to = (((size_t)p * g->ny + b[1] + j) * g->nx + b[0]) * value_bytes;
        memcpy((char *)g->image + to, from, row);
        from += row;
      }
    }
  }
cleanup:
  return status;
}

/* The rectangle of field f's planes at this rank's block (block) or at the whole level, in its buffer's terms. */
static void field_rect(const Field *f, const int *block, size_t at[3], size_t region[3], size_t *pitch, size_t *plane) {
  size_t real = hcl_precision_bytes(hcl_field_precision(f)), ghost = (size_t)hcl_field_ghost(f);
  *pitch = (size_t)hcl_field_pitch(f) * real;
  *plane = *pitch * (size_t)hcl_field_rows(f);
  at[0] = ((size_t)block[0] + ghost) * real;
  at[1] = (size_t)block[1] + ghost;
  at[2] = 0;
  region[0] = (size_t)block[2] * real;
  region[1] = (size_t)block[3];
  region[2] = (size_t)hcl_field_nz(f);
}

HclStatus hcl_gather_fields(Gather *g, Field *const *fields, int count) {
  HclStatus status = HCL_OK;
  cl_command_queue queue = hcl_runtime_queue(hcl_field_runtime(fields[0]));
  const int *mine = g->blocks + 4 * hcl_par_rank(), whole[4] = {0, 0, g->nx, g->ny};
  size_t real = hcl_precision_bytes(hcl_field_precision(fields[0])), origin[3] = {0, 0, 0}, at[3], region[3], pitch,
         plane;
  int planes = 0;
  for (int k = 0; k < count; k++) { /* this rank's block of every field, planes after planes */
    ASSERT(hcl_field_nx(fields[k]) == g->nx && hcl_field_ny(fields[k]) == g->ny &&
           hcl_precision_bytes(hcl_field_precision(fields[k])) == real);
    field_rect(fields[k], mine, at, region, &pitch, &plane);
    if (mine[2] > 0 && mine[3] > 0) {
      TRY_CL(clEnqueueReadBufferRect(queue, hcl_field_buffer(fields[k]), CL_FALSE, at, origin, region, pitch, plane,
                                     region[0], region[0] * region[1],
                                     (char *)g->mine + (size_t)planes * region[0] * region[1], 0, NULL, NULL));
    }
    planes += hcl_field_nz(fields[k]);
  }
  TRY_CL(clFinish(queue)); /* one wait for all the reads */
  TRY(hcl_gather_assemble(g, planes, real));
  planes = 0;
  for (int k = 0; k < count; k++) {
    field_rect(fields[k], whole, at, region, &pitch, &plane);
    TRY_CL(clEnqueueWriteBufferRect(queue, hcl_field_buffer(fields[k]), CL_FALSE, at, origin, region, pitch, plane,
                                    region[0], region[0] * region[1],
                                    (const char *)g->image + (size_t)planes * region[0] * region[1], 0, NULL, NULL));
    planes += hcl_field_nz(fields[k]);
  }
  TRY_CL(clFinish(queue)); /* one wait for all the writes: the next gather rewrites the image */
cleanup:
  return status;
}
