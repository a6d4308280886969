#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test_plot.sh: tools/hydrocl-plot on output written by the output layer (write_sample_output): a snapshot PNG, gauge
# series with RMSE and bias against a measured CSV whose offset is known, and its errors; and on model output (a
# small stream-function flume, the tidal flat with maxima): flume, profile, harmonics (against hydrocl analyze
# harmonics), maxima, animate and gauge panels, each image checked for what it must show; and a small O-grid around a
# cylinder (a curvilinear map, the run-up against angle beside a reference run).
# Usage: test_plot.sh WRITE_SAMPLE_OUTPUT PLOT_TOOL HYDROCL SOURCE_ROOT
set -u
writer=$1
plot=$2
hydrocl=$3
root=$4
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

# ---- issue 32, 1: the plots of each model, on model output ----
# Pixels of a PNG: how many are strongly red and strongly blue (a diverging map centred on zero has both for a
# signed field; viridis has neither).
colours='
import sys
from PIL import Image
image = Image.open(sys.argv[1]).convert("RGB")
red = blue = 0
for r, g, b in image.getdata():
    red += r > 150 and g < 90 and b < 90
    blue += b > 150 and r < 90 and g < 120
print(red, blue)'
run_capture "$plot" snapshot "$dir/map.nc" zeta -o "$dir/signed.png"
set -- $(/usr/bin/python3 -c "$colours" "$dir/signed.png")
ok "a signed field (zeta from -0.19 to 0.43 m) is drawn on a map centred on zero: red and blue ($1, $2 pixels)" \
  test "$1" -gt 500 -a "$2" -gt 500
tank=(--set grid.nx=81 --set time.dt=0.075 --set waves.ramp_time=1.5 --set time.end=4.5)
run_capture "$hydrocl" run "$root/cases/stream-tank.yml" "${tank[@]}" -o "$dir/tank" -q
ok "a small stream-function flume runs" equals "$rc" 0
run_capture "$plot" flume "$dir/tank/map.nc" --times 0 4.5 -o "$dir/flume.png"
ok "flume draws eta(x) at the times asked for" test "$rc" = 0 -a -s "$dir/flume.png"
ok "at the frames nearest to them, over the flat bed it names (0.5 m deep)" contains "$out" \
  "eta(x) over a flat bed 0.5 m deep at t = 0, 4.5 s"
run_capture "$plot" flume "$dir/map.nc"
ok "flume of a 2D map exits 65 saying it is not a flume" test "$rc" = 65 -a -n "$(grep -F "is not a flume" <<<"$err")"
run_capture "$plot" flume "$dir/tank/map.nc" --times 99
ok "a time outside the record exits 64" equals "$rc" 64
line=$(/usr/bin/python3 -c 'import sys, netCDF4; print(list(netCDF4.Dataset(sys.argv[1])["station_name"][:])[0])' \
  "$dir/tank/kinematics.nc")
run_capture "$plot" profile "$dir/tank/kinematics.nc" "$line" -o "$dir/profile.png"
ok "profile draws u(z) and w(z) at kinematics line $line" test "$rc" = 0 -a -s "$dir/profile.png"
run_capture "$plot" profile "$dir/tank/kinematics.nc" "$line" --period 1.5 --phases 6 -o "$dir/phases.png"
ok "profile phase-averages over a period: 6 phases, each of the record's samples in one" test "$rc" = 0 -a \
  -n "$(grep -F "6 curves, phase-averaged over a period of 1.5 s" <<<"$out")"
run_capture "$plot" profile "$dir/tank/kinematics.nc" nowhere
ok "an unknown line exits 65 naming the lines" test "$rc" = 65 -a -n "$(grep -F "(it has: $line" <<<"$err")"
# Harmonics: the plot tool's numpy least squares and hydrocl analyze harmonics's QR fit of the same samples agree to
# the rounding of the plot tool's table (6 significant digits: both solve the same least-squares problem).
# On the submerged bar's gauges (issue 32's check), its first four periods (2.01 s), the last two fitted.
run_capture "$hydrocl" run "$root/cases/submerged-bar.yml" --set time.end=8.04 -o "$dir/bar" -q
ok "the submerged bar's first four periods run" equals "$rc" 0
run_capture "$plot" harmonics "$dir/bar/history.nc" --period 2.01 --window 4.02 8.04 --harmonics 2 -o "$dir/h.png"
plot_table=$out
ok "harmonics prints its table and draws the amplitudes along x" test "$rc" = 0 -a -s "$dir/h.png"
run_capture "$hydrocl" analyze harmonics "$dir/bar/history.nc" --period 2.01 --window 4.02 8.04 --harmonics 2 --json
ok "and agrees with hydrocl analyze harmonics to rounding" /usr/bin/python3 -c '
import json, sys
rows = {r["station"]: r for r in map(json.loads, sys.argv[2].splitlines())}
checked = 0
for line in sys.argv[1].splitlines():
    fields = line.split()
    if fields and fields[0] in rows and "no" not in fields:
        c = rows[fields[0]]
        close = lambda a, b: abs(a - b) <= 5e-6 * abs(b) + 1e-15
        assert close(float(fields[2]), c["mean"]), (fields, c)
        for n in range(2):
            assert close(float(fields[3 + 2 * n]), c["amplitude"][n]), (fields, c)
            assert abs(float(fields[4 + 2 * n]) - c["phase_deg"][n]) < 1e-4, (fields, c)
        checked += 1
assert checked == len(rows) == 9 and max(r["amplitude"][0] for r in rows.values()) > 0.001, (checked, rows)' \
  "$plot_table" "$out"
run_capture "$plot" harmonics "$dir/tank/history.nc" --period -1
ok "a negative period exits 64" equals "$rc" 64
run_capture "$hydrocl" run "$root/cases/tidal-flat.yml" --set grid.nx=16 --set grid.ny=8 --set time.end=3600 \
  --set output.interval=600 --set output.maxima=true -o "$dir/flat" -q
ok "the tidal flat with maxima runs" equals "$rc" 0
run_capture "$plot" maxima "$dir/flat/map.nc" h_max -o "$dir/hmax.png"
ok "maxima draws h_max" test "$rc" = 0 -a -s "$dir/hmax.png"
run_capture "$plot" maxima "$dir/tank/map.nc" -o "$dir/etamax.png"
ok "maxima of a potential-flow run draws its eta_max" test "$rc" = 0 -a -s "$dir/etamax.png"
run_capture "$plot" animate "$dir/flat/map.nc" zeta -o "$dir/zeta.gif"
ok "animate writes a GIF" equals "$rc" 0
ok "with one image a map frame (7)" /usr/bin/python3 -c '
import sys
from PIL import Image
image = Image.open(sys.argv[1])
assert image.n_frames == 7, image.n_frames' "$dir/zeta.gif"
ok "and a progress bar" contains "$err" "frame 7/7"
run_capture "$plot" animate "$dir/flat/map.nc" zeta -o "$dir/zeta.mp4" --fps 4
ok "and an MP4 through ffmpeg (tools/setup.sh installs it)" equals "$rc" 0
ok "of 7 video frames" test "$(ffprobe -v error -count_frames -select_streams v:0 -show_entries \
  stream=nb_read_frames -of csv=p=0 "$dir/zeta.mp4")" = 7
run_capture "$plot" animate "$dir/flat/map.nc" zeta -o "$dir/zeta.avi"
ok "an animation of another kind exits 64" equals "$rc" 64
for g in $(seq 1 6); do printf 'g%d,%d,100\n' "$g" $((80 * g)); done >"$dir/six.csv"
run_capture "$hydrocl" run "$root/cases/tidal-flat.yml" --set grid.nx=16 --set grid.ny=8 --set time.end=600 \
  --set output.gauges=[] --set output.gauge_file="$dir/six.csv" -o "$dir/six" -q
run_capture "$plot" gauges "$dir/six/history.nc" h -o "$dir/six.png"
ok "six gauges are drawn one a panel" contains "$out" "6 gauges in panels"
run_capture "$plot" maxima "$dir/six/map.nc"
ok "maxima of a shallow-water run without them exits 65 saying how to get them" \
  test "$rc" = 65 -a -n "$(grep -F "output.maxima: true" <<<"$err")"
run_capture "$plot" gauges "$dir/six/history.nc" h --measured "$dir/none.csv"
ok "a missing measurements file exits 66, no traceback" test "$rc" = 66 -a -z "$(grep Traceback <<<"$err")"

# ---- a curvilinear grid (issue 33): the O-grid around a cylinder, small, the linear incident wave everywhere at
# t = 0. Linear equations: a wave half as high has half the run-up, so runup --compare's ratio is 2 at every gauge
# (to the solver's tolerance, rtol 1e-9, and float32 storage: 1e-5). ----
polar=("$root/cases/cylinder-linear.yml" --set grid.nx=23 --set grid.ny=32 --set time.dt=0.05 --set time.end=0.5
  --set initial.shape=wave --set waves.ramp_time=0 --set output.extremes_start=0 --set output.interval=0.25
  --set solver.rtol=1e-9 -q)
run_capture "$hydrocl" run "${polar[@]}" -o "$dir/polar"
run_capture "$hydrocl" run "${polar[@]}" --set waves.height=0.0265 -o "$dir/polar-half"
ok "two O-grid runs, H and H / 2" test "$rc" = 0 -a -s "$dir/polar/history.nc" -a -s "$dir/polar-half/history.nc"
run_capture "$plot" snapshot "$dir/polar/map.nc" eta -o "$dir/polar-eta.png"
ok "snapshot draws the curvilinear map on its physical grid, without warnings" test "$rc" = 0 -a -s \
  "$dir/polar-eta.png" -a -z "$(grep -i warning <<<"$err")"
run_capture "$plot" runup "$dir/polar/history.nc" --compare "$dir/polar-half/history.nc" --height 0.053 \
  -o "$dir/runup.png"
ok "runup draws the run-up against angle" test "$rc" = 0 -a -s "$dir/runup.png"
ok "around the whole cylinder: 32 gauges from 0 to 348.75 degrees, the ratio 2 at each" python3 -c '
import sys
rows = [line.split(",") for line in sys.argv[1].splitlines() if line[:1].isdigit()]
assert len(rows) == 32 and float(rows[0][0]) == 0 and float(rows[-1][0]) == 348.75, rows
assert all(abs(float(r[3]) - 2) < 1e-4 for r in rows), rows' "$out"
run_capture "$plot" runup "$dir/tank/history.nc"
ok "runup of a run without run-up gauges exits 65 saying how to get them" \
  test "$rc" = 65 -a -n "$(grep -F "output.runup" <<<"$err")"
tap_done
