/* SPDX-License-Identifier: BSD-3-Clause */
/* progress.c: progress lines (see progress.h). */
#include "progress.h"

#include <math.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "par.h"

struct Progress {
  double t_start, t_end, every, cells;
  FILE *out;
  int columns; /* the terminal's width; 0: not a terminal */
  double wall_start, wall_last;
  int64_t steps_start;
  bool started;
};

HclStatus hcl_progress_create(double t_start, double t_end, double every, double cells, FILE *out, int columns,
                              Progress **p) {
  HclStatus status = HCL_OK;
  Progress *q = NULL;
  TRY_ALLOC(q, 1);
  *q = (Progress){.t_start = t_start, .t_end = t_end, .every = every, .cells = cells, .out = out, .columns = columns};
  *p = q;
cleanup:
  return status;
}

void hcl_progress_destroy(Progress **p) {
  if (p && *p) {
    free(*p);
    *p = NULL;
  }
}

int hcl_progress_columns(int fd) {
  struct winsize size;
  if (!isatty(fd)) {
    return 0;
  }
  if (ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) {
    return size.ws_col;
  }
  const char *columns = getenv("COLUMNS");
  return columns && atoi(columns) > 0 ? atoi(columns) : 80;
}

double hcl_progress_now(void) {
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

enum { FIELDS = 8 };

/* The line's fields in their order, each with the rank it keeps on a narrow terminal (0: always; higher ranks go
 * first), joined into line with those of rank above keep dropped. */
typedef struct {
  char text[FIELDS][96];
  int rank[FIELDS];
} Fields;

static size_t join_fields(const Fields *f, int keep, char *line, size_t size) {
  size_t used = 0;
  line[0] = '\0';
  for (int i = 0; i < FIELDS && used < size; i++) {
    if (f->text[i][0] && f->rank[i] <= keep) {
      int n = snprintf(line + used, size - used, "%s%s", used ? " " : "", f->text[i]);
      used += n > 0 ? (size_t)n : 0;
    }
  }
  return used;
}

bool hcl_progress_update(Progress *p, double wall, double t, double dt, int64_t steps, const char *extra, bool final) {
  if (!p->started) { /* rates count from the first report, so start-up costs do not distort them */
    p->started = true;
    p->wall_start = p->wall_last = wall;
    p->steps_start = steps;
    if (!final) {
      return false;
    }
  }
  if (hcl_par_rank() != 0 || (!final && wall - p->wall_last < p->every)) {
    return false;
  }
  p->wall_last = wall;
  double elapsed = wall - p->wall_start;
  double span = p->t_end - p->t_start;
  double fraction = span > 0 ? (t - p->t_start) / span : 1.0;
  double steps_per_second = elapsed > 0 ? (double)(steps - p->steps_start) / elapsed : 0.0;
  double sim_rate = elapsed > 0 ? (t - p->t_start) / elapsed : 0.0;
  char left[32];
  format_duration(sim_rate > 0 ? (p->t_end - t) / sim_rate : NAN, left, sizeof left);
  Fields f = {.rank = {1, 0, 2, 6, 4, 5, 0, 3}};
  snprintf(f.text[0], sizeof f.text[0], "progress");
  snprintf(f.text[1], sizeof f.text[1], "t=%.6g s (%.1f%%)", t, 100.0 * fraction);
  snprintf(f.text[2], sizeof f.text[2], "dt=%.6g s", dt);
  snprintf(f.text[3], sizeof f.text[3], "steps=%lld", (long long)steps);
  snprintf(f.text[4], sizeof f.text[4], "steps/s=%.4g", steps_per_second);
  snprintf(f.text[5], sizeof f.text[5], "cell-updates/s=%.4g", steps_per_second * p->cells);
  snprintf(f.text[6], sizeof f.text[6], "left=%s", left);
  snprintf(f.text[7], sizeof f.text[7], "%s", extra ? extra : "");
  /* On a terminal the line fits its width (a line that wraps cannot be rewritten in place): the fields of the
   * highest rank go first. */
  char line[FIELDS * 96 + 8];
  int keep = 6;
  while (join_fields(&f, keep, line, sizeof line) >= (size_t)(p->columns > 0 ? p->columns : 1 << 20) && keep > 0) {
    keep--;
  }
  /* On a terminal the line is rewritten in place: carriage return, the line, then ESC [K to erase what a longer
   * line before it left to its right. */
  bool terminal = p->columns > 0;
  fprintf(p->out, "%s%s%s%s", terminal ? "\r" : "", line, terminal ? "\033[K" : "", terminal && !final ? "" : "\n");
  fflush(p->out);
  return true;
}
