/* SPDX-License-Identifier: BSD-3-Clause */
/* solver_links.c: the solvers and the Laplace solver read their own case keys from the options database with
 * neither netCDF nor libyaml: this program is linked against those layers' libraries alone (meson.build gives it only
 * OpenCL, MPI and libm), so a solver that reached into the io layer would not link. At run time the keys of a
 * Krylov method, a 5-point preconditioner and the Laplace solver are set as --set sets them and read back; no device
 * is needed. */
#include <string.h>

#include "../support/tap.h"
#include "casefile.h"
#include "krylov.h"
#include "laplace.h"
#include "stencil5_precond.h"
#include "status.h"

/* A case of the three modules' keys, under their prefixes, with the assignments given. */
static HclStatus make_case(const char *const *sets, int nsets, Case **c) {
  HclStatus status = HCL_OK;
  CaseSchema *schema = NULL;
  KrylovOptions krylov = hcl_krylov_options_default();
  LaplaceConfig laplace = hcl_laplace_config_default();
  TRY(hcl_case_schema_create(&schema));
  TRY(hcl_krylov_add_keys(schema, "pressure.", &krylov));
  TRY(hcl_stencil5_add_precond_keys(schema, "pressure."));
  TRY(hcl_laplace_add_keys(schema, "laplace.", &laplace));
  TRY(hcl_case_create_empty(hcl_case_schema_keys(schema), hcl_case_schema_count(schema), c));
  hcl_case_adopt_schema(*c, schema);
  schema = NULL;
  for (int s = 0; s < nsets; s++) {
    TRY(hcl_case_set(*c, sets[s]));
  }
  TRY(hcl_case_finish(*c));
cleanup:
  hcl_case_schema_destroy(&schema);
  return status;
}

int main(void) {
  Case *c = NULL;
  KrylovOptions krylov;
  const char *sets[] = {"pressure.method=pipecg", "pressure.preconditioner=mg", "pressure.rtol=1e-7",
                        "laplace.order=4"};
  HclStatus st = make_case(sets, 4, &c);
  TAP_OK(st == HCL_OK, "a case of a Krylov method's, a preconditioner's and the Laplace solver's keys %s",
         hcl_status_message());
  st = st == HCL_OK ? hcl_stencil5_cg_options_from_case(c, "pressure.", "the test's system", &krylov) : st;
  TAP_OK(st == HCL_OK && krylov.method == KRYLOV_PIPECG && krylov.rtol == 1e-7 &&
             strcmp(hcl_stencil5_precond_name(c, "pressure."), "mg") == 0 && hcl_case_int(c, "laplace.order") == 4,
         "each module reads its own keys back: pipecg, mg, rtol 1e-7, order 4 %s", hcl_status_message());
  hcl_case_destroy(&c);
  hcl_status_clear();
  const char *wrong[] = {"pressure.method=gmres"};
  st = make_case(wrong, 1, &c);
  st = st == HCL_OK ? hcl_stencil5_cg_options_from_case(c, "pressure.", "the test's system", &krylov) : st;
  TAP_OK(st == HCL_EDATA &&
             strstr(hcl_status_message(), "--set pressure.method=gmres: pressure.method = gmres: the test's "
                                          "system is symmetric positive definite and solved by CG"),
         "and refuses what its system does not allow, naming the --set (%s)", hcl_status_message());
  hcl_case_destroy(&c);
  return tap_done();
}
