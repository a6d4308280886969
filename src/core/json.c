/* SPDX-License-Identifier: BSD-3-Clause */
/* json.c: a flat JSON object writer with string escaping (RFC 8259). */
#include "json.h"

#include <math.h>
#include <stdarg.h>

__attribute__((format(printf, 2, 3))) static void put(JsonObject *j, const char *fmt, ...) {
  if (j->length + 1 >= sizeof j->text) {
    return;
  }
  va_list args;
  va_start(args, fmt);
  int n = vsnprintf(j->text + j->length, sizeof j->text - j->length, fmt, args);
  va_end(args);
  if (n > 0) {
    j->length += (size_t)n;
    if (j->length >= sizeof j->text) {
      j->length = sizeof j->text - 1;
    }
  }
}

static void put_escaped(JsonObject *j, const char *s) {
  put(j, "\"");
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      put(j, "\\%c", c);
    } else if (c < 0x20) {
      put(j, "\\u%04x", c);
    } else {
      put(j, "%c", c);
    }
  }
  put(j, "\"");
}

static void put_key(JsonObject *j, const char *key) {
  put(j, j->empty ? "" : ",");
  j->empty = false;
  put_escaped(j, key);
  put(j, ":");
}

void hcl_json_begin(JsonObject *j) {
  j->length = 0;
  j->text[0] = '\0';
  j->empty = true;
  put(j, "{");
}

void hcl_json_string(JsonObject *j, const char *key, const char *value) {
  put_key(j, key);
  put_escaped(j, value);
}

void hcl_json_number(JsonObject *j, const char *key, double value) {
  put_key(j, key);
  if (isfinite(value)) {
    put(j, "%.9g", value);
  } else {
    put(j, "null");
  }
}

void hcl_json_numbers(JsonObject *j, const char *key, const double *values, int count) {
  put_key(j, key);
  put(j, "[");
  for (int i = 0; i < count; i++) {
    put(j, isfinite(values[i]) ? "%s%.9g" : "%snull", i ? "," : "", values[i]);
  }
  put(j, "]");
}

void hcl_json_integer(JsonObject *j, const char *key, long long value) {
  put_key(j, key);
  put(j, "%lld", value);
}

void hcl_json_bool(JsonObject *j, const char *key, bool value) {
  put_key(j, key);
  put(j, value ? "true" : "false");
}

const char *hcl_json_end(JsonObject *j) {
  put(j, "}");
  return j->text;
}

void hcl_json_print(JsonObject *j, FILE *out) {
  fprintf(out, "%s\n", hcl_json_end(j));
  fflush(out);
}
