/* SPDX-License-Identifier: BSD-3-Clause */
/* stencil5_precond.c: the preconditioners of a 5-point operator as a case file chooses them (see
 * stencil5_precond.h). */
#include "stencil5_precond.h"

#include "mg5.h"
#include "par.h"
#include "rrb_precond.h"

enum { PRECOND_AUTO, PRECOND_RRB, PRECOND_MG, PRECOND_JACOBI, PRECOND_NONE };
enum { PRECISION_OF_SYSTEM, PRECISION_FLOAT };

HclStatus stencil5_add_precond_keys(CaseSchema *schema, const char *prefix) {
  const CaseKey keys[] = {
      {"preconditioner", CASE_CHOICE, "", "auto", CASE_UNBOUNDED, "auto|rrb|mg|jacobi|none",
       "rrb (repeated red-black incomplete factorization), mg (semicoarsening multigrid V-cycle), jacobi (the "
       "diagonal), none, or auto: rrb on one rank, mg on several (rrb where rrb_levels or rrb_exact is set)"},
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

/* What `auto` stands for, from the measured cost of a semi-implicit shallow-water step at 4096^2 cells a GPU
 * (bench/README.md, scaling, 2026-11-29): on one H200 RRB takes 6.3 ms, the multigrid 10.6; on two H200s RRB 35.5 ms
 * (its distributed levels and the gather of its last), the multigrid 18.7. A case that sets RRB's depth asks for RRB. */
static int chosen(const Case *c, const char *prefix) {
  char key[CASE_KEY_MAX];
  int choice = case_choice(c, case_key(key, prefix, "preconditioner"));
  if (choice != PRECOND_AUTO)
    return choice;
  bool rrb_asked = !case_at_default(c, case_key(key, prefix, "rrb_levels")) ||
                   !case_at_default(c, case_key(key, prefix, "rrb_exact"));
  return par_size() == 1 || rrb_asked ? PRECOND_RRB : PRECOND_MG;
}

const char *stencil5_precond_name(const Case *c, const char *prefix) {
  char key[CASE_KEY_MAX];
  bool automatic = case_choice(c, case_key(key, prefix, "preconditioner")) == PRECOND_AUTO;
  switch (chosen(c, prefix)) {
  case PRECOND_RRB:
    if (!automatic)
      return "rrb";
    return par_size() == 1 ? "rrb (auto: one rank)" : "rrb (auto: RRB's depth set)";
  case PRECOND_MG:
    return automatic ? "mg (auto: several ranks)" : "mg";
  case PRECOND_JACOBI:
    return "jacobi";
  default:
    return "none";
  }
}

HclStatus stencil5_precond_from_case(const Case *c, const char *prefix, Precond **out) {
  HclStatus status = HCL_OK;
  char key[CASE_KEY_MAX];
  *out = NULL;
  bool in_float = case_choice(c, case_key(key, prefix, "preconditioner_precision")) == PRECISION_FLOAT;
  switch (chosen(c, prefix)) {
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
