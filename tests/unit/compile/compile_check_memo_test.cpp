// A compile check's pass is remembered by everything its verdict depends on: the same
// sources in another submission's stage hit, any change to what the checked file can
// include misses, and a memo with no folder remembers nothing.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "compile/compile_check_memo.hpp"
#include "scratch_dir.hpp"
#include "write_file.hpp"

namespace fs = std::filesystem;
using namespace parlab::grader;
using parlab::testing::ScratchDir;
using parlab::testing::write_file;

namespace {

// One submission's stage: two .cu files and a header, and the grader's include folder.
struct Stage {
  fs::path dir;
  fs::path lab;
  CompileStep step;

  Stage(const ScratchDir& scratch, const std::string& name) : dir(scratch / name), lab(scratch / "lab") {
    write_file(dir / "kernels.cu", "#include \"helpers.cuh\"\n__global__ void k() {}\n");
    write_file(dir / "helpers.cuh", "__device__ int twice(int x) { return 2 * x; }\n");
    write_file(dir / "scan.cu", "__global__ void s() {}\n");
    write_file(dir / "notes.txt", "not compiled\n");
    write_file(lab / "api.hpp", "void api();\n");
    write_file(lab / "skeleton" / "kernels.cu", "// the skeleton: not a header\n");
    step = {"/bin/sh", {"-I" + dir.string(), "-cuda", (dir / "kernels.cu").string()}, "kernels.cu"};
  }
  std::string key() const {
    return compile_check_key(step, dir, {"kernels.cu", "helpers.cuh", "scan.cu", "notes.txt"}, {lab});
  }
};

}  // namespace

TEST_CASE("compile check key: the same sources in two submissions' stages agree", "[build]") {
  ScratchDir scratch;
  const Stage a(scratch, "a"), b(scratch, "b");
  CHECK(a.key().size() == 64);
  CHECK(a.key() == b.key());
}

TEST_CASE("compile check key: what the checked file may include is part of it", "[build]") {
  ScratchDir scratch;
  Stage stage(scratch, "a");
  const std::string before = stage.key();
  SECTION("the checked file") { write_file(stage.dir / "kernels.cu", "__global__ void k2() {}\n"); }
  SECTION("a staged header") { write_file(stage.dir / "helpers.cuh", "int twice(int x);\n"); }
  SECTION("another staged file the checked one names") {
    write_file(stage.dir / "kernels.cu", "#include \"scan.cu\"\n");
    const std::string naming = stage.key();
    write_file(stage.dir / "scan.cu", "__global__ void s2() {}\n");
    CHECK(stage.key() != naming);
  }
  SECTION("a header of the lab's folder") { write_file(stage.lab / "api.hpp", "void api(int);\n"); }
  SECTION("the arguments") { stage.step.args.push_back("-DFAST"); }
  SECTION("the program") { stage.step.program = "/bin/bash"; }
  CHECK(stage.key() != before);
}

TEST_CASE("compile check key: files the checked one cannot include are not part of it", "[build]") {
  ScratchDir scratch;
  Stage stage(scratch, "a");
  const std::string before = stage.key();
  write_file(stage.dir / "scan.cu", "__global__ void other() {}\n");  // never named by kernels.cu
  write_file(stage.dir / "notes.txt", "changed\n");
  write_file(stage.lab / "skeleton" / "kernels.cu", "// another skeleton\n");
  CHECK(stage.key() == before);
}

TEST_CASE("compile check key: an unreadable checked file is an error, not a key", "[build]") {
  ScratchDir scratch;
  Stage stage(scratch, "a");
  fs::remove(stage.dir / "kernels.cu");
  CHECK_THROWS_AS(stage.key(), std::runtime_error);
}

TEST_CASE("compile check memo: a pass is remembered in its folder, no folder, no memory", "[build]") {
  ScratchDir scratch;
  const std::string key(64, 'a');
  const CompileCheckMemo memo(scratch / "work" / "compile-checks");
  CHECK_FALSE(memo.passed_before(key));
  memo.remember_passed(key);
  CHECK(memo.passed_before(key));
  CHECK_FALSE(memo.passed_before(std::string(64, 'b')));
  CHECK_FALSE(memo.passed_before(""));
  const CompileCheckMemo none{fs::path()};
  none.remember_passed(key);
  CHECK_FALSE(none.passed_before(key));
}
