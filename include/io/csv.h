/* SPDX-License-Identifier: BSD-3-Clause */
/* csv.h: the comma-separated text inputs' rows: lines of fields separated by commas, '#' comments and blank lines
 * skipped, each field without the blanks around it; a field read as a number or a name with its file:line:column in
 * any refusal (HCL_EDATA). A missing file is HCL_ENOINPUT (hcl_input_open). */
#ifndef HYDROCL_CSV_H
#define HYDROCL_CSV_H

#include <stdbool.h>
#include <stdio.h>

#include "inputs.h"
#include "status.h"

enum { CSV_FIELDS_MAX = 64 };

typedef struct {
  const char *path;
  FILE *f;
  InputLine line;               /* the row's text, split in place */
  char *fields[CSV_FIELDS_MAX]; /* the row's fields, trimmed, into line.text */
  int count;
} CsvReader;

/* Opens path; start it zeroed. */
HclStatus hcl_csv_open(const char *path, CsvReader *r);
/* The next row that is neither blank nor a comment into r->fields; *more is false at the end of the file. A row of
 * more than CSV_FIELDS_MAX fields is refused. */
HclStatus hcl_csv_next(CsvReader *r, bool *more);
/* Whether field column (0-based) of the row reads whole as a finite number. */
bool hcl_csv_is_number(const CsvReader *r, int column, double *value);
/* Field column as a finite number into *value; else HCL_EDATA naming file:line:column, what it is ("x") and the
 * field. */
HclStatus hcl_csv_number(const CsvReader *r, int column, const char *what, double *value);
/* Requires the row to have count fields (HCL_EDATA naming file:line and what a row holds: "name,x,y,discharge"). */
HclStatus hcl_csv_require_fields(const CsvReader *r, int count, const char *row);
/* "file:line" of the row, for messages that come later. */
void hcl_csv_origin(const CsvReader *r, char *origin, size_t size);
void hcl_csv_close(CsvReader *r);

#endif
