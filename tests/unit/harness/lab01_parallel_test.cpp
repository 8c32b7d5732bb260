// The lab01 reference process_parallel: the same results as process_serial for every
// schedule and worker count, and clear failures when a worker fails or dies.
#include <catch2/catch.hpp>
#include <csignal>
#include <cstdio>
#include <map>
#include <new>
#include <string>
#include <vector>

#include "../../../reference/lab01-multiprocessing/worker_processes.hpp"
#include "api.hpp"
#include "parlab/datasets/generator.hpp"
#include "test_files.hpp"
#include "what_contains.hpp"

using lab01::FileStats;
using lab01::Schedule;
using parlab::test::TempDir;
using parlab::test::WhatContains;

namespace {

std::vector<std::string> make_dataset(const TempDir& dir, int files) {
  parlab::Params p(std::map<std::string, std::string>{{"files", std::to_string(files)},
                                                      {"rows", files == 0 ? "0" : "3000"},
                                                      {"skew", "zipf"},
                                                      {"malformed_rate", "0.05"},
                                                      {"empty_files", files > 2 ? "1" : "0"}});
  parlab::datasets::find_generator("sensor_logs")->generate(p, 21, dir.path());
  std::vector<std::string> paths;
  for (int i = 0; i < files; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "log_%03d.csv", i);
    paths.push_back((dir / name).string());
  }
  return paths;
}

void check_same(const std::vector<FileStats>& got, const std::vector<FileStats>& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("file " << i);
    CHECK(got[i].file == want[i].file);
    CHECK(got[i].rows == want[i].rows);
    CHECK(got[i].malformed == want[i].malformed);
    CHECK(got[i].min == want[i].min);
    CHECK(got[i].max == want[i].max);
    CHECK(got[i].mean == want[i].mean);
    CHECK(got[i].stddev == want[i].stddev);
  }
}

}  // namespace

TEST_CASE("lab01 reference: process_parallel equals process_serial", "[lab01]") {
  for (int files : {0, 1, 3, 7}) {
    TempDir dir;
    const auto paths = make_dataset(dir, files);
    const auto serial = lab01::process_serial(paths);
    for (Schedule schedule : {Schedule::static_blocks, Schedule::dynamic_queue}) {
      for (int workers : {1, 2, 3, 4, 9}) {
        INFO(files << " files, " << workers << " workers, schedule "
                   << (schedule == Schedule::static_blocks ? "static" : "dynamic"));
        check_same(lab01::process_parallel(paths, workers, schedule), serial);
      }
    }
  }
}

TEST_CASE("lab01 reference: a file error in a worker reaches the caller", "[lab01]") {
  TempDir dir;
  auto paths = make_dataset(dir, 3);
  paths.push_back((dir / "missing.csv").string());
  for (Schedule schedule : {Schedule::static_blocks, Schedule::dynamic_queue}) {
    CHECK_THROWS_MATCHES(lab01::process_parallel(paths, 2, schedule), std::runtime_error,
                         WhatContains("missing.csv"));
  }
}

TEST_CASE("lab01 reference: workers < 1 is rejected", "[lab01]") {
  CHECK_THROWS_AS(lab01::process_parallel({"a.csv"}, 0, Schedule::dynamic_queue),
                  std::invalid_argument);
}

TEST_CASE("worker processes: a dying worker is reported with its signal", "[lab01]") {
  using namespace lab01::reference;
  for (Distribution d : {Distribution::contiguous_blocks, Distribution::shared_queue}) {
    auto compute = [](std::size_t i) -> FileStats {
      if (i == 2) std::raise(SIGKILL);  // not SIGABRT: Catch2 would report that
      FileStats s;
      s.rows = static_cast<std::int64_t>(i);
      return s;
    };
    CHECK_THROWS_MATCHES(run_in_worker_processes(5, 2, d, compute), std::runtime_error,
                         WhatContains("killed by signal " + std::to_string(SIGKILL)));
  }
}

TEST_CASE("worker processes: results come back by index, out of memory stays so", "[lab01]") {
  using namespace lab01::reference;
  auto square = [](std::size_t i) {
    FileStats s;
    s.rows = static_cast<std::int64_t>(i * i);
    s.mean = 0.5 * static_cast<double>(i);
    return s;
  };
  const auto results = run_in_worker_processes(100, 3, Distribution::shared_queue, square);
  REQUIRE(results.size() == 100);
  for (std::size_t i = 0; i < 100; ++i) {
    CHECK(results[i].rows == static_cast<std::int64_t>(i * i));
    CHECK(results[i].mean == 0.5 * static_cast<double>(i));
  }
  auto no_memory = [](std::size_t) -> FileStats { throw std::bad_alloc(); };
  CHECK_THROWS_AS(run_in_worker_processes(3, 2, Distribution::contiguous_blocks, no_memory),
                  std::bad_alloc);
}
