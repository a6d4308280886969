/* SPDX-License-Identifier: BSD-3-Clause */
/* field.c: device arrays with ghost layers (see field.h) and their host transfers. */
#include "field.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "clerror.h"
#include "par.h"

struct Field {
  char name[64];
  Runtime *rt;
  const Decomp *decomp;
  Precision precision;
  int nx, ny, nz, ghost;
  cl_mem buffer;
};

/* This rank's part of hcl_field_create: every check here can fail on some ranks only (the block sizes and devices
 * differ), so hcl_field_create agrees on the outcome afterwards. */
static HclStatus create_local(Runtime *rt, const Decomp *decomp, const FieldSpec *spec, Field **out) {
  HclStatus status = HCL_OK;
  Field *f = NULL;
  const DecompLocal *local = hcl_decomp_local(decomp);
  const DeviceInfo *dev = hcl_runtime_device(rt);
  REQUIRE(spec->nz >= 1 && spec->ghost >= 0, HCL_EINTERNAL, "field '%s' with nz %d, ghost %d", spec->name, spec->nz,
          spec->ghost);
  REQUIRE(spec->precision != PRECISION_DOUBLE || dev->fp64, HCL_ENODEVICE,
          "field '%s' is double precision but device '%s' on rank %d has no fp64; run with --precision single or "
          "choose a device with fp64 (hydrocl info)",
          spec->name, dev->device_name, local->rank);
  /* A neighbour's ghost layer of width g comes from g owned rows or columns of this rank. */
  bool x_neighbours = local->neighbor[1][0] >= 0 || local->neighbor[1][2] >= 0;
  bool y_neighbours = local->neighbor[0][1] >= 0 || local->neighbor[2][1] >= 0;
  REQUIRE((!x_neighbours || local->nx >= spec->ghost) && (!y_neighbours || local->ny >= spec->ghost), HCL_EDATA,
          "rank %d owns %d x %d points, fewer than the ghost width %d of field '%s' in a direction with "
          "neighbours; use a larger grid or fewer ranks (the process grid is %d x %d)",
          local->rank, local->nx, local->ny, spec->ghost, spec->name, local->px, local->py);
  TRY_ALLOC(f, 1);
  snprintf(f->name, sizeof f->name, "%s", spec->name);
  f->rt = rt;
  f->decomp = decomp;
  f->precision = spec->precision;
  f->nx = local->nx;
  f->ny = local->ny;
  f->nz = spec->nz;
  f->ghost = spec->ghost;
  size_t bytes = hcl_field_count(f) * hcl_precision_bytes(f->precision);
  REQUIRE(bytes <= dev->max_alloc_bytes, HCL_ENODEVICE,
          "field '%s' needs %zu bytes on rank %d but the device allows %llu in one buffer; use more ranks or single "
          "precision",
          f->name, bytes, local->rank, (unsigned long long)dev->max_alloc_bytes);
  TRY(hcl_runtime_buffer(rt, bytes, f->name, &f->buffer)); /* zeroed, ghosts included: unexchanged ghosts hold 0 */
  *out = f;
  f = NULL;
cleanup:
  hcl_field_destroy(&f);
  return status;
}

HclStatus hcl_field_create(Runtime *rt, const Decomp *decomp, const FieldSpec *spec, Field **out) {
  HclStatus status = HCL_OK;
  Field *f = NULL;
  *out = NULL;
  TRY(hcl_par_agree(create_local(rt, decomp, spec, &f)));
  *out = f;
  f = NULL;
cleanup:
  hcl_field_destroy(&f);
  return status;
}

void hcl_field_destroy(Field **field) {
  if (!field || !*field) {
    return;
  }
  if ((*field)->buffer) {
    clReleaseMemObject((*field)->buffer);
  }
  free(*field);
  *field = NULL;
}

const char *hcl_field_name(const Field *f) {
  return f->name;
}

Precision hcl_field_precision(const Field *f) {
  return f->precision;
}

int hcl_field_nx(const Field *f) {
  return f->nx;
}

int hcl_field_ny(const Field *f) {
  return f->ny;
}

int hcl_field_nz(const Field *f) {
  return f->nz;
}

int hcl_field_ghost(const Field *f) {
  return f->ghost;
}

int hcl_field_pitch(const Field *f) {
  return f->nx + 2 * f->ghost;
}

int hcl_field_rows(const Field *f) {
  return f->ny + 2 * f->ghost;
}

size_t hcl_field_count(const Field *f) {
  return (size_t)f->nz * (size_t)hcl_field_rows(f) * (size_t)hcl_field_pitch(f);
}

cl_mem hcl_field_buffer(const Field *f) {
  return f->buffer;
}

const Decomp *hcl_field_decomp(const Field *f) {
  return f->decomp;
}

Runtime *hcl_field_runtime(const Field *f) {
  return f->rt;
}

/* Converts n values between the device representation (float or double) and double. */
static void to_double(Precision p, const void *raw, double *out, size_t n) {
  for (size_t i = 0; i < n; i++) {
    out[i] = p == PRECISION_DOUBLE ? ((const double *)raw)[i] : (double)((const float *)raw)[i];
  }
}

static void from_double(Precision p, const double *in, void *raw, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (p == PRECISION_DOUBLE) {
      ((double *)raw)[i] = in[i];
    } else {
      ((float *)raw)[i] = (float)in[i];
    }
  }
}

HclStatus hcl_field_read_ghosted(Field *f, double *host) {
  HclStatus status = HCL_OK;
  void *raw = NULL;
  size_t n = hcl_field_count(f), bytes = n * hcl_precision_bytes(f->precision);
  TRY_ALLOC_BYTES(raw, bytes);
  TRY(hcl_runtime_read(f->rt, f->buffer, 0, bytes, raw));
  to_double(f->precision, raw, host, n);
cleanup:
  free(raw);
  return status;
}

HclStatus hcl_field_write_ghosted(Field *f, const double *host) {
  HclStatus status = HCL_OK;
  void *raw = NULL;
  size_t n = hcl_field_count(f), bytes = n * hcl_precision_bytes(f->precision);
  TRY_ALLOC_BYTES(raw, bytes);
  from_double(f->precision, host, raw, n);
  TRY_CL(clEnqueueWriteBuffer(hcl_runtime_queue(f->rt), f->buffer, CL_TRUE, 0, bytes, raw, 0, NULL, NULL));
cleanup:
  free(raw);
  return status;
}

/* Index of owned point (i, j, k) in the ghosted array. */
static size_t ghosted_index(const Field *f, int i, int j, int k) {
  return ((size_t)k * (size_t)hcl_field_rows(f) + (size_t)(j + f->ghost)) * (size_t)hcl_field_pitch(f) +
         (size_t)(i + f->ghost);
}

HclStatus hcl_field_read_owned(Field *f, double *host) {
  HclStatus status = HCL_OK;
  double *all = NULL;
  TRY_ALLOC(all, hcl_field_count(f));
  TRY(hcl_field_read_ghosted(f, all));
  for (int k = 0; k < f->nz; k++) {
    for (int j = 0; j < f->ny; j++) {
      memcpy(host + ((size_t)k * f->ny + j) * f->nx, all + ghosted_index(f, 0, j, k), (size_t)f->nx * sizeof *all);
    }
  }
cleanup:
  free(all);
  return status;
}

HclStatus hcl_field_write_owned(Field *f, const double *host) {
  HclStatus status = HCL_OK;
  double *all = NULL;
  TRY_ALLOC(all, hcl_field_count(f));
  TRY(hcl_field_read_ghosted(f, all));
  for (int k = 0; k < f->nz; k++) {
    for (int j = 0; j < f->ny; j++) {
      memcpy(all + ghosted_index(f, 0, j, k), host + ((size_t)k * f->ny + j) * f->nx, (size_t)f->nx * sizeof *all);
    }
  }
  TRY(hcl_field_write_ghosted(f, all));
cleanup:
  free(all);
  return status;
}

/* Copies one rank's owned block of one plane (ny rows of nx) into its place in a global plane. */
static void place_block(const Field *f, const double *block, int x0, int y0, int nx, int ny, double *plane) {
  const DecompSpec *g = hcl_decomp_spec(f->decomp);
  for (int j = 0; j < ny; j++) {
    memcpy(plane + (size_t)(y0 + j) * g->nx + x0, block + (size_t)j * nx, (size_t)nx * sizeof *block);
  }
}

/* Rank 0's receive layout of one plane: every rank's block after the previous rank's, in rank order. */
static HclStatus plane_layout(const Field *f, int **counts, int **offsets) {
  HclStatus status = HCL_OK;
  int size = hcl_par_size(), x0, y0, nx, ny;
  TRY_ALLOC(*counts, size);
  TRY_ALLOC(*offsets, size);
  for (int r = 0, offset = 0; r < size; r++) {
    hcl_decomp_block_of(f->decomp, r, &x0, &y0, &nx, &ny);
    (*counts)[r] = nx * ny;
    (*offsets)[r] = offset;
    offset += nx * ny;
  }
cleanup:
  return status;
}

/* Reads this rank's owned points and, on rank 0, prepares one plane's receive buffer and layout. */
static HclStatus gather_setup(Field *f, double **mine, double **received, int **counts, int **offsets) {
  HclStatus status = HCL_OK;
  const DecompSpec *g = hcl_decomp_spec(f->decomp);
  TRY_ALLOC(*mine, (size_t)f->nz * f->ny * f->nx);
  TRY(hcl_field_read_owned(f, *mine));
  if (hcl_par_rank() == 0) {
    TRY_ALLOC(*received, (size_t)g->ny * g->nx);
    TRY(plane_layout(f, counts, offsets));
  }
cleanup:
  return status;
}

/* One message per plane keeps every MPI count within int however many planes a field has. */
static HclStatus gather_planes(Field *f, double *global) {
  HclStatus status = HCL_OK;
  double *mine = NULL, *received = NULL;
  int *counts = NULL, *offsets = NULL;
  int x0, y0, nx, ny;
  const DecompSpec *g = hcl_decomp_spec(f->decomp);
  size_t plane_points = (size_t)g->nx * g->ny, owned = (size_t)f->nx * f->ny;
  REQUIRE(plane_points <= INT_MAX, HCL_EDATA,
          "field '%s' has %d x %d = %zu points per plane, more than one MPI message can carry (%d); gathering it to "
          "one rank needs a smaller grid",
          f->name, g->nx, g->ny, plane_points, INT_MAX);
  /* Reading the device and allocating can fail on some ranks only: agree before the first gather. */
  TRY(hcl_par_agree(gather_setup(f, &mine, &received, &counts, &offsets)));
  for (int k = 0; k < f->nz; k++) {
    TRY(hcl_par_gatherv_doubles(hcl_decomp_comm(f->decomp), mine + (size_t)k * owned, (int)owned, received, counts,
                                offsets));
    for (int r = 0; hcl_par_rank() == 0 && r < hcl_par_size(); r++) {
      hcl_decomp_block_of(f->decomp, r, &x0, &y0, &nx, &ny);
      place_block(f, received + offsets[r], x0, y0, nx, ny, global + (size_t)k * plane_points);
    }
  }
cleanup:
  free(mine);
  free(received);
  free(counts);
  free(offsets);
  return status;
}

HclStatus hcl_field_gather(Field *f, double *global) {
  HclStatus status = HCL_OK;
  double *mine = NULL;
  int x0, y0, nx, ny;
  if (hcl_par_size() > 1) {
    return gather_planes(f, global);
  }
  const DecompSpec *g = hcl_decomp_spec(f->decomp);
  TRY_ALLOC(mine, (size_t)f->nz * f->ny * f->nx);
  TRY(hcl_field_read_owned(f, mine));
  hcl_decomp_block_of(f->decomp, 0, &x0, &y0, &nx, &ny);
  for (int k = 0; k < f->nz; k++) {
    place_block(f, mine + (size_t)k * nx * ny, x0, y0, nx, ny, global + (size_t)k * g->nx * g->ny);
  }
cleanup:
  free(mine);
  return status;
}

HclStatus hcl_field_zero(Field *f) { /* zero bits are 0.0 in float and double */
  return hcl_runtime_zero(f->rt, f->buffer, hcl_field_count(f) * hcl_precision_bytes(f->precision));
}

Span hcl_field_span(const Field *f) {
  size_t pitch = (size_t)hcl_field_pitch(f), g = (size_t)hcl_field_ghost(f);
  return (Span){.buffer = hcl_field_buffer(f),
                .precision = hcl_field_precision(f),
                .base = g * pitch + g,
                .nx = (size_t)hcl_field_nx(f),
                .ny = (size_t)hcl_field_ny(f),
                .nz = (size_t)hcl_field_nz(f),
                .pitch = pitch,
                .plane = pitch * (size_t)hcl_field_rows(f)};
}

Span hcl_span_range(cl_mem buffer, Precision precision, size_t first, size_t end) {
  size_t n = end > first ? end - first : 0;
  return (Span){
      .buffer = buffer, .precision = precision, .base = first, .nx = n, .ny = 1, .nz = 1, .pitch = n, .plane = n};
}

size_t hcl_span_count(const Span *s) {
  return s->nx * s->ny * s->nz;
}
