#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test_run.sh: `hydrocl run`, `validate` and `defaults` on the shallow-water model, as a user meets them: the shipped
# cases validate; each kind of bad input exits 65 with its message and creates no output; output is not replaced
# without --overwrite; a run stopped by SIGTERM exits 75 with a restart and a readable map file; N steps, a restart
# and N more steps give bit for bit the fields of 2N steps; a run that diverges exits 79 and keeps its last good state;
# a full disk or an output file replaced under the run stops it with exit 74 and whole frames.
# Usage: test_run.sh HYDROCL SOURCE_ROOT FULLFS_LIBRARY (tests/support/fullfs.c)
set -u
hydrocl=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") # absolute: the test runs in its own folder
root=$(cd "$2" && pwd)
fullfs=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
ncsame="$root/tests/cli/ncsame.py"
. "$(dirname "$0")/../support/tap.sh"
. "$(dirname "$0")/run_checks.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
case_file="$root/cases/drop-island.yml"
small=(--set grid.nx=40 --set grid.ny=40)

# ---- the shipped cases and the template ----
for case_path in "$root"/cases/*.yml; do
  name=$(basename "$case_path" .yml)
  run_capture "$hydrocl" validate "$case_path"
  ok "validate cases/$name.yml exits 0" equals "$rc" 0
  ok "validate prints the grid and the time step" contains "$out" "time step:"
done
run_capture "$hydrocl" validate "$case_file"
ok "validate counts the map frames: t = 0, every 2 s to 60 s and the end" contains "$out" "output: 31 map frames"
run_capture "$hydrocl" validate "$case_file" --set output.interval=7 --set time.end=63
ok "every 7 s to 63 s: t = 0, 7 to 56 s and the end, itself an event" contains "$out" "output: 10 map frames"
run_capture "$hydrocl" validate "$case_file" --set output.interval=0.1 --set time.end=0.3
ok "every 0.1 s to 0.3 s (0.1 x 3 rounds above 0.3): 4 frames" contains "$out" "output: 4 map frames"
run_capture timeout 20 "$hydrocl" validate "$case_file" --set output.interval=1 --set time.end=1e12 # issue 27, 6
ok "a trillion frames are counted, not stepped through" contains "$out" "output: 1000000000001 map frames"
# Issue 27, 6: output that cannot fit the output folder's file system is refused (73) unless --force, and any above
# output.size_warning is warned of. A trillion frames of 0.8 MB are 800 PB (and as much again for the checkpoints
# of the map file), beyond any disk this runs on.
ok "it is refused: 800 PB cannot fit the output folder's file system (73)" equals "$rc" 73
ok "saying how much it needs, how much there is, and what to do" python3 -c '
import re, sys
assert re.search(r"the output may reach 1.6 EB \(map 800 PB, .*\) but the file system of .* has [0-9.]+ [kMGT]?B free; .*"
                 r"--force", sys.argv[1]), sys.argv[1]' "$err"
ok "and warning of output.size_warning (10 GB by default)" contains "$err" \
  "more than output.size_warning = 10000 MB (default)"
run_capture "$hydrocl" validate "$case_file" --set output.interval=1 --set time.end=1e12 --force
ok "with --force it validates" equals "$rc" 0
ok "saying it runs on" contains "$err" "running on (--force)"
run_capture "$hydrocl" run "$case_file" --set output.interval=1 --set time.end=1e12 -o "$dir/huge"
ok "a run of that output exits 73 before it writes anything" equals "$rc" 73
ok "and leaves no output folder" test ! -e "$dir/huge"
# drop-island writes 31 map frames of 200 x 200 cells x 5 variables x 4 bytes (24.8 MB), 121 gauge samples (every
# 0.5 s to 60 s) of 3 gauges x 5 variables x 4 bytes (7260 bytes), one restart of 3 fields in double (0.96 MB) and
# with it the checkpoints of the map and history files, a copy of each (24.8 MB).
run_capture "$hydrocl" validate "$case_file" --set output.size_warning=20
ok "validate states the output's size and the space left" contains "$out" "up to 50.6 MB written (map 24.8 MB"
ok "50.6 MB over output.size_warning = 20 MB is warned of, naming where the limit was set" contains "$err" \
  "the output may reach 50.6 MB (map 24.8 MB, history 7.26 kB, restarts 960 kB, checkpoints 24.8 MB), more than output.size_warning = 20 MB (--set output.size_warning=20)"
run_capture "$hydrocl" validate <(cat "$case_file") # issue 27, 13: a pipe is read once
ok "a case file given through a pipe validates" equals "$rc" 0
run_capture "$hydrocl" validate "$root/cases"
ok "a folder given as the case file exits 66" equals "$rc" 66
run_capture "$hydrocl" defaults shallow-water
ok "defaults shallow-water exits 0" equals "$rc" 0
ok "the template names every section" python3 -c '
import sys
text = sys.argv[1]
assert all(s + ":" in text for s in ["model", "grid", "bed", "initial", "physics", "boundary", "time", "output",
                                     "restart"]), text' "$out"
printf '%s\n' "$out" >"$dir/template.yml"
run_capture "$hydrocl" validate "$dir/template.yml" --set grid.nx=20 --set grid.ny=10 --set grid.lx=100 \
  --set grid.ly=50 --set time.end=10
ok "the template is a case: with its required keys set, it validates" equals "$rc" 0
run_capture "$hydrocl" defaults no-such-model
ok "defaults of an unknown model exits 64" equals "$rc" 64

# ---- bad input: exit 65, a message naming the key, no output folder ----
bad_input "a fixed dt beyond the CFL limit" "breaks the CFL limit" "$case_file" "${small[@]}" --set time.dt=5
# A starting state faster than any flow (the run's divergence guard, 1e5 m/s) is refused before any output, naming
# the key or file, not stopped at the first check with nothing good to go back to (a key's own bounds may refuse it
# first; either way the message names where it was set).
bad_input "an initial hump of 2e9 m" "--set initial.height=2e9" "$case_file" "${small[@]}" --set initial.height=2e9
bad_input "a bed 2e9 m deep" "--set bed.depth=2e9" "$case_file" "${small[@]}" --set bed.depth=2e9
/usr/bin/python3 -c 'print("\n".join(" ".join("1e300" if (i, j) == (3, 4) else "5" for i in range(40)) for j in range(40)))' \
  >"$dir/deep-bed.csv"
bad_input "a bed file holding 1e300" "bed.file = $dir/deep-bed.csv" "$case_file" "${small[@]}" --set bed.shape=file \
  --set bed.file="$dir/deep-bed.csv"
printf '1 2 3\n4 5 6\n' >"$dir/bed.csv"
bad_input "a bed file of the wrong shape" "bed.csv" "$case_file" "${small[@]}" --set bed.shape=file \
  --set bed.file="$dir/bed.csv"
bad_input "an unknown key" "did you mean" "$case_file" --set grid.nxx=3
# issue 49: the model's name as a list was reported as missing
sed 's/^  name: shallow-water/  name: [shallow-water]/' "$case_file" >"$dir/name-list.yml"
bad_input "model.name given as a list" "name-list.yml:5:9: model.name must be a single value, not a list" \
  "$dir/name-list.yml"
bad_input "a malformed tide" "amplitude period phase" "$case_file" --set boundary.west=level \
  --set boundary.west_tide="1 two 3"
bad_input "an unknown constituent" "NAME one of M2, S2, N2" "$case_file" --set boundary.west=level \
  --set boundary.west_tide="X9 1 0"
# Named constituents are their periods (tides.h: 3600 x 360 / speed s, which Python's repr carries to the bit): the
# same run as the constituents written as 'amplitude period phase'.
periods=$(python3 -c 'print(" ".join(repr(3600.0 * 360.0 / s) for s in (28.9841042, 15.0410686)))')
read -r m2 k1 <<<"$periods"
run_capture "$hydrocl" run "$case_file" "${small[@]}" --set time.end=2 --set boundary.west=level \
  --set boundary.west_tide="M2 0.3 30; k1 0.1 200" -o "$dir/tide-named"
run_capture "$hydrocl" run "$case_file" "${small[@]}" --set time.end=2 --set boundary.west=level \
  --set boundary.west_tide="0.3 $m2 30; 0.1 $k1 200" -o "$dir/tide-periods"
ok "named tidal constituents give the run of their periods bit for bit" /usr/bin/python3 "$ncsame" \
  "$dir/tide-named/map.nc" "$dir/tide-periods/map.nc"
# A level side imposes its level on its cells: at t = 2 s, 0.3 cos(2 pi 2 / T_M2 - 30 deg) + 0.1 cos(2 pi 2 / T_K1 -
# 200 deg), to the map's float32 (1e-8 here) and the model's float arithmetic (1e-7): 1e-6.
ok "and the tide is there: the west cells hold the constituents' sum" /usr/bin/python3 -c '
import math, sys, netCDF4, numpy
level = sum(a * math.cos(2 * math.pi * 2 / (3600.0 * 360.0 / s) - math.radians(phase))
            for a, s, phase in ((0.3, 28.9841042, 30), (0.1, 15.0410686, 200)))
with netCDF4.Dataset(sys.argv[1]) as m:
    west = m["zeta"][-1, :, 0]
assert numpy.abs(west - level).max() < 1e-6, (west, level)' "$dir/tide-named/map.nc"
bad_input "one periodic side" "come in pairs" "$case_file" --set boundary.west=periodic
bad_input "a tide on a wall" "is given but boundary.west is wall" "$case_file" --set boundary.west_tide="1 100 0"
# Every mistake of a case in one pass (issue 32, 5): one in the file, two by --set, one required key missing.
sed -e 's/^  nx: .*/  nx: forty/' -e '/^  lx:/d' "$case_file" >"$dir/mistakes.yml"
run_capture "$hydrocl" validate "$dir/mistakes.yml" --set time.cfl=-1 --set physics.chezyy=50
ok "a case with four mistakes exits 65" equals "$rc" 65
ok "naming all four, in the order found" /usr/bin/python3 -c '
import re, sys
found = [m for m in ("grid.nx must be a whole number", "time.cfl must be >=", "unknown key", "grid.lx is required")
         if m in sys.argv[1]]
assert len(found) == 4, (found, sys.argv[1])
assert sys.argv[1].index("grid.nx must") < sys.argv[1].index("time.cfl") < sys.argv[1].index("grid.lx is"), sys.argv[1]
assert "mistakes.yml:" in sys.argv[1], sys.argv[1]' "$err"
# A netCDF bed is placed by its coordinates: a north-up raster (y decreasing) is flipped onto the grid, one of
# another area is refused (65) with the coordinate, the values expected and found.
/usr/bin/python3 -c '
import sys, netCDF4, numpy as np
x = np.arange(40) * 5 + 2.5
for path, shift in ((sys.argv[1], 0.0), (sys.argv[2], 1000.0)):
    with netCDF4.Dataset(path, "w") as d:
        d.createDimension("y", 40)
        d.createDimension("x", 40)
        d.createVariable("x", "f8", ("x",))[:] = x + shift
        d.createVariable("y", "f8", ("y",))[:] = x[::-1]
        d.createVariable("depth", "f8", ("y", "x"))[:] = 1 + np.linspace(0, 1, 40)[::-1, None] * np.ones(40)' \
  "$dir/northup.nc" "$dir/elsewhere.nc"
run_capture "$hydrocl" validate "$case_file" "${small[@]}" --set bed.shape=file --set bed.file="$dir/northup.nc"
ok "a north-up netCDF bed validates" equals "$rc" 0
run_capture "$hydrocl" validate "$case_file" "${small[@]}" --set bed.shape=file --set bed.file="$dir/elsewhere.nc"
ok "a netCDF bed of another area is refused (65), naming the coordinate and both extents" test "$rc" = 65 -a -n \
  "$(grep "elsewhere.nc: variable 'depth': its coordinate 'x' runs 1002.5 to 1197.5, the model grid's x 2.5 to 197.5" <<<"$err")"
printf 'time,level\n0,0\n20,0.1\n' >"$dir/short.csv"
bad_input "a level side given both a mean level and a series" "the file holds the whole level" "$case_file" \
  --set boundary.west=level --set boundary.west_file="$dir/short.csv" --set boundary.west_level=1
run_capture "$hydrocl" validate "$case_file" --set boundary.west=level --set boundary.west_file="$dir/short.csv"
ok "a series that ends before time.end validates with a warning" test "$rc" = 0 -a -n \
  "$(grep "covers 0 s to 20 s of a run from 0 s to 60 s; its last level is held" <<<"$err")"
run_capture "$hydrocl" validate "$case_file" --set bed.shape=flat
ok "a key the chosen shape does not use validates with a warning naming it" test "$rc" = 0 -a -n \
  "$(grep "bed.height is given but bed.shape is flat, which does not use it" <<<"$err")"
for case_path in "$root"/cases/*.yml; do
  run_capture "$hydrocl" validate "$case_path"
  ok "$(basename "$case_path") has no key its choices do not use" equals "$(grep -c warning <<<"$err")" 0
done
bad_input "a weak-level side without its still-water level" "east_level is not given" "$case_file" \
  --set boundary.east=weak-level
bad_input "a dam outside the domain" "outside the domain" "$case_file" --set initial.shape=dam --set initial.x=500
printf 'name,x,y\nfar,500,10\n' >"$dir/far.csv"
bad_input "a gauge outside the grid" "lies outside the cell centres" "$case_file" \
  --set output.gauge_file="$dir/far.csv"
run_capture "$hydrocl" validate "$case_file" --set output.gauge_file="$dir/far.csv"
ok "validate finds the gauge outside the grid too" equals "$rc" 65
printf 'name,x,y\nA,50,50\nB,60,60\nA,70,70\n' >"$dir/twice.csv" # issue 27, 10
bad_input "two gauges of one name in a gauge file" "twice.csv:4: point 'A' is named twice (first at" "$case_file" \
  --set output.gauge_file="$dir/twice.csv"
printf 'name,x,y\ndrop-centre,50,50\n' >"$dir/again.csv"
bad_input "a gauge file naming a gauge of the case again" "point 'drop-centre' is named twice" "$case_file" \
  --set output.gauge_file="$dir/again.csv"
printf '# gauges of 2026, x and y in m\nname,x,y\nA ,50,50\nA,60,60\n' >"$dir/noted.csv"
run_capture "$hydrocl" validate "$case_file" --set output.gauge_file="$dir/noted.csv"
ok "a gauge file's header after a comment is its header, and 'A ' is 'A': named twice (65)" test "$rc" = 65 -a \
  -n "$(grep "noted.csv:4: point 'A' is named twice (first at .*noted.csv:3)" <<<"$err")"
# 100000 gauges in the case's list: their names checked in O(n log n), not pairwise (80000 took 15 s and more).
/usr/bin/python3 -c '
import sys
lines = open(sys.argv[1]).read().split("\n")
at = lines.index("  gauges:")
end = at + 1
while lines[end].startswith("    - "):
    end += 1
points = ["    - {name: g%d, x: %d, y: %d}" % (k, 1 + k % 90, 1 + k // 90 % 90) for k in range(100000)]
open(sys.argv[2], "w").write("\n".join(lines[:at + 1] + points + ["    - {name: g7, x: 5, y: 5}"] + lines[end:]))' \
  "$case_file" "$dir/many-gauges.yml"
run_capture timeout 8 "$hydrocl" validate "$dir/many-gauges.yml"
ok "100001 gauges of the case, one named twice, are refused within seconds (65)" test "$rc" = 65 -a \
  -n "$(grep "point 'g7' of output.gauges is named twice (first at .*many-gauges.yml:50:7)" <<<"$err")"
# 60000^2 cells need some 600 GB of device memory, more than any device of today: refused before any allocation.
huge=(--set grid.nx=60000 --set grid.ny=60000)
run_capture "$hydrocl" validate "$case_file" "${huge[@]}"
ok "validate of a grid larger than the device exits 69" equals "$rc" 69
ok "and gives the memory needed, the memory there and what to do" python3 -c '
import re, sys
assert re.search(r"need [0-9.e+]+ MB of device memory but .* has [0-9.e+]+ MB; use more ranks", sys.argv[1])' "$err"
run_capture "$hydrocl" run "$case_file" "${huge[@]}" -o "$dir/huge"
ok "run of it exits 69 too, with no output" test "$rc" = 69 -a ! -e "$dir/huge"
run_capture "$hydrocl" run "$case_file" -o ""
ok "an empty -o exits 64" equals "$rc" 64

# Mistakes in the case file itself: file:line:column in the message. Each variant edits one line of drop-island.
case_variant() { # NAME SED-EXPRESSION: a copy of drop-island.yml with one edit, in $dir
  sed "$2" "$case_file" >"$dir/$1.yml"
  echo "$dir/$1.yml"
}
bad_input "a value of the wrong type" "wrong-type.yml:9:7" "$(case_variant wrong-type 's/^  nx: 200/  nx: many/')"
bad_input "a value out of range" "out-of-range.yml:9:7: grid.nx must be >= 3 (got 1)" \
  "$(case_variant out-of-range 's/^  nx: 200/  nx: 1/')"
bad_input "a YAML syntax error" "syntax.yml:" "$(case_variant syntax 's/^  nx: 200/  nx: [200/')"
bad_input "tab indentation" "tab.yml:9:1" "$(case_variant tab 's/^  nx: 200/\tnx: 200/')"
bad_input "a missing bed file" "not a readable file" "$case_file" --set bed.shape=file --set bed.file=no-such.csv

# ---- time.start: the output's time units, and a dated netCDF series placed by it ----
/usr/bin/python3 -c '
import sys, netCDF4
with netCDF4.Dataset(sys.argv[1], "w") as f:
    f.createDimension("time", 4)
    t = f.createVariable("time", "f8", ("time",))
    t.units = "hours since 2023-06-01 00:00:00"
    t[:] = [0, 1, 1.001, 10]
    f.createVariable("level", "f8", ("time",))[:] = [0, 0, 0.5, 0.5]' "$dir/dated.nc"
run_capture "$hydrocl" run "$case_file" "${small[@]}" --set time.end=2 --set time.start="2023-06-01 02:00:00" \
  --set boundary.west=level --set boundary.west_file="$dir/dated.nc" -o "$dir/dated"
ok "a run starting at 2 h of a dated series runs" equals "$rc" 0
ok "its times count from time.start, and the west side holds the series' level at 2 h, 0.5 m" /usr/bin/python3 -c '
import sys, netCDF4
m = netCDF4.Dataset(sys.argv[1] + "/map.nc")
assert m["time"].units == "seconds since 2023-06-01 02:00:00", m["time"].units
assert abs(float(m["zeta"][-1, 20, 0]) - 0.5) < 1e-6, float(m["zeta"][-1, 20, 0])' "$dir/dated"
bad_input "a time.start that is no date" "time.start must be a date" "$case_file" --set time.start=yesterday

# ---- output is never replaced without --overwrite ----
run_capture "$hydrocl" run "$case_file" "${small[@]}" --set time.end=2 -o "$dir/first"
ok "a small drop-island run exits 0" equals "$rc" 0
ok "it writes map.nc, history.nc and a restart" test -s "$dir/first/map.nc" -a -s "$dir/first/history.nc" \
  -a -n "$(ls "$dir"/first/restart-*.nc 2>/dev/null)"
ok "the files carry their CF metadata" /usr/bin/python3 -c '
import re, sys, netCDF4
with netCDF4.Dataset(sys.argv[1] + "/map.nc") as m:
    assert m.Conventions == "CF-1.8" and m.title.startswith("drop and island"), m.Conventions
    assert m.source.startswith("hydrocl ") and m.source.endswith((", float", ", double")), m.source
    assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ: \S*hydrocl run .* --set grid.nx=40 ", m.history), m.history
    assert "nx: 40" in m.hydrocl_case, m.hydrocl_case
    names = {v: getattr(m[v], "standard_name", None) for v in ["zeta", "h", "u", "v", "x", "y", "time"]}
    assert names == {"zeta": "water_surface_height_above_reference_datum", "h": "sea_floor_depth_below_sea_surface",
                     "u": "sea_water_x_velocity", "v": "sea_water_y_velocity", "x": "projection_x_coordinate",
                     "y": "projection_y_coordinate", "time": "time"}, names
    assert m["x"].axis == "X" and m["x"].units == "m" and m["time"].units.startswith("seconds since"), m["x"]
    assert list(m["wet"].flag_values) == [0, 1] and m["wet"].flag_meanings == "dry wet", m["wet"]
    assert m["zeta"].dtype == "float32" and m["zeta"].chunking() == [1, 40, 40], m["zeta"]
    assert m["zeta"].filters()["zlib"] and m["zeta"].filters()["shuffle"], m["zeta"].filters()
with netCDF4.Dataset(sys.argv[1] + "/history.nc") as h:
    assert h.featureType == "timeSeries" and h["station_name"].cf_role == "timeseries_id", h
    assert h["station_name"]._Encoding == "utf-8" and h["zeta"].filters()["zlib"], h  # issue 26, 5
    assert h["zeta"].coordinates == "x y station_name" and h["zeta"].dimensions == ("time", "station"), h["zeta"]
    assert h["zeta"].chunking()[0] > 100, h["zeta"].chunking()' "$dir/first"
run_capture "$hydrocl" run "$case_file" "${small[@]}" --set time.end=2 --set output.double=true -o "$dir/double"
ok "output.double stores the map and the gauges as double" /usr/bin/python3 -c '
import sys, netCDF4
assert netCDF4.Dataset(sys.argv[1] + "/map.nc")["u"].dtype == "float64"
assert netCDF4.Dataset(sys.argv[1] + "/history.nc")["u"].dtype == "float64"' "$dir/double"
run_capture "$hydrocl" run "$case_file" "${small[@]}" --set time.end=2 -o "$dir/first"
ok "running again into the same folder exits 73" equals "$rc" 73
ok "and names --overwrite" contains "$err" "--overwrite"
run_capture "$hydrocl" run "$case_file" "${small[@]}" --set time.end=2 -o "$dir/first" --overwrite
ok "with --overwrite it runs" equals "$rc" 0
run_capture "$hydrocl" run "$case_file" "${small[@]}" --set time.end=2 --set output.gauges=[] -o "$dir/first" --overwrite
ok "with --overwrite a run without gauges runs too" equals "$rc" 0
ok "and takes away the earlier run's gauge file" test ! -e "$dir/first/history.nc"
# An output file that is a symbolic link is never written through: --overwrite replaces the link itself by a new
# file, saying so; a continued run, which would append to the link's target, is refused (73).
mkdir -p "$dir/linked" && echo "not hydrocl's" >"$dir/outside.nc" && ln -s "$dir/outside.nc" "$dir/linked/map.nc"
run_capture "$hydrocl" run "$case_file" "${small[@]}" --set time.end=1 -o "$dir/linked" --overwrite
ok "--overwrite with map.nc a symbolic link to a file outside the folder exits 0" equals "$rc" 0
ok "leaving that file as it was" equals "$(cat "$dir/outside.nc")" "not hydrocl's"
ok "map.nc is now a file of its own" test -f "$dir/linked/map.nc" -a ! -L "$dir/linked/map.nc"
ok "saying so" contains "$err" "map.nc' was a symbolic link (to '$dir/outside.nc'): removed the link"
rm "$dir/linked/map.nc" && ln -s "$dir/outside.nc" "$dir/linked/map.nc"
run_capture "$hydrocl" run "$case_file" "${small[@]}" --set time.end=2 -o "$dir/linked" --restart latest
ok "continuing into a map.nc that is a symbolic link exits 73" equals "$rc" 73
ok "saying what to do" contains "$err" "replace the link by a copy of the file it points to and continue"
ok "and leaves the file it points to as it was" equals "$(cat "$dir/outside.nc")" "not hydrocl's"

# ---- restart: 2 x N steps through a restart == 2N steps, bit for bit, output files included ----
# The restart interval puts an event at t = 2 s in the uninterrupted run too, so both take the same steps. The
# first part runs on to 3 s and is continued from its restart at 2 s, as after a crash: the continued run must
# overwrite the map and gauge frames after 2 s, not append to them.
restart_args=("${small[@]}" --set restart.interval=2 --set output.interval=1 --set output.maxima=true)
run_capture "$hydrocl" run "$case_file" "${restart_args[@]}" --set time.end=4 -o "$dir/whole"
ok "the uninterrupted run to 4 s exits 0" equals "$rc" 0
run_capture "$hydrocl" run "$case_file" "${restart_args[@]}" --set time.end=3 -o "$dir/split"
ok "the first part to 3 s exits 0" equals "$rc" 0
first_restart=$(ls "$dir"/split/restart-*.nc | sort -t- -k2 -n | head -1)
run_capture "$hydrocl" run "$case_file" "${restart_args[@]}" --set time.end=4 -o "$dir/split" \
  --restart "$first_restart"
ok "continuing from the restart at 2 s to 4 s exits 0" equals "$rc" 0
last_restart() { ls "$1"/restart-*.nc | sort -t- -k2 -n | tail -1; }
ok "both end with the same restarts (the one at 3 s, from the abandoned part, is gone)" equals \
  "$(cd "$dir/whole" && ls restart-*.nc)" "$(cd "$dir/split" && ls restart-*.nc)"
ok "zeta, u, v, the wet flags and the maxima's accumulators are bitwise equal" /usr/bin/python3 "$ncsame" \
  "$(last_restart "$dir/whole")" "$(last_restart "$dir/split")" zeta u v zeta_max h_max speed_max t_wet time
ok "the continued map file holds every frame of the uninterrupted one, and its maxima, bit for bit" \
  /usr/bin/python3 "$ncsame" "$dir/whole/map.nc" "$dir/split/map.nc" time zeta h u v wet zeta_max h_max speed_max \
  t_wet
ok "so does the history file" /usr/bin/python3 "$ncsame" "$dir/whole/history.nc" "$dir/split/history.nc" \
  time zeta h u v
ok "both files' history attribute holds the first command and then the continuing one" /usr/bin/python3 -c '
import sys, netCDF4
for name in ("map.nc", "history.nc"):
    lines = netCDF4.Dataset(sys.argv[1] + "/" + name).history.split("\n")
    assert len(lines) == 2 and "time.end=3" in lines[0] and "--restart" in lines[1], lines' "$dir/split"
ok "the continued files carry the continuing run's case (time.end 4, not 3)" /usr/bin/python3 -c '
import sys, netCDF4
for name in ("map.nc", "history.nc"):
    case = netCDF4.Dataset(sys.argv[1] + "/" + name).hydrocl_case
    assert "  end: 4\n" in case, case' "$dir/split"
# A continuation from an older restart, which has no checkpoint (only the newest restart has), finds frames after
# its time in the files, of the run it abandons: they are taken away, whatever the continued run writes after.
# Continued to an earlier end (issue 27, 4), or with frames every 2 s instead of 1 s, it would leave some behind:
# times 0, 1, 2, 4, 4 (issue 49, 5).
frames_are() { # FOLDER TIMES...: the map and history files' times are TIMES (history: every 0.5 s up to the last)
  /usr/bin/python3 -c '
import sys, netCDF4, numpy
folder, times = sys.argv[1], [float(t) for t in sys.argv[2:]]
m, h = netCDF4.Dataset(folder + "/map.nc"), netCDF4.Dataset(folder + "/history.nc")
assert numpy.array_equal(m["time"][:], times), m["time"][:]
assert numpy.array_equal(h["time"][:], numpy.arange(0, times[-1] + 0.25, 0.5)), h["time"][:]' "$@"
}
run_capture "$hydrocl" run "$case_file" "${restart_args[@]}" --set time.end=3 -o "$dir/split" --restart "$first_restart"
ok "continuing to an earlier time.end than the files reach exits 0" equals "$rc" 0
ok "saying it dropped the frames after the restart" contains "$err" \
  "map.nc: dropped 2 frames after the restart's t = 2 s (of the abandoned run, or cut short)"
ok "the files end at 3 s, no frame of the run to 4 s left" frames_are "$dir/split" 0 1 2 3
ok "and hold the uninterrupted run's frames up to there" /usr/bin/python3 -c '
import sys, netCDF4, numpy
for name, n in (("map.nc", 4), ("history.nc", 7)):
    a, b = (netCDF4.Dataset(f + "/" + name) for f in sys.argv[1:])
    for v in ("zeta", "u", "wet"):
        assert numpy.array_equal(a[v][:n], b[v][:]), (name, v)' "$dir/whole" "$dir/split"
run_capture "$hydrocl" run "$case_file" "${restart_args[@]}" --set time.end=4 --set output.interval=2 -o "$dir/split" \
  --restart "$first_restart"
ok "continuing from 2 s with frames every 2 s exits 0" equals "$rc" 0
ok "its map frames are at 0, 1, 2 (the first run's) and 4 s, not 0, 1, 2, 4, 4" frames_are "$dir/split" 0 1 2 4
ok "the frame at 4 s and the maxima are the uninterrupted run's" /usr/bin/python3 -c '
import sys, netCDF4, numpy
a, b = (netCDF4.Dataset(f + "/map.nc") for f in sys.argv[1:])
for v in ("zeta", "u", "v", "wet"):
    assert numpy.array_equal(a[v][4], b[v][3]) and numpy.array_equal(a[v][:3], b[v][:3]), v
assert numpy.array_equal(a["zeta_max"][:], b["zeta_max"][:])' "$dir/whole" "$dir/split"
run_capture "$hydrocl" run "$case_file" "${restart_args[@]}" --set time.end=4 -o "$dir/split" --restart "$first_restart"
ok "continued once more from 2 s, as the first time, it ends with the uninterrupted run's files" \
  /usr/bin/python3 "$ncsame" "$dir/whole/map.nc" "$dir/split/map.nc" time zeta h u v wet zeta_max
ok "and its restarts" equals "$(cd "$dir/whole" && ls restart-*.nc)" "$(cd "$dir/split" && ls restart-*.nc)"
run_capture "$hydrocl" run "$case_file" "${restart_args[@]}" --set grid.nx=50 --set time.end=6 -o "$dir/split" \
  --restart latest
ok "continuing with another grid exits 65" equals "$rc" 65
ok "and leaves the map file as it was" /usr/bin/python3 "$ncsame" "$dir/whole/map.nc" "$dir/split/map.nc" time zeta
# Restarts whose contents cannot be continued from (issue 27, 14): refused with what is wrong.
tamper() { # NAME VARIABLE VALUE: a copy of the first restart with VARIABLE's first value set to VALUE, in $dir/NAME
  mkdir -p "$dir/$1" && cp "$first_restart" "$dir/$1/"
  /usr/bin/python3 -c '
import sys, glob, netCDF4
with netCDF4.Dataset(glob.glob(sys.argv[1] + "/restart-*.nc")[0], "a") as r:
    v = r[sys.argv[2]]
    if v.ndim == 0:
        v.assignValue(float(sys.argv[3]))
    else:
        v[(0,) * v.ndim] = float(sys.argv[3])' "$dir/$1" "$2" "$3"
}
tamper past time -1e15
run_capture "$hydrocl" run "$case_file" "${restart_args[@]}" --set time.end=4 -o "$dir/past" --restart latest
ok "a restart at t = -1e15 s exits 65" equals "$rc" 65
ok "saying why" contains "$err" "is at t = -1e+15 s, step 4: a run continues from a time and a step of 0 or more"
tamper fast zeta 1e300
run_capture "$hydrocl" run "$case_file" "${restart_args[@]}" --set time.end=4 -o "$dir/fast" --restart latest
ok "a restart holding a level of 1e300 m exits 65" equals "$rc" 65
ok "naming the restart" contains "$err" "above the 100000 m/s no shallow-water flow reaches (water 11000 m deep gives 328.497 m/s); check restart '$dir/fast/restart-"
ok "before any output" test ! -e "$dir/fast/map.nc"
tamper nan zeta nan
run_capture "$hydrocl" run "$case_file" "${restart_args[@]}" --set time.end=4 -o "$dir/nan" --restart latest
ok "a restart holding a NaN exits 65" equals "$rc" 65
ok "naming the field and the point" contains "$err" "field 'zeta' holds nan (plane 0, y 0, x 0)"
# A restart of another case (same number of cells, other size, bed or precision) is refused (65), listing what
# differs, before any file is made; --force continues from it anyway, saying what it keeps.
mkdir -p "$dir/other" && cp "$(last_restart "$dir/whole")" "$dir/other/"
run_capture "$hydrocl" run "$case_file" "${restart_args[@]}" --set grid.lx=300 --set time.end=6 -o "$dir/other" \
  --restart latest
ok "continuing from a restart of another grid size and bed exits 65" equals "$rc" 65
ok "saying that the bed differs" contains "$err" "its bed differs from this case's (bed checksum"
ok "and where the grid's first point lies in each" contains "$err" "its grid point (0, 0) lies at (2.5, 2.5) m, this case's at (3.75, 2.5) m"
ok "and what to do" contains "$err" "Continue from a restart of this case, or pass --force to start this case"
ok "making no file" test ! -e "$dir/other/map.nc"
run_capture "$hydrocl" --precision single run "$case_file" "${restart_args[@]}" --set time.end=6 -o "$dir/other" \
  --restart latest
ok "continuing in another precision exits 65" equals "$rc" 65
ok "naming both precisions" contains "$err" "it was computed in double precision, this run's is single"
run_capture "$hydrocl" run "$case_file" "${restart_args[@]}" --set grid.lx=300 --set time.end=6 -o "$dir/other" \
  --restart latest --force
ok "with --force it continues" equals "$rc" 0
ok "saying what it keeps" contains "$err" "Continuing anyway (--force): this run keeps that restart's fields, time and step, and takes them on this case's grid, bed, model and precision"
mkdir -p "$dir/stale" && cp "$(last_restart "$dir/whole")" "$dir/stale/"
run_capture "$hydrocl" run "$case_file" "${restart_args[@]}" --set time.end=4 -o "$dir/stale"
ok "a fresh run into a folder holding restarts of another run exits 73" equals "$rc" 73
ok "and says what to do" contains "$err" "--restart latest to continue it"
# Restarts are found by their names as they are, PREFIX-DIGITS.nc: a step written with leading zeros is read and
# rotated under its own name, and a name that is not strictly that ("restart- 30.nc") is not a restart at all.
run_capture "$hydrocl" run "$case_file" "${restart_args[@]}" --set time.end=2 -o "$dir/padded"
padded_from=$(last_restart "$dir/padded") && padded_step=${padded_from##*-} && padded_step=${padded_step%.nc}
padded=$dir/padded/restart-$(printf %06d "$padded_step").nc
mv "$padded_from" "$padded" && cp "$padded" "$dir/padded/restart- 30.nc"
run_capture "$hydrocl" run "$case_file" "${restart_args[@]}" --set time.end=3 --set restart.keep=1 -o "$dir/padded" \
  --restart latest
ok "--restart latest continues from a restart named with leading zeros" equals "$rc" 0
ok "saying which" contains "$err" "continuing from $padded at t = 2 s"
ok "and leaves the file whose name is not a restart's alone" test -e "$dir/padded/restart- 30.nc"
ok "and rotates the restart away under its own name (restart.keep 1)" test ! -e "$padded"
# A continued run whose gauges differ from the file's (moved, renamed, added or removed) would append the samples of
# one gauge under another's name and place: refused (65) naming both, before any file is touched.
cp "$dir/padded/history.nc" "$dir/padded-history.nc"
for changed in "drop-centre 61" "drop-middle 60"; do
  read -r name x <<<"$changed"
  printf 'name,x,y\n%s,%s,100\nisland-west-shore,112,100\nbasin-corner,10,10\n' "$name" "$x" >"$dir/changed.csv"
  run_capture "$hydrocl" run "$case_file" "${restart_args[@]}" --set time.end=4 -o "$dir/padded" --restart latest \
    --set output.gauges=[] --set output.gauge_file="$dir/changed.csv"
  ok "continuing with the first gauge now '$name' at x = $x m exits 65" equals "$rc" 65
  ok "naming the gauge as the file holds it, as this run has it and where that is given" contains "$err" \
    "its gauge 1 is 'drop-centre' at (60, 100) m, this run's is '$name' at ($x, 100) m ($dir/changed.csv:2)"
  ok "and saying what to do" contains "$err" "give the gauges as they were, or start afresh (--overwrite)"
done
printf 'name,x,y\ndrop-centre,60,100\n' >"$dir/fewer.csv"
run_capture "$hydrocl" run "$case_file" "${restart_args[@]}" --set time.end=4 -o "$dir/padded" --restart latest \
  --set output.gauges=[] --set output.gauge_file="$dir/fewer.csv"
ok "continuing with fewer gauges exits 65 too" equals "$rc" 65
ok "saying how many" contains "$err" "it holds 3 gauges, this run has 1"
ok "leaving the gauge file as it was" cmp -s "$dir/padded/history.nc" "$dir/padded-history.nc"


# ---- SIGTERM and SIGUSR1: exit 75, a restart and a readable map file ----
# The long runs below would write 80 GB of frames to their end (--force lets them start); each is stopped after a few.
for signal in TERM USR1; do
  out_dir="$dir/stop-$signal"
  "$hydrocl" run "$case_file" --set time.end=100000 --set output.interval=1 --force -o "$out_dir" -q \
    2>"$out_dir.err" &
  pid=$!
  wait_for_frames "$out_dir/map.nc"
  kill -"$signal" "$pid"
  wait "$pid"
  rc=$?
  ok "SIG$signal stops the run with exit 75" equals "$rc" 75
  ok "it says how to continue" grep -q -- "--restart latest" "$out_dir.err"
  ok "it leaves a restart and a map file that open" /usr/bin/python3 -c '
import sys, glob, netCDF4
restarts = glob.glob(sys.argv[1] + "/restart-*.nc")
assert len(restarts) == 1, restarts
netCDF4.Dataset(restarts[0])["zeta"][:]
assert len(netCDF4.Dataset(sys.argv[1] + "/map.nc").dimensions["time"]) >= 2' "$out_dir"
done

# A signal is seen after the step it arrives in, not only at checks and outputs: here there is no check for 100000
# steps and no output but the first frame and the last. The restart of such a step keeps the CFL step of the last
# check, so the continued run ends with the bits of the uninterrupted one. 30000 s is 55500 steps, about 4 s of loop
# on two cores: the signal sent after the first progress line lands in the loop, not after it (6000 s, 0.7 s of
# loop, let the run end first on a loaded machine).
unchecked=("${small[@]}" --set time.end=30000 --set time.check_interval=100000 --set output.interval=0
  --set output.gauges=[] --set restart.interval=0 --set output.progress=0.1)
stop_unchecked stop-unchecked self "$hydrocl" run "$case_file" "${unchecked[@]}" -o "$dir/stop-unchecked"
ok "SIGTERM between checks and outputs stops the run with exit 75" equals "$rc" 75
ok "within a few seconds (took ${waited}/10 s)" test "$waited" -lt 50
ok "with a restart" test -n "$(ls "$dir"/stop-unchecked/restart-*.nc)"
run_capture "$hydrocl" run "$case_file" "${unchecked[@]}" -o "$dir/stop-unchecked" --restart latest
ok "the run continued from it exits 0" equals "$rc" 0
run_capture "$hydrocl" run "$case_file" "${unchecked[@]}" -o "$dir/not-stopped"
ok "and ends with the bits of the uninterrupted run" /usr/bin/python3 "$ncsame" "$dir/not-stopped/map.nc" \
  "$dir/stop-unchecked/map.nc" time zeta u v

# ---- Ctrl-C on a terminal (issue 32, 4): as SIGTERM, a second one at once; the progress line fits 80 columns ----
# tests/cli/pty_run.py runs the command on an 80-column pseudo-terminal and types Ctrl-C once the map file has frames
# and three progress lines have come (fewer on a loaded machine failed the check of their width).
pty_run=("$root/tests/cli/pty_run.py" --columns 80 --wait)
run_capture /usr/bin/python3 "${pty_run[@]}" "$dir/ctrl-c/map.nc" --wait-text "progress t=" --wait-count 3 \
  --interrupts 1 -- "$hydrocl" run "$case_file" \
  --set time.end=100000 --set output.interval=1 --set output.progress=0.1 --force -o "$dir/ctrl-c"
ok "Ctrl-C stops a run as SIGTERM does: exit 75" contains "$out" "EXIT 75"
ok "saying at once what will happen" contains "$out" "interrupted: stopping after this step with a restart (Ctrl-C again"
ok "and at the end how to continue" contains "$out" "stopped by Ctrl-C (SIGINT) at t = "
ok "with a restart" test -n "$(ls "$dir"/ctrl-c/restart-*.nc)"
ok "every progress line on the 80-column terminal fits it, time left called left=" /usr/bin/python3 -c '
import re, sys
text = sys.stdin.read()
lines = [re.sub(r"\x1b\[K", "", piece) for piece in re.split(r"[\r\n]+", text) if "progress t=" in piece]
assert len(lines) >= 3 and all(len(line) < 80 for line in lines), [l for l in lines if len(l) >= 80] or len(lines)
assert all(" left=" in line and "eta=" not in line for line in lines), lines[0]' <<<"$out"
# The first Ctrl-C is acted on after its step, with a restart: the second, typed as soon as the run has said it is
# stopping, comes first.
run_capture /usr/bin/python3 "${pty_run[@]}" "$dir/ctrl-c2/map.nc" --interrupts 2 --answer "interrupted: stopping" \
  -- "$hydrocl" run "$case_file" \
  --set time.end=100000 --set output.interval=1000 --set time.check_interval=1000 --force -o "$dir/ctrl-c2"
ok "a second Ctrl-C stops it at once, by SIGINT" contains "$out" "SIGNAL 2"

# ---- the output folder's lock (issue 27, 2) ----
# A second run into the folder of a running one, even with --overwrite, is refused before it touches anything; the
# first runs on undisturbed and releases the lock when it ends.
out_dir="$dir/busy"
"$hydrocl" run "$case_file" --set time.end=100000 --set output.interval=1 --force -o "$out_dir" -q \
  2>"$out_dir.err" &
pid=$!
wait_for_frames "$out_dir/map.nc"
run_capture "$hydrocl" run "$case_file" "${small[@]}" --set time.end=1 -o "$out_dir" --overwrite
ok "a run into the folder of a running job exits 73" equals "$rc" 73
ok "naming the job" contains "$err" "is in use by hydrocl pid $pid on host $(hostname)"
kill -TERM "$pid"
wait "$pid"
ok "the running job goes on undisturbed and stops cleanly (75)" equals "$?" 75
ok "with a map file that opens" /usr/bin/python3 -c '
import sys, netCDF4
assert len(netCDF4.Dataset(sys.argv[1] + "/map.nc").dimensions["time"]) >= 2' "$out_dir"
ok "and without its lock" test ! -e "$out_dir/.hydrocl.lock"
mkdir -p "$dir/killed" && printf '%s 999999999\n' "$(hostname)" >"$dir/killed/.hydrocl.lock"
run_capture "$hydrocl" run "$case_file" "${small[@]}" --set time.end=1 -o "$dir/killed"
ok "a lock left by a dead process of this host is taken over" equals "$rc" 0
ok "saying so" contains "$err" "taking over the lock of hydrocl pid 999999999 on host $(hostname), which is gone"
mkdir -p "$dir/elsewhere" && printf 'another-host 1\n' >"$dir/elsewhere/.hydrocl.lock"
run_capture "$hydrocl" run "$case_file" "${small[@]}" --set time.end=1 -o "$dir/elsewhere"
ok "a lock of a job on another host is respected (73)" equals "$rc" 73
ok "and named" contains "$err" "is in use by hydrocl pid 1 on host another-host"

# ---- output times that are not binary fractions (issue 26, 7) ----
# 3 x 2.01 = 6.029999999999999 and time.end = 6.03 are one instant: the run ends there after 90 steps of 0.067 s
# (30 to each frame) with one frame at 6.03, not a step of 1e-15 s more and the last frame twice.
run_capture "$hydrocl" validate "$case_file" --set output.interval=2.01 --set time.end=6.03
ok "validate counts 4 frames for output.interval 2.01 to 6.03" contains "$out" "output: 4 map frames"
run_capture "$hydrocl" run "$case_file" "${small[@]}" --set time.dt=0.067 --set output.interval=2.01 \
  --set output.history_interval=0 --set time.end=6.03 -o "$dir/decimal"
ok "a run to 6.03 with frames every 2.01 s takes 90 steps (restart-90.nc)" test -e "$dir/decimal/restart-90.nc"
ok "and writes frames at 0, 2.01, 4.02 and 6.03, once each" /usr/bin/python3 -c '
import sys, netCDF4, numpy
times = netCDF4.Dataset(sys.argv[1] + "/map.nc")["time"][:]
assert numpy.allclose(times, [0, 2.01, 4.02, 6.03], rtol=1e-12, atol=0), times' "$dir/decimal"

# ---- a read-only file system (issue 49): it says it has no block free, which is no lack of space ----
mkdir "$dir/rofs"
run_capture env LD_PRELOAD="$fullfs" FULLFS_FOLDER=/rofs FULLFS_FREE=0 FULLFS_READONLY=1 \
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
  "$hydrocl" run "$case_file" "${small[@]}" --set time.end=1 -o "$dir/rofs/out" --force
ok "an output folder on a read-only file system exits 73" equals "$rc" 73
ok "saying so, not that it lacks space" contains "$err" "cannot write the output in '$dir/rofs/out': Read-only file system"
ok "and creates nothing" test ! -e "$dir/rofs/out"

# ---- a full disk (issue 27, 15) ----
# The map file's file system fills up half-way through the run (fullfs.c fails its writes with ENOSPC past a budget
# of half the file's full size): the run stops with exit 74 and says the disk is full and which file, releases its
# lock, and the map file keeps whole frames only: a frame's time is written after its fields, so every frame with a
# time holds the same fields as the same frame of a run with room, bit for bit.
full_args=("${small[@]}" --set time.end=20 --set output.interval=1 --set restart.interval=2)
run_capture "$hydrocl" run "$case_file" "${full_args[@]}" -o "$dir/roomy"
half=$(($(stat -c %s "$dir/roomy/map.nc") / 2))
# Under tools/check --sanitize: the preloaded shim comes before ASan's run-time, which ASan must not refuse; and
# netCDF-C 4.9 keeps a file's metadata when HDF5 cannot close it (the full disk), a leak of its own at exit.
run_capture env LD_PRELOAD="$fullfs" FULLFS_FILE=/full/map.nc FULLFS_BYTES=$half \
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:detect_leaks=0" \
  "$hydrocl" run "$case_file" "${full_args[@]}" -o "$dir/full"
ok "a run that fills its disk exits 74" equals "$rc" 74
ok "saying so, and naming the file" contains "$err" "netCDF error on '$dir/full/map.nc': no space left on device"
ok "it releases its lock" test ! -e "$dir/full/.hydrocl.lock"
ok "every frame with a time holds the fields of a run with room" /usr/bin/python3 -c '
import sys, netCDF4, numpy
full, roomy = (netCDF4.Dataset(sys.argv[i] + "/map.nc") for i in (1, 2))
times = full["time"][:]
kept = numpy.flatnonzero(~numpy.ma.getmaskarray(times))
assert 1 <= len(kept) < len(roomy["time"]), (len(kept), len(roomy["time"]))
assert numpy.array_equal(kept, numpy.arange(len(kept))), kept
for name in ("zeta", "u", "v"):
    a, b = full[name][: len(kept)], roomy[name][: len(kept)]
    assert numpy.array_equal(numpy.ma.getmaskarray(a), numpy.ma.getmaskarray(b)), name
    assert numpy.array_equal(a.filled(0), b.filled(0)), name' "$dir/full" "$dir/roomy"
# Once there is room again, --restart latest goes on (issue 49, 2): the newest restart's checkpoints put the files
# back as they were when it was written, without the frame cut short, whose time is the fill value. Files without
# checkpoints (as an earlier hydrocl left them, or of an older restart) lose the frames after the restart instead.
cp -r "$dir/full" "$dir/full-unchecked" && rm "$dir"/full-unchecked/.*.nc.*
for folder in full full-unchecked; do
  run_capture "$hydrocl" run "$case_file" "${full_args[@]}" -o "$dir/$folder" --restart latest
  ok "$folder: with room again, --restart latest runs to the end" equals "$rc" 0
  ok "$folder: and ends with the files of the run with room, bit for bit" /usr/bin/python3 "$ncsame" \
    "$dir/roomy/map.nc" "$dir/$folder/map.nc" time zeta h u v wet
done
ok "the files without checkpoints lost their frames after the restart, the one cut short among them" contains "$err" \
  "full-unchecked/map.nc: dropped 1 frame after the restart's t = "

# ---- an output file replaced or removed under a running job (issue 27, 2) ----
# The run checks before each frame that its file is still the one it created: another job or a person that swapped
# or deleted it stops the run (74) instead of letting it write on into a file nobody can see. The timeout ends a run
# that fails to notice (its exit would then be 75).
for change in replaced removed; do
  out_dir="$dir/$change"
  timeout -s TERM 120 "$hydrocl" run "$case_file" --set time.end=100000 --set output.interval=1 --force \
    -o "$out_dir" -q 2>"$out_dir.err" &
  pid=$!
  wait_for_frames "$out_dir/map.nc"
  if [ "$change" = replaced ]; then
    cp "$out_dir/map.nc" "$dir/copy.nc" && mv "$dir/copy.nc" "$out_dir/map.nc"
  else
    rm "$out_dir/map.nc"
  fi
  wait "$pid"
  rc=$?
  ok "a map file $change under the run stops it with exit 74" equals "$rc" 74
  ok "saying what happened to which file" grep -q "output '$out_dir/map.nc' was $change" "$out_dir.err"
  ok "and releasing its lock" test ! -e "$out_dir/.hydrocl.lock"
done

# ---- a basin that starts dry, flooded from a level boundary ----
# No wet cell measures a wave speed at the start, so the first steps must come from the boundary's level over the
# deepest bed (sqrt(g (3 m + 0 m)) here); a step from the dry depth alone (about 15 s) blew this run up to 1e10 m.
# The deepest water of a stable run stands at the boundary, 3 m over the bed at 0 m (2.87 m there at 600 s); the
# bore runs up the ramp and spills thinly onto the flat. 3.3 m leaves room for the front's overshoot, while a
# blown-up run goes far beyond it.
run_capture "$hydrocl" run "$root/cases/tidal-flat.yml" "${small[@]}" --set initial.level=-1 \
  --set boundary.west_tide="0 1 0" --set time.end=600 --set output.interval=60 -o "$dir/flooding"
ok "a dry basin flooded from a 3 m level runs to the end" equals "$rc" 0
ok "the flood stays below 3.3 m and reaches the middle of the basin" /usr/bin/python3 -c '
import sys, netCDF4, numpy
h = netCDF4.Dataset(sys.argv[1] + "/map.nc")["h"][:]
assert numpy.all(numpy.isfinite(h)) and h.max() < 3.3, h.max()
assert h[-1, 20, 20] > 0.01, h[-1, 20, 20]' "$dir/flooding"

# ---- a polder behind a dike, on a raster bed: the connected fill, rain and point sources ----
# cases/polder-breach.yml on 50 m cells (each the average of 25 pixels of its GeoTIFF), in double. At rest (the sea's
# level held at 0.8 m), the polder below it starts dry behind the dike and stays so, exactly: no face between them is
# ever wet. On a closed basin (walls), rain of 36 mm/h on every cell, a constant source of 0.5 m^3/s at sea and a
# series source (0 to 2 m^3/s over 300 s) on the dry polder add exactly their volumes: the continuity step conserves
# volume to rounding, and each step adds the exact integral of each series. Rounding: each of the 1200 cells' levels
# (up to 7 m in magnitude) rounds once in the step and once where water is added, 2 x 7 m x 2.2e-16 a cell-step, over
# 2500 m^2 cells and fewer than 400 steps: 3.7e-6 m^3, 3.9e-10 of the 9450 m^3 added (1e-13 measured).
polder=(--set grid.nx=40 --set grid.ny=30 --set output.double=true --set sources.file= --set time.end=300
  --set output.interval=100)
run_capture "$hydrocl" validate "$root/cases/polder-breach.yml" "${polder[@]}"
ok "validate names the raster: its format, size, CRS and resampling" contains "$out" \
  "bed.file: data/polder-dem.tif: GTiff raster, 200 x 150 pixels of 10 x 10 m, EPSG:32631 (WGS 84 / UTM zone 31N)"
ok "validate says the polder's cells stay dry" contains "$out" "cut off from it stay dry"
run_capture "$hydrocl" run "$root/cases/polder-breach.yml" "${polder[@]}" --set boundary.west_tide= \
  --set initial.level=0.8 -o "$dir/polder-rest"
ok "the polder at rest runs" equals "$rc" 0
ok "the polder behind the dike stays dry and the sea at rest, exactly" /usr/bin/python3 -c '
import sys, netCDF4, numpy
m = netCDF4.Dataset(sys.argv[1] + "/map.nc")
h, zb, u = m["h"][:], m["zb"][:], m["u"][:]
polder = zb[:, 20:] < 0.8  # below the sea, east of the dike (x > 1000 m)
assert polder.sum() > 300 and numpy.all(h[:, :, 20:][:, polder] == 0), h[:, :, 20:][:, polder].max()
assert numpy.all(numpy.ma.filled(u, 0) == 0), abs(u).max()' "$dir/polder-rest"
printf "name,x,y,discharge\nsea,600100,5800700,0.5\npolder,601500,5800700,ramp.csv\n" > "$dir/sources.csv"
printf "time [s],discharge [m3/s]\n0,0\n300,2\n" > "$dir/ramp.csv"
run_capture "$hydrocl" run "$root/cases/polder-breach.yml" "${polder[@]}" --set boundary.west=wall --set boundary.west_tide= \
  --set boundary.west_level=0 --set initial.fill=everywhere --set rain.rate=36 --set sources.file="$dir/sources.csv" \
  -o "$dir/polder-rain"
ok "the closed basin with rain and sources runs" equals "$rc" 0
ok "rain and sources add exactly their volumes: 36 mm/h x 300 s x 3 km^2 + 0.5 x 300 + 300 m^3" /usr/bin/python3 -c '
import sys, netCDF4, numpy
h = netCDF4.Dataset(sys.argv[1] + "/map.nc")["h"][:].astype(float)
volume = h.sum(axis=(1, 2)) * 50 * 50
added = 36e-3 / 3600 * 300 * 2000 * 1500 + 0.5 * 300 + 2 * 300 / 2
assert abs(volume[-1] - volume[0] - added) <= 1e-9 * added, (volume[-1] - volume[0], added)' "$dir/polder-rain"

# A roughness map (physics.friction_file) of one value everywhere gives each face the mean of two equal coefficients,
# that value exactly: the bits of the uniform coefficient, explicit and implicit; the default's 0.03 differs.
/usr/bin/python3 -c 'print("\n".join(",".join(["0.05"] * 40) for _ in range(30)))' >"$dir/manning.csv"
for scheme in explicit implicit; do
  run_capture "$hydrocl" run "$root/cases/polder-breach.yml" "${polder[@]}" --set time.scheme=$scheme \
    --set physics.manning=0.05 -o "$dir/manning-$scheme"
  run_capture "$hydrocl" run "$root/cases/polder-breach.yml" "${polder[@]}" --set time.scheme=$scheme \
    --set physics.friction_file="$dir/manning.csv" -o "$dir/map-$scheme"
  ok "$scheme: a roughness map of 0.05 everywhere runs" equals "$rc" 0
  ok "$scheme: and gives the bits of physics.manning 0.05" /usr/bin/python3 "$ncsame" \
    "$dir/manning-$scheme/map.nc" "$dir/map-$scheme/map.nc"
done
run_capture "$hydrocl" run "$root/cases/polder-breach.yml" "${polder[@]}" -o "$dir/manning-default"
ok "the case's own Manning coefficient (0.03) gives other fields" sh -c '! /usr/bin/python3 "$@" >/dev/null' - \
  "$ncsame" "$dir/manning-default/map.nc" "$dir/map-explicit/map.nc"

# ---- dry cells are missing values (issue 26, 2) ----
# The tidal flat after an hour: the ramp and the flat above the 3 m level are dry. zeta, u and v carry _FillValue and
# hold it exactly where the wet flag (bytes, flag_values 0 1) is 0; a gauge on the dry flat has zeta missing and wet
# 0, one in the channel both; output.mask_dry false stores a dry cell's level and velocities as they are.
for mask in true false; do
  run_capture "$hydrocl" run "$root/cases/tidal-flat.yml" --set grid.nx=24 --set grid.ny=24 --set time.end=3600 \
    --set output.interval=1800 --set output.mask_dry=$mask -o "$dir/mask-$mask"
  ok "the tidal flat with output.mask_dry $mask runs" equals "$rc" 0
done
ok "dry cells' zeta, u and v are missing, exactly where the byte wet flag is 0" /usr/bin/python3 -c '
import sys, netCDF4, numpy
masked, plain = (netCDF4.Dataset(sys.argv[1] + "/mask-" + m + "/map.nc") for m in ("true", "false"))
wet = masked["wet"][:]
assert masked["wet"].dtype == numpy.int8 and list(masked["wet"].flag_values) == [0, 1], masked["wet"]
dry = wet == 0
assert 0 < dry.sum() < dry.size, dry.sum()
for name in ("zeta", "u", "v"):
    assert masked[name]._FillValue > 1e36, name
    assert numpy.array_equal(numpy.ma.getmaskarray(masked[name][:]), dry), name
    assert not numpy.ma.getmaskarray(plain[name][:]).any(), name
    assert numpy.array_equal(masked[name][:][~dry], plain[name][:][~dry]), name
history = netCDF4.Dataset(sys.argv[1] + "/mask-true/history.nc")
names = list(history["station_name"][:])  # text: its _Encoding is utf-8
zeta, wet = history["zeta"][:], history["wet"][:]
channel, flat = names.index("channel"), names.index("flat")
assert wet[-1, channel] == 1 and not numpy.ma.is_masked(zeta[-1, channel]), (wet[:, channel], zeta[:, channel])
assert wet[-1, flat] == 0 and numpy.ma.is_masked(zeta[-1, flat]), (wet[:, flat], zeta[:, flat])' "$dir"
# The bed level zb (issue 26, 1): the ramp of tidal-flat.yml, 4.5 m min(x, 250 m) / 250 m above the datum at the
# cell centres (25 m cells), on zeta's datum, so zeta - zb is the depth h of a wet cell (to float rounding); at the
# channel gauge (x = 100 m, between centres on the ramp) 1.8 m.
ok "the map and history files carry the bed level zb on zeta's datum" /usr/bin/python3 -c '
import sys, netCDF4, numpy
m = netCDF4.Dataset(sys.argv[1] + "/mask-true/map.nc")
zb = m["zb"][:]
assert m["zb"].dimensions == ("y", "x") and m["zb"].standard_name == "altitude", m["zb"]
x = m["x"][:]
assert numpy.allclose(zb, 4.5 * numpy.minimum(x, 250) / 250, atol=1e-6), zb[0]
wet = m["wet"][-1] == 1
assert numpy.allclose((m["zeta"][-1] - zb)[wet], m["h"][-1][wet], atol=1e-5)
h = netCDF4.Dataset(sys.argv[1] + "/mask-true/history.nc")
names = list(h["station_name"][:])
assert abs(h["zb"][names.index("channel")] - 1.8) < 1e-6, h["zb"][:]' "$dir"

# ---- maxima (issue 26, 4) ----
# The rising tide over the tidal flat for an hour, a fixed step of 3 s and a frame every step: the maxima are then
# the maxima over the frames, cell by cell over the frames where the cell is wet (the kernels fold exactly what the
# frames show: fmax is exact, and the level and depth are the same operations), and t_wet is the time of the first
# frame where the cell is wet; a cell never wet is missing in all four. The speed allows 4 ulp of float: OpenCL's
# single-precision sqrt is exact only to 3 ulp, and the file's speed is numpy's.
run_capture "$hydrocl" run "$root/cases/tidal-flat.yml" --set grid.nx=24 --set grid.ny=24 --set time.end=3600 \
  --set time.dt=3 --set output.interval=3 --set output.maxima=true -o "$dir/maxima"
ok "a run with output.maxima runs" equals "$rc" 0
ok "its maxima are those of the frames, t_wet the first wet frame, a cell never wet missing" /usr/bin/python3 -c '
import sys, numpy, netCDF4
m = netCDF4.Dataset(sys.argv[1] + "/maxima/map.nc")
wet, t = m["wet"][:] == 1, m["time"][:]
assert len(t) == 1201 and 0 < (~wet.any(axis=0)).sum() and wet[0].sum() < wet[-1].sum(), (len(t), wet.sum(axis=(1, 2)))
ever = wet.any(axis=0)
def over_wet(values):
    return numpy.ma.masked_where(~wet, values).max(axis=0)
u, v = m["u"][:].filled(0), m["v"][:].filled(0)
checks = {"zeta_max": (over_wet(m["zeta"][:].filled(0)), 0), "h_max": (over_wet(m["h"][:]), 0),
          "speed_max": (over_wet(numpy.sqrt(u * u + v * v)), 4 * 6e-8),
          "t_wet": (numpy.where(ever, t[numpy.argmax(wet, axis=0)], 0), 6e-8)}
for name, (want, tolerance) in checks.items():
    got = m[name][:]
    assert numpy.array_equal(numpy.ma.getmaskarray(got), ~ever), name
    error = numpy.abs(got[ever] - want[ever]).max() / max(numpy.abs(want[ever]).max(), 1e-30)
    assert error <= tolerance, (name, error)
assert m["t_wet"].units == m["time"].units and (m["t_wet"][:] > 0).sum() > 0, m["t_wet"]' "$dir"

# ---- the files as common tools read them (issue 26, checks) ----
# xarray (Debian's python3-xarray) decodes the times to dates, selects a gauge by its name, and a plot of zeta on the
# tidal flat masks dry land: the mesh's masked cells are exactly the dry ones.
ok "xarray opens map, history and restart, decodes times, selects a gauge by name, plots dry land as missing" \
  /usr/bin/python3 -c '
import sys, glob, numpy, xarray, matplotlib
matplotlib.use("Agg")
folder = sys.argv[1] + "/mask-true"
m, h = xarray.open_dataset(folder + "/map.nc"), xarray.open_dataset(folder + "/history.nc")
r = xarray.open_dataset(sorted(glob.glob(folder + "/restart-*.nc"))[-1])
assert m.time.dtype.kind == "M" and h.time.dtype.kind == "M" and r.time.dtype.kind == "M", (m.time, r.time)
assert str(m.time.values[-1])[:19] == "2000-01-01T01:00:00", m.time.values
flat = h.set_index(station="station_name").sel(station="flat")
assert flat.wet.values[-1] == 0 and numpy.isnan(flat.zeta.values[-1]), flat
mesh = m.zeta.isel(time=-1).plot()
dry = (m.wet.isel(time=-1) == 0).values
assert 0 < dry.sum() and numpy.array_equal(numpy.ma.getmaskarray(mesh.get_array()).reshape(dry.shape), dry)
dry_faces = (r.u.values == 0) & numpy.signbit(r.u.values) # a dry face keeps its flag in the restart: u = -0
assert r.step.dtype == numpy.float64 and dry_faces.any(), (r.step.dtype, dry_faces.sum())' "$dir"
# The structural checks of CF-1.8 that cfchecks and the IOOS checker make (tests/cli/cf_structure.py), on every
# file of a run; the checker itself fails on a file with time second and an int64.
cf_structure="$root/tests/cli/cf_structure.py"
ok "the map, history and restart files pass the structural CF checks" /usr/bin/python3 "$cf_structure" \
  "$dir"/mask-true/*.nc "$dir"/mask-false/*.nc "$dir"/maxima/*.nc
/usr/bin/python3 -c '
import sys, netCDF4
with netCDF4.Dataset(sys.argv[1], "w") as d:
    d.Conventions, d.title, d.source = "CF-1.8", "t", "s"
    d.createDimension("station", 2)
    d.createDimension("time", None)
    v = d.createVariable("zeta", "f4", ("station", "time"))
    v.long_name, v.units = "level", "m"
    d.createVariable("step", "i8", ()).long_name = "step"' "$dir/bad-layout.nc"
run_capture /usr/bin/python3 "$cf_structure" "$dir/bad-layout.nc"
ok "and the checker refuses a file with time second and a 64-bit integer" \
  test "$rc" = 1 -a -n "$(grep -F 'zeta has time as dimension 1' <<<"$out")" -a -n "$(grep -F 'step is a 64-bit' <<<"$out")"

# ---- hydrocl analyze harmonics (issue 32, 2) ----
# A history file of two gauges whose series are exact sums of harmonics of a 2 s period, eta = 0.1 + 0.05 cos(w t -
# 0.3) + 0.01 cos(2 w t - 1.2) and 0.02 cos(w t + 2), sampled every 0.05 s in float32, one in the layout of today
# (time, station) and one in the earlier (station, time): the fit recovers mean, amplitudes and phases to the
# float32 rounding of the samples (6e-9 m on 0.15 m; 1e-5 degrees), over a window or the whole record.
/usr/bin/python3 -c '
import sys, numpy as np, netCDF4
for path, time_first in ((sys.argv[1], True), (sys.argv[2], False)):
    d = netCDF4.Dataset(path, "w")
    d.createDimension("time", None); d.createDimension("station", 2); d.createDimension("name_strlen", 64)
    t = d.createVariable("time", "f8", ("time",)); t.units = "seconds since 2000-01-01 00:00:00"
    tt = np.arange(0, 40, 0.05); t[:] = tt
    names = d.createVariable("station_name", "S1", ("station", "name_strlen")); names._Encoding = "utf-8"
    names[:] = np.array(["bar", "shore"], dtype="S64")
    d.createVariable("x", "f8", ("station",))[:] = [5.7, 21.0]; d.createVariable("y", "f8", ("station",))[:] = [0, 0]
    w = 2 * np.pi / 2.0
    series = [0.1 + 0.05 * np.cos(w * tt - 0.3) + 0.01 * np.cos(2 * w * tt - 1.2), 0.02 * np.cos(w * tt + 2.0)]
    eta = d.createVariable("eta", "f4", ("time", "station") if time_first else ("station", "time")); eta.units = "m"
    eta[:] = np.array(series).T if time_first else np.array(series)
    d.close()' "$dir/harmonics.nc" "$dir/harmonics-old.nc"
for file in harmonics harmonics-old; do
  run_capture "$hydrocl" analyze harmonics "$dir/$file.nc" --period 2 --window 10 30 --harmonics 2 --json
  ok "analyze harmonics of $file.nc exits 0" equals "$rc" 0
  ok "and recovers the harmonics of each gauge" /usr/bin/python3 -c '
import json, math, sys
rows = {r["station"]: r for r in map(json.loads, sys.argv[1].splitlines())}
bar, shore = rows["bar"], rows["shore"]
assert bar["samples"] == 401 and bar["variable"] == "eta" and bar["units"] == "m", bar
assert abs(bar["mean"] - 0.1) < 6e-9 and abs(bar["amplitude"][0] - 0.05) < 6e-9, bar
assert abs(bar["amplitude"][1] - 0.01) < 6e-9 and abs(bar["phase_deg"][0] - math.degrees(0.3)) < 1e-5, bar
assert abs(bar["phase_deg"][1] - math.degrees(1.2)) < 1e-4, bar
assert abs(shore["amplitude"][0] - 0.02) < 6e-9 and abs(shore["phase_deg"][0] - math.degrees(-2.0)) < 1e-5, shore
assert shore["amplitude"][1] < 1e-8 and bar["rms_residual"] < 1e-8, (shore, bar)' "$out"
done
run_capture "$hydrocl" analyze harmonics "$dir/harmonics.nc" --period 2
ok "its table names each gauge, with A1 and phase1" test "$rc" = 0 -a -n "$(grep -E "^bar +5.7000 .* 0.05 +17.18" <<<"$out")"
run_capture "$hydrocl" analyze harmonics "$dir/harmonics.nc"
ok "without --period it exits 64" equals "$rc" 64
run_capture "$hydrocl" analyze harmonics "$dir/harmonics.nc" --period 2 --window 30 10
ok "a window that ends before it starts exits 64" equals "$rc" 64
run_capture "$hydrocl" analyze harmonics "$dir/harmonics.nc" --period 2 --variable zeta
ok "a variable the file lacks exits 65 naming it" test "$rc" = 65 -a -n "$(grep -F "has no variable 'zeta'" <<<"$err")"
# issue 49: a window past the record fits nothing, which exited 0
run_capture "$hydrocl" analyze harmonics "$dir/harmonics.nc" --period 2 --window 100 200
ok "a window past the record exits 65 saying that no station has a fit" test "$rc" = 65 -a -n \
  "$(grep -F "harmonics.nc: none of its 2 stations has a fit of 3 harmonics of eta; each station's line says why" <<<"$err")"
ok "and still says why for each station" test -n "$(grep -E "^shore .* no fit" <<<"$out")"
# issue 49: its float32 fill was compared as a double, so a dry gauge's 9.97e36 were fitted as levels
run_capture "$hydrocl" analyze harmonics "$dir/mask-true/history.nc" --period 3600 --harmonics 1
ok "on the tidal flat's gauges, the dry one says why it has no fit" test "$rc" = 0 -a -n \
  "$(grep -E "^flat .* no fit: harmonic analysis: 0 samples" <<<"$out")"
ok "and the wet one in the channel has one" test -n "$(grep -E "^channel +100.0000 +300.0000 +3.5" <<<"$out")"

# ---- georeferencing (issue 26, 3): grid.crs through PROJ ----
# UTM zone 31N (EPSG:32631) and the Dutch RD grid (EPSG:28992) against the EPSG registry's published parameters:
# transverse Mercator, central meridian 3 degrees east, scale 0.9996, false easting 500 km on WGS 84
# (a = 6378137 m, 1/f = 298.257223563); oblique stereographic at 52d09'22.178"N 5d23'15.5"E, k = 0.9999079,
# (155 km, 463 km), Bessel 1841 (a = 6377397.155 m, 1/f = 299.1528128).
run_capture "$hydrocl" run "$root/cases/tidal-flat.yml" --set grid.nx=8 --set grid.ny=8 --set time.end=60 \
  --set grid.crs=EPSG:32631 -o "$dir/utm"
ok "a run with grid.crs EPSG:32631 runs" equals "$rc" 0
run_capture "$hydrocl" run "$root/cases/tidal-flat.yml" --set grid.nx=8 --set grid.ny=8 --set time.end=60 \
  --set grid.crs=EPSG:28992 -o "$dir/rd"
ok "and one with EPSG:28992" equals "$rc" 0
ok "every file carries the CF grid mapping crs, named by every data variable" /usr/bin/python3 -c '
import sys, glob, netCDF4
for f in glob.glob(sys.argv[1] + "/utm/*.nc"):
    d = netCDF4.Dataset(f)
    c = d["crs"]
    assert c.grid_mapping_name == "transverse_mercator" and c.epsg_code == "EPSG:32631", (f, c)
    assert c.longitude_of_central_meridian == 3 and c.scale_factor_at_central_meridian == 0.9996, c
    assert c.false_easting == 500000 and c.false_northing == 0 and c.latitude_of_projection_origin == 0, c
    assert c.semi_major_axis == 6378137 and abs(c.inverse_flattening - 298.257223563) < 1e-9, c
    assert "UTM zone 31N" in c.crs_wkt, c.crs_wkt
    assert all(v.grid_mapping == "crs" for n, v in d.variables.items() if n in ("zeta", "u", "zb")), f
c = netCDF4.Dataset(sys.argv[1] + "/rd/map.nc")["crs"]
assert c.grid_mapping_name == "stereographic" and c.scale_factor_at_projection_origin == 0.9999079, c
assert abs(c.latitude_of_projection_origin - (52 + 9 / 60 + 22.178 / 3600)) < 1e-9, c.latitude_of_projection_origin
assert abs(c.longitude_of_projection_origin - (5 + 23 / 60 + 15.5 / 3600)) < 1e-9, c.longitude_of_projection_origin
assert (c.false_easting, c.false_northing) == (155000, 463000) and c.semi_major_axis == 6377397.155, c' "$dir"
ok "and passes the structural CF checks" /usr/bin/python3 "$cf_structure" "$dir"/utm/*.nc "$dir"/rd/*.nc
ok "without grid.crs the coordinates say they are local Cartesian metres" /usr/bin/python3 -c '
import sys, netCDF4
d = netCDF4.Dataset(sys.argv[1] + "/mask-true/map.nc")
assert "crs" not in d.variables and "local Cartesian metres" in d["x"].long_name, d["x"].long_name' "$dir"
run_capture "$hydrocl" validate "$root/cases/tidal-flat.yml" --set grid.crs=EPSG:32631
ok "validate names the CRS and its CF grid mapping" contains "$out" \
  "coordinates: EPSG:32631 (WGS 84 / UTM zone 31N), CF transverse_mercator"
run_capture "$hydrocl" validate "$root/cases/tidal-flat.yml" --set grid.crs=EPSG:4326
ok "a geographic CRS (degrees) is refused with 65" equals "$rc" 65
ok "saying why" contains "$err" "grid.crs = 'EPSG:4326' (WGS 84) is not a projected CRS"
run_capture "$hydrocl" validate "$root/cases/tidal-flat.yml" --set grid.crs=EPSG:2229
ok "a CRS in US survey feet is refused with 65" equals "$rc" 65
ok "naming its unit" contains "$err" "measures x and y in US survey foot"
run_capture "$hydrocl" validate "$root/cases/tidal-flat.yml" --set grid.crs=EPSG:999999
ok "an unknown code is refused with 65" equals "$rc" 65
ok "naming the key and the value" contains "$err" "--set grid.crs=EPSG:999999: grid.crs = 'EPSG:999999' is not a"

# ---- divergence: a boundary series with a spike of 1e200 m at t = 3 s makes the state infinite ----
printf 'time,level\n0,0\n2.9,0\n3,1e200\n10,1e200\n' >"$dir/spike.csv"
run_capture "$hydrocl" run "$case_file" "${small[@]}" --set time.end=10 --set boundary.west=level \
  --set boundary.west_file="$dir/spike.csv" --set time.check_interval=5 -o "$dir/diverged"
ok "a diverging run exits 79" equals "$rc" 79
ok "it says when" contains "$err" "The run failed between t ="
ok "it writes its last good state, from before the spike" /usr/bin/python3 -c '
import sys, glob, netCDF4, numpy
restarts = glob.glob(sys.argv[1] + "/restart-*.nc")
assert len(restarts) == 1, restarts
with netCDF4.Dataset(restarts[0]) as r:
    assert float(r["time"][...]) < 3.0, float(r["time"][...])
    assert numpy.all(numpy.isfinite(r["zeta"][:]))' "$dir/diverged"
# issue 49: a run whose state overflows said "the fastest signal ... is -nan m/s"; the hump that made it (1e8 m)
# is refused, and one within the levels' range that still overflows is said to, in words
bad_input "a hump of 1e8 m" "--set initial.height=1e8: initial.height must be <= 100000" "$case_file" "${small[@]}" \
  --set initial.height=1e8
run_capture "$hydrocl" run "$case_file" --set grid.nx=20 --set grid.ny=20 --set initial.height=1e5 --set time.cfl=1 \
  --set time.end=1 --set output.interval=0 -o "$dir/overflowed"
ok "a run whose state overflows exits 79" equals "$rc" 79
ok "saying so in words, no NaN" test -n "$(grep -F "the state overflowed (its fastest signal" <<<"$err")" -a \
  -z "$(grep -iw "nan" <<<"$err")"

# ---- the implicit scheme (time.scheme: implicit) ----
# Every shallow-water case runs with it, for a few steps at its default CFL-limited step (advective cfl 0.5 and
# gravity-wave Courant number up to time.wave_cfl = 10).
for case_path in "$root"/cases/*.yml; do
  name=$(basename "$case_path" .yml)
  grep -q "name: shallow-water" "$case_path" || continue
  run_capture "$hydrocl" run "$case_path" --set time.scheme=implicit --set output.interval=0 \
    --set output.history_interval=0 --set time.check_interval=2 --set time.end=0.02 -o "$dir/implicit-$name" -q
  ok "cases/$name.yml runs with the implicit scheme" equals "$rc" 0
done
run_capture "$hydrocl" validate "$case_file" --set time.scheme=implicit --set time.dt=1
ok "validate of an implicit case states its scheme and Courant number" contains "$out" \
  "scheme: implicit, theta 0.55, level system by CG + rrb (auto: one rank); gravity-wave Courant number 4.64"
ok "and its memory per cell" python3 -c 'import re, sys; sys.exit(not re.search(r"\((\d+) bytes per cell\)", sys.argv[1]))' \
  "$out"
bad_input "periodic sides with the implicit scheme" "the implicit scheme has no periodic sides" "$case_file" \
  "${small[@]}" --set time.scheme=implicit --set boundary.west=periodic --set boundary.east=periodic
bad_input "a method other than CG for the level system" "solver.method = gmres" "$case_file" "${small[@]}" \
  --set time.scheme=implicit --set solver.method=gmres
bad_input "a float form of a preconditioner that has none" \
  "solver.preconditioner_precision = float: the jacobi preconditioner has no float form" "$case_file" "${small[@]}" \
  --set time.scheme=implicit --set solver.preconditioner=jacobi --set solver.preconditioner_precision=float
bad_input "an implicit step beyond the advective limit" "breaks the advective limit of the starting state: 0.02524 s" \
  "$root/cases/thacker.yml" --set time.scheme=implicit --set time.dt=0.5
# The multigrid preconditioner in float under CG in double (mixed precision), from the case's keys; the progress line
# states the last checked solve's true relative residual, which the 2-norm criterion bounds (rtol 1e-5 of ||b||).
run_capture "$hydrocl" run "$case_file" "${small[@]}" --set time.scheme=implicit --set time.end=2 \
  --set solver.preconditioner=mg --set solver.preconditioner_precision=float --set solver.norm=2 --set time.check_interval=1 \
  -o "$dir/implicit-mg"
ok "the implicit scheme with solver.preconditioner mg in float runs" equals "$rc" 0
ok "its progress line states the true residual, within the stopping rule" python3 -c '
import re, sys
found = re.findall(r"cg=([0-9.]+).* res=([0-9.e+-]+)", sys.argv[1])
assert found, sys.argv[1]
iterations, residual = map(float, found[-1])
assert 0 < iterations < 20 and residual <= 1e-5, found[-1]' "$err"
run_capture "$hydrocl" run "$case_file" "${small[@]}" --set time.scheme=implicit --set time.dt=1 \
  --set solver.max_iterations=1 --set solver.rtol=1e-12 -o "$dir/not-converged"
ok "a level system that does not converge exits 78" equals "$rc" 78
ok "naming the solver's keys and its residual history" contains "$err" "Try a larger solver.max_iterations"
ok "and where the last good state is" contains "$err" "the last good state (t = 0 s) is in $dir/not-converged/restart-0.nc"
ok "which is there" test -s "$dir/not-converged/restart-0.nc"

tap_done
