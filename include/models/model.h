/* SPDX-License-Identifier: BSD-3-Clause */
/* model.h: what the command line needs of a model: its name, its case-file schema, what it accepts beyond every
 * model's options, and `hydrocl validate` and `hydrocl run` of its cases (the harness, harness.c). Each model lives in its
 * own folder under src/, exports one Model, and has one line in the registry (src/model/registry.c), which the
 * command line, its help and the fuzz targets read; a program adds its own with hcl_model_register. */
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

/* A run's state as the harness keeps it, and the table of functions a model gives the harness (harness.h). */
typedef struct RunContext RunContext;
typedef struct ModelOps ModelOps;

typedef struct {
  const char *name;                        /* as model.name in a case file: "shallow-water" */
  const char *title;                       /* one line, for the template of `hydrocl defaults` */
  HclStatus (*schema)(CaseSchema *schema); /* adds its case-file keys and its modules' (hcl_model_schema: all) */
  /* Whether the run needs a device with fp64; NULL: when request->precision is double. */
  bool (*needs_fp64)(const Case *c, const RunRequest *request);
  /* The checks of a finished case short of a device (those validate makes before it opens one); NULL: the schema's
   * alone. */
  HclStatus (*check)(const Case *c);
  unsigned capabilities; /* MODEL_*: the options beyond every model's it takes; `run` refuses them for the others */
  const ModelOps *ops;   /* its set-up, state, output and step, which `run` and `validate` drive */
} Model;

enum {
  MODEL_MIXED_PRECISION = 1 << 0, /* --precision mixed */
  MODEL_REALTIME = 1 << 1,        /* --realtime */
};

int hcl_model_count(void);
const Model *hcl_model_at(int index);
const Model *hcl_model_find(const char *name); /* NULL: no model of that name */
/* Adds a model of a program's own (before cli_main): `run`, `validate`, `defaults` and help then know it. */
HclStatus hcl_model_register(const Model *model);
/* The names of the models that have every capability asked for (0: all), as a message lists them:
 * "shallow-water, potential-flow or variational-boussinesq". Static. */
const char *hcl_model_names(unsigned capabilities);

/* The keys of a case of model: its own and those every model's run reads (the time span, the process grid, the
 * output and the restarts). */
HclStatus hcl_model_schema(const Model *model, CaseSchema *schema);
/* Checks everything a run would check, short of stepping, and prints the derived numbers (grid spacing, time step,
 * memory against the device's, output sizes) to out on rank 0. Collective. */
HclStatus hcl_model_validate(const Model *model, Runtime *rt, const Case *c, const RunRequest *request, FILE *out);
/* Runs the case to its end, writing output and restarts. Collective. */
HclStatus hcl_model_run(const Model *model, Runtime *rt, const Case *c, const RunRequest *request);

#endif
