// A submission's header may not take the place of one the grader provides
// (compile/provided_headers).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "compile/provided_headers.hpp"

using namespace parlab::grader;
namespace fs = std::filesystem;

namespace {

// A scratch include folder holding the given (empty) headers.
fs::path include_folder(const std::string& name, std::initializer_list<const char*> files) {
  const fs::path dir = fs::temp_directory_path() / ("parlab-provided-headers-" + name);
  fs::remove_all(dir);
  for (const char* f : files) {
    fs::create_directories((dir / f).parent_path());
    std::ofstream(dir / f) << "#pragma once\n";
  }
  return dir;
}

}  // namespace

TEST_CASE("a staged header named as the simulator's or the harness's is refused by name",
          "[compile][provided_headers]") {
  const fs::path sim = include_folder("sim", {"parlab_sim/prelude.hpp", "parlab_sim/runtime.hpp"});
  const fs::path compat = include_folder("compat", {"cuda_runtime.h", "cooperative_groups.h"});
  const fs::path harness = include_folder("harness", {"parlab/harness/gpu/cuda_check.hpp"});
  const std::vector<ProvidedHeaders> provided{
      {harness, "the lab harness"}, {compat, "the simulator"}, {sim, "the simulator"}};

  auto found = find_shadowing_file({"helpers.cuh", "parlab_sim/runtime.hpp"}, provided, "sim");
  REQUIRE(found);
  CHECK(found->staged == "parlab_sim/runtime.hpp");
  CHECK(found->message.find("the simulator provides a header of this name") != std::string::npos);

  found = find_shadowing_file({"cuda_runtime.h"}, provided, "sim");
  REQUIRE(found);
  CHECK(found->staged == "cuda_runtime.h");

  found = find_shadowing_file({"kernels/../parlab/harness/gpu/cuda_check.hpp"}, provided, "");
  REQUIRE(found);
  CHECK(found->message.find("the lab harness provides") != std::string::npos);
}

TEST_CASE("a student's own headers, in folders of any other name, are staged as before",
          "[compile][provided_headers]") {
  const fs::path sim = include_folder("sim-own", {"parlab_sim/math.hpp"});
  const std::vector<ProvidedHeaders> provided{{sim, "the simulator"}};
  // The same file name in another folder, and a new name in the simulator's folder name.
  CHECK_FALSE(find_shadowing_file({"math.hpp", "common/math.hpp", "parlab_sim/mine.hpp"},
                                  provided, "sim"));
  // A folder named as a header's folder is not a header.
  CHECK_FALSE(find_shadowing_file({"parlab_sim.hpp"}, provided, "sim"));
}

TEST_CASE("the folder the build writes is refused in a submission", "[compile][provided_headers]") {
  auto found = find_shadowing_file({"kernels.cu", "sim/cuda_runtime.h"}, {}, "sim");
  REQUIRE(found);
  CHECK(found->staged == "sim/cuda_runtime.h");
  CHECK(found->message.find("folder named 'sim/'") != std::string::npos);
  // A top-level file called like it is not the folder; without a reserved folder, nothing.
  CHECK_FALSE(find_shadowing_file({"sim.hpp"}, {}, "sim"));
  CHECK_FALSE(find_shadowing_file({"sim/helpers.h"}, {}, ""));
}
