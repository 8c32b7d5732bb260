#!/usr/bin/env python3
"""The layering check finds what it must: run on small made-up trees."""
import pathlib
import sys
import tempfile
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import check_grader_layering as layering  # noqa: E402


def make_tree(root, files, areas):
    for name, text in files.items():
        path = root / "src" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (root / "areas.txt").write_text("".join(f"{a}: {' '.join(d)}\n" for a, d in areas))
    return layering.read_areas(root / "areas.txt")


class LayeringCheck(unittest.TestCase):
    def problems(self, files, areas, doc_text=None):
        with tempfile.TemporaryDirectory() as tmp:
            root = pathlib.Path(tmp)
            declared = make_tree(root, files, areas)
            doc = None
            if doc_text is not None:
                doc = root / "architecture.md"
                doc.write_text(doc_text)
            return layering.check(root / "src", declared, doc)

    def test_downward_includes_pass(self):
        files = {"low/a.hpp": "#pragma once\n",
                 "high/b.cpp": '#include "low/a.hpp"\n#include "b.hpp"\n',
                 "high/b.hpp": "#pragma once\n"}
        self.assertEqual(self.problems(files, [("low", []), ("high", ["low"])]), [])

    def test_upward_include_is_named_with_file_and_line(self):
        files = {"low/a.cpp": '// a comment\n#include "high/b.hpp"\n',
                 "high/b.hpp": '#include "low/a.hpp"\n', "low/a.hpp": ""}
        found = self.problems(files, [("low", []), ("high", ["low"])])
        self.assertIn("a.cpp:2: area 'low' includes 'high/b.hpp'", found[0])
        # ... and the includes now go round: low -> high -> low.
        self.assertEqual(found[1:], ["the areas form a cycle: high -> low -> high"])

    def test_transitive_include_is_allowed(self):
        files = {"a/x.hpp": "", "b/y.hpp": '#include "a/x.hpp"\n',
                 "c/z.cpp": '#include "a/x.hpp"\n#include "b/y.hpp"\n'}
        self.assertEqual(self.problems(files, [("a", []), ("b", ["a"]), ("c", ["b"])]), [])

    def test_dotdot_include_is_refused(self):
        files = {"low/a.hpp": "", "high/b.hpp": "",
                 "low/c.cpp": '#include "../high/b.hpp"\n'}
        found = self.problems(files, [("low", []), ("high", ["low"])])
        self.assertTrue(any("leaves the area's view" in p for p in found), found)

    def test_undeclared_folder_and_unused_declaration(self):
        files = {"low/a.hpp": "", "high/b.hpp": "", "stray/s.cpp": ""}
        found = self.problems(files, [("low", []), ("high", ["low"])])
        self.assertTrue(any("stray: folder is not a declared area" in p for p in found), found)
        self.assertTrue(any("'high' declares 'low' but includes none" in p for p in found), found)

    def test_cycle_in_declarations(self):
        files = {"a/x.hpp": '#include "b/y.hpp"\n', "b/y.hpp": '#include "a/x.hpp"\n'}
        found = self.problems(files, [("a", ["b"]), ("b", ["a"])])
        self.assertTrue(any("cycle" in p for p in found), found)

    def test_stale_graph_in_doc(self):
        files = {"low/a.hpp": "", "high/b.hpp": '#include "low/a.hpp"\n'}
        areas = [("low", []), ("high", ["low"])]
        good = "<!-- grader-layers -->\n```mermaid\ngraph BT\n  low\n  high --> low\n```\n"
        self.assertEqual(self.problems(files, areas, good), [])
        stale = good.replace("  high --> low\n", "")
        found = self.problems(files, areas, stale)
        self.assertTrue(any("out of date" in p for p in found), found)

    def test_the_graph_is_read_after_its_own_marker(self):
        files = {"low/a.hpp": "", "high/b.hpp": '#include "low/a.hpp"\n'}
        areas = [("low", []), ("high", ["low"])]
        sim_graph = "<!-- sim-layers -->\n```mermaid\ngraph BT\n  low\n  high --> low\n```\n"
        other = "<!-- grader-layers -->\n```mermaid\ngraph BT\n  core\n```\n"
        with tempfile.TemporaryDirectory() as tmp:
            root = pathlib.Path(tmp)
            declared = make_tree(root, files, areas)
            doc = root / "architecture.md"
            doc.write_text(other + sim_graph)
            self.assertEqual(layering.check(root / "src", declared, doc, "sim-layers"), [])
            found = layering.check(root / "src", declared, doc)
            self.assertTrue(any("out of date" in p for p in found), found)

    def test_an_upward_include_names_the_build_file_given(self):
        files = {"low/a.hpp": '#include "high/b.hpp"\n', "high/b.hpp": ""}
        with tempfile.TemporaryDirectory() as tmp:
            root = pathlib.Path(tmp)
            declared = make_tree(root, files, [("low", []), ("high", ["low"])])
            found = layering.check(root / "src", declared, None, build_file="sim/CMakeLists.txt")
        self.assertTrue(any("sim/CMakeLists.txt declares the layers" in p for p in found), found)

    def test_drawn_graph_leaves_out_implied_arrows(self):
        areas = {"a": [], "b": ["a"], "c": ["b", "a"]}
        self.assertEqual(layering.mermaid(areas), ["graph BT", "  a", "  b --> a", "  c --> b"])


class TestsMirrorTheAreas(unittest.TestCase):
    AREAS = {"low": [], "high": ["low"]}

    def problems(self, files, other_libraries=()):
        with tempfile.TemporaryDirectory() as tmp:
            unit = pathlib.Path(tmp) / "unit"
            for name, text in files.items():
                path = unit / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text)
            return layering.check_tests(unit, self.AREAS, other_libraries)

    def test_a_test_in_its_units_area_passes(self):
        files = {"high/b_test.cpp": '#include "high/b.hpp"\n#include "low/a.hpp"\n',
                 "low/a_test.cpp": '#include "low/a.hpp"\n#include "support.hpp"\n',
                 "low/support.hpp": '#include "low/a.hpp"\n',
                 "harness/h_test.cpp": '#include "parlab/harness/params.hpp"\n'}
        self.assertEqual(self.problems(files), [])

    def test_a_test_below_its_units_area_is_named_with_file_and_line(self):
        found = self.problems({"low/b_test.cpp": '// b\n#include "high/b.hpp"\n'})
        self.assertEqual(len(found), 1, found)
        self.assertIn("b_test.cpp:2: a test in tests/unit/low/ includes 'high/b.hpp'", found[0])
        self.assertIn("move it to tests/unit/high/", found[0])

    def test_a_test_above_its_units_area_fails(self):
        found = self.problems({"high/a_test.cpp": '#include "low/a.hpp"\n'})
        self.assertEqual(len(found), 1, found)
        self.assertIn("tests no unit of 'high' (it includes low): move it to tests/unit/low/",
                      found[0])

    def test_a_grader_test_outside_the_areas_fails(self):
        found = self.problems({"misc/a_test.cpp": '#include "low/a.hpp"\n'})
        self.assertEqual(len(found), 1, found)
        self.assertIn("no grader area: move it to tests/unit/low/", found[0])

    def test_another_librarys_tests_are_left_out(self):
        files = {"sim/d_test.cpp": '#include "low/a.hpp"\n'}  # the simulator's own 'low'
        self.assertEqual(len(self.problems(files)), 1)
        self.assertEqual(self.problems(files, {"sim"}), [])


if __name__ == "__main__":
    unittest.main()
