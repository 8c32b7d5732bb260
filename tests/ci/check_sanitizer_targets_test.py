#!/usr/bin/env python3
"""check_sanitizer_targets.py on made-up presets: a run area left out of the build, one
filtered out of the run, a stale target, and presets that match."""
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_sanitizer_targets import problems  # noqa: E402


def presets(asan_targets, tsan_targets):
    return {
        "buildPresets": [{"name": "asan", "targets": asan_targets}, {"name": "tsan", "targets": tsan_targets}],
        "testPresets": [
            {"name": "asan", "filter": {"exclude": {"name": "^(e2e: |cmake: )"}}},
            {"name": "tsan", "filter": {"include": {"name": "^(process|cli):"}}},
        ],
    }


UNITS = {"unit_process", "unit_cli", "unit_lab01"}


class SanitizerTargets(unittest.TestCase):
    def test_matching_presets_pass(self):
        self.assertEqual(problems(presets(sorted(UNITS), ["unit_process", "unit_cli"]), UNITS), [])

    def test_an_area_run_but_not_built_is_named(self):
        found = problems(presets(["unit_process", "unit_cli"], ["unit_process", "unit_cli"]), UNITS)
        self.assertEqual(len(found), 1)
        self.assertIn("asan: runs the lab01: tests but does not build unit_lab01", found[0])

    def test_an_area_the_filter_leaves_out_needs_no_build(self):
        # tsan runs process and cli only: lab01 is not asked of it.
        self.assertEqual(problems(presets(sorted(UNITS), ["unit_process", "unit_cli"]), UNITS), [])
        found = problems(presets(sorted(UNITS), ["unit_process"]), UNITS)
        self.assertEqual(found, ["tsan: runs the cli: tests but does not build unit_cli "
                                 "(add it to buildPresets 'tsan' targets)"])

    def test_a_stale_target_is_named(self):
        found = problems(presets(sorted(UNITS) + ["unit_gone"], ["unit_process", "unit_cli"]), UNITS)
        self.assertEqual(found, ["asan: builds unit_gone, which the build no longer defines"])

    def test_a_missing_preset_is_named(self):
        found = problems({"buildPresets": [], "testPresets": []}, UNITS)
        self.assertEqual(len(found), 2)


if __name__ == "__main__":
    unittest.main()
