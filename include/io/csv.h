/* SPDX-License-Identifier: BSD-3-Clause */
/* csv.h: the one reader of hydrocl's comma-separated inputs (gauges, ship tracks and fleets, point sources): lines of any
 * length (hcl_input_read_line), '#' comments and blank lines skipped, cells split at commas without the blanks around
 * them, a header naming the columns where the file has one; a cell read as a number or a time, and every refusal
 * HCL_EDATA naming file:line and the column (by the header's name where there is one). A missing file is
 * HCL_ENOINPUT. */
#ifndef HYDROCL_CSV_H
#define HYDROCL_CSV_H

#include <stdbool.h>
#include <stdio.h>

#include "inputs.h"
#include "status.h"

enum { CSV_COLUMNS_MAX = 16 };

typedef struct {
  const char *path;
  FILE *f;
  InputLine line;
  char *cells[CSV_COLUMNS_MAX]; /* the present row's cells, into line */
  int ncells;                   /* every cell of the row, those past CSV_COLUMNS_MAX too (hcl_csv_row refuses) */
  char *header_text;            /* owned: a copy of the header's line, which header[] points into */
  char *header[CSV_COLUMNS_MAX];
  int ncolumns; /* the header's columns; 0: none */
} Csv;

/* Opens path for its rows (hcl_csv_next), without a header unless hcl_csv_take_header makes a row one. */
HclStatus hcl_csv_open(const char *path, Csv *csv);
/* Opens path and reads its header, the first row, which must name at most CSV_COLUMNS_MAX columns. */
HclStatus hcl_csv_open_header(const char *path, Csv *csv);
/* The present row becomes the header (a file whose header is optional: the caller has seen it is one). */
HclStatus hcl_csv_take_header(Csv *csv);
/* The next row that is neither blank nor a comment; *more is false at the end of the file. */
HclStatus hcl_csv_next(Csv *csv, bool *more);
/* The next row, refused unless it has as many cells as the header has columns (columns: the header's text, for the
 * message). */
HclStatus hcl_csv_row(Csv *csv, const char *columns, bool *more);
/* Whether the header is exactly the names in columns ("x,y,speed"). */
bool hcl_csv_header_is(const Csv *csv, const char *columns);
/* Whether cell c of the row reads whole as a finite number (into *value). */
bool hcl_csv_is_number(const Csv *csv, int c, double *value);
/* Cell c as a finite number; refused naming file:line and the column. */
HclStatus hcl_csv_number(const Csv *csv, int c, double *value);
/* Cell c as a time: seconds from the run's start, or an ISO 8601 date and time (hcl_input_parse_date) placed by
 * start (seconds since 1970, time.start). */
HclStatus hcl_csv_time(const Csv *csv, int c, double start, double *t);
/* Header column c split into its name and the unit in brackets after it ("x [km]": "x" and "km"; "" without one);
 * brackets not closed at the end, or empty, are refused naming file:line:column. */
HclStatus hcl_csv_header_unit(const Csv *csv, int c, char *name, size_t name_size, char *unit, size_t unit_size);
/* "file:line" of the present row, for messages that come later. */
void hcl_csv_origin(const Csv *csv, char *origin, size_t size);
void hcl_csv_close(Csv *csv);

#endif
