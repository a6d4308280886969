/* schedule.c: output events and the steps that land on them (see schedule.h). */
#include "schedule.h"

#include <math.h>

double schedule_time(const Schedule *e) {
  return e->interval > 0 ? (double)e->next * e->interval : HUGE_VAL;
}

void schedule_start(Schedule *e, double interval, double t) {
  e->interval = interval;
  e->next = interval > 0 ? (int64_t)floor(t / interval) : 0;
  while (interval > 0 && schedule_time(e) <= t) {
    e->next++;
  }
}

bool schedule_due(Schedule *e, double t) {
  if (!(t >= schedule_time(e))) {
    return false;
  }
  while (schedule_time(e) <= t) {
    e->next++;
  }
  return true;
}

int64_t schedule_count_until(const Schedule *e, double t_end) {
  if (!(e->interval > 0) || !(schedule_time(e) < t_end)) {
    return 1;
  }
  /* The first event at or after t_end, k interval >= t_end, found arithmetically (a run of 1e12 s with frames every
   * second is counted at once) and settled against schedule_time's own rounding. */
  Schedule last = {.interval = e->interval, .next = (int64_t)ceil(t_end / e->interval)};
  while (last.next > e->next && schedule_time(&(Schedule){.interval = e->interval, .next = last.next - 1}) >= t_end) {
    last.next--;
  }
  while (schedule_time(&last) < t_end) {
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
  double event = fmin(tl->t_end, schedule_time(&tl->map));
  return fmin(event, fmin(schedule_time(&tl->history), schedule_time(&tl->restart)));
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
