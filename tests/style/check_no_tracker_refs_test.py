#!/usr/bin/env python3
"""The tracker-reference check on made-up text: it finds "issue N" in its spellings and
lets the word "issue" pass where no number follows. The examples are built from parts
so that this file passes the check itself."""
import pathlib
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from check_no_tracker_refs import findings  # noqa: E402

WORD = 'iss' + 'ue'


def expect(text, lines, what):
    got = [number for number, _ in findings(text)]
    if got != lines:
        sys.exit(f'FAIL {what}: expected findings on lines {lines}, got {got}')


def main():
    expect(f'// a comment ({WORD} 30)\n', [1], 'a bare reference')
    expect(f'# ok\n# {WORD}s 26 and 27 asked for it\n', [2], 'a plural')
    expect(f'{WORD.capitalize()} #12 items 2-4\n', [1], 'a capital and a hash')
    expect(f'## Title ({WORD}30)\n', [1], 'no space')
    expect(f"as the {WORD}'s target says\n", [1], "the tracker's text quoted")
    expect(f'(its figures are in the {WORD})\n', [1], 'figures left in the tracker')
    expect(f'a real {WORD}: the copy races\nno {WORD} at 30 workers\n', [], 'the word with no number')
    expect('reference #1 | 100.0\n', [], 'a numbered run')
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        (root / 'bad.md').write_text(f'line\nsee {WORD} 7\n')
        (root / 'good.cpp').write_text('// says why in words\n')
        (root / 'image.png').write_bytes(b'\x89PNG\xff\xfe' + f'{WORD} 9'.encode())
        (root / 'build-x').mkdir()
        (root / 'build-x' / 'generated.txt').write_text(f'{WORD} 8\n')
        command = [sys.executable, str(HERE / 'check_no_tracker_refs.py'), str(root)]
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 1 or 'bad.md:2' not in run.stdout or 'generated' in run.stdout \
                or 'image' in run.stdout:
            sys.exit(f'FAIL the command: rc {run.returncode}, {run.stdout!r}')
        (root / 'bad.md').unlink()
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f'FAIL a clean folder: rc {run.returncode}, {run.stdout!r}')
    print('the tracker-reference check finds issue numbers and passes the rest')


if __name__ == '__main__':
    main()
