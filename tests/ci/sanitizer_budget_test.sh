#!/usr/bin/env bash
# .ci/sanitizer_budget.bash: when CI's sanitizer stage runs, and what it says of settings
# it cannot use. Each case names what it expects; any mismatch fails the test.
set -uo pipefail
source "$(dirname "$0")/../../.ci/sanitizer_budget.bash"
failures=0
expect() {  # WHAT EXPECTED ACTUAL
  if [ "$2" = "$3" ]; then echo "PASS: $1"; else echo "FAIL: $1: expected '$2', got '$3'"; failures=$((failures + 1)); fi
}

expect "budget, at the limit: runs" "" "$(sanitizer_skip_reason budget 2700 2700)"
expect "budget, before it: runs" "" "$(sanitizer_skip_reason budget 2700 12)"
expect "budget, one second past: skipped, saying the time and the budget" \
  "the run is at 2701s, past its budget of 2700s for starting them (PARLAB_CI_SANITIZERS_BY)" \
  "$(sanitizer_skip_reason budget 2700 2701)"
expect "always, far past the budget: runs" "" "$(sanitizer_skip_reason always 2700 9000)"
expect "never, at second 0: skipped, naming the setting" "PARLAB_CI_SANITIZERS=never" \
  "$(sanitizer_skip_reason never 2700 0)"

expect "valid settings: no error" "" "$(sanitizer_settings_error budget 2700)"
expect "budget 0 is valid (never in time)" "" "$(sanitizer_settings_error budget 0)"
expect "an unknown mode is named" "PARLAB_CI_SANITIZERS must be always, never or budget, got 'sometimes'" \
  "$(sanitizer_settings_error sometimes 2700)"
expect "a budget that is not seconds is named" \
  "PARLAB_CI_SANITIZERS_BY must be a whole number of seconds, got '45m'" "$(sanitizer_settings_error budget 45m)"
expect "an empty budget is named" "PARLAB_CI_SANITIZERS_BY must be a whole number of seconds, got ''" \
  "$(sanitizer_settings_error budget '')"

[ "$failures" -eq 0 ] || { echo "$failures case(s) failed"; exit 1; }
