"""The student's module is imported through parlab_harness.solution_import: top-level
code that starts a worker process (a Pool, a Process, a ProcessPoolExecutor) raises
ProcessesStartedAtImport at the student's line, before any process exists, naming the
__main__ guard; a module that starts none imports as usual, and processes started later,
from the module's functions, are not refused. Run: python3 -m unittest discover -s
tests/unit/harness_python."""

import multiprocessing
import multiprocessing.process
import os
import sys
import tempfile
import textwrap
import traceback
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "harness", "python"))

from parlab_harness.solution_import import ProcessesStartedAtImport, import_solution  # noqa: E402


class SolutionImportTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        sys.path.insert(0, self.folder.name)
        self.original_start = multiprocessing.process.BaseProcess.start

    def tearDown(self):
        sys.path.remove(self.folder.name)
        for name in ("unguarded_pool", "unguarded_process", "guarded", "pool_in_function"):
            sys.modules.pop(name, None)
        self.folder.cleanup()

    def write(self, name, text):
        with open(os.path.join(self.folder.name, name + ".py"), "w") as f:
            f.write(textwrap.dedent(text))

    def test_a_pool_at_the_top_level_is_refused_at_its_line(self):
        self.write("unguarded_pool", """\
            import multiprocessing

            def square(x):
                return x * x

            with multiprocessing.Pool(2) as pool:
                print(pool.map(square, range(4)))
            """)
        caught = None
        try:  # not assertRaises: it drops the traceback, which holds the student's line
            import_solution("unguarded_pool")
        except ProcessesStartedAtImport as e:
            caught = e
        self.assertIsNotNone(caught, "the import was refused")
        self.assertIn("unguarded_pool.py starts worker processes while it is being imported",
                      str(caught))
        self.assertIn('if __name__ == "__main__":', str(caught))
        self.assertIn("spawn", str(caught))
        own = [f for f in traceback.extract_tb(caught.__traceback__)
               if f.filename.endswith("unguarded_pool.py")]
        self.assertEqual(own[-1].lineno, 6, "the student's line of the Pool")
        self.assertEqual(multiprocessing.active_children(), [], "no worker was started")
        self.assertIs(multiprocessing.process.BaseProcess.start, self.original_start,
                      "start is restored after the import")

    def test_a_process_at_the_top_level_is_refused_too(self):
        self.write("unguarded_process", """\
            import multiprocessing
            multiprocessing.Process(target=print).start()
            """)
        with self.assertRaises(ProcessesStartedAtImport):
            import_solution("unguarded_process")
        self.assertEqual(multiprocessing.active_children(), [])

    def test_guarded_code_and_pools_in_functions_import(self):
        self.write("guarded", """\
            import multiprocessing
            def square(x):
                return x * x
            if __name__ == "__main__":
                with multiprocessing.Pool(2) as pool:
                    print(pool.map(square, range(4)))
            """)
        self.write("pool_in_function", """\
            import multiprocessing
            def square(x):
                return x * x
            def squares(n):
                with multiprocessing.Pool(2) as pool:
                    return pool.map(square, range(n))
            """)
        self.assertTrue(hasattr(import_solution("guarded"), "square"))
        module = import_solution("pool_in_function")
        self.assertEqual(module.squares(4), [0, 1, 4, 9], "processes started after the import run")


if __name__ == "__main__":
    unittest.main()
