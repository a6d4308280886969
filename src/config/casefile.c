/* SPDX-License-Identifier: BSD-3-Clause */
/* casefile.c: the options database, a case checked against a schema table (see casefile.h). */
#include "casefile.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "inputfile.h"

typedef struct {
  bool given;
  bool invalid;     /* given, and refused: reported once, never defaulted or reported as missing */
  char *text;       /* as written, or the default */
  char origin[320]; /* "case.yml:12:5", "--set grid.nx=5", "default" */
  int64_t as_int;
  double as_real;
  bool as_bool;
  char *resolved;     /* CASE_FILE: the path relative to the working folder */
  NamedPoint *points; /* CASE_POINTS */
  int npoints;
} CaseValue;

struct Case {
  CaseSchema *schema; /* owned where adopted: the keys' table */
  const CaseKey *keys;
  int nkeys;
  char *path;   /* the case file, or "" */
  char *folder; /* its folder, against which CASE_FILE values are resolved */
  CaseValue *values;
  char *mistakes; /* the messages of the mistakes found so far, one a line (note_mistake) */
  size_t mistakes_length;
  int nmistakes;
};

/* How many mistakes of a case are spelled out; the rest are counted. */
enum { CASE_MISTAKES_SHOWN = 20 };

/* A mistake in the case (failed is HCL_EDATA, its message set) is recorded, so that loading goes on and every
 * mistake is reported in one pass (hcl_case_finish); any other failure (no memory) is returned. */
HclStatus hcl_case_note_mistake(Case *c, HclStatus failed) {
  if (failed != HCL_EDATA) {
    return failed;
  }
  if (++c->nmistakes <= CASE_MISTAKES_SHOWN) {
    const char *message = hcl_status_message();
    size_t length = strlen(message);
    char *bigger = realloc(c->mistakes, c->mistakes_length + length + 2);
    if (!bigger) {
      return hcl_status_set(HCL_ENOMEM, __FILE__, __LINE__, "cannot hold the mistakes in the case");
    }
    c->mistakes = bigger;
    memcpy(c->mistakes + c->mistakes_length, message, length);
    c->mistakes_length += length;
    c->mistakes[c->mistakes_length++] = '\n';
    c->mistakes[c->mistakes_length] = '\0';
  }
  hcl_status_clear();
  return HCL_OK;
}

static int key_index(const Case *c, const char *key) {
  for (int i = 0; i < c->nkeys; i++) {
    if (strcmp(c->keys[i].key, key) == 0) {
      return i;
    }
  }
  return -1;
}

/* Levenshtein distance, for suggesting the nearest valid key. */
static int edit_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  int row[256];
  if (lb >= 255) {
    return 1000;
  }
  for (size_t j = 0; j <= lb; j++) {
    row[j] = (int)j;
  }
  for (size_t i = 1; i <= la; i++) {
    int diagonal = row[0];
    row[0] = (int)i;
    for (size_t j = 1; j <= lb; j++) {
      int above = row[j];
      int substitute = diagonal + (a[i - 1] != b[j - 1]);
      int best = above + 1 < row[j - 1] + 1 ? above + 1 : row[j - 1] + 1;
      row[j] = best < substitute ? best : substitute;
      diagonal = above;
    }
  }
  return row[lb];
}

/* How far key is from the schema's candidate: the least of the edit distances between the whole keys, between their
 * names within the section (plus one for the section that differs: time.chezy is physics.chezy misplaced), and
 * between key's name and the candidate with its dot as an underscore (output.restart_interval: restart.interval). */
static int key_distance(const char *key, const char *candidate) {
  const char *dot = strchr(key, '.'), *candidate_dot = strchr(candidate, '.');
  const char *name = dot ? dot + 1 : key, *candidate_name = candidate_dot ? candidate_dot + 1 : candidate;
  char flat[256];
  snprintf(flat, sizeof flat, "%s", candidate);
  for (char *c = flat; *c; c++) {
    *c = *c == '.' ? '_' : *c;
  }
  bool same_section = dot && candidate_dot && dot - key == candidate_dot - candidate &&
                      strncmp(key, candidate, (size_t)(dot - key)) == 0;
  int whole = edit_distance(key, candidate);
  int by_name = edit_distance(name, candidate_name) + (same_section ? 0 : 1);
  int flattened = edit_distance(name, flat) + 1;
  return whole < by_name ? (whole < flattened ? whole : flattened) : (by_name < flattened ? by_name : flattened);
}

/* " (did you mean 'grid.nx'?)" for the schema key nearest to key, or a pointer to the template when none is near
 * (within half the length of key's name, at least 2 edits). */
static void suggest_key(const Case *c, const char *key, char *out, size_t size) {
  const char *best = c->keys[0].key, *dot = strchr(key, '.');
  int best_distance = key_distance(key, best);
  for (int i = 1; i < c->nkeys; i++) {
    int d = key_distance(key, c->keys[i].key);
    if (d < best_distance) {
      best_distance = d;
      best = c->keys[i].key;
    }
  }
  int near = (int)strlen(dot ? dot + 1 : key) / 2;
  if (best_distance <= (near > 2 ? near : 2)) {
    snprintf(out, size, " (did you mean '%s'?)", best);
  } else { /* the schema's model.name holds the model's one name */
    int model = key_index(c, "model.name");
    snprintf(out, size, "; 'hydrocl defaults %s' lists the keys",
             model >= 0 && c->keys[model].choices ? c->keys[model].choices : "MODEL");
  }
}

/* Whether the next mistake of c is one that hcl_case_finish spells out (note_mistake): only those get a suggestion,
 * whose search is over the whole schema, so that a file of many unknown keys takes time linear in its size. */
static bool mistake_shown(const Case *c) {
  return c->nmistakes < CASE_MISTAKES_SHOWN;
}

/* HCL_EDATA for a key the schema lacks, with the nearest one where the message is shown. */
HclStatus hcl_case_refuse_unknown_key(const Case *c, const char *key, const char *origin) {
  char hint[320] = "";
  if (mistake_shown(c)) {
    suggest_key(c, key, hint, sizeof hint);
  }
  return hcl_status_set(HCL_EDATA, __FILE__, __LINE__, "%s: unknown key '%s'%s", origin, key, hint);
}

/* The section of the schema nearest to name, as "grid". */
static void nearest_section(const Case *c, const char *name, char *best, size_t size) {
  int best_distance = 1 << 30;
  for (int i = 0; i < c->nkeys; i++) {
    char section[256];
    const char *dot = strchr(c->keys[i].key, '.');
    snprintf(section, sizeof section, "%.*s", dot ? (int)(dot - c->keys[i].key) : 0, c->keys[i].key);
    int d = edit_distance(name, section);
    if (d < best_distance) {
      best_distance = d;
      snprintf(best, size, "%s", section);
    }
  }
}

static const char *type_phrase(const CaseKey *k) {
  switch (k->type) {
  case CASE_INT:
    return "a whole number";
  case CASE_REAL:
    return "a number";
  case CASE_BOOL:
    return "true or false";
  case CASE_CHOICE:
    return "one of the listed words";
  case CASE_FILE:
    return "a file name";
  case CASE_POINTS:
    return "a list of points {name: NAME, x: X, y: Y}";
  default:
    return "text";
  }
}

bool hcl_case_word_among(const char *word, const char *choices) {
  size_t n = strlen(word);
  for (const char *p = choices; *p;) {
    const char *bar = strchr(p, '|');
    size_t len = bar ? (size_t)(bar - p) : strlen(p);
    if (len == n && strncmp(p, word, n) == 0) {
      return true;
    }
    p += len + (bar ? 1 : 0);
  }
  return false;
}

/* Parses text into v as k's type and checks its range; origin prefixes every message. */
static HclStatus parse_value(const CaseKey *k, const char *text, const char *origin, CaseValue *v) {
  HclStatus status = HCL_OK;
  char *end = NULL;
  errno = 0;
  switch (k->type) {
  case CASE_INT:
    v->as_int = strtoll(text, &end, 10);
    REQUIRE(end != text && *end == '\0', HCL_EDATA, "%s: %s must be a whole number (got '%s')", origin, k->key, text);
    REQUIRE(errno == 0, HCL_EDATA, "%s: %s must be from %.15g to %.15g (got %s)", origin, k->key, k->min, k->max, text);
    REQUIRE((double)v->as_int >= k->min, HCL_EDATA, "%s: %s must be >= %.15g (got %s)", origin, k->key, k->min, text);
    REQUIRE((double)v->as_int <= k->max, HCL_EDATA, "%s: %s must be <= %.15g (got %s)", origin, k->key, k->max, text);
    v->as_real = (double)v->as_int;
    break;
  case CASE_REAL:
    v->as_real = strtod(text, &end);
    REQUIRE(end != text && *end == '\0' && errno == 0 && isfinite(v->as_real), HCL_EDATA,
            "%s: %s must be a number%s%s (got '%s')", origin, k->key, k->unit[0] ? " in " : "", k->unit, text);
    REQUIRE(v->as_real >= k->min, HCL_EDATA, "%s: %s must be >= %.15g (got %s)", origin, k->key, k->min, text);
    REQUIRE(v->as_real <= k->max, HCL_EDATA, "%s: %s must be <= %.15g (got %s)", origin, k->key, k->max, text);
    break;
  case CASE_BOOL:
    REQUIRE(strcmp(text, "true") == 0 || strcmp(text, "false") == 0, HCL_EDATA,
            "%s: %s must be true or false (got '%s')", origin, k->key, text);
    v->as_bool = strcmp(text, "true") == 0;
    break;
  case CASE_CHOICE:
    REQUIRE(hcl_case_word_among(text, k->choices), HCL_EDATA, "%s: %s must be one of %s (got '%s')", origin, k->key,
            k->choices, text);
    break;
  case CASE_STRING:
  case CASE_FILE: /* an empty file name means none */
    break;
  case CASE_POINTS: /* as text only the empty list: points are written as YAML lists in the case file */
    REQUIRE(text[0] == '\0' || strcmp(text, "[]") == 0, HCL_EDATA,
            "%s: %s is a list of points {name: NAME, x: X, y: Y}; write it in the case file (got '%s')", origin, k->key,
            text);
    break;
  }
cleanup:
  return status;
}

HclStatus hcl_case_assign(Case *c, const char *key, const char *text, const char *origin) {
  HclStatus status = HCL_OK;
  int i = key_index(c, key);
  if (i < 0) {
    TRY(hcl_case_refuse_unknown_key(c, key, origin));
  }
  CaseValue *v = &c->values[i];
  REQUIRE(!v->given || strncmp(v->origin, "--set", 5) == 0 || strncmp(origin, "--set", 5) == 0, HCL_EDATA,
          "%s: %s is given twice (first at %s)", origin, key, v->origin);
  v->invalid = true; /* until the value parses */
  TRY(parse_value(&c->keys[i], text, origin, v));
  v->invalid = false;
  free(v->points); /* a CASE_POINTS value given as text is the empty list */
  v->points = NULL;
  v->npoints = 0;
  free(v->text);
  v->text = strdup(text);
  REQUIRE(v->text != NULL, HCL_ENOMEM, "cannot copy the value of %s", key);
  snprintf(v->origin, sizeof v->origin, "%s", origin);
  v->given = true;
cleanup:
  return status;
}

HclStatus hcl_case_begin(const CaseKey *keys, int nkeys, const char *path, Case **out) {
  HclStatus status = HCL_OK;
  Case *c = NULL;
  TRY_ALLOC(c, 1);
  c->keys = keys;
  c->nkeys = nkeys;
  TRY_ALLOC(c->values, nkeys);
  c->path = strdup(path);
  c->folder = strdup(path);
  REQUIRE(c->path && c->folder, HCL_ENOMEM, "cannot copy the case file name");
  char *slash = strrchr(c->folder, '/');
  if (slash) {
    slash[1] = '\0';
  } else {
    c->folder[0] = '\0';
  }
  *out = c;
  c = NULL;
cleanup:
  hcl_case_destroy(&c);
  return status;
}

HclStatus hcl_case_create_empty(const CaseKey *keys, int nkeys, Case **out) {
  return hcl_case_begin(keys, nkeys, "", out);
}

void hcl_case_destroy(Case **c) {
  if (!c || !*c) {
    return;
  }
  for (int i = 0; (*c)->values && i < (*c)->nkeys; i++) {
    free((*c)->values[i].text);
    free((*c)->values[i].resolved);
    free((*c)->values[i].points);
  }
  free((*c)->values);
  free((*c)->mistakes);
  free((*c)->path);
  free((*c)->folder);
  hcl_case_schema_destroy(&(*c)->schema);
  free(*c);
  *c = NULL;
}

void hcl_case_adopt_schema(Case *c, CaseSchema *schema) {
  c->schema = schema;
}

/* ---- What a reader of a case's text fills the case with (casefile.h) */

const char *hcl_case_path(const Case *c) {
  return c->path;
}

const CaseKey *hcl_case_schema_key(const Case *c, const char *key) {
  int i = key_index(c, key);
  return i < 0 ? NULL : &c->keys[i];
}

bool hcl_case_has_section(const Case *c, const char *section) {
  size_t n = strlen(section);
  for (int i = 0; i < c->nkeys; i++) {
    if (strncmp(c->keys[i].key, section, n) == 0 && c->keys[i].key[n] == '.') {
      return true;
    }
  }
  return false;
}

HclStatus hcl_case_refuse_unknown_section(const Case *c, const char *section, const char *origin) {
  char suggestion[300] = "";
  if (mistake_shown(c)) {
    char section_name[256];
    nearest_section(c, section, section_name, sizeof section_name);
    snprintf(suggestion, sizeof suggestion, " (did you mean '%s'?)", section_name);
  }
  return hcl_status_set(HCL_EDATA, __FILE__, __LINE__, "%s: unknown section '%s'%s", origin, section, suggestion);
}

HclStatus hcl_case_refuse_value(Case *c, const char *key, const char *origin, const char *found) {
  int i = key_index(c, key);
  c->values[i].invalid = true;
  return hcl_status_set(HCL_EDATA, __FILE__, __LINE__, "%s: %s must be %s, not %s", origin, key,
                        type_phrase(&c->keys[i]), found);
}

void hcl_case_mark_invalid(Case *c, const char *key) {
  c->values[key_index(c, key)].invalid = true;
}

/* Orders points by name, and points of one name as listed. */
static int by_point_name(const void *a, const void *b) {
  const NamedPoint *p = *(const NamedPoint *const *)a, *q = *(const NamedPoint *const *)b;
  int order = strcmp(p->name, q->name);
  return order ? order : (p < q ? -1 : (p > q ? 1 : 0));
}

/* Refuses two points of one name, the first listed point that repeats an earlier one's: sorted, in O(n log n) (a
 * list of 80000 gauges compared pairwise took a minute). */
static HclStatus refuse_twice_named(const NamedPoint *points, int n, const char *key) {
  HclStatus status = HCL_OK;
  const NamedPoint **sorted = NULL, *repeat = NULL, *first = NULL;
  TRY_ALLOC(sorted, n + 1);
  for (int i = 0; i < n; i++) {
    sorted[i] = &points[i];
  }
  qsort(sorted, (size_t)n, sizeof *sorted, by_point_name);
  for (int k = 1, group = 0; k < n; k++) {
    group = strcmp(sorted[k]->name, sorted[k - 1]->name) == 0 ? group : k;
    if (group != k && (!repeat || sorted[k] < repeat)) {
      repeat = sorted[k];
      first = sorted[group];
    }
  }
  REQUIRE(repeat == NULL, HCL_EDATA, "%s: point '%s' of %s is named twice (first at %s)", repeat->origin, repeat->name,
          key, first->origin);
cleanup:
  free(sorted);
  return status;
}

/* A list of points for the CASE_POINTS key: names unique. */
HclStatus hcl_case_assign_points(Case *c, const char *key, NamedPoint *points, int n, const char *origin) {
  HclStatus status = HCL_OK;
  CaseValue *v = &c->values[key_index(c, key)];
  REQUIRE(!v->given, HCL_EDATA, "%s: %s is given twice (first at %s)", origin, key, v->origin);
  TRY(refuse_twice_named(points, n, key));
  free(v->text);
  v->text = strdup(n ? "(list)" : "[]");
  REQUIRE(v->text != NULL, HCL_ENOMEM, "cannot copy %s", key);
  free(v->points);
  v->points = points;
  v->npoints = n;
  points = NULL;
  snprintf(v->origin, sizeof v->origin, "%s", origin);
  v->given = true;
cleanup:
  free(points);
  return status;
}

/* hcl_case_set's assignment, a mistake returned. */
static HclStatus set_one(Case *c, const char *assignment) {
  HclStatus status = HCL_OK;
  char key[256], origin[320];
  const char *equals = strchr(assignment, '=');
  snprintf(origin, sizeof origin, "--set %s", assignment);
  REQUIRE(equals != NULL && equals != assignment && (size_t)(equals - assignment) < sizeof key, HCL_EDATA,
          "%s: expected section.key=value", origin);
  memcpy(key, assignment, (size_t)(equals - assignment));
  key[equals - assignment] = '\0';
  TRY(hcl_case_assign(c, key, equals + 1, origin));
cleanup:
  return status;
}

HclStatus hcl_case_set(Case *c, const char *assignment) {
  return hcl_case_note_mistake(c, set_one(c, assignment));
}

/* Key i's value when the case did not give it: its default, or the mistake of a missing required key; and a file's
 * path resolved and checked. */
static HclStatus finish_key(Case *c, int i) {
  HclStatus status = HCL_OK;
  const CaseKey *k = &c->keys[i];
  CaseValue *v = &c->values[i];
  if (v->invalid) { /* reported where it was given */
    goto cleanup;
  }
  if (!v->given) {
    REQUIRE(k->default_text != NULL, HCL_EDATA, "%s: %s is required: %s", c->path[0] ? c->path : "case", k->key,
            k->help);
    TRY(parse_value(k, k->default_text, "default", v));
    v->text = strdup(k->default_text);
    REQUIRE(v->text != NULL, HCL_ENOMEM, "cannot copy a default");
    snprintf(v->origin, sizeof v->origin, "default");
  }
  if (k->type == CASE_FILE && v->text[0]) {
    char named_by[sizeof v->origin + CASE_KEY_MAX + 2];
    size_t n = strlen(c->folder) + strlen(v->text) + 1;
    free(v->resolved);
    v->resolved = malloc(n);
    REQUIRE(v->resolved != NULL, HCL_ENOMEM, "cannot resolve %s", k->key);
    snprintf(v->resolved, n, "%s%s", v->text[0] == '/' ? "" : c->folder, v->text);
    snprintf(named_by, sizeof named_by, "%s: %s", v->origin, k->key);
    TRY(hcl_input_check_file(v->resolved, named_by, v->text)); /* the checks of every input's paths */
  }
cleanup:
  return status;
}

HclStatus hcl_case_finish(Case *c) {
  HclStatus status = HCL_OK;
  for (int i = 0; i < c->nkeys; i++) {
    TRY(hcl_case_note_mistake(c, finish_key(c, i)));
  }
  if (c->nmistakes > 0) { /* every one, in the order found: the file's, then --set's, then the missing keys */
    c->mistakes[c->mistakes_length - 1] = '\0';
    if (c->nmistakes > CASE_MISTAKES_SHOWN) {
      FAIL(HCL_EDATA, "%s\n... and %d more mistakes in the case", c->mistakes, c->nmistakes - CASE_MISTAKES_SHOWN);
    }
    FAIL(HCL_EDATA, "%s", c->mistakes);
  }
cleanup:
  return status;
}

static const CaseValue *value_of(const Case *c, const char *key) {
  int i = key_index(c, key);
  if (i < 0 || !c->values[i].text) {
    fprintf(stderr, "hydrocl: internal error: case key '%s' is %s (please report)\n", key,
            i < 0 ? "not in the schema" : "read before hcl_case_finish");
    abort();
  }
  return &c->values[i];
}

int64_t hcl_case_int(const Case *c, const char *key) {
  return value_of(c, key)->as_int;
}

double hcl_case_real(const Case *c, const char *key) {
  return value_of(c, key)->as_real;
}

bool hcl_case_bool(const Case *c, const char *key) {
  return value_of(c, key)->as_bool;
}

const char *hcl_case_string(const Case *c, const char *key) {
  return value_of(c, key)->text;
}

const char *hcl_case_file(const Case *c, const char *key) {
  const CaseValue *v = value_of(c, key);
  return v->resolved ? v->resolved : v->text;
}

const NamedPoint *hcl_case_points(const Case *c, const char *key, int *count) {
  const CaseValue *v = value_of(c, key);
  *count = v->npoints;
  return v->points;
}

const char *hcl_case_origin(const Case *c, const char *key) {
  return value_of(c, key)->origin;
}

int hcl_case_choice(const Case *c, const char *key) {
  const CaseValue *v = value_of(c, key);
  const char *p = c->keys[key_index(c, key)].choices;
  int index = 0;
  for (size_t n = strlen(v->text); strncmp(p, v->text, n) != 0 || (p[n] != '|' && p[n] != '\0'); index++) {
    p = strchr(p, '|') + 1; /* the value is one of the choices (parse_value) */
  }
  return index;
}

bool hcl_case_at_default(const Case *c, const char *key) {
  const CaseValue *v = value_of(c, key); /* aborts for a key outside the schema */
  const CaseKey *k = &c->keys[key_index(c, key)];
  if (!k->default_text) {
    return false;
  }
  return k->type == CASE_REAL   ? v->as_real == strtod(k->default_text, NULL)
         : k->type == CASE_FILE ? v->text[0] == '\0'
                                : strcmp(v->text, k->default_text) == 0;
}

/* Appends printf output to a growing string. */
__attribute__((format(printf, 3, 4))) static HclStatus grow(char **text, size_t *length, const char *fmt, ...) {
  HclStatus status = HCL_OK;
  va_list args;
  va_start(args, fmt);
  int n = vsnprintf(NULL, 0, fmt, args);
  va_end(args);
  char *bigger = realloc(*text, *length + (size_t)n + 1);
  REQUIRE(bigger != NULL, HCL_ENOMEM, "cannot grow the case text");
  va_start(args, fmt);
  vsnprintf(bigger + *length, (size_t)n + 1, fmt, args);
  va_end(args);
  *text = bigger;
  *length += (size_t)n;
cleanup:
  return status;
}

/* The length of key's section ("grid" of "grid.nx"); 0 for a key outside any section. */
static size_t section_length(const char *key) {
  const char *dot = strchr(key, '.');
  return dot ? (size_t)(dot - key) : 0;
}

/* The key's name within its section: "nx" of "grid.nx", all of a key outside any section. */
static const char *name_in_section(const char *key) {
  size_t n = section_length(key);
  return n ? key + n + 1 : key;
}

static bool same_section(const char *a, const char *b) {
  size_t n = section_length(a);
  return n == section_length(b) && strncmp(a, b, n) == 0;
}

/* True when no key before i is in its section: there the section is written, with all its keys. */
static bool opens_section(const CaseKey *keys, int i) {
  for (int j = 0; j < i; j++) {
    if (same_section(keys[j].key, keys[i].key)) {
      return false;
    }
  }
  return true;
}

/* The key after i when keys are written grouped by section, the sections in the order of their first key: a YAML
 * mapping may hold each section only once, wherever the table puts its keys. nkeys after the last. */
static int next_grouped(const CaseKey *keys, int nkeys, int i) {
  for (int j = i + 1; j < nkeys; j++) {
    if (same_section(keys[j].key, keys[i].key)) {
      return j;
    }
  }
  int first = 0;
  while (!same_section(keys[first].key, keys[i].key)) {
    first++;
  }
  for (int j = first + 1; j < nkeys; j++) {
    if (opens_section(keys, j)) {
      return j;
    }
  }
  return nkeys;
}

/* The code point of the UTF-8 sequence at p and its length in *n; -1 (and *n = 1) for a byte that starts no valid
 * sequence (a stray continuation byte, an overlong form, a surrogate). Stops at the NUL. */
static long utf8_next(const unsigned char *p, int *n) {
  static const long least[] = {0, 0, 0x80, 0x800, 0x10000};
  int len = p[0] < 0x80 ? 1 : (p[0] & 0xe0) == 0xc0 ? 2 : (p[0] & 0xf0) == 0xe0 ? 3 : (p[0] & 0xf8) == 0xf0 ? 4 : 0;
  long cp = len == 1 ? p[0] : len == 2 ? p[0] & 0x1f : len == 3 ? p[0] & 0x0f : p[0] & 0x07;
  for (int k = 1; k < len; k++) {
    if ((p[k] & 0xc0) != 0x80) {
      len = 0;
      break;
    }
    cp = (cp << 6) | (p[k] & 0x3f);
  }
  if (len == 0 || cp < least[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
    *n = 1;
    return -1;
  }
  *n = len;
  return cp;
}

/* Whether a quoted YAML scalar holds code point cp as itself: printable (YAML 1.1 section 5.1, which libyaml's reader
 * checks: C0 and C1 controls, DEL, U+FFFE and U+FFFF are not) and no line break (a quoted scalar folds NEL, LS and
 * PS as it folds a newline). */
static bool printable_in_quotes(long cp) {
  return cp == '\t' || (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xd7ff && cp != 0x2028 && cp != 0x2029) ||
         (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
}

/* Appends text as a YAML scalar that loads back unchanged: single-quoted with ' doubled (YAML 1.2 section 7.3.2),
 * or double-quoted with escapes (\xNN, \uNNNN, \UNNNNNNNN) where it holds line breaks (NEL, LS and PS too) or other
 * characters YAML does not print, which a single-quoted scalar would fold or cannot hold. Bytes that are not UTF-8
 * (possible from --set only: libyaml refuses them in a file) are copied; no YAML holds them. */
static HclStatus grow_quoted(char **out, size_t *length, const char *text) {
  HclStatus status = HCL_OK;
  bool single = true;
  int n = 1;
  for (const unsigned char *p = (const unsigned char *)text; *p; p += n) {
    long cp = utf8_next(p, &n);
    single = single && printable_in_quotes(cp);
  }
  TRY(grow(out, length, "%c", single ? '\'' : '"'));
  for (const unsigned char *p = (const unsigned char *)text; *p; p += n) {
    long cp = utf8_next(p, &n);
    if (single && *p == '\'') {
      TRY(grow(out, length, "''"));
    } else if (!single && (*p == '"' || *p == '\\')) {
      TRY(grow(out, length, "\\%c", *p));
    } else if (!single && cp >= 0 && !printable_in_quotes(cp)) {
      TRY(grow(out, length, cp <= 0xff ? "\\x%02lx" : cp <= 0xffff ? "\\u%04lx" : "\\U%08lx", cp));
    } else {
      TRY(grow(out, length, "%.*s", n, (const char *)p));
    }
  }
  TRY(grow(out, length, "%c", single ? '\'' : '"'));
cleanup:
  return status;
}

/* One "name: value" line of the effective case, indented when the key is in a section. */
static HclStatus grow_entry(const Case *c, int i, char **out, size_t *length) {
  HclStatus status = HCL_OK;
  const CaseKey *k = &c->keys[i];
  const CaseValue *v = value_of(c, k->key);
  TRY(grow(out, length, "%s%s: ", section_length(k->key) ? "  " : "", name_in_section(k->key)));
  if (k->type == CASE_POINTS) {
    TRY(grow(out, length, "["));
    for (int p = 0; p < v->npoints; p++) {
      TRY(grow(out, length, "%s{name: ", p ? ", " : ""));
      TRY(grow_quoted(out, length, v->points[p].name));
      TRY(grow(out, length, ", x: %.17g, y: %.17g}", v->points[p].x, v->points[p].y));
    }
    TRY(grow(out, length, "]"));
  } else if (k->type == CASE_STRING || k->type == CASE_FILE) {
    TRY(grow_quoted(out, length, v->text));
  } else if (isspace((unsigned char)v->text[0])) {
    /* A number given with white space before it, which strtod and strtoll skip (a quoted " 5" or "\n5"): written
     * raw, it would break the line; quoted, it loads back as written. */
    TRY(grow_quoted(out, length, v->text));
  } else {
    TRY(grow(out, length, "%s", v->text)); /* checked numbers, booleans and words of the schema */
  }
  TRY(grow(out, length, "\n"));
cleanup:
  return status;
}

HclStatus hcl_case_to_yaml(const Case *c, char **text) {
  HclStatus status = HCL_OK;
  char *out = NULL;
  size_t length = 0;
  *text = NULL;
  TRY(grow(&out, &length, "%s", ""));
  for (int i = 0; i < c->nkeys; i = next_grouped(c->keys, c->nkeys, i)) {
    const char *key = c->keys[i].key;
    if (section_length(key) && opens_section(c->keys, i)) {
      TRY(grow(&out, &length, "%.*s:\n", (int)section_length(key), key));
    }
    TRY(grow_entry(c, i, &out, &length));
  }
  *text = out;
  out = NULL;
cleanup:
  free(out);
  return status;
}

void hcl_case_write_template(const CaseKey *keys, int nkeys, const char *title, FILE *out) {
  fprintf(out, "# %s\n# Every key with its default; units are SI. Remove what you do not change.\n", title);
  for (int i = 0; i < nkeys; i = next_grouped(keys, nkeys, i)) {
    const CaseKey *k = &keys[i];
    size_t n = section_length(k->key);
    const char *indent = n ? "  " : "";
    if (opens_section(keys, i)) {
      fprintf(out, "%s", i ? "\n" : "");
      if (n) {
        fprintf(out, "%.*s:\n", (int)n, k->key);
      }
    }
    fprintf(out, "%s# %s", indent, k->help);
    if (k->unit[0]) {
      fprintf(out, " [%s]", k->unit);
    }
    if ((k->type == CASE_INT || k->type == CASE_REAL) && (isfinite(k->min) || isfinite(k->max))) {
      fprintf(out, "; range %.15g to %.15g", k->min, k->max);
    }
    if (k->type == CASE_CHOICE) {
      fprintf(out, "; one of %s", k->choices);
    }
    fprintf(out, "\n");
    if (k->default_text) {
      fprintf(out, "%s%s: %s\n", indent, name_in_section(k->key), k->default_text[0] ? k->default_text : "''");
    } else if (k->type == CASE_CHOICE && !strchr(k->choices, '|')) { /* required, with one possible value */
      fprintf(out, "%s%s: %s\n", indent, name_in_section(k->key), k->choices);
    } else {
      fprintf(out, "%s# %s: (required)\n", indent, name_in_section(k->key));
    }
  }
}

/* ---- schemas assembled from modules' tables ---- */

struct CaseSchema {
  CaseKey *keys; /* key and default_text owned */
  int count, capacity;
};

HclStatus hcl_case_schema_create(CaseSchema **out) {
  HclStatus status = HCL_OK;
  CaseSchema *s = NULL;
  TRY_ALLOC(s, 1);
  *out = s;
cleanup:
  return status;
}

void hcl_case_schema_destroy(CaseSchema **schema) {
  if (!schema || !*schema) {
    return;
  }
  CaseSchema *s = *schema;
  for (int i = 0; i < s->count; i++) {
    free((char *)s->keys[i].key);
    free((char *)s->keys[i].default_text);
  }
  free(s->keys);
  free(s);
  *schema = NULL;
}

const char *hcl_case_key(char buf[CASE_KEY_MAX], const char *prefix, const char *name) {
  snprintf(buf, CASE_KEY_MAX, "%s%s", prefix, name);
  return buf;
}

const char *hcl_case_where(const Case *c, const char *prefix, const char *name, char buf[CASE_WHERE_MAX]) {
  char key[CASE_KEY_MAX];
  buf[0] = '\0';
  if (c) {
    snprintf(buf, CASE_WHERE_MAX, "%s: ", hcl_case_origin(c, hcl_case_key(key, prefix, name)));
  }
  return buf;
}

static bool schema_has(const CaseSchema *s, const char *key) {
  for (int i = 0; i < s->count; i++) {
    if (strcmp(s->keys[i].key, key) == 0) {
      return true;
    }
  }
  return false;
}

HclStatus hcl_case_schema_add(CaseSchema *s, const char *prefix, const CaseKey *keys, int n) {
  HclStatus status = HCL_OK;
  char key[CASE_KEY_MAX];
  if (s->count + n > s->capacity) {
    int capacity = s->count + n + 32;
    CaseKey *grown = realloc(s->keys, sizeof *grown * (size_t)capacity);
    REQUIRE(grown != NULL, HCL_ENOMEM, "cannot grow a case schema to %d keys", capacity);
    s->keys = grown;
    s->capacity = capacity;
  }
  for (int i = 0; i < n; i++) {
    hcl_case_key(key, prefix, keys[i].key);
    REQUIRE(strlen(prefix) + strlen(keys[i].key) < CASE_KEY_MAX && !schema_has(s, key), HCL_EINTERNAL,
            "case key '%s' is too long or given twice in one schema (please report)", key);
    CaseKey row = keys[i];
    row.key = strdup(key);
    row.default_text = keys[i].default_text ? strdup(keys[i].default_text) : NULL;
    if (!row.key || (keys[i].default_text && !row.default_text)) {
      free((char *)row.key);
      free((char *)row.default_text);
      FAIL(HCL_ENOMEM, "cannot copy case key '%s'", key);
    }
    s->keys[s->count++] = row;
  }
cleanup:
  return status;
}

const CaseKey *hcl_case_schema_keys(const CaseSchema *schema) {
  return schema->keys;
}

int hcl_case_schema_count(const CaseSchema *schema) {
  return schema->count;
}
