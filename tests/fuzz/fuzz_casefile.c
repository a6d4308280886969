/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_casefile.c: libFuzzer target of the case-file reader (casefile.h) and the models' checks of a case, as
 * `hydrocl validate` runs them short of a device: the bytes are a case file, read by hcl_case_peek (model.name) and then
 * against every registered model's schema (model.h) with hcl_case_load and hcl_case_finish; a finished case goes through
 * the model's check (its setup from the case short of a device: the cross-checks, tides, relaxation zones, incident waves, ships and their tracks, sponges, the time step, the bed,
 * series and gauge files it names) and run_read_points. A refusal is a pass. Checked besides
 * the sanitizers: hcl_case_to_yaml of a finished case loads back as the same case (casefile.h says so; the output files
 * keep it as hydrocl_case).
 *
 * The scratch folder holds small inputs a case may name (the corpus' cases do): bed.csv (4 x 3), gauges.csv,
 * channel-tide.csv, track.csv (waypoints) and ships.csv (a fleet of two, one sailing track.csv). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "casefile.h"
#include "caseload.h"
#include "fuzz_support.h"
#include "model.h"
#include "run.h"

/* A model's setup from a finished case has no size limit of its own but the grid's: bed.file reads nx x ny values.
 * Larger grids are read and checked as a case, not set up (allocating gigabytes is no finding). */
enum { SETUP_POINTS_MAX = 1 << 22 };

/* Both finished cases hold the same value of every key. */
static void check_same_case(const Case *a, const Case *b, const CaseKey *keys, int nkeys, const char *yaml) {
  for (int i = 0; i < nkeys; i++) {
    const char *key = keys[i].key;
    bool same = true;
    switch (keys[i].type) {
    case CASE_INT:
      same = hcl_case_int(a, key) == hcl_case_int(b, key);
      break;
    case CASE_REAL:
      same = hcl_case_real(a, key) == hcl_case_real(b, key);
      break;
    case CASE_BOOL:
      same = hcl_case_bool(a, key) == hcl_case_bool(b, key);
      break;
    case CASE_STRING:
    case CASE_CHOICE:
    case CASE_FILE:
      same = strcmp(hcl_case_string(a, key), hcl_case_string(b, key)) == 0;
      break;
    case CASE_POINTS: {
      int na = 0, nb = 0;
      const NamedPoint *pa = hcl_case_points(a, key, &na), *pb = hcl_case_points(b, key, &nb);
      same = na == nb;
      for (int k = 0; same && k < na; k++) {
        same = strcmp(pa[k].name, pb[k].name) == 0 && pa[k].x == pb[k].x && pa[k].y == pb[k].y;
      }
      break;
    }
    }
    FUZZ_CHECK(same, "%s differs after hcl_case_to_yaml and hcl_case_load (from %s); the YAML:\n%s", key,
               hcl_case_origin(a, key), yaml);
  }
}

/* hcl_case_to_yaml of c, loaded and finished again, is the same case. */
static void check_round_trip(const Case *c, const CaseKey *keys, int nkeys) {
  char *yaml = NULL;
  Case *again = NULL;
  HclStatus status = hcl_case_to_yaml(c, &yaml);
  FUZZ_CHECK(status == HCL_OK, "hcl_case_to_yaml: %s", hcl_status_message());
  const char *path = fuzz_write("round-trip.yml", (const uint8_t *)yaml, strlen(yaml));
  status = hcl_case_load(keys, nkeys, path, &again);
  if (status == HCL_OK) {
    status = hcl_case_finish(again);
  }
  FUZZ_CHECK(status == HCL_OK, "the case's YAML does not load back: %s\n%s", hcl_status_message(), yaml);
  check_same_case(c, again, keys, nkeys, yaml);
  unlink(path); /* a case that names it finds it never there: every input runs alike */
  hcl_case_destroy(&again);
  free(yaml);
}

static void load_as(const char *path, const Model *model) {
  CaseSchema *schema = NULL;
  Case *c = NULL;
  NamedPoint *points = NULL;
  int npoints = 0;
  FUZZ_CHECK(hcl_case_schema_create(&schema) == HCL_OK && hcl_model_schema(model, schema) == HCL_OK, "%s's schema: %s",
             model->name, hcl_status_message());
  const CaseKey *keys = hcl_case_schema_keys(schema);
  int nkeys = hcl_case_schema_count(schema);
  HclStatus status = hcl_case_load(keys, nkeys, path, &c);
  if (status == HCL_OK) {
    hcl_case_adopt_schema(c, schema); /* the case owns it from here; keys stay valid while it lives */
    schema = NULL;
    status = hcl_case_finish(c);
  }
  if (status == HCL_OK) {
    check_round_trip(c, keys, nkeys);
    if ((double)hcl_case_int(c, "grid.nx") * (double)hcl_case_int(c, "grid.ny") <= SETUP_POINTS_MAX) {
      status = model->check ? model->check(c) : HCL_OK;
    }
  }
  if (status == HCL_OK) {
    status = run_read_points(c, "output.gauges", "output.gauge_file", &points, &npoints);
  }
  fuzz_accept(status);
  free(points);
  hcl_case_destroy(&c);
  hcl_case_schema_destroy(&schema);
}

static const char bed_csv[] = "# 4 x 3 depths\n1,1,1,1\n2, 2, 2, 2\n3 3 3 3\n";
static const char gauges_csv[] = "name,x,y\nA,1,1\nB,2.5,0.5\n";
static const char tide_csv[] = "time,level\n0,0\n3600,0.1\n7200,0\n36000,0\n";
static const char track_csv[] = "x,y,speed\n1,1,0.5\n3,1,0.5\n3,2,0.5\n";
static const char ships_csv[] = "name,length,beam,draft,x,y,heading,speed,track\nA,1,0.5,0.1,1,1,0,0.5,\n"
                                "B,1,0.5,0.1,0,0,0,0,track.csv\n";

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fuzz_write("bed.csv", (const uint8_t *)bed_csv, strlen(bed_csv));
  fuzz_write("gauges.csv", (const uint8_t *)gauges_csv, strlen(gauges_csv));
  fuzz_write("channel-tide.csv", (const uint8_t *)tide_csv, strlen(tide_csv));
  fuzz_write("track.csv", (const uint8_t *)track_csv, strlen(track_csv));
  fuzz_write("ships.csv", (const uint8_t *)ships_csv, strlen(ships_csv));
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_write("case.yml", data, size);
  char name[128], origin[320];
  fuzz_accept(hcl_case_peek(path, "model.name", name, sizeof name, origin, sizeof origin));
  for (int m = 0; m < hcl_model_count(); m++) {
    load_as(path, hcl_model_at(m));
  }
  return 0;
}
