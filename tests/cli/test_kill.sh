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
  (ls "$1" 2>/dev/null | sed -n 's/^restart-\([0-9]*\)\.nc$/\1/p'; echo -1) | sort -n | tail -1
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
    for _ in $(seq 1 3000); do # up to a minute
      [ "$(newest_step "$dir/killed")" -gt "$before" ] || ! kill -0 "$pid" 2>/dev/null && break
      sleep 0.02
    done
    sleep_up_to 150
  fi
  kill -KILL "$pid" 2>/dev/null
  wait "$pid"
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
tap_done
