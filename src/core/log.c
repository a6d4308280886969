/* SPDX-License-Identifier: BSD-3-Clause */
/* log.c: leveled logging; see log.h. */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>

static LogLevel current_level = LOG_INFO;
static int my_rank = 0;
static int nranks_total = 1;

void hcl_log_setup(LogLevel level, int rank, int nranks) {
  current_level = level;
  my_rank = rank;
  nranks_total = nranks;
}

LogLevel hcl_log_level(void) {
  return current_level;
}

static void emit(const char *tag, const char *fmt, va_list args) {
  if (nranks_total > 1) {
    fprintf(stderr, "hydrocl[%d]: %s", my_rank, tag);
  } else {
    fprintf(stderr, "hydrocl: %s", tag);
  }
  vfprintf(stderr, fmt, args);
  fputc('\n', stderr);
  fflush(stderr);
}

#define LOG_FUNCTION(fname, tag, shown)                                                                                \
  void fname(const char *fmt, ...) {                                                                                   \
    if (!(shown)) {                                                                                                    \
      return;                                                                                                          \
    }                                                                                                                  \
    va_list args;                                                                                                      \
    va_start(args, fmt);                                                                                               \
    emit(tag, fmt, args);                                                                                              \
    va_end(args);                                                                                                      \
  }

LOG_FUNCTION(hcl_log_error, "error: ", 1)
LOG_FUNCTION(hcl_log_warn, "warning: ", current_level >= LOG_INFO)
LOG_FUNCTION(hcl_log_info, "", current_level >= LOG_INFO && my_rank == 0)
LOG_FUNCTION(hcl_log_verbose, "", current_level >= LOG_VERBOSE && my_rank == 0)
LOG_FUNCTION(hcl_log_debug, "debug: ", current_level >= LOG_DEBUG)
