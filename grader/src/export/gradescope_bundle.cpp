#include "export/gradescope_bundle.hpp"

namespace parlab::grader {

std::string gradescope_setup_script(const std::string& lab_id, const std::vector<std::string>& tracks) {
  std::string words;
  for (const std::string& t : tracks) words += (words.empty() ? "" : " ") + t;
  return R"SH(#!/usr/bin/env bash
# Gradescope runs this once, as root, in /autograder/source, while it builds the image.
# Made by `grade export gradescope` (parlab docs/release.md).
set -euo pipefail
cd "$(dirname "$0")"
bash containers/install-deps.sh
cmake --preset default
cmake --build build
cmake --install build --prefix "${PARLAB_INSTALL_PREFIX:-/usr/local}"
# Each track's skeleton (C++, Python) must build, run beside the prebuilt reference and
# fail its tests (exit 1).
for track in )SH" + words + R"SH(; do
  set +e
  ./build/grade )SH" + lab_id + R"SH( --language "$track" --no-perf --sandbox auto > setup-check.log 2>&1
  rc=$?
  set -e
  if [ "$rc" -ne 1 ]; then
    cat setup-check.log >&2
    echo "setup.sh: grading the )SH" + lab_id + R"SH( $track skeleton exited $rc, expected 1: this image cannot grade" >&2
    exit 1
  fi
done
echo "setup.sh: parlab is built and grades )SH" + lab_id + R"SH( ()SH" + words + R"SH()"
# Which sandbox this image allows (docs/sandbox.md, "Sandbox levels"): bubblewrap as an
# unprivileged user, as the grader's runs use it. run_autograder grades at that level.
probe=(bwrap --unshare-all --die-with-parent --ro-bind / / --proc /proc --dev /dev true)
command -v setpriv >/dev/null && probe=(setpriv --reuid=65534 --regid=65534 --clear-groups "${probe[@]}")
if command -v bwrap >/dev/null && "${probe[@]}" >/dev/null 2>&1; then
  echo require > sandbox-level
  echo "setup.sh: bubblewrap works in this image: submissions are graded with --sandbox require"
else
  echo auto > sandbox-level
  echo "setup.sh: bubblewrap does not work in this image: submissions are graded with the fallback" \
       "sandbox (--sandbox auto; docs/sandbox.md, \"Sealed at every level\", says what it still seals)"
fi
)SH";
}

std::string gradescope_run_script(const std::string& lab_id, const std::vector<std::string>& first_sources) {
  std::string names;  // a bash array's words; the names come from the lab's lab.toml
  for (const std::string& n : first_sources) names += (names.empty() ? "'" : " '") + n + "'";
  return R"SH(#!/usr/bin/env bash
# Gradescope runs this for every submission: grade /autograder/submission into
# /autograder/results/results.json. Made by `grade export gradescope` (docs/release.md).
# PARLAB_SANDBOX: require | auto | off; by default the level setup.sh found this image
# allows (source/sandbox-level: require where bubblewrap works, else auto).
set -uo pipefail
root=${PARLAB_AUTOGRADER_ROOT:-/autograder}
lab=)SH" + lab_id + R"SH(
first_sources=()SH" + names + R"SH()  # each track's first source (C++, Python, ...)
results="$root/results/results.json"
mkdir -p "$root/results"
rm -f "$results"
submission="$root/submission"
# Students upload the files, or a folder holding them: grade the shallowest folder with
# a track's sources (grade then finds the track from them). NUL-separated: a folder name
# holding a newline must not name another folder.
names=()
for name in "${first_sources[@]}"; do
  [ "${#names[@]}" -gt 0 ] && names+=(-o)
  names+=(-name "$name")
done
if [ "${#names[@]}" -gt 0 ]; then
  found=
  IFS= read -r -d '' found < <(find "$submission" \( "${names[@]}" \) -type f -printf '%d %h\0' 2>/dev/null |
                               sort -z -n | head -z -n1)
  found=${found#* }
  [ -n "$found" ] && [ -d "$found" ] && submission=$found
fi
# The level setup.sh found this image allows, unless PARLAB_SANDBOX says otherwise.
level=${PARLAB_SANDBOX:-$(cat "$root/source/sandbox-level" 2>/dev/null || echo auto)}
"$root/source/build/grade" "$lab" "$submission" --sandbox "$level" \
  --gradescope "$results" --json "$root/results/parlab-result.json"
rc=$?
if [ -s "$results" ] && [ -s "$root/results/parlab-result.json" ]; then
  # The student sees which sandbox graded the upload, first thing.
  python3 - "$results" "$root/results/parlab-result.json" <<'PY' || true
import json, sys
out, full = sys.argv[1], json.load(open(sys.argv[2]))
host = full.get("host", {})
r = json.load(open(out))
line = f"Graded in the sandbox: {host.get('sandbox', '?')} (level {host.get('sandbox_level', '?')})."
r["output"] = line + "\n\n" + r.get("output", "")
json.dump(r, open(out, "w"))
PY
fi
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
