// A source's compiled views are skipped only where the same views of the same inputs
// agreed before: the key reads every view step of the source and every file of the
// simulator's include folders (extensionless ones too); other sources, other view steps
// and the simulator's headers each change it; a memo without a folder remembers nothing.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "compile/compiled_views_memo.hpp"
#include "scratch_dir.hpp"
#include "write_file.hpp"

namespace fs = std::filesystem;
using namespace parlab::grader;
using parlab::testing::ScratchDir;
using parlab::testing::write_file;

namespace {

// A stage with two sources, the lab's folder, the simulator's headers, and a plan whose
// view steps are a sim view and a GPU view for each source, beside a compile.
struct ViewsStage {
  fs::path dir, lab, sim;
  CompilePlan plan;
  std::vector<std::string> staged{"kernels.cu", "scan.cu", "helpers.cuh"};

  ViewsStage(const ScratchDir& scratch, const std::string& name)
      : dir(scratch / name), lab(scratch / "lab"), sim(scratch / "sim-include") {
    write_file(dir / "kernels.cu", "#include \"helpers.cuh\"\n__global__ void k() {}\n");
    write_file(dir / "scan.cu", "__global__ void s() {}\n");
    write_file(dir / "helpers.cuh", "__device__ int twice(int x) { return 2 * x; }\n");
    write_file(lab / "api.hpp", "void api();\n");
    write_file(sim / "cuda_runtime.h", "#define PARLAB_SIM 1\n");
    write_file(sim / "cuda" / "barrier", "// no extension, as libcu++'s headers\n");
    for (const std::string src : {"kernels.cu", "scan.cu"}) {
      plan.steps.push_back({"/bin/sh", {"-E", "-fdirectives-only", (dir / src).string()}, "", src});
      plan.steps.push_back({"/bin/bash", {"-c", "views", (dir / src).string(), "-D__CUDA_ARCH__=900"}, "", src});
    }
    plan.steps.push_back({"/bin/sh", {"-c", (dir / "kernels.cu").string()}});  // not a view
  }
  CompiledViewsMemo memo(const fs::path& folder) const { return {folder, plan, dir, staged, {lab}, {sim}}; }
};

}  // namespace

TEST_CASE("compiled views memo: an agreement is kept per source, in its folder", "[build]") {
  ScratchDir scratch;
  const ViewsStage a(scratch, "a");
  const fs::path folder = scratch / "work" / "compile-checks" / "views";
  const CompiledViewsMemo first = a.memo(folder);
  CHECK_FALSE(first.agreed_before("kernels.cu"));
  first.remember_agreed("kernels.cu");
  CHECK(first.agreed_before("kernels.cu"));
  CHECK_FALSE(first.agreed_before("scan.cu"));
  CHECK_FALSE(first.agreed_before("helpers.cuh"));  // no view step of its own
  // Another submission's stage with the same files: the same keys.
  const ViewsStage b(scratch, "b");
  CHECK(b.memo(folder).agreed_before("kernels.cu"));
  // No folder: nothing kept, nothing found.
  const CompiledViewsMemo none = a.memo(fs::path());
  none.remember_agreed("scan.cu");
  CHECK_FALSE(none.agreed_before("scan.cu"));
  CHECK_FALSE(none.agreed_before("kernels.cu"));
}

TEST_CASE("compiled views memo: any input of a source's views is part of its key", "[build]") {
  ScratchDir scratch;
  ViewsStage stage(scratch, "a");
  const fs::path folder = scratch / "memo";
  stage.memo(folder).remember_agreed("kernels.cu");
  REQUIRE(stage.memo(folder).agreed_before("kernels.cu"));
  SECTION("the source") { write_file(stage.dir / "kernels.cu", "__global__ void k2() {}\n"); }
  SECTION("a staged header") { write_file(stage.dir / "helpers.cuh", "int twice(int);\n"); }
  SECTION("a header of the lab") { write_file(stage.lab / "api.hpp", "void api(int);\n"); }
  SECTION("a simulator header") { write_file(stage.sim / "cuda_runtime.h", "#define PARLAB_SIM 2\n"); }
  SECTION("a simulator header without an extension") { write_file(stage.sim / "cuda" / "barrier", "//\n"); }
  SECTION("a new simulator file") { write_file(stage.sim / "cuda" / "pipeline", "//\n"); }
  SECTION("a GPU view's architecture") { stage.plan.steps[1].args.back() = "-D__CUDA_ARCH__=800"; }
  SECTION("a view step more") { stage.plan.steps.push_back({"/bin/sh", {"-E", "sm_75"}, "", "kernels.cu"}); }
  CHECK_FALSE(stage.memo(folder).agreed_before("kernels.cu"));
}

TEST_CASE("compiled views memo: another source's change and a non-view step leave a key alone", "[build]") {
  ScratchDir scratch;
  ViewsStage stage(scratch, "a");
  const fs::path folder = scratch / "memo";
  stage.memo(folder).remember_agreed("kernels.cu");
  write_file(stage.dir / "scan.cu", "__global__ void s2() {}\n");  // kernels.cu does not name it
  stage.plan.steps.back().args.push_back("-O3");                     // the compile, not a view
  CHECK(stage.memo(folder).agreed_before("kernels.cu"));
  CHECK_FALSE(stage.memo(folder).agreed_before("scan.cu"));
}

TEST_CASE("compiled views memo: a source whose inputs cannot be read is always viewed", "[build]") {
  ScratchDir scratch;
  ViewsStage stage(scratch, "a");
  const fs::path folder = scratch / "memo";
  stage.memo(folder).remember_agreed("kernels.cu");
  fs::remove(stage.dir / "kernels.cu");
  const CompiledViewsMemo unreadable = stage.memo(folder);
  CHECK_FALSE(unreadable.agreed_before("kernels.cu"));
  unreadable.remember_agreed("kernels.cu");  // no key: nothing kept
  CHECK_FALSE(unreadable.agreed_before("kernels.cu"));
}
