#!/usr/bin/env bash
# A compile error is reported with the student's own file:line, every test fails; a
# link error (a function never written) names the missing symbol, and so does "Next:".
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
run_grade ce lab01 "$FAKES/compile_error" --work-dir "$W/work" --json "$W/r.json"
expect_rc ce 1
expect_field "$W/r.json" build.diagnostics.0.file "file_stats.cpp" "error points at the student's file, as submitted (no grader folder)"
[[ "$(result_field "$W/r.json" build log)" != *"$W/work"* ]] && pass "no grader work path in the build log" ||
  fail "the build log shows the grader's work path"
expect_some_test "$W/r.json" message "not run: the submission did not compile \(first error: file_stats.cpp:[0-9]+: .*" "each test names the first error"
expect_field "$W/r.json" build.diagnostics.0.line "[1-9][0-9]*" "error names its line"
expect_field "$W/r.json" build.diagnostics.0.severity error "the diagnostic is an error"
expect_field "$W/r.json" score 0 "a build failure scores 0"
expect_field "$W/r.json" build.ok false "the result records the failed build"
expect_no_test "$W/r.json" "passed|partial" "no test passes without a build"
[ -n "$(tests_where "$W/r.json" outcome '.*')" ] &&
  [ "$(tests_where "$W/r.json" outcome not_run)" = "$(tests_where "$W/r.json" outcome '.*')" ] &&
  pass "no test ran without a build" || fail "a test ran without a build: $(tests_where "$W/r.json" outcome '.*')"
expect_message "$W/r.json" "not run: the submission did not compile" "tests say why they did not run"
# text: the console folds the tests' "not run" into one line: its layout is the subject
[ "$(grep -c 'the build failed' "$W/ce.out")" = 1 ] && pass "the build failure is said once" || fail "the build failure repeated per test"
# text: the console's "Next:" line exists only as text
expect_in "$W/ce.out" "^Next:  fix the build error in file_stats.cpp:[0-9]+" "the verdict says what to fix"

# 2. The function the lab asks for, misnamed: compiles, but nothing defines it.
rm -rf "$W/nodef" && cp -r "$PARLAB_SOURCE_DIR/reference/lab01-multiprocessing" "$W/nodef"
sed -i 's/^FileStats compute_file_stats(const std::string& path) {/FileStats compute_file_stat(const std::string\& path) {/' "$W/nodef/file_stats.cpp"
grep -q "compute_file_stat(const" "$W/nodef/file_stats.cpp" || fail "the fake did not rename compute_file_stats"  # text: a setup check on the fake's source
run_grade nodef lab01 "$W/nodef" --work-dir "$W/work" --json "$W/nodef.json"
expect_rc nodef 1
expect_field "$W/nodef.json" build.ok false "an undefined function fails the build"
expect_field "$W/nodef.json" build.diagnostics.0.severity error "the link error is a diagnostic"
[ "$(result_field "$W/nodef.json" build diagnostics | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" = 1 ] &&
  pass "the missing function said once, although two places call it" || fail "the link error is repeated"
expect_field "$W/nodef.json" build.diagnostics.0.message "undefined reference to .lab01::compute_file_stats\(.*" "the diagnostic names the missing function"
# text: the console's "Next:" line exists only as text
expect_in "$W/nodef.out" "^Next:  write the missing definition \(undefined reference to" "the next step names the missing definition"
finish
