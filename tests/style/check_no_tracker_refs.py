#!/usr/bin/env python3
"""Code and docs name no tracker issue by its number.

Usage: check_no_tracker_refs.py SOURCE_DIR
Exit 0 when no text file of the repository names a tracker issue (the word issue or
issues, any case, then a number, with or without "#"; or a possessive quoting the
tracker's text); 1 with each offending line otherwise.

A reader of the repository cannot see the tracker: a comment or a doc says the reason
in words instead (what broke, what the rule guards against). The history of changes is
in CHANGELOG.md, told without issue numbers too. Files are those git tracks when
SOURCE_DIR is a git checkout, otherwise every file below it but build folders.
"""
import os
import pathlib
import re
import subprocess
import sys

REFERENCE = re.compile(r"\b[Ii]ssues?\s*#?\d+|\bthe issue's\b|\([^()]*\bin the issue\)")
SKIPPED_DIRS = re.compile(r'^(\.git|build.*|__pycache__|\.parlab|shared)$')


def findings(text):
    """(line number, line) of each reference to a tracker issue in text."""
    return [(number, line) for number, line in enumerate(text.splitlines(), 1)
            if REFERENCE.search(line)]


def source_files(root):
    listed = subprocess.run(['git', '-C', str(root), 'ls-files', '-z'],
                            capture_output=True, text=True)
    if listed.returncode == 0 and listed.stdout:
        return [root / name for name in listed.stdout.split('\0') if name]
    files = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if not SKIPPED_DIRS.match(d)]
        files += [pathlib.Path(folder) / name for name in names]
    return files


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = pathlib.Path(sys.argv[1]).resolve()
    bad = []
    for path in source_files(root):
        try:
            text = path.read_bytes().decode('utf-8')
        except (OSError, UnicodeDecodeError):
            continue  # a binary file (an image, an archive) or a link that goes nowhere
        bad += [f'{path.relative_to(root)}:{number}: {line.strip()}' for number, line in findings(text)]
    for line in bad:
        print(line)
    if bad:
        print(f'{len(bad)} reference(s) to a tracker issue: say the reason in words '
              '(the history goes to CHANGELOG.md)')
        return 1
    print('no reference to a tracker issue in code or docs')
    return 0


if __name__ == '__main__':
    sys.exit(main())
