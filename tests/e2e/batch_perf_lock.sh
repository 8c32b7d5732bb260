#!/usr/bin/env bash
# Performance measurements of concurrent gradings never overlap: two reference copies
# graded with --jobs 2 and performance on. Sampling the running lab executables, no
# sample may show one student's performance run beside any other student's run.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/batch_lib.bash"
W="$E2E_WORK"
chmod 755 "$W"
export PARLAB_LOCK_DIR="$W/locks"
mkdir -p "$W/class"
cp -r "$REFERENCE" "$W/class/ref_a"
cp -r "$REFERENCE" "$W/class/ref_b"

"$GRADE" batch lab01 "$W/class" --out "$W/out" --work-dir "$W/work" --jobs 2 >"$W/batch.out" 2>"$W/batch.err" &
pid=$!
# One line per sample: the work folders (one per grading) of this batch's running lab
# executables, tagged "perf" for runs of a performance test. This batch's runs only:
# other gradings on the machine use other locks.
python3 "$(dirname "$0")/lab_run_sampler.py" "$pid" "$W/" "$W/samples.txt" &
sampler=$!
wait "$pid"
echo $? >"$W/batch.rc"
wait "$sampler" || fail "the sampler failed"
expect_rc batch 0
grep -q ':perf' "$W/samples.txt" && pass "performance runs were observed ($(grep -c ':perf' "$W/samples.txt") samples)" ||
  fail "no performance run observed (the test saw nothing)"
# A sample with a perf run must name one grading folder only.
overlap=$(awk '/:perf/ { split($0, a, " "); n = 0; delete seen;
             for (i in a) { split(a[i], p, ":"); if (!(p[1] in seen)) { seen[p[1]] = 1; n++ } }
             if (n > 1) print }' "$W/samples.txt" | head -3)
[ -z "$overlap" ] && pass "no measurement overlapped another grading's runs" ||
  fail "measurement overlapped: $overlap"
for s in ref_a ref_b; do
  expect_field "$W/out/students/$s/result.json" performance_enabled true "$s measured"
done
finish
