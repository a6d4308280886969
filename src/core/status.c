/* SPDX-License-Identifier: BSD-3-Clause */
/* status.c: error codes, their names and exit codes, and the message of the first failure. */
#include "status.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static char message[32768]; /* room for a kernel build log */
static char origin[256];

static const struct {
  const char *name;
  int exit_code;
  const char *summary;
} status_table[] = {
#define HCL_STATUS_ROW(name, code, summary) {#name, code, summary},
    HCL_STATUS_LIST(HCL_STATUS_ROW)
#undef HCL_STATUS_ROW
};

HclStatus hcl_status_set(HclStatus code, const char *file, int line, const char *fmt, ...) {
  if (message[0] != '\0') {
    return code; /* keep the root cause; later failures are consequences of it */
  }
  va_list args;
  va_start(args, fmt);
  vsnprintf(message, sizeof message, fmt, args);
  va_end(args);
  snprintf(origin, sizeof origin, "%s:%d", file, line);
  return code;
}

const char *hcl_status_message(void) {
  return message;
}

const char *hcl_status_origin(void) {
  return origin;
}

void hcl_status_clear(void) {
  message[0] = '\0';
  origin[0] = '\0';
}

static int in_range(HclStatus code) {
  return code >= 0 && code < HCL_STATUS_COUNT;
}

const char *hcl_status_name(HclStatus code) {
  return in_range(code) ? status_table[code].name : "HCL_E?";
}

const char *hcl_status_summary(HclStatus code) {
  return in_range(code) ? status_table[code].summary : "unknown status";
}

int hcl_status_exit_code(HclStatus code) {
  return in_range(code) ? status_table[code].exit_code : 70;
}
