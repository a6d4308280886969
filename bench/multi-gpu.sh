#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# multi-gpu.sh: weak and strong scaling of the wave model's Laplace solver, the wave step, the explicit and the
# semi-implicit shallow-water step, and CG and pipelined CG with RRB and with multigrid over 1, 2, 4 and 8 ranks, one
# rank per GPU (`hydrocl bench scaling`; bench/README.md, "scaling").
#
#   bench/multi-gpu.sh [-b BUILD] [-o DIR] [-n "1 2 4 8"] [-- BENCH OPTIONS]
#
# Runs `mpirun -n N BUILD/hydrocl bench scaling --device gpu OPTIONS` for each N up to the machine's GPUs (as
# `hydrocl info` lists them; HYDROCL_GPUS overrides the count), writes every JSON line to DIR/scaling.jsonl and a
# table with the parallel efficiencies to DIR/scaling.md and stdout. Weak efficiency is t(1) / t(N) at a fixed size
# per GPU; strong efficiency t(1) / (N t(N)) at a fixed total; "overhead" is t(N) - t(1) for weak scaling: the
# time a rank spends beyond one GPU's on the same work, communication and waiting. Ranks take GPUs in turn on each
# host (hydrocl picks the device by the rank's index on its host). MPIRUN (default mpirun) and MPIRUN_ARGS are
# passed through; on CPUs set HYDROCL_DEVICE_KIND=cpu to run the same on PoCL ranks.
set -eu

build=build
out=out/multi-gpu
counts="1 2 4 8"
while [ $# -gt 0 ]; do
  case "$1" in
  -b) build=$2; shift 2 ;;
  -o) out=$2; shift 2 ;;
  -n) counts=$2; shift 2 ;;
  --) shift; break ;;
  -h | --help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "multi-gpu.sh: unknown argument '$1' (see --help)" >&2; exit 64 ;;
  esac
done

kind=${HYDROCL_DEVICE_KIND:-gpu}
hydrocl=$build/hydrocl
[ -x "$hydrocl" ] || { echo "multi-gpu.sh: no $hydrocl: build first (meson setup $build && ninja -C $build)" >&2; exit 66; }
if [ -n "${HYDROCL_GPUS:-}" ]; then
  gpus=$HYDROCL_GPUS
else
  gpus=$("$hydrocl" info --json | grep -c "\"type\":\"$kind\"" || true)
fi
[ "$gpus" -ge 1 ] || { echo "multi-gpu.sh: 'hydrocl info' lists no $kind device (NVIDIA: see bench/README.md)" >&2; exit 69; }

mkdir -p "$out"
: >"$out/scaling.jsonl"
for n in $counts; do
  if [ "$n" -gt "$gpus" ]; then
    echo "multi-gpu.sh: $n ranks skipped: $gpus $kind devices" >&2
    continue
  fi
  echo "multi-gpu.sh: $n rank(s)" >&2
  # Open MPI's mpirun cuts OCL_ICD_FILENAMES at its first colon: the ranks get it whole through env.
  # shellcheck disable=SC2086 # MPIRUN_ARGS is a list of words
  ${MPIRUN:-mpirun} -n "$n" ${MPIRUN_ARGS:-} env ${OCL_ICD_FILENAMES:+"OCL_ICD_FILENAMES=$OCL_ICD_FILENAMES"} \
    "$hydrocl" bench scaling --device "$kind" "$@" >>"$out/scaling.jsonl"
done

python3 - "$out/scaling.jsonl" <<'EOF' | tee "$out/scaling.md"
import json, sys

lines = [json.loads(line) for line in open(sys.argv[1]) if line.startswith("{")]
rows = [r for r in lines if "unknowns" in r]
collectives = [r for r in lines if r["name"] == "collective"]
def key(r):  # one series: the same work per rank (weak) or in all (strong)
    size = r["unknowns_per_rank"] if r["name"] == "weak" else r["unknowns"]
    return (r["name"], r["part"], r.get("mode", r["precision"]), size)
series = {}
for r in rows:
    series.setdefault(key(r), []).append(r)
print("| scaling | part | precision | unknowns (per GPU for weak) | GPUs | process grid | iterations | ms | "
      "efficiency | overhead ms | exchanges / reductions an iteration (step) | fraction of copy |")
print("|---|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|")
for k, rs in series.items():
    rs.sort(key=lambda r: r["ranks"])
    one = next((r for r in rs if r["ranks"] == 1), None)
    for r in rs:
        n, t = r["ranks"], r["seconds"]
        eff = overhead = ""
        if one:
            eff = one["seconds"] / t if k[0] == "weak" else one["seconds"] / (n * t)
            eff = "%.0f%%" % (100 * eff)
            overhead = "%.3f" % (1e3 * (t - one["seconds"])) if k[0] == "weak" else ""
        counts = [r.get(f + "_per_iteration", r.get(f + "_per_step")) for f in ("exchanges", "reductions")]
        print("| %s | %s | %s | %.3g | %d | %d x %d | %s | %.3f | %s | %s | %.1f / %.1f | %.2f |" % (
            k[0], k[1], k[2], k[3], n, r["px"], r["py"], r.get("iterations", ""), 1e3 * t, eff, overhead,
            counts[0], counts[1], r["fraction_of_copy"]))
for r in collectives:
    print("\nA reduction of one value between %d ranks (host to host, median): %.1f us" % (r["ranks"], 1e6 * r["seconds"]))
EOF
