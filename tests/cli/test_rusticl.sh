#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test_rusticl.sh: the kernels on a second CPU OpenCL implementation, Mesa's rusticl on llvmpipe (Debian 12's
# mesa-opencl-icd 22.3, enabled by RUSTICL_ENABLE=llvmpipe), the ICD loader shown only its ICD. That device has no
# fp64 (Mesa 22.3's llvmpipe offers none to rusticl), so the device suite, which tests double precision and requires a
# device with fp64, cannot run there; this runs every model and both preconditioners in float instead and compares
# each with PoCL's run of the same case. Mesa's other OpenCL implementation, clover, lists no device without a GPU
# (its pipe loader probes DRM devices only). Skipped (77) where mesa-opencl-icd is not installed.
# Usage: test_rusticl.sh HYDROCL SOURCE_ROOT
set -u
hydrocl=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$2" && pwd)
. "$(dirname "$0")/../support/tap.sh"
icd=/etc/OpenCL/vendors/rusticl.icd
if [ ! -f "$icd" ]; then
  echo "1..0 # SKIP $icd is not installed (apt-get install mesa-opencl-icd)"
  exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
mkdir vendors && cp "$icd" vendors/
rusticl=(env OCL_ICD_VENDORS="$dir/vendors" RUSTICL_ENABLE=llvmpipe "$hydrocl")
cases="$root/cases"

run_capture "${rusticl[@]}" info
ok "hydrocl info lists rusticl's llvmpipe device" contains "$out" "llvmpipe"
ok "and that it has no fp64" python3 -c 'import re, sys; assert re.search(r"llvmpipe.* no ", sys.argv[1])' "$out"

for pre in rrb mg; do
  run_capture "${rusticl[@]}" solve-poisson --n 31 --precision single --preconditioner "$pre"
  ok "solve-poisson in float, $pre preconditioner: converges on rusticl" contains "$out" "(converged)"
  error=$(sed -n 's/^error: max \([^,]*\),.*/\1/p' <<<"$out")
  # PoCL's float runs: 1.7e-5 (h^2 error 1.6e-5 and float rounding).
  ok "to the exact solution's error (max $error < 5e-5)" python3 -c 'import sys; assert float(sys.argv[1]) < 5e-5' \
    "${error:-1}"
done

# compare WHAT CASE NAME VARS -- ARGS...: the case in float on PoCL and on rusticl; the last restart files' VARS (all
# when empty) agree to 1e-4 relative (a few steps of float rounding, evaluated in another order by another compiler).
compare() {
  local what=$1 case=$2 name=$3 vars=$4
  shift 5
  "$hydrocl" run "$case" --precision single "$@" -o "$dir/pocl-$name" -q >"$dir/pocl-$name.log" 2>&1
  local pocl=$?
  "${rusticl[@]}" run "$case" --precision single "$@" -o "$dir/rusticl-$name" -q >"$dir/rusticl-$name.log" 2>&1
  local rc=$?
  ok "$what: runs on rusticl" equals "$rc/$pocl" 0/0
  [ "$rc" = 0 ] || grep -v "^MESA: warning" "$dir/rusticl-$name.log" | head -20 | sed 's/^/# /'
  # shellcheck disable=SC2086 # the variables' names, one word each
  ok "$what: as on PoCL" /usr/bin/python3 "$root/tests/cli/ncsame.py" --tolerance 1e-4 \
    "$(ls "$dir/pocl-$name"/restart-*.nc | tail -1)" "$(ls "$dir/rusticl-$name"/restart-*.nc | tail -1)" $vars
}

compare "shallow water (Sielecki, Chezy, momentum advection, 16 x 16, 10 s)" "$cases/drop-island.yml" swe \
  "zeta u v" -- \
  --set grid.nx=16 --set grid.ny=16 --set time.end=10 --set restart.interval=10
compare "shallow water (Hansen, Manning, energy advection, implicit)" "$cases/drop-island.yml" implicit "zeta u v" -- \
  --set grid.nx=16 --set grid.ny=16 --set time.end=10 --set restart.interval=10 --set physics.ordering=hansen \
  --set physics.friction=manning --set physics.advection=energy --set time.scheme=implicit
compare "the wave model (stream-function flume, 33 points, defect correction with multigrid)" \
  "$cases/stream-tank.yml" wave "eta phi" -- --set grid.nx=33 --set waves.ramp_time=0.05 --set time.end=0.15 \
  --set restart.interval=0.15
compare "the ship-wave model (a ship, a current, sponges, 24 x 16)" "$cases/ship-kelvin.yml" vbm "" -- \
  --set grid.nx=24 --set grid.ny=16 --set grid.lx=600 --set grid.ly=400 --set boundary.sponge_width=50 \
  --set ship.x=400 --set ship.y=190 --set current.u=1 --set time.dt=0.5 --set time.end=2.5 \
  --set output.interval=2.5 --set output.gauges=[] --set restart.interval=2.5
tap_done
