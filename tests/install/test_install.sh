#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test_install.sh: `meson install` into a staging folder puts what the README says where it says, and the programs in
# examples/ build against the installed tree with pkg-config alone, including the headers as <hydrocl/NAME.h>, and
# run: harmonics.c lists the devices and fits the harmonics it made (A1 = 0.03 m at 0.5 rad, A2 = 0.004 m at 1 rad,
# exact to the fit's rounding); ship_simulator.c advances the ship-wave model a frame at a time and steers its ship
# between frames.
# Usage: test_install.sh BUILD_ROOT SOURCE_ROOT
set -u
build=$(cd "$1" && pwd)
root=$(cd "$2" && pwd)
. "$(dirname "$0")/../support/tap.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
stage="$dir/stage"
run_capture meson install -C "$build" --destdir "$stage" --no-rebuild --quiet
ok "meson install into a staging folder exits 0" equals "$rc" 0
prefix=$(meson introspect "$build" --buildoptions | /usr/bin/python3 -c '
import json, sys
print({o["name"]: o["value"] for o in json.load(sys.stdin)}["prefix"])')
tree="$stage$prefix"
for installed in bin/hydrocl bin/hydrocl-plot share/man/man1/hydrocl.1 share/hydrocl/cases/drop-island.yml \
  share/doc/hydrocl/LICENSE share/doc/hydrocl/CITATION.cff include/hydrocl/harmonics.h include/hydrocl/status.h; do
  ok "it installs $installed" test -s "$tree/$installed"
done
ok "hydrocl-plot is executable" test -x "$tree/bin/hydrocl-plot"
pc=$(find "$tree" -name hydrocl.pc | head -1)
ok "and a pkg-config file" test -n "$pc"
library_dir=$(dirname "$(find "$tree" -name 'libhydrocl.so' | head -1)")
export PKG_CONFIG_PATH="$(dirname "$pc")" PKG_CONFIG_SYSROOT_DIR="$stage"
run_capture sh -c "cc -std=c11 -Wall -Wextra -Werror -o '$dir/example' '$root/examples/harmonics.c' \$(pkg-config --cflags --libs hydrocl) -lm"
ok "examples/harmonics.c builds with pkg-config --cflags --libs hydrocl alone, without a warning" equals "$rc" 0
run_capture env LD_LIBRARY_PATH="$library_dir" "$dir/example"
ok "and runs" equals "$rc" 0
ok "listing a device" contains "$out" "device 0: "
ok "fitting the harmonics it made" contains "$out" "A1 = 0.030000 m at 0.5000 rad, A2 = 0.004000 m at 1.0000 rad"
# The simulator loop (the ship-wave model's C API): 60 s of a ship turning in a basin.
# It includes MPI's header (par.h), whose folder pkg-config --cflags hydrocl names through Open MPI's ompi-c; the
# staging's sysroot moves that folder under the stage too, so here it is named once more from outside the stage.
mpi_cflags=$(env -u PKG_CONFIG_SYSROOT_DIR pkg-config --cflags ompi-c 2>/dev/null)
run_capture sh -c "cc -std=c11 -Wall -Wextra -Werror -o '$dir/ship' '$root/examples/ship_simulator.c' \$(pkg-config --cflags --libs hydrocl) \
  $mpi_cflags -lm"
ok "examples/ship_simulator.c builds with pkg-config, without a warning" equals "$rc" 0
run_capture env LD_LIBRARY_PATH="$library_dir" "$dir/ship"
ok "and runs its 600 frames" test "$rc" = 0 -a -n "$(grep "^t = 60 s: ship at" <<<"$out")"
# The hull of 2 m draft, moving at 6 m/s: the water under it lies between 1 and 2.5 m down (at rest it would be 2 m).
ok "with the ship's trough under it" /usr/bin/python3 -c '
import re, sys
lowest = [float(v) for v in re.findall(r"lowest water (-?[0-9.]+) m", sys.argv[1])]
assert len(lowest) == 3 and all(-2.5 < v < -1.0 for v in lowest[1:]), lowest' "$out"
tap_done
