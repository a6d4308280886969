/* SPDX-License-Identifier: BSD-3-Clause */
/* harness.c: `hydrocl run` and `hydrocl validate` of every model, over its ModelOps (see harness.h). */
#include "harness.h"

#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "par.h"
#include "progress.h"
#include "restart.h"
#include "signals.h"
#include "version.h"

enum { PATH_SIZE = 1024 };
static const char *const RESTART_PREFIX = "restart";

/* ---- the case's keys the harness reads ---------------------------------------------------------------------- */

/* Every model's: the time span, the process grid, the output and the restarts. time.check_interval's default is the
 * model's (ModelOps.check_interval). */
static const CaseKey run_keys[] = {
    {"grid.px", CASE_INT, "", "0", 0, 65536, NULL, "ranks in x (0: chosen from the number of ranks)"},
    {"grid.py", CASE_INT, "", "0", 0, 65536, NULL, "ranks in y (0: chosen from the number of ranks)"},
    {"time.end", CASE_REAL, "s", NULL, 1e-9, 1e12, NULL, "simulated time at which the run ends"},
    {"time.start", CASE_STRING, "", "2000-01-01 00:00:00", CASE_UNBOUNDED, NULL,
     "calendar time (UTC) of t = 0, 'YYYY-MM-DD hh:mm:ss': the output's time units count from it, and a netCDF "
     "series dated 'since' a date is placed by it"},
    {"time.check_interval", CASE_INT, "", NULL, 1, 100000, NULL,
     "steps between checks of the state for divergence and saves of the last good state (and, where the model "
     "adapts its time step, updates of the step)"},
    {"output.interval", CASE_REAL, "s", "0", 0, 1e12, NULL, "time between map frames; 0: first and last only"},
    {"output.history_interval", CASE_REAL, "s", "0", 0, 1e12, NULL,
     "time between samples of the gauges (and of the series file's lines and scalars where the model writes one); "
     "0: every output.interval"},
    {"output.gauges", CASE_POINTS, "m", "[]", CASE_UNBOUNDED, NULL,
     "gauges: [{name: G1, x: 10, y: 20}, ...] (interpolated between the grid points)"},
    {"output.gauge_file", CASE_FILE, "", "", CASE_UNBOUNDED, NULL, "more gauges from a CSV 'name,x,y'"},
    {"output.double", CASE_BOOL, "", "false", CASE_UNBOUNDED, NULL,
     "store map, history and series data as double, not float32"},
    {"output.progress", CASE_REAL, "s", "5", 0.01, 1e6, NULL, "wall-clock seconds between progress lines"},
    {"output.parallel_write", CASE_BOOL, "", "true", CASE_UNBOUNDED, NULL,
     "on several ranks each writes its own block of map.nc (netCDF-C with parallel I/O); false: rank 0 gathers"},
    {"output.size_warning", CASE_REAL, "MB", "10000", 0, 1e12, NULL,
     "validate and run warn where the output (map, history, series and restart files, uncompressed) may exceed this "
     "size; 0: never. Output that cannot fit the output folder's file system is refused unless --force"},
    {"restart.interval", CASE_REAL, "s", "0", 0, 1e12, NULL,
     "simulated time between restart files; 0: only at the end and on SIGTERM or SIGUSR1"},
    {"restart.keep", CASE_INT, "", "2", 1, 1000, NULL, "how many restart files to keep, newest first"},
};
enum { RUN_KEYS = sizeof run_keys / sizeof run_keys[0] };

HclStatus hcl_model_schema(const Model *model, CaseSchema *schema) {
  HclStatus status = HCL_OK;
  CaseKey keys[RUN_KEYS];
  memcpy(keys, run_keys, sizeof keys);
  for (int k = 0; k < RUN_KEYS; k++) {
    if (strcmp(keys[k].key, "time.check_interval") == 0) {
      keys[k].default_text = model->ops->check_interval;
    }
  }
  TRY(model->schema(schema));
  TRY(hcl_case_schema_add(schema, "", keys, RUN_KEYS));
cleanup:
  return status;
}

/* ---- set-up -------------------------------------------------------------------------------------------------- */

/* The gauges of output.gauges and output.gauge_file, each within the frame's points (the cell centres unless it
 * says otherwise), where bilinear interpolation has four points (history.h): checked before a run creates any file,
 * and by validate. */
static HclStatus read_frame_gauges(RunContext *run) {
  HclStatus status = HCL_OK;
  OutputFrame frame = run->model->ops->frame(run);
  double x_last = frame.x0 + (run->grid->nx - 1) * frame.dx, y_last = frame.y0 + (run->grid->ny - 1) * frame.dy;
  const char *box = frame.points ? "the grid points" : "the cell centres";
  TRY(run_read_points(run->c, "output.gauges", "output.gauge_file", &run->gauges, &run->ngauges));
  TRY(run_check_points(run->gauges, run->ngauges, "gauge", box, frame.x0, x_last, frame.y0, y_last));
cleanup:
  return status;
}

/* What the run's files hold: the model's variables, series and restart fields, and the gauges. */
static RunOutputs outputs_of(const RunContext *run, SeriesLayout *series) {
  RunOutputs outputs;
  run->model->ops->outputs(run, &outputs, series);
  outputs.gauges = run->gauges;
  outputs.ngauges = run->ngauges;
  return outputs;
}

/* The output events: map frames every output.interval; samples every output.history_interval (0: output.interval)
 * where there are gauges or a series file to take them; restarts every restart.interval. */
static void start_timeline(RunContext *run) {
  SeriesLayout series;
  RunOutputs outputs = outputs_of(run, &series);
  double map_interval = hcl_case_real(run->c, "output.interval");
  double history_interval = hcl_case_real(run->c, "output.history_interval");
  bool sampled = run->ngauges > 0 || outputs.series_name;
  timeline_start(&run->tl, run->t_end, map_interval,
                 sampled ? (history_interval > 0 ? history_interval : map_interval) : 0,
                 hcl_case_real(run->c, "restart.interval"), 0, 0);
}

/* A run's host side, in harness.h's order: the case, the decomposition, the device-memory check, the gauges, what
 * the model prepares, the timeline. Nothing on the device. Collective. */
static HclStatus open_host(RunContext *run) {
  HclStatus status = HCL_OK;
  const ModelOps *ops = run->model->ops;
  run->t_end = hcl_case_real(run->c, "time.end");
  run->check_interval = (int)hcl_case_int(run->c, "time.check_interval");
  TRY(ops->read_case(run));
  snprintf(run->source, sizeof run->source, "hydrocl %s (%s), %s, %s", HYDROCL_VERSION, HYDROCL_GIT,
           hcl_runtime_device(run->rt)->device_name,
           run->precision ? run->precision : hcl_precision_name(run->request->precision));
  TRY(run_create_decomp(run->c, run->grid, &run->decomp));
  run->grid = hcl_decomp_spec(run->decomp); /* the same grid, with the process grid chosen */
  double largest_field, needed = ops->device_bytes(run, &largest_field);
  TRY(run_check_device_memory(run->rt, run->decomp, needed, largest_field, ops->point));
  TRY(ops->read_gauges ? ops->read_gauges(run) : read_frame_gauges(run));
  if (ops->prepare) {
    TRY(ops->prepare(run));
  }
  start_timeline(run);
cleanup:
  return status;
}

/* The model's run state, its RunContext set; NULL when there is no memory for it. */
static RunContext *run_create(const Model *model, Runtime *rt, const Case *c, const RunRequest *request) {
  RunContext *run = calloc(1, model->ops->run_size);
  if (run) {
    *run = (RunContext){.model = model, .c = c, .request = request, .rt = rt};
  }
  return run;
}

static void run_destroy(RunContext *run) {
  if (!run) {
    return;
  }
  run_close_files(&run->files);
  run->model->ops->close(run);
  hcl_decomp_destroy(&run->decomp);
  free(run->gauges);
  free(run);
}

/* ---- restarts ------------------------------------------------------------------------------------------------ */

static RestartSpec restart_spec(RunContext *run, const OutputVariable *fields) {
  const ModelOps *ops = run->model->ops;
  OutputFrame frame = ops->frame(run);
  return run_restart_spec(&frame, fields, ops->bed ? ops->bed(run) : NULL);
}

/* The model's restart scalars (none without restart_scalars), and how many a continued run must find. */
static int restart_scalars(const RunContext *run, RestartScalar *scalars, int *required) {
  *required = 0;
  return run->model->ops->restart_scalars ? run->model->ops->restart_scalars(run, scalars, required) : 0;
}

HclStatus run_write_state(RunContext *run, double t, int64_t step) {
  HclStatus status = HCL_OK;
  const ModelOps *ops = run->model->ops;
  Field *fields[RUN_RESTART_FIELDS_MAX];
  OutputVariable variables[RUN_RESTART_FIELDS_MAX];
  RestartScalar scalars[1 + RUN_RESTART_SCALARS_MAX] = {
      {"time", t, "time", NULL}}; /* hcl_restart_write adds the step */
  int required;
  int nfields = ops->restart_fields(run, fields, variables, &required);
  int nscalars = restart_scalars(run, scalars + 1, &required);
  RestartSpec base = restart_spec(run, variables);
  TRY(run_write_restart(run->c, run->request, &run->files, RESTART_PREFIX, &base, step, fields, nfields, scalars,
                        1 + nscalars));
cleanup:
  return status;
}

/* Continues from request->restart ("latest" or a file): the model's state from its required fields and scalars, the
 * time and the step. */
static HclStatus read_restart(RunContext *run) {
  HclStatus status = HCL_OK;
  const ModelOps *ops = run->model->ops;
  char path[PATH_SIZE];
  Field *fields[RUN_RESTART_FIELDS_MAX];
  OutputVariable variables[RUN_RESTART_FIELDS_MAX];
  RestartScalar scalars[2 + RUN_RESTART_SCALARS_MAX] = {{.name = "time"}, {.name = "step"}};
  int nfields, nscalars;
  ops->restart_fields(run, fields, variables, &nfields);
  restart_scalars(run, scalars + 2, &nscalars);
  RestartSpec base = restart_spec(run, variables);
  TRY(run_restart_path(run->request, RESTART_PREFIX, path, sizeof path));
  TRY(run_check_restart(run->c, run->request, path, &base, run->grid));
  TRY(hcl_restart_read(path, fields, nfields, scalars, 2 + nscalars));
  if (ops->resume) {
    TRY(ops->resume(run, path, scalars));
  }
  TRY(run_resume(&run->tl, path, scalars[0].value, (int64_t)scalars[1].value));
  run->first_step = run->tl.step;
cleanup:
  return status;
}

void run_log_worst(RunContext *run, Field *field, const char *what) {
  const DecompLocal *l = hcl_decomp_local(run->decomp);
  size_t n = (size_t)l->nx * l->ny, worst = 0;
  double *values = malloc(n * sizeof *values);
  if (!values || hcl_field_read_owned(field, values) != HCL_OK) {
    free(values);
    return;
  }
  for (size_t p = 0; p < n && isfinite(values[worst]); p++) {
    if (!isfinite(values[p]) || fabs(values[p]) > fabs(values[worst])) {
      worst = p;
    }
  }
  OutputFrame frame = run->model->ops->frame(run);
  double x = frame.x0 + (double)(l->x0 + (int)(worst % (size_t)l->nx)) * frame.dx;
  double y = frame.y0 + (double)(l->y0 + (int)(worst / (size_t)l->nx)) * frame.dy;
  if (isfinite(values[worst])) {
    hcl_log_error("%s %g m at x = %.6g m, y = %.6g m", what, values[worst], x, y);
  } else { /* a user reads no "nan" */
    hcl_log_error("the %s overflowed (it is no longer a number) at x = %.6g m, y = %.6g m", what, x, y);
  }
  free(values);
}

HclStatus run_stop_at_good(RunContext *run, HclStatus failed, bool during_step, const char *what) {
  HclStatus status = HCL_OK;
  double t_bad = run->tl.t + (during_step ? run->dt : 0);
  int64_t step_bad = run->tl.step + (during_step ? 1 : 0);
  TRY(run->model->ops->rollback(run));
  TRY(run_write_state(run, run->t_good, run->step_good));
  FAIL(failed,
       "%s. The run failed between t = %g s (step %lld) and t = %g s (step %lld), dt = %.4g s; the last good state "
       "(t = %g s) is in %s/%s-%lld.nc",
       what, run->t_good, (long long)run->step_good, t_bad, (long long)step_bad, run->dt, run->t_good,
       run->request->output_dir, RESTART_PREFIX, (long long)run->step_good);
cleanup:
  return status;
}

/* ---- output -------------------------------------------------------------------------------------------------- */

static HclStatus open_output(RunContext *run) {
  HclStatus status = HCL_OK;
  const ModelOps *ops = run->model->ops;
  OutputFrame frame = ops->frame(run);
  OutputSpec base = run_output_spec(&frame, run->c);
  SeriesLayout series;
  RunOutputs outputs = outputs_of(run, &series);
  TRY(run_open_files(run->rt, run->decomp, run->c, run->request, RESTART_PREFIX, &run->tl, &base, &outputs,
                     &run->files));
  if (ops->write_static) {
    TRY(ops->write_static(run));
  }
cleanup:
  return status;
}

HclStatus run_write_sample(RunContext *run, Field *const *fields, bool map_due, bool history_due) {
  HclStatus status = HCL_OK;
  if (map_due) {
    TRY(hcl_map_write(run->files.map, run->tl.t, fields));
  }
  if (history_due && run->files.history) {
    TRY(hcl_history_write(run->files.history, run->tl.t, fields));
  }
cleanup:
  return status;
}

HclStatus run_write_static(RunContext *run, const OutputVariable *variable, Field *field, double scale) {
  HclStatus status = HCL_OK;
  TRY(hcl_map_write_static(run->files.map, variable, field, scale));
  if (run->files.history) {
    TRY(hcl_history_write_static(run->files.history, variable, field, scale));
  }
cleanup:
  return status;
}

/* ---- the time loop ------------------------------------------------------------------------------------------- */

/* The check of the present state (the guard alone without save); with save, that state is the last good one. */
static HclStatus check(RunContext *run, bool save) {
  HclStatus status = run->model->ops->check(run, save);
  if (status == HCL_OK && save) {
    run->t_good = run->tl.t;
    run->step_good = run->tl.step;
  }
  return status;
}

/* How the user knows the signal. */
static const char *signal_name(int signal_number) {
  switch (signal_number) {
  case SIGINT:
    return "Ctrl-C (SIGINT)";
  case SIGTERM:
    return "SIGTERM";
  case SIGUSR1:
    return "SIGUSR1";
  default:
    return "a signal";
  }
}

/* SIGTERM, SIGUSR1 or Ctrl-C on any rank (hcl_signals_poll: after every step on one rank, within a bounded wall time on
 * several; at every check in any case): a restart of the present state (unless one was just written; the guard
 * first where this step was not checked, so a diverged state is never written), then HCL_ESTOPPED. Called after
 * everything due at the step was written, so a continued run misses nothing. */
static HclStatus stop_if_asked(RunContext *run, SignalPoll *poll, bool checked, bool restart_written) {
  HclStatus status = HCL_OK;
  int signal_number = 0;
  TRY(hcl_signals_poll(poll, checked, &signal_number));
  if (signal_number) {
    if (!checked) {
      TRY(check(run, false));
    }
    if (!restart_written) {
      TRY(run_write_state(run, run->tl.t, run->tl.step));
    }
    FAIL(HCL_ESTOPPED, "stopped by %s at t = %g s (step %lld), with a restart; continue with --restart latest",
         signal_name(signal_number), run->tl.t, (long long)run->tl.step);
  }
cleanup:
  return status;
}

/* Steps to the end: every check_interval steps and before anything is written the check (a diverged state is never
 * written), then the map frame, samples and restart due at the step, then a stop with HCL_ESTOPPED when a signal
 * reached any rank; progress lines every output.progress wall-clock seconds (progress.h; not with -q). */
static HclStatus time_loop(RunContext *run) {
  HclStatus status = HCL_OK;
  const ModelOps *ops = run->model->ops;
  Timeline *tl = &run->tl;
  Progress *progress = NULL;
  char extra[128] = "";
  SignalPoll poll;
  hcl_signals_poll_start(&poll);
  TRY(hcl_progress_create(tl->t, tl->t_end, hcl_case_real(run->c, "output.progress"),
                          (double)run->grid->nx * run->grid->ny, stderr, hcl_progress_columns(STDERR_FILENO),
                          &progress));
  TRY(check(run, true));
  while (tl->t < tl->t_end) {
    TimelineDue due = {0};
    TRY(ops->advance(run, &due));
    bool checked = tl->step % run->check_interval == 0 || due.map || due.history || due.restart;
    if (checked) { /* before anything is written: never write a diverged state */
      TRY(check(run, true));
    }
    TRY(ops->write(run, due.map, due.history));
    if (due.restart) {
      TRY(run_write_state(run, tl->t, tl->step));
    }
    if (!due.end) { /* at the end the run finishes normally */
      TRY(stop_if_asked(run, &poll, checked, due.restart));
    }
    if (hcl_log_level() >= LOG_INFO) { /* -q: no progress lines */
      if (ops->describe) {
        ops->describe(run, extra, sizeof extra);
      }
      hcl_progress_update(progress, hcl_progress_now(), tl->t, run->dt, tl->step, extra[0] ? extra : NULL, due.end);
    }
  }
cleanup:
  hcl_progress_destroy(&progress);
  return status;
}

/* ---- run and validate ---------------------------------------------------------------------------------------- */

HclStatus hcl_model_run(const Model *model, Runtime *rt, const Case *c, const RunRequest *request) {
  HclStatus status = HCL_OK;
  const ModelOps *ops = model->ops;
  RunContext *run = run_create(model, rt, c, request);
  hcl_signals_install();
  REQUIRE(run, HCL_ENOMEM, "cannot allocate the run of a %s case", model->name);
  TRY(open_host(run));
  TRY(ops->open(run));
  if (request->restart) {
    TRY(read_restart(run));
  }
  if (ops->start) {
    TRY(ops->start(run));
  }
  TRY(open_output(run));
  if (!request->restart) {
    TRY(ops->write(run, true, true));
  }
  TRY(time_loop(run));
  hcl_log_info("done: t = %g s after %lld steps; output in %s", run->tl.t, (long long)run->tl.step,
               request->output_dir);
  if (ops->finish) {
    ops->finish(run);
  }
cleanup:
  run_destroy(run);
  return status;
}

/* validate's lines on the device memory and the output, from what the model says of both. Rank 0. */
static void print_memory_and_output(const RunContext *run, const RunOutputs *outputs, const RunOutputSize *size,
                                    FILE *out) {
  const DeviceInfo *dev = hcl_runtime_device(run->rt);
  const DecompLocal *l = hcl_decomp_local(run->decomp);
  double largest_field, bytes = run->model->ops->device_bytes(run, &largest_field);
  double frames = 1 + (double)schedule_count_until(&run->tl.map, run->t_end); /* t = 0, the events, the end */
  double points = (double)run->grid->nx * run->grid->ny;
  fprintf(out, "device memory: %.3g MB per rank of %.3g MB on %s (%.0f bytes per %s)\n", bytes / 1e6,
          (double)dev->global_mem_bytes / 1e6, dev->device_name, bytes / ((double)l->nx * l->ny),
          run->model->ops->point);
  fprintf(out, "output: %.0f map frames of %.3g MB uncompressed; %d gauges; restarts of %.3g MB\n", frames,
          size->map / frames / 1e6, run->ngauges, points * outputs->restart_fields * 8 / 1e6);
}

HclStatus hcl_model_validate(const Model *model, Runtime *rt, const Case *c, const RunRequest *request, FILE *out) {
  HclStatus status = HCL_OK;
  const ModelOps *ops = model->ops;
  RunContext *run = run_create(model, rt, c, request);
  RunOutputs outputs;
  SeriesLayout series;
  REQUIRE(run, HCL_ENOMEM, "cannot allocate the run of a %s case", model->name);
  TRY(open_host(run)); /* the host side only: validate allocates nothing on the device */
  if (ops->preview) {
    TRY(ops->preview(run));
  }
  outputs = outputs_of(run, &series);
  RunOutputSize size = run_output_size(run->decomp, c, &run->tl, &outputs, hcl_case_bool(c, "output.double"), true);
  if (hcl_par_rank() == 0) {
    fprintf(out, "case is valid: %s\n", hcl_case_string(c, "model.title"));
    ops->print(run, out);
    print_memory_and_output(run, &outputs, &size, out);
  }
  TRY(run_check_output_size(c, request, &size, out));
cleanup:
  run_destroy(run);
  return status;
}
