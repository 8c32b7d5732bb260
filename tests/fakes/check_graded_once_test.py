#!/usr/bin/env python3
"""check_graded_once.py on made-up trees: it finds a table line listed twice, a grading
done twice or never, and a script that grades a table line itself; it passes a script
that reads the fixture's grading or grades in another mode."""
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import check_graded_once  # noqa: E402

VERDICTS = "# lab\tsubmission\tverdict\twhy\nlab04\treference\tpass\tthe reference\nlab04\tlab04/race\tfail\ta race\n"
GRADINGS = "# lab\tsubmission\tmode\tread by\nlab03\tlab03/slow\t-\tx\n"
LEDGER = "lab04\treference\t--no-perf\nlab04\tlab04/race\t--no-perf\nlab03\tlab03/slow\t-\n"


def tree(base, script, gradings=GRADINGS, ledger=LEDGER):
    root = Path(base)
    for path, text in {"tests/agreement/verdicts.tsv": VERDICTS, "tests/fakes/gradings.tsv": gradings,
                       "tests/e2e/check.sh": script, "ledger.tsv": ledger}.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    return root


class GradedOnce(unittest.TestCase):
    def problems(self, script, **kw):
        with tempfile.TemporaryDirectory() as base:
            root = tree(base, script, **kw)
            return check_graded_once.check(root, root / "ledger.tsv")

    def test_reading_the_fixture_and_other_modes_pass(self):
        script = ('fake_result race lab04 lab04/race --no-perf\n'
                  'fake_submission lab04 lab04/race\n'
                  'run_grade slow lab04 "$FAKE_DIR" --device sim --work-dir "$W/work" --json "$W/s.json"\n'
                  'run_grade limit lab04 "$FAKE_DIR" --device sim --no-perf --wall-limit 60 --json "$W/l.json"\n'
                  'PARLAB_SIM_CHECK=0 run_grade ref lab04 --reference --device sim --no-perf\n'
                  'run_grade ref lab04 --reference --device gpu --no-perf\n')
        self.assertEqual(self.problems(script), [])

    def test_a_script_grading_a_table_fake_again(self):
        script = ('fake_submission lab04 lab04/race\n'
                  'run_grade race lab04 "$FAKE_DIR" --device sim --no-perf \\\n  --work-dir "$W/work" --json "$W/r.json"\n')
        got = self.problems(script)
        self.assertEqual(len(got), 1, got)
        self.assertIn("check.sh:2: grades lab04 lab04/race --no-perf again", got[0])

    def test_a_reference_or_perf_line_graded_again(self):
        script = ('run_grade ref lab04 --reference --device sim --no-perf --work-dir "$W/work"\n'
                  'fake_submission lab03 lab03/slow\n'
                  '"$GRADE" lab03 "$FAKE_DIR" --device sim --json "$W/x.json"\n')
        got = self.problems(script)
        self.assertEqual(len(got), 2, got)
        self.assertIn("lab04 reference --no-perf", got[0])
        self.assertIn("lab03 lab03/slow -", got[1])

    def test_a_table_line_twice(self):
        got = self.problems("", gradings=GRADINGS + "lab04\tlab04/race\t--no-perf\tdup\n")
        self.assertEqual(len(got), 1, got)
        self.assertIn("gradings.tsv:3: lab04 lab04/race --no-perf is already a table line (verdicts.tsv:3)", got[0])

    def test_the_ledger_twice_never_or_unknown(self):
        got = self.problems("", ledger=LEDGER.replace("lab03\tlab03/slow\t-\n", "lab04\treference\t--no-perf\nlab05\tx\t-\n"))
        self.assertEqual(len(got), 3, got)
        self.assertTrue(any("lab04 reference --no-perf graded 2 times" in p for p in got), got)
        self.assertTrue(any("lab05 x - graded but in no table" in p for p in got), got)
        self.assertTrue(any("lab03 lab03/slow - never graded" in p for p in got), got)


if __name__ == "__main__":
    unittest.main()
