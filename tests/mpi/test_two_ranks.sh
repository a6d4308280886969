#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test_two_ranks.sh: hydrocl under mpirun -n 2: each rank takes a device, rank 0 prints the rank -> host -> device
# table, both ranks benchmark; a failure on the ranks is agreed and reported without a hang.
# Usage: test_two_ranks.sh MPIRUN HYDROCL
set -u
mpirun=$1
hydrocl=$2
. "$(dirname "$0")/../support/tap.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$(dirname "$0")/../support/rank_cache.sh"
rank_cache_for_hydrocl "$dir"

run_capture timeout 300 "$mpirun" -n 2 "$hydrocl" bench bandwidth --size 64K --precision single
ok "mpirun -n 2 bench bandwidth exits 0" equals "$rc" 0
ok "rank 0 prints the rank table" contains "$err" "rank  host"
ok "the table has a row for rank 1" python3 -c '
import sys
rows = [l.split(":", 1)[1].split() for l in sys.argv[1].splitlines() if l.startswith("hydrocl")]
assert any(r and r[0] == "1" for r in rows), rows' "$err"
ok "both ranks print results" python3 -c '
import json, sys
ranks = {json.loads(l)["rank"] for l in sys.argv[1].splitlines() if l.strip()}
assert ranks == {0, 1}, ranks' "$out"

run_capture timeout 300 "$mpirun" -n 2 "$hydrocl" bench halo --size 65 --precision single
ok "mpirun -n 2 bench halo exits 0" equals "$rc" 0
ok "the halo benchmark sends messages between the two ranks" python3 -c '
import json, sys
r = {json.loads(l)["name"]: json.loads(l) for l in sys.argv[1].splitlines() if l.strip()}
assert r["exchange"]["ranks"] == 2 and r["exchange"]["message_bytes"] > 0, r' "$out"
ok "and times the exchange alone, a Laplace sweep alone and the sweep with the exchange behind it" python3 -c '
import json, sys
r = [json.loads(l) for l in sys.argv[1].splitlines() if l.strip()]
h = [x for x in r if x["name"] == "hidden"]
assert len(h) == 1 and h[0]["ranks"] == 2, r
h = h[0]
assert 0 < h["sweep_seconds"] and 0 < h["exchange_seconds"] and 0 < h["both_seconds"], h
assert abs(h["visible_fraction"] - (h["both_seconds"] - h["sweep_seconds"]) / h["exchange_seconds"]) < 1e-6, h' "$out"

# bench scaling's weak runs double the grid in x: 33 points per rank are 65 x 33 on a 2 x 1 process grid (cells and
# interior points: 66 x 33); strong runs keep 33 x 33. Every part reports, once, from rank 0, with its reductions
# and exchanges between the ranks per iteration.
run_capture timeout 300 "$mpirun" -n 2 "$hydrocl" bench scaling --size 33
ok "mpirun -n 2 bench scaling exits 0" equals "$rc" 0
ok "its weak grids are 2 x 1 blocks of the size per rank, its strong grids the size itself" python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.argv[1].splitlines() if l.strip()]
# the reduction latency the performance model takes: one line, a positive time
collective = [r for r in rows if r["name"] == "collective"]
assert len(collective) == 1 and collective[0]["part"] == "allreduce" and collective[0]["seconds"] > 0, collective
rows = [r for r in rows if r["name"] != "collective"]
parts = [(r["name"], r["part"]) for r in rows]
assert sorted(parts) == sorted([("weak", "dc_iteration"), ("weak", "wave_step"), ("weak", "swe_step"),
    ("weak", "swe_implicit_step"), ("weak", "swe_implicit_mg_step"),
    ("weak", "rrb_solve"), ("weak", "rrb_pipecg"), ("weak", "mg_solve"), ("weak", "mg_pipecg"),
    ("strong", "dc_iteration"), ("strong", "swe_step")]), parts
for r in rows:
    assert r["rank"] == 0 and r["ranks"] == 2 and r["seconds"] > 0 and r["bytes"] > 0, r
    if r["name"] == "weak":
        width = 65 if r["part"] in ("dc_iteration", "wave_step") else 66
        assert (r["px"], r["py"], r["nx"], r["ny"]) == (2, 1, width, 33), r
    else:
        assert (r["nx"], r["ny"]) == (33, 33), r
# Pipelined CG: one reduction between the ranks an iteration, CG two (and each a few outside the iterations).
per = {r["part"]: r["reductions_per_iteration"] for r in rows if "reductions_per_iteration" in r}
assert per["rrb_pipecg"] < per["rrb_solve"] and per["mg_pipecg"] < per["mg_solve"], per
# The defect-correction iteration: its operator exchange, one exchange a split level of the V-cycle (mg.c:
# plan_wide) and the gather of the coarse ones, at most 8 (the plain cycle exchanged about 40 times).
for r in rows:
    if r["part"] == "dc_iteration":
        assert 2 <= r["exchanges_per_iteration"] <= 8, r' "$out"

# The RRB-preconditioned solve on two ranks (255^2 has more nodes than the gathered coarse grid's 16384, so one level
# is distributed) takes the one-rank iterations: the preconditioner is the same M (rrb_dist.h).
run_capture timeout 300 "$hydrocl" solve-poisson --n 255 --norm m
one_rank=$(grep '^iterations' <<<"$out")
run_capture timeout 300 "$mpirun" -n 2 "$hydrocl" solve-poisson --n 255 --norm m
ok "solve-poisson with RRB on two ranks exits 0" equals "$rc" 0
ok "and takes the one rank's iterations ($one_rank)" equals "$(grep '^iterations' <<<"$out")" "$one_rank"

# The 5-point multigrid on two ranks, gathering from 4096 points (the default, 65536, would split only the finest
# level at this size): the levels of more than 4096 points split (255^2, 127 x 255, 127^2, 63 x 127),
# communication-avoiding (mg5.c: plan_wide; ghosts 3 on the finest, relaxed, level, then keep + 3 as the
# prolongations read 2, 2, 4 ghosts of x), the rest gathered onto every rank, as many as on one rank, and the one
# rank's iterations.
run_capture timeout 300 "$hydrocl" -v solve-poisson --n 255 --preconditioner mg
one_rank=$(grep '^iterations' <<<"$out")
run_capture timeout 300 env HYDROCL_MG_GATHER_POINTS=4096 "$mpirun" -n 2 "$hydrocl" -v solve-poisson --n 255 \
  --preconditioner mg
ok "solve-poisson with the multigrid on two ranks exits 0" equals "$rc" 0
ok "its levels: 4 split, ghosts 3 5 5 7, 11 gathered onto every rank" \
  contains "$err" "15 levels, 4 split over the ranks (communication-avoiding, ghosts 3 5 5 7), 11 gathered"
ok "and it takes the one rank's iterations ($one_rank)" equals "$(grep '^iterations' <<<"$out")" "$one_rank"

run_capture timeout 300 "$mpirun" -n 2 "$hydrocl" --device no-such-device bench bandwidth
ok "a bad --device on two ranks exits 64, no hang" equals "$rc" 64

# A failure on one rank only, through MPMD app contexts: rank 1 alone gets a device string that matches nothing
# (HYDROCL_DEVICE), then rank 0 alone (--device). Each rank's wrapper prints the rank's exit status and exits 0, so
# mpirun cannot abort one rank for the other's status before it reports: both must report 64, and timeout's 124
# would mean a hang.
report='"$@"; echo "rank $HCL_TEST_RANK exit $?"'
bench=(bench bandwidth --size 64K --precision single)
run_capture timeout 120 "$mpirun" -n 1 env HCL_TEST_RANK=0 sh -c "$report" sh "$hydrocl" "${bench[@]}" \
  : -n 1 env HCL_TEST_RANK=1 HYDROCL_DEVICE=no-such-device sh -c "$report" sh "$hydrocl" "${bench[@]}"
ok "a bad HYDROCL_DEVICE on rank 1 alone ends both ranks, no hang" equals "$rc" 0
ok "both ranks exit with 64" eval 'contains "$out" "rank 0 exit 64" && contains "$out" "rank 1 exit 64"'
ok "rank 0 reports rank 1's reason" contains "$err" "rank 1 failed: no device matches --device 'no-such-device'"
run_capture timeout 120 "$mpirun" -n 1 env HCL_TEST_RANK=0 sh -c "$report" sh "$hydrocl" --device no-such-device \
  "${bench[@]}" : -n 1 env HCL_TEST_RANK=1 sh -c "$report" sh "$hydrocl" "${bench[@]}"
ok "a bad --device on rank 0 alone ends both ranks, no hang" equals "$rc" 0
ok "both ranks exit with 64 again" eval 'contains "$out" "rank 0 exit 64" && contains "$out" "rank 1 exit 64"'

# A check that fails on one rank only (rank 2 of 3 owns 2 rows, fewer than the ghost width 3) must reach the others
# before any collective: every rank exits 65 with the reason instead of hanging.
run_capture timeout 120 "$mpirun" -n 3 "$hydrocl" bench halo --size 8
ok "a failure on rank 2 alone exits 65 on three ranks, no hang" equals "$rc" 65
ok "the other ranks report rank 2's reason" contains "$err" "rank 2 failed: rank 2 owns 8 x 2 points"

tap_done
