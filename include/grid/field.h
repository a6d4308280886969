/* SPDX-License-Identifier: BSD-3-Clause */
/* field.h: 2D and 3D arrays of one precision on the device, split as the decomposition says, with ghost layers.
 *
 * Layout: f[k][j][i] for k in [0, nz), j in [0, ny + 2g), i in [0, nx + 2g), x fastest; owned point (i, j) of
 * plane k sits at ((k (ny + 2g) + j + g) (nx + 2g) + i + g). nx, ny are this rank's owned points and g the
 * field's ghost width; the vertical is never split and has no ghosts here (models add their own planes). */
#ifndef HYDROCL_FIELD_H
#define HYDROCL_FIELD_H

#include "decomp.h"
#include "precision.h"
#include "runtime.h"
#include "status.h"

#include <CL/cl.h>

typedef struct {
  const char *name;    /* for messages and output: "eta" (copied) */
  int nz;              /* vertical points; 1 for a 2D field */
  int ghost;           /* ghost width: at least the stencil radius of every kernel that reads the field */
  Precision precision; /* float or double, per field (mixed precision keeps both) */
} FieldSpec;

typedef struct Field Field;

/* Allocates the field (contents zero). Refused with the numbers and a hint when the buffer exceeds the device's
 * maximum allocation, when a rank owns fewer points than the ghost width in a split direction, or for a double
 * field on a device without fp64 (HCL_ENODEVICE). Every rank returns the same status, even when only one failed.
 * Borrows rt and decomp, which must outlive the field. Collective. */
HclStatus hcl_field_create(Runtime *rt, const Decomp *decomp, const FieldSpec *spec, Field **out);
void hcl_field_destroy(Field **field);

const char *hcl_field_name(const Field *f);
Precision hcl_field_precision(const Field *f);
int hcl_field_nx(const Field *f); /* owned points of this rank */
int hcl_field_ny(const Field *f);
int hcl_field_nz(const Field *f);
int hcl_field_ghost(const Field *f);
int hcl_field_pitch(const Field *f);    /* nx + 2g: elements from one row to the next */
int hcl_field_rows(const Field *f);     /* ny + 2g: rows from one plane to the next */
size_t hcl_field_count(const Field *f); /* nz (ny + 2g)(nx + 2g): elements with ghosts */
cl_mem hcl_field_buffer(const Field *f);
const Decomp *hcl_field_decomp(const Field *f);
Runtime *hcl_field_runtime(const Field *f);

/* Places of a device buffer of one precision that a reduction or a vector operation reads: nz planes of ny rows of
 * nx places, place (i, j, k) at base + k plane + j pitch + i. A field's owned points are one (hcl_field_span); a plain
 * range [first, end) of a buffer is one of a single row (hcl_span_range). */
typedef struct {
  cl_mem buffer;
  Precision precision;
  size_t base, nx, ny, nz, pitch, plane;
} Span;

Span hcl_field_span(const Field *f);
Span hcl_span_range(cl_mem buffer, Precision precision, size_t first, size_t end);
size_t hcl_span_count(const Span *s); /* nx ny nz */

/* Copies between the device and a host array in double precision. The owned variants move nz ny nx values
 * (ghosts left alone); the ghosted variants move hcl_field_count values. Blocking. */
HclStatus hcl_field_read_owned(Field *f, double *host);
HclStatus hcl_field_write_owned(Field *f, const double *host);
HclStatus hcl_field_read_ghosted(Field *f, double *host);
HclStatus hcl_field_write_ghosted(Field *f, const double *host);

/* Sets every element, ghosts included, to zero (enqueued, not waited for). */
HclStatus hcl_field_zero(Field *f);

/* Gathers the owned points of every rank into global[nz][NY][NX] (the whole grid, x fastest) on rank 0; global is
 * ignored elsewhere and may be NULL there. One message per plane, so a plane (NX NY points) must fit an int; a
 * larger one is HCL_EDATA. Collective. */
HclStatus hcl_field_gather(Field *f, double *global);

#endif
