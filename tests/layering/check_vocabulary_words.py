#!/usr/bin/env python3
"""No string comparison of a lab vocabulary word outside the edges.

The words are those of the name tables (spec/lab_vocabulary.cpp, result/result.cpp):
a lab.toml or result.json word is parsed once into its enum there, and every other
file compares enums. `x == "gpu"` anywhere else fails, named by file:line. The
allow-list names lines (path and text) still to convert; a listed line that is gone
fails too, so the list only shrinks.
"""
import argparse
import pathlib
import re
import sys

# Where words become enums and back: the tables and the TOML / JSON readers.
EDGES = ("spec/", "result/result.cpp", "result/result_json.cpp")
TABLES = ("spec/lab_vocabulary.cpp", "result/result.cpp")
TABLE_ROW = re.compile(r'\{\s*[A-Z]\w*::\w+\s*,\s*"([^"]+)"\s*\}')


def vocabulary(src):
    words = set()
    for table in TABLES:
        path = src / table
        if path.exists():
            words.update(TABLE_ROW.findall(path.read_text()))
    return words


def comparison(words):
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(r'(?:[=!]=\s*"(%s)")|(?:"(%s)"\s*[=!]=)' % (alternatives, alternatives))


def read_allow_list(path):
    """Lines 'PATH: CODE' (CODE stripped); '#' starts a comment line."""
    allowed = []
    if path is None:
        return allowed
    for raw in path.read_text().splitlines():
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        file, _, code = raw.partition(": ")
        allowed.append((file.strip(), code.strip()))
    return allowed


def check(src, allowed):
    words = vocabulary(src)
    if not words:
        return [f"{src}: no vocabulary tables found ({', '.join(TABLES)})"]
    pattern = comparison(words)
    problems, used = [], set()
    for path in sorted(src.rglob("*")):
        if path.suffix not in (".cpp", ".hpp", ".cu", ".cuh") or not path.is_file():
            continue
        rel = path.relative_to(src).as_posix()
        if rel.startswith(EDGES[0]) or rel in EDGES[1:]:
            continue
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            code = line.split("//", 1)[0]
            match = pattern.search(code)
            if not match:
                continue
            key = (rel, line.strip())
            if key in allowed:
                used.add(key)
                continue
            word = match.group(1) or match.group(2)
            problems.append(f"{src / rel}:{number}: compares the vocabulary word '{word}' as a "
                            f"string; compare its enum (spec/lab_vocabulary.hpp, "
                            f"result/result.hpp): {line.strip()}")
    for file, code in allowed:
        if (file, code) not in used:
            problems.append(f"allow-list: '{file}: {code}' matches no comparison any more: "
                            f"remove it from the list")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--src", required=True, type=pathlib.Path, help="grader/src")
    parser.add_argument("--allow", type=pathlib.Path, help="the allow-list file")
    args = parser.parse_args()
    problems = check(args.src, read_allow_list(args.allow))
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} problem(s)", file=sys.stderr)
        return 1
    print("no vocabulary word compared as a string outside spec/ and the JSON edge")
    return 0


if __name__ == "__main__":
    sys.exit(main())
