// What GPU-lab drivers rely on in the harness: typed reads of dataset arrays, samples
// and phases recorded by the driver itself (CUDA events), the declared work for the
// roofline, and extra tasks registered by a reference's variants.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "parlab/harness/arrays.hpp"
#include "parlab/harness/driver.hpp"
#include "test_files.hpp"

using namespace parlab::harness;
using parlab::test::read_text;
using parlab::test::TempDir;

namespace {

int call_driver(std::vector<std::string> args, std::span<const Task> tasks) {
  args.insert(args.begin(), "lab_test");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  return run_driver(static_cast<int>(argv.size()), argv.data(), tasks);
}

const Task kGpuLikeTasks[] = {
    {"self_timed", "records its own samples and phases",
     [](TaskContext& ctx) {
       for (int i = 0; i < ctx.repeat(); ++i) ctx.add_sample(0.001 * (i + 1));
       ctx.add_phase("host_to_device", 0.25);
       ctx.add_phase("host_to_device", 0.5);
       ctx.set_work(3.0e6, 1.0e6);
       ctx.set_sample_label("round_trip");
       const std::vector<float> v = {1.5f};
       ctx.out().write("v", std::span<const float>(v));
     }},
};

// Registered the way a reference's variants.cu does it.
const bool kExtraRegistered = register_extra_task(
    {"extra_variant", "a reference-only variant", [](TaskContext& ctx) {
       const std::vector<std::int32_t> v = {7};
       ctx.add_sample(0.0);
       ctx.out().write("v", std::span<const std::int32_t>(v));
     }});

}  // namespace

TEST_CASE("read_array returns a dataset array with its own type, or says what is wrong",
          "[arrays]") {
  TempDir dir;
  OutputWriter w(dir.path());
  const std::vector<float> a = {1.25f, -3.5f, 1e-30f};
  const std::vector<std::int64_t> shape = {3, 1};
  w.write("a", std::span<const float>(a));
  w.write("shape", std::span<const std::int64_t>(shape));
  w.finish();
  CHECK(read_array<float>(dir.path(), "a") == a);
  CHECK(read_array<std::int64_t>(dir.path(), "shape") == shape);
  CHECK_THROWS_WITH(read_array<double>(dir.path(), "a"),
                    Catch::Contains("array 'a'") && Catch::Contains("is f32, expected f64"));
  CHECK_THROWS_WITH(read_array<float>(dir.path(), "b"), Catch::Contains("array 'b' not found"));
}

TEST_CASE("driver: self-timed samples, phases and declared work reach timings.json",
          "[driver]") {
  TempDir dir;
  const auto out = dir / "out";
  REQUIRE(call_driver({"--task", "self_timed", "--dataset", dir.path().string(), "--out",
                       out.string(), "--repeat", "3"},
                      kGpuLikeTasks) == 0);
  const auto timings = nlohmann::json::parse(read_text(out / "timings.json"));
  CHECK(timings["samples_s"] == nlohmann::json({0.001, 0.002, 0.003}));
  CHECK(timings["phases_s"]["host_to_device"] == nlohmann::json({0.25, 0.5}));
  CHECK(timings["work"]["bytes"] == 3.0e6);
  CHECK(timings["work"]["flops"] == 1.0e6);
  CHECK(timings["sample_label"] == "round_trip");
}

TEST_CASE("driver: an extra registered task runs and is listed", "[driver]") {
  REQUIRE(kExtraRegistered);
  TempDir dir;
  const auto out = dir / "out";
  REQUIRE(call_driver({"--task", "extra_variant", "--dataset", dir.path().string(), "--out",
                       out.string()},
                      kGpuLikeTasks) == 0);
  CHECK(read_outputs(out).at(0).values == std::vector<double>{7});
  // Unknown task names list the extras too.
  CHECK(call_driver({"--task", "nope", "--dataset", dir.path().string(), "--out", out.string()},
                    kGpuLikeTasks) == 2);
}

TEST_CASE("driver: an extra task may not take a driver task's name", "[driver]") {
  const Task clash[] = {{"extra_variant", "same name as the registered extra",
                         [](TaskContext&) {}}};
  TempDir dir;
  CHECK(call_driver({"--task", "extra_variant", "--dataset", dir.path().string(), "--out",
                     (dir / "out").string()},
                    clash) == 2);
}

TEST_CASE("TaskContext::timed takes work that returns nothing", "[driver]") {
  TempDir dir;
  OutputWriter out(dir.path());
  TaskContext ctx(dir.path(), {}, out, 1, 2);
  int calls = 0;
  ctx.timed([&] { ++calls; });
  CHECK(calls == 3);
  CHECK(ctx.samples().size() == 2);
}
