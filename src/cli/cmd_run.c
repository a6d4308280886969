/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_run.c: `hydrocl run CASE`, `hydrocl validate CASE` and `hydrocl defaults MODEL`: from a case file to a
 * model (model.h). The case is read and checked in full (with every --set) before a device is opened or any
 * output is created, so a mistake costs nothing but its message. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "caseload.h"
#include "log.h"
#include "model.h"
#include "par.h"

enum { PATH_SIZE = 1024 };

/* The model of the case: its model.name, as the file or the last --set model.name=... says, read before the case is
 * checked against that model's schema. */
static HclStatus choose_model(const CliOptions *o, const Model **model) {
  HclStatus status = HCL_OK;
  char name[128], origin[320];
  TRY(hcl_case_peek(o->args[0], "model.name", name, sizeof name, origin, sizeof origin));
  for (int s = 0; s < o->nsets; s++) {
    if (strncmp(o->sets[s], "model.name=", 11) == 0) {
      snprintf(name, sizeof name, "%s", o->sets[s] + 11);
      snprintf(origin, sizeof origin, "--set %s", o->sets[s]);
    }
  }
  REQUIRE(name[0], HCL_EDATA, "%s: model.name is required: the model the case is for (%s)", o->args[0],
          hcl_model_names(0));
  *model = hcl_model_find(name);
  REQUIRE(*model != NULL, HCL_EDATA, "%s: model.name must be %s (got '%s')", origin, hcl_model_names(0), name);
cleanup:
  return status;
}

/* Reads the case file and the --set overrides against the schema of its model, which the case keeps. */
static HclStatus load_case(const CliOptions *o, const Model **model, Case **c) {
  HclStatus status = HCL_OK;
  CaseSchema *schema = NULL;
  TRY(choose_model(o, model));
  TRY(hcl_case_schema_create(&schema));
  TRY(hcl_model_schema(*model, schema));
  TRY(hcl_case_load(hcl_case_schema_keys(schema), hcl_case_schema_count(schema), o->args[0], c));
  hcl_case_adopt_schema(*c, schema);
  schema = NULL;
  for (int s = 0; s < o->nsets; s++) {
    TRY(hcl_case_set(*c, o->sets[s]));
  }
  TRY(hcl_case_finish(*c));
cleanup:
  hcl_case_schema_destroy(&schema);
  return status;
}

/* The case file's name without folder and extension: "cases/drop-island.yml" gives "drop-island". */
static void case_name_of(const char *path, char *name, size_t size) {
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  snprintf(name, size, "%s", base);
  char *dot = strrchr(name, '.');
  if (dot && dot != name) {
    *dot = '\0';
  }
}

/* The options beyond every model's that the case's model does not take. */
static HclStatus require_capabilities(const CliOptions *o, const Model *model) {
  HclStatus status = HCL_OK;
  REQUIRE(!(o->given & OPT_MIXED) || (model->capabilities & MODEL_MIXED_PRECISION), HCL_EUSAGE,
          "--precision mixed: the %s model runs in single or double throughout (mixed precision: the %s model)",
          model->name, hcl_model_names(MODEL_MIXED_PRECISION));
  REQUIRE(!o->realtime || (model->capabilities & MODEL_REALTIME), HCL_EUSAGE,
          "--realtime: the %s model runs as fast as it can (real-time pacing: the %s model)", model->name,
          hcl_model_names(MODEL_REALTIME));
cleanup:
  return status;
}

static HclStatus open_case(const CliOptions *o, unsigned allowed, const Model **model, Case **c, RunRequest *request,
                           char *case_name, char *output_dir) {
  HclStatus status = HCL_OK;
  TRY(cli_require_only(o, allowed));
  REQUIRE(o->nargs == 1, HCL_EUSAGE, "'hydrocl %s' takes one case file (e.g. hydrocl %s cases/drop-island.yml)",
          o->command, o->command);
  REQUIRE(!o->output_dir || o->output_dir[0], HCL_EUSAGE, "-o needs a folder name (got '')");
  REQUIRE(!o->output_dir || strlen(o->output_dir) < PATH_SIZE - 64, HCL_EUSAGE,
          "-o '%.40s...' is longer than %d characters", o->output_dir, PATH_SIZE - 64);
  TRY(load_case(o, model, c));
  TRY(require_capabilities(o, *model));
  case_name_of(o->args[0], case_name, PATH_SIZE);
  snprintf(output_dir, PATH_SIZE, "%s", o->output_dir ? o->output_dir : "out/");
  if (!o->output_dir) {
    strncat(output_dir, case_name, PATH_SIZE - strlen(output_dir) - 1);
  }
  *request = (RunRequest){.case_name = case_name,
                          .output_dir = output_dir,
                          .overwrite = o->overwrite,
                          .force = o->force,
                          .restart = o->restart,
                          .command_line = o->command_line,
                          .precision = o->precision,
                          .precision_given = (o->given & OPT_PRECISION) != 0,
                          .mixed = (o->given & OPT_MIXED) != 0,
                          .realtime = o->realtime};
cleanup:
  return status;
}

/* Reads the case, opens the device and runs or validates it. */
static HclStatus run_or_validate(const CliOptions *o, bool run) {
  HclStatus status = HCL_OK;
  const Model *model = NULL;
  Case *c = NULL;
  Runtime *rt = NULL;
  RunRequest request;
  char case_name[PATH_SIZE], output_dir[PATH_SIZE];
  unsigned allowed = OPT_DEVICE | OPT_KERNEL_DIR | OPT_PRECISION | OPT_MIXED | OPT_SET | OPT_OUTPUT | OPT_FORCE;
  if (run) {
    allowed |= OPT_PROFILE | OPT_OVERWRITE | OPT_RESTART | OPT_REALTIME;
  }
  TRY(open_case(o, allowed, &model, &c, &request, case_name, output_dir));
  DeviceNeeds needs = {.fp64 =
                           model->needs_fp64 ? model->needs_fp64(c, &request) : request.precision == PRECISION_DOUBLE};
  TRY(cli_open_runtime(o, &needs, &rt));
  if (run) {
    TRY(hcl_model_run(model, rt, c, &request));
    TRY(hcl_runtime_profile_report(rt, stderr));
  } else {
    TRY(hcl_model_validate(model, rt, c, &request, stdout));
  }
cleanup:
  hcl_runtime_destroy(&rt);
  hcl_case_destroy(&c);
  return status;
}

HclStatus cmd_run(const CliOptions *o) {
  return run_or_validate(o, true);
}

HclStatus cmd_validate(const CliOptions *o) {
  return run_or_validate(o, false);
}

HclStatus cmd_defaults(const CliOptions *o) {
  HclStatus status = HCL_OK;
  TRY(cli_require_only(o, 0));
  REQUIRE(o->nargs == 1, HCL_EUSAGE, "'hydrocl defaults' takes one model name (%s)", hcl_model_names(0));
  CaseSchema *schema = NULL;
  const Model *model = hcl_model_find(o->args[0]);
  REQUIRE(model != NULL, HCL_EUSAGE, "unknown model '%s' (known: %s)", o->args[0], hcl_model_names(0));
  TRY(hcl_case_schema_create(&schema));
  TRY(hcl_model_schema(model, schema));
  if (hcl_par_rank() == 0) {
    hcl_case_write_template(hcl_case_schema_keys(schema), hcl_case_schema_count(schema), model->title, stdout);
  }
cleanup:
  hcl_case_schema_destroy(&schema);
  return status;
}
