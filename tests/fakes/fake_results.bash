# Where the fake-gradings fixture (tests/fakes/grade_table.sh) keeps one table line's
# grading; sourced by it and by tests/e2e/lib.bash so both name the folder alike.
# fake_result_dir RESULTS LAB SUBMISSION MODE: RESULTS/LAB/SUBMISSION/MODE-FOLDER, where
# the mode's grade options become a folder name ("--no-perf" -> no-perf, "--no-perf
# --seed 11" -> no-perf_seed_11, "-" (no option: performance graded) -> perf).
fake_mode_folder() {  # MODE
  if [ "$1" = - ]; then echo perf; return; fi
  local words; read -ra words <<<"$1"
  local IFS=_; words=("${words[@]#--}"); echo "${words[*]}"
}
fake_result_dir() {  # RESULTS LAB SUBMISSION MODE
  echo "$1/$2/$3/$(fake_mode_folder "$4")"
}
