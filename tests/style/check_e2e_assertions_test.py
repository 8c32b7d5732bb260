#!/usr/bin/env python3
"""The e2e assertion check on made-up scripts: it refuses a grep of a result.json and
console wording outside a console test, follows a variable to its file, and lets
artifacts, console tests and lines that say why pass."""
import pathlib
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from check_e2e_assertions import findings  # noqa: E402


def expect(script, lines, what):
    got = [number for number, _, _ in findings(script)]
    if got != lines:
        sys.exit(f'FAIL {what}: expected refusals on lines {lines}, got {got}')


def main():
    expect('expect_in "$W/a.json" \'"score": 60\' "score"\n', [1], 'a grep of a JSON report')
    expect('expect_not_in "$W/a.out" "Total: 60" "total"\n', [1], 'console wording')
    expect('grep -q "machine busy" "$W/x.out" || fail "busy"\n', [1], 'grep -q on console output')
    expect('grep -Eq "x" "$W/x.err"\n', [1], 'grep -Eq on stderr')
    expect('G=$W/out/grades.csv\nexpect_in "$G" "^Anna," "Anna"\n', [], 'a CSV artifact via a variable')
    expect('J=$W/out/summary.json\nexpect_in "$J" \'"rejected": 8\' "count"\n', [2], 'a JSON file via a variable')
    expect('expect_in "$W/out/summary.md" "## Did not build" "summary"\n', [], 'a Markdown artifact')
    expect('expect_in "$W/u.err" "needs --out" "named"  # text: refused before any report\n', [],
           'a reason on the line')
    expect('# text: the secret must be in no byte of any output\nif grep -rqs "$S" "$W/a.json"; then\n', [],
           'a reason on the line above')
    expect('# e2e-subject: console\nexpect_in "$W/a.out" "Total:" "total"\n', [], 'a console test')
    expect('expect_field "$W/a.json" build.ok true "built"\ngrep -c x "$W/a.out"\n', [],
           'parsed fields and a grep that is no assertion')
    expect('expect_in() {  # FILE PATTERN\n  grep -Eq -- "$2" "$1"\n}\n', [2], 'only the definition line is skipped')
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        (root / 'bad.sh').write_text('expect_in "$W/r.json" "x" "y"\n')
        (root / 'good.sh').write_text('expect_field "$W/r.json" score 60\n')
        run = subprocess.run([sys.executable, str(HERE / 'check_e2e_assertions.py'), str(root)],
                             capture_output=True, text=True)
        if run.returncode != 1 or 'bad.sh:1' not in run.stdout or 'good.sh' in run.stdout:
            sys.exit(f'FAIL the command: rc {run.returncode}, {run.stdout!r}')
        (root / 'bad.sh').unlink()
        run = subprocess.run([sys.executable, str(HERE / 'check_e2e_assertions.py'), str(root)],
                             capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f'FAIL a clean folder: rc {run.returncode}, {run.stdout!r}')
    print('the e2e assertion check refuses what it should and passes the rest')


if __name__ == '__main__':
    main()
