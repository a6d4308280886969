/* SPDX-License-Identifier: BSD-3-Clause */
/* json.h: one JSON object per line, as the benchmarks and `hydrocl info --json` print them. */
#ifndef HYDROCL_JSON_H
#define HYDROCL_JSON_H

#include <stdbool.h>
#include <stdio.h>

typedef struct {
  char text[4096];
  size_t length;
  bool empty;
} JsonObject;

void hcl_json_begin(JsonObject *j);
void hcl_json_string(JsonObject *j, const char *key, const char *value);
void hcl_json_number(JsonObject *j, const char *key, double value); /* non-finite values become null */
void hcl_json_integer(JsonObject *j, const char *key, long long value);
void hcl_json_numbers(JsonObject *j, const char *key, const double *values,
                      int count); /* an array, as hcl_json_number */
void hcl_json_bool(JsonObject *j, const char *key, bool value);
/* Closes the object and returns its text (borrowed from j). */
const char *hcl_json_end(JsonObject *j);
/* Closes the object and prints it as one line to out, flushed. */
void hcl_json_print(JsonObject *j, FILE *out);

#endif
