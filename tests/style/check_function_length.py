#!/usr/bin/env python3
"""No function in the grader longer than 80 lines: a long function is where
every new feature lands, mixed with the others; split it into named steps.

A plain reading of the brace structure, no parser: comments, strings and preprocessor
lines are blanked, then each `{` at namespace or class level whose head (the text since
the previous `;`, `{` or `}`) has a parenthesis and no `=` opens a function body, which
ends at its matching `}`. Namespaces, classes, structs, unions and enums are entered;
other blocks at that level (initializers) are skipped whole. A function's length is its
lines from the one holding its name to its closing brace.
Functions older than this check that are still longer are listed, one `path: name` a
line, in --allowed (a list that only shrinks: a listed function now short enough, or
gone, is reported too, so the list stays true).
Exit 0 when every function is at most --max lines, 1 with one line per problem.
"""
import argparse
import pathlib
import re
import sys

SCOPE = re.compile(r'^(?:template\s*<.*>\s*)?(?:namespace|class|struct|union|enum|extern\s+"C")\b',
                   re.S)
NAME = re.compile(r'([~\w:]+(?:operator\s*[^\s(]+)?)\s*$')


def blank(text):
    """`text` with comments, string and character literals and preprocessor lines turned
    into spaces (newlines kept, so line numbers stay true)."""
    out = []
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c == '#':
            j = i
            while j < n and (text[j] != '\n' or text[j - 1] == '\\'):
                j += 1
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
            continue
        if c == '\n':
            at_line_start = True
        elif not c.isspace():
            at_line_start = False
        raw = re.match(r'R"([^(\s]*)\(', text[i:i + 20]) if c == 'R' else None
        if raw and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == '_')):
            end = text.find(')' + raw.group(1) + '"', i)
            j = n if end < 0 else end + len(raw.group(1)) + 2
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
        elif text.startswith('/*', i):
            end = text.find('*/', i + 2)
            j = n if end < 0 else end + 2
        elif c in '"\'' and not (c == '\'' and i > 0 and text[i - 1].isalnum()):
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            j += 1
        else:
            out.append(c)
            i += 1
            continue
        out.append(re.sub(r'[^\n]', ' ', text[i:j]))
        i = j
    return ''.join(out)


def matching(code, open_at):
    """The index of the `}` closing the `{` at `open_at`."""
    depth = 0
    for k in range(open_at, len(code)):
        if code[k] == '{':
            depth += 1
        elif code[k] == '}':
            depth -= 1
            if depth == 0:
                return k
    return len(code) - 1


def function_name(head):
    """The name before the head's first top-level parenthesis."""
    depth = 0
    for k, c in enumerate(head):
        if c == '<':
            depth += 1
        elif c == '>':
            depth -= 1
        elif c == '(' and depth <= 0:
            m = NAME.search(head[:k])
            return m.group(1) if m else head[:k].split()[-1:] or ['?']
    return '?'


def long_functions(text, limit):
    """(line, name, length) of each function in `text` longer than `limit` lines."""
    code = blank(text)
    found = []
    head_start = 0
    k = 0
    while k < len(code):
        c = code[k]
        if c in ';}':
            head_start = k + 1
        elif c == '{':
            head = code[head_start:k].strip()
            if SCOPE.match(head) or not head:
                head_start = k + 1  # entered: its contents are at this level too
            else:
                close = matching(code, k)
                after = code[close + 1:].lstrip()[:1]
                if '(' in head and after in (',', '{'):
                    k = close + 1  # a brace initializer in a constructor's list: head goes on
                    continue
                if '(' in head and '=' not in head.split('(')[0]:
                    first = code.count('\n', 0, head_start + code[head_start:k].index(head[0]))
                    last = code.count('\n', 0, close)
                    if last - first + 1 > limit:
                        found.append((first + 1, function_name(head), last - first + 1))
                k = close
                head_start = k + 1
        k += 1
    return found


def read_allowed(path):
    """{'area/file.cpp: name'} from the list; blank lines and # comments skipped."""
    if not path:
        return set()
    lines = pathlib.Path(path).read_text().splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith('#')}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('root', help='the folder to check (grader/src)')
    parser.add_argument('--max', type=int, default=80, help='longest allowed, in lines')
    parser.add_argument('--allowed', help='the longer functions still waiting to be split')
    args = parser.parse_args()
    root = pathlib.Path(args.root)
    files = sorted(p for p in root.rglob('*') if p.suffix in ('.cpp', '.hpp', '.cu', '.cuh'))
    if not files:
        sys.exit(f'{root}: no C++ sources found')
    allowed = read_allowed(args.allowed)
    problems = []
    for path in files:
        for line, name, length in long_functions(path.read_text(), args.max):
            key = f'{path.relative_to(root)}: {name}'
            if key in allowed:
                allowed.discard(key)
                continue
            problems.append(f'{path}:{line}: {name} is {length} lines (at most {args.max}): '
                            'split it into named steps')
    for key in sorted(allowed):
        problems.append(f'{args.allowed}: "{key}" is no longer over {args.max} lines (or gone): '
                        'remove it from the list')
    print('\n'.join(problems) if problems else f'{len(files)} files: no function over {args.max} lines')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
