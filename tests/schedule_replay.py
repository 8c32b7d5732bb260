#!/usr/bin/env python3
"""How long the suite would take two tests at a time, from the last run's test times.

Replays CTest's scheduler on a build folder's record of each test's time
(Testing/Temporary/CTestCostData.txt) and its tests' properties (`ctest --show-only=json-v1`):
tests start in descending COST (a fresh clone has no time record, so COST alone orders
them, then the order written), a RUN_SERIAL test only when nothing else runs and nothing
beside it, a test that requires a fixture only after the fixture's setup tests ended.
A model, not a measurement: each test takes the time it took in the recorded run,
whatever runs beside it. Used to weigh a change of the schedule before a whole CI run
(docs/performance.md, "The suite's schedule").

Usage: tests/schedule_replay.py BUILD_DIR [--jobs N] [--cost NAME=SECONDS]...
                                [--no-fixture NAME]... [--tests-json FILE]
  --cost        sets a test's COST (as CMake's COST property would)
  --no-fixture  drops a test's FIXTURES_REQUIRED (as if it read no fixture)
  --tests-json  the tests' properties from a file instead of running ctest
Prints the replayed wall time in seconds and the time spent with a slot idle.
"""
import argparse
import heapq
import json
import subprocess
import sys
from pathlib import Path


def read_times(build):
    """Each test's average seconds; the lines after '---' name failed tests."""
    costs = Path(build) / "Testing" / "Temporary" / "CTestCostData.txt"
    times = {}
    for line in costs.read_text().splitlines():
        if line.strip() == "---":
            break
        parts = line.rsplit(" ", 2)
        if len(parts) == 3:
            try:
                times[parts[0]] = float(parts[2])
            except ValueError:
                continue
    return times


def read_tests(build, tests_json):
    text = Path(tests_json).read_text() if tests_json else subprocess.run(
        ["ctest", "--test-dir", str(build), "--show-only=json-v1"], check=True, capture_output=True,
        text=True).stdout
    tests = []
    for index, test in enumerate(json.loads(text)["tests"]):
        props = {p["name"]: p["value"] for p in test.get("properties", [])}
        tests.append({"name": test["name"], "index": index, "cost": float(props.get("COST", 0)),
                      "serial": bool(props.get("RUN_SERIAL")),
                      "requires": list(props.get("FIXTURES_REQUIRED", [])),
                      "sets_up": list(props.get("FIXTURES_SETUP", []))})
    return tests


def replay(tests, times, jobs):
    """(wall seconds, slot-seconds idle) of the run CTest's rules would make."""
    setups = {}
    for t in tests:
        for fixture in t["sets_up"]:
            setups.setdefault(fixture, []).append(t["name"])
    pending = sorted(tests, key=lambda t: (-t["cost"], t["index"]))
    running, finished, now, idle = [], set(), 0.0, 0.0

    def ready(t):
        return all(n in finished for f in t["requires"] for n in setups.get(f, []))

    while pending or running:
        while len(running) < jobs and not any(r[2]["serial"] for r in running):
            nxt = next((t for t in pending if ready(t) and not (t["serial"] and running)), None)
            if nxt is None:
                break
            pending.remove(nxt)
            heapq.heappush(running, (now + times.get(nxt["name"], 0.0), nxt["index"], nxt))
        if not running:
            raise SystemExit("schedule_replay: tests wait for a fixture no test sets up: "
                             + ", ".join(t["name"] for t in pending[:3]))
        end, _, done = heapq.heappop(running)
        slots_busy = len(running) + 1 if not done["serial"] else jobs
        idle += (jobs - slots_busy) * (end - now)
        now = end
        finished.add(done["name"])
    return now, idle


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cost", action="append", default=[], metavar="NAME=SECONDS")
    parser.add_argument("--no-fixture", action="append", default=[], metavar="NAME")
    parser.add_argument("--tests-json")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs must be 1 or more, not {args.jobs}")
    times = read_times(args.build)
    tests = read_tests(args.build, args.tests_json)
    by_name = {t["name"]: t for t in tests}
    for item in args.cost:
        name, sep, seconds = item.rpartition("=")
        if not sep or name not in by_name:
            parser.error(f"--cost {item!r}: expected NAME=SECONDS naming a test of {args.build}")
        by_name[name]["cost"] = float(seconds)
    for name in args.no_fixture:
        if name not in by_name:
            parser.error(f"--no-fixture {name!r}: no such test in {args.build}")
        by_name[name]["requires"] = []
    wall, idle = replay(tests, times, args.jobs)
    print(f"replayed wall time: {wall:.0f} s ({args.jobs} at a time); a slot idle for {idle:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
