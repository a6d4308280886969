/* SPDX-License-Identifier: BSD-3-Clause */
/* halo.h: ghost-layer exchange of a set of fields over the decomposition's neighbours, corners included.
 *
 * One message per neighbour carries every field of the set (each in its own precision and ghost width), packed on
 * the device, staged through pinned host buffers and sent with MPI_Isend/MPI_Irecv; the messages to all neighbours
 * share one staging buffer, which crosses between device and host in one copy each way. Across a periodic side owned by
 * one rank the ghosts are filled by a device-only copy. Closed sides are left to the models.
 *
 *   hcl_halo_begin(h);        packs, starts the copies to the host, posts the receives; collective with the neighbours
 *   ... enqueue kernels that read no ghost ...
 *   hcl_halo_end(h);          sends, receives and unpacks: the ghosts are valid for kernels enqueued after it
 *
 * Kernels enqueued before hcl_halo_begin are complete in the packed data, and kernels enqueued after hcl_halo_end see the
 * ghosts. With other ranks the copies between device and host run on the runtime's transfer queue (runtime.h),
 * beside the kernels enqueued between hcl_halo_begin and hcl_halo_end, and the messages travel while they run.
 *
 * Overlap: hcl_halo_parts splits a rank's owned cells into an interior, whose kernels may run between hcl_halo_begin and
 * hcl_halo_end, and the strips along the sides whose ghosts arrive only then; hcl_halo_overlap runs a launch that way. */
#ifndef HYDROCL_HALO_H
#define HYDROCL_HALO_H

#include "field.h"
#include "kernel.h"
#include "status.h"

typedef struct Halo Halo;

/* Plans the exchange of fields[0..nfields) (borrowed; they must share rt and decomp and outlive the halo). Every
 * rank returns the same status, even when only one failed. Collective. */
HclStatus hcl_halo_create(Field *const *fields, int nfields, Halo **out);
/* Cancels and completes any exchange still in flight, then frees; NULL-safe. */
void hcl_halo_destroy(Halo **halo);

HclStatus hcl_halo_begin(Halo *halo);
HclStatus hcl_halo_end(Halo *halo);
HclStatus hcl_halo_exchange(Halo *halo); /* begin then end */
/* Abandons an exchange in flight (a caller that failed between hcl_halo_begin and hcl_halo_end): its messages are cancelled
 * and the ghosts are stale. Nothing when none is. */
void hcl_halo_cancel(Halo *halo);

size_t hcl_halo_message_bytes(const Halo *halo); /* bytes this rank sends per exchange, all neighbours together */

/* A box of a rank's owned cells (decomp.h's local block): the first cell and the extent. */
typedef struct {
  int x0, y0, nx, ny;
} CellBox;

/* Sides of a rank as bits, as mirror.h's. */
enum { HALO_WEST = 1, HALO_EAST = 2, HALO_SOUTH = 4, HALO_NORTH = 8 };
enum { HALO_PARTS_MOST = 5 };

/* Splits the owned cells of halo's decomposition for a kernel that reads up to reach cells away: parts[0] the
 * cells that read no ghost filled by another rank nor on a side in late_sides (ghosts the caller fills after
 * hcl_halo_end, as a mirror), then strips along those sides that together with it cover every cell once. parts[0] is
 * empty and parts[1] all the cells, meaning "exchange first" (hcl_halo_exchange), with no other rank to exchange with
 * and with fewer than HALO_OVERLAP_CELLS interior cells (the work hides less than the extra launches and events
 * cost: on two H200s an exchange of 0.1 ms behind a sweep of 0.05 ms hid 0.03), or as many as the environment's
 * HYDROCL_OVERLAP_CELLS says (0: any interior; the results are the same bits either way). Returns how many parts
 * (at least 2; any may be empty). */
enum { HALO_OVERLAP_CELLS = 1 << 18 };
int hcl_halo_parts(const Halo *halo, int reach, int late_sides, CellBox parts[HALO_PARTS_MOST]);

/* A launch over one box of cells, of an out-of-place kernel: its outputs depend only on inputs it does not write
 * (kernel.h: GPU launches run on past the box). */
typedef HclStatus (*CellBoxLaunch)(void *context, CellBox box);

/* The usual CellBoxLaunch: a kernel with its arguments set (kernel.h), over the box's cells in work-groups of
 * wg_x x wg_y on GPUs, bytes_per_cell of traffic for the profile. */
typedef struct {
  Runtime *rt;
  KernelArgs args;
  int wg_x, wg_y;
  double bytes_per_cell;
} BoxKernel;
HclStatus hcl_halo_launch_box(void *box_kernel, CellBox box);

/* How a launch overlaps an exchange: the kernel reads reach cells away; then(then_context), when not NULL, fills
 * the ghosts of late_sides once the exchange has ended (a mirror). */
typedef struct {
  int reach, late_sides;
  HclStatus (*then)(void *then_context);
  void *then_context;
} HaloOverlap;

/* hcl_halo_begin, launch over the interior, hcl_halo_end, then, launch over the strips (hcl_halo_parts; empty parts are not
 * launched): the exchange travels while the interior is computed. Without an interior to hide it behind,
 * hcl_halo_exchange, then, and one launch over every cell. */
HclStatus hcl_halo_overlap(Halo *halo, HaloOverlap how, CellBoxLaunch launch, void *context);

#endif
