"""Lab 01, Python track: your solution. Implement the functions api.py names here (read
api.py and README.md, "The Python track", first). This file runs as given, but every
statistic is zero, so the tests fail until you fill in the TODOs.

Grade it: grade lab01 path/to/this/dir   (the folder holding this file)

The grader's driver imports this module and calls the three functions; it never runs
it as a script, so you need no `if __name__ == "__main__":` block. Keep everything in
this one file: it is the only one the grader runs."""

import multiprocessing  # noqa: F401 - you will need it (Process, Pipe, Queue, Value)

from api import FileStats, Schedule  # noqa: F401 - Schedule: for process_parallel


def compute_file_stats(path):
    stats = FileStats(file=path)
    # TODO(lab01): read the CSV file and fill in rows, malformed, min, max, mean, stddev.
    # Hints:
    #  - Open in binary ("rb") and split on b"\n": the first line is the header. Strip
    #    one trailing b"\r", skip blank lines (empty, or only spaces and tabs).
    #  - A row needs exactly 3 fields (line.split(b",")); strip b" \t" around the value.
    #  - float() accepts more than the rules do: "+1", "1_000", "inf", "nan" and
    #    surrounding whitespace are all malformed here. Check the characters first
    #    (digits, '.', 'e'/'E', '-' and '+' in the exponent), then math.isfinite().
    #  - mean(x^2) - mean(x)^2 loses precision: use math.fsum over (x - mean)^2, or
    #    Welford's update. No rows: everything stays 0 (never divide by zero).
    return stats


def process_serial(paths):
    return [compute_file_stats(path) for path in paths]


def process_parallel(paths, workers, schedule):
    # TODO(lab01): start min(workers, len(paths)) worker processes with multiprocessing
    # and combine their results, in the order of `paths`.
    # Hints:
    #  - STATIC_BLOCKS: worker w takes paths[n*w//W : n*(w+1)//W].
    #  - DYNAMIC_QUEUE: workers take the next index from a shared counter
    #    (multiprocessing.Value with its lock) or a multiprocessing.Queue of indices.
    #  - Send results back through a multiprocessing.Pipe or Queue, and wait for
    #    results and worker deaths together (multiprocessing.connection.wait on the
    #    pipes and each Process.sentinel).
    #  - A worker killed by a signal must make this function raise (RuntimeError), and
    #    every worker must be joined, also then. Pool.map would wait forever for the
    #    killed worker's files; concurrent.futures.ProcessPoolExecutor raises
    #    BrokenProcessPool instead.
    #  - Only module-level functions can be sent to another process (pickled): a lambda
    #    or a nested function cannot.
    # For now this runs serially, so everything "works", just without any speedup.
    return process_serial(paths)
