# SPDX-License-Identifier: BSD-3-Clause
# run_checks.sh: what the tests of `hydrocl run` share (sourced after tap.sh; they set $hydrocl and $dir).

# bad_input DESCRIPTION EXPECTED-TEXT ARGS...: `hydrocl run ARGS -o $dir/bad` exits 65 with EXPECTED-TEXT in its
# message and creates no output.
bad_input() {
  local description=$1 expected=$2
  shift 2
  run_capture "$hydrocl" run "$@" -o "$dir/bad"
  ok "$description: exit 65" equals "$rc" 65
  ok "$description: the message says '$expected'" contains "$err" "$expected"
  ok "$description: no output created" test ! -e "$dir/bad"
}

# wait_for_frames MAP_FILE: waits (up to a minute) until a running run's map file holds two frames, so that the run
# is well into its loop. HDF5 locks a file its writer holds open; a reader that only looks must say so.
wait_for_frames() {
  for _ in $(seq 1 600); do
    [ -s "$1" ] && HDF5_USE_FILE_LOCKING=FALSE /usr/bin/python3 -c '
import sys, netCDF4
sys.exit(0 if len(netCDF4.Dataset(sys.argv[1]).dimensions["time"]) >= 2 else 1)' "$1" 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}

# stop_unchecked NAME SIGNAL-TARGET LAUNCH...: starts LAUNCH (a run with progress lines, output.progress) in the
# background with its stderr in $dir/NAME.err, waits (up to a minute) for its first progress line, sends SIGTERM to
# the process that SIGNAL-TARGET names ("self": the launched one; "child": its last child, one rank under mpirun)
# and sets $rc to its exit status and $waited to the tenths of a second it ran on; one still running after 30 s is
# killed (rc 137).
stop_unchecked() {
  local name=$1 target=$2 pid victim
  shift 2
  "$@" 2>"$dir/$name.err" &
  pid=$!
  for _ in $(seq 1 600); do
    grep -q "progress t=" "$dir/$name.err" 2>/dev/null && break
    sleep 0.1
  done
  victim=$pid
  if [ "$target" = child ]; then
    victim=$(pgrep -P "$pid" | tail -1)
  fi
  kill -TERM "$victim"
  for waited in $(seq 1 300); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
  wait "$pid"
  rc=$?
}
