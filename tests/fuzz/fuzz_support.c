/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_support.c: see fuzz_support.h. */
#include "fuzz_support.h"

#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inputs.h"
#include "log.h"

static char scratch[512];

/* Removes the scratch folder and the files the targets wrote into it (no subfolders). */
static void remove_scratch(void) {
  DIR *d = opendir(scratch);
  if (d) {
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
      char path[1024];
      if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
        snprintf(path, sizeof path, "%s/%s", scratch, e->d_name);
        unlink(path);
      }
    }
    closedir(d);
  }
  rmdir(scratch);
}

const char *fuzz_dir(void) {
  if (!scratch[0]) {
    const char *tmp = getenv("TMPDIR");
    snprintf(scratch, sizeof scratch, "%s/hydrocl-fuzz-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (!mkdtemp(scratch)) {
      perror("fuzz: cannot make a scratch folder");
      abort();
    }
    if (getenv("FUZZ_VERBOSE")) {
      fprintf(stderr, "fuzz: scratch folder %s (kept)\n", scratch);
    } else {
      atexit(remove_scratch);
      hcl_log_setup(LOG_QUIET, 0, 1); /* the warnings of accepted inputs would drown libFuzzer's lines */
    }
  }
  return scratch;
}

enum { NAMES_MAX = 8 };

const char *fuzz_write(const char *name, const uint8_t *data, size_t size) {
  static struct { char name[64], path[600]; } paths[NAMES_MAX];
  int slot = 0;
  while (slot < NAMES_MAX && paths[slot].name[0] && strcmp(paths[slot].name, name) != 0) {
    slot++;
  }
  if (slot == NAMES_MAX) {
    fprintf(stderr, "fuzz: more than %d scratch file names\n", NAMES_MAX);
    abort();
  }
  snprintf(paths[slot].name, sizeof paths[slot].name, "%s", name);
  snprintf(paths[slot].path, sizeof paths[slot].path, "%s/%s", fuzz_dir(), name);
  FILE *f = fopen(paths[slot].path, "wb");
  if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
    perror("fuzz: cannot write a scratch file");
    abort();
  }
  return paths[slot].path;
}

void fuzz_accept(HclStatus status) {
  if (status != HCL_OK && !hcl_status_message()[0]) {
    fprintf(stderr, "fuzz: %s returned without a message (status.h: every failure records one)\n",
            hcl_status_name(status));
    abort();
  }
  if (getenv("FUZZ_VERBOSE")) {
    fprintf(stderr, "fuzz: %s%s%s\n", hcl_status_name(status), status == HCL_OK ? "" : ": ", hcl_status_message());
  }
  hcl_status_clear();
}

void fuzz_check(bool cond, const char *text, const char *file, int line, const char *fmt, ...) {
  if (cond) {
    return;
  }
  va_list args;
  va_start(args, fmt);
  fprintf(stderr, "fuzz: %s:%d: %s fails: ", file, line, text);
  vfprintf(stderr, fmt, args);
  fputc('\n', stderr);
  va_end(args);
  abort();
}

unsigned fuzz_take(FuzzBytes *b, unsigned bound) {
  unsigned value = 0;
  for (unsigned long long span = 1; span < bound && b->size > 0; span <<= 8) {
    value = (value << 8) | *b->data++;
    b->size--;
  }
  return value % bound;
}

bool fuzz_bool(FuzzBytes *b) {
  return fuzz_take(b, 2) == 1;
}

void fuzz_raw(FuzzBytes *b, void *out, size_t n) {
  size_t got = n < b->size ? n : b->size;
  memcpy(out, b->data, got);
  memset((char *)out + got, 0, n - got);
  b->data += got;
  b->size -= got;
}

void fuzz_read_grid(const char *path, const char *variable, int nx, int ny) {
  double *grid = calloc((size_t)nx * ny, sizeof *grid);
  FUZZ_CHECK(grid != NULL, "%d x %d values", nx, ny);
  HclStatus status = hcl_input_read_grid(path, variable, nx, ny, NULL, grid, NULL);
  for (size_t p = 0; status == HCL_OK && p < (size_t)nx * ny; p++) {
    FUZZ_CHECK(isfinite(grid[p]), "grid value %zu is %g", p, grid[p]);
  }
  fuzz_accept(status);
  free(grid);
}
