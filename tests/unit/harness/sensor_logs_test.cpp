// The sensor_logs generator: determinism, parameter validation, and that each knob
// shapes the data as documented (checked with the lab01 reference parser).
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "api.hpp"
#include "parlab/datasets/generator.hpp"
#include "test_files.hpp"
#include "what_contains.hpp"

using parlab::ParamError;
using parlab::Params;
using parlab::test::read_text;
using parlab::test::TempDir;
using parlab::test::WhatContains;
namespace fs = std::filesystem;

namespace {

void generate(const Params& params, std::uint64_t seed, const fs::path& dir) {
  const auto* gen = parlab::datasets::find_generator("sensor_logs");
  REQUIRE(gen != nullptr);
  fs::create_directories(dir);
  gen->generate(params, seed, dir);
}

// file name -> contents, for whole-dataset comparisons.
std::map<std::string, std::string> contents(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    files[e.path().filename().string()] = read_text(e.path());
  }
  return files;
}

std::vector<lab01::FileStats> stats_of(const fs::path& dir) {
  std::vector<std::string> paths;
  for (const auto& [name, text] : contents(dir)) paths.push_back((dir / name).string());
  return lab01::process_serial(paths);
}

std::int64_t lines_after_header(const std::string& text) {
  return std::count(text.begin(), text.end(), '\n') - 1;
}

}  // namespace

TEST_CASE("sensor_logs: registered under its name", "[datasets]") {
  CHECK(parlab::datasets::find_generator("sensor_logs") != nullptr);
  CHECK(parlab::datasets::find_generator("no_such_generator") == nullptr);
  CHECK_FALSE(parlab::datasets::all_generators().empty());
}

TEST_CASE("sensor_logs: same seed gives identical bytes, another seed differs", "[datasets]") {
  TempDir dir;
  const Params p(std::map<std::string, std::string>{{"files", "4"},
                                                    {"rows", "2000"},
                                                    {"skew", "zipf"},
                                                    {"malformed_rate", "0.1"},
                                                    {"blank_rate", "0.05"},
                                                    {"order", "shuffled"}});
  generate(p, 7, dir / "a");
  generate(p, 7, dir / "b");
  generate(p, 8, dir / "c");
  const auto a = contents(dir / "a");
  CHECK(a.size() == 4);
  CHECK(a == contents(dir / "b"));
  CHECK(a != contents(dir / "c"));
}

TEST_CASE("sensor_logs: defaults make 16 files, header first, sorted names", "[datasets]") {
  TempDir dir;
  generate(Params(), 1, dir.path());
  const auto files = contents(dir.path());
  REQUIRE(files.size() == 16);
  CHECK(files.begin()->first == "log_000.csv");
  CHECK(files.rbegin()->first == "log_015.csv");
  std::int64_t rows = 0;
  for (const auto& [name, text] : files) {
    CHECK(text.rfind("timestamp,sensor,value\n", 0) == 0);
    rows += lines_after_header(text);
  }
  CHECK(rows == 100000);
}

TEST_CASE("sensor_logs: bad parameters are rejected, naming the key", "[datasets]") {
  TempDir dir;
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"files", "-1"},
      {"files", "many"},
      {"rows", "-5"},
      {"skew", "normal"},
      {"zipf_s", "-1"},
      {"sensors", "0"},
      {"malformed_rate", "1.5"},
      {"malformed_rate", "x"},
      {"blank_rate", "-0.1"},
      {"empty_files", "17"},
      {"order", "smallest_first"},
      {"colour", "blue"},
  };
  for (const auto& [key, value] : bad) {
    INFO(key << "=" << value);
    CHECK_THROWS_MATCHES(
        generate(Params(std::map<std::string, std::string>{{key, value}}), 1, dir / key),
        ParamError, WhatContains("'" + key + "'"));
  }
  // Rows with nowhere to go.
  CHECK_THROWS_MATCHES(
      generate(Params(std::map<std::string, std::string>{{"files", "0"}}), 1, dir / "none"),
      ParamError, WhatContains("'rows'"));
  CHECK_NOTHROW(generate(Params(std::map<std::string, std::string>{{"files", "0"}, {"rows", "0"}}),
                         1, dir / "zero"));
  CHECK(contents(dir / "zero").empty());
}

TEST_CASE("sensor_logs: one_giant puts about half of the rows in file 0", "[datasets]") {
  TempDir dir;
  generate(Params(std::map<std::string, std::string>{
               {"files", "8"}, {"rows", "10001"}, {"skew", "one_giant"}}),
           3, dir.path());
  const auto files = contents(dir.path());
  std::vector<std::int64_t> rows;
  for (const auto& [name, text] : files) rows.push_back(lines_after_header(text));
  CHECK(rows[0] >= 5001);  // half rounded up, plus at most one row of remainder each
  CHECK(rows[0] <= 5002);
  CHECK(*std::max_element(rows.begin() + 1, rows.end()) < rows[0]);
  std::int64_t total = 0;
  for (auto r : rows) total += r;
  CHECK(total == 10001);
}

TEST_CASE("sensor_logs: zipf sizes fall off, shuffled keeps the sizes", "[datasets]") {
  TempDir dir;
  Params p(std::map<std::string, std::string>{
      {"files", "10"}, {"rows", "5000"}, {"skew", "zipf"}, {"zipf_s", "1.2"}});
  generate(p, 5, dir / "sorted");
  p.set("order", "shuffled");
  generate(p, 5, dir / "shuffled");
  std::vector<std::int64_t> sorted, shuffled;
  for (const auto& [n, t] : contents(dir / "sorted")) sorted.push_back(lines_after_header(t));
  for (const auto& [n, t] : contents(dir / "shuffled")) shuffled.push_back(lines_after_header(t));
  CHECK(std::is_sorted(sorted.rbegin(), sorted.rend()));
  CHECK(sorted[0] > 3 * sorted[9]);
  CHECK(shuffled != sorted);
  std::sort(shuffled.rbegin(), shuffled.rend());
  CHECK(shuffled == sorted);
}

TEST_CASE("sensor_logs: empty_files are header-only and come last", "[datasets]") {
  TempDir dir;
  generate(Params(std::map<std::string, std::string>{
               {"files", "5"}, {"rows", "100"}, {"empty_files", "2"}}),
           9, dir.path());
  const auto files = contents(dir.path());
  CHECK(files.at("log_003.csv") == "timestamp,sensor,value\n");
  CHECK(files.at("log_004.csv") == "timestamp,sensor,value\n");
  CHECK(lines_after_header(files.at("log_000.csv")) == 34);
}

TEST_CASE("sensor_logs: malformed_rate makes that share of rows malformed", "[datasets]") {
  TempDir dir;
  generate(
      Params(std::map<std::string, std::string>{
          {"files", "3"}, {"rows", "30000"}, {"malformed_rate", "0.2"}, {"blank_rate", "0.1"}}),
      11, dir.path());
  std::int64_t rows = 0, malformed = 0;
  for (const auto& s : stats_of(dir.path())) {
    rows += s.rows;
    malformed += s.malformed;
  }
  CHECK(rows + malformed == 30000);  // blank lines are neither
  CHECK(malformed > 5400);
  CHECK(malformed < 6600);
  const auto text = contents(dir.path()).begin()->second;
  for (const char* kind : {"n/a", "nan", "inf", "C\n", ",ok\n", ",\n", "\n\n"}) {
    INFO(kind);
    CHECK(text.find(kind) != std::string::npos);
  }
}

TEST_CASE("sensor_logs: clean data has no malformed rows", "[datasets]") {
  TempDir dir;
  generate(Params(std::map<std::string, std::string>{
               {"files", "2"}, {"rows", "1000"}, {"sensors", "3"}}),
           2, dir.path());
  for (const auto& s : stats_of(dir.path())) {
    CHECK(s.malformed == 0);
    CHECK(s.rows == 500);
    CHECK(s.stddev > 0);
  }
}

TEST_CASE("sensor_logs: CRLF, padding and blank lines keep the clean file's values",
          "[datasets]") {
  TempDir dir;
  const std::map<std::string, std::string> clean = {
      {"files", "3"}, {"rows", "3000"}, {"malformed_rate", "0.05"}, {"blank_rate", "0.05"}};
  std::map<std::string, std::string> messy = clean;
  messy["crlf_rate"] = "0.5";
  messy["pad_rate"] = "0.3";
  generate(Params(clean), 5, dir / "clean");
  generate(Params(messy), 5, dir / "messy");
  const auto text = contents(dir / "messy").begin()->second;
  for (const char* mark : {"\r\n", " ,", "\t", "\n\n", "\n \n"}) {
    INFO(mark);
    CHECK(text.find(mark) != std::string::npos);
  }
  const auto a = stats_of(dir / "clean"), b = stats_of(dir / "messy");
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].rows == b[i].rows);
    CHECK(a[i].malformed == b[i].malformed);
    CHECK(a[i].mean == b[i].mean);
    CHECK(a[i].stddev == b[i].stddev);
  }
  CHECK(contents(dir / "clean") != contents(dir / "messy"));
}
