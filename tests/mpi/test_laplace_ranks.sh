#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test_laplace_ranks.sh: the potential-flow Laplace solver's residual history on 2 and 4 ranks equals the one-rank
# history within 1e-12 relative (fnpf-multigpu-scalability section 5: ghosts exchanged before every operator
# application and between the zebra half-sweeps, so convergence does not depend on the subdomains; what differs is
# the order of the global sums, some 1e-16), by defect correction, on the manufactured problem of laplace_history.c
# (33 x 25 x 9 between walls: uneven blocks, the walls and the multigrid's coarse levels split). GMRES builds its
# basis from those sums, and their last-bit differences grow in it as the residual falls (to 1e-7 relative at 1e-8
# of the start): its histories agree within 1e-12 of the initial residual, with the same number of iterations.
# Curvilinear grids (mapping.h) the same way: the skewed rectangle, and an O-grid split across its periodic angle.
# Usage: test_laplace_ranks.sh MPIRUN LAPLACE_HISTORY
set -u
mpirun=$1
driver=$2
. "$(dirname "$0")/../support/tap.sh"
dir=$(mktemp -d)
. "$(dirname "$0")/../support/rank_cache.sh"
rank_cache_init "$dir/pocl"
trap 'rm -rf "$dir"' EXIT

# same_history A B SCALE: equal lengths, every value within 1e-12 of itself (SCALE each) or of the first (first)
same_history() {
  paste "$1" "$2" | awk -v scale="$3" '{ n++; if (n == 1) first = $1; d = $1 - $2; if (d < 0) d = -d;
    s = scale == "first" ? first : $1; if (d > 1e-12 * s) { bad = 1; print "# iteration " n - 1 ": " $1 " against " $2 } }
    END { exit (bad || n < 3) }' && [ "$(wc -l <"$1")" = "$(wc -l <"$2")" ]
}

for method in dc gmres skewed polar; do
  scale=each
  [ "$method" = gmres ] && scale=first
  ranks="2 4" # the skewed grid on 4 ranks alone (2 x 2: every side and corner split); a 4-rank run costs the most
  [ "$method" = skewed ] && ranks=4
  for n in 1 $ranks; do
    run_capture ranks_run $n "$driver" "$method"
    ok "$method on $n ranks converges" equals "$rc" 0
    printf '%s\n' "$out" >"$dir/$method-$n"
  done
  for n in $ranks; do
    ok "$method: the history on $n ranks is the one-rank history ($(wc -l <"$dir/$method-1") residuals)" \
      same_history "$dir/$method-1" "$dir/$method-$n" "$scale"
  done
done
# The exchanges overlapped with the operator's and the V-cycle's sweeps (halo.h; the suite runs with
# HYDROCL_OVERLAP_CELLS=0: every exchange that can be overlapped is) give the bits of exchanging first.
HYDROCL_OVERLAP_CELLS=1e300 run_capture ranks_run 4 "$driver" dc
ok "dc on 4 ranks without overlap converges" equals "$rc" 0
ok "with the bits of the overlapped history" equals "$out" "$(cat "$dir/dc-4")"
# The V-cycle's split levels exchange rhs once a visit over wide ghosts and compute the rest of their ghosts (mg.c:
# plan_wide); the plain cycle exchanges before each half-sweep: the same arithmetic, so the same bits. Gathering the
# levels of at most 100 columns keeps two levels split on 4 ranks (33 x 25 and 17 x 13; the default gathers the
# second), so the wide cycle's prolongation from a split level and its exchange-free coarse ghosts are exercised.
HYDROCL_MG_GATHER_COLUMNS=100 run_capture ranks_run 4 "$driver" dc
ok "dc on 4 ranks with two split levels converges" equals "$rc" 0
printf '%s\n' "$out" >"$dir/dc-4-split"
ok "with the one-rank history" same_history "$dir/dc-1" "$dir/dc-4-split" each
HYDROCL_MG_WIDE=0 HYDROCL_MG_GATHER_COLUMNS=100 run_capture ranks_run 4 "$driver" dc
ok "and the plain cycle's bits" equals "$out" "$(cat "$dir/dc-4-split")"
tap_done
