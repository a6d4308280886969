/* SPDX-License-Identifier: BSD-3-Clause */
/* tap.h: Test Anything Protocol output for hydrocl's C tests (meson runs them with protocol: 'tap').
 * TAP_OK(cond, fmt, ...) reports one assertion; tap_done() prints the plan and returns the exit status. */
#ifndef HYDROCL_TAP_H
#define HYDROCL_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int tap_count = 0;
static int tap_failures = 0;

/* Reports one assertion. A multi-line description keeps its first line; the rest become TAP comments. */
__attribute__((format(printf, 4, 5))) static bool tap_ok(bool pass, const char *file, int line, const char *fmt, ...) {
  char text[16384];
  va_list args;
  va_start(args, fmt);
  vsnprintf(text, sizeof text, fmt, args);
  va_end(args);
  char *rest = strchr(text, '\n');
  if (rest) {
    *rest++ = '\0';
  }
  printf("%sok %d - %s", pass ? "" : "not ", ++tap_count, text);
  if (!pass) {
    printf(" # at %s:%d", file, line);
    tap_failures++;
  }
  printf("\n");
  while (rest && *rest) {
    char *next = strchr(rest, '\n');
    if (next) {
      *next++ = '\0';
    }
    printf("#   %s\n", rest);
    rest = next;
  }
  fflush(stdout);
  return pass;
}

#define TAP_OK(cond, ...) tap_ok((cond), __FILE__, __LINE__, __VA_ARGS__)

/* Prints a diagnostic line (shown by meson on failure). */
__attribute__((format(printf, 1, 2), unused)) static void tap_note(const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  printf("# ");
  vprintf(fmt, args);
  va_end(args);
  printf("\n");
}

/* |got - want| <= rtol |want| + atol: relative with an absolute floor (SUNDIALS' comparison). */
static inline bool tap_close(double got, double want, double rtol, double atol) {
  return fabs(got - want) <= rtol * fabs(want) + atol;
}

static inline bool tap_contains(const char *text, const char *part) {
  return text && strstr(text, part) != NULL;
}

static int tap_done(void) {
  printf("1..%d\n", tap_count);
  return tap_failures ? 1 : 0;
}

#endif
