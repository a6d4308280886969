/* SPDX-License-Identifier: BSD-3-Clause */
/* toy_model.c: the hydrocl command with one model more, added as a program adds its own: this file and one
 * registry line (hcl_model_register in main). The toy is decay, d zeta / dt = -zeta / tau, by explicit Euler,
 * zeta(n + 1) = (1 - dt / tau) zeta(n), from zeta(0) = x + 2 y at the cell centres: after n steps exactly
 * (1 - dt / tau)^n (x + 2 y) up to rounding. Everything else a run does (validate's printout, the timeline, map,
 * history and restart files, continuing with --restart, signals, the divergence guard's stop at the last good state)
 * is the harness's (harness.h); test_toy_model.sh checks it through `hydrocl run`. */
#include <math.h>
#include <stdlib.h>

#include "cli.h"
#include "harness.h"
#include "vec.h"

static const CaseKey toy_keys[] = {
    {"model.name", CASE_CHOICE, "", NULL, CASE_UNBOUNDED, "toy-decay", "the model this case is for"},
    {"model.title", CASE_STRING, "", "toy decay", CASE_UNBOUNDED, NULL, "a title for the output files"},
    {"grid.nx", CASE_INT, "", NULL, 1, 100000, NULL, "cells in x"},
    {"grid.ny", CASE_INT, "", NULL, 1, 100000, NULL, "cells in y"},
    {"grid.dx", CASE_REAL, "m", "1", 1e-6, 1e6, NULL, "cell size"},
    {"time.dt", CASE_REAL, "s", NULL, 1e-9, 1e6, NULL, "the step"},
    {"physics.tau", CASE_REAL, "s", NULL, 1e-9, 1e12, NULL, "the decay time"},
};
static const OutputVariable zeta_variable = {"zeta", NULL, "the decaying field", "m", NULL, false};

typedef struct {
  RunContext run; /* first: the harness's */
  DecompSpec grid;
  double dx, dt, tau;
  char time_units[64];
  VecSpace *space;
  Field *zeta;
  Vec *state, *good; /* zeta, and its last good copy */
} ToyRun;

static ToyRun *toy_of(const RunContext *run) {
  return (ToyRun *)run;
}

static HclStatus toy_schema(CaseSchema *schema) {
  return hcl_case_schema_add(schema, "", toy_keys, (int)(sizeof toy_keys / sizeof toy_keys[0]));
}

static HclStatus read_case(RunContext *run) {
  HclStatus status = HCL_OK;
  ToyRun *r = toy_of(run);
  double start;
  r->grid = run_read_grid(run->c);
  r->dx = hcl_case_real(run->c, "grid.dx");
  r->dt = hcl_case_real(run->c, "time.dt");
  r->tau = hcl_case_real(run->c, "physics.tau");
  TRY(run_time_units(run->c, "time.start", &start, r->time_units, sizeof r->time_units));
  run->grid = &r->grid;
cleanup:
  return status;
}

static double device_bytes(const RunContext *run, double *largest_field) {
  const DecompLocal *l = hcl_decomp_local(run->decomp);
  *largest_field = (double)l->nx * l->ny * (double)hcl_precision_bytes(run->request->precision);
  return 2 * *largest_field;
}

static OutputFrame frame_of(const RunContext *run) {
  const ToyRun *r = toy_of(run);
  return run_cell_frame(run->c, run->source, r->time_units, 0, 0, r->dx, r->dx, NULL);
}

static void outputs_of(const RunContext *run, RunOutputs *outputs, SeriesLayout *series) {
  (void)run;
  (void)series;
  *outputs = (RunOutputs){.variables = &zeta_variable, .nmap = 1, .nhistory = 1, .restart_fields = 1};
}

static HclStatus open_model(RunContext *run) {
  HclStatus status = HCL_OK;
  ToyRun *r = toy_of(run);
  const DecompLocal *l = hcl_decomp_local(run->decomp);
  double *initial = NULL;
  FieldSpec spec = {.name = "zeta", .nz = 1, .ghost = 0, .precision = run->request->precision};
  TRY(hcl_vspace_create_fields(run->rt, run->decomp, &spec, &r->space));
  TRY(hcl_field_create(run->rt, run->decomp, &spec, &r->zeta));
  TRY(hcl_vec_wrap_field(r->space, r->zeta, &r->state));
  TRY(hcl_vec_create(r->space, "zeta_good", &r->good));
  TRY_ALLOC(initial, (size_t)l->nx * l->ny);
  for (int j = 0; j < l->ny; j++) {
    for (int i = 0; i < l->nx; i++) {
      initial[(size_t)j * l->nx + i] = (l->x0 + i + 0.5) * r->dx + 2 * (l->y0 + j + 0.5) * r->dx;
    }
  }
  TRY(hcl_field_write_owned(r->zeta, initial));
cleanup:
  free(initial);
  return status;
}

static void close_model(RunContext *run) {
  ToyRun *r = toy_of(run);
  hcl_vec_destroy(&r->good);
  hcl_vec_destroy(&r->state);
  hcl_field_destroy(&r->zeta);
  hcl_vspace_destroy(&r->space);
}

static void print_case(const RunContext *run, FILE *out) {
  const ToyRun *r = toy_of(run);
  fprintf(out, "grid: %d x %d cells of %g m; decay by %.6g a step\n", r->grid.nx, r->grid.ny, r->dx, r->dt / r->tau);
}

static int restart_fields(RunContext *run, Field **fields, OutputVariable *variables, int *required) {
  fields[0] = toy_of(run)->zeta;
  variables[0] = zeta_variable;
  return *required = 1;
}

static HclStatus write_output(RunContext *run, bool map_due, bool history_due) {
  Field *fields[] = {toy_of(run)->zeta};
  return run_write_sample(run, fields, map_due, history_due);
}

static HclStatus advance(RunContext *run, TimelineDue *due) {
  HclStatus status = HCL_OK;
  ToyRun *r = toy_of(run);
  double t_next;
  run->dt = timeline_step(&run->tl, r->dt, &t_next);
  TRY(hcl_vec_scale(r->state, 1 - run->dt / r->tau));
  *due = timeline_advance(&run->tl, t_next);
cleanup:
  return status;
}

/* The guard: a field that grew past its start's scale (a step longer than 2 tau makes |1 - dt / tau| > 1). */
static HclStatus check_state(RunContext *run, bool save) {
  HclStatus status = HCL_OK;
  ToyRun *r = toy_of(run);
  double norm;
  TRY(hcl_vec_norm(r->state, &norm));
  double bound = 3 * r->dx * sqrt((double)r->grid.nx * r->grid.ny) * (r->grid.nx + r->grid.ny);
  if (!(norm <= bound)) {
    TRY(run_stop_at_good(run, HCL_EDIVERGED, false, "the toy diverged (time.dt above 2 physics.tau)"));
  }
  if (save) {
    TRY(hcl_vec_copy(r->good, r->state));
  }
cleanup:
  return status;
}

static HclStatus rollback(RunContext *run) {
  ToyRun *r = toy_of(run);
  return hcl_vec_copy(r->state, r->good);
}

static const ModelOps toy_ops = {
    .run_size = sizeof(ToyRun),
    .check_interval = "10",
    .point = "cell",
    .read_case = read_case,
    .device_bytes = device_bytes,
    .frame = frame_of,
    .outputs = outputs_of,
    .close = close_model,
    .print = print_case,
    .open = open_model,
    .restart_fields = restart_fields,
    .write = write_output,
    .advance = advance,
    .check = check_state,
    .rollback = rollback,
};

static const Model toy_model = {
    .name = "toy-decay",
    .title = "a test's toy model: exponential decay by explicit Euler",
    .schema = toy_schema,
    .ops = &toy_ops,
};

int main(int argc, char **argv) {
  if (hcl_model_register(&toy_model) != HCL_OK) {
    return 70;
  }
  return cli_main(argc, argv);
}
