"""Lab 01, Python track: the fixed names your file_stats.py implements; the grader's
driver.py calls them. Do not change this file: the grader runs your file_stats.py
against its own copy. The rules of the data are those of api.hpp (README.md, "The
data"):

  - A row is a non-blank line after the header. Blank lines (empty, or only spaces and
    tabs) are skipped: neither rows nor malformed. A trailing '\\r' is ignored (Windows
    line ends), and so are spaces and tabs around each field.
  - A row is malformed when it does not have exactly 3 comma-separated fields, or when
    its value field is not, in full, a finite decimal number ("n/a", "", "23.4C", "nan",
    "inf", "+1", "1_0" and numbers too large for a double are malformed).
  - A file with no well-formed row has rows = 0 and min = max = mean = stddev = 0.
  - stddev is the population standard deviation: sqrt(sum((x - mean)^2) / rows).
  - A file that cannot be opened is an error: raise an exception naming it.

The functions (in your file_stats.py):
  compute_file_stats(path: str) -> FileStats
  process_serial(paths: list[str]) -> list[FileStats]
  process_parallel(paths: list[str], workers: int, schedule: Schedule) -> list[FileStats]
      the same results as process_serial, computed by `workers` (>= 1) worker
      PROCESSES (multiprocessing), never more processes than paths; if a worker fails
      or dies, raise an exception saying so (RuntimeError)."""

import enum
from dataclasses import dataclass


@dataclass
class FileStats:
    file: str            # the path exactly as it was passed in
    rows: int = 0        # well-formed rows
    malformed: int = 0   # malformed rows (blank lines are not counted)
    min: float = 0.0     # of the values of the well-formed rows
    max: float = 0.0
    mean: float = 0.0
    stddev: float = 0.0  # population standard deviation


class Schedule(enum.Enum):
    STATIC_BLOCKS = "static_blocks"  # worker w gets one contiguous block of paths
    DYNAMIC_QUEUE = "dynamic_queue"  # each worker takes the next path whenever it is free
