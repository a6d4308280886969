/* SPDX-License-Identifier: BSD-3-Clause */
/* stencil5_precond.c: the preconditioners of a 5-point operator as a case file chooses them (see
 * stencil5_precond.h). */
#include "stencil5_precond.h"

#include "mg5.h"
#include "rrb_precond.h"

enum { PRECOND_RRB, PRECOND_MG, PRECOND_JACOBI, PRECOND_NONE };
enum { PRECISION_OF_SYSTEM, PRECISION_FLOAT };

HclStatus stencil5_add_precond_keys(CaseSchema *schema, const char *prefix) {
  const CaseKey keys[] = {
      {"preconditioner", CASE_CHOICE, "", "rrb", CASE_UNBOUNDED, "rrb|mg|jacobi|none",
       "rrb (repeated red-black incomplete factorization), mg (semicoarsening multigrid V-cycle), jacobi (the "
       "diagonal) or none"},
      {"preconditioner_precision", CASE_CHOICE, "", "same", CASE_UNBOUNDED, "same|float",
       "rrb and mg: float under a double system is mixed precision (the Krylov method in double, M^-1 in float)"},
      {"rrb_levels", CASE_INT, "", "0", 0, RRB_MAX_LEVELS, NULL,
       "rrb: RRB-k, level k factorized exactly; 0: as deep as rrb_exact asks"},
      {"rrb_exact", CASE_INT, "", "0", 0, RRB_EXACT_MAX, NULL,
       "rrb: eliminate levels until at most this many nodes are left, then factorize exactly; 0: as many as the "
       "device's local memory holds, up to 256"},
  };
  return case_schema_add(schema, prefix, keys, (int)(sizeof keys / sizeof keys[0]));
}

HclStatus stencil5_precond_from_case(const Case *c, const char *prefix, Precond **out) {
  HclStatus status = HCL_OK;
  char key[CASE_KEY_MAX];
  *out = NULL;
  bool in_float = case_choice(c, case_key(key, prefix, "preconditioner_precision")) == PRECISION_FLOAT;
  switch (case_choice(c, case_key(key, prefix, "preconditioner"))) {
  case PRECOND_RRB: {
    RrbDepth depth = {.levels = (int)case_int(c, case_key(key, prefix, "rrb_levels"))};
    depth.exact_nodes = (int)case_int(c, case_key(key, prefix, "rrb_exact"));
    TRY(in_float ? rrb_precond_create_mixed(depth, out) : rrb_precond_create(depth, out));
    break;
  }
  case PRECOND_MG:
    TRY(mg5_precond_create(&(Mg5Options){.own_precision = in_float, .precision = PRECISION_SINGLE}, out));
    break;
  case PRECOND_JACOBI:
    TRY(precond_jacobi(out));
    break;
  default:
    TRY(precond_none(out));
  }
cleanup:
  return status;
}
