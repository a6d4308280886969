# SPDX-License-Identifier: BSD-3-Clause
# tap.sh: Test Anything Protocol helpers for hydrocl's shell tests (sourced). ok/check report one assertion each;
# tap_done prints the plan and exits with the status meson reads.
tap_count=0
tap_failures=0

# ok DESCRIPTION CONDITION-COMMAND...: runs the command, reports its success.
ok() {
  local description=$1
  shift
  tap_count=$((tap_count + 1))
  if "$@"; then
    echo "ok $tap_count - $description"
  else
    echo "not ok $tap_count - $description"
    tap_failures=$((tap_failures + 1))
  fi
}

# run_capture CMD...: runs a command, keeping its stdout, stderr and exit status in $out, $err, $rc.
run_capture() {
  local tmp_out tmp_err
  tmp_out=$(mktemp) tmp_err=$(mktemp)
  "$@" >"$tmp_out" 2>"$tmp_err"
  rc=$?
  out=$(cat "$tmp_out")
  err=$(cat "$tmp_err")
  rm -f "$tmp_out" "$tmp_err"
  if [ "$rc" -ne 0 ] || [ -n "${TAP_VERBOSE:-}" ]; then
    printf '%s\n' "# \$ $*" "# exit $rc" "$(printf '%s\n' "$err" | head -40 | sed 's/^/# /')"
  fi
}

contains() { case "$1" in *"$2"*) return 0 ;; *) return 1 ;; esac; }
equals() { [ "$1" = "$2" ]; }

tap_done() {
  echo "1..$tap_count"
  [ "$tap_failures" -eq 0 ]
  exit $?
}
