#!/usr/bin/env python3
"""Samples which gradings have a lab executable running, until a process ends.

usage: lab_run_sampler.py WATCHED_PID OUT_PREFIX SAMPLES_FILE

Every 50 ms, one line: for each running `lab01_submission`/`lab01_reference` whose
`--out` lies under OUT_PREFIX, "GRADING_FOLDER:perf" (a run of a performance test) or
"GRADING_FOLDER:test", space-separated. One process reading /proc: the ps | grep | sed |
awk pipeline it replaces forked seven processes per sample, and that load made the
gradings it watched set their pairs aside as disturbed (three attempts each).
"""
import os
import re
import sys
import time

RUN = re.compile(r"/(?:runs|reference-runs)/([^ /]+)/out")
LAB = re.compile(r"lab01_(submission|reference)$")
PERF_TASKS = re.compile(r"speedup|dynamic-beats-static")


def running_lab_runs(prefix: str) -> list[str]:
    seen = set()
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue  # ended meanwhile
        args = [a.decode(errors="replace") for a in argv]
        # The lab executable and its --task, wherever it stands (bwrap names it mid-line).
        if not any(LAB.search(a) and b == "--task" for a, b in zip(args, args[1:])):
            continue
        if "--out" not in args[:-1]:
            continue
        out = args[args.index("--out") + 1]
        if not out.startswith(prefix):
            continue
        match = RUN.search(out)
        if not match:
            continue
        folder = out[: match.start()]
        kind = "perf" if PERF_TASKS.search(match.group(1)) else "test"
        seen.add(f"{folder}:{kind}")
    return sorted(seen)


def main() -> int:
    watched, prefix, samples = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    with open(samples, "a") as out:
        while os.path.exists(f"/proc/{watched}"):
            out.write(" ".join(running_lab_runs(prefix)) + "\n")
            time.sleep(0.05)
    return 0


if __name__ == "__main__":
    sys.exit(main())
