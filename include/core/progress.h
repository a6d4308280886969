/* SPDX-License-Identifier: BSD-3-Clause */
/* progress.h: progress lines of a run, from rank 0, as key=value pairs a script can parse:
 *
 *   progress t=3600 s (25.0%) dt=0.5 s steps=7200 steps/s=812 cell-updates/s=3.2e+10 left=0:03:01 cg=6
 *
 * (left: the wall time left at the rate so far.) On a terminal one line is rewritten in place every few seconds of
 * wall time, cut to the terminal's width by dropping fields, least useful first (steps, cell-updates/s, steps/s,
 * the model's extra, dt, the word progress); otherwise (a log file, a batch system) a whole new line is printed at
 * each of those moments. The last update always prints and ends the line. */
#ifndef HYDROCL_PROGRESS_H
#define HYDROCL_PROGRESS_H

#include "status.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct Progress Progress;

/* t_start, t_end: simulated seconds; every: wall seconds between lines; cells: points updated per step.
 * out is borrowed (stderr in the command; a memory stream in tests); columns: its width when it is a terminal, 0
 * when it is not. */
HclStatus hcl_progress_create(double t_start, double t_end, double every, double cells, FILE *out, int columns,
                              Progress **p);
/* The width of the terminal fd is, 0 when it is not a terminal (TIOCGWINSZ, else $COLUMNS, else 80). */
int hcl_progress_columns(int fd);
void hcl_progress_destroy(Progress **p);

/* Reports the state after a step at wall-clock time wall (seconds, any origin, non-decreasing); extra is appended
 * (e.g. "iters=6") or NULL; final forces the line and ends it. Prints on rank 0 only; returns whether it printed. */
bool hcl_progress_update(Progress *p, double wall, double t, double dt, int64_t steps, const char *extra, bool final);

/* Wall-clock seconds from a monotonic clock, for callers. */
double hcl_progress_now(void);

#endif
