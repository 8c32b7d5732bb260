#!/usr/bin/python3 -ISB
"""The "executable" of a Python lab program: what the grader runs as it runs a C++
lab's binary. The grader (or, for the Python reference, the CMake build) puts it in a
folder beside driver/ (the lab's driver.py and api.py, the parlab_harness package) and
solution/ (the staged sources), so the folder alone is all a run needs to see.

-I: no PYTHONPATH, no user site, no script folder on sys.path; -S: no site-packages;
-B: no .pyc written (the folder is read-only to the run). multiprocessing's spawn and
forkserver children inherit these flags (sys.flags)."""

import os
import runpy
import sys

here = os.path.dirname(os.path.abspath(__file__))
# The driver and the harness first, so a student's module cannot shadow them; the
# solution last, so it cannot shadow the standard library either.
sys.path[:0] = [os.path.join(here, "driver")]
# Debian's NumPy, joblib and Numba (python3-numpy, ...), which -S leaves out, before the
# solution, so a student's numpy.py cannot stand in for them.
sys.path.append("/usr/lib/python3/dist-packages")
sys.path.append(os.path.join(here, "solution"))

import parlab_harness.driver  # noqa: E402 - importable only now

parlab_harness.driver.solution_dir = os.path.join(here, "solution")
sys.argv[0] = os.path.join(here, "driver", "driver.py")
runpy.run_path(sys.argv[0], run_name="__main__")
