"""Fresh input content for every timed repetition of a GPU call, the Python counterpart of
harness/include/parlab/harness/gpu/fresh_inputs.hpp (docs/gpu.md, "Timing on the GPU"):
a result kept from an earlier call (cached by the device array it was given, or computed
once and replayed) cannot stand in for the work being timed. TaskContext.timed calls
`refresh(seed)` before each timed call (new values in [-1, 1) for every input, from a
seed the submission is not given), `check()` after it (64 output elements recomputed on
the host; "" when they fit, else what differed) and `restore()` before a last, untimed
call on the dataset's own content, whose output the grader compares."""

import os

SAMPLED_ELEMENTS = 64


class StaleResultError(Exception):
    """The student's call returned an output that does not belong to its input."""

    def __init__(self, function, repetition, differed):
        super().__init__(
            f"{function} returned a result that does not fit its input on timed repetition {repetition + 1} "
            f"(the grader gives every timed call new input content: {differed}). Compute the result in every "
            "call; a result kept from an earlier call, or work skipped after the first, is not a faster kernel")


def unpredictable_seed():
    """From the kernel's random source when the repetition starts: nothing in the dataset,
    the command line or an earlier call predicts it."""
    return int.from_bytes(os.urandom(8), "little")


class SampledFreshInputs:
    """inputs: (target, original) pairs, a target being the device array the call reads
    (new content copied to it) or a host array the call uploads itself (new content
    written in place, as in a round trip); `original` is the dataset's content.
    output(): the call's output as a host array. expected(index, inputs): the output
    element at `index` (flat) for `inputs`, the flat host arrays the call was given."""

    def __init__(self, np, inputs, output, output_name, expected):
        self._np = np
        self._inputs = inputs
        self._output = output
        self._output_name = output_name
        self._expected = expected
        self._given = []  # the flat inputs of the last refresh: what check() recomputes from
        self._rng = None  # seeded by refresh(); check() draws the sampled indices from it

    def refresh(self, seed):
        np = self._np
        self._rng = np.random.default_rng(seed)
        self._given = []
        for target, original in self._inputs:
            values = self._rng.uniform(-1.0, 1.0, original.size).astype(np.float32).reshape(original.shape)
            self._put(target, values)
            self._given.append(values.reshape(-1))

    def check(self):
        output = self._np.asarray(self._output()).reshape(-1)
        if output.size == 0:
            return ""
        for i in self._rng.integers(0, output.size, SAMPLED_ELEMENTS):
            i = int(i)
            want = float(self._expected(i, self._given))
            got = float(output[i])
            if not abs(got - want) <= 1e-4 * (1 + abs(want)):
                return f"{self._output_name} at index {i} is {got:f} where these inputs give {want:f}"
        return ""

    def restore(self):
        for target, original in self._inputs:
            self._put(target, original)

    @staticmethod
    def _put(target, values):
        if hasattr(target, "copy_to_device"):
            target.copy_to_device(values)
        else:
            target[...] = values
