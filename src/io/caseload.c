/* SPDX-License-Identifier: BSD-3-Clause */
/* caseload.c: case files read from YAML (libyaml) into the options database (see caseload.h, casefile.h). */
#include "caseload.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <yaml.h>

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
 * (hcl_case_peek, then hcl_case_load), and a pipe can be read only once. A case file is text of a few kB; more than
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
  mark_origin(hcl_case_path(c), item->start_mark, origin, sizeof origin);
  REQUIRE(item->type == YAML_MAPPING_NODE, HCL_EDATA, "%s: each item of %s must be {name: NAME, x: X, y: Y}", origin,
          key);
  snprintf(point->origin, sizeof point->origin, "%s", origin);
  for (yaml_node_pair_t *pair = item->data.mapping.pairs.start; pair < item->data.mapping.pairs.top; pair++) {
    yaml_node_t *k = yaml_document_get_node(doc, pair->key);
    yaml_node_t *v = yaml_document_get_node(doc, pair->value);
    mark_origin(hcl_case_path(c), v->start_mark, origin, sizeof origin);
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

/* A list of points for the CASE_POINTS key: every item checked (hcl_case_assign_points checks the names). */
static HclStatus assign_points(Case *c, yaml_document_t *doc, yaml_node_t *list, const char *key, const char *origin) {
  HclStatus status = HCL_OK;
  NamedPoint *points = NULL;
  int n = (int)(list->data.sequence.items.top - list->data.sequence.items.start);
  TRY_ALLOC(points, n);
  for (int i = 0; i < n; i++) {
    TRY(parse_point(c, doc, yaml_document_get_node(doc, list->data.sequence.items.start[i]), key, &points[i]));
  }
  NamedPoint *given = points;
  points = NULL;
  TRY(hcl_case_assign_points(c, key, given, n, origin)); /* which owns them from here on */
cleanup:
  free(points);
  return status;
}

static HclStatus walk_mapping(Case *c, yaml_document_t *doc, yaml_node_t *mapping, const char *prefix);

/* One key: value pair of a mapping node: a value assigned, or a nested section walked. */
static HclStatus walk_pair(Case *c, yaml_document_t *doc, yaml_node_t *k, yaml_node_t *v, const char *prefix) {
  HclStatus status = HCL_OK;
  char origin[320], key[256];
  mark_origin(hcl_case_path(c), k->start_mark, origin, sizeof origin);
  REQUIRE(k->type == YAML_SCALAR_NODE, HCL_EDATA, "%s: a key must be a plain name", origin);
  TRY(refuse_nul(k, origin, "a key"));
  snprintf(key, sizeof key, "%s%s", prefix, (const char *)k->data.scalar.value);
  bool known = hcl_case_has_section(c, key);
  REQUIRE(v->type == YAML_MAPPING_NODE || !known, HCL_EDATA,
          "%s: '%s' is a section: its keys go on the lines below it, indented ('%s:' then '  key: value')", origin, key,
          key);
  if (v->type == YAML_MAPPING_NODE) {
    char section[sizeof key + 1];
    snprintf(section, sizeof section, "%s.", key);
    TRY(known ? walk_mapping(c, doc, v, section) : hcl_case_refuse_unknown_section(c, key, origin));
    goto cleanup;
  }
  const CaseKey *schema_key = hcl_case_schema_key(c, key);
  if (!schema_key) {
    TRY(hcl_case_refuse_unknown_key(c, key, origin));
  }
  mark_origin(hcl_case_path(c), v->start_mark, origin, sizeof origin); /* a bad value is pointed at itself */
  if (schema_key->type == CASE_POINTS && v->type == YAML_SEQUENCE_NODE) {
    TRY(assign_points(c, doc, v, key, origin));
    goto cleanup;
  }
  if (v->type != YAML_SCALAR_NODE) {
    TRY(hcl_case_refuse_value(c, key, origin, node_kind(v)));
  }
  if (v->data.scalar.length != strlen((const char *)v->data.scalar.value)) {
    hcl_case_mark_invalid(c, key);
    char what[sizeof key + 16];
    snprintf(what, sizeof what, "the value of %s", key);
    TRY(refuse_nul(v, origin, what));
  }
  TRY(hcl_case_assign(c, key, (const char *)v->data.scalar.value, origin));
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
    TRY(hcl_case_note_mistake(c, walk_pair(c, doc, k, v, prefix)));
  }
cleanup:
  return status;
}

/* A YAML file read into a document (libyaml), what hcl_case_load and hcl_case_peek start from. */
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

HclStatus hcl_case_load(const CaseKey *keys, int nkeys, const char *path, Case **out) {
  HclStatus status = HCL_OK;
  Case *c = NULL;
  YamlFile y = {0};
  yaml_node_t *root = NULL;
  *out = NULL;
  TRY(yaml_file_open(path, &y, &root));
  TRY(hcl_case_begin(keys, nkeys, path, &c));
  if (root) { /* an empty file is a case of defaults */
    TRY(walk_mapping(c, &y.doc, root, ""));
  }
  *out = c;
  c = NULL;
cleanup:
  yaml_file_close(&y);
  hcl_case_destroy(&c);
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

HclStatus hcl_case_peek(const char *path, const char *key, char *value, size_t size, char *origin, size_t origin_size) {
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
