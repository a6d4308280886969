#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test_vbm_ranks.sh: the variational Boussinesq model's harbour case (land from a mask, a ship on waypoints, sponges on
# three sides) on 1, 2 and 3 ranks ends in the same fields to the psi solves' tolerance: the ranks change who computes
# a cell, never what it computes, except CG's sums and the preconditioner (the default: RRB on one rank, the
# multigrid on several), so the fields differ by what the solves leave, not more. Tight solves (rtol 1e-10, double) leave 6e-11 of the largest elevation (measured on 3
# ranks); the bound 1e-8 keeps a margin, and a rank that got its land, its sponge or its share of the ship's hull
# wrong would differ by the waves themselves (1e-1).
# Usage: test_vbm_ranks.sh MPIRUN HYDROCL SOURCE_ROOT
set -u
mpirun=$1
hydrocl=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
root=$(cd "$3" && pwd)
. "$(dirname "$0")/../support/tap.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$(dirname "$0")/../support/rank_cache.sh"
rank_cache_for_hydrocl "$dir/tmp"

# 40 s: the ship is 240 m along its first leg, its waves reach the island and the breakwaters.
harbour=(--set time.end=40 --set output.interval=20 --set solver.rtol=1e-10 --set output.double=true)
for n in 1 2 3; do
  run_capture timeout 600 "$mpirun" -n "$n" "$hydrocl" run "$root/cases/harbour.yml" "${harbour[@]}" \
    --precision double -o "$dir/harbour-$n" -q
  ok "the harbour on $n ranks exits 0" equals "$rc" 0
done
for n in 2 3; do
  ok "$n ranks give the fields of 1 rank to the solves' tolerance" /usr/bin/python3 "$root/tests/cli/ncsame.py" \
    --tolerance 1e-8 "$dir/harbour-1/restart-200.nc" "$dir/harbour-$n/restart-200.nc" zeta_even phi_even zeta_odd \
    phi_odd
  ok "and the map's maxima" /usr/bin/python3 "$root/tests/cli/ncsame.py" --tolerance 1e-8 "$dir/harbour-1/map.nc" \
    "$dir/harbour-$n/map.nc" zeta zeta_max zeta_min depth
done
tap_done
