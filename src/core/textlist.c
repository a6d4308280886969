/* SPDX-License-Identifier: BSD-3-Clause */
/* textlist.c: lists of names for messages and help (see textlist.h). */
#include "textlist.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void hcl_textlist_append(char *text, size_t size, int index, int count, const char *separator, const char *last,
                         const char *fmt, ...) {
  if (index == 0) {
    text[0] = '\0';
  }
  size_t used = strlen(text);
  if (used + 1 >= size) {
    return;
  }
  used += (size_t)snprintf(text + used, size - used, "%s", index == 0 ? "" : index == count - 1 ? last : separator);
  if (used + 1 >= size) {
    return;
  }
  va_list args;
  va_start(args, fmt);
  vsnprintf(text + used, size - used, fmt, args);
  va_end(args);
}
