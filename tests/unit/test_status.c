/* SPDX-License-Identifier: BSD-3-Clause */
/* test_status.c: the error idiom: REQUIRE/TRY jump to cleanup, the first message wins, exit codes follow
 * sysexits(3). */
#include <stdlib.h>
#include <string.h>

#include "status.h"
#include "../support/tap.h"

static int cleanups = 0;

static HclStatus inner(int value) {
  HclStatus status = HCL_OK;
  REQUIRE(value >= 3, HCL_EDATA, "grid.nx must be >= 3 (got %d)", value);
cleanup:
  cleanups++;
  return status;
}

static HclStatus outer(int value) {
  HclStatus status = HCL_OK;
  int *scratch = NULL;
  TRY_ALLOC(scratch, 16);
  TRY(inner(value));
  /* A later failure must not replace the root cause's message. */
  REQUIRE(value != 1, HCL_EIO, "not reached");
cleanup:
  free(scratch);
  cleanups++;
  return status;
}

int main(void) {
  hcl_status_clear();
  TAP_OK(outer(5) == HCL_OK && cleanups == 2, "success runs every cleanup once");
  TAP_OK(hcl_status_message()[0] == '\0', "success records no message");

  HclStatus s = outer(1);
  TAP_OK(s == HCL_EDATA, "REQUIRE failure propagates its code through TRY (got %s)", hcl_status_name(s));
  TAP_OK(strcmp(hcl_status_message(), "grid.nx must be >= 3 (got 1)") == 0, "message has the key and value: '%s'",
         hcl_status_message());
  TAP_OK(tap_contains(hcl_status_origin(), "test_status.c:"), "origin names the file: '%s'", hcl_status_origin());
  TAP_OK(cleanups == 4, "cleanup ran on the failure path in both functions");
  hcl_status_set(HCL_EIO, __FILE__, __LINE__, "a consequence");
  TAP_OK(tap_contains(hcl_status_message(), "grid.nx"), "the first message is kept");
  hcl_status_clear();
  TAP_OK(hcl_status_message()[0] == '\0', "hcl_status_clear forgets the message");

  TAP_OK(hcl_status_exit_code(HCL_OK) == 0, "ok exits 0");
  TAP_OK(hcl_status_exit_code(HCL_EUSAGE) == 64, "usage exits 64 (EX_USAGE)");
  TAP_OK(hcl_status_exit_code(HCL_EDATA) == 65, "bad data exits 65 (EX_DATAERR)");
  TAP_OK(hcl_status_exit_code(HCL_ENOINPUT) == 66, "missing input exits 66 (EX_NOINPUT)");
  TAP_OK(hcl_status_exit_code(HCL_ENODEVICE) == 69, "no device exits 69 (EX_UNAVAILABLE)");
  TAP_OK(hcl_status_exit_code(HCL_EBUILD) == 70, "kernel build failure exits 70 (EX_SOFTWARE)");
  TAP_OK(hcl_status_exit_code(HCL_EIO) == 74, "I/O error exits 74 (EX_IOERR)");
  bool named = true;
  for (int c = 0; c < HCL_STATUS_COUNT; c++) {
    named = named && strncmp(hcl_status_name((HclStatus)c), "HCL_", 4) == 0 && hcl_status_summary((HclStatus)c)[0];
  }
  TAP_OK(named, "every status has a name and a summary");
  return tap_done();
}
