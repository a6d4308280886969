/* SPDX-License-Identifier: BSD-3-Clause */
/* device.c: OpenCL device discovery, capability checks and the selection rules of device.h. */
#include "device.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clerror.h"

const char *hcl_device_vendor_name(DeviceVendor vendor) {
  static const char *const names[] = {"NVIDIA", "AMD", "Intel", "PoCL", "other"};
  return names[vendor];
}

const char *hcl_device_type_name(DeviceType type) {
  static const char *const names[] = {"gpu", "cpu", "accelerator", "other"};
  return names[type];
}

static bool contains_nocase(const char *haystack, const char *needle) {
  size_t n = strlen(needle);
  if (n == 0) {
    return false;
  }
  for (const char *h = haystack; *h; h++) {
    size_t i = 0;
    while (i < n && h[i] && tolower((unsigned char)h[i]) == tolower((unsigned char)needle[i])) {
      i++;
    }
    if (i == n) {
      return true;
    }
  }
  return false;
}

static DeviceVendor classify_vendor(const char *platform_name, const char *vendor_name) {
  /* PoCL first: its CPU device reports the CPU maker ("AuthenticAMD", "GenuineIntel") as vendor. */
  if (contains_nocase(platform_name, "Portable Computing Language") || contains_nocase(platform_name, "pocl")) {
    return DEVICE_VENDOR_POCL;
  }
  if (contains_nocase(vendor_name, "NVIDIA") || contains_nocase(platform_name, "NVIDIA")) {
    return DEVICE_VENDOR_NVIDIA;
  }
  if (contains_nocase(vendor_name, "Advanced Micro Devices") || contains_nocase(vendor_name, "AMD") ||
      contains_nocase(platform_name, "AMD")) {
    return DEVICE_VENDOR_AMD;
  }
  if (contains_nocase(vendor_name, "Intel") || contains_nocase(platform_name, "Intel")) {
    return DEVICE_VENDOR_INTEL;
  }
  return DEVICE_VENDOR_OTHER;
}

static DeviceType classify_type(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU) {
    return DEVICE_TYPE_GPU;
  }
  if (type & CL_DEVICE_TYPE_CPU) {
    return DEVICE_TYPE_CPU;
  }
  if (type & CL_DEVICE_TYPE_ACCELERATOR) {
    return DEVICE_TYPE_ACCELERATOR;
  }
  return DEVICE_TYPE_OTHER;
}

/* One property of a device: where it goes and its name for messages. */
typedef struct {
  cl_device_info param;
  const char *name;
  void *value;
  size_t size;
} DeviceQuery;

#define DEVICE_QUERY(param, field)                                                                                     \
  { (param), #param, &(field), sizeof(field) }

/* For the tests of small devices: HYDROCL_LIMIT_LOCAL_MEM (bytes) and HYDROCL_LIMIT_WORK_GROUP (work-items) lower
 * what the device reports, never raise it; everything that sizes itself by the device then sizes itself by these.
 * HYDROCL_DEVICE_AS_GPU=1 takes the device for a GPU: every choice made by device type (the exact grid of CPUs, the
 * reductions' work-groups, the multigrid's one-launch tail) takes the GPU's side, so that a run on PoCL builds the
 * programs, with the options, that a GPU would get (tools/kernels-offline records them). Both sides run anywhere. */
static void apply_test_limits(DeviceInfo *d) {
  const char *local = getenv("HYDROCL_LIMIT_LOCAL_MEM"), *group = getenv("HYDROCL_LIMIT_WORK_GROUP");
  const char *as_gpu = getenv("HYDROCL_DEVICE_AS_GPU");
  unsigned long long limit = 0;
  if (as_gpu && strcmp(as_gpu, "1") == 0) {
    d->type = DEVICE_TYPE_GPU;
  }
  if (local && sscanf(local, "%llu", &limit) == 1 && limit > 0 && limit < d->local_mem_bytes) {
    d->local_mem_bytes = limit;
  }
  if (group && sscanf(group, "%llu", &limit) == 1 && limit > 0 && limit < d->max_work_group_size) {
    d->max_work_group_size = (size_t)limit;
  }
}

/* OpenCL 2.0's CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, which the headers' 1.2 target leaves out: no answer (before 2.0)
 * or 0 (3.0, where device-side enqueue is optional) where kernels cannot enqueue kernels. */
enum { QUERY_QUEUE_ON_DEVICE_MAX_SIZE = 0x1050 };

/* Whether the device's CL_DEVICE_EXTENSIONS, a list separated by spaces, names extension. */
static bool has_extension(DeviceInfoQuery query, cl_device_id id, const char *extension) {
  size_t size = 0, length = strlen(extension);
  bool found = false;
  if (query(id, CL_DEVICE_EXTENSIONS, 0, NULL, &size) != CL_SUCCESS || size == 0) {
    return false;
  }
  char *list = calloc(size + 1, 1);
  if (list && query(id, CL_DEVICE_EXTENSIONS, size, list, NULL) == CL_SUCCESS) {
    for (const char *at = list; !found && (at = strstr(at, extension)) != NULL; at += length) {
      found = (at == list || at[-1] == ' ') && (at[length] == ' ' || at[length] == '\0');
    }
  }
  free(list);
  return found;
}

void hcl_device_describe(DeviceInfoQuery query, cl_device_id id, DeviceInfo *d) {
  cl_device_type type = 0;
  cl_ulong global_mem = 0, max_alloc = 0, local_mem = 0;
  cl_uint units = 0, clock = 0;
  cl_bool unified = CL_FALSE;
  cl_device_fp_config fp64_config = 0;
  const DeviceQuery queries[] = {
      DEVICE_QUERY(CL_DEVICE_NAME, d->device_name),
      DEVICE_QUERY(CL_DEVICE_VENDOR, d->vendor_name),
      DEVICE_QUERY(CL_DRIVER_VERSION, d->driver_version),
      DEVICE_QUERY(CL_DEVICE_OPENCL_C_VERSION, d->opencl_c_version),
      DEVICE_QUERY(CL_DEVICE_TYPE, type),
      DEVICE_QUERY(CL_DEVICE_GLOBAL_MEM_SIZE, global_mem),
      DEVICE_QUERY(CL_DEVICE_MAX_MEM_ALLOC_SIZE, max_alloc),
      DEVICE_QUERY(CL_DEVICE_LOCAL_MEM_SIZE, local_mem),
      DEVICE_QUERY(CL_DEVICE_MAX_COMPUTE_UNITS, units),
      DEVICE_QUERY(CL_DEVICE_MAX_CLOCK_FREQUENCY, clock),
      DEVICE_QUERY(CL_DEVICE_HOST_UNIFIED_MEMORY, unified),
      DEVICE_QUERY(CL_DEVICE_MAX_WORK_GROUP_SIZE, d->max_work_group_size),
  };
  d->id = id;
  for (size_t i = 0; i < sizeof queries / sizeof queries[0]; i++) {
    cl_int err = query(id, queries[i].param, queries[i].size, queries[i].value, NULL);
    if (err != CL_SUCCESS && !d->refused[0]) {
      snprintf(d->refused, sizeof d->refused,
               "does not answer clGetDeviceInfo(%s) (%s); update or reinstall its "
               "OpenCL driver, or choose another device",
               queries[i].name, hcl_cl_error_name(err));
    }
  }
  /* CL_DEVICE_DOUBLE_FP_CONFIG is zero on devices without fp64 (OpenCL 1.2 section 4.2); a driver that does not
   * answer is taken at its word that it has none. */
  if (query(id, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64_config, &fp64_config, NULL) != CL_SUCCESS) {
    fp64_config = 0;
  }
  if (query(id, CL_DEVICE_VERSION, sizeof d->opencl_version, d->opencl_version, NULL) != CL_SUCCESS) {
    d->opencl_version[0] = '\0'; /* a driver that does not say (only in tests: OpenCL 1.0 has it) */
  }
  d->subgroups = has_extension(query, id, "cl_khr_subgroups");
  cl_uint on_device_queue = 0;
  d->device_enqueue =
      query(id, QUERY_QUEUE_ON_DEVICE_MAX_SIZE, sizeof on_device_queue, &on_device_queue, NULL) == CL_SUCCESS &&
      on_device_queue > 0;
  d->command_buffer = has_extension(query, id, "cl_khr_command_buffer");
  if (sscanf(d->opencl_c_version, "OpenCL C %d.%d", &d->opencl_c_major, &d->opencl_c_minor) != 2) {
    d->opencl_c_major = 1;
    d->opencl_c_minor = 0;
  }
  d->vendor = classify_vendor(d->platform_name, d->vendor_name);
  d->type = classify_type(type);
  d->fp64 = fp64_config != 0;
  d->unified_memory = unified == CL_TRUE;
  d->global_mem_bytes = global_mem;
  d->max_alloc_bytes = max_alloc;
  d->local_mem_bytes = local_mem;
  d->compute_units = units;
  d->clock_mhz = clock;
  apply_test_limits(d);
}

static const char *const install_hint =
    "install an OpenCL driver: 'apt-get install ocl-icd-libopencl1 pocl-opencl-icd' for the CPU, or your GPU "
    "vendor's OpenCL ICD; check with 'clinfo -l'";

HclStatus hcl_device_list(DeviceInfo **devices, int *count) {
  HclStatus status = HCL_OK;
  cl_platform_id *platforms = NULL;
  cl_device_id *ids = NULL;
  DeviceInfo *list = NULL;
  cl_uint nplatforms = 0;
  char platform_name[sizeof list->platform_name];
  int total = 0;
  *devices = NULL;
  *count = 0;
  cl_int err = clGetPlatformIDs(0, NULL, &nplatforms);
  REQUIRE(err == CL_SUCCESS || err == CL_PLATFORM_NOT_FOUND_KHR, HCL_ENODEVICE, "clGetPlatformIDs failed (%s); %s",
          hcl_cl_error_name(err), install_hint);
  REQUIRE(nplatforms > 0, HCL_ENODEVICE, "no OpenCL platform found; %s", install_hint);
  TRY_ALLOC(platforms, nplatforms);
  TRY_CL(clGetPlatformIDs(nplatforms, platforms, NULL));
  for (cl_uint p = 0; p < nplatforms; p++) {
    cl_uint ndevices = 0;
    err = clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, NULL, &ndevices);
    if (err == CL_DEVICE_NOT_FOUND || ndevices == 0) {
      continue; /* a platform without devices (e.g. a driver without its hardware) is not an error */
    }
    TRY_CL(err);
    DeviceInfo *grown = realloc(list, (size_t)(total + (int)ndevices) * sizeof *list);
    REQUIRE(grown != NULL, HCL_ENOMEM, "cannot grow the device list to %d entries", total + (int)ndevices);
    list = grown;
    free(ids);
    TRY_ALLOC(ids, ndevices);
    TRY_CL(clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, ndevices, ids, NULL));
    TRY_CL(clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof platform_name, platform_name, NULL));
    for (cl_uint d = 0; d < ndevices; d++) {
      DeviceInfo *info = &list[total++];
      memset(info, 0, sizeof *info);
      info->platform_index = (int)p;
      info->device_index = (int)d;
      info->platform = platforms[p];
      snprintf(info->platform_name, sizeof info->platform_name, "%s", platform_name);
      hcl_device_describe(clGetDeviceInfo, ids[d], info);
    }
  }
  REQUIRE(total > 0, HCL_ENODEVICE, "%u OpenCL platform(s) but no device; %s", nplatforms, install_hint);
  *devices = list;
  *count = total;
  list = NULL;
cleanup:
  free(platforms);
  free(ids);
  free(list);
  return status;
}

static double gib(uint64_t bytes) {
  return (double)bytes / (1024.0 * 1024.0 * 1024.0);
}

HclStatus hcl_device_check(const DeviceInfo *dev, const DeviceNeeds *needs, char *why, size_t why_size) {
  why[0] = '\0';
  if (dev->refused[0]) {
    snprintf(why, why_size, "%s", dev->refused);
    return HCL_ENODEVICE;
  }
  if (dev->opencl_c_major < 1 || (dev->opencl_c_major == 1 && dev->opencl_c_minor < 2)) {
    snprintf(why, why_size, "supports only %s, hydrocl needs OpenCL C 1.2 or later; update the driver",
             dev->opencl_c_version);
    return HCL_ENODEVICE;
  }
  if (needs->fp64 && !dev->fp64) {
    snprintf(why, why_size,
             "has no fp64 (cl_khr_fp64), needed for double precision; use --precision single or a device with fp64");
    return HCL_ENODEVICE;
  }
  if (needs->global_bytes > dev->global_mem_bytes) {
    snprintf(why, why_size,
             "has %.2f GiB of global memory, the job needs %.2f GiB; use a smaller grid, more ranks, "
             "or a larger device",
             gib(dev->global_mem_bytes), gib(needs->global_bytes));
    return HCL_ENODEVICE;
  }
  if (needs->alloc_bytes > dev->max_alloc_bytes) {
    snprintf(why, why_size,
             "allows buffers of at most %.2f GiB (CL_DEVICE_MAX_MEM_ALLOC_SIZE), the job needs one of "
             "%.2f GiB; use a smaller grid or more ranks",
             gib(dev->max_alloc_bytes), gib(needs->alloc_bytes));
    return HCL_ENODEVICE;
  }
  return HCL_OK;
}

/* Preference class, lower is better: discrete GPU, integrated GPU, accelerator, PoCL CPU, other CPU, other. */
static int preference_class(const DeviceInfo *d) {
  switch (d->type) {
  case DEVICE_TYPE_GPU:
    return d->unified_memory ? 1 : 0;
  case DEVICE_TYPE_ACCELERATOR:
    return 2;
  case DEVICE_TYPE_CPU:
    return d->vendor == DEVICE_VENDOR_POCL ? 3 : 4;
  default:
    return 5;
  }
}

static int compare_preference(const DeviceInfo *a, const DeviceInfo *b) {
  int ca = preference_class(a), cb = preference_class(b);
  if (ca != cb) {
    return ca < cb ? -1 : 1;
  }
  if (a->global_mem_bytes != b->global_mem_bytes) {
    return a->global_mem_bytes > b->global_mem_bytes ? -1 : 1;
  }
  if (a->compute_units != b->compute_units) {
    return a->compute_units > b->compute_units ? -1 : 1;
  }
  if (a->platform_index != b->platform_index) {
    return a->platform_index < b->platform_index ? -1 : 1;
  }
  return a->device_index < b->device_index ? -1 : (a->device_index > b->device_index);
}

typedef enum { MATCH_ALL, MATCH_GPU, MATCH_CPU, MATCH_INDEX, MATCH_TEXT } MatchKind;

static bool matches(const DeviceInfo *d, MatchKind kind, int p, int dev_index, const char *text) {
  switch (kind) {
  case MATCH_ALL:
    return true;
  case MATCH_GPU:
    return d->type == DEVICE_TYPE_GPU;
  case MATCH_CPU:
    return d->type == DEVICE_TYPE_CPU;
  case MATCH_INDEX:
    return d->platform_index == p && d->device_index == dev_index;
  case MATCH_TEXT:
    return contains_nocase(d->platform_name, text) || contains_nocase(d->device_name, text) ||
           contains_nocase(d->vendor_name, text) || contains_nocase(hcl_device_vendor_name(d->vendor), text);
  }
  return false;
}

__attribute__((format(printf, 3, 4))) static void appendf(char *buf, size_t size, const char *fmt, ...) {
  size_t used = strlen(buf);
  if (used + 1 < size) {
    va_list args;
    va_start(args, fmt);
    vsnprintf(buf + used, size - used, fmt, args);
    va_end(args);
  }
}

/* True when text is exactly "P:D" (digits, a colon, digits), setting p and d; anything else, "4090" or "1:0x",
 * is part of a name. Nine digits at most keep the numbers within int. */
static bool parse_index(const char *text, int *p, int *d) {
  static const char digits[] = "0123456789";
  size_t np = strspn(text, digits);
  if (np == 0 || np > 9 || text[np] != ':') {
    return false;
  }
  size_t nd = strspn(text + np + 1, digits);
  return nd > 0 && nd <= 9 && text[np + 1 + nd] == '\0' && sscanf(text, "%d:%d", p, d) == 2;
}

HclStatus hcl_device_select(const DeviceInfo *devices, int count, const char *selector, const DeviceNeeds *needs,
                            int node_rank, int node_size, int *chosen, bool *shared) {
  HclStatus status = HCL_OK;
  int *passing = NULL;
  char refusals[2048] = "";
  char known[2048] = "";
  MatchKind kind = MATCH_TEXT;
  int p = -1, d = -1, nmatched = 0, npassing = 0;
  const char *text = selector && selector[0] ? selector : "auto";
  *chosen = -1;
  *shared = false;
  if (strcmp(text, "auto") == 0) {
    kind = MATCH_ALL;
  } else if (strcmp(text, "gpu") == 0) {
    kind = MATCH_GPU;
  } else if (strcmp(text, "cpu") == 0) {
    kind = MATCH_CPU;
  } else if (parse_index(text, &p, &d)) {
    kind = MATCH_INDEX;
  }
  TRY_ALLOC(passing, count);
  for (int i = 0; i < count; i++) {
    char id[32], why[512];
    snprintf(id, sizeof id, "%d:%d", devices[i].platform_index, devices[i].device_index);
    appendf(known, sizeof known, "\n  %s %s", id, devices[i].device_name);
    if (!matches(&devices[i], kind, p, d, text)) {
      continue;
    }
    nmatched++;
    if (hcl_device_check(&devices[i], needs, why, sizeof why) == HCL_OK) {
      passing[npassing++] = i;
    } else {
      appendf(refusals, sizeof refusals, "\n  %s %s %s", id, devices[i].device_name, why);
    }
  }
  REQUIRE(nmatched > 0, HCL_EUSAGE,
          "no device matches --device '%s'; use auto, gpu, cpu, P:D or part of a name; the devices are:%s", text,
          known);
  REQUIRE(npassing > 0, HCL_ENODEVICE, "every device matching '%s' was refused:%s", text, refusals);
  /* Order by preference (insertion sort: a machine has few devices), keep the best class only. */
  for (int i = 1; i < npassing; i++) {
    int key = passing[i], j = i - 1;
    while (j >= 0 && compare_preference(&devices[key], &devices[passing[j]]) < 0) {
      passing[j + 1] = passing[j];
      j--;
    }
    passing[j + 1] = key;
  }
  int nbest = 1;
  while (nbest < npassing && preference_class(&devices[passing[nbest]]) == preference_class(&devices[passing[0]])) {
    nbest++;
  }
  *chosen = passing[node_rank % nbest];
  *shared = node_size > nbest && devices[*chosen].type != DEVICE_TYPE_CPU;
cleanup:
  free(passing);
  return status;
}
