/* SPDX-License-Identifier: BSD-3-Clause */
/* caseload.h: case files read from YAML into the options database (casefile.h). YAML syntax errors, tabs in the
 * indentation, nesting beyond a case file's few levels and NUL bytes are HCL_EDATA with file:line:column; a file that
 * cannot be opened is HCL_ENOINPUT. */
#ifndef HYDROCL_CASELOAD_H
#define HYDROCL_CASELOAD_H

#include <stddef.h>

#include "casefile.h"
#include "status.h"

/* Reads path and checks every key it names against keys[0..nkeys) (borrowed; must outlive the case). Defaults and
 * required keys are settled by hcl_case_finish, after any hcl_case_set. */
HclStatus hcl_case_load(const CaseKey *keys, int nkeys, const char *path, Case **out);
/* The text of key ("section.name") in the case file at path, without a schema, so that a caller can choose the
 * schema by it (model.name): "" when the file does not set it, and where it stands ("case.yml:3:9") in origin.
 * HCL_ENOINPUT when the file cannot be opened, HCL_EDATA for a YAML syntax error, for key set to a list or a section
 * (or a section on its way set to a value) and for a value holding a NUL byte (file:line:column). */
HclStatus hcl_case_peek(const char *path, const char *key, char *value, size_t size, char *origin, size_t origin_size);

#endif
