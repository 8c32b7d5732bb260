"""timings.json: the measured repetitions of one task run, as the child saw them, with
the fields harness/src/timer.cpp writes. The clock is time.perf_counter, monotonic like
the C++ side's steady_clock, so the grader bounds and compares both alike."""

import json
import os

from parlab_harness.atomic_file import write_file_atomically


def write_timings(directory, warmup, samples_s):
    timings = {"format": "parlab-timings", "version": 1, "clock": "steady_clock",
               "warmup": warmup, "samples_s": samples_s}
    write_file_atomically(os.path.join(directory, "timings.json"),
                          (json.dumps(timings, indent=1) + "\n").encode())
