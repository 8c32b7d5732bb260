#!/usr/bin/env bash
# lab01's Python track (docs/lab-spec.md, "Tracks"), its correctness mistakes, all graded
# with --no-perf (so this script runs beside other tests; the speed verdicts are
# python_lab01.sh): the skeleton 0 with a next step; a syntax error is a build failure at
# file:line; a lambda sent to a pool fails naming pickling; results appended to a global
# list by workers fail naming lost updates; results in completion order fail naming it; a
# pool never closed fails the no-zombies test naming it, and hangs on a killed worker with
# Pool's lesson; top-level code starting a pool fails naming the __main__ guard; memory
# past the limit is the memory limit, naming MemoryError; a folder with both tracks'
# sources is refused.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
REF="$PARLAB_SOURCE_DIR/reference/lab01-multiprocessing/python"
SKEL="$PARLAB_SOURCE_DIR/labs/lab01-multiprocessing/skeleton/python"

# 2. The skeleton, found as Python from its file: runs, scores 0, says what to do.
run_grade skel lab01 "$SKEL" --no-perf --work-dir "$W/work" --json "$W/skel.json"
expect_rc skel 1
expect_field "$W/skel.json" track python "file_stats.py alone is the Python track"
expect_field "$W/skel.json" build.ok true "the skeleton builds"
expect_score "$W/skel.json" 0 100 "the skeleton scores 0 / 100"
expect_message "$W/skel.json" "file_rows\[0\] \(log_000\.csv\): expected [0-9]+, got 0" "the first mismatch is named"
# text: the console's "Next:" line exists only as text
expect_in "$W/skel.out" "^Next:  fix serial statistics first" "a next step"

# 4. A syntax error: a failed build naming the student's file and line.
mkdir -p "$W/syntax" && cp "$REF/file_stats.py" "$W/syntax/"
line=$(($(wc -l <"$W/syntax/file_stats.py") + 1))
echo "def broken(:" >>"$W/syntax/file_stats.py"
run_grade syntax lab01 "$W/syntax" --no-perf --work-dir "$W/work" --json "$W/syntax.json"
expect_rc syntax 1
expect_field "$W/syntax.json" build.ok false "a syntax error fails the build"
expect_field "$W/syntax.json" build.diagnostics.0.file "file_stats.py" "the error names the student's file, as submitted"
expect_field "$W/syntax.json" build.diagnostics.0.line "$line" "and its line"
expect_field "$W/syntax.json" build.diagnostics.0.message "SyntaxError: .*" "and says it is a SyntaxError"
expect_no_test "$W/syntax.json" "passed|partial" "no test passes without a build"

# 5. A lambda sent to a pool cannot be pickled: the tests fail, saying so.
mkdir -p "$W/lambda" && cp "$REF/file_stats.py" "$W/lambda/"
printf '\n\ndef process_parallel(paths, workers, schedule):\n    with multiprocessing.Pool(workers) as pool:\n        return pool.map(lambda p: compute_file_stats(p), paths)\n' >>"$W/lambda/file_stats.py"
run_grade lambda lab01 "$W/lambda" --no-perf --work-dir "$W/work" --json "$W/lambda.json"
expect_rc lambda 1
expect_scored "$W/lambda.json" "serial statistics" "passed 5 5" "the serial part still passes"
expect_test "$W/lambda.json" "dynamic schedule" status failed "a pool given a lambda fails"
expect_test_says "$W/lambda.json" "dynamic schedule" "[Pp]ickl" "the failure names pickling"

# 5c. Lost updates: workers append to a module-level list, which each worker process has
# its own copy of; the parent's stays empty. The parallel tests fail naming the cause.
mkdir -p "$W/global" && cp "$REF/file_stats.py" "$W/global/"
printf '\n\n_results = []\n\n\ndef _collect(path):\n    _results.append(compute_file_stats(path))\n\n\ndef process_parallel(paths, workers, schedule):\n    _results.clear()\n    with multiprocessing.Pool(workers) as pool:\n        pool.map(_collect, paths)\n    return list(_results)\n' >>"$W/global/file_stats.py"
run_grade global lab01 "$W/global" --no-perf --work-dir "$W/work" --json "$W/global.json"
expect_scored "$W/global.json" "serial statistics" "passed 5 5" "the serial part still passes"
expect_test "$W/global.json" "dynamic schedule" status failed "results collected in a global list by workers fail"
expect_test_says "$W/global.json" "dynamic schedule" "returned 0 results for [0-9]+ files.*own copy of the module's globals, so those updates are lost" "the failure names lost updates to the module's globals"

# 5d. Results in completion order (as_completed): every file has its result, in the
# order the work finished. The first file is made slow so the order differs every run.
# The parallel tests fail naming completion order; a killed worker is still reported.
mkdir -p "$W/order" && cp "$REF/file_stats.py" "$W/order/"
printf '\n\nimport concurrent.futures\nimport time\n\n\ndef _stats_first_last(i, path):\n    if i == 0:\n        time.sleep(0.3)  # the first file finishes last\n    return compute_file_stats(path)\n\n\ndef process_parallel(paths, workers, schedule):\n    with concurrent.futures.ProcessPoolExecutor(workers) as pool:\n        futures = [pool.submit(_stats_first_last, i, p) for i, p in enumerate(paths)]\n        return [f.result() for f in concurrent.futures.as_completed(futures)]\n' >>"$W/order/file_stats.py"
run_grade order lab01 "$W/order" --no-perf --work-dir "$W/work" --json "$W/order.json"
expect_rc order 1
expect_scored "$W/order.json" "serial statistics" "passed 5 5" "the serial part still passes"
expect_test "$W/order.json" "dynamic schedule" status failed "results in completion order fail"
expect_test_says "$W/order.json" "dynamic schedule" "in the order the work finished: imap_unordered and as_completed" "the failure names completion order"
expect_test "$W/order.json" "a worker that dies is reported" status passed "a killed worker still breaks the executor's pool: reported"

# 5e. A Pool never closed nor joined: the no-zombies test fails naming it (the garbage
# collector ends such a pool's workers, so Python's ResourceWarning is the evidence). A
# Pool also hangs when a worker is killed: that test's time limit names Pool's lesson,
# not the C++ one about pipe ends.
mkdir -p "$W/noclose" && cp "$REF/file_stats.py" "$W/noclose/"
printf '\n\ndef process_parallel(paths, workers, schedule):\n    pool = multiprocessing.Pool(workers)\n    return pool.map(compute_file_stats, paths)\n' >>"$W/noclose/file_stats.py"
run_grade noclose lab01 "$W/noclose" --no-perf --work-dir "$W/work" --json "$W/noclose.json"
expect_rc noclose 1
expect_scored "$W/noclose.json" "dynamic schedule" "passed 5 5" "an unclosed pool's results are right"
expect_test "$W/noclose.json" "workers reaped (no zombies)" status failed "a pool never closed fails the no-zombies test"
expect_test_says "$W/noclose.json" "workers reaped (no zombies)" "multiprocessing.Pool still running: it was never closed and joined.*with multiprocessing.Pool\(workers\) as pool" "the failure names the unclosed pool and the with block"
expect_test "$W/noclose.json" "a worker that dies is reported" outcome timeout "a Pool whose worker is killed waits forever"
expect_test_says "$W/noclose.json" "a worker that dies is reported" "multiprocessing.Pool never notices a worker that was killed.*BrokenProcessPool" "the time limit names Pool's lesson"
[[ "$(result_field "$W/noclose.json" tests "a worker that dies is reported" message)" != *"right after fork()"* ]] &&
  pass "not the C++ lesson about pipe ends" || fail "the Pool hang got the C++ lesson about pipe ends"

# 5h. No `if __name__ == "__main__":` guard around top-level code that starts a pool:
# under spawn every worker would start workers again. Every test fails at import,
# naming the guard and the student's line.
mkdir -p "$W/noguard" && cp "$REF/file_stats.py" "$W/noguard/"
printf '\n\nimport glob\n\nwith multiprocessing.Pool(2) as _pool:\n    print(_pool.map(compute_file_stats, glob.glob("data/*.csv")))\n' >>"$W/noguard/file_stats.py"
pool_line=$(grep -n "^with multiprocessing.Pool(2)" "$W/noguard/file_stats.py" | cut -d: -f1)
run_grade noguard lab01 "$W/noguard" --no-perf --work-dir "$W/work" --json "$W/noguard.json"
expect_rc noguard 1
expect_score "$W/noguard.json" 0 100 "top-level code starting processes fails every test"
expect_test_says "$W/noguard.json" "serial statistics" "starts worker processes while it is being imported.*spawn start method.*if __name__ == \"__main__\":.*\(at file_stats\.py:$pool_line\)" "the guard, spawn and the student's line are named"

# 5b. Memory past the test's limit (memory_mb), in the driver's process and in pool
# workers: the runs end memory_limit, as a C++ std::bad_alloc does, naming MemoryError.
run_grade alloc lab01 "$FAKES/python_alloc" --no-perf --work-dir "$W/work" --json "$W/alloc.json"
expect_rc alloc 1
expect_test "$W/alloc.json" "serial statistics" outcome memory_limit "a MemoryError in the driver's process is the memory limit"
expect_test "$W/alloc.json" "dynamic schedule" outcome memory_limit "... and in a pool's worker"
expect_test_says "$W/alloc.json" "serial statistics" "memory limit.*MemoryError \(at file_stats\.py:12\) escaped task" "the message names the limit, MemoryError and the student's line"

# 6. Both tracks' sources in one folder: refused before grading, naming both and --language.
mkdir -p "$W/both" && cp "$REF/file_stats.py" "$PARLAB_SOURCE_DIR/labs/lab01-multiprocessing/skeleton/file_stats.cpp" "$W/both/"
run_grade both lab01 "$W/both" --no-perf --work-dir "$W/work" --json "$W/both.json"
expect_rc both 2
# text: a usage error is printed before any report exists
expect_in "$W/both.err" "both file_stats.cpp \(cpp track\) and file_stats.py \(python track\).*--language" "both files and --language named"
run_grade both_py lab01 "$W/both" --language python --no-perf --work-dir "$W/work" --json "$W/both_py.json"
expect_field "$W/both_py.json" track python "--language python grades the Python file"
expect_score "$W/both_py.json" 60 100 "... with full correctness marks"
finish
