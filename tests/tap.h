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

/* Reports one assertion; todo (not NULL) marks a known failure with TAP's TODO directive and its reason: reported,
 * not counted as a failure (meson shows it as an expected failure, or as an unexpected pass once it holds). A
 * multi-line description keeps its first line; the rest become TAP comments. */
__attribute__((format(printf, 5, 6))) static bool tap_report(bool pass, const char *todo, const char *file, int line,
                                                              const char *fmt, ...) {
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
  if (todo) {
    printf(" # TODO %s", todo);
  } else if (!pass) {
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

#define TAP_OK(cond, ...) tap_report((cond), NULL, __FILE__, __LINE__, __VA_ARGS__)
#define TAP_TODO(cond, reason, ...) tap_report((cond), (reason), __FILE__, __LINE__, __VA_ARGS__)

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
