# Class folders for the `grade batch` tests (sourced after lib.bash, not a test itself).
# Built from the lab01 skeleton, reference and fake submissions; archives with tar and
# bsdtar (libarchive-tools), hostile ones included.
SKELETON="$PARLAB_SOURCE_DIR/labs/lab01-multiprocessing/skeleton"
REFERENCE="$PARLAB_SOURCE_DIR/reference/lab01-multiprocessing"

# make_class DIR SCRATCH: 20 submissions, each kind of bad input once or more, and
# SCRATCH/roster.csv naming two of them and one student who submitted nothing.
# Expected rows (with the roster) are listed in expected_statuses below.
# The hostile archives' file is named ESCAPE_NAME, unique to this run (two batch tests
# side by side must never see each other's): '../'x6 + it, and SCRATCH/abs_ + it.
make_class() {
  local c=$1 t=$2
  ESCAPE_NAME="escape-$$-$(date +%s%N).txt"
  mkdir -p "$c" "$t"
  cp -r "$REFERENCE" "$c/ref_folder"
  mkdir -p "$t/wrap/lab01" && cp "$REFERENCE"/* "$t/wrap/lab01/"
  (cd "$t/wrap" && bsdtar -a -cf "$c/ref_zip.zip" lab01)            # a zipped folder
  (cd "$REFERENCE" && tar -czf "$c/ref_targz.tar.gz" .)             # "./" entries
  cp -r "$SKELETON" "$c/skel_a"
  (cd "$SKELETON" && bsdtar -a -cf "$c/skel_b.zip" file_stats.cpp)
  cp -r "$FAKES/wrong" "$c/wrong"
  (cd "$FAKES/crash" && tar -cf "$c/crash.tar" file_stats.cpp)
  for i in 1 2 3 4; do cp -r "$FAKES/compile_error" "$c/noncompiling_$i"; done
  echo "this is not a zip archive" >"$c/corrupt.zip"
  echo pwned >"$t/$ESCAPE_NAME"
  (cd "$t" && tar -cPf "$c/dotdot.tar" --transform 's,^,../../../../../../,' "$ESCAPE_NAME")
  (cd "$t" && tar -cPf "$c/absolute.tar" --transform "s,^,$t/abs_,"  "$ESCAPE_NAME")
  mkdir -p "$t/lnk" && ln -sf /etc/passwd "$t/lnk/file_stats.cpp"
  (cd "$t/lnk" && tar -czf "$c/symlink_out.tar.gz" file_stats.cpp)
  mkdir -p "$t/big" && head -c 3000000 /dev/zero >"$t/big/file_stats.cpp"
  (cd "$t/big" && bsdtar -a -cf "$c/too_big.zip" file_stats.cpp)
  echo "rar" >"$c/wrong_format.rar"
  tar -cf "$c/empty.tar" -T /dev/null
  : >"$c/truncated.tar.gz"; head -c 300 "$c/ref_targz.tar.gz" >"$c/truncated.tar.gz"
  mkdir -p "$t/mac/lab01" "$t/mac/__MACOSX/lab01" && cp "$SKELETON/file_stats.cpp" "$t/mac/lab01/"
  echo junk >"$t/mac/__MACOSX/lab01/._file_stats.cpp"
  (cd "$t/mac" && bsdtar -a -cf "$c/macos.zip" lab01 __MACOSX)
  echo "notes for the TA" >"$c/README.txt"
  printf 'folder,id,name\nref_folder,s001,"Liddell, Alice"\nwrong,s002,Bob\nzoe,s999,Zoe\n' >"$t/roster.csv"
}

# escaped_files W: every file named like this run's ESCAPE_NAME that a hostile entry
# could have written: anywhere under the test's folder W but the original (SCRATCH/abs_
# is below W; the '../' chain from an unpack folder below W lands below W or in one of
# W's ancestors), in W's ancestors, and in the current folder and its ancestors (an
# entry resolved against it); paths as written and with symlinks resolved. Another
# test's files never match: the name is unique to this run.
escaped_files() {
  local w=$1 d
  find "$w" -name "*$ESCAPE_NAME" ! -path "$w/t/$ESCAPE_NAME" 2>/dev/null
  for d in "$(dirname "$w")" "$(dirname "$(realpath "$w")")" "$PWD" "$(pwd -P)"; do
    while :; do
      [ -e "$d/$ESCAPE_NAME" ] && echo "$d/$ESCAPE_NAME"
      [ "$d" = / ] || [ "$d" = . ] && break
      d=$(dirname "$d")
    done
  done | sort -u
}

# The options every batch test grades with: quick, correctness only, small size cap.
BATCH_OPTS=(--no-perf --wall-limit 5 --max-unpacked-mb 2)

# id,status pairs the class must produce, sorted by id.
expected_statuses() {
  LC_ALL=C sort <<'ROWS'
absolute,rejected
corrupt,rejected
crash,graded
dotdot,rejected
empty,rejected
macos,graded
noncompiling_1,build_failed
noncompiling_2,build_failed
noncompiling_3,build_failed
noncompiling_4,build_failed
ref_targz,graded
ref_zip,graded
s001,graded
s002,graded
s999,missing
skel_a,graded
skel_b,graded
symlink_out,rejected
too_big,rejected
truncated,rejected
wrong_format,rejected
ROWS
}

# id,status columns of a gradebook, header dropped.
# (Quoted names hold commas, so the id and status are taken from the end of the
# "name,id,entry,status," prefix only for rows whose name is unquoted or simple.)
gradebook_statuses() {
  awk 'NR > 1' "$1" | sed -E 's/^"[^"]*"//; s/^[^,]*,//' | awk -F, '{ print $1 "," $3 }' | LC_ALL=C sort
}
