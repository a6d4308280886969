/* SPDX-License-Identifier: BSD-3-Clause */
/* test_device_select.c: the --device rules on made-up machines (hcl_device_select is pure, so no OpenCL needed), and
 * hcl_device_describe through a made-up clGetDeviceInfo that fails one query. */
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "../support/tap.h"

static const uint64_t GiB = 1024ULL * 1024 * 1024;

static DeviceInfo make(int p, int d, const char *platform, const char *name, DeviceVendor vendor, DeviceType type,
                       uint64_t memory, bool fp64) {
  DeviceInfo dev;
  memset(&dev, 0, sizeof dev);
  dev.platform_index = p;
  dev.device_index = d;
  snprintf(dev.platform_name, sizeof dev.platform_name, "%s", platform);
  snprintf(dev.device_name, sizeof dev.device_name, "%s", name);
  snprintf(dev.vendor_name, sizeof dev.vendor_name, "%s",
           vendor == DEVICE_VENDOR_NVIDIA ? "NVIDIA Corporation"
           : vendor == DEVICE_VENDOR_AMD  ? "Advanced Micro Devices, Inc."
                                          : "AuthenticAMD");
  snprintf(dev.opencl_c_version, sizeof dev.opencl_c_version, "OpenCL C 1.2");
  dev.opencl_c_major = 1;
  dev.opencl_c_minor = 2;
  dev.vendor = vendor;
  dev.type = type;
  dev.fp64 = fp64;
  dev.unified_memory = type == DEVICE_TYPE_CPU;
  dev.global_mem_bytes = memory;
  dev.max_alloc_bytes = memory / 4;
  dev.compute_units = type == DEVICE_TYPE_GPU ? 132 : 16;
  return dev;
}

/* A typical NVIDIA node with PoCL installed: PoCL is platform 0, the GPU platform 1. */
static void nvidia_node(DeviceInfo devs[2]) {
  devs[0] = make(0, 0, "Portable Computing Language", "cpu-sapphirerapids-Intel(R) Xeon(R)", DEVICE_VENDOR_POCL,
                 DEVICE_TYPE_CPU, 128 * GiB, true);
  devs[1] = make(1, 0, "NVIDIA CUDA", "NVIDIA H100 80GB HBM3", DEVICE_VENDOR_NVIDIA, DEVICE_TYPE_GPU, 80 * GiB, true);
}

/* A made-up GPU behind clGetDeviceInfo's signature; the property named by failing_param fails. */
static cl_device_info failing_param;

static cl_int fake_query(cl_device_id id, cl_device_info param, size_t size, void *value, size_t *size_ret) {
  const char *text = param == CL_DEVICE_NAME               ? "Made-up GPU"
                     : param == CL_DEVICE_VENDOR           ? "NVIDIA Corporation"
                     : param == CL_DEVICE_OPENCL_C_VERSION ? "OpenCL C 1.2"
                     : param == CL_DRIVER_VERSION          ? "1.0"
                     : param == CL_DEVICE_VERSION          ? "OpenCL 3.0 Made-up"
                     /* cl_khr_subgroups, and only an extension of cl_khr_command_buffer, not itself */
                     : param == CL_DEVICE_EXTENSIONS
                         ? "cl_khr_fp64 cl_khr_subgroups cl_khr_command_buffer_mutable_dispatch"
                         : NULL;
  cl_ulong number = param == CL_DEVICE_TYPE                 ? CL_DEVICE_TYPE_GPU
                    : param == CL_DEVICE_GLOBAL_MEM_SIZE    ? 8 * GiB
                    : param == CL_DEVICE_MAX_MEM_ALLOC_SIZE ? 2 * GiB
                    : param == CL_DEVICE_DOUBLE_FP_CONFIG   ? CL_FP_FMA
                                                            : 1;
  (void)id;
  if (param == failing_param) {
    return CL_OUT_OF_RESOURCES;
  }
  if (param == 0x1050 && value) { /* CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE: 0, no device-side enqueue (OpenCL 3.0) */
    memset(value, 0, size);
    return CL_SUCCESS;
  }
  if (text && size_ret) {
    *size_ret = strlen(text) + 1;
  }
  if (!value) { /* a query for the size alone */
    return CL_SUCCESS;
  }
  if (text) {
    snprintf(value, size, "%s", text);
  } else if (size == sizeof(cl_ulong)) {
    memcpy(value, &number, size);
  } else { /* cl_uint, cl_bool, size_t of another width: 1 */
    memset(value, 0, size);
    *(unsigned char *)value = 1;
  }
  return CL_SUCCESS;
}

/* The made-up GPU as platform 1 beside the PoCL CPU of nvidia_node, described through fake_query. */
static void described_node(DeviceInfo devs[2], cl_device_info fail) {
  nvidia_node(devs);
  memset(&devs[1], 0, sizeof devs[1]);
  devs[1].platform_index = 1;
  snprintf(devs[1].platform_name, sizeof devs[1].platform_name, "NVIDIA CUDA");
  failing_param = fail;
  hcl_device_describe(fake_query, NULL, &devs[1]);
}

static int pick(const DeviceInfo *devs, int n, const char *selector, DeviceNeeds needs, HclStatus *s) {
  int chosen = -1;
  bool shared = false;
  hcl_status_clear();
  *s = hcl_device_select(devs, n, selector, &needs, 0, 1, &chosen, &shared);
  return chosen;
}

int main(void) {
  DeviceInfo node[2];
  DeviceNeeds none = {0}, fp64 = {.fp64 = true};
  HclStatus s;
  nvidia_node(node);

  TAP_OK(pick(node, 2, "auto", none, &s) == 1 && s == HCL_OK, "auto picks the GPU, not platform 0 device 0");
  TAP_OK(pick(node, 2, NULL, none, &s) == 1, "no selector means auto");
  TAP_OK(pick(node, 2, "gpu", none, &s) == 1, "gpu picks the GPU");
  TAP_OK(pick(node, 2, "cpu", none, &s) == 0, "cpu picks the PoCL CPU");
  TAP_OK(pick(node, 2, "1:0", none, &s) == 1, "P:D picks by index");
  TAP_OK(pick(node, 2, "0:0", none, &s) == 0, "0:0 picks platform 0 device 0 when asked");
  TAP_OK(pick(node, 2, "nvidia", none, &s) == 1, "'nvidia' matches the vendor");
  TAP_OK(pick(node, 2, "h100", none, &s) == 1, "'h100' matches the device name case-insensitively");
  TAP_OK(pick(node, 2, "pocl", none, &s) == 0, "'pocl' matches PoCL's platform");
  TAP_OK(pick(node, 2, "Portable", none, &s) == 0, "a platform-name substring matches");

  pick(node, 2, "no-such-device", none, &s);
  TAP_OK(s == HCL_EUSAGE, "an unmatched string is a usage error");
  TAP_OK(tap_contains(hcl_status_message(), "no-such-device") && tap_contains(hcl_status_message(), "1:0 NVIDIA H100"),
         "its message names the string and lists the devices: %s", hcl_status_message());
  pick(node, 2, "1:x", none, &s);
  TAP_OK(s == HCL_EUSAGE && tap_contains(hcl_status_message(), "P:D"), "a malformed P:D is a usage error");
  pick(node, 2, "3:0", none, &s);
  TAP_OK(s == HCL_EUSAGE, "an index beyond the machine is a usage error");

  /* A name that starts with a digit is a name, not a malformed P:D. */
  DeviceInfo gamer[2];
  nvidia_node(gamer);
  snprintf(gamer[1].device_name, sizeof gamer[1].device_name, "NVIDIA GeForce RTX 4090");
  TAP_OK(pick(gamer, 2, "4090", none, &s) == 1 && s == HCL_OK, "'4090' matches the device name %s",
         hcl_status_message());
  TAP_OK(pick(gamer, 2, "0:0", none, &s) == 0, "while the whole string '0:0' is still P:D");
  pick(gamer, 2, "1:0x", none, &s);
  TAP_OK(s == HCL_EUSAGE && tap_contains(hcl_status_message(), "P:D"), "'1:0x' is no P:D and matches no name: %s",
         hcl_status_message());

  /* Checks: fp64, memory, OpenCL C version. */
  DeviceInfo gaming[2];
  nvidia_node(gaming);
  gaming[1].fp64 = false;
  TAP_OK(pick(gaming, 2, "auto", fp64, &s) == 0, "auto falls back to the PoCL CPU when the GPU lacks fp64");
  TAP_OK(pick(gaming, 2, "auto", none, &s) == 1, "without an fp64 need the GPU is taken");
  pick(gaming, 2, "gpu", fp64, &s);
  TAP_OK(s == HCL_ENODEVICE && tap_contains(hcl_status_message(), "fp64") &&
             tap_contains(hcl_status_message(), "--precision single"),
         "a GPU without fp64 is refused for double with the fix: %s", hcl_status_message());
  DeviceNeeds huge = {.global_bytes = 100 * GiB};
  TAP_OK(pick(node, 2, "auto", huge, &s) == 0, "a job larger than the GPU goes to the larger CPU device");
  pick(node, 2, "gpu", huge, &s);
  TAP_OK(s == HCL_ENODEVICE && tap_contains(hcl_status_message(), "global memory"), "and gpu refuses it: %s",
         hcl_status_message());
  DeviceNeeds big_buffer = {.alloc_bytes = 30 * GiB};
  pick(node, 2, "gpu", big_buffer, &s);
  TAP_OK(s == HCL_ENODEVICE && tap_contains(hcl_status_message(), "MAX_MEM_ALLOC"),
         "a buffer above max alloc is refused");
  DeviceInfo old[2];
  nvidia_node(old);
  old[1].opencl_c_minor = 1;
  snprintf(old[1].opencl_c_version, sizeof old[1].opencl_c_version, "OpenCL C 1.1");
  TAP_OK(pick(old, 2, "auto", none, &s) == 0, "an OpenCL C 1.1 GPU is passed over");
  pick(old, 2, "gpu", none, &s);
  TAP_OK(s == HCL_ENODEVICE && tap_contains(hcl_status_message(), "1.2"), "and refused by name: %s",
         hcl_status_message());

  /* A device that fails a query is listed as refused, with the query and the fix; the others stay usable. */
  DeviceInfo described[2];
  described_node(described, 0);
  TAP_OK(!described[1].refused[0] && described[1].fp64 && described[1].type == DEVICE_TYPE_GPU &&
             described[1].global_mem_bytes == 8 * GiB && strcmp(described[1].device_name, "Made-up GPU") == 0,
         "hcl_device_describe reads every property through its query: %s", described[1].refused);
  TAP_OK(pick(described, 2, "auto", fp64, &s) == 1, "and the described GPU is picked");
  TAP_OK(strcmp(described[1].opencl_version, "OpenCL 3.0 Made-up") == 0 && described[1].subgroups &&
             !described[1].command_buffer && !described[1].device_enqueue,
         "its OpenCL version and extensions: sub-groups, no command buffers for an extension of theirs, no "
         "device-side enqueue for a queue of size 0 (%s)",
         described[1].opencl_version);
  described_node(described, CL_DEVICE_GLOBAL_MEM_SIZE);
  TAP_OK(tap_contains(described[1].refused, "CL_DEVICE_GLOBAL_MEM_SIZE") &&
             tap_contains(described[1].refused, "CL_OUT_OF_RESOURCES"),
         "a failing query refuses the device with its name and error: %s", described[1].refused);
  TAP_OK(pick(described, 2, "auto", none, &s) == 0 && s == HCL_OK, "auto passes it over for the CPU");
  pick(described, 2, "1:0", none, &s);
  TAP_OK(s == HCL_ENODEVICE && tap_contains(hcl_status_message(), "CL_DEVICE_GLOBAL_MEM_SIZE"),
         "and asking for it says why it is refused: %s", hcl_status_message());
  described_node(described, CL_DEVICE_DOUBLE_FP_CONFIG);
  TAP_OK(!described[1].refused[0] && !described[1].fp64, "a failing fp64 query means no fp64, not a refusal");
  TAP_OK(pick(described, 2, "auto", none, &s) == 1 && pick(described, 2, "auto", fp64, &s) == 0,
         "so the GPU serves single precision only");

  /* Preference: discrete before integrated, more memory first. */
  DeviceInfo laptop[3];
  laptop[0] =
      make(0, 0, "Intel(R) OpenCL Graphics", "Intel Iris Xe", DEVICE_VENDOR_INTEL, DEVICE_TYPE_GPU, 8 * GiB, false);
  laptop[0].unified_memory = true;
  laptop[1] =
      make(1, 0, "AMD Accelerated Parallel Processing", "gfx1100", DEVICE_VENDOR_AMD, DEVICE_TYPE_GPU, 4 * GiB, true);
  laptop[2] = make(2, 0, "Portable Computing Language", "cpu", DEVICE_VENDOR_POCL, DEVICE_TYPE_CPU, 16 * GiB, true);
  TAP_OK(pick(laptop, 3, "auto", none, &s) == 1, "a discrete GPU beats an integrated one with more memory");
  TAP_OK(pick(laptop, 3, "amd", none, &s) == 1, "'amd' matches AMD's platform");

  /* Several node-local ranks spread over several GPUs; more ranks than GPUs share and say so. */
  DeviceInfo two_gpu[3];
  two_gpu[0] = node[0];
  two_gpu[1] = node[1];
  two_gpu[2] =
      make(1, 1, "NVIDIA CUDA", "NVIDIA H100 80GB HBM3", DEVICE_VENDOR_NVIDIA, DEVICE_TYPE_GPU, 80 * GiB, true);
  int chosen[3];
  bool shared[3];
  for (int r = 0; r < 3; r++) {
    hcl_device_select(two_gpu, 3, "auto", &none, r, 3, &chosen[r], &shared[r]);
  }
  TAP_OK(chosen[0] == 1 && chosen[1] == 2 && chosen[2] == 1, "ranks 0, 1, 2 take GPUs 1:0, 1:1, 1:0");
  TAP_OK(shared[0] && shared[2], "three ranks on two GPUs are flagged as sharing");
  hcl_device_select(two_gpu, 3, "auto", &none, 1, 2, &chosen[1], &shared[1]);
  TAP_OK(!shared[1], "two ranks on two GPUs do not share");
  hcl_device_select(node, 2, "cpu", &none, 1, 2, &chosen[1], &shared[1]);
  TAP_OK(chosen[1] == 0 && !shared[1], "ranks sharing the CPU device are not flagged");
  return tap_done();
}
