// compile/compiled_views: which lines of the student's files each compiler kept, and the
// first line the simulator's view and a GPU's view disagree on.
#include "compile/compiled_views.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace parlab::grader;

namespace {

// A -fdirectives-only view of the student's lab.cu: line 1, a system header its line 2
// includes, back at line 3; `middle` stands where lines 3.. are.
std::string view_text(const std::string& middle) {
  return "# 0 \"/stage/sim/lab.cu.cpp\"\n"
         "PARLAB_SIM_SOURCE_ROOT(\"/stage/\")\n"
         "# 1 \"/stage/lab.cu\"\n"
         "namespace {\n"
         "# 1 \"/usr/include/stdio.h\" 1 3\n"
         "int printf(const char*, ...);\n"
         "# 3 \"/stage/lab.cu\" 2\n" +
         middle;
}

}  // namespace

TEST_CASE("kept lines: the student's non-blank code lines, by file, with marker numbering",
          "[compile][views]") {
  const KeptLines kept = kept_student_lines(
      view_text("__global__ void k() {\n"
                "\n"
                "  #pragma unroll\n"
                "  x = 1;\n"
                "# 12 \"/stage/lab.cu\"\n"
                "}\n"
                "# 1 \"/stage/common/../helpers.cuh\" 1\n"
                "int helper;\n"),
      "/stage/", "/stage/sim/");
  REQUIRE(kept.size() == 2);
  // Line 4 is blank; the #pragma counts (so would a #define: a macro defined another way
  // changes what the same code line does); the system header and the rewritten copy never.
  CHECK(kept.at("/stage/lab.cu") == std::set<int>{1, 3, 5, 6, 12});
  CHECK(kept.at("/stage/helpers.cuh") == std::set<int>{1});  // one name for one file
}

TEST_CASE("kept lines: a #line in a student's file keeps its lines the student's, also "
          "after an include", "[compile][views]") {
  const KeptLines kept = kept_student_lines(
      "# 1 \"/stage/lab.cu\"\n"
      "int a;\n"
      "# 100 \"/usr/include/stdio.h\"\n"  // #line 100 "/usr/include/stdio.h"
      "int hidden;\n"
      "# 1 \"/usr/include/stdlib.h\" 1 3\n"
      "int system;\n"
      "# 102 \"/usr/include/stdio.h\" 2\n"  // back in the student's file, under its #line name
      "int after;\n",
      "/stage/", "/stage/sim/");
  REQUIRE(kept.size() == 1);
  CHECK(kept.at("/stage/lab.cu") == std::set<int>{1, 100, 102});
}

TEST_CASE("first difference: the earliest line either view lacks, and which side has it",
          "[compile][views]") {
  const KeptLines sim = {{"/stage/a.cu", {1, 2, 5}}, {"/stage/b.cuh", {1}}};
  CHECK_FALSE(first_difference(sim, sim, "sm_90").has_value());

  const KeptLines gpu_more = {{"/stage/a.cu", {1, 2, 3, 5}}, {"/stage/b.cuh", {1}}};
  auto d = first_difference(sim, gpu_more, "nvcc for sm_90");
  REQUIRE(d.has_value());
  CHECK(d->file == "/stage/a.cu");
  CHECK(d->line == 3);
  CHECK_FALSE(d->only_in_sim);
  CHECK(d->gpu_view == "nvcc for sm_90");

  const KeptLines gpu_other = {{"/stage/a.cu", {1, 2, 5}}, {"/stage/b.cuh", {2}}};
  d = first_difference(sim, gpu_other, "host");
  REQUIRE(d.has_value());
  CHECK(d->file == "/stage/b.cuh");
  CHECK(d->line == 1);
  CHECK(d->only_in_sim);

  // A file only one view includes differs at its first line.
  const KeptLines gpu_extra = {{"/stage/a.cu", {1, 2, 5}}, {"/stage/b.cuh", {1}}, {"/stage/c.cuh", {4, 9}}};
  d = first_difference(sim, gpu_extra, "sm_75");
  REQUIRE(d.has_value());
  CHECK(d->file == "/stage/c.cuh");
  CHECK(d->line == 4);
}

TEST_CASE("compared views of a build: equal views pass, a differing or stopped GPU view is "
          "named", "[compile][views]") {
  const fs::path stage = fs::temp_directory_path() / ("parlab-views-" + std::to_string(::getpid())) / "src";
  fs::remove_all(stage.parent_path());
  fs::create_directories(stage / "sim");
  const auto write = [](const fs::path& p, const std::string& text) { std::ofstream(p) << text; };
  const auto lab_cu = [&](const std::string& body) {
    return "# 1 \"" + (stage / "lab.cu").string() + "\"\n" + body;
  };
  std::vector<CompiledView> views = {{"lab.cu", ViewKind::sim, "", {}},
                                     {"lab.cu", ViewKind::gpu_host, "", {}},
                                     {"lab.cu", ViewKind::gpu_device, "90", {}}};
  for (CompiledView& v : views) v.output = stage / "sim" / ("lab.cu.view-" + view_name(v) + ".ii");
  write(views[0].output, lab_cu("int a;\nint b;\n"));
  write(views[1].output, lab_cu("int a;\nint b;\n"));
  write(views[2].output, lab_cu("int a;\nint b;\n"));
  CHECK_FALSE(compare_compiled_views(views, "lab.cu", stage).has_value());
  CHECK_FALSE(compare_compiled_views(views, "other.cu", stage).has_value());  // no views planned

  // #ifdef __CUDA_ARCH__ around line 2: the GPU compiles another line than the simulator.
  write(views[2].output, lab_cu("int a;\n\nint c;\n"));
  auto d = compare_compiled_views(views, "lab.cu", stage);
  REQUIRE(d.has_value());
  CHECK(d->line == 2);
  CHECK(d->only_in_sim);
  CHECK(d->gpu_view == "nvcc for sm_90");
  CHECK(view_difference_feature(*d, "lab.cu") ==
        "code the simulator compiles and nvcc for sm_90 does not, at lab.cu:2");
  CHECK_THAT(view_difference_message(*d, "lab.cu"),
             Catch::Contains("lab.cu:2 is compiled by the simulator but not by nvcc for sm_90"));

  // A view that stopped (an #if read __CUDA_ARCH_LIST__): the place gcc's note names.
  write(views[2].output.string() + ".failed",
        "<command-line>: error: division by zero in #if\n" + (stage / "common/../lab.cu").string() +
            ":7:5: note: in expansion of macro '__CUDA_ARCH_LIST__'\n");
  d = compare_compiled_views(views, "lab.cu", stage);
  REQUIRE(d.has_value());
  CHECK(d->stopped == "an #if reads __CUDA_ARCH_LIST__");
  CHECK(d->file == (stage / "lab.cu").string());
  CHECK(d->line == 7);
  CHECK(view_difference_feature(*d, "lab.cu") == "code chosen by the GPU it is built for, at lab.cu:7");

  // A view the build should have made and did not is the grader's failure, never taken
  // as agreeing.
  fs::remove(views[2].output.string() + ".failed");
  fs::remove(views[1].output);
  CHECK_THROWS_WITH(compare_compiled_views(views, "lab.cu", stage), Catch::Contains("host view of lab.cu was not made"));
  fs::remove_all(stage.parent_path());
}
