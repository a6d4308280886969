#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# format.sh: every tracked C source, header and OpenCL kernel file is formatted as .clang-format says (tools/format
# --check): a formatting drift fails the suite.
# Usage: format.sh SOURCE_ROOT
set -u
. "$(dirname "$0")/support/tap.sh"
out=$("$1/tools/format" --check 2>&1)
rc=$?
if [ "$rc" = 77 ]; then
  echo "ok 1 # SKIP $out"
  echo "1..1"
  exit 0
fi
ok "the tree is formatted as .clang-format says" equals "$rc" 0
[ "$rc" = 0 ] || printf '%s\n' "$out" | sed 's/^/# /'
tap_done
