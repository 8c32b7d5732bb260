#include "export/gradescope_bundle.hpp"

namespace parlab::grader {

std::string gradescope_setup_script(const std::string& lab_id) {
  return R"SH(#!/usr/bin/env bash
# Gradescope runs this once, as root, in /autograder/source, while it builds the image.
# Made by `grade export gradescope` (parlab docs/release.md).
set -euo pipefail
cd "$(dirname "$0")"
bash containers/install-deps.sh
cmake --preset default
cmake --build build
cmake --install build --prefix "${PARLAB_INSTALL_PREFIX:-/usr/local}"
# The skeleton must build, run beside the prebuilt reference and fail its tests (exit 1).
set +e
./build/grade )SH" + lab_id + R"SH( --no-perf --sandbox auto > setup-check.log 2>&1
rc=$?
set -e
if [ "$rc" -ne 1 ]; then
  cat setup-check.log >&2
  echo "setup.sh: grading the )SH" + lab_id + R"SH( skeleton exited $rc, expected 1: this image cannot grade" >&2
  exit 1
fi
echo "setup.sh: parlab is built and grades )SH" + lab_id + R"SH("
)SH";
}

std::string gradescope_run_script(const std::string& lab_id, const std::vector<std::string>& sources) {
  const std::string first_source = sources.empty() ? "" : sources.front();
  return R"SH(#!/usr/bin/env bash
# Gradescope runs this for every submission: grade /autograder/submission into
# /autograder/results/results.json. Made by `grade export gradescope` (docs/release.md).
# PARLAB_SANDBOX: auto (default; the report says why when bubblewrap cannot run in
# Gradescope's container) | require | off.
set -uo pipefail
root=${PARLAB_AUTOGRADER_ROOT:-/autograder}
lab=)SH" + lab_id + R"SH(
first_source=')SH" + first_source + R"SH('
results="$root/results/results.json"
mkdir -p "$root/results"
rm -f "$results"
submission="$root/submission"
# Students upload the files, or a folder holding them: grade the folder with the sources.
if [ -n "$first_source" ]; then
  found=$(find "$submission" -name "$first_source" -type f -printf '%d %h\n' 2>/dev/null | sort -n | head -n1 | cut -d' ' -f2-)
  [ -n "$found" ] && submission=$found
fi
"$root/source/build/grade" "$lab" "$submission" --sandbox "${PARLAB_SANDBOX:-auto}" \
  --gradescope "$results" --json "$root/results/parlab-result.json"
rc=$?
if [ ! -s "$results" ]; then
  # No result at all (a tool error, exit >= 2): the student still sees why.
  python3 - "$rc" "$results" <<'PY'
import json, sys
rc, out = sys.argv[1], sys.argv[2]
json.dump({"score": 0, "output": f"parlab could not grade this submission (grade exit {rc}); "
           "tell your instructor. The autograder's log has the details."}, open(out, "w"))
PY
fi
exit 0
)SH";
}

}  // namespace parlab::grader
