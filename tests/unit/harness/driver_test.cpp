// run_driver: command-line handling, exit codes, and the files a run leaves behind.
#include "parlab/harness/driver.hpp"

#include <catch2/catch.hpp>
#include <new>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

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

nlohmann::json read_json(const std::filesystem::path& file) {
  return nlohmann::json::parse(read_text(file));
}

int g_calls = 0;

const Task kTasks[] = {
    {"ok", "writes one array",
     [](TaskContext& ctx) {
       const std::vector<double> v = ctx.timed([&] {
         ++g_calls;
         return std::vector<double>{ctx.params().get_double("x", 1.0)};
       });
       ctx.out().write("v", std::span<const double>(v));
     }},
    {"throws", "fails", [](TaskContext&) { throw std::runtime_error("student bug here"); }},
    {"oom", "runs out of memory", [](TaskContext&) { throw std::bad_alloc(); }},
    {"odd", "throws a non-std exception", [](TaskContext&) { throw 42; }},
};

}  // namespace

TEST_CASE("driver: a successful task leaves outputs, timings and status ok", "[driver]") {
  TempDir dir;
  g_calls = 0;
  const auto out = dir / "out/nested";
  REQUIRE(call_driver({"--task", "ok", "--dataset", dir.path().string(), "--out", out.string(),
                       "--warmup", "2", "--repeat", "3", "--param", "x=2.5"},
                      kTasks) == 0);
  CHECK(g_calls == 5);
  CHECK(read_json(out / "status.json")["status"] == "ok");
  const auto timings = read_json(out / "timings.json");
  CHECK(timings["format"] == "parlab-timings");
  CHECK(timings["warmup"] == 2);
  CHECK(timings["samples_s"].size() == 3);
  const auto arrays = read_outputs(out);
  REQUIRE(arrays.size() == 1);
  CHECK(arrays[0].values == std::vector<double>{2.5});
}

TEST_CASE("driver: --opt=value works like --opt value", "[driver]") {
  TempDir dir;
  const auto out = dir / "out";
  REQUIRE(call_driver({"--task=ok", "--dataset=" + dir.path().string(), "--out=" + out.string(),
                       "--param=x=4"},
                      kTasks) == 0);
  CHECK(read_outputs(out)[0].values == std::vector<double>{4});
}

TEST_CASE("driver: a task error is exit 1 with the message in status.json", "[driver]") {
  TempDir dir;
  const auto out = dir / "out";
  CHECK(call_driver({"--task", "throws", "--dataset", dir.path().string(), "--out", out.string()},
                    kTasks) == 1);
  const auto status = read_json(out / "status.json");
  CHECK(status["status"] == "error");
  CHECK(status["message"] == "student bug here");
  CHECK_FALSE(std::filesystem::exists(out / "timings.json"));

  CHECK(call_driver({"--task", "odd", "--dataset", dir.path().string(), "--out", out.string()},
                    kTasks) == 1);
  CHECK(read_json(out / "status.json")["status"] == "error");
}

TEST_CASE("driver: std::bad_alloc is exit 86, status out_of_memory", "[driver]") {
  TempDir dir;
  const auto out = dir / "out";
  CHECK(call_driver({"--task", "oom", "--dataset", dir.path().string(), "--out", out.string()},
                    kTasks) == kExitOutOfMemory);
  const auto status = read_json(out / "status.json");
  CHECK(status["status"] == "out_of_memory");
  CHECK_FALSE(status["message"].get<std::string>().empty());
}

TEST_CASE("driver: a bad parameter value fails the task, naming the key", "[driver]") {
  TempDir dir;
  const auto out = dir / "out";
  CHECK(call_driver({"--task", "ok", "--dataset", dir.path().string(), "--out", out.string(),
                     "--param", "x=lots"},
                    kTasks) == 1);
  CHECK_THAT(read_json(out / "status.json")["message"].get<std::string>(),
             Catch::Matchers::Contains("'x'"));
}

TEST_CASE("driver: usage errors are exit 2", "[driver]") {
  TempDir dir;
  const std::string d = dir.path().string();
  const std::string o = (dir / "out").string();
  CHECK(call_driver({}, kTasks) == 2);
  CHECK(call_driver({"--task", "nope", "--dataset", d, "--out", o}, kTasks) == 2);
  CHECK(call_driver({"--task", "ok", "--out", o}, kTasks) == 2);
  CHECK(call_driver({"--task", "ok", "--dataset", d}, kTasks) == 2);
  CHECK(call_driver({"--task", "ok", "--dataset", d + "/missing", "--out", o}, kTasks) == 2);
  CHECK(call_driver({"--task", "ok", "--dataset", d, "--out", o, "--repeat", "0"}, kTasks) == 2);
  CHECK(call_driver({"--task", "ok", "--dataset", d, "--out", o, "--warmup", "-1"}, kTasks) == 2);
  CHECK(call_driver({"--task", "ok", "--dataset", d, "--out", o, "--param", "novalue"}, kTasks) ==
        2);
  CHECK(call_driver({"--task", "ok", "--dataset", d, "--out", o, "--bogus", "1"}, kTasks) == 2);
  CHECK(call_driver({"--task", "ok", "--dataset", d, "--out"}, kTasks) == 2);
  CHECK_FALSE(std::filesystem::exists(dir / "out"));
}

TEST_CASE("driver: --list-tasks prints the table and exits 0", "[driver]") {
  CHECK(call_driver({"--list-tasks"}, kTasks) == 0);
}
