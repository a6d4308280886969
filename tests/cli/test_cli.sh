#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test_cli.sh: the hydrocl command as a user meets it: device table and JSON, the bandwidth and launch benchmarks'
# JSON lines, --profile, and each kind of bad input with its message and exit status.
# Usage: test_cli.sh HYDROCL KERNELS_CL_DIR
set -u
hydrocl=$1
kernels_cl=$2
. "$(dirname "$0")/../support/tap.sh"
json_lines_ok() { # every stdout line is a JSON object with the bench fields; prints nothing
  printf '%s\n' "$out" | python3 -c '
import json, sys
rows = [json.loads(line) for line in sys.stdin if line.strip()]
need = {"bench", "name", "device", "device_id", "precision", "size", "seconds", "gbs", "fraction_of_copy"}
assert rows and all(need <= set(r) for r in rows), rows
assert {r["name"] for r in rows} == {"copy", "triad"}
assert all(r["gbs"] > 0 and r["seconds"] > 0 for r in rows)
assert all(abs(r["fraction_of_copy"] - 1) < 1e-12 for r in rows if r["name"] == "copy")
'
}

run_capture "$hydrocl" info
ok "info exits 0" equals "$rc" 0
ok "info prints the device table header" contains "$out" "max-alloc"
starred=$(printf '%s\n' "$out" | sed -nE 's/^\* +([0-9]+:[0-9]+) .*/\1/p')
ok "info stars exactly one device row" equals "$(printf '%s' "$starred" | grep -c .)" 1

run_capture "$hydrocl" info --json
ok "info --json exits 0" equals "$rc" 0
ok "info --json is a JSON list with one selected device" python3 -c '
import json, sys
devices = json.loads(sys.argv[1])
assert sum(d["selected"] for d in devices) == 1
assert all(":" in d["device"] and d["global_mem_bytes"] > 0 for d in devices)
# what each device offers that could remove launches (issue 30, 4): OpenCL version, sub-groups, command buffers
assert all(d["opencl_version"].startswith("OpenCL ") for d in devices), devices
assert all(type(d["subgroups"]) is bool and type(d["command_buffer"]) is bool and type(d["device_enqueue"]) is bool for d in devices), devices' "$out"
first=$(printf '%s' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["device"])')
selected=$(printf '%s' "$out" | python3 -c 'import json,sys; print(*[d["device"] for d in json.load(sys.stdin) if d["selected"]])')
ok "the starred row is the device info --json selects" equals "$starred" "$selected"

run_capture "$hydrocl" --device "$first" info
ok "the P:D string info prints is accepted by --device" equals "$rc" 0

run_capture "$hydrocl" --device no-such-device info
ok "an unknown --device string exits 64" equals "$rc" 64
ok "and says which string matched nothing" contains "$err" "no device matches --device 'no-such-device'"
run_capture env HYDROCL_DEVICE=99:0 "$hydrocl" info
ok "HYDROCL_DEVICE with a bad index exits 64" equals "$rc" 64

run_capture "$hydrocl" bench bandwidth --size 64K --precision single
ok "bench bandwidth exits 0" equals "$rc" 0
ok "bench bandwidth prints copy and triad JSON lines" json_lines_ok

run_capture "$hydrocl" bench bandwidth --size 16K --precision single --profile
ok "--profile exits 0" equals "$rc" 0
ok "--profile prints per-kernel time and GB/s on stderr" contains "$err" "GB/s"
ok "--profile lists the copy kernel" contains "$err" "copy "

run_capture "$hydrocl" bench launch --size 1K --precision single
ok "bench launch exits 0" equals "$rc" 0
ok "bench launch times a launch, a read-back and RRB-CG's launch pattern" python3 -c '
import json, sys
lines = [json.loads(l) for l in sys.argv[1].splitlines()]
assert [r["name"] for r in lines] == ["enqueue", "chain", "read_back", "rrb_cg_iteration"], lines
assert [(r["launches"], r["read_backs"]) for r in lines] == [(1, 0), (1, 0), (1, 1), (20, 2)], lines
assert all(r["bench"] == "launch" and r["size"] == 1024 and r["seconds"] > 0 for r in lines), lines' "$out"
run_capture "$hydrocl" bench launch --size 100M
ok "bench launch refuses a size beyond 2^26 with exit 64" equals "$rc" 64

run_capture "$hydrocl" bench rrb --size 64 --precision single
ok "bench rrb exits 0" equals "$rc" 0
# Issue 30: a solver benchmark counts its launches and waits. A CG iteration launches at least the operator, the
# preconditioner and a vector update, and the host waits at least for the convergence check's norm now and then.
ok "bench rrb's solves report launches and waits per iteration" python3 -c '
import json, sys
rows = [r for r in map(json.loads, sys.argv[1].splitlines()) if r["name"] == "solve"]
assert len(rows) == 2, rows
for r in rows:
    assert r["launches_per_iteration"] >= 3 and 0 < r["waits_per_iteration"] < r["launches_per_iteration"], r' "$out"
# Issue 25: the Poisson problem by hydrocl's four CG solvers and, where the build has hypre, its PFMG- and SMG-PCG,
# each to ||r||_2 <= 1e-5 ||b||_2: every true residual within it, every error the discretization's (3.4e-6 at 64^2,
# the criterion's slack adds a little), the multigrid in fewer iterations than RRB.
run_capture "$hydrocl" bench poisson-peers --size 64
ok "bench poisson-peers exits 0" equals "$rc" 0
ok "bench poisson-peers solves to the same accuracy, with hypre or saying it is skipped" python3 -c '
import json, sys
rows = {r["name"]: r for r in map(json.loads, sys.argv[1].splitlines())}
ours = {"hydrocl_rrb_cg", "hydrocl_rrb_cg_mixed", "hydrocl_mg_cg", "hydrocl_mg_cg_mixed"}
hypre = {"hypre_pfmg_pcg", "hypre_smg_pcg"}
assert set(rows) in (ours, ours | hypre), rows.keys()
assert set(rows) == ours | hypre or "hypre skipped" in sys.argv[2], sys.argv[2]
for r in rows.values():
    assert r["size"] == 64 and r["true_relative_residual"] <= 1e-5 and r["max_error"] < 4e-6, r
    assert r["seconds"] > 0 and r["setup_s"] >= 0, r
assert rows["hydrocl_mg_cg"]["iterations"] < rows["hydrocl_rrb_cg"]["iterations"], rows' "$out" "$err"

run_capture "$hydrocl" bench halo --size 33 --precision single
ok "bench halo exits 0" equals "$rc" 0
ok "bench halo prints its bandwidth against the copy rate, and the exchange behind a Laplace sweep" python3 -c '
import json, sys
rows = {json.loads(line)["name"]: json.loads(line) for line in sys.argv[1].splitlines()}
assert sorted(rows) == ["exchange", "hidden"], rows
r = rows["exchange"]
assert r["bench"] == "halo" and r["size"] == 33 and r["gbs"] > 0 and 0 < r["fraction_of_copy"], r
h = rows["hidden"]
assert h["size"] == 33 and min(h["sweep_seconds"], h["exchange_seconds"], h["both_seconds"]) > 0, h' "$out"

run_capture "$hydrocl" bench swe --size 24 --precision single
ok "bench swe exits 0" equals "$rc" 0
ok "bench swe reports both orderings with cell-updates/s, the bytes moved and the one-pass bound" python3 -c '
import json, sys
rows = [json.loads(line) for line in sys.argv[1].splitlines()]
assert sorted(r["ordering"] for r in rows) == ["hansen", "sielecki"], rows
for r in rows: # float: 7 REALs a step must move, 15 in the three kernels of CPUs (PoCL here)
    assert r["bench"] == "swe" and r["size"] == 24 and r["steps"] == 1000
    assert r["one_pass_bytes_per_cell_update"] == 28, r
    assert (r["step"], r["bytes_per_cell_update"]) in (("one_kernel", 28), ("three_kernels", 60)), r
    assert 0 < r["one_pass_fraction_of_copy"] <= r["fraction_of_copy"], r
    assert r["one_pass_bound_cell_updates_per_s"] > r["cell_updates_per_s"] > 0, r' "$out"

run_capture "$hydrocl" bench wave --size 65 --precision single
ok "bench wave exits 0" equals "$rc" 0
ok "bench wave splits the step and reports its real-time ratio and bandwidth, Cartesian and skewed" python3 -c '
import json, sys
lines = [json.loads(line) for line in sys.argv[1].splitlines()]
assert [r["grid"] for r in lines] == ["cartesian", "skewed"], lines
for r in lines:
    assert r["bench"] == "wave" and r["size"] == 65 and r["mode"] == "single" and r["dt"] == 0.0625, r
    assert all(r[k] > 0 for k in ("solve_ms", "rates_ms", "relax_ms", "output_ms", "step_ms", "iterations_per_solve"))
    # JSON numbers carry 9 significant digits: the ratio and seconds each round by up to 5e-9
    assert abs(r["real_time_ratio"] - r["dt"] / r["seconds"]) < 1e-7 * r["real_time_ratio"]
    assert r["gbs"] > 0 and 0 < r["fraction_of_copy"]' "$out"
run_capture timeout 60 "$hydrocl" bench wave --size 33 --precision single
ok "a wave tank below 65 points per side exits 64" equals "$rc" 64
ok "and says what the tank needs" contains "$err" "at least 65 points per side"
run_capture timeout 60 "$hydrocl" bench wave-table4 --size 65
ok "a wave-table4 basin below 129 points per side exits 64" equals "$rc" 64
ok "and says why" contains "$err" "K = 5 needs at least 129"

run_capture "$hydrocl" bench --list
ok "bench --list names the bandwidth benchmark" contains "$out" "bandwidth"
ok "bench --list names the halo benchmark" contains "$out" "halo"
ok "bench --list names the wave benchmarks" contains "$out" "wave-table4"

run_capture "$hydrocl" --kernel-dir /nonexistent/kernels bench bandwidth --size 4K
ok "a missing kernel folder exits 66" equals "$rc" 66
ok "and names the folder" contains "$err" "/nonexistent/kernels"

broken=$(mktemp -d)
cp "$kernels_cl"/*.clh "$broken"/
printf '__kernel void copy(__global float *x) { x[0] = }\n' >"$broken/bandwidth.cl"
run_capture env HYDROCL_KERNEL_DIR="$broken" "$hydrocl" bench bandwidth --size 4K --precision single
ok "a kernel with a syntax error exits 70" equals "$rc" 70
ok "and prints the build log" contains "$err" "build log:"
ok "and the option string" contains "$err" "options: -cl-std=CL1.2"
rm -rf "$broken"

run_capture "$hydrocl" bench no-such-bench
ok "an unknown benchmark exits 64" equals "$rc" 64
run_capture "$hydrocl" frobnicate
ok "an unknown command exits 64" equals "$rc" 64
run_capture "$hydrocl" info --size 3
ok "an option the command does not use exits 64" equals "$rc" 64
run_capture "$hydrocl" bench bandwidth --size 0
ok "--size 0 exits 64" equals "$rc" 64
# 2^62 floats are 2^64 bytes, which wrap to 0 in size_t: refused before any multiplication.
run_capture timeout 60 "$hydrocl" bench bandwidth --size 4294967296G --precision single
ok "a bandwidth --size whose bytes wrap around exits 64" equals "$rc" 64
ok "and names the size and the limit" python3 -c '
import sys
assert "--size 4611686018427387904" in sys.argv[1] and "at most" in sys.argv[1], sys.argv[1]' "$err"
# 2^32 + 3 was cut to a side of 3 by an int conversion.
run_capture timeout 60 "$hydrocl" bench halo --size 4294967299 --precision single
ok "a halo --size beyond int exits 64" equals "$rc" 64
ok "and names the size and the range" contains "$err" "--size 4294967299"
run_capture timeout 60 "$hydrocl" bench halo --size 2 --precision single
ok "a halo --size below 3 exits 64" equals "$rc" 64
run_capture timeout 60 "$hydrocl" bench swe --size 4294967320 --precision single
ok "a swe --size beyond int exits 64" equals "$rc" 64
run_capture "$hydrocl" help
codes=$(grep -o 'X(HCL_[A-Z]*, [0-9]*' "$kernels_cl/../include/core/status.h" | awk '{print $2}' | sort -u)
missing=""
for code in $codes; do
  grep -qw "$code" <<<"$out" || missing="$missing $code"
done
ok "help lists every exit status include/core/status.h has (missing:${missing:- none})" test -z "$missing"
# Help per command (issue 32, 5): 'hydrocl help COMMAND' and 'hydrocl COMMAND --help' print the same text, its usage
# line, the options the command takes (those cli_require_only allows: run's --restart, not validate's) and every
# exit status; an unknown command is a usage error; the man page, built from the same tables, has every command.
for command in info run validate defaults bench solve-poisson version help; do
  run_capture "$hydrocl" help "$command"
  help_text=$out
  ok "help $command exits 0 with its usage line" test "$rc" = 0 -a -n "$(grep "^usage: hydrocl \[options\] $command" <<<"$out")"
  missing=""
  for code in $codes; do
    grep -qw "$code" <<<"$out" || missing="$missing $code"
  done
  ok "and every exit status (missing:${missing:- none})" test -z "$missing"
  run_capture "$hydrocl" "$command" --help
  ok "$command --help prints the same" test "$rc" = 0 -a "$out" = "$help_text"
  ok "the man page describes $command" grep -qF ".B ${command//-/\\-}" "$(dirname "$hydrocl")/hydrocl.1"
done
ok "help run names --restart" contains "$("$hydrocl" help run)" "--restart R"
ok "help validate does not" test -z "$("$hydrocl" help validate | grep -e "^  --restart")"
run_capture "$hydrocl" run cases/none.yml --set grid.nx=3 --help
ok "run CASE ... --help is run's help" test "$rc" = 0 -a -n "$(grep "^usage: hydrocl \[options\] run CASE" <<<"$out")"
run_capture "$hydrocl" help nonsense
ok "help of an unknown command exits 64" equals "$rc" 64
ok "the man page is roff for section 1" grep -q '^\.TH HYDROCL 1' "$(dirname "$hydrocl")/hydrocl.1"
tap_done
