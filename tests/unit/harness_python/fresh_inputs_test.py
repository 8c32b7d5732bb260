"""The Python harness's timing with fresh inputs (harness/python/parlab_harness/
fresh_inputs.py, TaskContext.timed): every timed call after a first gets new input
content and its output is sampled, so a call that replays its first result fails, named;
an honest call passes and the result returned is the one for the dataset's own content;
a single call (a correctness run) is given the dataset unchanged. Host arrays stand in
for device ones (the same in-place path a round trip uses). Run: python3 -m unittest
discover -s tests/unit/harness_python."""

import os
import sys
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "harness", "python"))

from parlab_harness import driver  # noqa: E402
from parlab_harness.fresh_inputs import SampledFreshInputs, StaleResultError  # noqa: E402


class VectorAdd:
    """c = a + b on host arrays, honest or replaying the c of its first call."""

    def __init__(self, n, replay):
        rng = np.random.default_rng(7)
        self.a, self.b = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
        self.given_a, self.given_b = self.a.copy(), self.b.copy()
        self.replay, self.first, self.last, self.calls = replay, None, None, 0

    def call(self):
        self.calls += 1
        if self.replay and self.first is not None:
            self.last = self.first.copy()
        else:
            self.last = self.given_a + self.given_b
            self.first = self.last.copy() if self.first is None else self.first
        return self.last

    def fresh(self):
        return SampledFreshInputs(np, [(self.given_a, self.a), (self.given_b, self.b)], lambda: self.last, "c",
                                  lambda i, v: float(v[0][i]) + float(v[1][i]))


def context(warmup, repeat):
    return driver.TaskContext(".", None, None, warmup, repeat)


class FreshInputsTest(unittest.TestCase):
    def test_honest_call_passes_and_returns_the_datasets_result(self):
        add = VectorAdd(1000, replay=False)
        ctx = context(1, 3)
        result = ctx.timed(add.call, fresh=add.fresh(), function="vector_add")
        self.assertEqual(len(ctx.samples), 3)
        self.assertEqual(add.calls, 1 + 3 + 1)  # warm-up, timed, the last on the dataset
        np.testing.assert_array_equal(result, add.a + add.b)
        np.testing.assert_array_equal(add.given_a, add.a)  # the dataset put back

    def test_timed_calls_get_new_content(self):
        add = VectorAdd(1000, replay=False)
        seen = []
        ctx = context(0, 3)
        ctx.timed(lambda: seen.append(add.given_a.copy()) or add.call(), fresh=add.fresh())
        self.assertEqual(len(seen), 4)
        for timed in seen[:3]:
            self.assertFalse(np.array_equal(timed, add.a))
            self.assertTrue(np.all((timed >= -1) & (timed < 1)))
        self.assertFalse(np.array_equal(seen[0], seen[1]))

    def test_replayed_result_fails_the_first_timed_repetition_named(self):
        add = VectorAdd(1000, replay=True)
        with self.assertRaises(StaleResultError) as raised:
            context(1, 3).timed(add.call, fresh=add.fresh(), function="vector_add")
        message = str(raised.exception)
        self.assertIn("vector_add returned a result that does not fit its input on timed repetition 1", message)
        self.assertRegex(message, r"c at index [0-9]+ is -?[0-9.]+ where these inputs give -?[0-9.]+")

    def test_one_call_alone_gets_the_dataset(self):
        add = VectorAdd(1000, replay=True)
        result = context(0, 1).timed(add.call, fresh=add.fresh())
        self.assertEqual(add.calls, 1)
        np.testing.assert_array_equal(result, add.a + add.b)

    def test_without_fresh_nothing_changes(self):
        add = VectorAdd(10, replay=True)
        context(1, 3).timed(add.call)
        self.assertEqual(add.calls, 4)
        np.testing.assert_array_equal(add.given_a, add.a)


if __name__ == "__main__":
    unittest.main()
