"""Lab 01 driver checks of the rules about worker processes that no output value
shows, the Python counterpart of worker_checks.hpp:
  - unreaped_children(): child processes still there when process_parallel returned
    (workers never joined, zombies never waited for). multiprocessing's own helpers
    (the resource tracker, the forkserver) outlive a call by design and are not
    counted: they are the library's, not the student's workers.
  - WorkerKiller: "if a worker dies, raise". A FIFO named like a CSV file is handed out
    first; the worker that opens it blocks, is found through /proc (the child holding
    the FIFO open) and killed with SIGKILL, as a crash would.
Grader-owned, like driver.py."""

import os
import signal
import threading
import time

_LIBRARY_HELPERS = (b"multiprocessing.resource_tracker", b"multiprocessing.forkserver")


def _parent_of(pid):
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            text = f.read()
    except OSError:
        return -1
    fields = text[text.rfind(b")") + 1:].split()
    return int(fields[1]) if len(fields) > 1 else -1


def _is_library_helper(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            command = f.read()
    except OSError:
        return False
    return any(helper in command for helper in _LIBRARY_HELPERS)


def children_of_self():
    me = os.getpid()
    return [int(name) for name in os.listdir("/proc")
            if name.isdigit() and _parent_of(name) == me]


def unreaped_children():
    return sum(1 for pid in children_of_self() if not _is_library_helper(pid))


def _open_for_reading(pid, fd):
    """Whether descriptor FD of PID is open for reading (its fdinfo's flags)."""
    try:
        with open(f"/proc/{pid}/fdinfo/{fd}") as f:
            for line in f:
                if line.startswith("flags:"):
                    return int(line.split()[1], 8) & os.O_ACCMODE != os.O_WRONLY
    except (OSError, ValueError, IndexError):
        pass
    return False


def _reads(pid, path):
    """Whether PID holds PATH open for reading. Only readers count: a worker forked after
    the watcher opened the FIFO's write end inherits that end, and killing it instead of
    the reader left the reader blocked for ever."""
    directory = f"/proc/{pid}/fd"
    try:
        names = os.listdir(directory)
    except OSError:
        return False
    for name in names:
        try:
            if os.readlink(os.path.join(directory, name)) == path and _open_for_reading(pid, name):
                return True
        except OSError:
            continue
    return False


class WorkerKiller:
    """Creates DIR/worker_dies.csv as a FIFO and kills the child that reads it."""

    def __init__(self, directory):
        os.makedirs(directory, exist_ok=True)
        self.path = os.path.join(directory, "worker_dies.csv")
        if os.path.lexists(self.path):
            os.remove(self.path)
        os.mkfifo(self.path, 0o600)
        self.killed = False
        # The driver's own process opened the FIFO (threads, or no workers at all): there
        # is no worker to kill, and waiting for one would only run into the time limit.
        self.read_in_parent = False
        self._stop = threading.Event()
        self._write_fd = -1
        self._watcher = threading.Thread(target=self._watch, daemon=True)
        self._watcher.start()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._watcher.join()
        if self._write_fd >= 0:
            os.close(self._write_fd)
        try:
            os.remove(self.path)
            # Its folder too, once empty: without bubblewrap the run's /tmp is the machine's.
            os.rmdir(os.path.dirname(self.path))
        except OSError:
            pass

    def _watch(self):
        give_up = time.monotonic() + 20
        while not self._stop.is_set() and time.monotonic() < give_up:
            # Succeeds once a reader has the FIFO open (or is blocked opening it); the
            # reader then blocks in read(): nothing is ever written.
            if self._write_fd < 0:
                try:
                    self._write_fd = os.open(self.path, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
                except OSError:
                    pass
            if self._write_fd >= 0:
                for child in children_of_self():
                    if _reads(child, self.path):
                        # Set first: whoever waits on the reader may ask the moment it is gone.
                        self.killed = True
                        os.kill(child, signal.SIGKILL)
                        return
                if _reads(os.getpid(), self.path):  # a reader beside our writer
                    self.read_in_parent = True
                    break
            time.sleep(0.01)
        # Nobody to kill (the parent read the FIFO itself?): end its read with EOF.
        if self._write_fd >= 0:
            os.close(self._write_fd)
            self._write_fd = -1
