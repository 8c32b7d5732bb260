#!/usr/bin/env bash
# The slowest tests of the last suite run in a build folder, slowest first, as a Markdown
# table (docs/architecture.md, "Slowest tests"). Reads CTest's own record of each test's
# average time (Testing/Temporary/CTestCostData.txt), which `ctest` updates after every
# run and also uses to start the longest tests first when running in parallel.
# Usage: tests/slowest_tests.sh BUILD_DIR [COUNT]   (COUNT: 10 unless given)
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 BUILD_DIR [COUNT]" >&2
  exit 2
fi
costs="$1/Testing/Temporary/CTestCostData.txt"
count="${2:-10}"
if [ ! -f "$costs" ]; then
  echo "$0: no $costs: run the suite (ctest) in $1 first" >&2
  exit 1
fi
case "$count" in ''|*[!0-9]*) echo "$0: COUNT must be a number, got '$count'" >&2; exit 2 ;; esac
# Each line: NAME RUNS AVERAGE_SECONDS (the name may hold spaces); the file ends with a
# "---" line followed by the names of the tests that failed last. Lines with no run are
# left out: CTest also records pieces of names with spaces there, never run.
awk -v count="$count" '
  /^---$/ { exit }
  NF >= 3 && $(NF - 1) > 0 { secs = $NF; runs = $(NF - 1); $NF = ""; $(NF - 1) = ""; sub(/ +$/, "")
            printf "%s\t%s\t%s\n", secs, runs, $0 }
' "$costs" | sort -t$'\t' -k1,1 -g -r | head -n "$count" |
  awk -F'\t' 'BEGIN { print "| test | seconds | runs |"; print "|---|---:|---:|" }
              { printf "| %s | %.0f | %s |\n", $3, $1, $2 }'
