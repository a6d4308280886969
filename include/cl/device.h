/* SPDX-License-Identifier: BSD-3-Clause */
/* device.h: every OpenCL device on the machine, what it can do, and which one a run takes.
 *
 * Selection strings (--device, HYDROCL_DEVICE):
 *   auto     the best GPU that passes the checks, else the PoCL CPU device (never simply platform 0 device 0)
 *   P:D      platform P, device D, as `hydrocl info` prints them (the whole string: "4090" is a name)
 *   gpu|cpu  the best device of that type
 *   TEXT     any device whose platform, device or vendor name contains TEXT, case-insensitively ("nvidia")
 * Among several matching devices, node-local rank r takes the (r mod n)-th in order of preference. */
#ifndef HYDROCL_DEVICE_H
#define HYDROCL_DEVICE_H

#include "status.h"

#include <stdbool.h>
#include <stdint.h>

#include <CL/cl.h>

typedef enum {
  DEVICE_VENDOR_NVIDIA,
  DEVICE_VENDOR_AMD,
  DEVICE_VENDOR_INTEL,
  DEVICE_VENDOR_POCL,
  DEVICE_VENDOR_OTHER
} DeviceVendor;
typedef enum { DEVICE_TYPE_GPU, DEVICE_TYPE_CPU, DEVICE_TYPE_ACCELERATOR, DEVICE_TYPE_OTHER } DeviceType;

typedef struct {
  int platform_index; /* P and D of the P:D selection string */
  int device_index;
  cl_platform_id platform;
  cl_device_id id;
  char platform_name[128];
  char device_name[128];
  char vendor_name[128];
  char driver_version[64];
  char opencl_c_version[64]; /* "OpenCL C 1.2 PoCL" */
  char opencl_version
      [256]; /* the device's OpenCL version, "OpenCL 3.0 CUDA" (PoCL adds its host triple); "" when it does not say */
  int opencl_c_major;
  int opencl_c_minor;
  DeviceVendor vendor;
  DeviceType type;
  bool fp64;
  bool unified_memory; /* integrated GPU or CPU: shares host memory */
  uint64_t global_mem_bytes;
  uint64_t max_alloc_bytes;
  uint64_t local_mem_bytes;
  unsigned compute_units;
  unsigned clock_mhz;
  size_t max_work_group_size;
  /* What could remove launches (issue 30), by the device's extension list and queries; none of it is used yet. */
  bool subgroups;      /* cl_khr_subgroups: work-items of a sub-group exchange values without local memory */
  bool command_buffer; /* cl_khr_command_buffer: a recorded sequence of launches enqueued at once */
  bool device_enqueue; /* OpenCL 2.x device-side enqueue: kernels that enqueue kernels */
  char refused[256];   /* why the device cannot be used at all (a failed query) and the fix; "" when it can */
} DeviceInfo;

/* What a job asks of a device; zero fields ask nothing. */
typedef struct {
  bool fp64;
  uint64_t global_bytes; /* all buffers together */
  uint64_t alloc_bytes;  /* the largest single buffer */
} DeviceNeeds;

/* Queries every platform and device. *devices is caller-owned (free); a machine without OpenCL platforms gives
 * HCL_ENODEVICE with the packages to install. */
HclStatus hcl_device_list(DeviceInfo **devices, int *count);

/* clGetDeviceInfo's signature: hcl_device_describe asks through it, so tests can feed made-up answers and failures. */
typedef cl_int (*DeviceInfoQuery)(cl_device_id id, cl_device_info param, size_t size, void *value, size_t *size_ret);

/* Fills dev's device properties through query (clGetDeviceInfo in hcl_device_list); dev->platform_name must be set.
 * A failing query does not stop the listing: dev->refused names it and the fix, so hcl_device_check refuses the device
 * and the others stay usable; a failing fp64 query only means no fp64. */
void hcl_device_describe(DeviceInfoQuery query, cl_device_id id, DeviceInfo *dev);

/* HCL_OK when dev meets needs; otherwise HCL_ENODEVICE, with which check failed and what to do in why. */
HclStatus hcl_device_check(const DeviceInfo *dev, const DeviceNeeds *needs, char *why, size_t why_size);

/* Picks devices[*chosen] for the selection string and node-local rank (see above). *shared is set when more
 * node-local ranks than matching devices forced ranks to share one. Pure: no OpenCL calls, so tests can feed it
 * made-up machines. An unparsable or unmatched string is HCL_EUSAGE; matched devices that all fail a check give
 * HCL_ENODEVICE with each one's reason. */
HclStatus hcl_device_select(const DeviceInfo *devices, int count, const char *selector, const DeviceNeeds *needs,
                            int node_rank, int node_size, int *chosen, bool *shared);

const char *hcl_device_vendor_name(DeviceVendor vendor); /* "NVIDIA", "AMD", "Intel", "PoCL", "other" */
const char *hcl_device_type_name(DeviceType type);       /* "gpu", "cpu", "accelerator", "other" */

#endif
