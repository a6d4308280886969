/* SPDX-License-Identifier: BSD-3-Clause */
/* schedule.c: output events and the steps that land on them (see schedule.h). */
#include "schedule.h"

#include <float.h>
#include <math.h>

/* Whether two times are one instant: within 16 units in the last place of the larger (no time is near "never",
 * HUGE_VAL). An event computed as k interval and a time given in the case differ by rounding only, a few units
 * (time.end: 6.03 against 3 x 2.01 = 6.029999999999999); taken for two instants they made a step of 1e-15 s between
 * them and a frame written twice. Relative to the times' own precision, so a run of 1e12 s keeps its last seconds. */
static bool same_time(double a, double b) {
  return a == b || (isfinite(a) && isfinite(b) && fabs(a - b) <= 16 * DBL_EPSILON * fmax(fabs(a), fabs(b)));
}

/* Whether the event at time falls at or before t. */
static bool reached(double time, double t) {
  return time <= t || same_time(time, t);
}

double schedule_time(const Schedule *e) {
  return e->interval > 0 ? (double)e->next * e->interval : HUGE_VAL;
}

void schedule_start(Schedule *e, double interval, double t) {
  e->interval = interval;
  e->next = interval > 0 ? (int64_t)floor(t / interval) : 0;
  while (interval > 0 && reached(schedule_time(e), t)) {
    e->next++;
  }
}

bool schedule_due(Schedule *e, double t) {
  if (!reached(schedule_time(e), t)) {
    return false;
  }
  while (reached(schedule_time(e), t)) {
    e->next++;
  }
  return true;
}

int64_t schedule_count_until(const Schedule *e, double t_end) {
  if (!(e->interval > 0) || reached(t_end, schedule_time(e))) {
    return 1;
  }
  /* The first event at or after t_end, k interval >= t_end, found arithmetically (a run of 1e12 s with frames every
   * second is counted at once) and settled against schedule_time's own rounding. */
  Schedule last = {.interval = e->interval, .next = (int64_t)ceil(t_end / e->interval)};
  while (last.next > e->next &&
         reached(t_end, schedule_time(&(Schedule){.interval = e->interval, .next = last.next - 1}))) {
    last.next--;
  }
  while (!reached(t_end, schedule_time(&last))) {
    last.next++;
  }
  return last.next - e->next + 1;
}

double schedule_step(double t, double event, double dt_max, double *t_next) {
  double remaining = event - t;
  double steps = ceil(remaining / dt_max - 1e-9);
  double dt = steps <= 1 ? remaining : remaining / steps;
  *t_next = steps <= 1 ? event : t + dt;
  return dt;
}

void timeline_start(Timeline *tl, double t_end, double map, double history, double restart, double t, int64_t step) {
  tl->t = t;
  tl->t_end = t_end;
  tl->step = step;
  schedule_start(&tl->map, map, t);
  schedule_start(&tl->history, history, t);
  schedule_start(&tl->restart, restart, t);
}

double timeline_next_event(const Timeline *tl) {
  double event = fmin(schedule_time(&tl->map), fmin(schedule_time(&tl->history), schedule_time(&tl->restart)));
  return reached(tl->t_end, event) ? tl->t_end : event; /* an event at the end is the end */
}

double timeline_step(const Timeline *tl, double dt_max, double *t_next) {
  return schedule_step(tl->t, timeline_next_event(tl), dt_max, t_next);
}

TimelineDue timeline_advance(Timeline *tl, double t_next) {
  tl->t = t_next;
  tl->step++;
  TimelineDue due = {.end = tl->t >= tl->t_end};
  due.map = schedule_due(&tl->map, tl->t) || due.end;
  due.history = schedule_due(&tl->history, tl->t) || due.end;
  due.restart = schedule_due(&tl->restart, tl->t) || due.end;
  return due;
}
