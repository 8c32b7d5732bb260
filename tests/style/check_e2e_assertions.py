#!/usr/bin/env python3
"""End-to-end tests assert on parsed results, not on wording.

Usage: check_e2e_assertions.py E2E_DIR
Exit 0 when every text assertion of every tests/e2e/*.sh is allowed; 1 with each
offending line otherwise.

A text assertion is a line calling expect_in, expect_not_in or expect_json, or running
`grep` with -q. Its target is the file it reads (a variable is followed to its last
assignment in the same script). By target:
  - a JSON file: refused. Assert on the parsed field (lib.bash: expect_field,
    expect_test, expect_message, result_field): layout and order can change. Only a
    line that says why (`# text: REASON`, e.g. a secret that must appear in no byte of
    any output) may read it as text.
  - console output (*.out, *.err, *.log, or anything else not below): allowed only in a
    console test (a script with the line `# e2e-subject: console`) or on a line that
    says why the words themselves are what is checked: `# text: REASON` on that line or
    the line above (an error printed before any report exists, a byte that must not
    leak anywhere).
  - an artifact in its own right (CSV, Markdown, HTML, XML, a Slurm script, a kit's
    files): allowed; its text is the product.
"""
import pathlib
import re
import sys

ASSERTION = re.compile(r'\b(expect_in|expect_not_in|expect_json)\b|\bgrep\s+(-\w*q\w*|-\w+\s+-\w*q\w*)\b')
ARTIFACT = re.compile(r'\.(csv|md|html|xml|sbatch|txt|tsv|yaml|yml|toml|cmake|sh|hpp|cpp|cu|cuh|py|svg|zip|manifest)\b')
JSON = re.compile(r'\.json\b')
REASON = re.compile(r'#\s*text:\s*\S')
CONSOLE_SUBJECT = re.compile(r'^#\s*e2e-subject:\s*console\s*$', re.M)
ASSIGNMENT = re.compile(r'^\s*(?:local\s+|export\s+)?([A-Za-z_]\w*)=(\S.*)$')
VARIABLE = re.compile(r'\$\{?([A-Za-z_]\w*)\}?')


def words_after(line, match):
    """The shell words after the assertion's name, quotes kept (enough to find a path)."""
    return re.findall(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'|\S+', line[match.end():])


def resolve(word, assignments, depth=0):
    """WORD with each $VAR replaced by its last assignment in the script (a few levels)."""
    if depth > 3:
        return word
    return VARIABLE.sub(lambda m: resolve(assignments.get(m.group(1), m.group(0)), assignments, depth + 1)
                        if m.group(1) in assignments else m.group(0), word)


def target_of(line, match, assignments):
    words = words_after(line, match)
    if match.group(1):  # expect_*: the first argument
        return resolve(words[0], assignments) if words else ''
    # grep: every word that is not an option, the pattern (the first), or shell syntax
    operands = [w for w in words if not w.startswith('-') and w not in ('||', '&&', ';', 'then', '|')]
    for stop, w in enumerate(operands):
        if w in ('||', '&&', ';', 'then') or w.startswith(('>', '2>', '<')):
            operands = operands[:stop]
            break
    return ' '.join(resolve(w, assignments) for w in operands[1:])


def findings(script_text):
    """(line number, line, why) for each refused text assertion of one script."""
    console_test = bool(CONSOLE_SUBJECT.search(script_text))
    assignments = {}
    out = []
    previous = ''
    for number, line in enumerate(script_text.splitlines(), 1):
        code = line.split(' #', 1)[0] if not line.lstrip().startswith('#') else ''
        assigned = ASSIGNMENT.match(code)
        if assigned:
            assignments[assigned.group(1)] = assigned.group(2)
        match = ASSERTION.search(code)
        if match and not code.lstrip().startswith(('expect_in()', 'expect_not_in()', 'expect_json()')):
            target = target_of(code, match, assignments)
            reasoned = bool(REASON.search(line) or REASON.search(previous))
            if JSON.search(target) and not ARTIFACT.search(target):
                if not reasoned:
                    out.append((number, line.strip(), 'greps a JSON file: assert on its parsed field '
                                '(expect_field, expect_test, expect_message, result_field)'))
            elif not ARTIFACT.search(target) and not console_test and not reasoned:
                out.append((number, line.strip(), 'matches console wording outside a console test: '
                            'assert on result.json, or say on the line why the words are the subject '
                            '(# text: REASON)'))
        previous = line
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: check_e2e_assertions.py E2E_DIR')
    bad = 0
    for script in sorted(pathlib.Path(sys.argv[1]).glob('*.sh')):
        for number, line, why in findings(script.read_text()):
            print(f'{script.name}:{number}: {why}\n    {line}')
            bad += 1
    if bad:
        print(f'{bad} text assertion(s) refused (tests/style/check_e2e_assertions.py says why)')
        return 1
    print('every e2e text assertion reads an artifact, a console test, or says why')
    return 0


if __name__ == '__main__':
    sys.exit(main())
