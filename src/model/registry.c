/* SPDX-License-Identifier: BSD-3-Clause */
/* registry.c: the models, one line each (see model.h), and those a program registers (hcl_model_register). */
#include "model.h"

#include <string.h>

#include "textlist.h"

#define MODELS(X) X(swe_model) X(wave_model) X(vbm_model)

#define DECLARE(model) extern const Model model;
MODELS(DECLARE)
#define ENTRY(model) &model,
static const Model *const builtin[] = {MODELS(ENTRY)};

enum { BUILTIN = sizeof builtin / sizeof builtin[0], MODELS_MAX = 16 };
static const Model *added[MODELS_MAX - BUILTIN];
static int nadded;

int hcl_model_count(void) {
  return BUILTIN + nadded;
}

const Model *hcl_model_at(int index) {
  return index < 0 || index >= BUILTIN + nadded ? NULL : index < BUILTIN ? builtin[index] : added[index - BUILTIN];
}

const Model *hcl_model_find(const char *name) {
  for (int m = 0; m < hcl_model_count(); m++) {
    if (strcmp(hcl_model_at(m)->name, name) == 0) {
      return hcl_model_at(m);
    }
  }
  return NULL;
}

HclStatus hcl_model_register(const Model *model) {
  HclStatus status = HCL_OK;
  REQUIRE(hcl_model_find(model->name) == NULL, HCL_EINTERNAL, "model '%s' registered twice", model->name);
  REQUIRE(nadded < MODELS_MAX - BUILTIN, HCL_EINTERNAL, "more than %d models registered", MODELS_MAX);
  added[nadded++] = model;
cleanup:
  return status;
}

const char *hcl_model_names(unsigned capabilities) {
  static char names[256];
  const Model *chosen[MODELS_MAX];
  int count = 0;
  for (int m = 0; m < hcl_model_count(); m++) {
    if ((hcl_model_at(m)->capabilities & capabilities) == capabilities) {
      chosen[count++] = hcl_model_at(m);
    }
  }
  names[0] = '\0';
  for (int m = 0; m < count; m++) {
    hcl_textlist_append(names, sizeof names, m, count, ", ", " or ", "%s", chosen[m]->name);
  }
  return names;
}
