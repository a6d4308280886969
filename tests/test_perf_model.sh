#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test_perf_model.sh: bench/perf-model, calibrated on the measured multi-GPU points (bench/scaling-measured.tsv),
# reproduces each of them within 15% (the issue's bound for the model), and its projections are efficiencies that
# the communication-avoiding cycles' counts (the Laplace V-cycle's, the 5-point multigrid's) raise above the plain
# cycles' at every number of GPUs.
# Usage: test_perf_model.sh SOURCE_ROOT
set -u
. "$(dirname "$0")/support/tap.sh"
out=$(python3 "$1/bench/perf-model" --check 2>&1)
rc=$?
ok "the model reproduces every measured point within 15%" equals "$rc" 0
[ "$rc" = 0 ] || printf '%s\n' "$out" | sed 's/^/# /'
ok "its projections: percentages, the communication-avoiding cycle's above the plain one's" python3 -c '
import re, sys
pairs = re.findall(r"(\d+)% -> (\d+)%", sys.argv[1])
assert len(pairs) == 20, pairs
assert all(0 < int(a) < int(b) <= 100 for a, b in pairs), pairs' "$out"
tap_done
