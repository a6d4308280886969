#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# build_variants.sh: the builds users make besides the default one compile without a warning: without netCDF and
# PROJ (the GPU machines here have neither), without MPI (laptops), and single precision by default with the serial
# netCDF-C beside MPI (rank 0 gathers the map file). What users build of them: the command and the library (the
# tests compile in the suite's own build). Without PROJ, a case with grid.crs is refused with 64 and how
# to build with it.
# Usage: build_variants.sh SOURCE_ROOT
set -u
source_root=$1
. "$(dirname "$0")/support/tap.sh"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# Runs a command, showing its output (as TAP comments) only when it fails.
run_quietly() {
  local log
  log=$("$@" 2>&1) && return 0
  printf '%s\n' "$log" | tail -30 | sed 's/^/# /'
  return 1
}
for options in "-Dnetcdf=disabled -Dproj=disabled" "-Dmpi=disabled" "-Dprecision=single -Dnetcdf_parallel=disabled"; do
  dir="$scratch/build${options//[^a-z]/-}"
  ok "meson setup $options" run_quietly meson setup "$dir" "$source_root" $options -Dwerror=true -Dbuildtype=debug
  ok "ninja with $options builds the command and the library without a warning" \
    run_quietly ninja -C "$dir" -j 2 hydrocl "$(ninja -C "$dir" -t targets all | sed -n 's/^\(libhydrocl\.so[.0-9]*\): .*LINKER$/\1/p')"
done
options="-Dnetcdf=disabled -Dproj=disabled"
bare="$scratch/build${options//[^a-z]/-}/hydrocl"
message=$("$bare" validate "$source_root/cases/tidal-flat.yml" --set grid.crs=EPSG:32631 2>&1)
rc=$?
ok "without PROJ, grid.crs exits 64" test "$rc" = 64
ok "saying how to build with it" grep -qF "needs PROJ, and this hydrocl was built without it; install libproj-dev" \
  <<<"$message"
tap_done
