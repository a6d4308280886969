/* SPDX-License-Identifier: BSD-3-Clause */
/* model.h: what the command line needs of a model: its name, its case-file schema, and the entry points of
 * `hydrocl validate` and `hydrocl run`. Each model lives in its own folder under src/ and exports one Model. */
#ifndef HYDROCL_MODEL_H
#define HYDROCL_MODEL_H

#include "casefile.h"
#include "precision.h"
#include "runtime.h"
#include "status.h"

#include <stdbool.h>
#include <stdio.h>

typedef struct {
  const char *case_name;    /* the case file's name without folder and extension: titles, default output folder */
  const char *output_dir;   /* where the map, history and restart files go (created when missing) */
  bool overwrite;           /* replace the output of an earlier run */
  bool force;               /* write output that may not fit the output folder's file system */
  const char *restart;      /* NULL: start from the case; "latest": the newest restart in output_dir; else a file */
  const char *command_line; /* for the files' history attribute */
  Precision precision;
  bool precision_given; /* --precision was given (a model with its own precision key lets it override) */
  bool mixed;           /* --precision mixed (precision is then double): a model without it refuses it */
  bool realtime;        /* --realtime: keep simulated time in step with the wall clock; a model without it refuses it */
} RunRequest;

typedef struct {
  const char *name;                        /* as model.name in a case file: "shallow-water" */
  const char *title;                       /* one line, for the template of `hydrocl defaults` */
  HclStatus (*schema)(CaseSchema *schema); /* adds its case-file keys, and its modules' */
  /* Checks everything a run would check, short of stepping, and prints the derived numbers (grid spacing, time
   * step, memory against the device's, output sizes) to out on rank 0. Collective. */
  HclStatus (*validate)(Runtime *rt, const Case *c, const RunRequest *request, FILE *out);
  /* Runs the case to its end, writing output and restarts. Collective. */
  HclStatus (*run)(Runtime *rt, const Case *c, const RunRequest *request);
  /* Whether the run needs a device with fp64; NULL: when request->precision is double. */
  bool (*needs_fp64)(const Case *c, const RunRequest *request);
} Model;

extern const Model swe_model;
extern const Model wave_model;
extern const Model vbm_model;

#endif
