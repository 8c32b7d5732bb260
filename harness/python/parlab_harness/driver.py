"""The grader-owned main of every Python lab program, the counterpart of
harness/src/driver.cpp: the same command line, the same files left behind
(status.json, timings.json, manifest.json and the arrays), the same exit codes.

  driver.py --task NAME --dataset DIR --out DIR [--warmup N] [--repeat N] [--param k=v]...
  driver.py --list-tasks
Exit codes: 0 ok; 1 task error (message in status.json); 2 usage error; 86 out of
memory (a MemoryError, or an OSError ENOMEM from mmap or fork, escaped the student's
code, itself or as the cause of what escaped: the run's memory limit, as the C++
harness's std::bad_alloc)."""

import errno
import json
import os
import sys
import time
import traceback
from dataclasses import dataclass
from typing import Callable

from parlab_harness.arrays import OutputWriter
from parlab_harness.atomic_file import write_file_atomically
from parlab_harness.fork_guard import remember_output_owner, stop_if_forked_child
from parlab_harness.fresh_inputs import StaleResultError, unpredictable_seed
from parlab_harness.params import Params
from parlab_harness.timer import write_timings

EXIT_OK, EXIT_TASK_ERROR, EXIT_USAGE, EXIT_OUT_OF_MEMORY = 0, 1, 2, 86


class UsageError(Exception):
    pass


@dataclass
class Task:
    name: str
    description: str
    run: Callable


class TaskContext:
    def __init__(self, dataset_dir, params, out, warmup, repeat):
        self.dataset_dir = dataset_dir
        self.params = params
        self.out = out
        self.warmup = warmup
        self.repeat = repeat
        self.samples = []

    def timed(self, work, prepare=lambda: None, fresh=None, function="the call"):
        """Runs `work` warmup + repeat times, timing each measured call, and returns
        the last call's result; `prepare` runs untimed before every call. With `fresh`
        (fresh_inputs.SampledFreshInputs), every timed call after a first call gets new
        input content and its output is checked, untimed; a last untimed call on the
        dataset's own content gives the result (as the C++ harness's gpu_timed)."""
        for _ in range(self.warmup):
            prepare()
            work()
        # One call alone (a correctness run) has no earlier result to replay.
        refreshed = fresh is not None and self.warmup + self.repeat > 1
        result = None
        for repetition in range(self.repeat):
            if refreshed:
                fresh.refresh(unpredictable_seed())
            prepare()
            start = time.perf_counter()
            result = work()
            self.samples.append(time.perf_counter() - start)
            if refreshed:
                differed = fresh.check()
                if differed:
                    raise StaleResultError(function, repetition, differed)
        if refreshed:
            fresh.restore()
            prepare()
            result = work()
        return result


def _count(option, text, minimum):
    try:
        value = int(text)
    except ValueError:
        value = minimum - 1
    if value < minimum or not text.strip().lstrip("-").isdigit():
        raise UsageError(f"{option} expects an integer >= {minimum}, got '{text}'")
    return value


def _parse(argv):
    cl = {"list_tasks": False, "help": False, "task": "", "dataset": "", "out": "",
          "warmup": 0, "repeat": 1, "params": Params()}
    i = 0
    while i < len(argv):
        option, value, inline = argv[i], "", False
        if option.startswith("--") and "=" in option:
            option, value = option.split("=", 1)
            inline = True
        if option in ("--list-tasks", "--help", "-h"):
            cl["list_tasks" if option == "--list-tasks" else "help"] = True
            i += 1
            continue
        if not inline:
            if i + 1 >= len(argv):
                raise UsageError(f"{option} needs a value")
            i += 1
            value = argv[i]
        _set_option(cl, option, value)
        i += 1
    if cl["list_tasks"] or cl["help"]:
        return cl
    for key in ("task", "dataset", "out"):
        if not cl[key]:
            raise UsageError(f"--{key} is required")
    return cl


def _set_option(cl, option, value):
    if option in ("--task", "--dataset", "--out"):
        cl[option[2:]] = value
    elif option in ("--warmup", "--repeat"):
        cl[option[2:]] = _count(option, value, 0 if option == "--warmup" else 1)
    elif option == "--param":
        key, eq, val = value.partition("=")
        if not eq or not key:
            raise UsageError(f"--param expects key=value, got '{value}'")
        cl["params"].set(key, val)
    else:
        raise UsageError(f"unknown option '{option}'")


# Best effort: a status that cannot be written must not hide the task's own outcome.
def _write_status(directory, status, message=""):
    try:
        body = {"status": status}
        if message:
            body["message"] = message
        text = json.dumps(body, indent=1, ensure_ascii=False) + "\n"
        write_file_atomically(os.path.join(directory, "status.json"),
                              text.encode("utf-8", errors="replace"))
    except OSError as e:
        sys.stderr.write(f"parlab: cannot write status.json: {e}\n")


# The folder of the student's sources (the launcher sets it): a failure is placed at
# the student's last line in the traceback, not in the standard library it called.
solution_dir = ""


def _failure(exc):
    """The exception as one line for status.json, naming the student's line."""
    frames = traceback.extract_tb(exc.__traceback__)
    own = [f for f in frames if solution_dir and f.filename.startswith(solution_dir + os.sep)]
    where = f" (at {os.path.basename(own[-1].filename)}:{own[-1].lineno})" if own else ""
    text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__  # MemoryError() has no text
    return f"{text}{where}"


def _memory_failure(exc):
    """The MemoryError (or ENOMEM OSError) behind `exc`, following its causes: a pool
    re-raises a worker's MemoryError, student code may wrap it; else None."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, MemoryError) or (isinstance(exc, OSError) and exc.errno == errno.ENOMEM):
            return exc
        exc = exc.__cause__ or exc.__context__
    return None


def _run_task(task, cl):
    # Released when the task runs out of memory, so reporting it does not fail too.
    reserve = bytearray(1 << 20)
    remember_output_owner()
    out_dir = cl["out"]
    _write_status(out_dir, "running")
    ctx = TaskContext(cl["dataset"], cl["params"], OutputWriter(out_dir), cl["warmup"], cl["repeat"])
    try:
        task.run(ctx)
        stop_if_forked_child()
        ctx.out.finish()
        write_timings(out_dir, cl["warmup"], ctx.samples)
        _write_status(out_dir, "ok")
        return EXIT_OK
    except BaseException as e:  # noqa: BLE001 - SystemExit from student code is a failure too
        stop_if_forked_child()
        memory = _memory_failure(e)
        if memory is not None:
            del reserve
            message = f"{_failure(memory)} escaped task '{task.name}': the program ran out of memory"
            _write_status(out_dir, "out_of_memory", message)
            sys.stderr.write(f"parlab: {message}\n")
            return EXIT_OUT_OF_MEMORY
        message = _failure(e)
        _write_status(out_dir, "error", message)
        sys.stderr.write(f"parlab: task '{task.name}' failed: {message}\n")
        traceback.print_exc()
        return EXIT_TASK_ERROR


def run_driver(tasks, argv=None):
    argv = sys.argv[1:] if argv is None else argv
    program = "driver.py"
    usage = (f"usage: {program} --task NAME --dataset DIR --out DIR [--warmup N] [--repeat N] "
             f"[--param k=v]...\n       {program} --list-tasks\n")
    try:
        cl = _parse(argv)
        if cl["help"]:
            sys.stdout.write(usage)
            return EXIT_OK
        if cl["list_tasks"]:
            for t in tasks:
                print(f"{t.name}\t{t.description}")
            return EXIT_OK
        task = next((t for t in tasks if t.name == cl["task"]), None)
        if task is None:
            names = ", ".join(t.name for t in tasks)
            raise UsageError(f"unknown task '{cl['task']}' (tasks: {names})")
        if not os.path.isdir(cl["dataset"]):
            raise UsageError(f"dataset directory {cl['dataset']} does not exist")
        try:
            os.makedirs(cl["out"], exist_ok=True)
        except OSError as e:
            raise UsageError(f"cannot create output directory {cl['out']}: {e}") from e
    except UsageError as e:
        sys.stderr.write(f"{program}: {e}\n{usage}")
        return EXIT_USAGE
    return _run_task(task, cl)
