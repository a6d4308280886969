/* SPDX-License-Identifier: BSD-3-Clause */
/* toy_precond.c: the hydrocl command with one preconditioner more, added as a program adds its own: this file and
 * one registry line (hcl_stencil5_precond_register in main). The toy is M = 2 I, z = r / 2: symmetric positive definite,
 * and CG's iterates do not change when M is scaled, so CG with it takes plain CG's iterations (test_solve.sh). */
#include "cli.h"
#include "stencil5_precond.h"

static HclStatus halve(void *ctx, Vec *r, Vec *z) {
  (void)ctx;
  HclStatus status = HCL_OK;
  TRY(hcl_vec_copy(z, r));
  TRY(hcl_vec_scale(z, 0.5));
cleanup:
  return status;
}

static HclStatus create_toy(const Stencil5PrecondSettings *settings, Precond **out) {
  static const PrecondOps ops = {.name = "toy", .apply = halve};
  (void)settings;
  return hcl_precond_create(&ops, NULL, true, out);
}

static const Stencil5PrecondKind toy = {"toy", "M = 2 I, a test's", false, create_toy};

int main(int argc, char **argv) {
  if (hcl_stencil5_precond_register(&toy) != HCL_OK) {
    return 70;
  }
  return cli_main(argc, argv);
}
