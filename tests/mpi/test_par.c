/* SPDX-License-Identifier: BSD-3-Clause */
/* test_par.c: run under mpirun -n 2 or more: ranks agree on the first failure, and rank 0 gathers every rank's
 * line. */
#include <stdlib.h>
#include <string.h>

#include <signal.h>

#include "par.h"
#include "signals.h"
#include "../support/support.h"
#include "../support/tap.h"

int main(int argc, char **argv) {
  HclStatus s = test_start(&argc, &argv, NULL, NULL);
  int rank = hcl_par_rank(), size = hcl_par_size();
  TAP_OK(s == HCL_OK && size >= 2, "MPI started with %d ranks", size);
  TAP_OK(hcl_par_node_rank() >= 0 && hcl_par_node_rank() < hcl_par_node_size(), "node-local rank %d of %d",
         hcl_par_node_rank(), hcl_par_node_size());
  TAP_OK(hcl_par_agree(HCL_OK) == HCL_OK, "all ranks succeeding agree on success");
  HclStatus agreed = hcl_par_agree(rank == 1 ? HCL_EDATA : HCL_OK);
  TAP_OK(agreed == HCL_EDATA, "a failure on rank 1 reaches every rank (%s)", hcl_status_name(agreed));
  agreed = hcl_par_agree(rank == 0 ? HCL_ENOINPUT : (rank == 1 ? HCL_EDATA : HCL_OK));
  TAP_OK(agreed == HCL_ENOINPUT, "the lowest failing rank's code wins (%s)", hcl_status_name(agreed));
  hcl_status_clear();
  if (rank == size - 1) {
    hcl_status_set(HCL_EDATA, __FILE__, __LINE__, "cell %d is dry on the last rank", 42);
  }
  agreed = hcl_par_agree(rank == size - 1 ? HCL_EDATA : HCL_OK);
  char want[64];
  snprintf(want, sizeof want, "rank %d failed: cell 42 is dry", size - 1);
  TAP_OK(all_ranks(agreed == HCL_EDATA && tap_contains(hcl_status_message(), rank == size - 1 ? "cell 42" : want)),
         "the failing rank's message reaches every rank: %s", hcl_status_message());
  hcl_status_clear();
  char mine[32], *all = NULL;
  snprintf(mine, sizeof mine, "rank-%d", rank);
  TAP_OK(hcl_par_gather_lines(mine, 32, &all) == HCL_OK, "gather lines");
  if (rank == 0) {
    bool in_order = all != NULL;
    for (int r = 0; r < size && in_order; r++) {
      char want[32];
      snprintf(want, sizeof want, "rank-%d", r);
      in_order = strcmp(all + r * 32, want) == 0;
    }
    TAP_OK(in_order, "rank 0 has every rank's line in rank order");
  } else {
    TAP_OK(all == NULL, "other ranks get nothing");
  }
  free(all);

  hcl_signals_install();
  int caught = -1;
  TAP_OK(hcl_signals_agree(&caught) == HCL_OK && caught == 0, "no stop request at first");
  if (rank == size - 1) {
    raise(SIGUSR1); /* one rank asked to stop: all must stop together */
  }
  TAP_OK(hcl_signals_agree(&caught) == HCL_OK && caught == SIGUSR1, "SIGUSR1 on rank %d reaches every rank", size - 1);
  if (rank == 0) {
    raise(SIGTERM);
  }
  TAP_OK(hcl_signals_agree(&caught) == HCL_OK && caught == SIGTERM &&
             hcl_signals_caught() == (rank == 0          ? SIGTERM
                                      : rank == size - 1 ? SIGUSR1
                                                         : 0),
         "SIGTERM is caught, not fatal, and agreed");
  int status = tap_done();
  hcl_par_finalize();
  return status;
}
