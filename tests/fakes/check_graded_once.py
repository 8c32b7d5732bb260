#!/usr/bin/env python3
"""Each fake is graded at most once per suite run.

  check_graded_once.py --root SRC --ledger RESULTS/ledger.tsv

Checks that
  - the fake table (tests/agreement/verdicts.tsv, every line with --no-perf, and
    tests/fakes/gradings.tsv) names no (lab, submission, mode) twice;
  - the fixture's ledger (tests/fakes/grade_table.sh) graded every table line exactly once;
  - no e2e script grades a table line itself: a `run_grade` (or "$GRADE") in sim of
    --reference, or of "$FAKE_DIR" after `fake_submission LAB FAKE`, with the options of a
    table line, must read the fixture's grading instead (lib.bash's fake_result).
Without --ledger only the table and the scripts are checked. Exit 1 names each problem.
"""
import argparse
import re
import shlex
import sys
from collections import Counter
from pathlib import Path

# Options that do not change what a grading gives: where it works and writes.
PLACE_OPTIONS = {"--work-dir", "--json"}


def read_tsv(path, columns):
    rows = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) < columns:
            raise SystemExit(f"{path}:{number}: {columns} tab-separated fields expected: {line!r}")
        rows.append((number, fields))
    return rows


def table_lines(root):
    """(lab, submission, mode) of every table line, with where it is written."""
    lines = []
    verdicts = root / "tests/agreement/verdicts.tsv"
    for number, f in read_tsv(verdicts, 3):
        lines.append(((f[0], f[1], "--no-perf"), f"{verdicts.name}:{number}"))
    gradings = root / "tests/fakes/gradings.tsv"
    for number, f in read_tsv(gradings, 3):
        lines.append(((f[0], f[1], " ".join(f[2].split())), f"{gradings.name}:{number}"))
    return lines


def logical_lines(text):
    """The script's lines with backslash continuations joined."""
    return re.sub(r"\\\n\s*", " ", text).splitlines()


def mode_of(words):
    """The grade options after the target, as a table writes them ("-" for none)."""
    mode, skip = [], False
    for i, word in enumerate(words):
        if skip:
            skip = False
            continue
        if word in PLACE_OPTIONS:
            skip = True
        elif word == "--device":
            skip = True
        elif word != "--reference":
            mode.append(word)
    return " ".join(mode) or "-"


def gradings_in(script):
    """(line number, lab, submission, mode) of each sim grading the script runs itself."""
    fake = None
    for number, line in enumerate(logical_lines(script.read_text()), 1):
        line = line.split(" #", 1)[0].strip()
        try:
            words = shlex.split(line)
        except ValueError:
            continue
        if len(words) >= 3 and words[0] == "fake_submission":
            fake = (words[1], words[2])
            continue
        if words and re.fullmatch(r"\w+=.*", words[0]):
            continue  # an environment of its own: not a table grading
        if words[:1] == ["run_grade"]:
            words = words[2:]
        elif words[:1] == ["$GRADE"]:
            words = words[1:]
        else:
            continue
        if "--device" not in words or words[words.index("--device") + 1:][:1] != ["sim"]:
            continue
        if len(words) < 2:
            continue
        lab, target = words[0], words[1]
        if target == "--reference":
            yield number, lab, "reference", mode_of(words[1:])
        elif target == "$FAKE_DIR" and fake and fake[0] == lab:
            yield number, lab, fake[1], mode_of(words[2:])


def check(root, ledger):
    problems = []
    lines = table_lines(root)
    where = {}
    for key, at in lines:
        if key in where:
            problems.append(f"{at}: {' '.join(key)} is already a table line ({where[key]}): one grading serves both")
        where.setdefault(key, at)
    if ledger is not None:
        graded = Counter(tuple(l.split("\t")) for l in ledger.read_text().splitlines() if l)
        for key, count in sorted(graded.items()):
            if count > 1:
                problems.append(f"{ledger}: {' '.join(key)} graded {count} times in one run")
            if key not in where:
                problems.append(f"{ledger}: {' '.join(key)} graded but in no table")
        for key, at in where.items():
            if key not in graded:
                problems.append(f"{at}: {' '.join(key)} never graded by the fixture ({ledger})")
    for script in sorted((root / "tests/e2e").glob("*.sh")):
        for number, lab, submission, mode in gradings_in(script):
            key = (lab, submission, mode)
            if key in where:
                problems.append(f"tests/e2e/{script.name}:{number}: grades {' '.join(key)} again;"
                                f" read the fixture's grading ({where[key]}) with fake_result")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, required=True, help="the source tree")
    parser.add_argument("--ledger", type=Path, help="the fixture's ledger.tsv")
    args = parser.parse_args()
    if args.ledger is not None and not args.ledger.is_file():
        print(f"no ledger at {args.ledger}: did the fixture (tests/fakes/grade_table.sh) run?")
        return 1
    problems = check(args.root, args.ledger)
    for problem in problems:
        print(problem)
    lines = len(table_lines(args.root))
    print(f"{lines} table line(s), {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
