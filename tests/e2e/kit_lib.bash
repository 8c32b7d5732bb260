# Shared by export_student_kit.sh and export_gradescope.sh (sourced, not a test).
# build_kit DIR: configures and builds an unpacked kit as its README says. Both tests
# build a whole kit; with ccache installed they use the user's cache (CCACHE_DIR or
# ccache's default) with CCACHE_BASEDIR at the kit, so paths are relative and the second
# kit, or a kit after a build that used ccache the same way (the build's own launcher,
# CMakeLists.txt), mostly hits.
kit_build_env() {
  if command -v ccache >/dev/null; then
    export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_CUDA_COMPILER_LAUNCHER=ccache
    export CCACHE_BASEDIR="$1" CCACHE_NOHASHDIR=1
  fi
}
build_kit() {
  ( cd "$1" && kit_build_env "$1" && cmake --preset default >"$E2E_WORK/kit-configure.log" 2>&1 &&
    cmake --build build -j"$(nproc)" >"$E2E_WORK/kit-build.log" 2>&1 )
}
# no_reference_source_in DIR: no file of reference/ (by content) and no reference/ or
# simulator-rewritten folder anywhere in DIR.
no_reference_source_in() {
  local kit=$1 leaked=0 sum
  declare -A kit_sums=()
  while read -r sum _; do kit_sums[$sum]=1; done < <(find "$kit" -type f -not -path "$kit/build/*" -exec sha256sum {} +)
  while read -r sum file; do
    if [ -n "${kit_sums[$sum]:-}" ]; then fail "reference source $file is in the kit"; leaked=1; fi
  done < <(find "$PARLAB_SOURCE_DIR/reference" -type f -exec sha256sum {} +)
  [ "$leaked" = 0 ] && pass "no reference source file is in the kit (by content)"
  # grep reads all of find's output (no -q): with pipefail, find dying of SIGPIPE after an
  # early -q match would fail the pipe and hide the folder.
  if find "$kit" -path "$kit/build" -prune -o \( -name reference -o -name 'sim-rewritten' \) -print | grep . >/dev/null; then
    fail "a reference/ or sim-rewritten folder is in the kit"
  else
    pass "no reference/ or sim-rewritten folder in the kit"
  fi
}
