// grading/fault_line: the simulator's fault report carries a code offset written by the
// untrusted process; only a well-formed, plausible one is resolved, and only a frame
// in the submission's own sources is named.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "grading/fault_line.hpp"

namespace fs = std::filesystem;
using namespace parlab::grader;

namespace {

const std::string kReport =
    "parlab-sim: invalid memory read in kernel naive_no_bounds, block (1,1,0), thread (3,4,0):\n"
    "  out-of-bounds access: the address is 4 bytes past the end of a device allocation\n"
    "  (a GPU reports this as cudaErrorIllegalAddress: an illegal memory access was encountered)\n"
    "  at code offset 0x1a2b3 of the program\n";

}  // namespace

TEST_CASE("fault line: the code offset of the simulator's report is read", "[grading][fault_line]") {
  CHECK(reported_code_offset(kReport, 1 << 20) == std::optional<std::uint64_t>(0x1a2b3));
  // The student's own output before the report does not matter.
  CHECK(reported_code_offset("printed by the kernel\n" + kReport, 1 << 20) ==
        std::optional<std::uint64_t>(0x1a2b3));
}

TEST_CASE("fault line: hostile or implausible code offsets give no line", "[grading][fault_line]") {
  const auto with = [](const std::string& offset) {
    return "parlab-sim: invalid memory write in kernel k:\n  at code offset " + offset + " of the program\n";
  };
  CHECK_FALSE(reported_code_offset("", 1 << 20));
  CHECK_FALSE(reported_code_offset("segfault at code offset 0x10 of the program\n", 1 << 20));  // no report
  CHECK_FALSE(reported_code_offset(with("0x1a2b3"), 0x1a2b3));      // not inside the program
  CHECK_FALSE(reported_code_offset(with("0x0"), 1 << 20));          // no instruction there
  CHECK_FALSE(reported_code_offset(with("0x"), 1 << 20));           // no digits
  CHECK_FALSE(reported_code_offset(with("0x1A2B3"), 1 << 20));      // not the simulator's format
  CHECK_FALSE(reported_code_offset(with("0x-12"), 1 << 20));
  CHECK_FALSE(reported_code_offset(with("0x12345678901234567"), ~std::uint64_t{0}));  // 17 digits
  CHECK_FALSE(reported_code_offset(with("0x12zz"), 1 << 20));       // trailing garbage
  CHECK_FALSE(reported_code_offset("parlab-sim: x\n  at code offset 0x12", 1 << 20));  // cut short
  CHECK(reported_code_offset(with("0xfffffffffffffffe"), ~std::uint64_t{0}) ==
        std::optional<std::uint64_t>(0xfffffffffffffffe));  // 16 digits: accepted
  // Only the last report counts: an earlier one printed by the program is not it.
  CHECK_FALSE(reported_code_offset(kReport + "parlab-sim: invalid memory write in kernel k:\n", 1 << 20));
}

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
