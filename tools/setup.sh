# SPDX-License-Identifier: BSD-3-Clause
# setup.sh: the set-up shared by tools/demo and tools/check (sourced): install what is missing from the
# distribution's packages (as root) or print the one apt line to run, then configure and build in build/.
# Works on Debian 12 and Ubuntu 24.04; nothing is vendored or downloaded at build time.

hydrocl_packages="gcc meson ninja-build pkg-config python3 ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd
  clinfo libopenmpi-dev openmpi-bin libnetcdf-dev libudunits2-dev libyaml-dev libproj-dev libgdal-dev python3-netcdf4 python3-matplotlib
  python3-xarray clang-format"
# Parallel netCDF-4 (HDF5 over MPI-IO): the map file written by every rank, each its own block.
hydrocl_packages="$hydrocl_packages libnetcdf-mpi-dev"
# hydrocl-plot's MP4 animations.
hydrocl_packages="$hydrocl_packages ffmpeg"
# The fuzzing harness (tools/fuzz, the suite fuzz): clang and its libFuzzer and sanitizer run-times.
hydrocl_packages="$hydrocl_packages clang libclang-rt-dev"
# hypre, the peer solvers of `bench poisson-peers` (optional: -Dhypre=auto finds it).
hydrocl_packages="$hydrocl_packages libhypre-dev"
# The kernels suite: Oclgrind, the OpenCL device simulator that checks every access and every race.
hydrocl_packages="$hydrocl_packages oclgrind"
# The kernels suite: every kernel program compiled offline (tools/kernels-offline) for AMD GPUs (clang 15 with the
# ROCm device libraries, which LLVM 15 built), NVIDIA PTX (libclc's built-ins; clang 16 for sm_90) and SPIR-V.
hydrocl_packages="$hydrocl_packages clang-15 clang-16 llvm-14 rocm-device-libs libclc-15 llvm-spirv-15 spirv-tools"
# The device suite's second CPU OpenCL implementation: Mesa's rusticl on llvmpipe (tests/cli/test_rusticl.sh).
hydrocl_packages="$hydrocl_packages mesa-opencl-icd"

hydrocl_install_missing() {
  local missing="" p
  for p in $hydrocl_packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
  done
  [ -z "$missing" ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "hydrocl needs these packages; run:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends$missing" >&2
    return 1
  fi
  echo "installing:$missing" >&2
  apt-get update -q >&2 &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing >&2
}

# Configures build/ on first use (meson setup with the defaults of meson_options.txt) and builds.
hydrocl_build() {
  if [ ! -f build/build.ninja ]; then
    meson setup build >&2 || return 1
  fi
  ninja -C build >&2
}

# The sanitizer build of tools/check --sanitize: build-sanitize/, configured on first use with gcc's AddressSanitizer
# (LeakSanitizer included) and UndefinedBehaviorSanitizer, undefined behaviour fatal (-fno-sanitize-recover).
hydrocl_build_sanitize() {
  if [ ! -f build-sanitize/build.ninja ]; then
    meson setup build-sanitize -Dbuildtype=debug -Db_sanitize=address,undefined -Db_lundef=false \
      -Dc_args=-fno-sanitize-recover=undefined >&2 || return 1
  fi
  ninja -C build-sanitize >&2
}

# The sanitizers' run-time options, exported: meson test and mpirun (on one host) hand them on to every process,
# ranks included. Any report fails its test: an ASan error or a leak exits 1, UBSan halts. tools/sanitize/lsan.supp
# names the leaks inside Open MPI and PoCL. Open MPI unloads its components at MPI_Finalize, so the frames of a leak's
# stack in them name no module by exit: the stack is taken whole at the allocation (fast_unwind_on_malloc=0), down to
# the MPI call a suppression names; it makes the runs 2 to 6 times slower still. intercept_tls_get_addr=0: gcc 12's
# LeakSanitizer misreads a dlopen'd library's dynamic TLS block under glibc 2.36 and crashes at exit ("Tracer caught
# signal 11", google/sanitizers#1322; 1 in 3 four-rank runs); without it, memory held only from such a block is still
# not taken for a leak.
hydrocl_sanitize_env() {
  export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0:fast_unwind_on_malloc=0:intercept_tls_get_addr=0
  export LSAN_OPTIONS=suppressions=$PWD/tools/sanitize/lsan.supp:print_suppressions=0
  export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
}

# The tests of a meson test log, slowest first, with their seconds and results (the 15 slowest and the total).
hydrocl_test_times() {
  [ -f "$1" ] || return 0
  python3 - "$1" <<'PY'
import json, sys
tests = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
tests.sort(key=lambda t: -t["duration"])
print("slowest tests (s):")
for t in tests[:15]:
    print(f"  {t['duration']:7.1f}  {t['result']:<8} {t['name']}")
print(f"  {sum(t['duration'] for t in tests):7.1f}  in all, {len(tests)} tests (in parallel: more than the wall time)")
PY
}
