/* SPDX-License-Identifier: BSD-3-Clause */
/* laplace_history.c: the residual history of the potential-flow Laplace solver on the manufactured problem
 * (tests/support/laplace_problem.h) between walls, 33 x 25 x 9, sixth order, double, K max, printed one value per line by
 * rank 0 with 17 significant digits; test_laplace_ranks.sh compares the histories on 1, 2 and 4 ranks.
 * Usage: laplace_history [gmres] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "laplace.h"
#include "../support/laplace_problem.h"
#include "../support/support.h"

int main(int argc, char **argv) {
  HclStatus status = HCL_OK;
  Runtime *rt = NULL;
  LpSetup setup = {0};
  LaplaceResult result;
  LaplaceProblem p = {.nx = 33, .ny = 25, .lx = 2, .ly = 1.5, .h0 = 1, .a_h = 0.1, .a_eta = 0.05, .waves = 1};
  TRY(test_start_runtime(&argc, &argv, true, &rt));
  LaplaceConfig c = laplace_config_default();
  c.precision = LAPLACE_DOUBLE;
  c.krylov.rtol = 1e-10;
  c.krylov.atol = 0;
  c.krylov.method = argc > 1 && strcmp(argv[1], "gmres") == 0 ? KRYLOV_GMRES : KRYLOV_DC;
  TRY(lp_setup(rt, &p, c, true, &setup));
  TRY(laplace_solve(setup.laplace, setup.eta, setup.phi, &result));
  for (int k = 0; par_rank() == 0 && k <= result.iterations; k++) {
    printf("%.17g\n", result.history[k]);
  }
cleanup:
  if (status != HCL_OK) {
    fprintf(stderr, "laplace_history: %s\n", status_message());
  }
  lp_setup_free(&setup);
  runtime_destroy(&rt);
  par_finalize();
  return status == HCL_OK ? 0 : 1;
}
