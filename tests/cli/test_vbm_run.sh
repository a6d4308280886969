#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test_vbm_run.sh: `hydrocl run`, `validate` and `defaults` on the variational Boussinesq model (issue 34), as a user
# meets them: the template; the shipped cases validate; a small run of the Kelvin-wake case writes map, history and
# restart files; a run continued with --restart latest ends with the bits of an uninterrupted one; a current from a
# netCDF file is the current of the keys; the harbour case's
# land (a mask file) holds no water and stops the ship's waves; each refusal (a step above leapfrog's limit, an output
# interval that is not a whole number of steps, a sponge too narrow, a ship without a beam, the cosh shape without
# kappa, a bad track file) exits 65 with the key in its message and creates nothing; --realtime keeps the simulated
# time in step with the wall clock and says how many frames were late; other models refuse it.
# Usage: test_vbm_run.sh HYDROCL SOURCE_ROOT
set -u
hydrocl=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$2" && pwd)
. "$(dirname "$0")/../support/tap.sh"
. "$(dirname "$0")/run_checks.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
py=/usr/bin/python3
kelvin="$root/cases/ship-kelvin.yml"
harbour="$root/cases/harbour.yml"
# The Kelvin case on 200 x 80 cells of 10 m, 20 s in steps of 0.2 s (the ship has gone 160 m), frames every 10 s.
small=(--set grid.nx=200 --set grid.ny=80 --set time.dt=0.2 --set time.end=20 --set output.interval=10
  --set boundary.sponge_width=100)

# ---- the template and validate ----
run_capture "$hydrocl" defaults variational-boussinesq
ok "defaults variational-boussinesq exits 0" equals "$rc" 0
printf '%s\n' "$out" >"$dir/template.yml"
run_capture "$hydrocl" validate "$dir/template.yml" --set grid.nx=50 --set grid.ny=40 --set grid.lx=500 \
  --set grid.ly=400 --set time.end=10
ok "the template is a case: with its required keys set, it validates" equals "$rc" 0
run_capture "$hydrocl" validate "$kelvin"
ok "validate ship-kelvin.yml exits 0" equals "$rc" 0
ok "and prints the fixed step against leapfrog's limit" contains "$out" \
  "time step: 0.1 s (0.518 of leapfrog's limit 0.1932 s), 2000 steps to t = 200 s"
ok "and the ship, its hull and its track" contains "$out" \
  "60 x 12 m, draft 2 m; straight from (1850, 400) m, heading 180 degrees at 8 m/s"
run_capture "$hydrocl" validate "$kelvin" --set time.dt=0
ok "time.dt 0 takes the largest step time.cfl allows that lands on output.interval" contains "$out" \
  "time step: 0.0961538 s"

# ---- a run, its files, and a continued run's bits ----
run_capture "$hydrocl" run "$kelvin" "${small[@]}" --set restart.interval=10 -o "$dir/whole"
ok "a small Kelvin-wake run exits 0" equals "$rc" 0
ok "it writes map.nc, history.nc and restarts at 10 s and 20 s" test -s "$dir/whole/map.nc" -a \
  -s "$dir/whole/history.nc" -a -s "$dir/whole/restart-50.nc" -a -s "$dir/whole/restart-100.nc"
ok "progress lines say CG iterations per frame" contains "$err" "cg="
ok "and the last checked solve's true relative residual" python3 -c '
import re, sys
found = re.findall(r" res=([0-9.e+-]+)", sys.argv[1])
assert found and float(found[-1]) <= 1e-5, found  # the default stopping rule: ||r||_2 <= 1e-5 ||b||_2' "$err"
ok "map.nc holds zeta, phi, the depth and the maxima; 3 frames" $py -c '
import sys, netCDF4, numpy as np
m = netCDF4.Dataset(sys.argv[1])
assert len(m.dimensions["time"]) == 3, len(m.dimensions["time"])
for name in ("zeta", "phi", "depth", "zeta_max", "zeta_min"):
    assert name in m.variables, name
z = m["zeta"][-1]
# the ship (2 m draft) has gone 160 m along y = 400 m from x = 1850 m: its trough is there, within a cell or two
j, i = np.unravel_index(np.argmin(z), z.shape)
x, y = m["x"][i], m["y"][j]
assert abs(x - 1690) <= 20 and abs(y - 400) <= 10, (x, y)
assert m["zeta_min"][:].min() <= z.min() + 1e-6' "$dir/whole/map.nc"
run_capture $py "$root/tools/hydrocl-plot" snapshot "$dir/whole/map.nc" zeta -o "$dir/wake.png"
ok "hydrocl-plot draws the wake" test "$rc" = 0 -a -s "$dir/wake.png"
run_capture $py "$root/tools/hydrocl-plot" maxima "$dir/whole/map.nc" zeta_max -o "$dir/wedge.png"
ok "and the wedge it swept (zeta_max)" test "$rc" = 0 -a -s "$dir/wedge.png"
run_capture "$hydrocl" run "$kelvin" "${small[@]}" --set restart.interval=10 --set time.end=10 -o "$dir/split"
ok "the same run to 10 s exits 0" equals "$rc" 0
run_capture "$hydrocl" run "$kelvin" "${small[@]}" --set restart.interval=10 -o "$dir/split" --restart latest
ok "--restart latest continues it to 20 s" test "$rc" = 0 -a -s "$dir/split/restart-100.nc"
ok "with the bits of the uninterrupted run (both levels, both psi)" $py "$root/tests/cli/ncsame.py" \
  "$dir/whole/restart-100.nc" "$dir/split/restart-100.nc" zeta_even phi_even zeta_odd phi_odd psi_even psi_odd
ok "and its map and history files, continued from the checkpoints of the restart at 10 s" $py -c '
import os, subprocess, sys
whole, split = sys.argv[1:3]
for name, variables in (("map.nc", ["time", "zeta", "phi"]), ("history.nc", ["time", "zeta"])):
    subprocess.run([sys.executable, sys.argv[3], whole + "/" + name, split + "/" + name] + variables, check=True)
    assert os.path.isfile(split + "/." + name + ".100") and not os.path.exists(split + "/." + name + ".50"), name' \
  "$dir/whole" "$dir/split" "$root/tests/cli/ncsame.py"
run_capture "$hydrocl" run "$kelvin" "${small[@]}" --set time.dt=0.1 -o "$dir/split" --restart latest
ok "a restart continued at another step is refused (65)" test "$rc" = 65 -a \
  -n "$(grep "leapfrog continues only at its own step" <<<"$err")"

# ---- a ship track as AIS records it: ISO times, WGS 84 latitude and longitude, on a grid in UTM zone 31N ----
# The same track in the grid's x and y, projected by tests/cli/utm.py (Kruger's series, within 0.2 um of PROJ), gives
# the same run: the maps agree to their float32 storage (1e-7 of the largest values, one rounding step), 1e-6.
utm_grid=(--set grid.crs=EPSG:32631 --set grid.x0=464000 --set grid.y0=5760800 --set time.start=2023-06-01
  --set output.gauges=[])
printf 'time,lat,lon\n2023-06-01T00:00:00Z,52.0,2.5\n2023-06-01T02:00:20+02:00,52.0,2.497666\n' >"$dir/ais.csv"
$py -c '
import sys
sys.path.insert(0, sys.argv[1])
import utm
print("time,x,y")
for t, lat, lon in ((0, 52.0, 2.5), (20, 52.0, 2.497666)):
    print("%g,%r,%r" % ((t,) + utm.project(lat, lon, 31)))' "$root/tests/cli" >"$dir/utm.csv"
run_capture "$hydrocl" validate "$kelvin" "${small[@]}" "${utm_grid[@]}" --set ship.track="$dir/ais.csv"
ok "validate says the track was projected" contains "$out" \
  "series of 2 points from t = 0 to 20 s, projected from WGS 84 latitude and longitude"
run_capture "$hydrocl" run "$kelvin" "${small[@]}" "${utm_grid[@]}" --set ship.track="$dir/ais.csv" -o "$dir/ais" -q
ok "a track in latitude and longitude with ISO times runs" equals "$rc" 0
run_capture "$hydrocl" run "$kelvin" "${small[@]}" "${utm_grid[@]}" --set ship.track="$dir/utm.csv" -o "$dir/utm" -q
ok "and gives the run of the same track in the grid's x and y" $py "$root/tests/cli/ncsame.py" --tolerance 1e-6 \
  "$dir/ais/map.nc" "$dir/utm/map.nc" zeta phi
# ships.nc: the ship's centre, heading and speed at every sample, its track's as projected by utm.py (0.2 um from
# PROJ, and the same linear interpolation in time: 1e-6 m), the heading its leg's direction counter-clockwise from x
# and the speed its leg's length over 20 s (float32 storage: 1e-6 relative).
ok "ships.nc holds the ship's track as sailed: place, heading and speed" $py -c '
import math, sys, netCDF4, numpy
sys.path.insert(0, sys.argv[2])
import utm
d = netCDF4.Dataset(sys.argv[1] + "/ships.nc")
assert d.featureType == "timeSeries" and d["ship_x"].dtype == numpy.float64, (d.featureType, d["ship_x"].dtype)
(x0, y0), (x1, y1) = utm.project(52.0, 2.5, 31), utm.project(52.0, 2.497666, 31)
leg = math.hypot(x1 - x0, y1 - y0)
for k, t in enumerate(d["time"][:]):
    w = min(t / 20, 1)
    x, y = d["ship_x"][k, 0], d["ship_y"][k, 0]
    assert abs(x - (x0 + w * (x1 - x0))) < 1e-6 and abs(y - (y0 + w * (y1 - y0))) < 1e-6, (t, x, y)
    heading = math.degrees(math.atan2(y1 - y0, x1 - x0)) % 360
    assert abs(d["ship_heading"][k, 0] - heading) < 1e-3, (t, d["ship_heading"][k, 0], heading)
    assert abs(d["ship_speed"][k, 0] - leg / 20) <= 1e-6 * leg / 20, (t, d["ship_speed"][k, 0], leg / 20)
assert list(d["time"][:]) == [0, 10, 20], d["time"][:]' "$dir/ais" "$root/tests/cli"
bad_input "a track in latitude and longitude on a grid without a CRS" "needs grid.crs" "$kelvin" "${small[@]}" \
  --set ship.track="$dir/ais.csv"

# ---- a current from a file ----
$py -c '
import sys, netCDF4
with netCDF4.Dataset(sys.argv[1], "w") as d:
    d.createDimension("y", 80)
    d.createDimension("x", 200)
    for name, value in (("u", 2.0), ("v", -1.0)):
        d.createVariable(name, "f8", ("y", "x"))[:] = value' "$dir/current.nc"
run_capture "$hydrocl" run "$kelvin" "${small[@]}" --set current.u=2 --set current.v=-1 -o "$dir/current-keys"
ok "a run in a uniform current from current.u and current.v exits 0" equals "$rc" 0
run_capture "$hydrocl" run "$kelvin" "${small[@]}" --set current.file="$dir/current.nc" -o "$dir/current-file"
ok "the same current from a netCDF file gives the same bits" test "$rc" = 0 -a -n "$($py \
  "$root/tests/cli/ncsame.py" "$dir/current-keys/restart-100.nc" "$dir/current-file/restart-100.nc" && echo same)"
ok "and not the bits of still water" bash -c '! "$@" >/dev/null' _ $py "$root/tests/cli/ncsame.py" \
  "$dir/whole/restart-100.nc" "$dir/current-file/restart-100.nc" zeta_even

# ---- land from a mask: the harbour ----
run_capture "$hydrocl" run "$harbour" --set time.end=60 --set output.interval=30 -o "$dir/harbour"
ok "the harbour case runs 60 s" equals "$rc" 0
ok "its land (mask and shore) holds no water and no depth; the basin is still where no wave reached it" $py -c '
import sys, netCDF4, numpy as np
m = netCDF4.Dataset(sys.argv[1])
mask = np.loadtxt(sys.argv[2], delimiter=",") != 0
depth, zeta = m["depth"][:], m["zeta"][-1]
assert mask.sum() > 1000, mask.sum()
assert np.all(depth[mask] == 0) and np.all(zeta[mask] == 0)
assert np.all(depth[~mask] == 15)
# at 60 s the ship is 360 m along its first leg, south of the breakwaters: the basin behind them is calm
basin = zeta[140:155, 110:210]
assert np.max(np.abs(basin)) < 1e-3, np.max(np.abs(basin))' "$dir/harbour/map.nc" "$root/cases/harbour-land.csv"

# ---- incident waves ----
run_capture "$hydrocl" run "$harbour" --set time.end=30 --set output.interval=30 --set waves.side=south \
  --set waves.incident=irregular --set waves.hs=1 --set waves.tp=8 --set waves.angle=20 -o "$dir/swell"
ok "an irregular sea enters the harbour from the south sponge" test "$rc" = 0 -a -n "$($py -c '
import sys, netCDF4, numpy as np
z = netCDF4.Dataset(sys.argv[1])["zeta"][-1]
# after 30 s (the amplitudes ramped in over 20 s) the sea stands in the south half, beyond the sponge (y > 100 m)
print("yes" if np.std(z[25:80, 30:270]) > 0.05 else "")' "$dir/swell/map.nc")"

# ---- refusals ----
bad_input "a step above leapfrog's limit" "time.dt = 0.5 s breaks leapfrog's stability limit" "$kelvin" \
  --set time.dt=0.5
bad_input "an output interval that is not a whole number of steps" \
  "output.interval = 10.05 s is not a whole number of steps of 0.1 s" "$kelvin" --set output.interval=10.05
bad_input "a sponge narrower than two cells" "a sponge needs at least 2 cells" "$kelvin" \
  --set boundary.sponge_width=3
bad_input "a ship without a beam" "ship.beam must be > 0 m too" "$kelvin" --set ship.beam=0
# issue 49: depths the psi system cannot hold were met as an RRB pivot that named no key
bad_input "a depth of 1e12 m" "--set bed.depth=1e12: bed.depth must be <= 100000" "$kelvin" --set bed.depth=1e12 \
  --set time.dt=0
printf 'model: {name: variational-boussinesq}\ngrid: {nx: 20, ny: 20, lx: 1, ly: 1}\ntime: {end: 1}\n' >"$dir/deep.yml"
bad_input "a depth of 2e6 cells" "--set bed.depth=1e5: the depth of 100000 m (bed.depth) is 2e+06 cells of 0.05 m" \
  "$dir/deep.yml" --set bed.depth=1e5
bad_input "the cosh shape without kappa" "physics.shape is cosh and needs physics.kappa > 0" "$kelvin" \
  --set physics.shape=cosh
bad_input "waves entering at a wall" "waves.side is north, which is a wall: waves enter through a sponge" \
  "$harbour" --set waves.side=north --set waves.height=1 --set waves.period=8
bad_input "a regular wave without a period" "a regular wave needs waves.height and waves.period > 0" "$harbour" \
  --set waves.side=south --set waves.height=1
bad_input "a starting surface beyond the divergence guard" "the starting surface's root mean square is" \
  "$kelvin" "${small[@]}" --set initial.shape=gaussian --set initial.height=5000 --set initial.x=1000 \
  --set initial.y=400 --set initial.width=300
printf 'x,y\n0,0\n' >"$dir/track.csv"
bad_input "a track without its header" "track.csv:1: the header must be 'x,y,speed'" "$kelvin" \
  --set ship.track="$dir/track.csv"
# A fleet file's paths and rows get the checks of the case's own: a device as a track is refused at once (it hung
# validate, reading /dev/zero for ever), a folder is said to be one, ships outside the domain, of one name or with
# more cells than the header are refused with the fleet file's line.
fleet_header="name,length,beam,draft,x,y,heading,speed,track"
printf '%s\ntug,25,8,2,,,,,/dev/zero\n' "$fleet_header" >"$dir/zero.csv"
run_capture timeout 20 "$hydrocl" validate "$kelvin" --set ships.file="$dir/zero.csv"
ok "a fleet's track /dev/zero: exit 65 at once" equals "$rc" 65
ok "naming the fleet file's line and what the path is" contains "$err" "zero.csv:2: track names '/dev/zero', which is not a readable file (/dev/zero: it is a device"
mkdir -p "$dir/tracks"
printf '%s\ntug,25,8,2,,,,,tracks\n' "$fleet_header" >"$dir/folder.csv"
run_capture "$hydrocl" validate "$kelvin" --set ships.file="$dir/folder.csv"
ok "a folder as a track: exit 65, said to be a folder" test "$rc" = 65 -a -n "$(grep "it is a folder" <<<"$err")"
printf '%s\ntug,25,8,2,100,4000,0,1,\n' "$fleet_header" >"$dir/outside.csv"
run_capture "$hydrocl" validate "$kelvin" --set ships.file="$dir/outside.csv"
ok "a ship starting outside the domain: exit 65 with its line" test "$rc" = 65 -a \
  -n "$(grep "outside.csv:2: ship 'tug' starts at (100, 4000) m, outside the domain, x 0 to 2000 m" <<<"$err")"
printf '%s\nship,25,8,2,100,100,0,1,\n' "$fleet_header" >"$dir/twice.csv"
run_capture "$hydrocl" validate "$kelvin" --set ships.file="$dir/twice.csv"
ok "a fleet's ship named as the case's ship: exit 65" test "$rc" = 65 -a \
  -n "$(grep "twice.csv:2: ship 'ship' is named twice (first at" <<<"$err")"
printf '%s\ntug,25,8,2,100,100,0,1,,extra\n' "$fleet_header" >"$dir/extra.csv"
run_capture "$hydrocl" validate "$kelvin" --set ships.file="$dir/extra.csv"
ok "a fleet row of 10 columns: exit 65" test "$rc" = 65 -a -n "$(grep "extra.csv:2: 10 columns, 9 expected" <<<"$err")"

# ---- --realtime ----
start=$(date +%s.%N)
run_capture "$hydrocl" run "$kelvin" --set grid.nx=40 --set grid.ny=16 --set time.dt=0.2 --set time.end=3 \
  --set output.interval=3 --set boundary.sponge_width=150 -o "$dir/realtime" --realtime
elapsed=$(echo "$(date +%s.%N) - $start" | bc)
ok "--realtime runs a small case" equals "$rc" 0
ok "no faster than the wall clock (3 s simulated, $elapsed s taken)" test "$(echo "$elapsed >= 2.8" | bc)" = 1
ok "and says how many frames were late" contains "$err" "realtime: "
run_capture "$hydrocl" run "$root/cases/drop-island.yml" -o "$dir/swe-realtime" --realtime
ok "a shallow-water run refuses --realtime (64)" test "$rc" = 64 -a -n "$(grep -- "--realtime" <<<"$err")"
tap_done
