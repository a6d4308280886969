/* SPDX-License-Identifier: BSD-3-Clause */
/* status.h: the one error idiom of hydrocl.
 *
 * Every fallible function returns an HclStatus and keeps its result in out-parameters. Inside such a function:
 *
 *   HclStatus status = HCL_OK;
 *   TRY(hcl_field_create(...));                      propagate a callee's failure
 *   REQUIRE(nx >= 3, HCL_EDATA, "grid.nx must be >= 3 (got %d)", nx);   user error, always checked
 *   ASSERT(level < nlevels);                     internal invariant: a bug in hydrocl if it fails
 * cleanup:
 *   release everything acquired, unconditionally (destroy functions are NULL-safe);
 *   return status;
 *
 * The first failure records one message (what failed, the values, the fix); callers only propagate it. Library
 * code never exits: main maps the status to a sysexits(3) exit code. */
#ifndef HYDROCL_STATUS_H
#define HYDROCL_STATUS_H

#include <stddef.h>

/* X(name, exit code, summary): the single list behind the enum, the names and the exit codes. */
#define HCL_STATUS_LIST(X)                                                                                             \
  X(HCL_OK, 0, "success")                                                                                              \
  X(HCL_EUSAGE, 64, "command-line usage error")                                                                        \
  X(HCL_EDATA, 65, "bad input data")                                                                                   \
  X(HCL_ENOINPUT, 66, "missing input")                                                                                 \
  X(HCL_ENODEVICE, 69, "no suitable device")                                                                           \
  X(HCL_EINTERNAL, 70, "internal error")                                                                               \
  X(HCL_EOPENCL, 70, "OpenCL runtime error")                                                                           \
  X(HCL_EBUILD, 70, "kernel build failure")                                                                            \
  X(HCL_ENOMEM, 71, "out of host memory")                                                                              \
  X(HCL_EMPI, 71, "MPI error")                                                                                         \
  X(HCL_ECANTCREAT, 73, "cannot create output")                                                                        \
  X(HCL_EIO, 74, "input/output error")                                                                                 \
  X(HCL_ESTOPPED, 75, "stopped on request after writing a restart")                                                    \
  X(HCL_ENOTCONVERGED, 78, "an iterative solver did not converge with the settings given")                             \
  X(HCL_EDIVERGED, 79, "the run diverged; its last good state was written")

typedef enum {
#define HCL_STATUS_ENUM(name, code, summary) name,
  HCL_STATUS_LIST(HCL_STATUS_ENUM)
#undef HCL_STATUS_ENUM
      HCL_STATUS_COUNT
} HclStatus;

/* Records the first failure's message (printf-style) with the source location; returns code. */
HclStatus hcl_status_set(HclStatus code, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The recorded message, or "" when none. Borrowed; valid until hcl_status_clear. */
const char *hcl_status_message(void);
/* "src/cl/program.c:88" of the recorded failure, or "". Borrowed. */
const char *hcl_status_origin(void);
void hcl_status_clear(void);

const char *hcl_status_name(HclStatus code);    /* "HCL_EDATA" */
const char *hcl_status_summary(HclStatus code); /* "bad input data" */
int hcl_status_exit_code(HclStatus code);       /* sysexits(3) value, 0 for HCL_OK */

#define TRY(expr)                                                                                                      \
  do {                                                                                                                 \
    status = (expr);                                                                                                   \
    if (status != HCL_OK) {                                                                                            \
      goto cleanup;                                                                                                    \
    }                                                                                                                  \
  } while (0)

#define FAIL(code, ...)                                                                                                \
  do {                                                                                                                 \
    status = hcl_status_set((code), __FILE__, __LINE__, __VA_ARGS__);                                                  \
    goto cleanup;                                                                                                      \
  } while (0)

#define REQUIRE(cond, code, ...)                                                                                       \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      FAIL((code), __VA_ARGS__);                                                                                       \
    }                                                                                                                  \
  } while (0)

#define ASSERT(cond) REQUIRE((cond), HCL_EINTERNAL, "internal invariant violated: %s (please report)", #cond)

/* Checked allocation of n zeroed elements of *ptr's type; the message names what was allocated. */
#define TRY_ALLOC(ptr, n)                                                                                              \
  do {                                                                                                                 \
    size_t count_ = (size_t)(n);                                                                                       \
    (ptr) = calloc(count_ ? count_ : 1, sizeof *(ptr));                                                                \
    REQUIRE((ptr) != NULL, HCL_ENOMEM, "cannot allocate %zu bytes for %s", count_ * sizeof *(ptr), #ptr);              \
  } while (0)

/* Checked allocation of bytes zeroed bytes for an untyped buffer (void *: sizeof *ptr would be no C). */
#define TRY_ALLOC_BYTES(ptr, bytes)                                                                                    \
  do {                                                                                                                 \
    size_t bytes_ = (size_t)(bytes);                                                                                   \
    (ptr) = calloc(bytes_ ? bytes_ : 1, 1);                                                                            \
    REQUIRE((ptr) != NULL, HCL_ENOMEM, "cannot allocate %zu bytes for %s", bytes_, #ptr);                              \
  } while (0)

#endif
