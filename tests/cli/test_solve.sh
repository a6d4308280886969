#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test_solve.sh: `hydrocl solve-poisson`, the RRB paper's model problem, as a user runs it: it converges, the error
# against the exact solution falls as h^2, plain CG takes the iterations of the host reference CG (71 at 31^2, 144
# at 63^2: tests/unit/test_rrb_reference.c), RRB (the default) those of the host reference's RRB-PCG with the
# paper's M-norm criterion (the same test: 6 and 7 with the default exact last level of 16 x 16 nodes, 9 and 10 with
# RRB to one node), the multigrid and mixed precision reach the same solution, and usage mistakes exit 64 with a
# message. A preconditioner a program registers (HYDROCL_TOY: tests/cli/toy_precond.c) is one of the command's.
# Usage: test_solve.sh HYDROCL HYDROCL_TOY
set -u
hydrocl=$1
hydrocl_toy=$2
. "$(dirname "$0")/../support/tap.sh"

declare -A errors iterations
declare -A rrb_iterations rrb_deep_iterations rrb_errors
for n in 31 63; do
  run_capture "$hydrocl" solve-poisson --n "$n" --precision double --preconditioner plain
  ok "solve-poisson --n $n --preconditioner plain exits 0" equals "$rc" 0
  errors[$n]=$(sed -n 's/^error: max \([^,]*\),.*/\1/p' <<<"$out")
  iterations[$n]=$(sed -n 's/^iterations: \([0-9]*\) (converged)$/\1/p' <<<"$out")
  run_capture "$hydrocl" solve-poisson --n "$n" --precision double
  ok "solve-poisson --n $n (RRB) exits 0" equals "$rc" 0
  rrb_errors[$n]=$(sed -n 's/^error: max \([^,]*\),.*/\1/p' <<<"$out")
  run_capture "$hydrocl" solve-poisson --n "$n" --precision double --norm m
  ok "solve-poisson --n $n --norm m exits 0" equals "$rc" 0
  rrb_iterations[$n]=$(sed -n 's/^iterations: \([0-9]*\) (converged)$/\1/p' <<<"$out")
  run_capture "$hydrocl" solve-poisson --n "$n" --precision double --norm m --rrb-exact 1
  ok "solve-poisson --n $n --norm m --rrb-exact 1 exits 0" equals "$rc" 0
  rrb_deep_iterations[$n]=$(sed -n 's/^iterations: \([0-9]*\) (converged)$/\1/p' <<<"$out")
done
# h from 1/32 to 1/64: a second-order error falls by 4 (3.99 measured); 3.5 leaves room for the O(h^4) rest.
ok "RRB's error falls as h^2 (${rrb_errors[31]} -> ${rrb_errors[63]})" python3 -c '
import sys
assert float(sys.argv[1]) / float(sys.argv[2]) > 3.5' "${rrb_errors[31]}" "${rrb_errors[63]}"
ok "RRB takes the host reference's iterations (6 and 7; got ${rrb_iterations[31]} and ${rrb_iterations[63]})" \
  test "${rrb_iterations[31]}" = 6 -a "${rrb_iterations[63]}" = 7
ok "RRB to one node takes the host's (9 and 10; got ${rrb_deep_iterations[31]} and ${rrb_deep_iterations[63]})" \
  test "${rrb_deep_iterations[31]}" = 9 -a "${rrb_deep_iterations[63]}" = 10
ok "plain CG takes the host reference's iterations (71 and 144; got ${iterations[31]} and ${iterations[63]})" \
  test "${iterations[31]}" = 71 -a "${iterations[63]}" = 144
# h from 1/32 to 1/64: a second-order error falls by 4 (3.99 measured); 3.5 leaves room for the O(h^4) rest.
ok "the error falls as h^2 (${errors[31]} -> ${errors[63]})" python3 -c '
import sys
assert float(sys.argv[1]) / float(sys.argv[2]) > 3.5' "${errors[31]}" "${errors[63]}"
run_capture "$hydrocl" solve-poisson --n 31 --precision double --preconditioner jacobi
ok "Jacobi converges too" test "$rc" = 0 -a -n "$(grep '(converged)' <<<"$out")"
# The other Krylov methods with RRB, chosen by --method: the same discrete solution, so the same error as CG's to
# the digits printed (each stops at 1e-5 of ||b||, three orders below the discretization error of 3.4e-6 ... 8e-7).
for method in gmres dc; do
  run_capture "$hydrocl" solve-poisson --n 63 --precision double --method "$method"
  error=$(sed -n 's/^error: max \([^,]*\),.*/\1/p' <<<"$out")
  ok "--method $method with RRB converges to CG's error (${rrb_errors[63]}; got $error)" python3 -c '
import sys
assert abs(float(sys.argv[1]) / float(sys.argv[2]) - 1) < 0.05' "$error" "${rrb_errors[63]}"
done
# The count RRB-CG has taken on the paper's problem at 2048^2 in its M-norm criterion since the solver came in
# (bench/README.md: rrb), through the solver layer's CG and RRB preconditioner.
run_capture "$hydrocl" solve-poisson --n 2048 --precision double --norm m
ok "2048^2, RRB-CG in the M-norm: 12 iterations" test "$rc" = 0 -a -n "$(grep '^iterations: 12 (converged)$' <<<"$out")"
# The multigrid, in double and mixed (float V-cycle under double CG), to 1e-10 of ||b||: the true residual printed
# within it, the error RRB's to the digits printed (the discretization's, 8e-7, far above the criterion).
for precision in double mixed; do
  run_capture "$hydrocl" solve-poisson --n 63 --precision "$precision" --preconditioner mg --tolerance 1e-10
  error=$(sed -n 's/^error: max \([^,]*\),.*/\1/p' <<<"$out")
  ok "multigrid-CG, --precision $precision: converged, true residual within 1e-10, CG's error" python3 -c '
import re, sys
ratio = float(re.search(r"final / initial ([0-9.e+-]+)", sys.argv[1]).group(1))
assert "(converged)" in sys.argv[1] and ratio <= 1e-10 * 1.0001, ratio  # initial = ||b|| from x = 0
assert abs(float(sys.argv[2]) / float(sys.argv[3]) - 1) < 0.05' "$out" "$error" "${rrb_errors[63]}"
done
run_capture "$hydrocl" solve-poisson --n 63 --precision mixed --preconditioner rrb --tolerance 1e-10
ok "RRB in float under double CG converges too" test "$rc" = 0 -a -n "$(grep '(converged)' <<<"$out")"
run_capture "$hydrocl" solve-poisson --n 31 --precision mixed --preconditioner jacobi
ok "--precision mixed with Jacobi: exit 64, naming the preconditioners that have it" test "$rc" = 64 -a \
  -n "$(grep "use --preconditioner rrb or mg" <<<"$err")"
run_capture "$hydrocl" solve-poisson --n 31 --method bicg
ok "an unknown method: exit 64, naming the choices" test "$rc" = 64 -a -n "$(grep -F "use one of cg|gmres|dc|pipecg" <<<"$err")"

run_capture "$hydrocl" solve-poisson
ok "without --n: exit 64" test "$rc" = 64 -a -n "$(grep -- "needs --n N" <<<"$err")"
run_capture "$hydrocl" solve-poisson --n 31 --preconditioner ilu
ok "an unknown preconditioner: exit 64, naming the choices" test "$rc" = 64 -a -n "$(grep "rrb, mg, jacobi or none" <<<"$err")"
run_capture "$hydrocl" solve-poisson --n 31 --norm 1
ok "an unknown norm: exit 64, naming the choices" test "$rc" = 64 -a -n "$(grep "use 2 .* or m" <<<"$err")"
run_capture "$hydrocl" solve-poisson --n 0
ok "--n 0: exit 64" equals "$rc" 64
run_capture "$hydrocl" solve-poisson --n 63 --precision double --rrb-levels 3
ok "--rrb-levels 3 on 63^2: RRB-3, its last level of 16 x 16 nodes exact" \
  test "$rc" = 0 -a -n "$(grep "^preconditioner: RRB-3, the last level of 16 x 16 nodes" <<<"$out")"
run_capture "$hydrocl" solve-poisson --n 63 --rrb-levels 1
ok "--rrb-levels 1: exit 64, use 2 or more" test "$rc" = 64 -a -n "$(grep "use 2 or more" <<<"$err")"
# The toy M = 2 I: listed with the others, and CG with it takes plain CG's iterations (scaling M changes no iterate).
run_capture "$hydrocl_toy" help solve-poisson
ok "a registered preconditioner is in the command's help" contains "$out" "rrb, mg, jacobi, none or toy"
run_capture "$hydrocl_toy" solve-poisson --n 31 --precision double --preconditioner toy
ok "and solve-poisson takes it: plain CG's ${iterations[31]} iterations" equals \
  "$(sed -n 's/^iterations: \([0-9]*\) (converged)$/\1/p' <<<"$out")" "${iterations[31]}"
run_capture "$hydrocl_toy" solve-poisson --n 31 --precision mixed --preconditioner toy
ok "with no float form it refuses --precision mixed, naming those that have one" \
  test "$rc" = 64 -a -n "$(grep "use --preconditioner rrb or mg (toy has no float form" <<<"$err")"
run_capture "$hydrocl" solve-poisson --n 63 --rrb-exact 2000
ok "--rrb-exact 2000: exit 64, naming the range" test "$rc" = 64 -a -n "$(grep "from 0 to 256" <<<"$err")"
run_capture "$hydrocl" solve-poisson --n 255 --rrb-levels 2
ok "--rrb-levels 2 on 255^2 (a last level of 128^2 nodes): exit 65, naming the fewest levels" \
  test "$rc" = 65 -a -n "$(grep "ask for at least 5 levels" <<<"$err")"
tap_done
