/* SPDX-License-Identifier: BSD-3-Clause */
/* signals.h: SIGTERM, SIGUSR1 and SIGINT (Ctrl-C) ask a run to stop cleanly: write a restart, close its files and
 * exit with 75 (EX_TEMPFAIL), so a batch system's time limit, a user's `kill -USR1` or Ctrl-C never loses the run. The
 * handler only records the signal (and on Ctrl-C says what will happen); the time loop asks signals_agree() between
 * steps. A second Ctrl-C stops the process at once, as SIGINT does by default. */
#ifndef HYDROCL_SIGNALS_H
#define HYDROCL_SIGNALS_H

#include "status.h"

/* Installs the handlers for SIGTERM, SIGUSR1 and SIGINT (idempotent). */
void signals_install(void);
/* The signal this process caught since start-up, or 0. */
int signals_caught(void);
/* The signal any rank caught (the highest number), the same on every rank, or 0. Collective. */
HclStatus signals_agree(int *signal_number);

#endif
