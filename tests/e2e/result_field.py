#!/usr/bin/env python3
"""result_field.py RESULT_JSON KEY...: prints one field of a parlab result.json, for the
e2e tests' assertions on parsed results (lib.bash: expect_test, expect_score, ...).

Each KEY goes one level down: an object's field, a list's index, or, in a list of
objects, the one whose "name" is KEY (a test by its full name). The single KEY
"*message" prints every test's message and every note, one a line (for "some message
says ..."); "*output" every test's stdout_tail and stderr_tail.
Numbers print as 60 or 7.5, booleans as true/false, null as null, objects and lists as
JSON. Exit 1 with the reason on stderr when the file is not JSON or a key leads nowhere.

`result_field.py --flat RESULT_JSON` prints every field at once, for lib.bash to read a
result with one python start: records "KEY\x1fVALUE\x1e", KEY the keys above joined by
\x1d (a test by its name), plus "*message", "*output" and "*names" (the tests' names,
joined by \x1d).
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


def messages(result):
    return [t.get("message", "") for t in result.get("tests", [])] + list(result.get("notes", []))


def outputs(result):
    return [o for t in result.get("tests", []) for o in (t.get("stdout_tail", ""), t.get("stderr_tail", ""))]


def flat(key, value, out):
    """Every field under `value` as (key, shown value); objects and lists below the
    top two levels are also shown whole (a mismatch, a list of diagnostics)."""
    if key.count("\x1d") >= 1 or not isinstance(value, (dict, list)):
        out.append((key, show(value)))
    if isinstance(value, dict):
        for k, v in value.items():
            flat(f"{key}\x1d{k}" if key else k, v, out)
    elif isinstance(value, list):
        seen = set()
        for i, item in enumerate(value):
            name = item.get("name") if isinstance(item, dict) else None
            sub = name if isinstance(name, str) and name not in seen else str(i)
            seen.add(name)
            flat(f"{key}\x1d{sub}", item, out)


def print_flat(result):
    out = []
    flat("", result, out)
    out.append(("*message", "\n".join(messages(result))))
    out.append(("*output", "\n".join(outputs(result))))
    out.append(("*names", "\x1d".join(t.get("name", "") for t in result.get("tests", []))))
    sys.stdout.write("".join(f"{k}\x1f{v}\x1e" for k, v in out))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--flat":
        try:
            with open(sys.argv[2], encoding="utf-8") as f:
                print_flat(json.load(f))
        except (OSError, ValueError) as e:
            sys.exit(f"{sys.argv[2]}: not a readable JSON result ({e})")
        return
    if len(sys.argv) < 3:
        sys.exit("usage: result_field.py RESULT_JSON KEY...")
    try:
        with open(sys.argv[1], encoding="utf-8") as f:
            value = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"{sys.argv[1]}: not a readable JSON result ({e})")
    keys = sys.argv[2:]
    if keys == ["*message"]:
        print("\n".join(messages(value)))
        return
    if keys == ["*output"]:
        print("\n".join(outputs(value)))
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
