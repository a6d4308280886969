/* laplace_history.c: the residual history of the potential-flow Laplace solver on the manufactured problem
 * (tests/laplace_problem.h) between walls, 33 x 25 x 9, sixth order, double, K max, printed one value per line by
 * rank 0 with 17 significant digits; test_laplace_ranks.sh compares the histories on 1, 2 and 4 ranks.
 * Usage: laplace_history [gmres] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "laplace.h"
#include "../laplace_problem.h"
#include "../support.h"

int main(int argc, char **argv) {
  HclStatus status = HCL_OK;
  Runtime *rt = NULL;
  Decomp *decomp = NULL;
  Laplace *laplace = NULL;
  Field *eta = NULL, *phi = NULL;
  double *h = NULL, *eta_host = NULL, *phi_host = NULL, *source = NULL;
  LaplaceResult result;
  LaplaceProblem p = {.nx = 33, .ny = 25, .lx = 2, .ly = 1.5, .h0 = 1, .a_h = 0.1, .a_eta = 0.05, .waves = 1};
  TRY(par_init(&argc, &argv));
  TRY(test_open_runtime(true, &rt));
  DecompSpec spec = {.nx = p.nx, .ny = p.ny};
  TRY(decomp_create(&spec, &decomp));
  const DecompLocal *l = decomp_local(decomp);
  LaplaceConfig c = laplace_config_default();
  c.dx = lp_dx(&p);
  c.dy = lp_dy(&p);
  c.precision = LAPLACE_DOUBLE;
  c.krylov.rtol = 1e-10;
  c.krylov.atol = 0;
  c.krylov.method = argc > 1 && strcmp(argv[1], "gmres") == 0 ? KRYLOV_GMRES : KRYLOV_DC;
  size_t plane = (size_t)l->nx * l->ny;
  TRY_ALLOC(h, plane);
  TRY_ALLOC(eta_host, plane);
  TRY_ALLOC(phi_host, plane);
  TRY_ALLOC(source, plane * (c.nz + 1));
  lp_fill(&p, (double[]){0, 1}, 1, l->x0, l->y0, l->nx, l->ny, h, NULL, NULL, NULL, NULL);
  TRY(laplace_create(rt, decomp, &c, h, &laplace));
  lp_fill(&p, laplace_sigma(laplace), c.nz, l->x0, l->y0, l->nx, l->ny, NULL, eta_host, phi_host, NULL, source);
  FieldSpec fs = {.name = "eta", .nz = 1, .ghost = 0, .precision = PRECISION_DOUBLE};
  TRY(field_create(rt, decomp, &fs, &eta));
  fs.name = "phi";
  TRY(field_create(rt, decomp, &fs, &phi));
  TRY(field_write_owned(eta, eta_host));
  TRY(field_write_owned(phi, phi_host));
  TRY(laplace_set_source(laplace, source));
  TRY(laplace_solve(laplace, eta, phi, &result));
  for (int k = 0; par_rank() == 0 && k <= result.iterations; k++) {
    printf("%.17g\n", result.history[k]);
  }
cleanup:
  if (status != HCL_OK) {
    fprintf(stderr, "laplace_history: %s\n", status_message());
  }
  laplace_destroy(&laplace);
  field_destroy(&eta);
  field_destroy(&phi);
  decomp_destroy(&decomp);
  runtime_destroy(&rt);
  free(h);
  free(eta_host);
  free(phi_host);
  free(source);
  par_finalize();
  return status == HCL_OK ? 0 : 1;
}
