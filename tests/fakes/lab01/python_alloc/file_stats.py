"""Fake Python submission (tests/fakes/lab01/python_alloc): every file's statistics
start from a list far larger than any lab01 memory limit (16 GiB of list slots), in
the driver's process for the serial tasks and in pool workers for the parallel ones.
The grader must report the test's memory limit, naming MemoryError."""

import multiprocessing

from api import FileStats


def compute_file_stats(path):
    rows = [0] * (1 << 31)
    return FileStats(file=path, rows=len(rows))


def process_serial(paths):
    return [compute_file_stats(path) for path in paths]


def process_parallel(paths, workers, schedule):
    with multiprocessing.Pool(workers) as pool:
        return pool.map(compute_file_stats, paths)
