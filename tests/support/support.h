/* SPDX-License-Identifier: BSD-3-Clause */
/* support.h: a runtime on the device a test should use (HYDROCL_DEVICE, else auto), for tests of the layers above
 * the device layer, and agreement of assertions over MPI ranks. */
#ifndef HYDROCL_TEST_SUPPORT_H
#define HYDROCL_TEST_SUPPORT_H

#include <stdio.h>
#include <stdlib.h>

#include "field.h"
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
  TRY(hcl_device_list(&devices, &count));
  TRY(hcl_device_select(devices, count, selector ? selector : "auto", &needs, hcl_par_node_rank(), hcl_par_node_size(),
                        &chosen, &shared));
  TRY(hcl_runtime_create(&devices[chosen], &options, rt));
cleanup:
  free(devices);
  return status;
}

/* The start of an MPI test: MPI (hcl_par_init), rank 0 alone writing to stdout (TAP), and the devices (caller frees;
 * NULL devices: none wanted). Collective. */
static inline HclStatus test_start(int *argc, char ***argv, DeviceInfo **devices, int *count) {
  HclStatus status = hcl_par_init(argc, argv);
  if (hcl_par_rank() != 0) {
    (void)!freopen("/dev/null", "w", stdout);
  }
  if (status == HCL_OK && devices) {
    status = hcl_par_agree(hcl_device_list(devices, count));
  }
  return status;
}

/* test_start with the runtime a test should use (test_open_runtime), agreed over the ranks. Collective. */
static inline HclStatus test_start_runtime(int *argc, char ***argv, bool need_fp64, Runtime **rt) {
  HclStatus status = test_start(argc, argv, NULL, NULL);
  if (status == HCL_OK) {
    status = hcl_par_agree(test_open_runtime(need_fp64, rt));
  }
  return status;
}

/* Copies this rank's block of the global array (global_nx wide, x fastest) into the owned points of f. */
static inline HclStatus test_write_block(Field *f, const double *global, int global_nx) {
  HclStatus status = HCL_OK;
  const DecompLocal *l = hcl_decomp_local(hcl_field_decomp(f));
  double *block = NULL;
  TRY_ALLOC(block, (size_t)l->nx * l->ny);
  for (int j = 0; j < l->ny; j++) {
    for (int i = 0; i < l->nx; i++) {
      block[j * l->nx + i] = global[(size_t)(l->y0 + j) * global_nx + l->x0 + i];
    }
  }
  TRY(hcl_field_write_owned(f, block));
cleanup:
  free(block);
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
