/* SPDX-License-Identifier: BSD-3-Clause */
/* inputfile.c: the check every input file passes before it is opened (see inputfile.h). */
#include "inputfile.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a file that is not a regular one is: a device (/dev/zero would be read for ever), a pipe (read once, and a
 * reader blocks on one nobody writes), a socket. */
static const char *file_kind(mode_t mode) {
  return S_ISDIR(mode)                    ? "a folder"
         : S_ISCHR(mode) || S_ISBLK(mode) ? "a device"
         : S_ISFIFO(mode)                 ? "a pipe"
         : S_ISSOCK(mode)                 ? "a socket"
                                          : "not a regular file";
}

HclStatus hcl_input_check_file(const char *path, const char *named_by, const char *given) {
  HclStatus status = HCL_OK;
  struct stat info;
  char why[128];
  bool found = stat(path, &info) == 0;
  if (!found || access(path, R_OK) != 0) {
    snprintf(why, sizeof why, "%s", strerror(errno));
  } else if (!S_ISREG(info.st_mode)) {
    snprintf(why, sizeof why, "it is %s; give a file", file_kind(info.st_mode));
  } else {
    goto cleanup;
  }
  if (named_by) {
    FAIL(HCL_EDATA, "%s names '%s', which is not a readable file (%s: %s)", named_by, given ? given : path, path, why);
  }
  FAIL(found && !S_ISREG(info.st_mode) ? HCL_EDATA : HCL_ENOINPUT, "cannot open '%s': %s", path, why);
cleanup:
  return status;
}
