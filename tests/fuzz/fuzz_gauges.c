/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_gauges.c: libFuzzer target of the gauge (points) file reader: the bytes are output.gauge_file, a CSV
 * 'name,x,y', read by hcl_gauges_read_csv (history.h) and by run_read_points (run.h) for a fixed shallow-water case
 * whose output.gauges list two gauges of its own (the merge and the check of names given twice). A refusal is a
 * pass. Checked besides the sanitizers: accepted gauges have a name of 1 to GAUGE_NAME_MAX - 1 characters and finite
 * coordinates, come one a line from lines of the file (their origin names them), and run_read_points accepts no
 * name twice. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "casefile.h"
#include "model.h"
#include "caseload.h"
#include "fuzz_support.h"
#include "history.h"
#include "run.h"
#include "swe_case.h"

static const char case_yml[] = "model:\n  name: shallow-water\ngrid: {nx: 10, ny: 10, lx: 10, ly: 10}\n"
                               "time: {end: 1}\noutput:\n  gauges: [{name: G1, x: 1, y: 2}, {name: A, x: 3, y: 3}]\n"
                               "  gauge_file: gauges.csv\n";
static Case *fixed_case;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  CaseSchema *schema = NULL;
  fuzz_write("gauges.csv", (const uint8_t *)"A,1,1\n", 6);
  const char *path = fuzz_write("case.yml", (const uint8_t *)case_yml, strlen(case_yml));
  HclStatus status = hcl_case_schema_create(&schema);
  status = status == HCL_OK ? hcl_model_schema(hcl_model_find("shallow-water"), schema) : status;
  status = status == HCL_OK
               ? hcl_case_load(hcl_case_schema_keys(schema), hcl_case_schema_count(schema), path, &fixed_case)
               : status;
  if (status == HCL_OK) {
    hcl_case_adopt_schema(fixed_case, schema);
    status = hcl_case_finish(fixed_case);
  }
  FUZZ_CHECK(status == HCL_OK, "the fixed case: %s", hcl_status_message());
  return 0;
}

/* Lines of the file: each holds at most one gauge (history.h: "name,x,y" lines). */
static int count_lines(const uint8_t *data, size_t size) {
  int lines = size > 0 && data[size - 1] != '\n';
  for (size_t k = 0; k < size; k++) {
    lines += data[k] == '\n';
  }
  return lines;
}

static void check_gauges(const Gauge *g, int n) {
  FUZZ_CHECK(n > 0, "%d gauges accepted", n);
  for (int k = 0; k < n; k++) {
    size_t length = strnlen(g[k].name, GAUGE_NAME_MAX);
    FUZZ_CHECK(length >= 1 && length < GAUGE_NAME_MAX, "gauge %d's name has %zu characters", k, length);
    FUZZ_CHECK(isfinite(g[k].x) && isfinite(g[k].y), "gauge '%s' at (%g, %g)", g[k].name, g[k].x, g[k].y);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_write("gauges.csv", data, size);
  Gauge *gauges = NULL;
  int n = 0;
  HclStatus status = hcl_gauges_read_csv(path, &gauges, &n);
  if (status == HCL_OK) {
    int lines = count_lines(data, size);
    check_gauges(gauges, n);
    FUZZ_CHECK(n <= lines, "%d gauges from %d lines", n, lines);
    for (int k = 0; k < n; k++) { /* origin "PATH:LINE" */
      const char *colon = strrchr(gauges[k].origin, ':');
      int line = colon ? atoi(colon + 1) : 0;
      FUZZ_CHECK(line >= 1 && line <= lines, "gauge '%s' from line %d of %d", gauges[k].name, line, lines);
    }
  }
  fuzz_accept(status);
  free(gauges);

  NamedPoint *points = NULL;
  status = run_read_points(fixed_case, "output.gauges", "output.gauge_file", &points, &n);
  if (status == HCL_OK) {
    check_gauges(points, n);
    for (int k = 0; k < n; k++) {
      for (int j = 0; j < k; j++) {
        FUZZ_CHECK(strcmp(points[k].name, points[j].name) != 0, "'%s' accepted twice", points[k].name);
      }
    }
    fuzz_accept(run_check_points(points, n, "gauge", "the cell centres", 0.5, 9.5, 0.5, 9.5));
  }
  fuzz_accept(status);
  free(points);
  return 0;
}
