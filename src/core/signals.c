/* SPDX-License-Identifier: BSD-3-Clause */
/* signals.c: clean-stop requests by SIGTERM and SIGUSR1 (see signals.h). */
#include "signals.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "par.h"

static volatile sig_atomic_t caught = 0;

static void record(int signal_number) {
  static const char first[] =
      "\nhydrocl: interrupted: stopping at the next check with a restart (Ctrl-C again to stop at once)\n";
  if (signal_number == SIGINT && caught == SIGINT) { /* a second Ctrl-C: at once, as without the handler */
    signal(SIGINT, SIG_DFL);
    raise(SIGINT);
    return;
  }
  if (signal_number == SIGINT) {
    ssize_t ignored = write(STDERR_FILENO, first, sizeof first - 1); /* async-signal-safe, unlike stdio */
    (void)ignored;
  }
  caught = signal_number;
}

void signals_install(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = record;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART; /* interrupted reads and writes resume; the loop polls the flag */
  sigaction(SIGTERM, &action, NULL);
  sigaction(SIGUSR1, &action, NULL);
  sigaction(SIGINT, &action, NULL);
}

int signals_caught(void) {
  return caught;
}

HclStatus signals_agree(int *signal_number) {
  HclStatus status = HCL_OK;
  int mine = caught;
  *signal_number = mine;
  TRY(par_max_int(signal_number));
cleanup:
  return status;
}
