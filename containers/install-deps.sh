#!/usr/bin/env bash
# The one place parlab's build and test dependencies are installed (Debian 12 packages).
# Used by the README quick start, .ci/run and the container recipes. Idempotent: it
# installs only what is missing, so later runs cost a dpkg query.
set -euo pipefail

packages=(
  g++ cmake ninja-build pkg-config
  catch2                          # Catch2 v2 (single header) for unit tests
  libboost-dev                    # Boost.Process (header-only in 1.74)
  libboost-program-options-dev    # the CLI
  libboost-filesystem-dev         # required by Boost.Process v1
  libboost-context-dev            # fibers for the CUDA simulation backend
  libfccp-dev                     # fast-cpp-csv-parser
  nlohmann-json3-dev
  libtomlplusplus-dev
  nettle-dev                      # HMAC-SHA256: the simulator seals its reports (docs/sandbox.md)
  bubblewrap                      # sandbox for submissions (used when present)
  libseccomp-dev                  # without bubblewrap: runs get no network sockets, io_uring or keyrings
  libarchive-dev                  # grade batch: unpacking students' .zip/.tar(.gz) safely
  libarchive-tools                # bsdtar: the batch tests build .zip class folders with it
  similarity-tester               # grade similarity: sim_c++ and sim_text, copying checks offline
  slurm-wlm                       # grade batch --slurm: sbatch, and slurmctld+slurmd for its test
  python3                         # e2e tests and bench scripts read result JSON with it
  python3-numpy                   # Python tracks of lab02/lab03: NumPy, worker processes
  python3-joblib                  #   joblib.Parallel, which the course material teaches
  python3-numba                   #   Numba's @cuda.jit kernels (its CUDA simulator without a GPU)
  patch                           # tests/fakes/make_fake.sh: fakes are the reference plus a .patch
  procps                          # ps and pgrep in e2e tests (minbase lacks them; slurm-wlm pulls them in today)
  ccache                          # the export e2e tests build two kits from one compiler cache
  chromium                        # e2e html_reports: renders the HTML reports headless, screenshots
  fonts-dejavu-core               # a font for those screenshots (the pages name no web font)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  SUDO=sudo
else
  SUDO=
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
