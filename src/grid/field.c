/* field.c: device arrays with ghost layers (see field.h) and their host transfers. */
#include "field.h"

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

HclStatus field_create(Runtime *rt, const Decomp *decomp, const FieldSpec *spec, Field **out) {
  HclStatus status = HCL_OK;
  Field *f = NULL;
  const DecompLocal *local = decomp_local(decomp);
  void *zeros = NULL;
  *out = NULL;
  REQUIRE(spec->nz >= 1 && spec->ghost >= 0, HCL_EINTERNAL, "field '%s' with nz %d, ghost %d", spec->name,
          spec->nz, spec->ghost);
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
  size_t bytes = field_count(f) * precision_bytes(f->precision);
  REQUIRE(bytes <= runtime_device(rt)->max_alloc_bytes, HCL_ENODEVICE,
          "field '%s' needs %zu bytes on rank %d but the device allows %llu in one buffer; use more ranks or single "
          "precision",
          f->name, bytes, local->rank, (unsigned long long)runtime_device(rt)->max_alloc_bytes);
  TRY(runtime_buffer(rt, bytes, f->name, &f->buffer));
  /* Zero everything once, ghosts included, so unexchanged ghosts never hold garbage. */
  TRY_ALLOC(zeros, bytes);
  TRY_CL(clEnqueueWriteBuffer(runtime_queue(rt), f->buffer, CL_TRUE, 0, bytes, zeros, 0, NULL, NULL));
  *out = f;
  f = NULL;
cleanup:
  free(zeros);
  field_destroy(&f);
  return status;
}

void field_destroy(Field **field) {
  if (!field || !*field) {
    return;
  }
  if ((*field)->buffer) {
    clReleaseMemObject((*field)->buffer);
  }
  free(*field);
  *field = NULL;
}

const char *field_name(const Field *f) {
  return f->name;
}

Precision field_precision(const Field *f) {
  return f->precision;
}

int field_nx(const Field *f) {
  return f->nx;
}

int field_ny(const Field *f) {
  return f->ny;
}

int field_nz(const Field *f) {
  return f->nz;
}

int field_ghost(const Field *f) {
  return f->ghost;
}

int field_pitch(const Field *f) {
  return f->nx + 2 * f->ghost;
}

int field_rows(const Field *f) {
  return f->ny + 2 * f->ghost;
}

size_t field_count(const Field *f) {
  return (size_t)f->nz * (size_t)field_rows(f) * (size_t)field_pitch(f);
}

cl_mem field_buffer(const Field *f) {
  return f->buffer;
}

const Decomp *field_decomp(const Field *f) {
  return f->decomp;
}

Runtime *field_runtime(const Field *f) {
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

HclStatus field_read_ghosted(Field *f, double *host) {
  HclStatus status = HCL_OK;
  void *raw = NULL;
  size_t n = field_count(f), bytes = n * precision_bytes(f->precision);
  TRY_ALLOC(raw, bytes);
  TRY_CL(clEnqueueReadBuffer(runtime_queue(f->rt), f->buffer, CL_TRUE, 0, bytes, raw, 0, NULL, NULL));
  to_double(f->precision, raw, host, n);
cleanup:
  free(raw);
  return status;
}

HclStatus field_write_ghosted(Field *f, const double *host) {
  HclStatus status = HCL_OK;
  void *raw = NULL;
  size_t n = field_count(f), bytes = n * precision_bytes(f->precision);
  TRY_ALLOC(raw, bytes);
  from_double(f->precision, host, raw, n);
  TRY_CL(clEnqueueWriteBuffer(runtime_queue(f->rt), f->buffer, CL_TRUE, 0, bytes, raw, 0, NULL, NULL));
cleanup:
  free(raw);
  return status;
}

/* Index of owned point (i, j, k) in the ghosted array. */
static size_t ghosted_index(const Field *f, int i, int j, int k) {
  return ((size_t)k * (size_t)field_rows(f) + (size_t)(j + f->ghost)) * (size_t)field_pitch(f) + (size_t)(i + f->ghost);
}

HclStatus field_read_owned(Field *f, double *host) {
  HclStatus status = HCL_OK;
  double *all = NULL;
  TRY_ALLOC(all, field_count(f));
  TRY(field_read_ghosted(f, all));
  for (int k = 0; k < f->nz; k++) {
    for (int j = 0; j < f->ny; j++) {
      memcpy(host + ((size_t)k * f->ny + j) * f->nx, all + ghosted_index(f, 0, j, k), (size_t)f->nx * sizeof *all);
    }
  }
cleanup:
  free(all);
  return status;
}

HclStatus field_write_owned(Field *f, const double *host) {
  HclStatus status = HCL_OK;
  double *all = NULL;
  TRY_ALLOC(all, field_count(f));
  TRY(field_read_ghosted(f, all));
  for (int k = 0; k < f->nz; k++) {
    for (int j = 0; j < f->ny; j++) {
      memcpy(all + ghosted_index(f, 0, j, k), host + ((size_t)k * f->ny + j) * f->nx, (size_t)f->nx * sizeof *all);
    }
  }
  TRY(field_write_ghosted(f, all));
cleanup:
  free(all);
  return status;
}

/* Copies one rank's owned block (nz planes of ny rows of nx) into its place in the global array. */
static void place_block(const Field *f, const double *block, int x0, int y0, int nx, int ny, double *global) {
  const DecompSpec *g = decomp_spec(f->decomp);
  for (int k = 0; k < f->nz; k++) {
    for (int j = 0; j < ny; j++) {
      memcpy(global + ((size_t)k * g->ny + (size_t)(y0 + j)) * g->nx + x0, block + ((size_t)k * ny + j) * nx,
             (size_t)nx * sizeof *block);
    }
  }
}

HclStatus field_gather(Field *f, double *global) {
  HclStatus status = HCL_OK;
  double *mine = NULL, *all = NULL;
  int *counts = NULL, *offsets = NULL;
  int size = par_size(), x0, y0, nx, ny;
  size_t count = (size_t)f->nz * f->ny * f->nx;
  TRY_ALLOC(mine, count);
  TRY(field_read_owned(f, mine));
  if (size == 1) {
    decomp_block_of(f->decomp, 0, &x0, &y0, &nx, &ny);
    place_block(f, mine, x0, y0, nx, ny, global);
    goto cleanup;
  }
#ifdef HYDROCL_HAVE_MPI
  const DecompSpec *g = decomp_spec(f->decomp);
  bool root = par_rank() == 0;
  if (root) {
    TRY_ALLOC(all, (size_t)f->nz * g->ny * g->nx);
    TRY_ALLOC(counts, size);
    TRY_ALLOC(offsets, size);
    for (int r = 0, offset = 0; r < size; r++) {
      decomp_block_of(f->decomp, r, &x0, &y0, &nx, &ny);
      counts[r] = f->nz * nx * ny;
      offsets[r] = offset;
      offset += counts[r];
    }
  }
  TRY_MPI(MPI_Gatherv(mine, (int)count, MPI_DOUBLE, all, counts, offsets, MPI_DOUBLE, 0, decomp_comm(f->decomp)));
  for (int r = 0; root && r < size; r++) {
    decomp_block_of(f->decomp, r, &x0, &y0, &nx, &ny);
    place_block(f, all + offsets[r], x0, y0, nx, ny, global);
  }
#endif
cleanup:
  free(mine);
  free(all);
  free(counts);
  free(offsets);
  return status;
}
