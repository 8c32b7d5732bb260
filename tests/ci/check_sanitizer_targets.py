#!/usr/bin/env python3
"""Every unit test a sanitizer test preset runs is built by its build preset.

The sanitizer presets of CMakePresets.json name their build targets one by one; the test
presets choose tests by name. A unit test area added to the build but not to a build
preset's targets is still registered, and its test then fails as 'unit_AREA_NOT_BUILT'
under that sanitizer: CI's sanitizer stage failed that way on unit_lab01. This check
compares the unit test executables CMake defines (unit_AREA, whose tests are named
'AREA:...') with each sanitizer preset's targets and its test filter, and also names a
target that no longer exists.

Usage: check_sanitizer_targets.py --presets CMakePresets.json --unit-targets unit_a,unit_b
Exit 0 when every preset builds what it runs; 1 listing what is missing or stale.
"""
import argparse
import json
import re
import sys
from pathlib import Path

SANITIZER_PRESETS = ("asan", "tsan")


def runs(test_preset, area):
    """Whether the test preset's filter keeps a test of this unit area."""
    name = f"{area}:a test"
    chosen = test_preset.get("filter", {})
    include = chosen.get("include", {}).get("name")
    exclude = chosen.get("exclude", {}).get("name")
    return (include is None or re.search(include, name) is not None) and \
        (exclude is None or re.search(exclude, name) is None)


def problems(presets, unit_targets):
    found = []
    builds = {p["name"]: p for p in presets.get("buildPresets", [])}
    tests = {p["name"]: p for p in presets.get("testPresets", [])}
    for name in SANITIZER_PRESETS:
        if name not in builds or name not in tests:
            found.append(f"{name}: no build preset and test preset of that name")
            continue
        built = set(builds[name].get("targets", []))
        for target in sorted(unit_targets):
            area = target.removeprefix("unit_")
            if runs(tests[name], area) and target not in built:
                found.append(f"{name}: runs the {area}: tests but does not build {target} "
                             f"(add it to buildPresets '{name}' targets)")
        for target in sorted(t for t in built if t.startswith("unit_") and t not in unit_targets):
            found.append(f"{name}: builds {target}, which the build no longer defines")
    return found


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presets", required=True)
    parser.add_argument("--unit-targets", required=True, help="comma-separated unit_AREA targets")
    args = parser.parse_args(argv)
    unit_targets = {t for t in args.unit_targets.split(",") if t}
    if not unit_targets:
        parser.error("--unit-targets names no target")
    found = problems(json.loads(Path(args.presets).read_text()), unit_targets)
    for line in found:
        print(f"FAIL: {line}")
    if not found:
        print(f"every sanitizer preset builds the unit tests it runs ({len(unit_targets)} unit targets)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
