// A Python track's build: the syntax-check plan and the program folder it puts together.
#include <catch2/catch.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>

#include "compile/python_program.hpp"
#include "scratch_dir.hpp"
#include "write_file.hpp"

namespace fs = std::filesystem;
using namespace parlab::grader;
using parlab::testing::ScratchDir;
using parlab::testing::write_file;

namespace {

// A source tree with a harness and one lab, as the toolchain names them.
struct Tree {
  ScratchDir dir;
  Toolchain tc;
  LabSpec lab;
  Tree() {
    tc.source_dir = dir.path() / "src";
    write_file(tc.source_dir / "harness/python/launcher.py", "#!/usr/bin/python3 -ISB\n");
    write_file(tc.source_dir / "harness/python/parlab_harness/__init__.py", "");
    write_file(tc.source_dir / "harness/python/parlab_harness/driver.py", "");
    const fs::path lab_dir = tc.source_dir / "labs/lab99";
    write_file(lab_dir / "driver.py", "");
    write_file(lab_dir / "api.py", "");
    write_file(lab_dir / "driver.cpp", "");  // not the Python program's
    tc.labs["lab99"].dir = lab_dir;
    lab.id = "lab99";
    lab.sources = {"a.py"};
    lab.track = Track::python;
  }
};

}  // namespace

TEST_CASE("the Python plan is one py_compile check of the staged sources", "[compile][python]") {
  Tree t;
  const fs::path stage = t.dir.path() / "build/src";
  const fs::path exe = t.dir.path() / "build/bin/lab99_submission";
  const CompilePlan plan = python_plan(t.lab, t.tc, stage, exe);
  REQUIRE(plan.steps.size() == 1);
  const CompileStep& step = plan.steps[0];
  CHECK(step.program == kPython3);
  CHECK(step.args[0] == "-I");
  CHECK(step.args[1] == "-S");
  CHECK_THAT(step.args[3], Catch::Contains("py_compile.compile"));
  CHECK(step.args.back() == (stage / "a.py").string());
  // The build key follows the interpreter, the harness and the lab's Python files.
  const auto has = [&](const fs::path& p) {
    return std::find(plan.inputs.begin(), plan.inputs.end(), p) != plan.inputs.end();
  };
  CHECK(has(kPython3));
  CHECK(has(t.tc.source_dir / "harness/python/launcher.py"));
  CHECK(has(t.tc.source_dir / "harness/python/parlab_harness/driver.py"));
  CHECK(has(t.tc.labs["lab99"].dir / "driver.py"));
  CHECK_FALSE(has(t.tc.labs["lab99"].dir / "driver.cpp"));
}

TEST_CASE("the program folder: launcher, driver with harness, solution", "[compile][python]") {
  Tree t;
  const fs::path stage = t.dir.path() / "build/src";
  write_file(stage / "a.py", "x = 1\n");
  const fs::path exe = t.dir.path() / "build/bin/lab99_submission";
  fs::create_directories(exe.parent_path());
  write_file(exe.parent_path() / "driver/stale.py", "");  // from an earlier build: removed
  assemble_python_program(t.tc.source_dir / "harness/python", t.tc.labs["lab99"].dir, stage,
                          t.lab.sources, exe);
  const fs::path bin = exe.parent_path();
  CHECK(fs::is_regular_file(exe));
  CHECK((fs::status(exe).permissions() & fs::perms::others_exec) != fs::perms::none);
  CHECK(fs::is_regular_file(bin / "driver/driver.py"));
  CHECK(fs::is_regular_file(bin / "driver/api.py"));
  CHECK_FALSE(fs::exists(bin / "driver/driver.cpp"));
  CHECK_FALSE(fs::exists(bin / "driver/stale.py"));
  CHECK(fs::is_regular_file(bin / "driver/parlab_harness/__init__.py"));
  CHECK(fs::is_regular_file(bin / "driver/parlab_harness/driver.py"));
  CHECK(fs::is_regular_file(bin / "solution/a.py"));
  std::ifstream launcher(exe);
  std::string first;
  std::getline(launcher, first);
  CHECK(first == "#!/usr/bin/python3 -ISB");
}
