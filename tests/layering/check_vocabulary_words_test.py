#!/usr/bin/env python3
"""The vocabulary check finds what it must: run on small made-up trees."""
import pathlib
import sys
import tempfile
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import check_vocabulary_words as vocabulary  # noqa: E402

TABLES = {
    "spec/lab_vocabulary.cpp": 'constexpr NameTable<Device, 2> kDeviceNames{{\n'
                               '    {Device::cpu, "cpu"},\n    {Device::gpu, "gpu"},\n}};\n',
    "result/result.cpp": '{TestKind::performance, "performance"},\n',
}


class VocabularyCheck(unittest.TestCase):
    def problems(self, files, allowed=()):
        with tempfile.TemporaryDirectory() as tmp:
            src = pathlib.Path(tmp) / "src"
            for name, text in {**TABLES, **files}.items():
                path = src / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text)
            return vocabulary.check(src, list(allowed))

    def test_enum_comparisons_pass(self):
        files = {"grading/a.cpp": "if (t.device == Device::gpu) run();\n"}
        self.assertEqual(self.problems(files), [])

    def test_a_word_compared_as_a_string_is_named_with_file_and_line(self):
        files = {"grading/a.cpp": "// gpu\nif (t.device == \"gpu\") run();\n",
                 "report/b.cpp": "bool p = \"performance\" != kind;\n"}
        found = self.problems(files)
        self.assertEqual(len(found), 2, found)
        self.assertIn("grading/a.cpp:2: compares the vocabulary word 'gpu'", found[0])
        self.assertIn("report/b.cpp:1: compares the vocabulary word 'performance'", found[1])

    def test_the_edges_and_other_words_pass(self):
        files = {"spec/loader.cpp": "if (kind == \"gpu\") x();\n",
                 "result/result_json.cpp": "if (s == \"performance\") x();\n",
                 "cli/c.cpp": "if (arg == \"--gpu-id\" || mode == \"cpus\") x();\n",
                 "grading/d.cpp": "x = \"gpu\";  // an assignment is not a comparison\n"}
        self.assertEqual(self.problems(files), [])

    def test_a_comment_does_not_count(self):
        files = {"grading/a.cpp": "run();  // was: t.device == \"gpu\"\n"}
        self.assertEqual(self.problems(files), [])

    def test_allowed_lines_pass_and_a_stale_entry_fails(self):
        files = {"grading/s.cpp": "  if (t.kind == \"performance\") go();\n"}
        allowed = [("grading/s.cpp", 'if (t.kind == "performance") go();')]
        self.assertEqual(self.problems(files, allowed), [])
        stale = allowed + [("grading/s.cpp", 'if (lab.kind == "gpu") go();')]
        found = self.problems(files, stale)
        self.assertEqual(len(found), 1, found)
        self.assertIn("matches no comparison any more", found[0])

    def test_an_allowed_line_does_not_cover_another_file(self):
        files = {"grading/t.cpp": "if (t.kind == \"performance\") go();\n"}
        allowed = [("grading/s.cpp", 'if (t.kind == "performance") go();')]
        found = self.problems(files, allowed)
        self.assertIn("grading/t.cpp:1:", found[0])

    def test_the_allow_list_file_format(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp) / "allow.txt"
            path.write_text("# why\n\ngrading/s.cpp: if (a == \"gpu\") b();\n")
            self.assertEqual(vocabulary.read_allow_list(path),
                             [("grading/s.cpp", 'if (a == "gpu") b();')])


if __name__ == "__main__":
    unittest.main()
