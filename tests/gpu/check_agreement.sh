#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: grades every line of tests/agreement/verdicts.tsv with
# --device gpu --no-perf and prints each disagreement with the expected verdict (the
# table the simulator is checked against in CI, e2e sim_agreement). Usage, from a built
# tree: tests/gpu/check_agreement.sh [BUILD_DIR] [LAB_REGEX]. Exit 1 on a disagreement.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build}
exec bash "$ROOT/tests/agreement/check_agreement.sh" "$BUILD/grade" gpu "$BUILD/agreement-gpu" "${2:-.}"
