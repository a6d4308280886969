#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test_oclgrind.sh: the kernels run under Oclgrind (an OpenCL 1.2 device simulator: every memory access checked
# against its buffer, data races between work-items and work-groups detected), through small but complete runs of
# one scenario each (issue 36). Any report of Oclgrind fails the scenario; so does a run that does not end with 0.
# Oclgrind's device has 32 KB of local memory: the runs take hydrocl's defaults, which size themselves by it.
# The scenario 'broken' is the test of the test: a copy of the kernels with an off-by-one row read (swe.cl) and a
# missing barrier (reduce.cl) must be reported. The scenario 'uninitialized' runs the uninitialized-value plugin.
# Usage: test_oclgrind.sh OCLGRIND MPIRUN HYDROCL SOURCE_ROOT SCENARIO
set -u
oclgrind=$1
mpirun=$2
hydrocl=$(cd "$(dirname "$3")" && pwd)/$(basename "$3") # absolute: the test runs in its own folder
root=$(cd "$4" && pwd)
scenario=$5
. "$(dirname "$0")/../support/tap.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
cases="$root/cases"
# HYDROCL_NO_RESTRICT: Oclgrind 21.10's LLVM does not know the intrinsic that restrict produces (common.clh).
checked=("$oclgrind" --data-races --build-options -DHYDROCL_NO_RESTRICT)

# under_oclgrind WHAT COMMAND...: runs hydrocl's COMMAND under Oclgrind; ok when it exits 0 and nothing is reported
# (a report names its kernel on a line '<tab>Kernel: NAME').
under_oclgrind() {
  local what=$1 log="$dir/log-$RANDOM"
  shift
  "$@" >"$log" 2>&1
  local rc=$? reports
  reports=$(grep -c $'^\tKernel: ' "$log")
  ok "$what: exits 0 with no report" test "$rc" = 0 -a "$reports" = 0
  if [ "$rc" != 0 ] || [ "$reports" != 0 ]; then
    echo "# exit $rc, $reports reports; the first lines:"
    head -40 "$log" | sed 's/^/# /'
  fi
}

small_swe=(--set grid.nx=16 --set grid.ny=16 --set output.interval=5 --set time.end=10 -q)
case "$scenario" in
rrb)
  # 32 x 32 nodes: two RRB levels above the exact level of 8 x 8 nodes that 32 KB hold, so every kernel runs.
  under_oclgrind "RRB-CG in double (the exact level of 8 x 8 nodes that 32 KB hold)" \
    "${checked[@]}" "$hydrocl" solve-poisson --n 32 --precision double
  under_oclgrind "RRB-CG in float" "${checked[@]}" "$hydrocl" solve-poisson --n 32 --precision single
  under_oclgrind "RRB-GMRES and defect correction in double" bash -c '
    "$@" solve-poisson --n 24 --precision double --method gmres && "$@" solve-poisson --n 24 --method dc' \
    _ "${checked[@]}" "$hydrocl"
  ;;
mg)
  # The 5-point multigrid: 40 x 40 points coarsen to 20 x 40 then into the one-work-group tail (Oclgrind's 256
  # work-items: the levels of at most 4096 points), its barriers checked for races; in float under double CG; and on
  # two ranks, level by level with the ghost exchanges.
  under_oclgrind "multigrid-CG in double, the coarse levels in one launch" \
    "${checked[@]}" "$hydrocl" solve-poisson --n 40 --precision double --preconditioner mg
  under_oclgrind "multigrid-CG mixed" "${checked[@]}" "$hydrocl" solve-poisson --n 40 --precision mixed \
    --preconditioner mg
  under_oclgrind "multigrid-CG on 2 ranks" "$mpirun" -n 2 "${checked[@]}" "$hydrocl" solve-poisson --n 24 \
    --precision double --preconditioner mg
  ;;
swe-sielecki)
  # The tidal flat: a tide through a level boundary floods and dries a ramp (3 m over a bed rising to 4.5 m), walls
  # on the other sides, Chezy friction, momentum advection, gauges sampled on the device.
  # Oclgrind is a device of padded work-groups, as a GPU: the step runs in one kernel (step_sielecki, its tiles and
  # barriers checked for races); then in the three of CPUs, whose rims write into the ghosts.
  for step in fused split; do
    HYDROCL_SWE_STEP=$step under_oclgrind \
      "shallow water, Sielecki ($step), wetting and drying, level and wall sides, gauges" \
      "${checked[@]}" "$hydrocl" run "$cases/tidal-flat.yml" --set grid.nx=16 --set grid.ny=8 --set time.end=1200 \
      --set output.interval=600 --set output.history_interval=300 -o "$dir/sielecki-$step" -q
  done
  ;;
swe-hansen)
  under_oclgrind "shallow water, Hansen, energy advection, Manning, periodic and weak-level sides" \
    "${checked[@]}" "$hydrocl" run "$cases/drop-island.yml" "${small_swe[@]}" --set physics.ordering=hansen \
    --set physics.advection=energy --set physics.friction=manning --set boundary.south=periodic \
    --set boundary.north=periodic --set boundary.west=weak-level --set boundary.west_level=1 -o "$dir/hansen"
  ;;
swe-implicit)
  under_oclgrind "shallow water, the implicit scheme in double (the level system by RRB-CG)" \
    "${checked[@]}" "$hydrocl" run "$cases/drop-island.yml" "${small_swe[@]}" --set time.scheme=implicit \
    --precision double -o "$dir/implicit"
  ;;
wave)
  # The stream-function flume: generation and absorption zones, gauges and a kinematics line; defect correction
  # with the multigrid preconditioner at the default order (4), two steps past a short ramp.
  under_oclgrind "the wave model: relaxation zones, gauges and kinematics, defect correction, order 4" \
    "${checked[@]}" "$hydrocl" run "$cases/stream-tank.yml" --set grid.nx=33 --set waves.ramp_time=0.05 \
    --set time.end=0.075 -o "$dir/wave" -q
  ;;
wave-orders)
  # The flume of 33 points, one step after a ramp of 0.01 s: the Laplace operator of every other order, by GMRES.
  for order in 2 6 8; do
    under_oclgrind "the wave model, Laplace operator of order $order by GMRES" \
      "${checked[@]}" "$hydrocl" run "$cases/stream-tank.yml" --set grid.nx=33 --set waves.ramp_time=0.01 \
      --set solver.order=$order --set solver.method=gmres --set time.end=0.0375 -o "$dir/order-$order" -q
  done
  ;;
vbm)
  # The ship-wave model on 24 x 16 cells of 25 m: a ship, a current, an irregular sea from the west sponge, sponges
  # on three sides; the ships' and the waves' boxes from an offset, on one rank and on two (each its part of them).
  vbm=(--set grid.nx=24 --set grid.ny=16 --set grid.lx=600 --set grid.ly=400 --set boundary.sponge_width=50
    --set boundary.north=wall --set ship.x=400 --set ship.y=190 --set current.u=1 --set waves.side=west
    --set waves.incident=irregular --set waves.hs=0.5 --set waves.tp=8 --set waves.components=8 --set waves.ramp=1
    --set ships.ramp=1 --set time.dt=0.5 --set time.end=2.5 --set output.interval=2.5 --set output.gauges=[] -q)
  under_oclgrind "the ship-wave model: a ship, a current, incident waves, sponges" \
    "${checked[@]}" "$hydrocl" run "$cases/ship-kelvin.yml" "${vbm[@]}" -o "$dir/vbm-1"
  under_oclgrind "the same on 2 ranks" "$mpirun" -n 2 "${checked[@]}" "$hydrocl" run "$cases/ship-kelvin.yml" \
    "${vbm[@]}" --set grid.px=2 --set grid.py=1 -o "$dir/vbm-2"
  ;;
halo)
  # Two ranks side by side: the ghost exchange's pack and unpack kernels and the reductions over ranks.
  under_oclgrind "shallow water on 2 ranks (halo exchange)" \
    "$mpirun" -n 2 "${checked[@]}" "$hydrocl" run "$cases/drop-island.yml" "${small_swe[@]}" --set grid.px=2 \
    --set grid.py=1 -o "$dir/halo"
  # Every exchange overlapped (HYDROCL_OVERLAP_CELLS=0, halo.h), split in y: on Oclgrind, a device of padded
  # work-groups as a GPU's, step_hansen runs over boxes of cells from an offset (the state's exchange behind the
  # next step's interior), and must give the one-rank fields bit for bit.
  # 10 rows a rank: the upper rank's interior, rows 2 to 9, is one partial tile of 8 rows from row 2 (an offset the
  # kernel must add, or rows 8 and 9 are never computed).
  # Gauges sampled at the map's interval only: a sample ends the exchange left in flight (swe_settle).
  hansen=("${small_swe[@]}" --set grid.ny=20 --set physics.ordering=hansen --set restart.interval=10
    --set output.history_interval=5)
  HYDROCL_OVERLAP_CELLS=0 under_oclgrind "shallow water, Hansen, on 2 ranks split in y, every exchange overlapped" \
    "$mpirun" -n 2 -x HYDROCL_OVERLAP_CELLS "${checked[@]}" "$hydrocl" run "$cases/drop-island.yml" "${hansen[@]}" \
    --set grid.px=1 --set grid.py=2 -o "$dir/hansen-2"
  under_oclgrind "shallow water, Hansen, on 1 rank" "${checked[@]}" "$hydrocl" run "$cases/drop-island.yml" \
    "${hansen[@]}" -o "$dir/hansen-1"
  ok "and the two end in the same bits" /usr/bin/python3 "$root/tests/cli/ncsame.py" "$dir"/hansen-1/restart-*.nc \
    "$dir"/hansen-2/restart-*.nc zeta u v time
  ;;
uninitialized)
  # Oclgrind's uninitialized-value plugin over the shallow-water model with gauges, in both orderings. It does not
  # count a fill as a write, so the buffers are zeroed by writes here (HYDROCL_ZERO_BY_WRITE): with fills, every value
  # read from a fill-zeroed buffer counted as unwritten, which is what its reports on gather_points were. Its LLVM
  # emits a freeze for a division paired with its remainder, which the plugin cannot run: it stops checking that
  # kernel (a FATAL line); in these runs that happens in the reductions, whose results the host checks anyway, and in
  # step_sielecki, whose tiles' rims are numbered so (kernels_cl/swe.cl says why): step_hansen runs the same tile code
  # but for the numbering, and the plugin checks it whole.
  for ordering in sielecki hansen; do
    log="$dir/uninitialized-$ordering.log"
    HYDROCL_ZERO_BY_WRITE=1 "$oclgrind" --uninitialized --build-options -DHYDROCL_NO_RESTRICT "$hydrocl" run \
      "$cases/tidal-flat.yml" --set grid.nx=16 --set grid.ny=8 --set time.end=1200 --set output.interval=600 \
      --set output.history_interval=300 --set physics.ordering=$ordering -o "$dir/uninitialized-$ordering" -q \
      >"$log" 2>&1
    rc=$?
    ok "shallow water ($ordering) with gauges under the uninitialized-value plugin exits 0" equals "$rc" 0
    ok "and no kernel reads or writes an unwritten value" test "$(grep -c "^Uninitialized value" "$log")" = 0
    stopped=$(grep -A2 "^Unsupported instruction: freeze" "$log" | sed -n 's/^\tKernel: //p' | sort -u | tr '\n' ' ')
    ok "the plugin stops only in the reductions and step_sielecki (${stopped:-none})" python3 -c '
import sys; assert all(k.startswith("reduce_") or k == "step_sielecki" for k in sys.argv[1].split()), sys.argv[1]
assert sys.argv[2] == "sielecki" or "step_" not in sys.argv[1], sys.argv[1]' "$stopped" "$ordering"
    [ "$(grep -c "^Uninitialized value" "$log")" = 0 ] || head -40 "$log" | sed 's/^/# /'
  done
  ;;
broken)
  cp -r "$root/kernels_cl" "$dir/bad-read" && cp -r "$root/kernels_cl" "$dir/no-barrier"
  # wave_speed reads v four rows up instead of one down: past the last of the 3 ghost rows on the top row of cells.
  sed -i 's/AT(v, i, j) + AT(v, i, j - 1)/AT(v, i, j) + AT(v, i, j + 4)/' "$dir/bad-read/swe.cl"
  # The reductions' tree sum without its barrier between halvings: work-items read what others still write.
  python3 - "$dir/no-barrier/reduce.cl" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
line = "      barrier(CLK_LOCAL_MEM_FENCE);"
start = text.index("#define REDUCE_KERNEL")
at = text.index(line, start)
open(path, "w").write(text[:at] + text[at:].replace(line + " " * (text.index("\n", at) - at - len(line) - 1) + "\\\n", "", 1))
PY
  ok "the off-by-one read was made" grep -q "AT(v, i, j + 4)" "$dir/bad-read/swe.cl"
  ok "the barrier was taken out" test "$(grep -c "barrier" "$dir/no-barrier/reduce.cl")" -lt \
    "$(grep -c "barrier" "$root/kernels_cl/reduce.cl")"
  for bad in bad-read no-barrier; do
    "${checked[@]}" "$hydrocl" run "$cases/drop-island.yml" "${small_swe[@]}" --kernel-dir "$dir/$bad" \
      -o "$dir/out-$bad" >"$dir/$bad.log" 2>&1
  done
  ok "the off-by-one read is reported in wave_speed" grep -q -A1 "^Invalid read" "$dir/bad-read.log"
  ok "naming the kernel" grep -q $'^\tKernel: wave_speed' "$dir/bad-read.log"
  ok "the missing barrier is reported as a data race in a reduction" grep -q "data race at local memory" \
    "$dir/no-barrier.log"
  ;;
*)
  echo "unknown scenario '$scenario'" >&2
  exit 64
  ;;
esac
tap_done
