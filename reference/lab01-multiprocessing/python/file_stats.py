"""Reference solution of lab01, Python track (the Python submissions' performance
baseline; expected outputs come from the C++ reference, which this file matches).
Parsing: the whole file read as bytes and split into lines; the value field must look
like what std::from_chars accepts (digits, '.', an exponent, a leading '-'), then
float() reads it correctly rounded. Statistics: the values of a file are kept and
summed with math.fsum in two passes (mean, then squared deviations): exact sums, no
cancellation. Parallelism: multiprocessing.Process workers, each with its own pipe; a
static block per worker, or a shared counter handing out the next file (dynamic). A
worker that dies (its sentinel fires before its results came) is an error."""

import math
import multiprocessing
from multiprocessing.connection import wait

from api import FileStats, Schedule

_NUMBER_CHARS = b"0123456789.eE+-"


def _parse_value(field):
    """The field as a finite float, or None when the row is malformed."""
    text = field.strip(b" \t")
    # float() also takes "+1", "1_0", "inf", "nan" and whitespace; from_chars does not.
    if not text or text[0] == 43 or text.translate(None, _NUMBER_CHARS):  # 43: '+'
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def compute_file_stats(path):
    with open(path, "rb") as f:  # an OSError names the file
        lines = f.read().split(b"\n")
    values = []
    malformed = 0
    for line in lines[1:]:  # the first line is the header
        if line[-1:] == b"\r":
            line = line[:-1]
        fields = line.split(b",")
        if len(fields) == 3:
            value = _parse_value(fields[2])
            if value is not None:
                values.append(value)
                continue
        elif not line.strip(b" \t"):
            continue  # a blank line: not a row
        malformed += 1
    return _stats_of(path, values, malformed)


def _stats_of(path, values, malformed):
    n = len(values)
    if n == 0:
        return FileStats(file=path, malformed=malformed)
    mean = math.fsum(values) / n
    variance = math.fsum([(x - mean) * (x - mean) for x in values]) / n
    return FileStats(file=path, rows=n, malformed=malformed, min=min(values), max=max(values),
                     mean=mean, stddev=math.sqrt(variance))


def process_serial(paths):
    return [compute_file_stats(path) for path in paths]


def _send_stats(conn, i, path):
    """(i, stats), or (None, why) when the file cannot be read, so the parent can say."""
    try:
        conn.send((i, compute_file_stats(path)))
    except OSError as e:
        conn.send((None, f"{path}: {e}"))


def _static_worker(paths, first, conn):
    for offset, path in enumerate(paths):
        _send_stats(conn, first + offset, path)
    conn.close()


def _dynamic_worker(paths, counter, conn):
    while True:
        with counter.get_lock():
            i = counter.value
            counter.value += 1
        if i >= len(paths):
            break
        _send_stats(conn, i, paths[i])
    conn.close()


def _start_workers(paths, workers, schedule, counter):
    """(process, receiving end) per worker, started."""
    started = []
    block, extra = divmod(len(paths), workers)
    first = 0
    for w in range(workers):
        receive, send = multiprocessing.Pipe(duplex=False)
        if schedule == Schedule.STATIC_BLOCKS:
            size = block + (1 if w < extra else 0)
            args = (paths[first:first + size], first, send)
            first += size
            target = _static_worker
        else:
            args = (paths, counter, send)
            target = _dynamic_worker
        process = multiprocessing.Process(target=target, args=args, daemon=True)
        process.start()
        send.close()  # the parent's copy: EOF once the worker's end is closed
        started.append((process, receive))
    return started


def _collect(started, count):
    results = [None] * count
    received = 0
    open_ends = {receive: process for process, receive in started}
    while open_ends:
        for receive in wait(list(open_ends)):
            try:
                i, stats = receive.recv()
                if i is None:
                    raise RuntimeError(f"a worker could not read a file: {stats}")
                results[i] = stats
                received += 1
            except EOFError:  # the worker is done, or died
                process = open_ends.pop(receive)
                process.join()
                if process.exitcode != 0:
                    raise RuntimeError(f"worker process {process.pid} failed "
                                       f"(exit code {process.exitcode})")
    if received != count:
        raise RuntimeError(f"only {received} of {count} results came back from the workers")
    return results


def process_parallel(paths, workers, schedule):
    workers = max(1, min(workers, len(paths)))
    if not paths:
        return []
    # Held here until every worker is done: with the spawn start method a worker opens
    # the counter's semaphore by name after starting, and it is gone once collected.
    counter = multiprocessing.Value("q", 0)
    started = _start_workers(paths, workers, schedule, counter)
    try:
        return _collect(started, len(paths))
    finally:
        for process, receive in started:  # every worker reaped, also after a failure
            if process.is_alive():
                process.kill()
            process.join()
            receive.close()
