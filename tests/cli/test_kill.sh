#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test_kill.sh: a shallow-water run killed with SIGKILL at random instants, twenty times, each time continued with
# `--restart latest` (or begun again with --overwrite while it has no restart yet), ends with the map and history
# files of a run never killed, bit for bit. A kill can land anywhere: in start-up, in the middle of an HDF5 metadata
# update of a frame, while a restart or a checkpoint is copied, while a continuation puts the checkpoints back. The
# instants come from bash's RANDOM, seeded with HYDROCL_KILL_SEED when set (the seed is printed, to repeat a failure).
# Usage: test_kill.sh HYDROCL SOURCE_ROOT
set -u
hydrocl=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$2" && pwd)
ncsame="$root/tests/cli/ncsame.py"
. "$(dirname "$0")/../support/tap.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1

# 40^2 cells, a step of 0.1 s: a gauge sample every step, a map frame every 5 steps and a restart every 10, so that
# most of a step's time is spent writing and a kill most often lands in a write.
args=("$root/cases/drop-island.yml" --set grid.nx=40 --set grid.ny=40 --set time.end=60 --set output.interval=0.5
  --set output.history_interval=0.1 --set restart.interval=1 --set output.maxima=true -q)
run_capture "$hydrocl" run "${args[@]}" -o "$dir/whole"
ok "the run never killed exits 0" equals "$rc" 0

# The newest restart's step in folder $1 (-1: none).
newest_step() {
  local file step newest=-1
  for file in "$1"/restart-*.nc; do # in bash alone: it is polled while a run goes on
    step=${file##*/restart-}
    step=${step%.nc}
    [[ "$step" =~ ^[0-9]+$ ]] && [ "$step" -gt "$newest" ] && newest=$step
  done
  echo "$newest"
}
# Sleeps a random time from 0 to $1 ms.
sleep_up_to() {
  local ms=$((RANDOM % $1))
  sleep "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"
}

# Three kills in four land in the loop: once the run has written a restart of its own (so that it gets on), a
# random 0 to 0.15 s later; the fourth in start-up, 0 to 0.6 s after the start, where a continuation puts the
# checkpoints back and reopens the files.
seed=${HYDROCL_KILL_SEED:-$$}
RANDOM=$seed
kills=0 in_startup=0 failures=0 started=(--overwrite)
while [ "$kills" -lt 20 ]; do
  before=$(newest_step "$dir/killed")
  "$hydrocl" run "${args[@]}" -o "$dir/killed" "${started[@]}" 2>>"$dir/killed.err" &
  pid=$!
  if [ $((kills % 4)) -eq 3 ]; then
    sleep_up_to 600
  else
    for _ in $(seq 1 1200); do # up to a minute
      [ "$(newest_step "$dir/killed")" -gt "$before" ] || ! kill -0 "$pid" 2>/dev/null && break
      sleep 0.05
    done
    sleep_up_to 150
  fi
  kill -KILL "$pid" 2>/dev/null
  { wait "$pid"; } 2>/dev/null # not the shell's "Killed" line
  rc=$?
  [ "$rc" -eq 0 ] && break # the run reached its end before the kill
  if [ "$rc" -eq 137 ]; then
    kills=$((kills + 1))
    [ $((kills % 4)) -eq 0 ] && in_startup=$((in_startup + 1))
  else
    failures=$((failures + 1))
    echo "# a run exited $rc:" && tail -3 "$dir/killed.err" | sed 's/^/#   /'
  fi
  if [ "$(newest_step "$dir/killed")" -ge 0 ]; then
    started=(--restart latest)
  else
    started=(--overwrite) # killed before its first restart: nothing to continue from
  fi
done
echo "# seed $seed: $kills kills ($in_startup of them in start-up), the last at step $(newest_step "$dir/killed") of 600"
ok "no run between the kills failed (each was killed, or ran to its end)" equals "$failures" 0
if [ "$(newest_step "$dir/killed")" -lt 600 ]; then # else the last kill came after the end's restart: all written
  run_capture "$hydrocl" run "${args[@]}" -o "$dir/killed" "${started[@]}"
  ok "the last continuation runs to the end" equals "$rc" 0
fi
ok "the map file holds every frame of the run never killed, bit for bit" /usr/bin/python3 "$ncsame" \
  "$dir/whole/map.nc" "$dir/killed/map.nc" time zeta h u v wet zb zeta_max h_max speed_max t_wet
ok "so does the history file" /usr/bin/python3 "$ncsame" "$dir/whole/history.nc" "$dir/killed/history.nc" \
  time zeta h u v wet zb
newest=$(cd "$dir/killed" && ls restart-*.nc | sed 's/restart-\(.*\)\.nc/\1/' | sort -n | tail -1)
ok "the folder keeps the checkpoints of its newest restart only, and no temporary file" equals \
  "$(cd "$dir/killed" && ls -A | grep '^\.' | sort | tr '\n' ' ')" ".history.nc.$newest .map.nc.$newest "

# What a kill in the middle of an HDF5 metadata update can leave (issue 49, 3: "NetCDF: HDF error" reading zeta of
# history.nc, and --restart latest exited 74), made here for sure: files cut in half after the run stopped at 3 s.
# The continuation puts them back from the checkpoints of the restart at 3 s and goes on to 6 s with the frames of
# the run never killed.
cut=("${args[@]/time.end=60/time.end=3}")
run_capture "$hydrocl" run "${cut[@]}" -o "$dir/cut"
for name in map.nc history.nc; do
  truncate -s $(($(stat -c %s "$dir/cut/$name") / 2)) "$dir/cut/$name"
done
run_capture "$hydrocl" run "${cut[@]/time.end=3/time.end=6}" -o "$dir/cut" --restart latest
ok "files cut in half are put back from the newest restart's checkpoints and continued to 6 s" equals "$rc" 0
same_start() { # NAME VARIABLES...: the cut run's file NAME holds the first frames of the run never killed, bit for bit
  /usr/bin/python3 -c '
import sys, netCDF4, numpy
whole, cut = (netCDF4.Dataset(sys.argv[i] + "/" + sys.argv[3]) for i in (1, 2))
n = len(cut["time"])
assert cut["time"][-1] == 6, cut["time"][:]
for v in sys.argv[4:]:
    assert numpy.array_equal(whole[v][:n], cut[v][:]), v' "$dir/whole" "$dir/cut" "$@"
}
ok "the map file holds the frames of the run never killed up to 6 s" same_start map.nc time zeta h u v wet
ok "so does the history file" same_start history.nc time zeta h u v wet

# Names the checkpoints use, taken by links to a file outside the output folder: nothing is written through them.
echo outside >"$dir/outside"
ln -s "$dir/outside" "$dir/cut/.map.nc.tmp"     # where a continuation copies a checkpoint back
ln -s "$dir/outside" "$dir/cut/.map.nc.70.tmp"  # where the restart at 7 s copies the map file
ln -s "$dir/outside" "$dir/cut/.history.nc.70"  # where that copy of the history file goes
run_capture "$hydrocl" run "${cut[@]/time.end=3/time.end=8}" -o "$dir/cut" --restart latest
ok "links under the checkpoints' names do not stop a continuation" equals "$rc" 0
ok "the file they pointed at is as it was" equals "$(cat "$dir/outside")" outside
ok "and the links are gone with the checkpoints of the restart at 7 s" equals \
  "$(cd "$dir/cut" && ls -A | grep '^\.' | sort | tr '\n' ' ')" ".history.nc.80 .map.nc.80 "
# Without a checkpoint (the restart at 7 s is kept, but only the newest has them) a file that does not open cannot
# be put back: refused (65), saying what to do, instead of HDF5's "NetCDF: HDF error" (74).
truncate -s $(($(stat -c %s "$dir/cut/map.nc") / 2)) "$dir/cut/map.nc"
run_capture "$hydrocl" run "${cut[@]/time.end=3/time.end=8}" -o "$dir/cut" --restart "$dir/cut/restart-70.nc"
ok "a file that does not open, continued from a restart without checkpoints, is refused (65)" equals "$rc" 65
ok "saying to continue from the newest restart or start afresh" contains "$err" \
  "continue from the newest restart (--restart latest), or start afresh (--overwrite)"
tap_done
