#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test_install.sh: `meson install` into a staging folder puts what the README says where it says, and the README's C
# example builds against the installed tree with pkg-config alone and runs: it lists the devices and fits the
# harmonics it made (A1 = 0.03 m at 0.5 rad, A2 = 0.004 m at 1 rad, exact to the fit's rounding).
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
sed -n '/^<!-- example:/,/^<!-- end of example/p' "$root/README.md" | sed '1,2d;$d' | sed '$d' >"$dir/example.c"
ok "the README's example is there to build" grep -q "harmonics_fit" "$dir/example.c"
export PKG_CONFIG_PATH="$(dirname "$pc")" PKG_CONFIG_SYSROOT_DIR="$stage"
run_capture sh -c "cc -std=c11 -Wall -Wextra -Werror -o '$dir/example' '$dir/example.c' \$(pkg-config --cflags --libs hydrocl) -lm"
ok "it builds with pkg-config --cflags --libs hydrocl alone, without a warning" equals "$rc" 0
run_capture env LD_LIBRARY_PATH="$library_dir" "$dir/example"
ok "and runs" equals "$rc" 0
ok "listing a device" contains "$out" "device 0: "
ok "fitting the harmonics it made" contains "$out" "A1 = 0.030000 m at 0.5000 rad, A2 = 0.004000 m at 1.0000 rad"
tap_done
