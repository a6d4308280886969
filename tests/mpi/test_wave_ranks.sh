#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test_wave_ranks.sh: the wave model's final state (wave_final.c: uneven bed, generation and absorption zones, 6
# ERK4 steps of 4 solves) on 2 and 4 ranks (mixed; double on 2) equals the one-rank state within 1e-13 of its
# largest value, with the same number of solver iterations (ghosts are exchanged before every stencil, so only the
# order of the global sums differs: last bits), in double and in mixed precision; and mixed precision agrees with
# double to the solver tolerance: at rtol 1e-6 the two differ by no more than twice what double itself moves between
# rtol 1e-6 and 1e-8 (the error the tolerance admits). The same on curvilinear grids (wave_final's skewed rectangle
# on 4 ranks, and its O-grid with a generation ring, split across its periodic angle on 2 and 4; mixed).
# Usage: test_wave_ranks.sh MPIRUN WAVE_FINAL
set -u
mpirun=$1
driver=$2
. "$(dirname "$0")/../support/tap.sh"
dir=$(mktemp -d)
. "$(dirname "$0")/../support/rank_cache.sh"
rank_cache_init "$dir/pocl"
points=$((33 * 25 + 1)) # wave_final's grid, and its iterations line
trap 'rm -rf "$dir"' EXIT

# largest |A - B| over the eta lines of two outputs, and the largest |A|
difference() {
  paste "$1" "$2" | awk '$1 != "iterations" { d = $1 - $2; if (d < 0) d = -d; if (d > m) m = d;
    a = $1 < 0 ? -$1 : $1; if (a > big) big = a } END { printf "%.3e %.3e\n", m, big }'
}
# complete FILE: a whole output, every point's eta and the iterations (a failed run leaves less)
complete() {
  [ "$(grep -c . "$1")" = "$points" ] && tail -1 "$1" | grep -q '^iterations [0-9]'
}
# within A B FACTOR: both complete, max |A - B| <= FACTOR max |A|, and the same iterations
within() {
  complete "$1" && complete "$2" || return 1
  read -r d big < <(difference "$1" "$2")
  echo "# max difference $d, largest eta $big"
  awk -v d="$d" -v big="$big" -v f="$3" 'BEGIN { exit !(d <= f * big) }' && [ "$(tail -1 "$1")" = "$(tail -1 "$2")" ]
}

run() { # PRECISION RTOL RANKS [skewed] -> $dir/PRECISION-RTOL-RANKS[-skewed]
  run_capture ranks_run $3 "$driver" "$1" "$2" ${4:-}
  ok "$1 at rtol $2 on $3 ranks ${4:-} runs" equals "$rc" 0
  printf '%s\n' "$out" >"$dir/$1-$2-$3${4:+-$4}"
}

# A first run on N ranks compiles PoCL's kernels for each rank's work-group sizes: a 4-rank run takes most of
# the time, so the four ranks (2 x 2: every side and corner exchanged) run mixed, and double runs on 2.
for precision in double mixed; do
  ranks="2 4"
  [ "$precision" = double ] && ranks=2
  for n in 1 $ranks; do
    run "$precision" 1e-8 "$n"
  done
  for n in $ranks; do
    ok "$precision: $n ranks give the one-rank state ($(tail -1 "$dir/$precision-1e-8-1"))" \
      within "$dir/$precision-1e-8-1" "$dir/$precision-1e-8-$n" 1e-13
  done
done
# The skewed grid on 4 ranks; the O-grid on 2 as well (2 x 1: each rank is its own neighbour across the periodic
# angle; on 4, 2 x 2, the other rank in angle is both).
for grid in skewed polar; do
  ranks="2 4"
  [ "$grid" = skewed ] && ranks=4
  for n in 1 $ranks; do
    run mixed 1e-8 "$n" "$grid"
  done
  for n in $ranks; do
    ok "$grid grid: $n ranks give the one-rank state ($(tail -1 "$dir/mixed-1e-8-1-$grid"))" \
      within "$dir/mixed-1e-8-1-$grid" "$dir/mixed-1e-8-$n-$grid" 1e-13
  done
done
# The exchanges overlapped with work (halo.h) give the bits of exchanging first (HYDROCL_OVERLAP_CELLS=1e300; the
# suite runs with 0: every exchange that can be overlapped is): every kernel that runs while ghosts travel reads none
# of them. %.17g prints every bit of a double.
HYDROCL_OVERLAP_CELLS=1e300 run_capture ranks_run 4 "$driver" mixed 1e-8
ok "mixed on 4 ranks without overlap runs" equals "$rc" 0
ok "and ends in the bits of the overlapped run" equals "$out" "$(cat "$dir/mixed-1e-8-4")"
run double 1e-6 1
run mixed 1e-6 1
read -r admitted big < <(difference "$dir/double-1e-6-1" "$dir/double-1e-8-1")
read -r mixed_gap big < <(difference "$dir/mixed-1e-6-1" "$dir/double-1e-6-1")
agrees() {
  complete "$dir/double-1e-6-1" && complete "$dir/double-1e-8-1" && complete "$dir/mixed-1e-6-1" &&
    awk -v m="$mixed_gap" -v a="$admitted" 'BEGIN { exit !(m <= 2 * a + 1e-16 && a > 0) }'
}
ok "mixed agrees with double to the solver tolerance: $mixed_gap against $admitted admitted at rtol 1e-6" agrees
tap_done
