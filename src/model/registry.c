/* SPDX-License-Identifier: BSD-3-Clause */
/* registry.c: the models, one line each (see model.h). */
#include "model.h"

#include <string.h>

#include "textlist.h"

#define MODELS(X) X(swe_model) X(wave_model) X(vbm_model)

#define DECLARE(model) extern const Model model;
MODELS(DECLARE)
#define ENTRY(model) &model,
static const Model *const models[] = {MODELS(ENTRY)};

enum { NMODELS = sizeof models / sizeof models[0] };

int model_count(void) {
  return NMODELS;
}

const Model *model_at(int index) {
  return index >= 0 && index < NMODELS ? models[index] : NULL;
}

const Model *model_find(const char *name) {
  for (int m = 0; m < NMODELS; m++) {
    if (strcmp(models[m]->name, name) == 0) {
      return models[m];
    }
  }
  return NULL;
}

const char *model_names(unsigned capabilities) {
  static char names[256];
  const Model *chosen[NMODELS];
  int count = 0;
  for (int m = 0; m < NMODELS; m++) {
    if ((models[m]->capabilities & capabilities) == capabilities) {
      chosen[count++] = models[m];
    }
  }
  names[0] = '\0';
  for (int m = 0; m < count; m++) {
    textlist_append(names, sizeof names, m, count, ", ", " or ", "%s", chosen[m]->name);
  }
  return names;
}
