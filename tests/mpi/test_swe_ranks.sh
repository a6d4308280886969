#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test_swe_ranks.sh: the same shallow-water case on 1, 2, 3 and 4 ranks ends in bitwise the same fields and gauge
# series (one device kind; the decomposition changes only who computes a cell, never what it computes). Two cases: the thesis' test
# case 1 (closed walls, wetting and drying around the island) on an uneven 46 x 38 grid, and a channel that is
# periodic in x with a tidal level on the south side and a weakly reflecting north side, so every boundary kind
# crosses rank boundaries; rain falls on it, two point sources, one across the periodic seam, add and take water
# (added on each owner's cells, the levels' ghosts then exchanged), and its friction varies from cell to cell (a
# roughness map, each face the mean of its cells'). The implicit scheme's island on 1, 2 and 4 ranks agrees to its solver's tolerance.
# The map file on several ranks (written collectively where netCDF-C has parallel I/O) holds the bits of one rank's,
# and a disk without room for the next frame stops every rank of a collective writer with 74.
# Usage: test_swe_ranks.sh MPIRUN HYDROCL SOURCE_ROOT FULLFS_LIBRARY (tests/support/fullfs.c)
set -u
mpirun=$1
hydrocl=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
root=$(cd "$3" && pwd)
fullfs=$(cd "$(dirname "$4")" && pwd)/$(basename "$4")
. "$(dirname "$0")/../support/tap.sh"
. "$(dirname "$0")/../cli/run_checks.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$(dirname "$0")/../support/rank_cache.sh"
rank_cache_for_hydrocl "$dir/tmp"

island=(--set grid.nx=46 --set grid.ny=38 --set time.end=6 --set output.interval=0 --set output.history_interval=1
  --set restart.interval=3)
channel=(--set grid.nx=40 --set grid.ny=30 --set grid.lx=400 --set grid.ly=300 --set bed.shape=ramp
  --set bed.depth=3 --set bed.height=4 --set bed.x=50 --set bed.width=300 --set initial.shape=flat
  --set initial.level=0 --set boundary.west=periodic --set boundary.east=periodic --set boundary.south=level
  --set boundary.south_tide="0.5 60 0" --set boundary.north=weak-level --set boundary.north_level=0 --set time.end=20 --set output.interval=0
  --set output.gauges=[] --set restart.interval=0 --set output.maxima=true --set rain.rate=30
  --set sources.file="$dir/sources.csv" --set physics.friction_file="$dir/chezy.csv")
printf "name,x,y,discharge\ninflow,205,145,0.2\nseam,2,100,-0.05\n" >"$dir/sources.csv"
/usr/bin/python3 -c 'print("\n".join(",".join(str(40 + (3 * i + 7 * j) % 31) for i in range(40)) for j in range(30)))' \
  >"$dir/chezy.csv" # a Chezy coefficient of 40 to 70 varying from cell to cell

last_restart() { ls "$1"/restart-*.nc | sort -t- -k2 -n | tail -1; }

for name in island channel; do
  eval "args=(\"\${$name[@]}\")"
  for n in 1 2 3 4; do
    run_capture timeout 600 "$mpirun" -n "$n" "$hydrocl" run "$root/cases/drop-island.yml" "${args[@]}" \
      -o "$dir/$name-$n" -q
    ok "$name on $n ranks exits 0" equals "$rc" 0
  done
  reference=$(last_restart "$dir/$name-1")
  for n in 2 3 4; do
    ok "$name: $n ranks give bitwise the fields of 1 rank" /usr/bin/python3 "$root/tests/cli/ncsame.py" \
      "$reference" "$(last_restart "$dir/$name-$n")" zeta u v time
  done
done
# The explicit step in one kernel (GPUs' default) and in three (CPUs'): the same bits, on 1 rank and on 3, where the
# kernel runs over the interior and then the strips of each rank (the suite's HYDROCL_OVERLAP_CELLS=0), its tiles'
# rims read from the ghosts; both orderings, the channel's periodic, tidal and weakly reflecting sides. --profile
# names the kernels that ran.
run_capture timeout 600 "$mpirun" -n 1 "$hydrocl" run "$root/cases/drop-island.yml" "${channel[@]}" \
  --set physics.ordering=hansen -o "$dir/channel-hansen-1" -q
ok "channel, Hansen, on 1 rank exits 0" equals "$rc" 0
for name in island channel channel-hansen; do
  case $name in
  channel-hansen) args=("${channel[@]}" --set physics.ordering=hansen) kernel=step_hansen ;;
  *) eval "args=(\"\${$name[@]}\")" kernel=step_sielecki ;;
  esac
  for n in 1 3; do
    run_capture timeout 600 env HYDROCL_SWE_STEP=fused "$mpirun" -n "$n" "$hydrocl" --profile run \
      "$root/cases/drop-island.yml" "${args[@]}" -o "$dir/$name-fused-$n" -q
    ok "$name in one kernel ($kernel) on $n ranks exits 0" equals "$rc" 0
    ok "and ran that kernel" contains "$err" "$kernel"
    ok "$name: one kernel on $n ranks gives bitwise the fields of three on 1" /usr/bin/python3 \
      "$root/tests/cli/ncsame.py" "$(last_restart "$dir/$name-1")" "$(last_restart "$dir/$name-fused-$n")" zeta u v time
  done
done
# Tiles of 5 x 3 cells: the rims' faces outnumber the work-items, each takes several, and the tiles at the ranks'
# ends are partial.
run_capture timeout 600 env HYDROCL_SWE_STEP=fused HYDROCL_SWE_TILE=5x3 "$mpirun" -n 3 "$hydrocl" run \
  "$root/cases/drop-island.yml" "${channel[@]}" -o "$dir/channel-tile" -q
ok "the channel in one kernel of 5 x 3 tiles on 3 ranks exits 0" equals "$rc" 0
ok "and gives bitwise the fields of three kernels on 1" /usr/bin/python3 "$root/tests/cli/ncsame.py" \
  "$(last_restart "$dir/channel-1")" "$(last_restart "$dir/channel-tile")" zeta u v time
for n in 2 3 4; do # the channel's tide wets its ramp: maxima folded on each rank's cells
  ok "channel: the maxima on $n ranks are bitwise those of 1 rank" /usr/bin/python3 "$root/tests/cli/ncsame.py" \
    "$dir/channel-1/map.nc" "$dir/channel-$n/map.nc" zeta_max h_max speed_max t_wet
done
# A restart is independent of the number of ranks: the island's first half on 2 ranks, continued on 3.
run_capture timeout 600 "$mpirun" -n 2 "$hydrocl" run "$root/cases/drop-island.yml" "${island[@]}" --set time.end=3 \
  -o "$dir/island-switch" -q
ok "the island's first half on 2 ranks exits 0" equals "$rc" 0
run_capture timeout 600 "$mpirun" -n 3 "$hydrocl" run "$root/cases/drop-island.yml" "${island[@]}" \
  -o "$dir/island-switch" -q --restart latest
ok "its second half on 3 ranks exits 0" equals "$rc" 0
ok "and ends with bitwise the fields of 1 rank throughout" /usr/bin/python3 "$root/tests/cli/ncsame.py" \
  "$(last_restart "$dir/island-1")" "$(last_restart "$dir/island-switch")" zeta u v time
# Continued on another number of ranks with the map file written collectively (output.parallel_write, the default):
# a map file one rank made allocates its chunks as they are written, into which HDF5's collective write failed on one
# rank and left the other waiting; it is continued by rank 0 alone, and a file two ranks made by one rank too.
switch=(--set grid.nx=20 --set grid.ny=20 --set time.end=4 --set output.interval=1 --set restart.interval=2)
run_capture timeout 120 "$mpirun" -n 1 "$hydrocl" run "$root/cases/drop-island.yml" "${switch[@]}" -o "$dir/switch-whole" -q
for ranks in "1 2" "2 1"; do
  read -r first second <<<"$ranks"
  run_capture timeout 120 "$mpirun" -n "$first" "$hydrocl" run "$root/cases/drop-island.yml" "${switch[@]}" \
    --set time.end=2 -o "$dir/switch-$first-$second" -q
  run_capture timeout 120 "$mpirun" -n "$second" "$hydrocl" -v run "$root/cases/drop-island.yml" "${switch[@]}" \
    -o "$dir/switch-$first-$second" --restart latest
  ok "a run on $first rank(s) continued on $second with the parallel map write exits 0 (no rank left waiting)" \
    equals "$rc" 0
  if [ "$first" = 1 ]; then
    ok "the map file one rank made is continued by rank 0 alone, saying so" contains "$err" \
      "was written by one rank: rank 0 gathers and writes its frames"
  fi
  ok "and its map file holds the bits of the uninterrupted run" /usr/bin/python3 "$root/tests/cli/ncsame.py" \
    "$dir/switch-whole/map.nc" "$dir/switch-$first-$second/map.nc" time zeta h u v wet
  ok "and so does its gauge file" /usr/bin/python3 "$root/tests/cli/ncsame.py" "$dir/switch-whole/history.nc" \
    "$dir/switch-$first-$second/history.nc" time zeta h u v
done
for n in 2 3 4; do # the gauges' bilinear corners fall on different ranks as the split changes
  ok "island: the gauges on $n ranks are bitwise those of 1 rank" /usr/bin/python3 "$root/tests/cli/ncsame.py" \
    "$dir/island-1/history.nc" "$dir/island-$n/history.nc" time zeta h u v
done
# The implicit scheme: the island at about 4 times the explicit step, in double, CG to 1e-10, preconditioned by RRB
# on every rank count (the default takes the multigrid on several ranks: the channel below). The distributed RRB
# preconditioner is the same M, so CG takes the same iterations on every rank count (the progress line's mean), and
# the fields agree to within the solver's tolerance (reductions sum in another order: not bitwise; measured
# 2026-11-25: 5e-16 of the largest value; bound 1e-9, ten times the rtol).
implicit=("${island[@]}" --set time.scheme=implicit --set time.dt=0.5 --set solver.rtol=1e-10 --set output.progress=1000
  --set solver.preconditioner=rrb)
for n in 1 2 4; do
  run_capture timeout 600 "$mpirun" -n "$n" "$hydrocl" --precision double run "$root/cases/drop-island.yml" \
    "${implicit[@]}" -o "$dir/implicit-$n"
  ok "implicit island on $n ranks exits 0" equals "$rc" 0
  iterations[n]=$(grep -o 'cg=[0-9.]*' <<<"$err" | tail -1)
done
for n in 2 4; do
  ok "implicit island: $n ranks take the CG iterations of 1 (${iterations[1]})" equals "${iterations[n]}" \
    "${iterations[1]}"
  ok "implicit island: $n ranks give the fields of 1 rank to 1e-9 of their largest value" /usr/bin/python3 \
    "$root/tests/cli/ncsame.py" --tolerance 1e-9 "$(last_restart "$dir/implicit-1")" \
    "$(last_restart "$dir/implicit-$n")" zeta u v time
done
# The exchanges overlapped with work (halo.h: CG's products, the explicit step's kernels) give the bits of exchanging
# first (HYDROCL_OVERLAP_CELLS=1e300; the suite runs with 0: every exchange that can be overlapped is); the explicit
# step's are tested against one rank above.
run_capture timeout 600 env HYDROCL_OVERLAP_CELLS=1e300 "$mpirun" -n 4 "$hydrocl" --precision double run \
  "$root/cases/drop-island.yml" "${implicit[@]}" -o "$dir/implicit-4-no-overlap" -q
ok "implicit island on 4 ranks without overlap exits 0" equals "$rc" 0
ok "and ends in the bits of the overlapped run" /usr/bin/python3 "$root/tests/cli/ncsame.py" \
  "$(last_restart "$dir/implicit-4")" "$(last_restart "$dir/implicit-4-no-overlap")" zeta u v time
# The channel's tidal south side and weakly reflecting north side (walls for its periodic ones: the implicit scheme
# has none), whose rows cross the ranks' edges, with the default preconditioner: RRB on one rank, the multigrid on
# several, so the fields agree to the solver's tolerance, as the island's.
run_capture "$mpirun" -n 2 "$hydrocl" validate "$root/cases/drop-island.yml" "${channel[@]}" --set boundary.west=wall \
  --set boundary.east=wall --set time.scheme=implicit
ok "the default preconditioner on 2 ranks is the multigrid" contains "$out" "level system by CG + mg (auto: several ranks)"
for n in 1 2 4; do
  run_capture timeout 600 "$mpirun" -n "$n" "$hydrocl" --precision double run "$root/cases/drop-island.yml" \
    "${channel[@]}" --set boundary.west=wall --set boundary.east=wall --set time.scheme=implicit --set time.dt=1 \
    --set solver.rtol=1e-10 -o "$dir/implicit-channel-$n" -q
  ok "implicit channel on $n ranks exits 0" equals "$rc" 0
done
for n in 2 4; do
  ok "implicit channel: $n ranks give the fields of 1 rank to 1e-9 of their largest value" /usr/bin/python3 \
    "$root/tests/cli/ncsame.py" --tolerance 1e-9 "$(last_restart "$dir/implicit-channel-1")" \
    "$(last_restart "$dir/implicit-channel-$n")" zeta u v time
done
# A continued implicit run repeats the uninterrupted one bit for bit (the step depends on the state alone).
run_capture timeout 600 "$mpirun" -n 2 "$hydrocl" --precision double run "$root/cases/drop-island.yml" \
  "${implicit[@]}" --set time.end=3 -o "$dir/implicit-continued" -q
run_capture timeout 600 "$mpirun" -n 2 "$hydrocl" --precision double run "$root/cases/drop-island.yml" \
  "${implicit[@]}" -o "$dir/implicit-continued" -q --restart latest
ok "an implicit run continued from its restart exits 0" equals "$rc" 0
run_capture timeout 600 "$mpirun" -n 2 "$hydrocl" --precision double run "$root/cases/drop-island.yml" \
  "${implicit[@]}" -o "$dir/implicit-2b" -q
ok "and ends with bitwise the fields of the uninterrupted run" /usr/bin/python3 "$root/tests/cli/ncsame.py" \
  "$(last_restart "$dir/implicit-2b")" "$(last_restart "$dir/implicit-continued")" zeta u v time
ok "the channel's tide moved the water (a test that cannot pass at rest)" /usr/bin/python3 -c '
import sys, glob, netCDF4, numpy
with netCDF4.Dataset(glob.glob(sys.argv[1] + "/restart-*.nc")[0]) as r:
    assert numpy.max(numpy.abs(r["v"][:])) > 1e-3, numpy.max(numpy.abs(r["v"][:]))' "$dir/channel-1"
# The map file written by 3 ranks, each its block (output.parallel_write, the default), and gathered to rank 0: the
# same bits, frames and maxima (map_write_static) alike.
frames=("${channel[@]}" --set output.interval=5)
for way in true false; do
  run_capture timeout 600 "$mpirun" -n 3 "$hydrocl" -v run "$root/cases/drop-island.yml" "${frames[@]}" \
    --set output.parallel_write=$way -o "$dir/map-$way"
  ok "the channel on 3 ranks with output.parallel_write $way exits 0" equals "$rc" 0
done
ok "the map file written block by block on 3 ranks holds the bits of the gathered one" /usr/bin/python3 \
  "$root/tests/cli/ncsame.py" "$dir/map-false/map.nc" "$dir/map-true/map.nc" time zeta h u v wet zb zeta_max h_max \
  speed_max t_wet
# A disk that fills up under a collective write: a frame is written only where the file system has room for it
# before deflate (40 x 30 cells, zeta, h, u, v in float and the wet flag: 20400 bytes), so a disk filling up stops
# the run between frames, every rank with 74, rather than within HDF5's collective write, where a rank that failed
# would leave the others waiting. --force: the run's own check of its whole output would refuse it before it starts.
# Under tools/check --sanitize the preloaded shim comes before ASan's run-time, which ASan must not refuse.
run_capture timeout 300 "$mpirun" -n 3 -x LD_PRELOAD="$fullfs" -x FULLFS_FOLDER=/full -x FULLFS_FREE=16384 \
  -x ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$hydrocl" run "$root/cases/drop-island.yml" "${frames[@]}" -o "$dir/full" --force
ok "a disk without room for a frame stops a collective writer with 74, no rank left waiting" equals "$rc" 74
ok "saying so, with the room a frame needs" contains "$err" "it may take up to 0.0204 MB, the file system has 0.0164 MB left"
# SIGTERM to one rank between checks and outputs: the ranks agree on it within a bounded wall time (signals.h), not
# at the next check 100000 steps on.
stop_unchecked stop-unchecked child "$mpirun" -n 2 "$hydrocl" run "$root/cases/drop-island.yml" --set grid.nx=20 \
  --set grid.ny=20 --set time.end=100000 --set time.check_interval=100000 --set output.interval=0 \
  --set output.gauges=[] --set restart.interval=0 --set output.progress=0.1 --force -o "$dir/stop-unchecked"
ok "SIGTERM to one of 2 ranks between checks stops the run with exit 75" equals "$rc" 75
ok "within a few seconds (took ${waited}/10 s)" test "$waited" -lt 50
run_capture "$mpirun" -n 2 "$hydrocl" validate "$root/cases/drop-island.yml" --set grid.px=3
ok "a process grid that cannot split 2 ranks is refused" equals "$rc" 65
ok "the message names where grid.px was set" contains "$err" "--set grid.px=3: grid.px, grid.py: process grid px = 3"
ok "and comes once, from rank 0" equals "$(grep -c "cannot split" <<<"$err")" 1
tap_done
