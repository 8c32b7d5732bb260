// grading/fault_line: the simulator's stop record carries a code offset
// (grading/simulator_stop); only a frame in the submission's own sources is named.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "grading/fault_line.hpp"

namespace fs = std::filesystem;
using namespace parlab::grader;

TEST_CASE("fault line: the innermost frame in the submission's sources is named", "[grading][fault_line]") {
  const std::string stage = "/work/sub/build/sim/src";
  SECTION("a line addr2line gives to the rewritten copy is the original's, where it has it") {
    const fs::path staged = fs::temp_directory_path() / ("fault-line-test-" + std::to_string(::getpid()));
    fs::create_directories(staged / "sim");
    std::ofstream(staged / "matmul.cu") << "line 1\nline 2\nline 3\n";
    const std::string copy = (staged / "sim" / "matmul.cu.cpp").string();
    CHECK(student_place(copy + ":3 (discriminator 3)\n", staged) == "matmul.cu:3");
    CHECK(student_place(copy + ":4\n", staged).empty());  // no such line: g++ astray
    CHECK(student_place((staged / "sim" / "other.cu.cpp").string() + ":1\n", staged).empty());
    CHECK(student_place((staged / "sim" / "helpers.cuh").string() + ":1\n", staged).empty());
    fs::remove_all(staged);
  }
  SECTION("a simulator header inlined into the kernel is skipped") {
    const std::string out = "/usr/include/parlab_sim/atomics.hpp:88\n" + stage + "/matmul.cu:10 (discriminator 2)\n" +
                            stage + "/matmul.cu:18\n/repo/sim/include/parlab_sim/launch.hpp:40\n";
    CHECK(student_place(out, stage) == "matmul.cu:10");
  }
  SECTION("a header in a sub-folder keeps its folder") {
    CHECK(student_place(stage + "/common/helpers.cuh:7\n", stage) == "common/helpers.cuh:7");
  }
  SECTION("no line information, the standard library, the generated copies: nothing") {
    CHECK(student_place("??:0\n", stage).empty());
    CHECK(student_place("??:?\n", stage).empty());
    CHECK(student_place("/usr/include/c++/12/bits/stl_algo.h:99\n", stage).empty());
    CHECK(student_place(stage + "/sim/matmul.cu.cpp:4000\n", stage).empty());  // no such file here
    CHECK(student_place(stage + "/matmul.cu:0\n", stage).empty());
    CHECK(student_place(stage + "/../../../etc/passwd:1\n", stage).empty());
    CHECK(student_place("/work/sub/build/sim/srcx/a.cu:3\n", stage).empty());
    CHECK(student_place(stage + "/matmul.cu:12345678901\n", stage).empty());
  }
}

TEST_CASE("fault line: the place goes into the test's message", "[grading][fault_line]") {
  CHECK(with_fault_place("invalid device memory access in a kernel: out of bounds", "matmul.cu:10") ==
        "invalid device memory access in a kernel at matmul.cu:10: out of bounds");
  CHECK(with_fault_place("crashed with SIGSEGV (segmentation fault)", "main.cu:30") ==
        "crashed with SIGSEGV (at main.cu:30) (segmentation fault)");
  CHECK(with_fault_place("exited with status 3", "main.cu:30") == "exited with status 3 (at main.cu:30)");
  CHECK(with_fault_place("host code read device memory: a device pointer (x)", "kernels.cu:42") ==
        "host code read device memory at kernels.cu:42: a device pointer (x)");
  CHECK(with_fault_place("invalid device memory access in a kernel: x", "") ==
        "invalid device memory access in a kernel: x");
}
