/* SPDX-License-Identifier: BSD-3-Clause */
/* schedule.h: events every `interval` seconds of simulated time (map frames, gauge samples, restarts), and a run's
 * timeline: the simulated time, the step count and the steps that land exactly on every event and on the end. What
 * the models' time loops share (swe_run.c, wave_run.c).
 *
 * An event is counted by its index, so that the k-th falls at exactly k * interval however long the run: the loop
 * lands on it. Times that differ by rounding only (3 x 2.01 and a time.end of 6.03) are one instant: events there
 * fall due together and at the end, with no step between them (schedule.c, same_time). The step depends only on the simulated time, the next
 * event and the longest step allowed, all of which a restart restores, so a continued run repeats the steps of an
 * uninterrupted one. */
#ifndef HYDROCL_SCHEDULE_H
#define HYDROCL_SCHEDULE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
  double interval; /* s; 0: no events */
  int64_t next;    /* index of the first event after the present time */
} Schedule;

/* Starts counting after t (a run's start, or the time a restart was written at). */
void schedule_start(Schedule *e, double interval, double t);
/* The time of the next event; HUGE_VAL without events. */
double schedule_time(const Schedule *e);
/* Whether an event falls at t; if so, moves on to the next one. */
bool schedule_due(Schedule *e, double t);
/* How many events fall after t and before or at t_end, plus one for the end itself when it is not an event: the
 * frames a run writes after its start. */
int64_t schedule_count_until(const Schedule *e, double t_end);

/* The step from t towards the next event at `event` (> t) for a step of at most dt_max: dt_max shortened evenly
 * over the steps left before the event where it does not divide what remains. *t_next is t + dt, or the event's
 * time exactly on the step that reaches it. */
double schedule_step(double t, double event, double dt_max, double *t_next);

/* A run's time: where it is, where it ends, and its three kinds of event. */
typedef struct {
  double t, t_end; /* s */
  int64_t step;
  Schedule map, history, restart;
} Timeline;

/* What falls on the step just taken; the end counts as every event. */
typedef struct {
  bool end, map, history, restart;
} TimelineDue;

/* A timeline at (t, step) with events every map, history and restart interval after t (0: none of that kind). */
void timeline_start(Timeline *tl, double t_end, double map, double history, double restart, double t, int64_t step);
/* The next time anything must happen: an event or the end. */
double timeline_next_event(const Timeline *tl);
/* The next step for a longest step dt_max (schedule_step towards timeline_next_event), and where it ends. */
double timeline_step(const Timeline *tl, double dt_max, double *t_next);
/* Moves to t_next (from timeline_step) after the step was taken, and says what falls there. */
TimelineDue timeline_advance(Timeline *tl, double t_next);

#endif
