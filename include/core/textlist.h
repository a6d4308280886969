/* SPDX-License-Identifier: BSD-3-Clause */
/* textlist.h: the lists messages and help print of a registry's names, "rrb, mg, jacobi or none" or
 * "cg|gmres|dc|pipecg", built an item at a time. */
#ifndef HYDROCL_TEXTLIST_H
#define HYDROCL_TEXTLIST_H

#include <stddef.h>

/* Appends item index of count (printf's format and arguments) to text, NUL-terminated within size: after separator,
 * or after last for the last item, none before the first. Cut at size, never beyond. */
__attribute__((format(printf, 7, 8))) void hcl_textlist_append(char *text, size_t size, int index, int count,
                                                               const char *separator, const char *last, const char *fmt,
                                                               ...);

#endif
