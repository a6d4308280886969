#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test_plot.sh: tools/hydrocl-plot on output written by the output layer (write_sample_output): a snapshot PNG, gauge
# series with RMSE and bias against a measured CSV whose offset is known, and its errors.
# Usage: test_plot.sh WRITE_SAMPLE_OUTPUT PLOT_TOOL
set -u
writer=$1
plot=$2
. "$(dirname "$0")/../support/tap.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

run_capture "$writer" "$dir"
ok "sample map and history files written" equals "$rc" 0

run_capture "$plot" snapshot "$dir/map.nc" zeta --time 100 -o "$dir/zeta.png"
ok "snapshot exits 0" equals "$rc" 0
ok "snapshot picks the frame nearest to t=100 s" contains "$out" "frame 2, t=120 s"
ok "snapshot writes a PNG" python3 -c '
import sys
assert open(sys.argv[1], "rb").read(8) == b"\x89PNG\r\n\x1a\n"' "$dir/zeta.png"

# The model at g1 (55, 35) is 0.55 - 0.7 + 0.001 t; the "measurements" are that minus 0.25 at times between frames,
# where linear interpolation of the linear model is exact: rmse 0.25, bias +0.25.
printf 'time,g1\n30,%s\n90,%s\n210,%s\n' \
  "$(python3 -c 'print(0.55-0.7+0.030-0.25)')" "$(python3 -c 'print(0.55-0.7+0.090-0.25)')" \
  "$(python3 -c 'print(0.55-0.7+0.210-0.25)')" >"$dir/measured.csv"
run_capture "$plot" gauges "$dir/history.nc" zeta --measured "$dir/measured.csv" -o "$dir/gauges.png"
ok "gauges exits 0" equals "$rc" 0
ok "gauges prints rmse and bias against the measurements" python3 -c '
import sys
fields = dict(kv.split("=") for kv in sys.argv[1].split() if "=" in kv)
assert fields["gauge"] == "g1" and fields["n"] == "3", fields
# float32 storage of values near 0.1: 1e-7 absolute
assert abs(float(fields["rmse"]) - 0.25) < 1e-6 and abs(float(fields["bias"]) - 0.25) < 1e-6, fields
' "$(printf '%s\n' "$out" | grep '^gauge=g1')"
ok "gauges writes a PNG" test -s "$dir/gauges.png"
# The same measurements dated in ISO 8601 (issue 32, 3): 30 s, 90 s and 210 s after the file's reference
# 2000-01-01 00:00:00, one written as UTC with Z, one in another zone, one without a zone (UTC): the same fit.
sed -e 's/^30,/2000-01-01T00:00:30Z,/' -e 's/^90,/2000-01-01T01:01:30+01:00,/' -e 's/^210,/2000-01-01 00:03:30,/' \
  "$dir/measured.csv" >"$dir/dated.csv"
run_capture "$plot" gauges "$dir/history.nc" zeta --measured "$dir/dated.csv" -o "$dir/dated.png"
ok "measured times in ISO 8601 give the same rmse and bias" python3 -c '
import sys
fields = dict(kv.split("=") for kv in sys.argv[1].split() if "=" in kv)
assert fields["n"] == "3" and abs(float(fields["rmse"]) - 0.25) < 1e-6 and abs(float(fields["bias"]) - 0.25) < 1e-6
' "$(printf '%s\n' "$out" | grep '^gauge=g1')"
printf 'time,g1\nyesterday,0.1\n' >"$dir/undated.csv"
run_capture "$plot" gauges "$dir/history.nc" zeta --measured "$dir/undated.csv"
ok "a time that is neither seconds nor a date exits 65 with the line" test "$rc" = 65 -a -n "$(grep -F "undated.csv:2:" <<<"$err")"

run_capture "$plot" snapshot "$dir/map.nc" nosuch
ok "an unknown variable exits 65" equals "$rc" 65
ok "and lists the variables" contains "$err" "it has: zeta"
run_capture "$plot" gauges "$dir/history.nc" zeta --gauge g9
ok "an unknown gauge exits 65" equals "$rc" 65
run_capture "$plot" snapshot "$dir/none.nc" zeta
ok "a missing file exits 66" equals "$rc" 66
run_capture "$plot" frobnicate
ok "an unknown command exits 64" equals "$rc" 64
tap_done
