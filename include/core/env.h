/* SPDX-License-Identifier: BSD-3-Clause */
/* env.h: the tuning knobs read from the environment (the rank tests set them to reach code paths a small grid would
 * not take; README.md lists them). */
#ifndef HYDROCL_ENV_H
#define HYDROCL_ENV_H

/* The environment's variable name as a number >= 0, or fallback where it is unset or not one. */
double hcl_env_count(const char *name, double fallback);

#endif
