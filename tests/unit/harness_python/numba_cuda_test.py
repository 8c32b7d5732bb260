"""parlab_harness.numba_cuda: an out-of-bounds IndexError from Numba's simulator, once
explained, still names the student's line in status.json (the driver places a failure
at the last frame in the solution folder) and says what to do. No Numba needed: the
student's kernel here raises the IndexError itself, as the simulator's array would.
Run: python3 -m unittest discover -s tests/unit/harness_python."""

import importlib.util
import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "harness", "python"))

from parlab_harness import driver  # noqa: E402
from parlab_harness.numba_cuda import explain_out_of_bounds  # noqa: E402

KERNEL = '''def kernel(c, i):
    c[i] = 1.0
'''


class ExplainOutOfBoundsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.solution = os.path.join(self.tmp.name, "solution")
        os.makedirs(self.solution)
        path = os.path.join(self.solution, "kernels.py")
        with open(path, "w") as f:
            f.write(KERNEL)
        spec = importlib.util.spec_from_file_location("kernels", path)
        self.kernels = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(self.kernels)
        driver.solution_dir = self.solution

    def tearDown(self):
        driver.solution_dir = ""
        self.tmp.cleanup()

    def run_task(self, body):
        out = os.path.join(self.tmp.name, "out")
        code = driver.run_driver([driver.Task("t", "", body)],
                                 ["--task", "t", "--dataset", self.tmp.name, "--out", out])
        with open(os.path.join(out, "status.json")) as f:
            return code, json.load(f)

    def test_names_the_kernel_line_and_the_advice(self):
        def task(_ctx):
            try:
                self.kernels.kernel([0.0] * 4, 4)
            except IndexError as e:
                raise explain_out_of_bounds(e, "guard with `if i < n:`") from None

        code, status = self.run_task(task)
        self.assertEqual(code, driver.EXIT_TASK_ERROR)
        self.assertIn("IndexError: list assignment index out of range", status["message"])
        self.assertIn("out of bounds in a kernel: guard with `if i < n:`", status["message"])
        self.assertIn("(at kernels.py:2)", status["message"])


if __name__ == "__main__":
    unittest.main()
