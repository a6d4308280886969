/* SPDX-License-Identifier: BSD-3-Clause */
/* casefile.c: YAML case files (libyaml) checked against a schema table; see casefile.h. */
#include "casefile.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <yaml.h>

#include "inputs.h"

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
 * mistake is reported in one pass (case_finish); any other failure (no memory) is returned. */
static HclStatus note_mistake(Case *c, HclStatus failed) {
  if (failed != HCL_EDATA) {
    return failed;
  }
  if (++c->nmistakes <= CASE_MISTAKES_SHOWN) {
    const char *message = status_message();
    size_t length = strlen(message);
    char *bigger = realloc(c->mistakes, c->mistakes_length + length + 2);
    if (!bigger) {
      return status_set(HCL_ENOMEM, __FILE__, __LINE__, "cannot hold the mistakes in the case");
    }
    c->mistakes = bigger;
    memcpy(c->mistakes + c->mistakes_length, message, length);
    c->mistakes_length += length;
    c->mistakes[c->mistakes_length++] = '\n';
    c->mistakes[c->mistakes_length] = '\0';
  }
  status_clear();
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

/* Whether the next mistake of c is one that case_finish spells out (note_mistake): only those get a suggestion,
 * whose search is over the whole schema, so that a file of many unknown keys takes time linear in its size. */
static bool mistake_shown(const Case *c) {
  return c->nmistakes < CASE_MISTAKES_SHOWN;
}

/* HCL_EDATA for a key the schema lacks, with the nearest one where the message is shown. */
static HclStatus refuse_unknown_key(const Case *c, const char *key, const char *origin) {
  char hint[320] = "";
  if (mistake_shown(c)) {
    suggest_key(c, key, hint, sizeof hint);
  }
  return status_set(HCL_EDATA, __FILE__, __LINE__, "%s: unknown key '%s'%s", origin, key, hint);
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

bool case_word_among(const char *word, const char *choices) {
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
    REQUIRE(case_word_among(text, k->choices), HCL_EDATA, "%s: %s must be one of %s (got '%s')", origin, k->key,
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

static HclStatus assign(Case *c, const char *key, const char *text, const char *origin) {
  HclStatus status = HCL_OK;
  int i = key_index(c, key);
  if (i < 0) {
    TRY(refuse_unknown_key(c, key, origin));
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

static HclStatus case_alloc(const CaseKey *keys, int nkeys, const char *path, Case **out) {
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
  case_destroy(&c);
  return status;
}

HclStatus case_create_empty(const CaseKey *keys, int nkeys, Case **out) {
  return case_alloc(keys, nkeys, "", out);
}

void case_destroy(Case **c) {
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
  case_schema_destroy(&(*c)->schema);
  free(*c);
  *c = NULL;
}

void case_adopt_schema(Case *c, CaseSchema *schema) {
  c->schema = schema;
}

/* YAML forbids tabs in indentation, and libyaml's message for one is obscure: find them first. */
/* A case file is at most a few levels deep (section, key, a list of points); deeper nesting is refused before the
 * YAML parser sees it (its time grows with the square of the depth). */
enum { CASE_DEPTH_MAX = 64, CASE_INDENT_MAX = 256 };

/* Refuses a tab in a line's indentation (YAML indents with spaces only), an indentation beyond CASE_INDENT_MAX
 * columns (block nesting) and flow brackets ([ {) nested deeper than CASE_DEPTH_MAX, naming the line; lines of any
 * length. Brackets count outside comments and outside a quoted scalar that opens and closes on its line (a quote
 * opens one only after a space or [ { , : or at the line's start, so an apostrophe in a plain word is no quote). */
static HclStatus check_layout(const char *path, const char *text, size_t length) {
  HclStatus status = HCL_OK;
  int number = 1, depth = 0;
  for (size_t at = 0; at < length;) {
    size_t i = 0;
    char quote = 0;
    for (; at + i < length && (text[at + i] == ' ' || text[at + i] == '\t'); i++) {
      REQUIRE(text[at + i] != '\t', HCL_EDATA, "%s:%d:%zu: tab in the indentation; YAML indents with spaces only", path,
              number, i + 1);
    }
    REQUIRE(i <= CASE_INDENT_MAX, HCL_EDATA,
            "%s:%d: indented %zu columns; a case file nests a few levels, at most %d "
            "columns",
            path, number, i, CASE_INDENT_MAX);
    const char *newline = memchr(text + at, '\n', length - at);
    size_t end = newline ? (size_t)(newline - text) : length;
    for (size_t k = at + i; k < end; k++) {
      char ch = text[k];
      if (quote) {
        quote = ch == quote ? 0 : quote;
      } else if (ch == '#' && (k == at || text[k - 1] == ' ')) {
        break; /* a comment runs to the end of the line */
      } else if ((ch == '"' || ch == '\'') && (k == at + i || strchr(" [{,:", text[k - 1]))) {
        quote = ch;
      } else if (ch == '[' || ch == '{') {
        REQUIRE(++depth <= CASE_DEPTH_MAX, HCL_EDATA, "%s:%d:%zu: lists or maps nested deeper than %d", path, number,
                k - at + 1, CASE_DEPTH_MAX);
      } else if ((ch == ']' || ch == '}') && depth > 0) {
        depth--;
      }
    }
    at = end + 1;
    number++;
  }
cleanup:
  return status;
}

/* A case file is read whole, every time it is opened; one that is not a regular file (a pipe, /dev/stdin, a
 * process substitution) is read once and kept for the process: `run` and `validate` look at the case more than once
 * (case_peek, then case_load), and a pipe can be read only once. A case file is text of a few kB; more than
 * CASE_FILE_MAX bytes, or a NUL byte, is not one. */
enum { CASE_FILE_MAX = 16 << 20 };
static struct {
  char *path, *text;
  size_t length;
} case_text;

static HclStatus read_case_text(const char *path, const char **text, size_t *length) {
  HclStatus status = HCL_OK;
  struct stat info;
  FILE *f = NULL;
  char *buffer = NULL, *copy = NULL;
  size_t used = 0, capacity = 0;
  REQUIRE(stat(path, &info) == 0, HCL_ENOINPUT, "cannot open case file '%s': %s", path, strerror(errno));
  REQUIRE(!S_ISDIR(info.st_mode), HCL_ENOINPUT, "'%s' is a folder, not a case file", path);
  if (!S_ISREG(info.st_mode) && case_text.path && strcmp(case_text.path, path) == 0) {
    goto found;
  }
  f = fopen(path, "rb");
  REQUIRE(f != NULL, HCL_ENOINPUT, "cannot open case file '%s': %s", path, strerror(errno));
  for (;;) {
    if (used == capacity) {
      REQUIRE(capacity < CASE_FILE_MAX, HCL_EDATA, "%s: larger than %d MiB; a case file is text of a few kB", path,
              CASE_FILE_MAX >> 20);
      capacity = capacity ? 2 * capacity : 65536;
      char *bigger = realloc(buffer, capacity + 1);
      REQUIRE(bigger != NULL, HCL_ENOMEM, "cannot hold case file '%s'", path);
      buffer = bigger;
    }
    size_t got = fread(buffer + used, 1, capacity - used, f);
    REQUIRE(memchr(buffer + used, '\0', got) == NULL, HCL_EDATA, "%s: holds a NUL byte; a case file is text", path);
    used += got;
    if (got == 0) {
      REQUIRE(!ferror(f), HCL_EIO, "cannot read case file '%s': %s", path, strerror(errno));
      break;
    }
  }
  buffer[used] = '\0';
  copy = strdup(path);
  REQUIRE(copy != NULL, HCL_ENOMEM, "cannot hold case file '%s'", path);
  free(case_text.path);
  free(case_text.text);
  case_text.path = copy;
  case_text.text = buffer;
  case_text.length = used;
  copy = buffer = NULL;
found:
  *text = case_text.text;
  *length = case_text.length;
cleanup:
  if (f) {
    fclose(f);
  }
  free(buffer);
  free(copy);
  return status;
}

static void mark_origin(const char *path, yaml_mark_t mark, char *buf, size_t size) {
  snprintf(buf, size, "%s:%zu:%zu", path, mark.line + 1, mark.column + 1);
}

static const char *node_kind(const yaml_node_t *node) {
  return node->type == YAML_SEQUENCE_NODE ? "a list" : node->type == YAML_MAPPING_NODE ? "a section" : "a value";
}

/* Refuses a scalar holding a NUL byte (YAML writes one as "\0", "\x00" or "\u0000" in double quotes): keys and
 * values are C strings, which would end there and keep only what comes before. what names it ("the key
 * 'grid.nx'"). */
static HclStatus refuse_nul(const yaml_node_t *scalar, const char *origin, const char *what) {
  HclStatus status = HCL_OK;
  const char *text = (const char *)scalar->data.scalar.value;
  REQUIRE(memchr(text, '\0', scalar->data.scalar.length) == NULL, HCL_EDATA,
          "%s: %s holds a NUL byte (\\0, \\x00 or \\u0000) after '%s'; keys and values are text without one", origin,
          what, text);
cleanup:
  return status;
}

/* One {name, x, y} item of a list of points. */
static HclStatus parse_point(Case *c, yaml_document_t *doc, yaml_node_t *item, const char *key, NamedPoint *point) {
  HclStatus status = HCL_OK;
  char origin[320];
  bool has_name = false, has_x = false, has_y = false;
  mark_origin(c->path, item->start_mark, origin, sizeof origin);
  REQUIRE(item->type == YAML_MAPPING_NODE, HCL_EDATA, "%s: each item of %s must be {name: NAME, x: X, y: Y}", origin,
          key);
  snprintf(point->origin, sizeof point->origin, "%s", origin);
  for (yaml_node_pair_t *pair = item->data.mapping.pairs.start; pair < item->data.mapping.pairs.top; pair++) {
    yaml_node_t *k = yaml_document_get_node(doc, pair->key);
    yaml_node_t *v = yaml_document_get_node(doc, pair->value);
    mark_origin(c->path, v->start_mark, origin, sizeof origin);
    REQUIRE(k->type == YAML_SCALAR_NODE && v->type == YAML_SCALAR_NODE, HCL_EDATA,
            "%s: a point of %s has plain name, x and y values", origin, key);
    TRY(refuse_nul(k, origin, "a field of a point"));
    TRY(refuse_nul(v, origin, "a value of a point"));
    const char *field = (const char *)k->data.scalar.value, *text = (const char *)v->data.scalar.value;
    if (strcmp(field, "name") == 0) {
      REQUIRE(text[0] && strlen(text) < NAMED_POINT_NAME_MAX, HCL_EDATA,
              "%s: a point name in %s has 1 to %d characters (got '%s')", origin, key, NAMED_POINT_NAME_MAX - 1, text);
      snprintf(point->name, sizeof point->name, "%s", text);
      has_name = true;
    } else if (strcmp(field, "x") == 0 || strcmp(field, "y") == 0) {
      char *end = NULL;
      double value = strtod(text, &end);
      REQUIRE(end != text && *end == '\0' && isfinite(value), HCL_EDATA,
              "%s: %s of a point in %s must be a number in m (got '%s')", origin, field, key, text);
      *(field[0] == 'x' ? &point->x : &point->y) = value;
      *(field[0] == 'x' ? &has_x : &has_y) = true;
    } else {
      FAIL(HCL_EDATA, "%s: a point of %s has only name, x and y (got '%s')", origin, key, field);
    }
  }
  REQUIRE(has_name && has_x && has_y, HCL_EDATA, "%s: a point of %s needs name, x and y", point->origin, key);
cleanup:
  return status;
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

/* A list of points for the CASE_POINTS key: every item checked, names unique. */
static HclStatus assign_points(Case *c, yaml_document_t *doc, yaml_node_t *list, const char *key, const char *origin) {
  HclStatus status = HCL_OK;
  NamedPoint *points = NULL;
  int n = (int)(list->data.sequence.items.top - list->data.sequence.items.start);
  CaseValue *v = &c->values[key_index(c, key)];
  REQUIRE(!v->given, HCL_EDATA, "%s: %s is given twice (first at %s)", origin, key, v->origin);
  TRY_ALLOC(points, n);
  for (int i = 0; i < n; i++) {
    TRY(parse_point(c, doc, yaml_document_get_node(doc, list->data.sequence.items.start[i]), key, &points[i]));
  }
  TRY(refuse_twice_named(points, n, key));
  free(v->text);
  v->text = strdup(n ? "(list)" : "[]");
  REQUIRE(v->text != NULL, HCL_ENOMEM, "cannot copy %s", key);
  v->points = points;
  v->npoints = n;
  points = NULL;
  snprintf(v->origin, sizeof v->origin, "%s", origin);
  v->given = true;
cleanup:
  free(points);
  return status;
}

static HclStatus walk_mapping(Case *c, yaml_document_t *doc, yaml_node_t *mapping, const char *prefix);

/* One key: value pair of a mapping node: a value assigned, or a nested section walked. */
static HclStatus walk_pair(Case *c, yaml_document_t *doc, yaml_node_t *k, yaml_node_t *v, const char *prefix) {
  HclStatus status = HCL_OK;
  char origin[320], key[256];
  mark_origin(c->path, k->start_mark, origin, sizeof origin);
  REQUIRE(k->type == YAML_SCALAR_NODE, HCL_EDATA, "%s: a key must be a plain name", origin);
  TRY(refuse_nul(k, origin, "a key"));
  snprintf(key, sizeof key, "%s%s", prefix, (const char *)k->data.scalar.value);
  char section[sizeof key + 1];
  snprintf(section, sizeof section, "%s.", key);
  bool known = false;
  for (int i = 0; i < c->nkeys && !known; i++) {
    known = strncmp(c->keys[i].key, section, strlen(section)) == 0;
  }
  REQUIRE(v->type == YAML_MAPPING_NODE || !known, HCL_EDATA,
          "%s: '%s' is a section: its keys go on the lines below it, indented ('%s:' then '  key: value')", origin, key,
          key);
  if (v->type == YAML_MAPPING_NODE) {
    if (!known) {
      char suggestion[300] = "";
      if (mistake_shown(c)) {
        char section_name[256];
        nearest_section(c, key, section_name, sizeof section_name);
        snprintf(suggestion, sizeof suggestion, " (did you mean '%s'?)", section_name);
      }
      FAIL(HCL_EDATA, "%s: unknown section '%s'%s", origin, key, suggestion);
    }
    TRY(walk_mapping(c, doc, v, section));
    goto cleanup;
  }
  int i = key_index(c, key);
  if (i < 0) {
    TRY(refuse_unknown_key(c, key, origin));
  }
  mark_origin(c->path, v->start_mark, origin, sizeof origin); /* a bad value is pointed at itself */
  if (c->keys[i].type == CASE_POINTS && v->type == YAML_SEQUENCE_NODE) {
    TRY(assign_points(c, doc, v, key, origin));
    goto cleanup;
  }
  if (v->type != YAML_SCALAR_NODE) {
    c->values[i].invalid = true;
    FAIL(HCL_EDATA, "%s: %s must be %s, not %s", origin, key, type_phrase(&c->keys[i]), node_kind(v));
  }
  if (v->data.scalar.length != strlen((const char *)v->data.scalar.value)) {
    c->values[i].invalid = true;
    char what[sizeof key + 16];
    snprintf(what, sizeof what, "the value of %s", key);
    TRY(refuse_nul(v, origin, what));
  }
  TRY(assign(c, key, (const char *)v->data.scalar.value, origin));
cleanup:
  return status;
}

/* Assigns the scalars of a mapping node, recursing into nested sections with prefix "section."; a mistake in a
 * pair is noted and the walk goes on (note_mistake). */
static HclStatus walk_mapping(Case *c, yaml_document_t *doc, yaml_node_t *mapping, const char *prefix) {
  HclStatus status = HCL_OK;
  for (yaml_node_pair_t *pair = mapping->data.mapping.pairs.start; pair < mapping->data.mapping.pairs.top; pair++) {
    yaml_node_t *k = yaml_document_get_node(doc, pair->key);
    yaml_node_t *v = yaml_document_get_node(doc, pair->value);
    TRY(note_mistake(c, walk_pair(c, doc, k, v, prefix)));
  }
cleanup:
  return status;
}

/* A YAML file read into a document (libyaml), what case_load and case_peek start from. */
typedef struct {
  yaml_parser_t parser;
  yaml_document_t doc;
  bool parser_ready, doc_ready;
} YamlFile;

static void yaml_file_close(YamlFile *y) {
  if (y->doc_ready) {
    yaml_document_delete(&y->doc);
  }
  if (y->parser_ready) {
    yaml_parser_delete(&y->parser);
  }
  memset(y, 0, sizeof *y);
}

/* Refuses a second YAML document in the file (after `---`): a case file is one. */
static HclStatus refuse_second_document(const char *path, yaml_parser_t *parser) {
  HclStatus status = HCL_OK;
  yaml_document_t next;
  bool loaded = yaml_parser_load(parser, &next);
  REQUIRE(loaded, HCL_EDATA, "%s:%zu:%zu: YAML syntax error after the first document: %s", path,
          parser->problem_mark.line + 1, parser->problem_mark.column + 1,
          parser->problem ? parser->problem : "unreadable");
  yaml_node_t *root = yaml_document_get_root_node(&next);
  size_t line = root ? root->start_mark.line + 1 : 0;
  yaml_document_delete(&next);
  REQUIRE(root == NULL, HCL_EDATA,
          "%s:%zu: a second YAML document (after '---'); a case file is one document: join them or remove one", path,
          line);
cleanup:
  return status;
}

/* Reads (read_case_text) and parses path; its root node (NULL for an empty file) is a mapping. */
static HclStatus yaml_file_open(const char *path, YamlFile *y, yaml_node_t **root) {
  HclStatus status = HCL_OK;
  const char *text = NULL;
  size_t length = 0;
  memset(y, 0, sizeof *y);
  TRY(read_case_text(path, &text, &length));
  TRY(check_layout(path, text, length));
  REQUIRE(yaml_parser_initialize(&y->parser), HCL_ENOMEM, "cannot start the YAML parser");
  y->parser_ready = true;
  yaml_parser_set_input_string(&y->parser, (const unsigned char *)text, length);
  if (!yaml_parser_load(&y->parser, &y->doc)) {
    FAIL(HCL_EDATA, "%s:%zu:%zu: YAML syntax error: %s%s%s", path, y->parser.problem_mark.line + 1,
         y->parser.problem_mark.column + 1, y->parser.problem ? y->parser.problem : "unreadable",
         y->parser.context ? " " : "", y->parser.context ? y->parser.context : "");
  }
  y->doc_ready = true;
  TRY(refuse_second_document(path, &y->parser));
  *root = yaml_document_get_root_node(&y->doc);
  if (*root) {
    char origin[320];
    mark_origin(path, (*root)->start_mark, origin, sizeof origin);
    REQUIRE((*root)->type == YAML_MAPPING_NODE, HCL_EDATA, "%s: a case file is a set of sections (key: value lines)",
            origin);
  }
cleanup:
  return status;
}

HclStatus case_load(const CaseKey *keys, int nkeys, const char *path, Case **out) {
  HclStatus status = HCL_OK;
  Case *c = NULL;
  YamlFile y = {0};
  yaml_node_t *root = NULL;
  *out = NULL;
  TRY(yaml_file_open(path, &y, &root));
  TRY(case_alloc(keys, nkeys, path, &c));
  if (root) { /* an empty file is a case of defaults */
    TRY(walk_mapping(c, &y.doc, root, ""));
  }
  *out = c;
  c = NULL;
cleanup:
  yaml_file_close(&y);
  case_destroy(&c);
  return status;
}

/* The value node of name in a mapping node, or NULL. */
static yaml_node_t *mapping_value(yaml_document_t *doc, yaml_node_t *mapping, const char *name, size_t length) {
  for (yaml_node_pair_t *pair = mapping->data.mapping.pairs.start; pair < mapping->data.mapping.pairs.top; pair++) {
    yaml_node_t *k = yaml_document_get_node(doc, pair->key);
    if (k->type == YAML_SCALAR_NODE && k->data.scalar.length == length &&
        strncmp((const char *)k->data.scalar.value, name, length) == 0) {
      return yaml_document_get_node(doc, pair->value);
    }
  }
  return NULL;
}

HclStatus case_peek(const char *path, const char *key, char *value, size_t size, char *origin, size_t origin_size) {
  HclStatus status = HCL_OK;
  YamlFile y = {0};
  yaml_node_t *node = NULL;
  value[0] = origin[0] = '\0';
  char where[320];
  TRY(yaml_file_open(path, &y, &node));
  for (const char *name = key; node && name;) {
    const char *dot = strchr(name, '.');
    node = mapping_value(&y.doc, node, name, dot ? (size_t)(dot - name) : strlen(name));
    name = dot ? dot + 1 : NULL;
    if (node && name) { /* a section on the way to key */
      mark_origin(path, node->start_mark, where, sizeof where);
      REQUIRE(node->type == YAML_MAPPING_NODE, HCL_EDATA,
              "%s: '%.*s' is a section holding %s, not %s: its keys go on the lines below it, indented", where,
              (int)(name - 1 - key), key, key, node_kind(node));
    }
  }
  if (node) {
    mark_origin(path, node->start_mark, where, sizeof where);
    REQUIRE(node->type == YAML_SCALAR_NODE, HCL_EDATA, "%s: %s must be a single value, not %s", where, key,
            node_kind(node));
    TRY(refuse_nul(node, where, key));
    snprintf(value, size, "%s", (const char *)node->data.scalar.value);
    snprintf(origin, origin_size, "%s", where);
  }
cleanup:
  yaml_file_close(&y);
  return status;
}

/* case_set's assignment, a mistake returned. */
static HclStatus set_one(Case *c, const char *assignment) {
  HclStatus status = HCL_OK;
  char key[256], origin[320];
  const char *equals = strchr(assignment, '=');
  snprintf(origin, sizeof origin, "--set %s", assignment);
  REQUIRE(equals != NULL && equals != assignment && (size_t)(equals - assignment) < sizeof key, HCL_EDATA,
          "%s: expected section.key=value", origin);
  memcpy(key, assignment, (size_t)(equals - assignment));
  key[equals - assignment] = '\0';
  TRY(assign(c, key, equals + 1, origin));
cleanup:
  return status;
}

HclStatus case_set(Case *c, const char *assignment) {
  return note_mistake(c, set_one(c, assignment));
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
    TRY(input_check_file(v->resolved, named_by, v->text)); /* the checks of every input's paths */
  }
cleanup:
  return status;
}

HclStatus case_finish(Case *c) {
  HclStatus status = HCL_OK;
  for (int i = 0; i < c->nkeys; i++) {
    TRY(note_mistake(c, finish_key(c, i)));
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
            i < 0 ? "not in the schema" : "read before case_finish");
    abort();
  }
  return &c->values[i];
}

int64_t case_int(const Case *c, const char *key) {
  return value_of(c, key)->as_int;
}

double case_real(const Case *c, const char *key) {
  return value_of(c, key)->as_real;
}

bool case_bool(const Case *c, const char *key) {
  return value_of(c, key)->as_bool;
}

const char *case_string(const Case *c, const char *key) {
  return value_of(c, key)->text;
}

const char *case_file(const Case *c, const char *key) {
  const CaseValue *v = value_of(c, key);
  return v->resolved ? v->resolved : v->text;
}

const NamedPoint *case_points(const Case *c, const char *key, int *count) {
  const CaseValue *v = value_of(c, key);
  *count = v->npoints;
  return v->points;
}

const char *case_origin(const Case *c, const char *key) {
  return value_of(c, key)->origin;
}

int case_choice(const Case *c, const char *key) {
  const CaseValue *v = value_of(c, key);
  const char *p = c->keys[key_index(c, key)].choices;
  int index = 0;
  for (size_t n = strlen(v->text); strncmp(p, v->text, n) != 0 || (p[n] != '|' && p[n] != '\0'); index++) {
    p = strchr(p, '|') + 1; /* the value is one of the choices (parse_value) */
  }
  return index;
}

bool case_at_default(const Case *c, const char *key) {
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

HclStatus case_to_yaml(const Case *c, char **text) {
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

void case_write_template(const CaseKey *keys, int nkeys, const char *title, FILE *out) {
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

HclStatus case_schema_create(CaseSchema **out) {
  HclStatus status = HCL_OK;
  CaseSchema *s = NULL;
  TRY_ALLOC(s, 1);
  *out = s;
cleanup:
  return status;
}

void case_schema_destroy(CaseSchema **schema) {
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

const char *case_key(char buf[CASE_KEY_MAX], const char *prefix, const char *name) {
  snprintf(buf, CASE_KEY_MAX, "%s%s", prefix, name);
  return buf;
}

const char *case_where(const Case *c, const char *prefix, const char *name, char buf[CASE_WHERE_MAX]) {
  char key[CASE_KEY_MAX];
  buf[0] = '\0';
  if (c) {
    snprintf(buf, CASE_WHERE_MAX, "%s: ", case_origin(c, case_key(key, prefix, name)));
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

HclStatus case_schema_add(CaseSchema *s, const char *prefix, const CaseKey *keys, int n) {
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
    case_key(key, prefix, keys[i].key);
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

const CaseKey *case_schema_keys(const CaseSchema *schema) {
  return schema->keys;
}

int case_schema_count(const CaseSchema *schema) {
  return schema->count;
}
