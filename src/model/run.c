/* SPDX-License-Identifier: BSD-3-Clause */
/* run.c: what the models' run and validate share (see run.h). */
#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "checkpoint.h"
#include "inputs.h"
#include "log.h"
#include "par.h"
#include "restart.h"

HclStatus run_read_crs(const Case *c, const char *key, Crs **crs) {
  const char *text = hcl_case_string(c, key);
  *crs = NULL;
  return text[0] ? hcl_crs_create(text, hcl_case_origin(c, key), crs) : HCL_OK;
}

void run_print_crs(const Crs *crs, FILE *out) {
  char text[512] = "local Cartesian metres (grid.crs is not set)";
  if (crs) {
    hcl_crs_describe(crs, text, sizeof text);
  }
  fprintf(out, "coordinates: %s\n", text);
}

void run_print_source(const Case *c, const char *key, const InputSource *source, FILE *out) {
  const char *path = hcl_case_string(c, key);
  if (path[0]) {
    fprintf(out, "%s: %s: %s\n", key, path, source->text);
  }
}

HclStatus run_time_units(const Case *c, const char *key, double *start, char *units, size_t size) {
  HclStatus status = HCL_OK;
  const char *text = hcl_case_string(c, key);
  REQUIRE(hcl_input_parse_date(text, start), HCL_EDATA,
          "%s: %s must be a date and time, 'YYYY-MM-DD hh:mm:ss' (or 'YYYY-MM-DD', 'YYYY-MM-DD hh:mm') in UTC or at an "
          "offset ('+02:00') (got '%s')",
          hcl_case_origin(c, key), key, text);
  time_t whole = (time_t)floor(*start);
  struct tm utc;
  gmtime_r(&whole, &utc);
  strftime(units, size, "seconds since %Y-%m-%d %H:%M:%S", &utc);
  REQUIRE(*start == (double)whole, HCL_EDATA, "%s: %s must be a whole second (got '%s')", hcl_case_origin(c, key), key,
          text);
cleanup:
  return status;
}

void run_warn_unused_keys(const Case *c, const RunKeyUse *uses, int count) {
  for (int i = 0; hcl_par_rank() == 0 && i < count; i++) {
    const char *choice = hcl_case_string(c, uses[i].chooser);
    if (!hcl_case_word_among(choice, uses[i].choices) && !hcl_case_at_default(c, uses[i].key)) {
      hcl_log_warn("%s: %s is given but %s is %s, which does not use it (it is for %s)",
                   hcl_case_origin(c, uses[i].key), uses[i].key, uses[i].chooser, choice, uses[i].choices);
    }
  }
}

HclStatus run_read_bed_file(const Case *c, int nx, int ny, const InputAxes *axes, double **values,
                            InputSource *source) {
  HclStatus status = HCL_OK;
  const char *path = hcl_case_file(c, "bed.file");
  const char *variable = hcl_case_string(c, "bed.variable");
  size_t n = (size_t)nx * ny;
  REQUIRE(path[0], HCL_EDATA, "%s: bed.shape is file but bed.file is not given", hcl_case_origin(c, "bed.shape"));
  TRY_ALLOC(*values, n);
  TRY(hcl_input_read_grid(path, variable[0] ? variable : NULL, nx, ny, axes, *values, source));
  double sign = strcmp(hcl_case_string(c, "bed.positive"), "up") == 0 ? -1 : 1;
  for (size_t p = 0; p < n; p++) {
    REQUIRE(isfinite((*values)[p]), HCL_EDATA, "%s: bed value %zu (x %zu, y %zu) is not a number", path, p,
            p % (size_t)nx, p / (size_t)nx);
    (*values)[p] *= sign;
  }
cleanup:
  return status;
}

/* Orders points by name, and points of one name as they were listed. */
static int by_name(const void *a, const void *b) {
  const NamedPoint *p = *(const NamedPoint *const *)a, *q = *(const NamedPoint *const *)b;
  int order = strcmp(p->name, q->name);
  return order ? order : (p < q ? -1 : (p > q ? 1 : 0));
}

/* Refuses two points of one name, whichever lists they came from: output names the stations by them. */
static HclStatus refuse_duplicate_names(const NamedPoint *points, int count, const char *what) {
  HclStatus status = HCL_OK;
  const NamedPoint **sorted = NULL;
  TRY_ALLOC(sorted, count + 1);
  for (int k = 0; k < count; k++) {
    sorted[k] = &points[k];
  }
  qsort(sorted, (size_t)count, sizeof *sorted, by_name);
  for (int k = 1; k < count; k++) {
    REQUIRE(strcmp(sorted[k]->name, sorted[k - 1]->name) != 0, HCL_EDATA, "%s: %s '%s' is named twice (first at %s)",
            sorted[k]->origin, what, sorted[k]->name, sorted[k - 1]->origin);
  }
cleanup:
  free(sorted);
  return status;
}

HclStatus run_read_points(const Case *c, const char *points_key, const char *file_key, NamedPoint **points,
                          int *count) {
  HclStatus status = HCL_OK;
  NamedPoint *from_file = NULL;
  int nfile = 0, ncase = 0;
  const NamedPoint *in_case = hcl_case_points(c, points_key, &ncase);
  const char *path = file_key ? hcl_case_file(c, file_key) : "";
  *points = NULL;
  *count = 0;
  if (path[0]) {
    TRY(hcl_gauges_read_csv(path, &from_file, &nfile));
  }
  TRY_ALLOC(*points, ncase + nfile + 1); /* + 1: never a request for nothing */
  if (ncase > 0) { /* a case without points has none: memcpy from NULL is undefined even for 0 bytes */
    memcpy(*points, in_case, (size_t)ncase * sizeof *in_case);
  }
  if (nfile > 0) {
    memcpy(*points + ncase, from_file, (size_t)nfile * sizeof *from_file);
  }
  *count = ncase + nfile;
  TRY(refuse_duplicate_names(*points, *count, "point"));
cleanup:
  free(from_file);
  return status;
}

HclStatus run_check_points(const NamedPoint *points, int count, const char *what, const char *box, double x_first,
                           double x_last, double y_first, double y_last) {
  HclStatus status = HCL_OK;
  for (int k = 0; k < count; k++) {
    const NamedPoint *p = &points[k];
    REQUIRE(p->x >= x_first && p->x <= x_last && p->y >= y_first && p->y <= y_last, HCL_EDATA,
            "%s: %s '%s' at (%g, %g) m lies outside %s, x %g to %g m, y %g to %g m", p->origin, what, p->name, p->x,
            p->y, box, x_first, x_last, y_first, y_last);
  }
cleanup:
  return status;
}

DecompSpec run_read_grid(const Case *c) {
  return (DecompSpec){.nx = (int)hcl_case_int(c, "grid.nx"),
                      .ny = (int)hcl_case_int(c, "grid.ny"),
                      .px = (int)hcl_case_int(c, "grid.px"),
                      .py = (int)hcl_case_int(c, "grid.py")};
}

HclStatus run_create_decomp(const Case *c, const DecompSpec *spec, Decomp **out) {
  HclStatus status = hcl_decomp_create(spec, out);
  if (status == HCL_EDATA || status == HCL_EUSAGE) {
    char why[512];
    snprintf(why, sizeof why, "%s", hcl_status_message());
    hcl_status_clear();
    status = hcl_status_set(status, __FILE__, __LINE__, "%s: grid.px, grid.py: %s", hcl_case_origin(c, "grid.px"), why);
  }
  return status;
}

HclStatus run_check_device_memory(Runtime *rt, const Decomp *decomp, double needed, double largest_field,
                                  const char *point) {
  HclStatus local = HCL_OK;
  const DeviceInfo *dev = hcl_runtime_device(rt);
  const DecompLocal *l = hcl_decomp_local(decomp);
  const char *hint = "use more ranks (grid.px, grid.py), --precision single or a coarser grid";
  if (needed > (double)dev->global_mem_bytes) {
    local =
        hcl_status_set(HCL_ENODEVICE, __FILE__, __LINE__,
                       "rank %d's %d x %d %ss need %.4g MB of device memory but '%s' has %.4g MB; %s", l->rank, l->nx,
                       l->ny, point, needed / 1e6, dev->device_name, (double)dev->global_mem_bytes / 1e6, hint);
  } else if (largest_field > (double)dev->max_alloc_bytes) {
    local = hcl_status_set(HCL_ENODEVICE, __FILE__, __LINE__,
                           "rank %d's %d x %d %ss make fields of %.4g MB but '%s' allows %.4g MB in one buffer; %s",
                           l->rank, l->nx, l->ny, point, largest_field / 1e6, dev->device_name,
                           (double)dev->max_alloc_bytes / 1e6, hint);
  }
  return hcl_par_agree(local);
}

HclStatus run_claim_restarts(const RunRequest *q, const char *prefix, int64_t step) {
  HclStatus status = HCL_OK;
  int count = 0;
  if (q->restart || q->overwrite) {
    TRY(hcl_restart_discard_after(q->output_dir, prefix, q->restart ? step : -1));
    goto cleanup;
  }
  HclStatus local = hcl_restart_count(q->output_dir, prefix, &count);
  if (local == HCL_OK && count > 0) {
    local = hcl_status_set(HCL_ECANTCREAT, __FILE__, __LINE__,
                           "output folder '%s' holds restarts of an earlier run; pass --overwrite to replace that run, "
                           "--restart latest to continue it, or choose another output folder",
                           q->output_dir);
  }
  TRY(hcl_par_agree(local));
cleanup:
  return status;
}

HclStatus run_remove_stale(const RunRequest *q, const char *path) {
  HclStatus local = HCL_OK;
  if (!q->restart && hcl_par_rank() == 0 && access(path, F_OK) == 0) {
    if (!q->overwrite) {
      local = hcl_status_set(HCL_ECANTCREAT, __FILE__, __LINE__, "'%s' exists; pass --overwrite to replace it", path);
    } else if (unlink(path) != 0) {
      local = hcl_status_set(HCL_ECANTCREAT, __FILE__, __LINE__, "cannot remove the earlier run's '%s': %s", path,
                             strerror(errno));
    }
  }
  return hcl_par_agree(local);
}

RunOutputSize run_output_size(const Decomp *decomp, const Case *c, const Timeline *tl, const RunOutputs *outputs,
                              bool double_precision, bool fresh) {
  const DecompSpec *g = hcl_decomp_spec(decomp);
  double points = (double)g->nx * g->ny, value = double_precision ? 8 : 4;
  double frames = (double)schedule_count_until(&tl->map, tl->t_end) + (fresh ? 1 : 0);
  double samples = (double)schedule_count_until(&tl->history, tl->t_end) + (fresh ? 1 : 0);
  double restarts =
      fmin((double)hcl_case_int(c, "restart.keep"), (double)schedule_count_until(&tl->restart, tl->t_end));
  RunOutputSize size = {.map = frames * points * outputs->nmap * value,
                        .history = samples * outputs->ngauges * outputs->nhistory * value,
                        .restarts = restarts * points * outputs->restart_fields * 8};
  if (outputs->series_name) {
    const SeriesLayout *l = outputs->series;
    double per_sample = (double)l->nstations * (l->nodes * l->nprofiles + l->nstation_series) * value;
    size.series = samples * (per_sample + l->nscalars * 8.0);
  }
  size.checkpoints = size.map + size.history + size.series; /* every run writes a restart: at its end */
  return size;
}

/* The bytes an unprivileged writer may still put on the file system of folder, or of its nearest existing parent
 * (a run makes its folder), HUGE_VAL where statvfs cannot tell; and why nothing can be written there at all (EROFS,
 * EACCES), else 0. A read-only file system says it has no block free (a full image mounted read-only): that is
 * not a lack of space. */
static double space_left(const char *folder, int *unwritable) {
  char path[RUN_PATH_SIZE];
  struct statvfs info;
  struct stat exists;
  snprintf(path, sizeof path, "%s", folder);
  while (stat(path, &exists) != 0 && strcmp(path, ".") != 0 && strcmp(path, "/") != 0) {
    char *slash = strrchr(path, '/');
    if (!slash) {
      snprintf(path, sizeof path, ".");
    } else {
      slash[slash == path ? 1 : 0] = '\0'; /* "/a" goes to "/", "a/b" to "a" */
    }
  }
  bool known = statvfs(path, &info) == 0;
  *unwritable = known && (info.f_flag & ST_RDONLY) ? EROFS : access(path, W_OK) != 0 ? errno : 0;
  return known ? (double)info.f_bavail * (double)info.f_frsize : HUGE_VAL;
}

/* bytes as "812 kB", "26.4 MB", "8.1 TB": three digits in the largest unit that keeps one before the point. */
static const char *size_text(double bytes, char *text, size_t size) {
  static const char *const units[] = {"bytes", "kB", "MB", "GB", "TB", "PB", "EB"};
  int u = 0;
  while (u < 6 && bytes >= 1000) {
    bytes /= 1000;
    u++;
  }
  snprintf(text, size, "%.3g %s", bytes, units[u]);
  return text;
}

HclStatus run_check_output_size(const Case *c, const RunRequest *q, const RunOutputSize *size, FILE *out) {
  HclStatus local = HCL_OK;
  double total = size->map + size->history + size->series + size->restarts + size->checkpoints;
  int unwritable = 0;
  double warn_at = hcl_case_real(c, "output.size_warning") * 1e6, left = space_left(q->output_dir, &unwritable);
  char t[5][32], parts[256], series[64] = "", total_text[32], left_text[32];
  if (unwritable) { /* whatever the room and --force: nothing can be written */
    local = hcl_status_set(HCL_ECANTCREAT, __FILE__, __LINE__,
                           "cannot write the output in '%s': %s; choose another output folder (-o)", q->output_dir,
                           strerror(unwritable));
    return hcl_par_agree(local);
  }
  if (size->series > 0) {
    snprintf(series, sizeof series, ", series %s", size_text(size->series, t[2], sizeof t[2]));
  }
  snprintf(parts, sizeof parts, "map %s, history %s%s, restarts %s, checkpoints %s",
           size_text(size->map, t[0], sizeof t[0]), size_text(size->history, t[1], sizeof t[1]), series,
           size_text(size->restarts, t[3], sizeof t[3]), size_text(size->checkpoints, t[4], sizeof t[4]));
  size_text(total, total_text, sizeof total_text);
  size_text(left, left_text, sizeof left_text);
  if (hcl_par_rank() == 0) {
    if (out) {
      fprintf(out, "output folder: '%s', up to %s written (%s) of %s free there\n", q->output_dir, total_text, parts,
              left_text);
    }
    if (warn_at > 0 && total > warn_at) {
      hcl_log_warn("the output may reach %s (%s), more than output.size_warning = %g MB (%s); fewer map frames "
                   "(output.interval) or gauge samples (output.history_interval) make it smaller",
                   total_text, parts, warn_at / 1e6, hcl_case_origin(c, "output.size_warning"));
    }
    if (total > left && !q->force) {
      local =
          hcl_status_set(HCL_ECANTCREAT, __FILE__, __LINE__,
                         "the output may reach %s (%s) but the file system of '%s' has %s free; make room, choose "
                         "another output folder (-o) or fewer frames (output.interval), or pass --force to run anyway",
                         total_text, parts, q->output_dir, left_text);
    } else if (total > left) {
      hcl_log_warn("the output may reach %s but the file system of '%s' has %s free; running on (--force)", total_text,
                   q->output_dir, left_text);
    }
  }
  return hcl_par_agree(local);
}

/* "FOLDER/NAME" into path. */
static void output_path(const RunRequest *q, const char *name, char *path, size_t size) {
  snprintf(path, size, "%s/%s", q->output_dir, name);
}

/* Creates (or reopens) the files of outputs with spec (its path set here). */
static HclStatus create_files(Runtime *rt, const Decomp *decomp, const RunRequest *q, OutputSpec *spec,
                              const RunOutputs *outputs, RunFiles *files) {
  HclStatus status = HCL_OK;
  char path[RUN_PATH_SIZE];
  output_path(q, "map.nc", path, sizeof path);
  spec->path = path;
  TRY(hcl_map_create(decomp, spec, outputs->variables, outputs->nmap, &files->map));
  snprintf(files->paths[files->npaths++], RUN_PATH_SIZE, "%s", path);
  output_path(q, "history.nc", path, sizeof path);
  if (outputs->ngauges > 0) {
    TRY(hcl_history_create(rt, decomp, spec, outputs->gauges, outputs->ngauges, outputs->variables, outputs->nhistory,
                           &files->history));
    snprintf(files->paths[files->npaths++], RUN_PATH_SIZE, "%s", path);
  } else {
    TRY(run_remove_stale(q, path));
  }
  if (outputs->series_name) {
    output_path(q, outputs->series_name, path, sizeof path);
    TRY(hcl_series_create(spec, outputs->series, &files->series));
    snprintf(files->paths[files->npaths++], RUN_PATH_SIZE, "%s", path);
  }
cleanup:
  return status;
}

/* The names of the files a run of outputs may find in its folder: map.nc, history.nc (also where this run has no
 * gauges: an earlier run's) and the series file; returns how many. */
static int output_names(const RunOutputs *outputs, const char *names[3]) {
  int n = 0;
  names[n++] = "map.nc";
  names[n++] = "history.nc";
  if (outputs->series_name) {
    names[n++] = outputs->series_name;
  }
  return n;
}

/* Whether the restart a continuation reads lies in its output folder: "latest", or a file whose folder is that
 * folder. Only then are the folder's checkpoints of its step its own. */
static bool restart_in_output_folder(const RunRequest *q) {
  char folder[RUN_PATH_SIZE];
  struct stat restart_folder, output_folder;
  if (strcmp(q->restart, "latest") == 0) {
    return true;
  }
  snprintf(folder, sizeof folder, "%s", q->restart);
  char *slash = strrchr(folder, '/');
  if (!slash) {
    snprintf(folder, sizeof folder, ".");
  } else {
    slash[slash == folder ? 1 : 0] = '\0';
  }
  return stat(folder, &restart_folder) == 0 && stat(q->output_dir, &output_folder) == 0 &&
         restart_folder.st_dev == output_folder.st_dev && restart_folder.st_ino == output_folder.st_ino;
}

/* Rank 0's part of recover_files for the file at path. */
static HclStatus recover_file(const char *path, const Timeline *tl, bool own_checkpoints) {
  HclStatus status = HCL_OK;
  bool restored = false;
  int dropped = 0;
  if (own_checkpoints) {
    TRY(hcl_checkpoint_restore(path, tl->step, &restored));
  }
  if (restored) {
    hcl_log_verbose("%s: as it was at step %lld (its checkpoint)", path, (long long)tl->step);
  }
  if (access(path, F_OK) != 0) { /* nothing to continue: the run makes it afresh */
    goto cleanup;
  }
  TRY(hcl_output_trim(path, tl->t, &dropped));
  if (dropped > 0) {
    hcl_log_info("%s: dropped %d frame%s after the restart's t = %g s (of the abandoned run, or cut short)", path,
                 dropped, dropped == 1 ? "" : "s", tl->t);
  }
cleanup:
  return status;
}

/* A continued run's files as they were when the restart at tl's step was written (hcl_checkpoint_restore), or, without
 * a checkpoint, without frames after tl's time (hcl_output_trim). Collective; rank 0 works. */
static HclStatus recover_files(const RunRequest *q, const Timeline *tl, const RunOutputs *outputs) {
  HclStatus local = HCL_OK;
  const char *names[3];
  char path[RUN_PATH_SIZE];
  int n = output_names(outputs, names);
  bool own_checkpoints = restart_in_output_folder(q);
  for (int i = 0; hcl_par_rank() == 0 && local == HCL_OK && i < n; i++) {
    if (strcmp(names[i], "history.nc") == 0 && outputs->ngauges == 0) {
      continue; /* not this run's */
    }
    output_path(q, names[i], path, sizeof path);
    local = recover_file(path, tl, own_checkpoints);
  }
  return hcl_par_agree(local);
}

/* Removes the checkpoints of the folder's files other than those of step keep (-1: all). Collective. */
static HclStatus discard_checkpoints(const RunRequest *q, const RunOutputs *outputs, int64_t keep) {
  HclStatus local = HCL_OK;
  const char *names[3];
  char path[RUN_PATH_SIZE];
  int n = output_names(outputs, names);
  for (int i = 0; hcl_par_rank() == 0 && local == HCL_OK && i < n; i++) {
    output_path(q, names[i], path, sizeof path);
    local = hcl_checkpoint_discard(path, keep);
  }
  return hcl_par_agree(local);
}

/* A fresh run's failed set-up: closes the files and removes those it made (hcl_series_create removes its own). */
static void remove_made_files(const RunRequest *q, RunFiles *files) {
  char path[RUN_PATH_SIZE];
  bool made_map = files->map != NULL, made_history = files->history != NULL;
  run_close_files(files);
  if (hcl_par_rank() == 0 && made_map) {
    output_path(q, "map.nc", path, sizeof path);
    unlink(path);
  }
  if (hcl_par_rank() == 0 && made_history) {
    output_path(q, "history.nc", path, sizeof path);
    unlink(path);
  }
}

/* The lock's text: "HOST PID\n". */
static void lock_text(char *text, size_t size) {
  char host[256] = "";
  if (gethostname(host, sizeof host - 1) != 0) {
    snprintf(host, sizeof host, "unknown");
  }
  snprintf(text, size, "%s %ld\n", host, (long)getpid());
}

/* Makes the lock file exclusively; false with errno when it cannot (EEXIST: another holds it). */
static bool make_lock(const char *path) {
  char text[320];
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0) {
    return false;
  }
  lock_text(text, sizeof text);
  bool written = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
  close(fd);
  if (!written) {
    unlink(path);
  }
  return written;
}

/* Whether the lock at path was left by a process of this host that is gone (a run killed with SIGKILL). */
static bool lock_is_stale(const char *path, char *owner, size_t size) {
  char host[256] = "", this_host[256] = "";
  long pid = 0;
  FILE *f = fopen(path, "r");
  snprintf(owner, size, "an unknown job");
  if (!f) {
    return false;
  }
  bool read = fscanf(f, "%255s %ld", host, &pid) == 2;
  fclose(f);
  if (!read) {
    return false;
  }
  snprintf(owner, size, "hydrocl pid %ld on host %s", pid, host);
  return gethostname(this_host, sizeof this_host - 1) == 0 && strcmp(host, this_host) == 0 && pid > 0 &&
         kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* Takes the output folder's lock (rank 0), taking over a stale one once. */
static HclStatus take_lock(const RunRequest *q, RunFiles *files) {
  HclStatus local = HCL_OK;
  char path[RUN_PATH_SIZE], owner[320];
  if (hcl_par_rank() == 0) {
    output_path(q, RUN_LOCK_NAME, path, sizeof path);
    bool taken = make_lock(path);
    if (!taken && errno == EEXIST && lock_is_stale(path, owner, sizeof owner)) {
      hcl_log_warn("output folder '%s': taking over the lock of %s, which is gone", q->output_dir, owner);
      taken = unlink(path) == 0 && make_lock(path);
    }
    if (taken) {
      snprintf(files->lock, sizeof files->lock, "%s", path);
    } else if (errno == EEXIST) {
      lock_is_stale(path, owner, sizeof owner);
      local =
          hcl_status_set(HCL_ECANTCREAT, __FILE__, __LINE__,
                         "output folder '%s' is in use by %s (%s); wait for it or stop it, or choose another output "
                         "folder (remove the lock file only if that job is gone)",
                         q->output_dir, owner, path);
    } else {
      local = hcl_status_set(HCL_ECANTCREAT, __FILE__, __LINE__, "cannot lock output folder '%s' (%s): %s",
                             q->output_dir, path, strerror(errno));
    }
  }
  return hcl_par_agree(local);
}

static void release_lock(RunFiles *files) {
  if (files->lock[0]) {
    unlink(files->lock);
    files->lock[0] = '\0';
  }
}

/* The output files are regular files inside the output folder: a symbolic link among them (map.nc pointing at some
 * other file) is never written through. A fresh run with --overwrite removes the link itself and makes a new file
 * in its place, saying so; a continued run, which would append to the link's target, is refused. Rank 0; collective. */
static HclStatus refuse_or_remove_links(const RunRequest *q, const RunOutputs *outputs) {
  HclStatus local = HCL_OK;
  const char *names[] = {"map.nc", "history.nc", outputs->series_name};
  char path[RUN_PATH_SIZE], target[RUN_PATH_SIZE];
  for (int i = 0; hcl_par_rank() == 0 && local == HCL_OK && i < 3; i++) {
    struct stat info;
    output_path(q, names[i] ? names[i] : "", path, sizeof path);
    if (!names[i] || lstat(path, &info) != 0 || !S_ISLNK(info.st_mode)) {
      continue;
    }
    ssize_t length = readlink(path, target, sizeof target - 1);
    target[length > 0 ? length : 0] = '\0';
    if (q->restart) {
      local =
          hcl_status_set(HCL_ECANTCREAT, __FILE__, __LINE__,
                         "'%s' is a symbolic link (to '%s'): hydrocl writes only regular files in its output folder; "
                         "replace the link by a copy of the file it points to and continue, or start afresh "
                         "(--overwrite)",
                         path, target);
    } else if (unlink(path) != 0) {
      local = hcl_status_set(HCL_ECANTCREAT, __FILE__, __LINE__, "cannot remove the symbolic link '%s': %s", path,
                             strerror(errno));
    } else {
      hcl_log_info("'%s' was a symbolic link (to '%s'): removed the link, not the file it points to; this run writes a "
                   "new file in its place",
                   path, target);
    }
  }
  return hcl_par_agree(local);
}

/* A continued map file that one rank made is written on by rank 0 alone (hcl_output_continues_collectively): a
 * collective write into it would leave ranks waiting. Collective. */
static HclStatus continue_map_alone(const RunRequest *q, const RunOutputs *outputs, OutputSpec *spec) {
  HclStatus status = HCL_OK;
  char path[RUN_PATH_SIZE];
  int alone = 0;
  if (!spec->parallel_write || hcl_par_size() == 1 || !hcl_map_can_write_collectively() || outputs->nmap == 0) {
    goto cleanup;
  }
  output_path(q, "map.nc", path, sizeof path);
  if (hcl_par_rank() == 0) {
    alone = access(path, F_OK) == 0 && !hcl_output_continues_collectively(path, outputs->variables[0].name);
  }
  TRY(hcl_par_broadcast_int(&alone));
  if (alone) {
    spec->parallel_write = false;
    hcl_log_info("'%s' was written by one rank: rank 0 gathers and writes its frames (output.parallel_write applies to "
                 "files a run on several ranks makes)",
                 path);
  }
cleanup:
  return status;
}

HclStatus run_open_files(Runtime *rt, const Decomp *decomp, const Case *c, const RunRequest *q, const char *prefix,
                         const Timeline *tl, const OutputSpec *base, const RunOutputs *outputs, RunFiles *files) {
  HclStatus status = HCL_OK;
  char *yaml = NULL;
  OutputSpec spec = *base;
  RunOutputSize size = run_output_size(decomp, c, tl, outputs, base->double_precision, !q->restart);
  TRY(run_check_output_size(c, q, &size, NULL));
  TRY(hcl_case_to_yaml(c, &yaml));
  TRY(hcl_output_make_folders(q->output_dir));
  TRY(take_lock(q, files));
  if (q->restart || q->overwrite) { /* without --overwrite a fresh run refuses any file already there */
    TRY(refuse_or_remove_links(q, outputs));
  }
  spec.overwrite = q->overwrite;
  spec.history = q->command_line;
  spec.case_yaml = yaml;
  spec.resume = q->restart != NULL;
  spec.resume_time = tl->t;
  if (q->restart) { /* the files first: a continuation they refuse must not have discarded any restart */
    char history[RUN_PATH_SIZE], source[RUN_PATH_SIZE];
    output_path(q, "history.nc", history, sizeof history);
    snprintf(source, sizeof source, "%s", history);
    if (restart_in_output_folder(q)) { /* the file as the continuation will put it back */
      hcl_checkpoint_source(history, tl->step, source, sizeof source);
    }
    TRY(hcl_history_check_stations(source, history, outputs->gauges, outputs->ngauges));
    TRY(recover_files(q, tl, outputs));
    TRY(continue_map_alone(q, outputs, &spec));
    TRY(create_files(rt, decomp, q, &spec, outputs, files));
    TRY(run_claim_restarts(q, prefix, tl->step));
    TRY(discard_checkpoints(q, outputs, tl->step));
    goto cleanup;
  }
  TRY(run_claim_restarts(q, prefix, tl->step));
  TRY(discard_checkpoints(q, outputs, -1));
  status = create_files(rt, decomp, q, &spec, outputs, files);
  if (status != HCL_OK) { /* a fresh run leaves no half-made output behind */
    remove_made_files(q, files);
  }
cleanup:
  free(yaml);
  return status;
}

void run_close_files(RunFiles *files) {
  hcl_series_close(&files->series);
  hcl_history_close(&files->history);
  hcl_map_close(&files->map);
  release_lock(files);
}

/* The precision a restart names: --precision's, "mixed" for --precision mixed. */
static const char *run_precision(const RunRequest *q) {
  return q->mixed ? "mixed" : q->precision == PRECISION_DOUBLE ? "double" : "single";
}

OutputFrame run_cell_frame(const Case *c, const char *source, const char *time_units, double x0, double y0, double dx,
                           double dy, const Crs *crs) {
  return (OutputFrame){.title = hcl_case_string(c, "model.title"),
                       .source = source,
                       .time_units = time_units,
                       .x0 = x0 + dx / 2,
                       .dx = dx,
                       .y0 = y0 + dy / 2,
                       .dy = dy,
                       .crs = crs};
}

RestartSpec run_restart_spec(const OutputFrame *frame, const OutputVariable *fields, Field *bed) {
  return (RestartSpec){.frame = *frame, .fields = fields, .bed = bed};
}

OutputSpec run_output_spec(const OutputFrame *frame, const Case *c) {
  return (OutputSpec){.frame = *frame,
                      .double_precision = hcl_case_bool(c, "output.double"),
                      .parallel_write = hcl_case_bool(c, "output.parallel_write")};
}

HclStatus run_check_restart(const Case *c, const RunRequest *q, const char *path, const RestartSpec *base,
                            const DecompSpec *grid) {
  RestartSpec spec = *base;
  spec.model = hcl_case_string(c, "model.name");
  spec.precision = run_precision(q);
  return hcl_restart_check_case(path, &spec, grid, q->force);
}

HclStatus run_write_restart(const Case *c, const RunRequest *q, RunFiles *files, const char *prefix,
                            const RestartSpec *base, int64_t step, Field *const *fields, int nfields,
                            const RestartScalar *scalars, int nscalars) {
  HclStatus status = HCL_OK;
  char path[RUN_PATH_SIZE];
  const char *checkpoints[3];
  RestartSpec spec = *base;
  spec.model = hcl_case_string(c, "model.name");
  spec.precision = run_precision(q);
  spec.folder = q->output_dir;
  spec.prefix = prefix;
  spec.keep = (int)hcl_case_int(c, "restart.keep");
  spec.history = q->command_line;
  /* Each file whole on disk before it is copied: every frame ends with a sync, but the copy must not rest on that. */
  if (files->map) {
    TRY(hcl_map_sync(files->map));
  }
  if (files->history) {
    TRY(hcl_history_sync(files->history));
  }
  if (files->series) {
    TRY(hcl_series_sync(files->series));
  }
  for (int i = 0; i < files->npaths; i++) {
    checkpoints[i] = files->paths[i];
  }
  spec.checkpoints = checkpoints;
  spec.ncheckpoints = files->npaths;
  TRY(hcl_restart_write(&spec, step, fields, nfields, scalars, nscalars, path, sizeof path));
  hcl_log_verbose("restart written: %s (t = %g s, step %lld)", path, scalars[0].value, (long long)step);
cleanup:
  return status;
}

HclStatus run_restart_path(const RunRequest *q, const char *prefix, char *path, size_t size) {
  if (strcmp(q->restart, "latest") == 0) {
    return hcl_par_agree(hcl_restart_latest(q->output_dir, prefix, path, size));
  }
  snprintf(path, size, "%s", q->restart);
  return HCL_OK;
}

HclStatus run_resume(Timeline *tl, const char *path, double t, int64_t step) {
  HclStatus status = HCL_OK;
  REQUIRE(t >= 0 && step >= 0, HCL_EDATA,
          "restart '%s' is at t = %g s, step %lld: a run continues from a time and a step of 0 or more", path, t,
          (long long)step);
  timeline_start(tl, tl->t_end, tl->map.interval, tl->history.interval, tl->restart.interval, t, step);
  REQUIRE(tl->t < tl->t_end, HCL_EDATA, "restart '%s' is at t = %g s, at or past time.end = %g s: nothing to run", path,
          tl->t, tl->t_end);
  hcl_log_info("continuing from %s at t = %g s, step %lld", path, tl->t, (long long)tl->step);
cleanup:
  return status;
}
