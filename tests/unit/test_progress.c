/* SPDX-License-Identifier: BSD-3-Clause */
/* test_progress.c: progress lines: none before the interval has passed, key=value fields with the right rates and
 * time left from a made-up clock, '\r'-rewritten lines on a terminal, cut to its width by dropping fields, and whole
 * lines otherwise, and a final line always. */
#include <stdlib.h>
#include <string.h>

#include "progress.h"
#include "../support/tap.h"

int main(void) {
  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&text, &size);
  Progress *p = NULL;
  /* 100 simulated seconds, a line every 5 wall seconds, 1e6 cells per step. */
  TAP_OK(hcl_progress_create(0.0, 100.0, 5.0, 1e6, out, 0, &p) == HCL_OK, "created");
  TAP_OK(!hcl_progress_update(p, 10.0, 0.0, 0.5, 0, NULL, false), "the first update only starts the clocks");
  TAP_OK(!hcl_progress_update(p, 12.0, 10.0, 0.5, 20, NULL, false), "nothing before the interval has passed");
  TAP_OK(hcl_progress_update(p, 20.0, 25.0, 0.5, 50, "iters=6", false), "a line after 10 wall seconds");
  fflush(out);
  /* 25 s simulated in 10 s of wall time: 2.5 s per s, 75 s left -> 30 s; 50 steps in 10 s -> 5 steps/s. */
  TAP_OK(tap_contains(text, "progress t=25 s (25.0%) dt=0.5 s steps=50 steps/s=5 cell-updates/s=5e+06 "
                            "left=0:00:30 iters=6\n"),
         "fields, rates and the time left: %s", text);
  TAP_OK(hcl_progress_update(p, 21.0, 30.0, 0.5, 60, NULL, true), "the final update always prints");
  fflush(out);
  TAP_OK(tap_contains(text, "progress t=30 s (30.0%)") && text[size - 1] == '\n', "and ends its line");
  hcl_progress_destroy(&p);
  fclose(out);
  free(text);

  text = NULL;
  out = open_memstream(&text, &size);
  hcl_progress_create(0.0, 10.0, 1.0, 1.0, out, 80, &p);
  hcl_progress_update(p, 0.0, 0.0, 1.0, 0, NULL, false);
  hcl_progress_update(p, 2.0, 5.0, 1.0, 5, NULL, false);
  fflush(out);
  TAP_OK(text[0] == '\r' && text[size - 1] != '\n', "on a terminal the line is rewritten in place: '%s'", text + 1);
  TAP_OK(size > 3 && strcmp(text + size - 3, "\033[K") == 0, "erasing what a longer line before it left");
  hcl_progress_update(p, 3.0, 10.0, 1.0, 10, NULL, true);
  fflush(out);
  TAP_OK(text[size - 1] == '\n' && tap_contains(text, "(100.0%)") && tap_contains(text, "left=0:00:00"),
         "and the final line ends it");
  hcl_progress_destroy(&p);
  fclose(out);
  free(text);

  /* A 40-column terminal: the line drops steps, cell-updates/s, steps/s, the extra, ... until it fits; the time and
   * the time left always stay. */
  for (int columns = 20; columns <= 120; columns += 50) {
    text = NULL;
    out = open_memstream(&text, &size);
    hcl_progress_create(0.0, 100.0, 1.0, 1e6, out, columns, &p);
    hcl_progress_update(p, 0.0, 0.0, 0.5, 0, NULL, false);
    hcl_progress_update(p, 10.0, 25.0, 0.5, 50, "cg=6.25", false);
    fflush(out);
    size_t shown = size - 1 - 3; /* the carriage return and the erase sequence */
    bool fits = shown < (size_t)columns || columns < 30;
    bool kept = tap_contains(text, "t=25 s (25.0%)") && tap_contains(text, "left=0:00:30");
    bool full = tap_contains(text, "steps=50 ") && tap_contains(text, "cg=6.25");
    TAP_OK(fits && kept && (columns < 100 ? !full : full), "a %d-column terminal: '%.*s' (%zu characters)", columns,
           (int)shown, text + 1, shown);
    hcl_progress_destroy(&p);
    fclose(out);
    free(text);
  }
  return tap_done();
}
