/* signals.h: SIGTERM and SIGUSR1 ask a run to stop cleanly: write a restart, close its files and exit with 75
 * (EX_TEMPFAIL), so a batch system's time limit or a user's `kill -USR1` never loses the run. The handler only
 * records the signal; the time loop asks signals_agree() between steps. */
#ifndef HYDROCL_SIGNALS_H
#define HYDROCL_SIGNALS_H

#include "status.h"

/* Installs the handlers for SIGTERM and SIGUSR1 (idempotent). */
void signals_install(void);
/* The signal this process caught since start-up, or 0. */
int signals_caught(void);
/* The signal any rank caught (the highest number), the same on every rank, or 0. Collective. */
HclStatus signals_agree(int *signal_number);

#endif
