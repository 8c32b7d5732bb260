"""lab01, Python track: a solution written apart from the reference, for the
similarity test (tests/similarity/make_python_class.sh). Rows are checked with a
regular expression, the statistics kept with Welford's running update, and the workers
fed through a multiprocessing.Queue of indexes."""

import math
import multiprocessing
import queue
import re

from api import FileStats, Schedule

VALUE = re.compile(rb"-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")


class Running:
    def __init__(self):
        self.count = 0
        self.avg = 0.0
        self.m2 = 0.0
        self.lo = math.inf
        self.hi = -math.inf

    def add(self, x):
        self.count += 1
        delta = x - self.avg
        self.avg += delta / self.count
        self.m2 += delta * (x - self.avg)
        self.lo = x if x < self.lo else self.lo
        self.hi = x if x > self.hi else self.hi


def compute_file_stats(path):
    acc = Running()
    bad = 0
    with open(path, "rb") as handle:
        handle.readline()
        for raw in handle:
            row = raw.rstrip(b"\n").removesuffix(b"\r")
            if row.strip(b" \t") == b"":
                continue
            parts = row.split(b",")
            cell = parts[-1].strip(b" \t") if len(parts) == 3 else b""
            if VALUE.fullmatch(cell) and math.isfinite(float(cell)):
                acc.add(float(cell))
            else:
                bad += 1
    if acc.count == 0:
        return FileStats(file=path, malformed=bad)
    spread = math.sqrt(acc.m2 / acc.count)
    return FileStats(path, acc.count, bad, acc.lo, acc.hi, acc.avg, spread)


def process_serial(paths):
    return [compute_file_stats(path) for path in paths]


def worker_loop(paths, todo, done):
    while True:
        try:
            k = todo.get_nowait()
        except queue.Empty:
            return
        done.put((k, compute_file_stats(paths[k])))


def process_parallel(paths, workers, schedule):
    total = len(paths)
    if total == 0:
        return []
    count = min(workers, total)
    done = multiprocessing.Queue()
    queues = [multiprocessing.Queue() for _ in range(count)]
    if schedule == Schedule.DYNAMIC_QUEUE:
        queues = [multiprocessing.Queue()] * count
        for k in range(total):
            queues[0].put(k)
    else:
        for w in range(count):
            for k in range(total * w // count, total * (w + 1) // count):
                queues[w].put(k)
    procs = [multiprocessing.Process(target=worker_loop, args=(paths, queues[w], done)) for w in range(count)]
    for p in procs:
        p.start()
    answers = {}
    try:
        while len(answers) < total:
            try:
                k, stats = done.get(timeout=0.2)
                answers[k] = stats
            except queue.Empty:
                dead = [p for p in procs if p.exitcode not in (None, 0)]
                if dead:
                    raise RuntimeError(f"a worker exited with code {dead[0].exitcode}")
    finally:
        for p in procs:
            if p.is_alive():
                p.terminate()
            p.join()
    return [answers[k] for k in range(total)]
