/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_support.h: what hydrocl's libFuzzer targets (tests/fuzz, issue 27) share: a private scratch folder for the
 * files the readers take by name, the check that a refusal is one (a status with its message), and a reader of the
 * fuzz bytes for the structure-aware targets. */
#ifndef HYDROCL_FUZZ_SUPPORT_H
#define HYDROCL_FUZZ_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "status.h"

/* The process's scratch folder, made on first use in $TMPDIR (or /tmp) and removed at exit. With FUZZ_VERBOSE set
 * in the environment (replaying an input) it is kept, and fuzz_accept prints every status and message. */
const char *fuzz_dir(void);

/* Writes size bytes of data to NAME in the scratch folder (replacing it); returns its path (static storage, one per
 * name until the next call with that name). Aborts when the file cannot be written: the harness is broken. */
const char *fuzz_write(const char *name, const uint8_t *data, size_t size);

/* Accepts what a reader returned: HCL_OK, or a refusal that recorded its message (status.h: every failure does).
 * Clears the message for the next call. A failure without a message aborts: the contract of status.h is broken. */
void fuzz_accept(HclStatus status);

/* Aborts with a message when cond does not hold: a reader accepted what its header says it refuses. */
#define FUZZ_CHECK(cond, ...) fuzz_check((cond), #cond, __FILE__, __LINE__, __VA_ARGS__)
void fuzz_check(bool cond, const char *text, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Reads the grid at path (hcl_input_read_grid: variable, or NULL for the file's only 2D one) as nx x ny values: a refusal
 * with its message, or values that are all finite, as inputs.h promises. */
void fuzz_read_grid(const char *path, const char *variable, int nx, int ny);

/* The fuzz bytes read front to back; once they run out every read gives 0. */
typedef struct {
  const uint8_t *data;
  size_t size;
} FuzzBytes;

unsigned fuzz_take(FuzzBytes *b, unsigned bound); /* a number in [0, bound), bound >= 1 */
bool fuzz_bool(FuzzBytes *b);
void fuzz_raw(FuzzBytes *b, void *out, size_t n); /* n bytes, zeros once the input is used up */

#endif
