/* SPDX-License-Identifier: BSD-3-Clause */
/* test_wave_hump.c: the paper's Table 4 (../shared/papers/fnpf-multigpu-scalability.txt section 5.3) on the wave
 * model, on the test device: the Gaussian hump (wave_hump.h) evolving under ERK4 in a closed 65 x 65 x 9 basin, at
 * dsigma/dx = 4, 2, 1, 0.5 and K = 1, 3 and max restrictions, each solve to the paper's rtol 1e-4 and atol 1e-5 on
 * the residual's 2-norm, time step of Courant number 0.5; the average defect-correction iterations per solve are at
 * most the paper's plus one (issue 8). The paper's numbers are HCL_WAVE_HUMP_TABLE4 (wave_hump.c, shared with `hydrocl
 * bench wave-table4`).
 *
 * Size and length: the paper's counts are the same from 257^2 to 1025^2 (its criterion is on the 2-norm, which
 * does not change as the basin grows with the grid); ours at 65^2 agree with 129^2 to a few percent. K = 5 needs
 * 129 points per side; the paper's K = 5 equals its K max in every row. The test runs STEPS steps where the bench
 * runs 100: the averages fall slowly with time (the scheme damps the grid-scale waves the hump sheds, and those
 * are what the second-order preconditioner handles worst), so the short run's averages are a little above the long
 * one's (0.1 to 0.5 at 65^2) and the test errs on the strict side. Every entry is below the paper's (PoCL,
 * 2026-11-23: 1.9 to 4.9 iterations, the paper's 4.08 to 19.3), but K = 1 at dsigma/dx = 0.5, where it is 4.89 against
 * 4.73: a two-level cycle whose coarse level gets only four relaxations. */
#include <stdlib.h>

#include "wave_hump.h"
#include "../support/support.h"
#include "../support/tap.h"

enum { N = 65, STEPS = 16 };

static void entry(Runtime *rt, const WaveHumpPaperEntry *paper) {
  WaveConfig c = hcl_wave_hump_table4_config(N, paper->aspect, paper->levels, WAVE_HUMP_TWO_NORM);
  WaveHumpAverage a = {0};
  HclStatus st = hcl_wave_hump_average(rt, N, &c, STEPS, &a);
  char k[16];
  snprintf(k, sizeof k, paper->levels == MG_LEVELS_MOST ? "max (%d)" : "%d", a.levels - 1);
  /* The criterion: at most one iteration per solve above the paper's average. */
  bool pass = st == HCL_OK && a.iterations <= paper->iterations + 1;
  TAP_OK(pass, "K = %s, dsigma/dx = %g: %.2f iterations per solve over %d solves, the paper's %.2f + 1 %s", k,
         paper->aspect, a.iterations, a.solves, paper->iterations, hcl_status_message());
  hcl_status_clear();
}

int main(void) {
  Runtime *rt = NULL;
  if (hcl_par_init(NULL, NULL) != HCL_OK || test_open_runtime(true, &rt) != HCL_OK) {
    TAP_OK(false, "a device with fp64: %s", hcl_status_message());
    return tap_done();
  }
  for (int row = 0; row < WAVE_HUMP_TABLE4_ROWS; row++) {
    if (HCL_WAVE_HUMP_TABLE4[row].levels != 5) {
      entry(rt, &HCL_WAVE_HUMP_TABLE4[row]);
    }
  }
  hcl_runtime_destroy(&rt);
  hcl_par_finalize();
  return tap_done();
}
