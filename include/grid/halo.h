/* SPDX-License-Identifier: BSD-3-Clause */
/* halo.h: ghost-layer exchange of a set of fields over the decomposition's neighbours, corners included.
 *
 * One message per neighbour carries every field of the set (each in its own precision and ghost width), packed on
 * the device, staged through pinned host buffers and sent with MPI_Isend/MPI_Irecv. Across a periodic side owned by
 * one rank the ghosts are filled by a device-only copy. Closed sides are left to the models.
 *
 *   halo_begin(h);        packs and posts the messages; collective with the neighbours
 *   ... enqueue kernels that read only owned points ...
 *   halo_end(h);          receives and unpacks: the ghosts are valid for kernels enqueued after it
 *
 * All work is enqueued on the runtime's in-order queue, so kernels enqueued before halo_begin are complete in the
 * packed data. */
#ifndef HYDROCL_HALO_H
#define HYDROCL_HALO_H

#include "field.h"
#include "status.h"

typedef struct Halo Halo;

/* Plans the exchange of fields[0..nfields) (borrowed; they must share rt and decomp and outlive the halo). Every
 * rank returns the same status, even when only one failed. Collective. */
HclStatus halo_create(Field *const *fields, int nfields, Halo **out);
/* Cancels and completes any exchange still in flight, then frees; NULL-safe. */
void halo_destroy(Halo **halo);

HclStatus halo_begin(Halo *halo);
HclStatus halo_end(Halo *halo);
HclStatus halo_exchange(Halo *halo); /* begin then end */

size_t halo_message_bytes(const Halo *halo); /* bytes this rank sends per exchange, all neighbours together */

#endif
