/* SPDX-License-Identifier: BSD-3-Clause */
/* hydrocl.c: the hydrocl command (cli.h). */
#include "cli.h"

int main(int argc, char **argv) {
  return cli_main(argc, argv);
}
