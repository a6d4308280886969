/* SPDX-License-Identifier: BSD-3-Clause */
/* csv.c: comma-separated inputs (see csv.h). */
#include "csv.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static char *trim(char *s) {
  while (isspace((unsigned char)*s)) {
    s++;
  }
  char *end = s + strlen(s);
  while (end > s && isspace((unsigned char)end[-1])) {
    *--end = '\0';
  }
  return s;
}

HclStatus hcl_csv_open(const char *path, Csv *csv) {
  memset(csv, 0, sizeof *csv);
  csv->path = path;
  return hcl_input_open(path, &csv->f);
}

HclStatus hcl_csv_next(Csv *csv, bool *more) {
  HclStatus status = HCL_OK;
  for (;;) {
    TRY(hcl_input_read_line(csv->f, csv->path, &csv->line, more));
    if (!*more) {
      break;
    }
    char *line = trim(csv->line.text);
    if (!*line || *line == '#') {
      continue;
    }
    csv->ncells = 0;
    for (char *cell = line; cell;) {
      char *comma = strchr(cell, ',');
      if (comma) {
        *comma = '\0';
      }
      if (csv->ncells < CSV_COLUMNS_MAX) {
        csv->cells[csv->ncells] = trim(cell);
      }
      csv->ncells++;
      cell = comma ? comma + 1 : NULL;
    }
    break;
  }
cleanup:
  return status;
}

HclStatus hcl_csv_take_header(Csv *csv) {
  HclStatus status = HCL_OK;
  REQUIRE(csv->ncells <= CSV_COLUMNS_MAX, HCL_EDATA, "%s:%d: a header of %d columns; at most %d are read", csv->path,
          csv->line.number, csv->ncells, CSV_COLUMNS_MAX);
  /* The header's cells point into the line, which the next line replaces: a copy of the line keeps them. */
  const char *last = csv->cells[csv->ncells - 1];
  size_t length = (size_t)(last - csv->line.text) + strlen(last); /* through the last cell: commas are NULs now */
  free(csv->header_text);
  csv->header_text = malloc(length + 1);
  REQUIRE(csv->header_text != NULL, HCL_ENOMEM, "%s: cannot copy the header", csv->path);
  memcpy(csv->header_text, csv->line.text, length + 1);
  for (int c = 0; c < csv->ncells; c++) {
    csv->header[c] = csv->header_text + (csv->cells[c] - csv->line.text);
  }
  csv->ncolumns = csv->ncells;
cleanup:
  return status;
}

HclStatus hcl_csv_open_header(const char *path, Csv *csv) {
  HclStatus status = HCL_OK;
  bool more = false;
  TRY(hcl_csv_open(path, csv));
  TRY(hcl_csv_next(csv, &more));
  REQUIRE(more, HCL_EDATA, "%s: empty: a header line naming the columns is expected", path);
  TRY(hcl_csv_take_header(csv));
cleanup:
  return status;
}

HclStatus hcl_csv_row(Csv *csv, const char *columns, bool *more) {
  HclStatus status = HCL_OK;
  TRY(hcl_csv_next(csv, more));
  REQUIRE(!*more || csv->ncells == csv->ncolumns, HCL_EDATA,
          "%s:%d: %d columns, %d expected (%s, as the header); a comment is a line of its own, starting with '#'",
          csv->path, csv->line.number, csv->ncells, csv->ncolumns, columns);
cleanup:
  return status;
}

bool hcl_csv_header_is(const Csv *csv, const char *columns) {
  char copy[256];
  snprintf(copy, sizeof copy, "%s", columns);
  int c = 0;
  for (char *name = strtok(copy, ","); name; name = strtok(NULL, ","), c++) {
    if (c >= csv->ncolumns || strcmp(csv->header[c], name) != 0) {
      return false;
    }
  }
  return c == csv->ncolumns;
}

/* "x" (the header's name of column c) or "column 3". */
static const char *column_name(const Csv *csv, int c, char *text, size_t size) {
  if (c < csv->ncolumns) {
    return csv->header[c];
  }
  snprintf(text, size, "column %d", c + 1);
  return text;
}

/* Refuses a row without cell c. */
static HclStatus require_cell(const Csv *csv, int c) {
  HclStatus status = HCL_OK;
  REQUIRE(c < csv->ncells && c<CSV_COLUMNS_MAX, HCL_EDATA, "%s:%d: %d columns, %d expected", csv->path,
                               csv->line.number, csv->ncells, csv->ncolumns>
                                 c
              ? csv->ncolumns
              : c + 1);
cleanup:
  return status;
}

bool hcl_csv_is_number(const Csv *csv, int c, double *value) {
  char *end = NULL;
  if (c >= csv->ncells || c >= CSV_COLUMNS_MAX) {
    return false;
  }
  *value = strtod(csv->cells[c], &end);
  return end != csv->cells[c] && *end == '\0' && isfinite(*value);
}

HclStatus hcl_csv_number(const Csv *csv, int c, double *value) {
  HclStatus status = HCL_OK;
  char name[32];
  TRY(require_cell(csv, c));
  REQUIRE(hcl_csv_is_number(csv, c, value), HCL_EDATA, "%s:%d: %s must be a number (got '%s')", csv->path,
          csv->line.number, column_name(csv, c, name, sizeof name), csv->cells[c]);
cleanup:
  return status;
}

HclStatus hcl_csv_time(const Csv *csv, int c, double start, double *t) {
  HclStatus status = HCL_OK;
  char name[32];
  double date;
  TRY(require_cell(csv, c));
  if (hcl_csv_is_number(csv, c, t)) {
    return HCL_OK;
  }
  REQUIRE(hcl_input_parse_date(csv->cells[c], &date), HCL_EDATA,
          "%s:%d: %s must be seconds from the run's start or an ISO 8601 date and time ('2023-06-01T12:00:00Z', "
          "'2023-06-01 14:00:00+02:00') (got '%s')",
          csv->path, csv->line.number, column_name(csv, c, name, sizeof name), csv->cells[c]);
  *t = date - start;
cleanup:
  return status;
}

HclStatus hcl_csv_header_unit(const Csv *csv, int c, char *name, size_t name_size, char *unit, size_t unit_size) {
  HclStatus status = HCL_OK;
  const char *text = csv->header[c], *open = strchr(text, '[');
  size_t length = open ? (size_t)(open - text) : strlen(text);
  while (length > 0 && isspace((unsigned char)text[length - 1])) {
    length--;
  }
  snprintf(name, name_size, "%.*s", (int)length, text);
  unit[0] = '\0';
  if (!open) {
    goto cleanup;
  }
  const char *close = strchr(open, ']');
  REQUIRE(close != NULL && close[1] == '\0', HCL_EDATA,
          "%s:%d: column %d of the header: a unit goes in brackets at the end, '%s [km]'", csv->path, csv->line.number,
          c + 1, name);
  const char *first = open + 1 + strspn(open + 1, " \t");
  size_t unit_length = (size_t)(close - first);
  while (unit_length > 0 && isspace((unsigned char)first[unit_length - 1])) {
    unit_length--;
  }
  REQUIRE(unit_length > 0, HCL_EDATA, "%s:%d: column %d has an empty unit '[]'", csv->path, csv->line.number, c + 1);
  snprintf(unit, unit_size, "%.*s", (int)unit_length, first);
cleanup:
  return status;
}

void hcl_csv_origin(const Csv *csv, char *origin, size_t size) {
  snprintf(origin, size, "%s:%d", csv->path, csv->line.number);
}

void hcl_csv_close(Csv *csv) {
  if (csv->f) {
    fclose(csv->f);
  }
  csv->f = NULL;
  hcl_input_line_free(&csv->line);
  free(csv->header_text);
  csv->header_text = NULL;
}
