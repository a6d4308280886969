/* SPDX-License-Identifier: BSD-3-Clause */
/* program.h: OpenCL programs built at run time from the sources of kernels_cl/.
 *
 * The sources are embedded in the binary at build time; --kernel-dir / HYDROCL_KERNEL_DIR reads them from a
 * folder instead, for kernel work. Every program is the shared .clh pieces followed by one component's .cl, with
 * #line directives so build logs name the right file and line. */
#ifndef HYDROCL_PROGRAM_H
#define HYDROCL_PROGRAM_H

#include "device.h"
#include "precision.h"
#include "runtime.h"
#include "status.h"

#include <stddef.h>

#include <CL/cl.h>

/* The compile-time parameters of a program: only what enables unrolling; grid extents are kernel arguments. */
typedef struct {
  Precision precision; /* REAL; a run may build one component in several precisions (mixed precision) */
  int stencil_radius;  /* STENCIL_RADIUS, 0 when the component has no stencil */
  int wg_x;            /* WG_X, WG_Y: the work-group shape the host launches with */
  int wg_y;
  const char *defines; /* further "-DNAME=value" options of the component, or NULL */
} KernelConfig;

/* The one place that turns precision, device and config into a build option string; returns its length (the
 * string is cut at size - 1). */
size_t hcl_program_options(const DeviceInfo *dev, const KernelConfig *config, char *buf, size_t size);

/* The full source text of component ("bandwidth" for kernels_cl/bandwidth.cl). Caller frees *text. A component
 * missing from kernel_dir (or from the embedded set) is HCL_ENOINPUT. */
HclStatus hcl_program_source(const char *kernel_dir, const char *component, char **text);

/* Builds component for rt's device with config, or takes the program the runtime's cache holds for the same source
 * and options (runtime.h). A failed build is HCL_EBUILD with the device, the option string and the build log in the
 * message; it is not cached, so a later call tries again. Caller releases *program. */
HclStatus hcl_program_build(Runtime *rt, const char *component, const KernelConfig *config, cl_program *program);

/* Creates kernel name from program. Caller releases *kernel. */
HclStatus hcl_program_kernel(cl_program program, const char *name, cl_kernel *kernel);

/* Builds component and creates its kernels names[0..count) into kernels (hcl_program_build, hcl_program_kernel). Release
 * with hcl_program_release, also after a failure. */
HclStatus hcl_program_build_kernels(Runtime *rt, const char *component, const KernelConfig *config,
                                    const char *const *names, int count, cl_program *program, cl_kernel *kernels);
/* Releases kernels[0..count) and *program where made, and clears them. */
void hcl_program_release(cl_program *program, cl_kernel *kernels, int count);

#endif
