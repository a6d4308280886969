/* SPDX-License-Identifier: BSD-3-Clause */
/* log.h: leveled logging to stderr. Info and verbose lines come from rank 0 only; warnings and errors from every
 * rank, prefixed with the rank when there are several. Program output (tables, JSON) goes to stdout instead. */
#ifndef HYDROCL_LOG_H
#define HYDROCL_LOG_H

typedef enum { LOG_QUIET = -1, LOG_INFO = 0, LOG_VERBOSE = 1, LOG_DEBUG = 2 } LogLevel;

/* Set once at start-up (after hcl_par_init): the level from -q/-v/-vv and this process's rank. */
void hcl_log_setup(LogLevel level, int rank, int nranks);
LogLevel hcl_log_level(void);

void hcl_log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void hcl_log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void hcl_log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void hcl_log_verbose(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void hcl_log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
