/* SPDX-License-Identifier: BSD-3-Clause */
/* man.c: writes the man page hydrocl(1) to stdout from the help tables (help.h); run by meson at build time. */
#include "help.h"
#include "version.h"

int main(void) {
  help_print_man_page(stdout, HYDROCL_VERSION);
  return 0;
}
