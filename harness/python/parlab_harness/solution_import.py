"""The student's module, imported on a task's first call. Its top level must not start
worker processes: under the spawn start method (the default on macOS and Windows) every
worker imports the module again, runs that code again and starts workers of its own, so
the program never finishes. Linux's fork hides the mistake; here it is caught where the
student made it, on every track's platform alike.

A teaching check, not a security one: it runs in the untrusted process, and code that
gets around it only loses the explanation."""

import importlib
import multiprocessing.process


class ProcessesStartedAtImport(RuntimeError):
    pass


def _lesson(module):
    return (f"{module}.py starts worker processes while it is being imported: code at a "
            "module's top level runs again in every worker that the spawn start method "
            "starts (the default on macOS and Windows), which starts workers again, and the "
            "program never finishes. Put that code under `if __name__ == \"__main__\":` "
            "(the grader imports your module and calls its functions)")


def import_solution(module):
    """Imports the student's `module`; a worker process started by its top-level code
    raises ProcessesStartedAtImport at that line, before the process exists."""
    original_start = multiprocessing.process.BaseProcess.start

    def refuse_start(self):
        raise ProcessesStartedAtImport(_lesson(module))

    multiprocessing.process.BaseProcess.start = refuse_start
    try:
        return importlib.import_module(module)
    finally:
        multiprocessing.process.BaseProcess.start = original_start
