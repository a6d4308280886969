#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test_kernels_offline.sh: tools/kernels-offline, the offline compilation of every kernel program for AMD, NVIDIA and
# SPIR-V targets, and the test of that tool.
#   compile  every program of the committed list (bench/kernels-offline.tsv) compiled for every target; any error or
#            broken budget fails, and so does a resource table that differs from the one in bench/README.md (CI
#            regenerates the table and checks the committed one against it). Every kernels_cl/*.cl must be listed.
#   covered  the programs the suite built (the record tools/check keeps through HYDROCL_RECORD_BUILDS) have shapes
#            the list has: a new define, flag or program the runs of tools/kernels-offline do not build fails. Run
#            last, alone (meson's order), when every other test has built its programs; without a record it skips.
#   collect  (suite offline) the runs of tools/kernels-offline collected again: their list must be the committed one.
#   tool     the runtime's record of its builds (HYDROCL_RECORD_BUILDS, HYDROCL_DEVICE_AS_GPU); a deliberately broken
#            copy of the kernels (an OpenCL 2.0 built-in; a private array beyond AMD's scratch) fails naming the target,
#            program and options, and a spill breaks the budget; `covered` tells a program compiled offline from one
#            that is not, and --shapes a new size from a new define.
# Usage: test_kernels_offline.sh HYDROCL SOURCE_ROOT BUILD_ROOT compile|covered|collect|tool
set -u
hydrocl=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$2" && pwd)
build=$(cd "$3" && pwd)
mode=$4
. "$(dirname "$0")/../support/tap.sh"
tool="$root/tools/kernels-offline"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

list="$root/bench/kernels-offline.tsv"
case "$mode" in
compile)
  out="$build/kernels-offline"
  mkdir -p "$out"
  cp "$root/bench/README.md" "$out/README.md"
  # The compiles' results are kept by target, options and source in the build folder: a run after a kernel change
  # compiles only the programs it touched. One compile at a time: the suite runs beside it.
  "$tool" compile --jobs 1 --builds "$list" --cache "$out/cache" --table "$out/README.md" >"$dir/log" 2>&1
  rc=$?
  ok "every program of the list compiles for every target within its budgets" equals "$rc" 0
  sed 's/^/# /' "$dir/log" | grep -v '^# |' | tail -60
  ok "the table has a row per kernel" test "$(grep -c '^| ' "$out/README.md")" -gt 50
  diff "$root/bench/README.md" "$out/README.md" >"$dir/table.diff"
  ok "bench/README.md's table is the one compiled (else: tools/kernels-offline compile --table bench/README.md)" \
    equals "$?" 0
  sed 's/^/# /' "$dir/table.diff" | head -20
  unlisted=""
  for file in "$root"/kernels_cl/*.cl; do
    name=$(basename "$file" .cl)
    grep -q "^$name"$'\t' "$list" || unlisted="$unlisted $name"
  done
  ok "every program in kernels_cl/ is in the list (missing:${unlisted:- none})" equals "$unlisted" ""
  ;;
covered)
  record=${HYDROCL_RECORD_BUILDS:-}
  if [ -z "$record" ] || [ ! -s "$record" ]; then
    echo "1..0 # SKIP no record of the suite's builds: tools/check keeps one (HYDROCL_RECORD_BUILDS)"
    exit 0
  fi
  "$tool" covered --shapes "$record" --builds "$list" >"$dir/log" 2>&1
  rc=$?
  ok "every program shape the suite built is in the list" equals "$rc" 0
  sed 's/^/# /' "$dir/log" | head -30
  ;;
collect)
  "$tool" collect --hydrocl "$hydrocl" --builds "$dir/builds.tsv" >"$dir/log" 2>&1
  rc=$?
  ok "the runs of tools/kernels-offline build every program in kernels_cl/" equals "$rc" 0
  sed 's/^/# /' "$dir/log" | tail -30
  diff "$list" "$dir/builds.tsv" >"$dir/list.diff"
  ok "and the committed list is theirs (else: tools/kernels-offline collect; commit the list)" equals "$?" 0
  sed 's/^/# /' "$dir/list.diff" | cut -c1-300 | head -20
  ;;
tool)
  # The record: one line per program built, with the options program_options makes for the device taken.
  HYDROCL_RECORD_BUILDS="$dir/cpu.tsv" "$hydrocl" solve-poisson --n 8 >/dev/null 2>&1
  ok "HYDROCL_RECORD_BUILDS records the programs a run builds" grep -q $'^rrb\t-cl-std=CL1.2 .*-DREAL=' "$dir/cpu.tsv"
  ok "on PoCL with the CPU's exact grid" grep -q $'^rrb\t.*-DEXACT_GRID=1' "$dir/cpu.tsv"
  HYDROCL_RECORD_BUILDS="$dir/gpu.tsv" HYDROCL_DEVICE_AS_GPU=1 "$hydrocl" solve-poisson --n 8 >/dev/null 2>&1
  ok "HYDROCL_DEVICE_AS_GPU=1: the GPU's options" grep -q $'^rrb\t.*-DEXACT_GRID=0' "$dir/gpu.tsv"
  ok "and the GPU's reduction work-groups" grep -q $'^reduce\t.*-DWG_X=256' "$dir/gpu.tsv"
  HYDROCL_RECORD_BUILDS="$dir/no/such/folder/x.tsv" "$hydrocl" solve-poisson --n 8 >/dev/null 2>"$dir/err"
  rc=$?
  ok "a record that cannot be written is an I/O error (74)" equals "$rc" 74
  ok "naming the file" grep -q "no/such/folder/x.tsv" "$dir/err"

  # covered: the CPU's record is the GPU's programs up to the options the device decides.
  "$tool" covered "$dir/cpu.tsv" --builds "$dir/gpu.tsv" >"$dir/covered.log" 2>&1
  ok "covered: a CPU run's programs are the GPU run's up to the device's options" equals "$?" 0
  sed 's/-DREAL=float/-DREAL=half/' "$dir/cpu.tsv" >"$dir/other.tsv"
  "$tool" covered "$dir/other.tsv" --builds "$dir/gpu.tsv" >"$dir/covered.log" 2>&1
  ok "covered: a program with other options is not" equals "$?" 1
  ok "and is named" grep -q "REAL=half.* is not compiled offline" "$dir/covered.log"
  # --shapes: another value of a define is the same shape; a define more is another.
  sed 's/-DWG_X=[0-9]*/-DWG_X=7/' "$dir/cpu.tsv" >"$dir/sizes.tsv"
  "$tool" covered --shapes "$dir/sizes.tsv" --builds "$dir/gpu.tsv" >"$dir/covered.log" 2>&1
  ok "covered --shapes: other values of the defines are the shapes compiled" equals "$?" 0
  sed 's/-DREAL=/-DNEW_OPTION=1 -DREAL=/' "$dir/cpu.tsv" >"$dir/new.tsv"
  "$tool" covered --shapes "$dir/new.tsv" --builds "$dir/gpu.tsv" >"$dir/covered.log" 2>&1
  ok "a define more is a shape not compiled" equals "$?" 1
  ok "and is named" grep -q "with '.*-DNEW_OPTION -DREAL .*' is not compiled offline" "$dir/covered.log"

  # The broken kernels: blas1.cl with one bad kernel more, compiled as a GPU run builds it.
  grep $'^blas1\t' "$dir/gpu.tsv" | head -1 >"$dir/blas1.tsv"
  ok "a GPU run builds blas1" test -s "$dir/blas1.tsv"
  "$tool" compile --cache "" --builds "$dir/blas1.tsv" --targets gfx90a,gfx1100,sm_80,spirv >"$dir/good.log" 2>&1
  ok "blas1 as it is compiles for gfx90a, gfx1100, sm_80 and SPIR-V" equals "$?" 0
  cp -r "$root/kernels_cl" "$dir/builtin" && cp -r "$root/kernels_cl" "$dir/scratch"
  # work_group_reduce_add is OpenCL C 2.0: PoCL 3 knows it, an OpenCL 1.2 device does not.
  printf '%s\n' '__kernel void broken(__global REAL *x) { x[0] = work_group_reduce_add(x[get_global_id(0)]); }' \
    >>"$dir/builtin/blas1.cl"
  # 70000 REALs a work-item: 273 KiB of scratch, beyond gfx90a's 128 KiB and gfx1100's 256 KiB.
  printf '%s\n' '__kernel void broken(__global REAL *x, const int n) { REAL t[70000];' \
    '  for (int i = 0; i < n; i++) t[(i * 7) % 70000] = x[i];' '  x[get_global_id(0)] = t[n % 70000]; }' \
    >>"$dir/scratch/blas1.cl"
  "$tool" compile --cache "" --builds "$dir/blas1.tsv" --kernel-dir "$dir/builtin" --targets gfx90a,sm_80,spirv \
    >"$dir/builtin.log" 2>&1
  ok "an OpenCL 2.0 built-in fails the tool" equals "$?" 1
  for target in gfx90a sm_80 spirv; do
    ok "naming the target $target, the program and its options" \
      grep -q "^kernels-offline: $target: kernels_cl/blas1.cl does not compile with '-cl-std=CL1.2 " "$dir/builtin.log"
  done
  ok "and the compiler's message" grep -q "work_group_reduce_add" "$dir/builtin.log"
  "$tool" compile --cache "" --builds "$dir/blas1.tsv" --kernel-dir "$dir/scratch" --targets gfx90a,gfx1100 \
    >"$dir/scratch.log" 2>&1
  ok "a private array beyond AMD's scratch fails the tool" equals "$?" 1
  for target in gfx90a gfx1100; do
    ok "naming the target $target" grep -q "^kernels-offline: $target: kernels_cl/blas1.cl does not compile" \
      "$dir/scratch.log"
  done
  ok "and the limit" grep -q "stack frame size .* exceeds limit" "$dir/scratch.log"
  # A kernel held to 8 VGPRs (clang's amdgpu_num_vgpr) with 24 values live: it spills VGPRs to scratch.
  cp -r "$root/kernels_cl" "$dir/spill"
  printf '%s\n' '__kernel __attribute__((amdgpu_num_vgpr(8))) void broken(__global REAL *x) {' \
    '  const int i = get_global_id(0); REAL a[24], s = 0;' '  for (int k = 0; k < 24; k++) a[k] = x[i + k * 1024];' \
    '  for (int k = 0; k < 24; k++) s += a[k] * a[23 - k] + a[(k * 5) % 24];' '  x[i] = s; }' >>"$dir/spill/blas1.cl"
  "$tool" compile --cache "" --builds "$dir/blas1.tsv" --kernel-dir "$dir/spill" --targets gfx90a >"$dir/spill.log" 2>&1
  ok "a VGPR spill breaks the budget" equals "$?" 1
  ok "naming the target, the program and the kernel" \
    grep -q "^kernels-offline: budget: gfx90a: blas1.cl broken (REAL=[a-z]*) spills [1-9][0-9]* VGPRs" "$dir/spill.log"
  [ "$tap_failures" = 0 ] || sed 's/^/# /' "$dir"/*.log | head -80
  ;;
*)
  echo "unknown mode '$mode'" >&2
  exit 64
  ;;
esac
tap_done
