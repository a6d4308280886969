/* SPDX-License-Identifier: BSD-3-Clause */
/* test_schedule.c: the output schedule and the steps that land on it (src/model/schedule.h): times that are not
 * binary fractions (issue 26, 7): an event computed as k interval and the end given in the case are one instant
 * when they differ in their last bits, so no step of 1e-15 s is taken and no frame is written twice; the frame
 * counts of validate agree with the frames a timeline writes; a continued run's schedule starts where the
 * uninterrupted one was. */
#include <math.h>
#include <stdint.h>

#include "schedule.h"
#include "../support/tap.h"

/* Walks a timeline from 0 to t_end with steps of at most dt: the steps taken, the shortest, and the map frames
 * written after the start (the end writes one). */
typedef struct {
  int64_t steps, frames;
  double shortest;
} Walk;

static Walk walk(double t_end, double map, double history, double dt) {
  Timeline tl;
  Walk w = {0, 0, HUGE_VAL};
  timeline_start(&tl, t_end, map, history, 0, 0, 0);
  for (int guard = 0; guard < 1000000 && tl.t < t_end; guard++) {
    double t_next, step = timeline_step(&tl, dt, &t_next);
    w.shortest = fmin(w.shortest, step);
    TimelineDue due = timeline_advance(&tl, t_next);
    w.frames += due.map;
    w.steps++;
    if (due.end) {
      break;
    }
  }
  return w;
}

int main(void) {
  /* 3 x 2.01 = 6.029999999999999 < 6.03: one instant. 30 steps of 0.067 to each frame. */
  Walk w = walk(6.03, 2.01, 0, 0.067);
  TAP_OK(w.steps == 90 && w.frames == 3, "frames every 2.01 s to 6.03 s: 90 steps and 3 frames (%lld, %lld)",
         (long long)w.steps, (long long)w.frames);
  TAP_OK(w.shortest > 0.06, "no step shorter than the 0.067 s asked (shortest %.3g s)", w.shortest);
  /* 0.21 x 3 = 0.6299999999999999 and 0.07 x 9 = 0.6300000000000001: three events and the end at one instant. */
  w = walk(0.63, 0.21, 0.07, 0.03);
  TAP_OK(w.steps == 27 && w.frames == 3,
         "maps every 0.21 s and samples every 0.07 s to 0.63 s: 27 steps (3 of 0.0233 s a sample), 3 frames (%lld, "
         "%lld)",
         (long long)w.steps, (long long)w.frames);
  TAP_OK(w.shortest > 0.02, "no sliver step where the events meet (shortest %.3g s)", w.shortest);

  /* validate's count is what a run writes. */
  const double ends[] = {6.03, 60, 63, 0.3, 1e4 + 0.1};
  const double intervals[] = {2.01, 2, 7, 0.1, 0.1};
  for (int k = 0; k < 5; k++) {
    Timeline tl;
    timeline_start(&tl, ends[k], intervals[k], 0, 0, 0, 0);
    int64_t counted = schedule_count_until(&tl.map, ends[k]);
    w = walk(ends[k], intervals[k], 0, intervals[k] / 3);
    TAP_OK(counted == w.frames, "every %g s to %g s: %lld frames counted, %lld written", intervals[k], ends[k],
           (long long)counted, (long long)w.frames);
  }
  int64_t trillion = schedule_count_until(&(Schedule){.interval = 1, .next = 1}, 1e12);
  TAP_OK(trillion == 1000000000000LL, "every second to 1e12 s: a trillion frames, counted at once (%lld)",
         (long long)trillion);

  /* A run continued from t = 4.02 (a frame's time, 2 x 2.01 to the last bit or not) next writes at 6.03. */
  const double resumes[] = {4.02, 2 * 2.01, 4.0200000000000005};
  for (int k = 0; k < 3; k++) {
    Schedule e;
    schedule_start(&e, 2.01, resumes[k]);
    TAP_OK(e.next == 3, "continued at t = %.17g: the next frame is the third (%lld)", resumes[k], (long long)e.next);
  }
  /* A schedule without events never falls due, and is never the same time as anything. */
  Schedule none;
  schedule_start(&none, 0, 5);
  TAP_OK(!schedule_due(&none, 1e300) && isinf(schedule_time(&none)), "no interval: no event");
  return tap_done();
}
