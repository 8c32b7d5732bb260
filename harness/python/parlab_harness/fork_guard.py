"""Student code may fork (multiprocessing's fork start method, os.fork). A child that
returns from the student's function into the driver would write a second set of
outputs over the parent's: only the process that started the driver writes them
(harness/src/fork_guard.hpp does the same for C++ programs)."""

import os
import sys

_owner_pid = 0


def remember_output_owner():
    global _owner_pid
    _owner_pid = os.getpid()


def stop_if_forked_child():
    if _owner_pid == 0 or os.getpid() == _owner_pid:
        return
    sys.stderr.write("parlab: a forked child process returned from the student's code into "
                     "the driver; end worker processes with os._exit() (or use "
                     "multiprocessing) so only the parent writes results\n")
    sys.stderr.flush()
    os._exit(1)
