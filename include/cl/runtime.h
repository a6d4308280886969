/* SPDX-License-Identifier: BSD-3-Clause */
/* runtime.h: one OpenCL context on the chosen device with two in-order queues, buffers, kernel launches and the
 * per-kernel profile (--profile). A Runtime is created once per rank and lives for the whole run.
 *
 * The compute queue (hcl_runtime_queue) carries every kernel in order. The transfer queue carries the copies between
 * device and host of ghost-layer exchanges with other ranks (halo.h), so that they run beside the kernels computing
 * interior points where the device has copy engines; the two are ordered by events only where an exchange's
 * strips are packed and where they are unpacked. */
#ifndef HYDROCL_RUNTIME_H
#define HYDROCL_RUNTIME_H

#include "device.h"
#include "precision.h"
#include "status.h"

#include <stdbool.h>
#include <stdio.h>

#include <CL/cl.h>

typedef struct Runtime Runtime;

typedef struct {
  const char *kernel_dir; /* read kernels_cl sources from this folder instead of the embedded copies; NULL: embedded */
  bool profile;           /* time every launch through events and keep per-kernel totals */
} RuntimeOptions;

/* Creates the context and queue on dev (copied). A kernel_dir that is not a readable folder is HCL_ENOINPUT. */
HclStatus hcl_runtime_create(const DeviceInfo *dev, const RuntimeOptions *options, Runtime **out);
/* Releases everything; NULL-safe; sets *rt to NULL. */
void hcl_runtime_destroy(Runtime **rt);

const DeviceInfo *hcl_runtime_device(const Runtime *rt); /* borrowed */
const char *hcl_runtime_kernel_dir(const Runtime *rt);   /* NULL: embedded sources */
cl_context hcl_runtime_context(const Runtime *rt);
cl_command_queue hcl_runtime_queue(const Runtime *rt); /* the compute queue */
typedef enum { QUEUE_COMPUTE, QUEUE_TRANSFER } RuntimeQueue;
cl_command_queue hcl_runtime_queue_of(const Runtime *rt, RuntimeQueue which);

/* The program cache (program.h builds through it): every program built on this runtime is kept, with the source
 * text and the option string it was built from, until the runtime is destroyed, so that identical programs (halo.cl
 * for every field set, reduce.cl for every reducer, a multigrid level's kernels) are built once per run.
 * hcl_runtime_find_program returns the program built from exactly this source with exactly these options, retained once
 * more for the caller (who releases it), or NULL; hcl_runtime_keep_program retains program for later finds. */
cl_program hcl_runtime_find_program(Runtime *rt, const char *source, const char *options);
HclStatus hcl_runtime_keep_program(Runtime *rt, const char *source, const char *options, cl_program program);
/* Programs built, and builds saved by the cache, since the runtime's creation. */
void hcl_runtime_program_counts(const Runtime *rt, long *built, long *reused);

/* A device buffer of bytes, zeroed; what names it in messages ("eta", "bandwidth copy source"). Caller releases it
 * with clReleaseMemObject. Sizes above the device's max allocation are refused with both numbers. */
HclStatus hcl_runtime_buffer(Runtime *rt, size_t bytes, const char *what, cl_mem *out);
/* The bytes of every buffer hcl_runtime_buffer made since the runtime's creation (released ones included): what a
 * component takes, as the difference around its creation. */
double hcl_runtime_buffer_bytes(const Runtime *rt);
/* Enqueues zeroing the first bytes of buffer (any size: large ones in patterns few enough for every driver). */
HclStatus hcl_runtime_zero(Runtime *rt, cl_mem buffer, size_t bytes);

/* A read-only device table of n values given in double, stored in precision p (a kernel's constant weights); what
 * names it in messages. Blocking. Caller releases *out. */
HclStatus hcl_runtime_upload_reals(Runtime *rt, Precision p, const double *values, size_t n, const char *what,
                                   cl_mem *out);

/* 1 where 2D kernels over a block of cells launch exactly over its nx x ny cells (CPUs: kernels built with
 * -DEXACT_GRID=1 have no bounds guard, which would make PoCL mask every load), 0 where the launch is padded to whole
 * work-groups of the tuned shape (GPUs). */
int hcl_runtime_exact_grid(const DeviceInfo *dev);
/* The launch shape of a 2D kernel over nx x ny cells with work-groups of wg_x x wg_y on GPUs (halved, rows first,
 * where the device's largest work-group is smaller), repeated rows_of_groups times along y: padded to whole
 * work-groups there; on CPUs exactly the cells, in work-groups of a
 * whole row (the largest divisor of nx the device allows) by one. */
void hcl_runtime_grid_shape(const Runtime *rt, int nx, int ny, int wg_x, int wg_y, int rows_of_groups, size_t global[2],
                            size_t local[2]);
/* Enqueues kernel on the compute queue over global from offset (NULL: none); local may be NULL. bytes_moved is the
 * DRAM traffic the launch must cause (reads + writes of its arrays), used for the effective bandwidth in the
 * profile. If event is not NULL it receives the launch's event (caller releases); the queues always have profiling
 * enabled, so the event carries timestamps. */
HclStatus hcl_runtime_launch(Runtime *rt, cl_kernel kernel, cl_uint dims, const size_t *offset, const size_t *global,
                             const size_t *local, double bytes_moved, cl_event *event);

/* Waits for all work queued on the compute queue (every kernel; the transfer queue's copies are ordered with it by
 * the exchanges themselves) and folds finished launches into the profile. Counted as a wait. */
HclStatus hcl_runtime_finish(Runtime *rt);
/* A blocking read of bytes at offset of buffer into host, after the work queued before it; counted as a wait. */
HclStatus hcl_runtime_read(Runtime *rt, cl_mem buffer, size_t offset, size_t bytes, void *host);
/* Counts a wait for the device that the caller made itself (on its own events). */
void hcl_runtime_count_wait(Runtime *rt);

/* What the host has asked of the device so far: kernel launches (hcl_runtime_launch) and waits for it (hcl_runtime_finish,
 * hcl_runtime_read, hcl_runtime_count_wait), each a round trip the launch floor is made of. Benchmarks report them per
 * iteration and per step (issue 30); they depend on the algorithm, not on the device. */
typedef struct {
  long launches, waits;
} RuntimeCounts;
RuntimeCounts hcl_runtime_counts(const Runtime *rt);

/* Seconds between an event's start and end timestamps. */
HclStatus hcl_runtime_event_seconds(cl_event event, double *seconds);

/* Benchmarks' access to the profile: turn it on or off, forget what it holds (after waiting for the queue), and
 * the kernel time and counted bytes of one kernel (0 when it has not run) or of all kernels since the last clear. */
void hcl_runtime_set_profile(Runtime *rt, bool on);
HclStatus hcl_runtime_profile_clear(Runtime *rt);
HclStatus hcl_runtime_profile_seconds(Runtime *rt, const char *kernel, double *seconds, double *bytes);
HclStatus hcl_runtime_profile_total(Runtime *rt, double *seconds, double *bytes); /* bytes may be NULL */

/* Prints the per-kernel profile (calls, time, effective GB/s) to out; nothing when profiling is off. */
HclStatus hcl_runtime_profile_report(Runtime *rt, FILE *out);

#endif
