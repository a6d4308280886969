/* SPDX-License-Identifier: BSD-3-Clause */
/* env.c: the tuning knobs read from the environment (see env.h). */
#include "env.h"

#include <stdlib.h>

double hcl_env_count(const char *name, double fallback) {
  const char *value = getenv(name);
  char *end = NULL;
  double given = value ? strtod(value, &end) : -1;
  return value && end != value && *end == '\0' && given >= 0 ? given : fallback;
}
