#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test_cases.sh: every case in cases/ runs with `hydrocl run cases/NAME.yml` as shipped, and the verification cases
# match their exact solutions (tests/cli/analytic.py: lake at rest, also with a dry island; Ritter and Stoker dam
# breaks; Thacker's planar surface; a linear tide in a closed channel). The two thesis cases run a shortened span
# here (their full runs are the demo's and the user's); each verification case runs in full.
# Usage: test_cases.sh HYDROCL SOURCE_ROOT
set -u
hydrocl=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$2" && pwd)
. "$(dirname "$0")/../support/tap.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

for name in drop-island tidal-flat; do
  run_capture "$hydrocl" run "$root/cases/$name.yml" --set time.end=60 -o "$dir/$name" -q
  ok "cases/$name.yml runs (its first minute) and writes a map file" test "$rc" = 0 -a -s "$dir/$name/map.nc"
done

verify() { # NAME [ARG]: runs cases/NAME.yml, then compares it with its exact solution
  local name=$1 out_dir="$dir/$1${2:+-$2}"
  shift
  run_capture "$hydrocl" run "$root/cases/$name.yml" -o "$out_dir" -q ${1:+--set bed.height=1.2}
  ok "cases/$name.yml${1:+ with a dry island} runs" equals "$rc" 0
  run_capture /usr/bin/python3 "$root/tests/cli/analytic.py" "$name" "$out_dir/map.nc" "$@"
  printf '%s\n' "$out" | sed 's/^/# /'
  ok "cases/$name.yml${1:+ with a dry island} matches its exact solution" equals "$rc" 0
}
verify lake-at-rest
verify lake-at-rest island
verify dam-break-dry
verify dam-break-wet
verify thacker
verify channel-tide
tap_done
