/* SPDX-License-Identifier: BSD-3-Clause */
/* signals.h: SIGTERM, SIGUSR1 and SIGINT (Ctrl-C) ask a run to stop cleanly: write a restart, close its files and
 * exit with 75 (EX_TEMPFAIL), so a batch system's time limit, a user's `kill -USR1` or Ctrl-C never loses the run. The
 * handler only records the signal (and on Ctrl-C says what will happen); the time loop asks hcl_signals_poll() after
 * every step. A second Ctrl-C stops the process at once, as SIGINT does by default. */
#ifndef HYDROCL_SIGNALS_H
#define HYDROCL_SIGNALS_H

#include <stdbool.h>
#include <stdint.h>

#include "status.h"

/* Installs the handlers for SIGTERM, SIGUSR1 and SIGINT (idempotent). */
void hcl_signals_install(void);
/* The signal this process caught since start-up, or 0. */
int hcl_signals_caught(void);
/* The signal any rank caught (the highest number), the same on every rank, or 0. Collective. */
HclStatus hcl_signals_agree(int *signal_number);

/* How often the time loop asks: on one rank after every step (reading the flag costs nothing); on several, where
 * the ranks must agree (a collective), every `every` steps, `every` set at each agreement from the slowest rank's
 * wall time per step since the last, so that a signal is seen within about SIGNALS_POLL_SECONDS of wall time (or
 * one step, when a step takes longer) at two small collectives a poll. Every rank makes the same calls, so all
 * agree at the same steps. */
#define SIGNALS_POLL_SECONDS 0.2
typedef struct {
  int64_t every, left; /* steps between agreements, steps left to the next */
  int64_t since;       /* steps since the last agreement */
  double last;         /* the wall time of the last agreement, s */
} SignalPoll;
void hcl_signals_poll_start(SignalPoll *poll);
/* After a step: the signal to stop for, or 0 (agreed on every rank). now: agree at this step whatever the cadence
 * (the same on every rank). Collective where it agrees. */
HclStatus hcl_signals_poll(SignalPoll *poll, bool now, int *signal_number);

#endif
