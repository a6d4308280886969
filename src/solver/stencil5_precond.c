/* SPDX-License-Identifier: BSD-3-Clause */
/* stencil5_precond.c: the registry of the 5-point operator's preconditioners and the case keys that choose one (see
 * stencil5_precond.h). */
#include "stencil5_precond.h"

#include <stdio.h>
#include <string.h>

#include "mg5.h"
#include "par.h"
#include "rrb_precond.h"
#include "textlist.h"

enum { KINDS_MAX = 16, TEXT_MAX = 1024 };

static HclStatus create_rrb(const Stencil5PrecondSettings *s, Precond **out) {
  return s->in_float ? hcl_rrb_precond_create_mixed(s->rrb, out) : hcl_rrb_precond_create(s->rrb, out);
}

static HclStatus create_mg(const Stencil5PrecondSettings *s, Precond **out) {
  return hcl_mg5_precond_create(&(Mg5Options){.own_precision = s->in_float, .precision = PRECISION_SINGLE}, out);
}

static HclStatus create_jacobi(const Stencil5PrecondSettings *s, Precond **out) {
  (void)s;
  return hcl_precond_jacobi(out);
}

static HclStatus create_none(const Stencil5PrecondSettings *s, Precond **out) {
  (void)s;
  return hcl_precond_none(out);
}

static const Stencil5PrecondKind builtin[] = {
    {"rrb", "repeated red-black incomplete factorization", true, create_rrb},
    {"mg", "semicoarsening multigrid V-cycle", true, create_mg},
    {"jacobi", "the diagonal", false, create_jacobi},
    {"none", "no preconditioner", false, create_none},
};
enum { BUILTIN = sizeof builtin / sizeof builtin[0] };

static const Stencil5PrecondKind *added[KINDS_MAX - BUILTIN];
static int nadded;

static const Stencil5PrecondKind *kind_at(int k) {
  return k < BUILTIN ? &builtin[k] : added[k - BUILTIN];
}

HclStatus hcl_stencil5_precond_register(const Stencil5PrecondKind *kind) {
  HclStatus status = HCL_OK;
  REQUIRE(hcl_stencil5_precond_find(kind->name) == NULL && strcmp(kind->name, "auto") != 0, HCL_EINTERNAL,
          "preconditioner '%s' registered twice (or named auto)", kind->name);
  REQUIRE(nadded < KINDS_MAX - BUILTIN, HCL_EINTERNAL, "more than %d preconditioners registered", KINDS_MAX);
  added[nadded++] = kind;
cleanup:
  return status;
}

const Stencil5PrecondKind *hcl_stencil5_precond_find(const char *name) {
  for (int k = 0; k < BUILTIN + nadded; k++) {
    if (strcmp(kind_at(k)->name, name) == 0) {
      return kind_at(k);
    }
  }
  return NULL;
}

/* The names, or "name (summary)" items, of the kinds asked for, joined by separator, the last by last. */
static const char *joined(char *text, bool float_only, bool with_summary, const char *separator, const char *last) {
  const Stencil5PrecondKind *chosen[KINDS_MAX];
  int count = 0;
  for (int k = 0; k < BUILTIN + nadded; k++) {
    if (!float_only || kind_at(k)->float_form) {
      chosen[count++] = kind_at(k);
    }
  }
  text[0] = '\0';
  for (int k = 0; k < count; k++) {
    hcl_textlist_append(text, TEXT_MAX, k, count, separator, last, with_summary ? "%s (%s)" : "%s", chosen[k]->name,
                        chosen[k]->summary);
  }
  return text;
}

const char *hcl_stencil5_precond_names(bool float_only) {
  static char text[TEXT_MAX];
  return joined(text, float_only, false, ", ", " or ");
}

HclStatus hcl_stencil5_add_precond_keys(CaseSchema *schema, const char *prefix) {
  static char names[TEXT_MAX], choices[TEXT_MAX], text[2 * TEXT_MAX], precision_help[2 * TEXT_MAX];
  snprintf(choices, sizeof choices, "auto|%s", joined(names, false, false, "|", "|"));
  snprintf(text, sizeof text, "%s, or auto: rrb on one rank, mg on several (rrb where rrb_levels or rrb_exact is set)",
           joined(names, false, true, ", ", ", "));
  snprintf(precision_help, sizeof precision_help,
           "%s: float under a double system is mixed precision (the Krylov method in double, M^-1 in float)",
           joined(names, true, false, ", ", " and "));
  const CaseKey keys[] = {
      {"preconditioner", CASE_CHOICE, "", "auto", CASE_UNBOUNDED, choices, text},
      {"preconditioner_precision", CASE_CHOICE, "", "same", CASE_UNBOUNDED, "same|float", precision_help},
      {"rrb_levels", CASE_INT, "", "0", 0, RRB_MAX_LEVELS, NULL,
       "rrb: RRB-k, level k factorized exactly; 0: as deep as rrb_exact asks"},
      {"rrb_exact", CASE_INT, "", "0", 0, RRB_EXACT_MAX, NULL,
       "rrb: eliminate levels until at most this many nodes are left, then factorize exactly; 0: as many as the "
       "device's local memory holds, up to 256"},
  };
  return hcl_case_schema_add(schema, prefix, keys, (int)(sizeof keys / sizeof keys[0]));
}

/* What `auto` stands for, from the measured cost of a semi-implicit shallow-water step at 4096^2 cells a GPU
 * (bench/README.md, scaling, 2026-11-29): on one H200 RRB takes 6.3 ms, the multigrid 10.6; on two H200s RRB 35.5 ms
 * (its distributed levels and the gather of its last), the multigrid 18.7. A case that sets RRB's depth asks for RRB. */
static const char *chosen_name(const Case *c, const char *prefix) {
  char key[CASE_KEY_MAX];
  const char *name = hcl_case_string(c, hcl_case_key(key, prefix, "preconditioner"));
  if (strcmp(name, "auto") != 0) {
    return name;
  }
  bool rrb_asked = !hcl_case_at_default(c, hcl_case_key(key, prefix, "rrb_levels")) ||
                   !hcl_case_at_default(c, hcl_case_key(key, prefix, "rrb_exact"));
  return hcl_par_size() == 1 || rrb_asked ? "rrb" : "mg";
}

const char *hcl_stencil5_precond_name(const Case *c, const char *prefix) {
  static char text[128];
  char key[CASE_KEY_MAX];
  const char *name = chosen_name(c, prefix);
  if (strcmp(hcl_case_string(c, hcl_case_key(key, prefix, "preconditioner")), "auto") != 0) {
    return name;
  }
  snprintf(text, sizeof text, "%s (auto: %s)", name,
           strcmp(name, "mg") == 0 ? "several ranks"
           : hcl_par_size() == 1   ? "one rank"
                                   : "RRB's depth set");
  return text;
}

HclStatus hcl_stencil5_cg_options_from_case(const Case *c, const char *prefix, const char *system, KrylovOptions *out) {
  HclStatus status = HCL_OK;
  char key[CASE_KEY_MAX];
  TRY(hcl_krylov_options_from_case(c, prefix, out));
  hcl_case_key(key, prefix, "method");
  REQUIRE(hcl_krylov_method_is_cg(out->method), HCL_EDATA,
          "%s: %s = %s: %s is symmetric positive definite and solved by CG (set it to cg or pipecg)",
          hcl_case_origin(c, key), key, hcl_krylov_method_name(out->method), system);
  const Stencil5PrecondKind *kind = hcl_stencil5_precond_find(chosen_name(c, prefix));
  hcl_case_key(key, prefix, "preconditioner_precision");
  REQUIRE(strcmp(hcl_case_string(c, key), "float") != 0 || kind->float_form, HCL_EDATA,
          "%s: %s = float: the %s preconditioner has no float form (those that have one: %s)", hcl_case_origin(c, key),
          key, kind->name, hcl_stencil5_precond_names(true));
cleanup:
  return status;
}

HclStatus hcl_stencil5_precond_from_case(const Case *c, const char *prefix, Precond **out) {
  HclStatus status = HCL_OK;
  char key[CASE_KEY_MAX];
  *out = NULL;
  const Stencil5PrecondKind *kind = hcl_stencil5_precond_find(chosen_name(c, prefix));
  ASSERT(kind != NULL); /* the schema's choices are the registered names */
  Stencil5PrecondSettings settings = {
      .in_float = strcmp(hcl_case_string(c, hcl_case_key(key, prefix, "preconditioner_precision")), "float") == 0};
  ASSERT(!settings.in_float || kind->float_form); /* hcl_stencil5_cg_options_from_case refused it */
  settings.rrb.levels = (int)hcl_case_int(c, hcl_case_key(key, prefix, "rrb_levels"));
  settings.rrb.exact_nodes = (int)hcl_case_int(c, hcl_case_key(key, prefix, "rrb_exact"));
  TRY(kind->create(&settings, out));
cleanup:
  return status;
}
