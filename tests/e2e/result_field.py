#!/usr/bin/env python3
"""result_field.py RESULT_JSON KEY...: prints one field of a parlab result.json, for the
e2e tests' assertions on parsed results (lib.bash: expect_test, expect_score, ...).

Each KEY goes one level down: an object's field, a list's index, or, in a list of
objects, the one whose "name" is KEY (a test by its full name). The single KEY
"*message" prints every test's message and every note, one a line (for "some message
says ..."); "*output" every test's stdout_tail and stderr_tail.
Numbers print as 60 or 7.5, booleans as true/false, null as null, objects and lists as
JSON. Exit 1 with the reason on stderr when the file is not JSON or a key leads nowhere.
"""
import json
import sys


def show(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (dict, list)):
        return json.dumps(value, sort_keys=True)
    return str(value)


def down(value, key, path):
    if isinstance(value, dict):
        if key in value:
            return value[key]
        raise LookupError(f"no field '{key}' at {path or 'the top'} (fields: {', '.join(sorted(value))})")
    if isinstance(value, list):
        named = [v for v in value if isinstance(v, dict) and v.get("name") == key]
        if named:
            return named[0]
        if key.isdigit() and int(key) < len(value):
            return value[int(key)]
        names = [v.get("name") for v in value if isinstance(v, dict) and "name" in v]
        raise LookupError(f"nothing named '{key}' in {path}" + (f" (names: {'; '.join(names)})" if names else ""))
    raise LookupError(f"{path} is a {type(value).__name__}, not an object or a list")


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: result_field.py RESULT_JSON KEY...")
    try:
        with open(sys.argv[1], encoding="utf-8") as f:
            value = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"{sys.argv[1]}: not a readable JSON result ({e})")
    keys = sys.argv[2:]
    if keys == ["*message"]:
        for t in value.get("tests", []):
            print(t.get("message", ""))
        for note in value.get("notes", []):
            print(note)
        return
    if keys == ["*output"]:
        for t in value.get("tests", []):
            print(t.get("stdout_tail", ""))
            print(t.get("stderr_tail", ""))
        return
    path = ""
    try:
        for key in keys:
            value = down(value, key, path)
            path = f"{path}.{key}" if path else key
    except LookupError as e:
        sys.exit(f"{sys.argv[1]}: {e}")
    print(show(value))


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:  # a reader that stops early (grep -q) is no error
        sys.stderr.close()
        sys.exit(0)
