/* SPDX-License-Identifier: BSD-3-Clause */
/* csv.c: comma-separated rows (see csv.h). */
#include "csv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

HclStatus hcl_csv_open(const char *path, CsvReader *r) {
  memset(r, 0, sizeof *r);
  r->path = path;
  return hcl_input_open(path, &r->f);
}

/* text without the blanks at its ends, in place. */
static char *trimmed(char *text) {
  text += strspn(text, " \t");
  size_t n = strlen(text);
  while (n > 0 && (text[n - 1] == ' ' || text[n - 1] == '\t')) {
    text[--n] = '\0';
  }
  return text;
}

HclStatus hcl_csv_next(CsvReader *r, bool *more) {
  HclStatus status = HCL_OK;
  r->count = 0;
  for (;;) {
    TRY(hcl_input_read_line(r->f, r->path, &r->line, more));
    if (!*more) {
      goto cleanup;
    }
    const char *text = r->line.text + strspn(r->line.text, " \t");
    if (text[0] != '#' && text[0] != '\0') {
      break;
    }
  }
  for (char *cursor = r->line.text;;) {
    char *comma = strchr(cursor, ',');
    REQUIRE(r->count < CSV_FIELDS_MAX, HCL_EDATA, "%s:%d: more than %d fields", r->path, r->line.number,
            CSV_FIELDS_MAX);
    if (comma) {
      *comma = '\0';
    }
    r->fields[r->count++] = trimmed(cursor);
    if (!comma) {
      break;
    }
    cursor = comma + 1;
  }
cleanup:
  return status;
}

bool hcl_csv_is_number(const CsvReader *r, int column, double *value) {
  if (column >= r->count || !r->fields[column][0]) {
    return false;
  }
  char *end = NULL;
  *value = strtod(r->fields[column], &end);
  return *end == '\0' && isfinite(*value);
}

HclStatus hcl_csv_number(const CsvReader *r, int column, const char *what, double *value) {
  HclStatus status = HCL_OK;
  REQUIRE(hcl_csv_is_number(r, column, value), HCL_EDATA, "%s:%d: column %d: %s must be a finite number (got '%s')",
          r->path, r->line.number, column + 1, what, column < r->count ? r->fields[column] : "");
cleanup:
  return status;
}

HclStatus hcl_csv_require_fields(const CsvReader *r, int count, const char *row) {
  HclStatus status = HCL_OK;
  REQUIRE(r->count == count, HCL_EDATA, "%s:%d: %d fields where a row is '%s'", r->path, r->line.number, r->count, row);
cleanup:
  return status;
}

void hcl_csv_origin(const CsvReader *r, char *origin, size_t size) {
  snprintf(origin, size, "%s:%d", r->path, r->line.number);
}

void hcl_csv_close(CsvReader *r) {
  hcl_input_line_free(&r->line);
  if (r->f) {
    fclose(r->f);
  }
  memset(r, 0, sizeof *r);
}
