#!/usr/bin/env bash
# Lints the CI examples: yamllint (Debian package `yamllint`) when installed, and a
# structural check with python3 + PyYAML (Debian `python3-yaml`): the jobs, images and
# commands the examples promise are where GitLab and GitHub read them.
set -euo pipefail
cd "$(dirname "$0")"
if command -v yamllint >/dev/null; then
  yamllint -d '{extends: default, rules: {line-length: {max: 120}, document-start: disable, truthy: {check-keys: false}}}' \
    gitlab-ci.yml github-actions.yml
  echo "lint: yamllint clean"
else
  echo "lint: yamllint not installed (apt-get install yamllint): structure only"
fi
python3 - <<'PY'
import yaml
gl = yaml.safe_load(open("gitlab-ci.yml"))
assert gl["stages"] == ["check", "image", "gpu"], gl["stages"]
for job, stage in [("quick-start", "check"), ("gpu-image", "image"), ("gpu-suite", "gpu")]:
    assert gl[job]["stage"] == stage and gl[job]["script"], job
assert "gpu" in gl["gpu-suite"]["tags"]
assert any("run_gpu_suite.sh" in line for line in gl["gpu-suite"]["script"])
assert any("Dockerfile.gpu" in line for line in gl["gpu-image"]["script"])
gh = yaml.safe_load(open("github-actions.yml"))
on = gh.get("on", gh.get(True))  # YAML 1.1 reads a bare `on` as true
assert {"push", "pull_request", "workflow_dispatch"} <= set(on), on
jobs = gh["jobs"]
assert jobs["gpu-suite"]["runs-on"] == ["self-hosted", "linux", "gpu"]
steps = " ".join(str(s.get("run", "")) for s in jobs["gpu-suite"]["steps"])
assert "Dockerfile.gpu" in steps and "--gpus all" in steps and "run_gpu_suite.sh" in steps
assert any(s.get("run") == "bash .ci/run" for s in jobs["quick-start"]["steps"])
print("lint: structure of gitlab-ci.yml and github-actions.yml as documented")
PY
