#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# outputs.sh: every case in cases/, shortened, and a few variants that reach more of the run's machinery (the
# maxima, the implicit scheme, mixed precision) run, and the files each writes (map, history, kinematics and
# restart files) hold the same bits as recorded in tests/cases/outputs.sha256: a change that should not touch the
# numbers or the files' metadata (a refactoring) proves it here. The hashes cover every variable's bits and every
# attribute but the build's and the moment's (nchash.py). Bits depend on the device's arithmetic: a run on another
# device than the one recorded is skipped, saying so.
# Usage: outputs.sh HYDROCL SOURCE_ROOT [--write]: --write records this build's hashes instead (after a change that
# is meant to change the numbers, saying why in the commit).
set -u
hydrocl=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$2" && pwd)
write=${3:-}
record=$root/tests/cases/outputs.sha256
. "$root/tests/support/tap.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# LABEL CASE ARGS...: each a few steps, with at least two map frames and one restart.
runs=(
  "channel-tide channel-tide --set time.end=900 --set output.interval=450 --set restart.interval=450"
  "cylinder-kriebel cylinder-kriebel --set time.end=0.2 --set output.interval=0.1 --set restart.interval=0.1"
  "cylinder-linear cylinder-linear --set time.end=0.2 --set output.interval=0.1 --set restart.interval=0.1"
  "dam-break-dry dam-break-dry --set time.end=2 --set output.interval=1 --set restart.interval=1"
  "dam-break-wet dam-break-wet --set time.end=2 --set output.interval=1 --set restart.interval=1"
  "drop-island drop-island --set time.end=4 --set output.interval=2 --set restart.interval=2"
  "drop-island-maxima drop-island --set time.end=4 --set output.interval=2 --set restart.interval=2
   --set output.maxima=true"
  "fairway-ais fairway-ais --set time.end=2 --set output.interval=1 --set restart.interval=1"
  "gaussian-hump gaussian-hump --set time.end=0.2 --set output.interval=0.1 --set restart.interval=0.1"
  "harbour harbour --set time.end=10 --set output.interval=5 --set restart.interval=5"
  "lake-at-rest lake-at-rest --set time.end=20 --set output.interval=10 --set restart.interval=10"
  "mapped-basin mapped-basin --set time.end=0.2407472 --set output.interval=0.1203736 --set restart.interval=0.1203736"
  "polder-breach polder-breach --set time.end=600 --set output.interval=300 --set restart.interval=300
   --set rain.rate=20"
  "ship-kelvin ship-kelvin --set time.end=2 --set output.interval=1 --set restart.interval=1"
  "ship-kelvin-maxima ship-kelvin --set time.end=2 --set output.interval=1 --set restart.interval=1
   --set output.maxima=true"
  "standing-wave standing-wave --set time.end=0.2407472 --set output.interval=0.1203736
   --set restart.interval=0.1203736"
  "standing-wave-mixed standing-wave --set time.end=0.2407472 --set output.interval=0.1203736
   --set restart.interval=0.1203736 --precision mixed"
  "stream-tank stream-tank --set time.end=0.75 --set output.interval=0.375 --set restart.interval=0.375"
  "submerged-bar submerged-bar --set time.end=0.804 --set output.interval=0.402 --set restart.interval=0.402"
  "thacker thacker --set time.end=0.5 --set output.interval=0.25 --set restart.interval=0.25"
  "tidal-flat tidal-flat --set time.end=3600 --set output.interval=1800 --set restart.interval=1800"
  "tidal-flat-implicit tidal-flat --set time.end=900 --set output.interval=450 --set restart.interval=450
   --set time.scheme=implicit --set output.maxima=true"
  "whalin whalin --set time.end=0.8 --set output.interval=0.4 --set restart.interval=0.4"
)

listed=$(printf '%s\n' "${runs[@]}" | awk 'NF > 1 && $1 !~ /^--/ {print $2}' | sort -u)
shipped=$(cd "$root/cases" && ls -- *.yml | sed 's/\.yml$//')
ok "every case in cases/ is among the runs" equals "$(comm -13 <(echo "$listed") <(echo "$shipped"))" ""

hashes=$dir/hashes
: >"$hashes"
for run in "${runs[@]}"; do
  read -r -a words <<<"$(tr '\n' ' ' <<<"$run")"
  label=${words[0]} name=${words[1]}
  run_capture "$hydrocl" run "$root/cases/$name.yml" "${words[@]:2}" -o "$dir/$label" -q
  ok "cases/$name.yml ($label) runs" equals "$rc" 0
  /usr/bin/python3 "$root/tests/cases/nchash.py" "$dir/$label" | sed "s/^/$label /" >>"$hashes"
done

if [ "$write" = --write ]; then
  {
    echo "# tests/cases/outputs.sh: the hashes of every file each run writes (nchash.py), LABEL FILE SHA256, and"
    echo "# the device they were made on. Written by 'outputs.sh HYDROCL ROOT --write'."
    cat "$hashes"
  } >"$record"
  echo "# recorded $(grep -vc -e '^#' -e ' device: ' "$record") hashes in $record"
fi

for run in "${runs[@]}"; do
  label=${run%% *}
  recorded=$(grep "^$label device: " "$record" | sed "s/^$label device: //")
  device=$(grep "^$label device: " "$hashes" | sed "s/^$label device: //")
  if [ "$recorded" != "$device" ]; then
    tap_count=$((tap_count + 1))
    echo "ok $tap_count - $label's files hold the recorded bits # SKIP recorded on '$recorded', this run's device is '$device'"
    continue
  fi
  ok "$label's files hold the recorded bits" diff <(grep "^$label " "$record") <(grep "^$label " "$hashes")
done
tap_done
