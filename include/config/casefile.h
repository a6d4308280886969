/* SPDX-License-Identifier: BSD-3-Clause */
/* casefile.h: the options database: a case's keys checked against a schema table, below every module that reads
 * its own keys (the solvers, the Laplace solver, the models). Reading a case file's YAML is the io layer's
 * (caseload.h: hcl_case_load, hcl_case_peek), through the functions for a reader below; nothing here needs libyaml.
 *
 * A model describes its inputs as a table of CaseKey rows (key, type, SI unit, default, allowed range, help); the
 * same table drives loading, `--set section.key=value` overrides, `hydrocl validate` and the commented template of
 * `hydrocl defaults`. Keys are "section.name" (or a bare "name" at the top level), written in YAML as nested
 * mappings:
 *
 *   grid:
 *     nx: 200        # grid.nx
 *
 * Every mistake is HCL_EDATA with "case.yml:LINE:COLUMN: what is wrong (got VALUE)": unknown keys (with the nearest
 * valid key), wrong types, values out of range, files that do not exist, YAML syntax errors and tab indentation.
 * A case file that cannot be opened is HCL_ENOINPUT. */
#ifndef HYDROCL_CASEFILE_H
#define HYDROCL_CASEFILE_H

#include "status.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef enum {
  CASE_INT,    /* a whole number within [min, max] */
  CASE_REAL,   /* a number within [min, max] */
  CASE_BOOL,   /* true or false */
  CASE_STRING, /* any text */
  CASE_CHOICE, /* one of the words in choices */
  CASE_FILE,   /* a path relative to the case file's folder; the file must exist */
  CASE_POINTS, /* a list of named points, each {name: NAME, x: X, y: Y} in metres; may be empty */
} CaseType;

enum { NAMED_POINT_NAME_MAX = 64 };

typedef struct {
  char name[NAMED_POINT_NAME_MAX];
  double x, y;
  char origin[320]; /* where it was defined: "case.yml:14:7" or "gauges.csv:3" */
} NamedPoint;

typedef struct {
  const char *key; /* "grid.nx" */
  CaseType type;
  const char *unit;         /* SI unit ("m", "s", "m/s"); "" when dimensionless or not a number */
  const char *default_text; /* the default as it would be written in the file; NULL when the key is required */
  double min, max;          /* inclusive range for CASE_INT and CASE_REAL */
  const char *choices;      /* CASE_CHOICE: "closed|periodic" */
  const char *help;         /* one line: what the value means */
} CaseKey;

#define CASE_UNBOUNDED (-HUGE_VAL), HUGE_VAL

typedef struct Case Case;

/* A schema assembled from the key tables of several modules: the model's own, and each embedded module's (a Krylov
 * solver, a preconditioner, the Laplace solver) under the prefix the model gives it ("solver."), so that the
 * module reads and checks its own keys wherever it is embedded and a model may embed several. */
typedef struct CaseSchema CaseSchema;

enum { CASE_KEY_MAX = 128 }; /* a key's length, prefix included, with its NUL */

HclStatus hcl_case_schema_create(CaseSchema **out);
void hcl_case_schema_destroy(CaseSchema **schema);
/* Appends keys[0 .. n) with prefix ("" for none) before each key (copied: a module may build its rows on the
 * stack). A key already in the schema is HCL_EINTERNAL. */
HclStatus hcl_case_schema_add(CaseSchema *schema, const char *prefix, const CaseKey *keys, int n);
/* The rows so far (borrowed: valid until the next add or the destroy) and their number. */
const CaseKey *hcl_case_schema_keys(const CaseSchema *schema);
int hcl_case_schema_count(const CaseSchema *schema);

/* The case takes ownership of schema (the one whose keys it was loaded with) and frees it with itself. */
void hcl_case_adopt_schema(Case *c, CaseSchema *schema);

enum { CASE_WHERE_MAX = 400 };
/* The start of a module's message about its key prefix + name: where c set it ("case.yml:12:5: ", "--set
 * solver.rtol=0: ", "default: "), or "" without a case (settings made through the C API). Into buf; returns it. */
const char *hcl_case_where(const Case *c, const char *prefix, const char *name, char buf[CASE_WHERE_MAX]);

/* prefix and name joined into buf ("solver." and "rtol": "solver.rtol"); returns buf. */
const char *hcl_case_key(char buf[CASE_KEY_MAX], const char *prefix, const char *name);

/* A case of defaults only, for `hydrocl validate` of --set values alone and for tests. */
HclStatus hcl_case_create_empty(const CaseKey *keys, int nkeys, Case **out);
void hcl_case_destroy(Case **c);

/* Applies "section.key=value", as from --set; mistakes name the --set argument. */
HclStatus hcl_case_set(Case *c, const char *assignment);
/* Fills defaults, refuses missing required keys, resolves and checks CASE_FILE paths. */
HclStatus hcl_case_finish(Case *c);

/* Typed values of a finished case; key must be in the schema (an unknown key is a bug and aborts). */
int64_t hcl_case_int(const Case *c, const char *key);
double hcl_case_real(const Case *c, const char *key);
bool hcl_case_bool(const Case *c, const char *key);
const char *hcl_case_string(const Case *c, const char *key); /* CASE_STRING, CASE_CHOICE; borrowed */
const char *hcl_case_file(const Case *c, const char *key);   /* CASE_FILE resolved against the case folder; borrowed */
/* CASE_POINTS: the points (borrowed) and their number. */
const NamedPoint *hcl_case_points(const Case *c, const char *key, int *count);
/* Where key's value came from: "case.yml:12:5", "--set grid.nx=5" or "default". Borrowed. */
const char *hcl_case_origin(const Case *c, const char *key);

/* The position of a CASE_CHOICE key's value among its choices: 0, 1, 2 for "a|b|c". */
int hcl_case_choice(const Case *c, const char *key);
/* Whether key holds its schema default: a number equal to it, no file, or the same text. */
bool hcl_case_at_default(const Case *c, const char *key);
/* Whether the '|'-separated list choices ("closed|periodic") holds word. */
bool hcl_case_word_among(const char *word, const char *choices);

/* The effective case as YAML (every key, defaults included, grouped by section whatever the order of the table,
 * strings quoted), for output metadata; hcl_case_load reads it back as the same case. Caller frees *text. */
HclStatus hcl_case_to_yaml(const Case *c, char **text);
/* A commented template with every key, its default, unit, range and help, for `hydrocl defaults`. */
void hcl_case_write_template(const CaseKey *keys, int nkeys, const char *title, FILE *out);

/* ---- For a reader of a case's text (caseload.c): the case filled key by key, each mistake noted (hcl_case_note_mistake)
 * so that reading goes on and hcl_case_finish reports them all. */

/* An empty case of keys[0..nkeys) (borrowed) read from path (its folder resolves CASE_FILE values). */
HclStatus hcl_case_begin(const CaseKey *keys, int nkeys, const char *path, Case **out);
const char *hcl_case_path(const Case *c);
const CaseKey *hcl_case_schema_key(const Case *c, const char *key); /* NULL: not in the schema */
bool hcl_case_has_section(const Case *c, const char *section);      /* whether a key "section.*" is in the schema */
/* key = text as given at origin: parsed and checked as its type; given twice (but by --set) is a mistake. */
HclStatus hcl_case_assign(Case *c, const char *key, const char *text, const char *origin);
/* key's list of points (owned from here on, also on failure): named once each. */
HclStatus hcl_case_assign_points(Case *c, const char *key, NamedPoint *points, int n, const char *origin);
/* The mistakes of a key or section the schema lacks, with the nearest one where the message is shown, and of a value
 * of the wrong kind (found: "a list"), which marks key invalid (reported once, never defaulted). */
HclStatus hcl_case_refuse_unknown_key(const Case *c, const char *key, const char *origin);
HclStatus hcl_case_refuse_unknown_section(const Case *c, const char *section, const char *origin);
HclStatus hcl_case_refuse_value(Case *c, const char *key, const char *origin, const char *found);
void hcl_case_mark_invalid(Case *c, const char *key);
/* A mistake (HCL_EDATA) recorded and cleared, HCL_OK returned; any other failure returned. */
HclStatus hcl_case_note_mistake(Case *c, HclStatus failed);

#endif
