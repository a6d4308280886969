/* progress.c: progress lines (see progress.h). */
#include "progress.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "par.h"

struct Progress {
  double t_start, t_end, every, cells;
  FILE *out;
  bool terminal;
  double wall_start, wall_last;
  int64_t steps_start;
  bool started;
};

HclStatus progress_create(double t_start, double t_end, double every, double cells, FILE *out, bool terminal,
                          Progress **p) {
  HclStatus status = HCL_OK;
  Progress *q = NULL;
  TRY_ALLOC(q, 1);
  *q = (Progress){.t_start = t_start, .t_end = t_end, .every = every, .cells = cells, .out = out, .terminal = terminal};
  *p = q;
cleanup:
  return status;
}

void progress_destroy(Progress **p) {
  if (p && *p) {
    free(*p);
    *p = NULL;
  }
}

double progress_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void format_duration(double seconds, char *buf, size_t size) {
  if (!isfinite(seconds) || seconds < 0) {
    snprintf(buf, size, "?");
    return;
  }
  long s = lround(seconds);
  snprintf(buf, size, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
}

bool progress_update(Progress *p, double wall, double t, double dt, int64_t steps, const char *extra, bool final) {
  if (!p->started) { /* rates count from the first report, so start-up costs do not distort them */
    p->started = true;
    p->wall_start = p->wall_last = wall;
    p->steps_start = steps;
    if (!final) {
      return false;
    }
  }
  if (par_rank() != 0 || (!final && wall - p->wall_last < p->every)) {
    return false;
  }
  p->wall_last = wall;
  double elapsed = wall - p->wall_start;
  double span = p->t_end - p->t_start;
  double fraction = span > 0 ? (t - p->t_start) / span : 1.0;
  double steps_per_second = elapsed > 0 ? (double)(steps - p->steps_start) / elapsed : 0.0;
  double sim_rate = elapsed > 0 ? (t - p->t_start) / elapsed : 0.0;
  char eta[32];
  format_duration(sim_rate > 0 ? (p->t_end - t) / sim_rate : NAN, eta, sizeof eta);
  /* On a terminal the line is rewritten in place: carriage return, the line, then ESC [K to erase what a longer
   * line before it left to its right. */
  fprintf(p->out, "%sprogress t=%.6g s (%.1f%%) dt=%.6g s steps=%lld steps/s=%.4g cell-updates/s=%.4g eta=%s%s%s%s%s",
          p->terminal ? "\r" : "", t, 100.0 * fraction, dt, (long long)steps, steps_per_second,
          steps_per_second * p->cells, eta, extra ? " " : "", extra ? extra : "", p->terminal ? "\033[K" : "",
          p->terminal && !final ? "" : "\n");
  fflush(p->out);
  return true;
}
