/* SPDX-License-Identifier: BSD-3-Clause */
/* harness.h: what a model gives `hydrocl run` and `hydrocl validate`, and what the harness (harness.c) does with it
 * once for every model. In the spirit of PETSc's TS, which owns the time loop, checkpointing and monitors while a
 * model supplies its right-hand side: a model is a table of functions (ModelOps) over its run state, a struct whose
 * first member is the RunContext the harness keeps; the harness owns the set-up's order, validate's printout, the
 * decomposition and the device-memory check, the gauges of a cell-centred grid, the timeline, the map, history,
 * series and restart files and their continuation, the time loop with its checks, progress lines and stops on a
 * signal, and the stop at a failure that goes back to the last good state and writes it.
 *
 * A run, in order: read_case, the decomposition, the device-memory check (device_bytes), the gauges (read_gauges,
 * or the cell centres' from frame), prepare, the timeline; then open; a continued run's restart (restart_fields,
 * restart_scalars, resume); start; the files, write_static, and for a fresh run the first output (write); the time
 * loop (advance, check, write, restarts, describe); finish. validate goes as far as the timeline, then preview and
 * print. close ends both, whatever happened. */
#ifndef HYDROCL_HARNESS_H
#define HYDROCL_HARNESS_H

#include "run.h"

/* A run as the harness keeps it; every ModelOps function gets the model's run state through it (the struct it is
 * first in). */
struct RunContext {
  const Model *model;
  const Case *c;
  const RunRequest *request;
  Runtime *rt;
  /* Set by the model's read_case: */
  const DecompSpec *grid; /* the global grid and the process grid (grid.px, grid.py; chosen once decomposed) */
  const char *precision;  /* the arithmetic as the files' source names it; NULL: --precision's */
  /* The harness's: */
  double t_end;       /* time.end, s */
  int check_interval; /* time.check_interval: steps between the divergence guard's checks (and before every output) */
  Decomp *decomp;
  Gauge *gauges;
  int ngauges;
  Timeline tl;   /* simulated time, step, output events */
  double dt;     /* the step being taken, then the last one taken: set by advance */
  double t_good; /* time and step of the last checked state, which a failure goes back to (rollback) */
  int64_t step_good;
  int64_t first_step; /* the step this process started from (a continued run's restart step) */
  RunFiles files;
  char source[256]; /* the files' source: version, device and precision */
};

enum {
  RUN_RESTART_FIELDS_MAX = 16, /* fields a model's restart may hold */
  RUN_RESTART_SCALARS_MAX = 8, /* scalars beyond the time and the step */
};

struct ModelOps {
  size_t run_size;            /* sizeof the model's run state, whose first member is its RunContext */
  const char *point;          /* what the grid's unit is called in messages: "cell", "point" */
  const char *check_interval; /* time.check_interval's default */

  /* ---- the host side: run and validate ---- */
  /* The case's set-up, and run->grid (and precision where the model names its own). */
  HclStatus (*read_case)(RunContext *run);
  /* The device memory of this rank's block before anything is allocated, and its largest field. */
  double (*device_bytes)(const RunContext *run, double *largest_field);
  /* run->gauges and ngauges; NULL: the case's output.gauges and output.gauge_file, each within the cell centres of
   * frame's grid (run_read_cell_gauges). */
  HclStatus (*read_gauges)(RunContext *run);
  /* What the host still needs before the timeline (the initial state, the step), or NULL. Collective. */
  HclStatus (*prepare)(RunContext *run);
  /* Where the files place their values and what they say of themselves. */
  OutputFrame (*frame)(const RunContext *run);
  /* What the files hold but the gauges (the harness's); series is room for the layout of a series file, which
   * outputs may point to. */
  void (*outputs)(const RunContext *run, RunOutputs *outputs, SeriesLayout *series);
  /* Frees what read_case, prepare and open made (the harness frees its own). Called once, after a failure too. */
  void (*close)(RunContext *run);

  /* ---- validate ---- */
  /* What validate derives from the initial state on the host (a time step), or NULL. Collective. */
  HclStatus (*preview)(RunContext *run);
  /* validate's lines between "case is valid" and the device memory: grid, coordinates, time step, scheme. Rank 0. */
  void (*print)(const RunContext *run, FILE *out);

  /* ---- run: the device ---- */
  HclStatus (*open)(RunContext *run); /* the model on the device, in its initial state */
  /* The fields a restart holds, with what they are, and how many of the first a continued run must find (*required);
   * returns how many. */
  int (*restart_fields)(RunContext *run, Field **fields, OutputVariable *variables, int *required);
  /* The scalars a restart holds beyond the time and the step, values set; the first *required a continued run must
   * find. Returns how many. NULL: none. */
  int (*restart_scalars)(const RunContext *run, RestartScalar *scalars, int *required);
  Field *(*bed)(RunContext *run); /* what a continued run's restart must share (run_check_restart); NULL: none */
  /* Continues from the restart at path, whose required fields are read: scalars are its time, its step and then
   * the required scalars of restart_scalars, values read. NULL: the fields are all there is. */
  HclStatus (*resume)(RunContext *run, const char *path, const RestartScalar *scalars);
  /* The starting state checked (a continued run's too) before any file is made, and what a run does before its
   * first step; or NULL. */
  HclStatus (*start)(RunContext *run);
  HclStatus (*write_static)(RunContext *run); /* once the files are open: the bed; or NULL */
  /* A map frame and a sample of the present state, as due (a sample only where there are gauges or a series). */
  HclStatus (*write)(RunContext *run, bool map_due, bool history_due);

  /* ---- the time loop ---- */
  /* One step along run->tl (timeline_step, timeline_advance), setting run->dt and *due. */
  HclStatus (*advance)(RunContext *run, TimelineDue *due);
  /* The divergence guard, and with save the state kept as the last good one (and what the next interval takes from
   * it, such as a CFL step). Without save nothing a later step depends on changes: the check before the restart of
   * a stop at a step that was not checked, so that a continued run takes the uninterrupted one's steps. A state
   * that fails stops the run (run_stop_at_good). */
  HclStatus (*check)(RunContext *run, bool save);
  HclStatus (*rollback)(RunContext *run); /* back to the last good state */
  /* More key=value fields of a progress line ("cg=3.10"), or NULL. */
  void (*describe)(const RunContext *run, char *extra, size_t size);
  void (*finish)(RunContext *run); /* what a finished run reports beyond "done", or NULL */
};

/* The run stopped with `failed` between the last good state and now (during_step: during the step from now, whose
 * step run->dt is): rollback, the last good state written as a restart, and the failure's message: what happened
 * (what: "the run diverged"), when, and where the last good state is. Collective. */
HclStatus run_stop_at_good(RunContext *run, HclStatus failed, bool during_step, const char *what);

/* Logs where field (what: "water level", in m) went bad on this rank: its first NaN, else its largest magnitude, at
 * the frame's coordinates of that point. Best effort: it never fails, so every rank goes on to write the last good
 * state. */
void run_log_worst(RunContext *run, Field *field, const char *what);

/* The present state's fields as a map frame (map_due) and a sample at the gauges (history_due, where the run has
 * gauges): write's helper, fields in the order of RunOutputs' variables. Collective. */
HclStatus run_write_sample(RunContext *run, Field *const *fields, bool map_due, bool history_due);

/* A field that does not change with time (the bed), scaled by `scale`, written once into map.nc and, where the run
 * has gauges, into history.nc at them: write_static's helper. Collective. */
HclStatus run_write_static(RunContext *run, const OutputVariable *variable, Field *field, double scale);

/* The restart of the present state at (t, step). Collective. */
HclStatus run_write_state(RunContext *run, double t, int64_t step);

#endif
