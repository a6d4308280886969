/* SPDX-License-Identifier: BSD-3-Clause */
/* laplace_history.c: the residual history of the potential-flow Laplace solver on the manufactured problem
 * (tests/support/laplace_problem.h) between walls, 33 x 25 x 9, sixth order, double, K max, printed one value per line by
 * rank 0 with 17 significant digits; test_laplace_ranks.sh compares the histories on 1, 2 and 4 ranks.
 * Usage: laplace_history [dc|gmres|skewed|polar]: defect correction or GMRES on the Cartesian grid, defect
 * correction on curvilinear grids (mapping.h): the skewed rectangle over the same 2 m x 1.5 m, or an O-grid of 33
 * points in radius (0.2 to 0.7 m about (1, 0.75) m) by 64 in angle, periodic across the angle. */
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
  const char *mode = argc > 1 ? argv[1] : "dc";
  MappingRectangle rectangle = {.lx = 2, .ly = 1.5, .dx = 2.0 / 32, .dy = 1.5 / 24, .stretch = 0.15, .skew = 0.15};
  MappingPolar polar = {.cx = 1, .cy = 0.75, .radius = 0.2, .outer = 0.7, .stretching = 1, .nr = 33, .ntheta = 64};
  Mapping skewed_map = {hcl_mapping_rectangle_point, &rectangle, "the skewed rectangle"};
  Mapping polar_map = {hcl_mapping_polar_point, &polar, "the O-grid"};
  if (strcmp(mode, "skewed") == 0) {
    p.map = &skewed_map;
  } else if (strcmp(mode, "polar") == 0) {
    p.map = &polar_map;
    p.ny = 64;
    p.periodic_y = true;
  }
  TRY(test_start_runtime(&argc, &argv, true, &rt));
  LaplaceConfig c = hcl_laplace_config_default();
  c.precision = LAPLACE_DOUBLE;
  c.krylov.rtol = 1e-10;
  c.krylov.atol = 0;
  c.krylov.method = strcmp(mode, "gmres") == 0 ? KRYLOV_GMRES : KRYLOV_DC;
  TRY(lp_setup(rt, &p, c, true, &setup));
  TRY(hcl_laplace_solve(setup.laplace, setup.eta, setup.phi, &result));
  for (int k = 0; hcl_par_rank() == 0 && k <= result.iterations; k++) {
    printf("%.17g\n", result.history[k]);
  }
cleanup:
  if (status != HCL_OK) {
    fprintf(stderr, "laplace_history: %s\n", hcl_status_message());
  }
  lp_setup_free(&setup);
  hcl_runtime_destroy(&rt);
  hcl_par_finalize();
  return status == HCL_OK ? 0 : 1;
}
