#!/usr/bin/env python3
"""schedule_replay.py on made-up suites: tests two at a time, a RUN_SERIAL test alone, a
fixture's readers after it, COST first; and its errors for a test it does not know."""
import contextlib
import io
import json
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import schedule_replay  # noqa: E402


def suite(base, tests):
    """tests: (name, seconds, properties) in the order written."""
    build = Path(base)
    (build / "Testing" / "Temporary").mkdir(parents=True)
    (build / "Testing" / "Temporary" / "CTestCostData.txt").write_text(
        "".join(f"{name} 1 {seconds}\n" for name, seconds, _ in tests) + "---\n")
    listed = [{"name": name, "properties": [{"name": k, "value": v} for k, v in props.items()]}
              for name, _, props in tests]
    (build / "tests.json").write_text(json.dumps({"tests": listed}))
    return build


class ScheduleReplay(unittest.TestCase):
    def wall(self, tests, *options):
        with tempfile.TemporaryDirectory() as base:
            build = suite(base, tests)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                schedule_replay.main([str(build), "--tests-json", str(build / "tests.json"), *options])
            return float(out.getvalue().split()[3])

    def test_two_at_a_time(self):
        self.assertEqual(self.wall([("a", 10, {}), ("b", 10, {})]), 10)
        self.assertEqual(self.wall([("a", 10, {}), ("b", 10, {})], "--jobs", "1"), 20)

    def test_a_serial_test_runs_alone(self):
        self.assertEqual(self.wall([("s", 5, {"RUN_SERIAL": True}), ("a", 10, {}), ("b", 10, {})]), 15)

    def test_a_fixture_reader_waits_and_leaves_a_slot_idle(self):
        tests = [("table", 100, {"FIXTURES_SETUP": ["t"]}), ("reader", 50, {"FIXTURES_REQUIRED": ["t"]}),
                 ("other", 50, {})]
        self.assertEqual(self.wall(tests), 150)
        self.assertEqual(self.wall(tests, "--no-fixture", "reader"), 100)

    def test_cost_starts_the_longest_first(self):
        tests = [("x", 10, {}), ("y", 10, {}), ("z", 20, {})]
        self.assertEqual(self.wall(tests), 30)
        self.assertEqual(self.wall(tests, "--cost", "z=100"), 20)
        self.assertEqual(self.wall([("x", 10, {}), ("y", 10, {}), ("z", 20, {"COST": 100})]), 20)

    def test_an_unknown_test_is_refused_by_name(self):
        err = io.StringIO()
        with self.assertRaises(SystemExit), contextlib.redirect_stderr(err):
            self.wall([("a", 1, {})], "--no-fixture", "missing")
        self.assertIn("'missing': no such test", err.getvalue())


if __name__ == "__main__":
    unittest.main()
