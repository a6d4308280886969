#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test_plot.sh: tools/hydrocl-plot on output written by the output layer (write_sample_output): a snapshot PNG, gauge
# series with RMSE and bias against a measured CSV whose offset is known, and its errors; and on model output (a
# small stream-function flume, the tidal flat with maxima): flume, profile, harmonics (against hydrocl analyze
# harmonics), maxima, animate and gauge panels, each image checked for what it must show; and a small O-grid around a
# cylinder (a curvilinear map, the run-up against angle beside a reference run). A new user's plots (the colours,
# labels and layout of the figures, checked on the matplotlib figure the tool would save, by `figure`): gauges with
# dry samples and several measured series, a ship's snapshot and zeta_min, UTM coordinates and dates, lab times, the
# O-grid's seam, a flume's snapshot, profile's averaging window, and the README's line selecting a station by name.
# Usage: test_plot.sh WRITE_SAMPLE_OUTPUT PLOT_TOOL HYDROCL SOURCE_ROOT
set -u
writer=$1
plot=$2
hydrocl=$3
root=$4
. "$(dirname "$0")/../support/tap.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# figure DESCRIPTION CHECK ARGS...: queues a check of the figure that hydrocl-plot ARGS would save; check_figures
# runs the queue in one Python process (matplotlib loads once, not once a check) and reports each with ok. CHECK is
# Python asserting on `fig` (drawn), `axes` (its axes, colour bars apart), `bars` (the colour bars' axes), `texts`
# (its visible texts), `printed` (what the tool printed), `apart(a, b)` (two artists' boxes do not overlap) and
# `inside(a)` (an artist lies within the figure: not cut).
figure_descriptions=()
figure() {
  figure_descriptions+=("$1")
  shift
  printf '%s\0' "$1" "$(($# - 1))" "${@:2}" >>"$dir/figures"
}
check_figures() {
  local results k=0 result
  mapfile -t results < <(/usr/bin/python3 -c '
import contextlib, importlib.machinery, importlib.util, io, sys
import matplotlib.colors, matplotlib.text
loader = importlib.machinery.SourceFileLoader("hydrocl_plot", sys.argv[1])
tool = importlib.util.module_from_spec(importlib.util.spec_from_loader("hydrocl_plot", loader))
loader.exec_module(tool)
fields = open(sys.argv[2], "rb").read().decode().split("\0")[:-1]
while fields:
    check, count = fields[0], int(fields[1])
    sys.argv, fields = ["hydrocl-plot"] + fields[2:2 + count], fields[2 + count:]
    saved = []
    tool.save = lambda fig, out: saved.append(fig)
    try:
        with contextlib.redirect_stdout(io.StringIO()) as output:
            tool.main()
        printed = output.getvalue()
        fig = saved[0]
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        bars = [child for ax in fig.axes for child in ax.child_axes]
        axes = [ax for ax in fig.axes if ax not in bars and ax.get_visible()]
        texts = [t.get_text() for t in fig.findobj(matplotlib.text.Text) if t.get_visible() and t.get_text()]
        box = lambda a: a.get_tightbbox(renderer) if hasattr(a, "child_axes") else a.get_window_extent(renderer)
        apart = lambda a, b: not box(a).overlaps(box(b))
        inside = lambda a: (box(a).x0 >= -1 and box(a).y0 >= -1 and box(a).x1 <= fig.bbox.x1 + 1 and
                            box(a).y1 <= fig.bbox.y1 + 1)
        exec(check, {"matplotlib": matplotlib, "fig": fig, "axes": axes, "bars": bars, "texts": texts, "printed": printed,
                     "box": box, "apart": apart, "inside": inside})  # a namespace of its own: checks assign names
        print("ok")
    except BaseException as error:  # a failed assertion, an exit of the tool (SystemExit), an error
        print(" ".join(f"{type(error).__name__}: {error}".split())[:600])
    tool.pyplot().close("all")' "$plot" "$dir/figures")
  for description in "${figure_descriptions[@]}"; do
    result=${results[k]:-no result}
    k=$((k + 1))
    [ "$result" = ok ] || echo "# $result"
    ok "$description" equals "$result" ok
  done
}

run_capture "$writer" "$dir"
ok "sample map and history files written" equals "$rc" 0

run_capture "$plot" snapshot "$dir/map.nc" zeta --time 100 -o "$dir/zeta.png"
ok "snapshot exits 0" equals "$rc" 0
ok "snapshot picks the frame nearest to t=100 s" contains "$out" "frame 2, t=120 s"
ok "snapshot writes a PNG" python3 -c '
import sys
assert open(sys.argv[1], "rb").read(8) == b"\x89PNG\r\n\x1a\n"' "$dir/zeta.png"
# The sample's times are since 2000-01-01 00:00:00, time.start's default: a lab case's, no date.
figure "times without a date of their own are seconds after the start, not a date (snapshot's title)" '
title = axes[0].get_title()
assert "t = 120 s" in title and "2000" not in title and "UTC" not in title, title' \
  snapshot "$dir/map.nc" zeta --time 100
figure "and gauges' time axis" '
assert axes[0].get_xlabel() == "time after the start [s]", axes[0].get_xlabel()
assert "00:0" not in " ".join(texts), texts' gauges "$dir/history.nc" zeta

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
# By default over the whole periods of the record's second half, counted back from its end: past the 1.5 s ramp-up.
ok "profile phase-averages over a period, by default from 3 up to 4.5 s: 20 samples in 6 phases" test "$rc" = 0 -a \
  -n "$(grep -F "6 curves, phase-averaged over a period of 1.5 s from t = 3 up to 4.5 s (20 samples)" <<<"$out")"
run_capture "$plot" profile "$dir/tank/kinematics.nc" "$line" --period 1.5 --window 0 4.5 -o "$dir/phases.png"
ok "and over --window T0 T1: the whole record, 60 samples" contains "$out" "from t = 0 up to 4.5 s (60 samples)"
run_capture "$plot" profile "$dir/tank/kinematics.nc" "$line" --window 0 4.5
ok "--window without --period exits 64" equals "$rc" 64
run_capture "$plot" snapshot "$dir/tank/map.nc" eta
ok "snapshot of a flume (ny = 1) exits 65 pointing to flume" test "$rc" = 65 -a \
  -n "$(grep -F "is a flume (ny = 1)" <<<"$err" | grep -F "hydrocl-plot flume")"
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
# In UTM coordinates (zone 31N, 5800 km north) with a date, one gauge in its channel.
printf 'name,x,y\nchannel,500100,5800300\n' >"$dir/channel.csv"
run_capture "$hydrocl" run "$root/cases/tidal-flat.yml" --set grid.nx=16 --set grid.ny=8 --set time.end=3600 \
  --set output.interval=600 --set output.maxima=true --set grid.x0=500000 --set grid.y0=5800000 \
  --set grid.crs=EPSG:32631 --set bed.x=500000 --set output.gauges=[] --set output.gauge_file="$dir/channel.csv" \
  --set "time.start=2023-06-01 00:00:00" -o "$dir/flat" -q
ok "the tidal flat with maxima runs" equals "$rc" 0
# Constrained layout: title and colour bar apart, every text within the figure.
figure "a map in UTM coordinates in km, no '+5.8e6' offset on the axes, its title dated, title and colour bar apart" '
ax = axes[0]
assert ax.get_xlabel() == "x [km]" and ax.get_ylabel() == "y [km]", (ax.get_xlabel(), ax.get_ylabel())
assert ax.xaxis.get_major_formatter().get_offset() == "" == ax.yaxis.get_major_formatter().get_offset()
assert all(t.get_text().startswith("5800.") for t in ax.get_yticklabels() if t.get_text()), ax.get_yticklabels()
title = axes[0].title
assert "2023-06-01 01:00:00 UTC (t = 3600 s)" in title.get_text(), title.get_text()
assert fig.get_layout_engine() is not None and len(bars) == 1 and apart(title, bars[0]), box(title)
assert all(inside(t) for t in fig.findobj(matplotlib.text.Text) if t.get_visible() and t.get_text())' \
  snapshot "$dir/flat/map.nc" zeta
figure "t_wet in minutes after the file's start date, not in raw seconds" '
label = bars[0].get_ylabel()
assert label == "first wet [min after 2023-06-01 00:00 UTC]", label
low, high = bars[0].get_ylim()
assert 0 <= low and 30 < high < 60, (low, high)
assert apart(axes[0].title, bars[0]) and inside(bars[0])' maxima "$dir/flat/map.nc" t_wet
figure "gauges of a dated run have dates on the time axis" '
assert axes[0].get_xlabel() == "date (UTC)" and "2023-Jun-01" in texts, texts' \
  gauges "$dir/flat/history.nc" zeta
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
# On the rising tide g2 (160, 100) is dry at t = 0 and wet at 300 and 600 s; g3 is dry throughout. A dry sample is
# missing (no level), so a measured time beside one is left out of rmse and bias, as is an empty cell: before, the
# fill value 9.97e36 entered them (rmse 5.76e36).
printf 'time,g1,g2,g3\n0,3,3,3\n150,3,3,3\n300,3,3,3\n450,3,3,3\n600,,3,3\n' >"$dir/dry.csv"
# --gauge takes several names at once and still adds those of another --gauge; each measured series is drawn in its
# gauge's colour.
figure "--measured leaves out times where the model is dry or the measurement missing; a colour a gauge" '
rows = {}
for line in printed.splitlines():
    if line.startswith("gauge="):
        fields = dict(kv.split("=") for kv in line.split() if "=" in kv)
        rows[fields["gauge"]] = fields
assert rows["g1"]["n"] == "4" and rows["g1"]["left_out"] == "1", rows
assert rows["g2"]["n"] == "3" and rows["g2"]["left_out"] == "2", rows
assert rows["g3"]["n"] == "0" and rows["g3"]["left_out"] == "5" and "rmse" not in rows["g3"], rows
for g in ("g1", "g2"):  # the level rises from 3 m by 0.18 m over the 600 s
    assert 0 < float(rows[g]["rmse"]) < 0.5 and 0 < float(rows[g]["bias"]) < 0.5, rows
lines = axes[0].get_lines()
names = [line.get_label() for line in lines]
assert names == ["g1 (model)", "g1 (measured)", "g2 (model)", "g2 (measured)", "g3 (model)", "g3 (measured)"], names
colours = [matplotlib.colors.to_hex(line.get_color()) for line in lines]
assert colours[0] == colours[1] and colours[2] == colours[3] and colours[4] == colours[5], colours
assert len({colours[0], colours[2], colours[4]}) == 3, colours' \
  gauges "$dir/six/history.nc" zeta --gauge g1 g2 --gauge g3 --measured "$dir/dry.csv"
# The README's line that selects a station by name, run as written there.
selection=$(grep -o 'ds\.set_index(station="station_name")\.sel(station="g1")' "$root/README.md")
ok "README's xarray line selects gauge g1 by its name ($selection)" /usr/bin/python3 -c '
import sys
import xarray
ds = xarray.open_dataset(sys.argv[1])
g1 = eval(sys.argv[2])
assert g1.station.item() == "g1" and g1.zeta.dims == ("time",) and float(g1.x) == 80, g1' \
  "$dir/six/history.nc" "$selection"
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
# The O-grid's first grid line is drawn again after its last: no wedge at 0 deg. The cylinder's long title wraps.
figure "the O-grid closed at its seam; title and colour bar of the cylinder's maxima apart, within the figure" '
import numpy as np
mesh = next(c for c in axes[0].collections if hasattr(c, "get_coordinates"))
xy = mesh.get_coordinates()
assert xy.shape[:2] == (33, 23) and np.allclose(xy[0], xy[-1]), xy.shape
title = axes[0].title
assert "\n" in title.get_text() and apart(title, bars[0]) and inside(bars[0]) and inside(title), title.get_text()
assert all(inside(t) for t in fig.findobj(matplotlib.text.Text) if t.get_visible() and t.get_text())' \
  maxima "$dir/polar/map.nc"
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

# ---- a ship (variational Boussinesq), small: its hull's deep depression beside a wake a quarter as high ----
run_capture "$hydrocl" run "$root/cases/ship-kelvin.yml" --set grid.nx=80 --set grid.ny=32 --set grid.lx=400 \
  --set grid.ly=160 --set ship.x=350 --set ship.y=80 --set boundary.sponge_width=40 --set ships.ramp=2 \
  --set time.end=6 --set time.dt=0.25 --set output.interval=3 --set output.gauges=[] -o "$dir/ship" -q
ok "a small ship run" equals "$rc" 0
figure "the ship's snapshot: a colour scale from the 1st and 99th percentiles, not the hull's depression" '
import re
mesh = next(c for c in axes[0].collections if hasattr(c, "get_coordinates"))
low, high, least, most = map(float, re.search(r"colour scale (\S+) to (\S+) \(percentiles 1 to 99 of the magnitude; "
                                              r"values (\S+) to (\S+)\)", printed).groups())
assert low == -high and least < -1 and high < -least / 3, (low, high, least, most)
assert mesh.colorbar.extend == "both", mesh.colorbar.extend  # arrows: values lie beyond the scale' \
  snapshot "$dir/ship/map.nc" zeta
figure "maxima draws the ship model's zeta_min, --vmin and --vmax set the scale" '
mesh = next(c for c in axes[0].collections if hasattr(c, "get_coordinates"))
assert mesh.norm.vmin == -0.2 and mesh.norm.vmax == 0.2, (mesh.norm.vmin, mesh.norm.vmax)
assert "zeta_min" in bars[0].get_ylabel() or "lowest" in bars[0].get_ylabel(), bars[0].get_ylabel()' \
  maxima "$dir/ship/map.nc" zeta_min --vmin -0.2 --vmax 0.2
figure "--clip 0 --symmetric: the full range, about zero for a field of one sign (zeta_min)" '
low, high = axes[0].collections[0].norm.vmin, axes[0].collections[0].norm.vmax
assert "percentiles 0 to 100 of the magnitude" in printed and low == -high and high > 1, (printed, low, high)' \
  maxima "$dir/ship/map.nc" zeta_min --clip 0 --symmetric
run_capture "$plot" snapshot "$dir/ship/map.nc" zeta --vmin 1 --vmax 0
ok "--vmin above --vmax exits 64" equals "$rc" 64
check_figures
tap_done
