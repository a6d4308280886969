#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test_toy_model.sh: a model added as a program adds its own (tests/cli/toy_model.c: one file, one registry line)
# gets everything a run does from the harness: help and `defaults` know it, validate prints its numbers, `run` writes
# map, history and restart files that hold its exact solution, a continued run repeats the uninterrupted one bit for
# bit, and a run that diverges stops with 79 at its last good state.
# Usage: test_toy_model.sh HYDROCL_TOY_MODEL SOURCE_ROOT
set -u
toy=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$2" && pwd)
. "$root/tests/support/tap.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1

cat >toy.yml <<'YAML'
model: {name: toy-decay}
grid: {nx: 8, ny: 6, dx: 2}
time: {end: 1, dt: 0.05}
physics: {tau: 0.5}
output: {interval: 0.25, gauges: [{name: G, x: 5, y: 5}]}
restart: {interval: 0.5}
YAML

run_capture "$toy" help
ok "help lists the toy among the models" contains "$out" "toy-decay"
run_capture "$toy" defaults toy-decay
ok "defaults writes its template with the harness's keys" contains "$out" "restart:"
run_capture "$toy" validate toy.yml
ok "validate accepts the case" equals "$rc" 0
ok "and prints the model's line and the harness's" contains "$out" "decay by 0.1 a step"

run_capture "$toy" run toy.yml -o whole -q
ok "the toy runs" equals "$rc" 0
# zeta(n) = (1 - dt / tau)^n (x + 2 y), a linear field, which the gauge's bilinear interpolation holds exactly. The
# files store float32 (relative rounding 6e-8) of 20 steps in the build's precision (float: 20 roundings of 6e-8):
# 1e-5 of the field's scale holds either.
ok "map and history hold the exact solution" /usr/bin/python3 -c '
import sys, netCDF4, numpy
with netCDF4.Dataset(sys.argv[1] + "/map.nc") as m, netCDF4.Dataset(sys.argv[1] + "/history.nc") as h:
    t, x, y, zeta = m["time"][:], m["x"][:], m["y"][:], m["zeta"][:]
    assert list(t) == [0, 0.25, 0.5, 0.75, 1.0], t
    factor = 0.9 ** numpy.round(t / 0.05)
    exact = factor[:, None, None] * (x[None, None, :] + 2 * y[None, :, None])
    assert numpy.abs(zeta - exact).max() < 1e-5 * numpy.abs(exact).max(), numpy.abs(zeta - exact).max()
    gauge = h["zeta"][:, 0]
    assert numpy.abs(gauge - factor * 15).max() < 1e-5 * 15, gauge' whole

run_capture "$toy" run toy.yml --set time.end=0.5 -o split -q
run_capture "$toy" run toy.yml -o split -q --restart latest
ok "continued from its restart at t = 0.5 s" equals "$rc" 0
ok "it gives the uninterrupted run's map and history bit for bit" /usr/bin/python3 -c '
import subprocess, sys
for name in ("map.nc", "history.nc"):
    subprocess.run([sys.executable, sys.argv[3], sys.argv[1] + "/" + name, sys.argv[2] + "/" + name, "zeta", "time"],
                   check=True)' whole split "$root/tests/cli/ncsame.py"

# A step of 3 tau multiplies by -2 a step (no output event to shorten it): the guard at the first check, after 10
# steps, stops the run.
run_capture "$toy" run toy.yml --set time.dt=1.5 --set time.end=30 --set output.interval=0 --set restart.interval=0 \
  -o diverged -q
ok "a diverging toy stops with 79" equals "$rc" 79
ok "saying where its last good state is" contains "$err" "the last good state (t = 0 s) is in diverged/restart-0.nc"
ok "which holds the initial field" /usr/bin/python3 -c '
import sys, netCDF4, numpy
with netCDF4.Dataset(sys.argv[1]) as r:
    assert float(r["zeta"][0, 0]) == 1 + 2 * 1, r["zeta"][0, 0]' diverged/restart-0.nc
tap_done
