/* support.h: a runtime on the device a test should use (HYDROCL_DEVICE, else auto), for tests of the layers above
 * the device layer, and agreement of assertions over MPI ranks. */
#ifndef HYDROCL_TEST_SUPPORT_H
#define HYDROCL_TEST_SUPPORT_H

#include <stdlib.h>

#include "par.h"
#include "runtime.h"

static inline HclStatus test_open_runtime(bool need_fp64, Runtime **rt) {
  HclStatus status = HCL_OK;
  DeviceInfo *devices = NULL;
  int count = 0, chosen = -1;
  bool shared = false;
  DeviceNeeds needs = {.fp64 = need_fp64};
  const char *selector = getenv("HYDROCL_DEVICE");
  RuntimeOptions options = {0};
  TRY(device_list(&devices, &count));
  TRY(device_select(devices, count, selector ? selector : "auto", &needs, par_node_rank(), par_node_size(), &chosen,
                    &shared));
  TRY(runtime_create(&devices[chosen], &options, rt));
cleanup:
  free(devices);
  return status;
}

/* True on every rank when pass is true on every rank (collective). */
static inline bool all_ranks(bool pass) {
#ifdef HYDROCL_HAVE_MPI
  int mine = pass, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all != 0;
#else
  return pass;
#endif
}

#endif
