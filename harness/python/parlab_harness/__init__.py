"""The Python counterpart of parlab's C++ harness (harness/src): the grader-owned part
of a Python lab program. A lab's driver.py lists its tasks and calls run_driver; the
student's module is only ever called from a task.

It runs inside the untrusted process, so it promises nothing to the grader: the grader
reads back manifest.json, the .bin arrays, timings.json and status.json with the same
checks as for a C++ program (grader/src/grading/child_run_files)."""

from parlab_harness.arrays import OutputWriter
from parlab_harness.driver import Task, TaskContext, run_driver
from parlab_harness.params import ParamError, Params

__all__ = ["OutputWriter", "ParamError", "Params", "Task", "TaskContext", "run_driver"]
