/* SPDX-License-Identifier: BSD-3-Clause */
/* signals.c: clean-stop requests by SIGTERM and SIGUSR1 (see signals.h). */
#include "signals.h"

#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "par.h"

/* Lock-free atomics, safe in a handler: PoCL's and MPI's threads let two signals be handled at once, each on a thread
 * of its own, so the first Ctrl-C's test and its mark must be one step (a plain flag set after the message let a
 * second Ctrl-C typed on seeing the message be taken for a first). */
static atomic_int caught = 0;
static atomic_int interrupts = 0;

static void record(int signal_number) {
  static const char first[] =
      "\nhydrocl: interrupted: stopping after this step with a restart (Ctrl-C again to stop at once)\n";
  /* A second Ctrl-C stops at once, as without the handler. */
  if (signal_number == SIGINT && atomic_fetch_add(&interrupts, 1) > 0) {
    signal(SIGINT, SIG_DFL);
    raise(SIGINT);
    return;
  }
  atomic_store(&caught, signal_number);
  if (signal_number == SIGINT) {
    ssize_t ignored = write(STDERR_FILENO, first, sizeof first - 1); /* async-signal-safe, unlike stdio */
    (void)ignored;
  }
}

void hcl_signals_install(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = record;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART; /* interrupted reads and writes resume; the loop polls the flag */
  sigaction(SIGTERM, &action, NULL);
  sigaction(SIGUSR1, &action, NULL);
  sigaction(SIGINT, &action, NULL);
}

int hcl_signals_caught(void) {
  return atomic_load(&caught);
}

HclStatus hcl_signals_agree(int *signal_number) {
  HclStatus status = HCL_OK;
  int mine = atomic_load(&caught);
  *signal_number = mine;
  TRY(hcl_par_max_int(signal_number));
cleanup:
  return status;
}

static double wall_seconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

void hcl_signals_poll_start(SignalPoll *poll) {
  *poll = (SignalPoll){.every = 1, .left = 1, .since = 0, .last = wall_seconds()};
}

HclStatus hcl_signals_poll(SignalPoll *poll, bool now, int *signal_number) {
  HclStatus status = HCL_OK;
  *signal_number = 0;
  poll->since++;
  if (hcl_par_size() == 1) {
    *signal_number = atomic_load(&caught);
    goto cleanup;
  }
  if (!now && --poll->left > 0) {
    goto cleanup;
  }
  TRY(hcl_signals_agree(signal_number));
  double at = wall_seconds(), per_step = (at - poll->last) / (double)poll->since;
  TRY(hcl_par_max_double(&per_step)); /* the slowest rank's: every rank then takes the same cadence */
  double steps = per_step > 0 ? SIGNALS_POLL_SECONDS / per_step : 2.0 * (double)poll->every;
  poll->every = steps < 1 ? 1 : steps > 1e6 ? 1000000 : (int64_t)steps;
  poll->left = poll->every;
  poll->since = 0;
  poll->last = at;
cleanup:
  return status;
}
