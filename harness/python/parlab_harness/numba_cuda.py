"""Numba CUDA for a GPU lab's Python driver: the real device where the sandbox shows
one, else Numba's own CUDA simulator, chosen before Numba is first imported (Numba
reads NUMBA_ENABLE_CUDASIM once, at import). The simulator runs one Python thread per
CUDA thread and checks every index: a thread past an array's end raises IndexError."""

import glob
import os
import threading


# A simulated thread runs a little Python: 1 MiB of stack is plenty, where the default
# (8 MiB) would put a 1024-thread block past the run's address-space limit.
SIMULATED_THREAD_STACK = 1 << 20


def use_simulator_without_gpu():
    if not glob.glob("/dev/nvidia[0-9]*"):
        os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
        threading.stack_size(SIMULATED_THREAD_STACK)


def explain_out_of_bounds(error, advice):
    """The simulator's IndexError ("tid=[..] ctaid=[..]: index 336 is out of bounds ...")
    with what to do about it, keeping the traceback that names the student's line."""
    return IndexError(f"{error}; out of bounds in a kernel: {advice}").with_traceback(error.__traceback__)
