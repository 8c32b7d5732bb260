# Class folders for the `grade batch` tests (sourced after lib.bash, not a test itself).
# Built from the lab01 skeleton, reference and fake submissions; archives with tar and
# bsdtar (libarchive-tools), hostile ones included.
SKELETON="$PARLAB_SOURCE_DIR/labs/lab01-multiprocessing/skeleton"
REFERENCE="$PARLAB_SOURCE_DIR/reference/lab01-multiprocessing"

# make_class DIR SCRATCH: 20 submissions, each kind of bad input once or more, and
# SCRATCH/roster.csv naming two of them and one student who submitted nothing.
# Expected rows (with the roster) are listed in expected_statuses below.
make_class() {
  local c=$1 t=$2
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
  echo pwned >"$t/escape.txt"
  (cd "$t" && tar -cPf "$c/dotdot.tar" --transform 's,^,../../../../../../,' escape.txt)
  (cd "$t" && tar -cPf "$c/absolute.tar" --transform "s,^,$t/abs_,"  escape.txt)
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
