/* SPDX-License-Identifier: BSD-3-Clause */
/* help.h: the command line's help text, printed by `hydrocl help [COMMAND]` and `hydrocl COMMAND --help`, and the
 * man page made from the same tables at build time (src/cli/man.c). */
#ifndef HYDROCL_HELP_H
#define HYDROCL_HELP_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"

/* The commands, every option and the exit statuses. */
void help_print_usage(FILE *out);
/* A command's usage, what it does, its options and the exit statuses; false for an unknown command. */
bool help_print_command(const char *name, FILE *out);
/* The man page hydrocl(1) in roff. */
void help_print_man_page(FILE *out, const char *version);

#endif
