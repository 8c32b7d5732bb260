"""The Python harness's driver (harness/python/parlab_harness/driver.py) reports a task
that ran out of memory as the C++ harness does: exit 86 and status out_of_memory, for a
MemoryError, an OSError ENOMEM (mmap, fork) and either one as the cause of what escaped
(a pool re-raising a worker's error, student code wrapping it); other errors stay
task errors. Run: python3 -m unittest discover -s tests/unit/harness_python."""

import errno
import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "harness", "python"))

from parlab_harness import driver  # noqa: E402


def raise_memory_error(_ctx):
    raise MemoryError()


def allocate_past_limit(_ctx):
    # What a student's list too large for the address space does: a real MemoryError.
    return [0] * (1 << 62)


def raise_enomem(_ctx):
    raise OSError(errno.ENOMEM, "Cannot allocate memory")


def wrapped_memory_error(_ctx):
    try:
        raise MemoryError()
    except MemoryError as e:
        raise RuntimeError("worker failed") from e


def raise_value_error(_ctx):
    raise ValueError("bad row")


class DriverMemoryTest(unittest.TestCase):
    def run_task(self, work):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out")
            task = driver.Task("t", "a test task", work)
            stderr = sys.stderr
            sys.stderr = open(os.devnull, "w")
            try:
                rc = driver.run_driver([task], ["--task", "t", "--dataset", tmp, "--out", out])
            finally:
                sys.stderr.close()
                sys.stderr = stderr
            with open(os.path.join(out, "status.json")) as f:
                return rc, json.load(f)

    def assert_out_of_memory(self, work, names):
        rc, status = self.run_task(work)
        self.assertEqual(rc, driver.EXIT_OUT_OF_MEMORY)
        self.assertEqual(status["status"], "out_of_memory")
        self.assertIn(names, status["message"])
        self.assertIn("ran out of memory", status["message"])

    def test_memory_error(self):
        self.assert_out_of_memory(raise_memory_error, "MemoryError")

    def test_real_allocation_past_the_address_space(self):
        self.assert_out_of_memory(allocate_past_limit, "MemoryError")

    def test_enomem_os_error(self):
        self.assert_out_of_memory(raise_enomem, "Cannot allocate memory")

    def test_memory_error_as_a_cause(self):
        self.assert_out_of_memory(wrapped_memory_error, "MemoryError")

    def test_other_errors_stay_task_errors(self):
        rc, status = self.run_task(raise_value_error)
        self.assertEqual(rc, driver.EXIT_TASK_ERROR)
        self.assertEqual(status["status"], "error")
        self.assertIn("ValueError: bad row", status["message"])


if __name__ == "__main__":
    unittest.main()
