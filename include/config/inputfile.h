/* SPDX-License-Identifier: BSD-3-Clause */
/* inputfile.h: the check every file an input names passes before it is opened (the case's file keys, the readers
 * of inputs.h). */
#ifndef HYDROCL_INPUTFILE_H
#define HYDROCL_INPUTFILE_H

#include "status.h"

/* Refuses a path that is not a regular file one can read: missing, unreadable, a folder, a device (/dev/zero is
 * read for ever), a pipe or a socket; every file an input names goes through it before it is opened. named_by says
 * who named it ("case.yml:4:3: bed.file", "ships.csv:2: track") and given how (the path as written there, NULL: as
 * path); every refusal is then HCL_EDATA, the input that names it being wrong. Without named_by (NULL: a reader's
 * own file) a missing or unreadable file is HCL_ENOINPUT and any other HCL_EDATA. */
HclStatus hcl_input_check_file(const char *path, const char *named_by, const char *given);

#endif
