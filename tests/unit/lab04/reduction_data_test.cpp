// lab04's dataset generator "reduction_data": determinism, the contents each parameter
// promises, and errors for bad parameters.
#include <algorithm>
#include <catch2/catch.hpp>
#include <climits>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "parlab/datasets/generator.hpp"
#include "parlab/harness/arrays.hpp"

namespace fs = std::filesystem;
using parlab::Params;
using parlab::harness::read_array;

namespace {

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("parlab_lab04_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

fs::path generate(const std::string& name, Params params, std::uint64_t seed) {
  const fs::path dir = fresh_dir(name);
  const auto* gen = parlab::datasets::find_generator("reduction_data");
  REQUIRE(gen != nullptr);
  gen->generate(params, seed, dir);
  return dir;
}

std::string bytes_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

Params params(std::initializer_list<std::pair<const std::string, std::string>> kv) {
  return Params(std::map<std::string, std::string>(kv));
}

}  // namespace

TEST_CASE("reduction_data: same seed gives the same bytes and another seed other values") {
  const Params p = params({{"n", "1000"}, {"bins", "17"}});
  const fs::path a = generate("det_a", p, 7);
  const fs::path b = generate("det_b", p, 7);
  const fs::path c = generate("det_c", p, 8);
  for (const char* file : {"ints.bin", "floats.bin", "keys.bin", "shape.bin"}) {
    CHECK(bytes_of(a / file) == bytes_of(b / file));
  }
  CHECK(bytes_of(a / "ints.bin") != bytes_of(c / "ints.bin"));
  CHECK(bytes_of(a / "floats.bin") != bytes_of(c / "floats.bin"));
  CHECK(bytes_of(a / "keys.bin") != bytes_of(c / "keys.bin"));
}

TEST_CASE("reduction_data: shape and lengths right and values never 0 nor the int poison -1") {
  const fs::path d = generate("shape", params({{"n", "4097"}, {"bins", "300"}}), 1);
  CHECK(read_array<std::int64_t>(d, "shape") == std::vector<std::int64_t>{4097, 300});
  const auto ints = read_array<std::int32_t>(d, "ints");
  const auto floats = read_array<float>(d, "floats");
  const auto keys = read_array<std::int32_t>(d, "keys");
  REQUIRE(ints.size() == 4097);
  REQUIRE(floats.size() == 4097);
  REQUIRE(keys.size() == 4097);
  CHECK(std::none_of(ints.begin(), ints.end(), [](int v) { return v == 0 || v == -1 || v == INT_MIN; }));
  CHECK(std::all_of(floats.begin(), floats.end(), [](float v) { return v >= 1.0f && v < 2.0f; }));
  CHECK(std::all_of(keys.begin(), keys.end(), [](int k) { return k >= 0 && k < 300; }));
  // Mixed ints really use both signs; uniform keys reach most bins.
  CHECK(std::any_of(ints.begin(), ints.end(), [](int v) { return v < 0; }));
  CHECK(std::any_of(ints.begin(), ints.end(), [](int v) { return v > 0; }));
  CHECK(std::set<int>(keys.begin(), keys.end()).size() > 250);
}

TEST_CASE("reduction_data: negative ints and the max placed last or first") {
  const fs::path d = generate(
      "neg", params({{"n", "999"}, {"ints", "negative"}, {"max_at", "last"}}), 3);
  const auto ints = read_array<std::int32_t>(d, "ints");
  CHECK(std::all_of(ints.begin(), ints.end(), [](int v) { return v <= -2; }));
  CHECK(ints.back() == *std::max_element(ints.begin(), ints.end()));
  const fs::path f = generate("first", params({{"n", "999"}, {"max_at", "first"}}), 3);
  const auto first = read_array<std::int32_t>(f, "ints");
  CHECK(first.front() == *std::max_element(first.begin(), first.end()));
}

TEST_CASE("reduction_data: float kinds") {
  const fs::path m = generate("mixed", params({{"n", "5000"}, {"floats", "mixed"}}), 4);
  const auto mixed = read_array<float>(m, "floats");
  CHECK(std::all_of(mixed.begin(), mixed.end(), [](float v) { return v >= -1 && v < 3 && v != 0; }));
  CHECK(std::any_of(mixed.begin(), mixed.end(), [](float v) { return v < 0; }));

  const fs::path s = generate("spikes", params({{"n", "131073"}, {"floats", "spikes"}}), 4);
  const auto spikes = read_array<float>(s, "floats");
  CHECK(spikes[0] == 67108864.0f);
  CHECK(spikes[65536] == 67108864.0f);
  CHECK(spikes[131072] == 67108864.0f);
  CHECK(spikes[1] < 2.0f);
  // What the spikes are for: one float accumulator loses the small values.
  float sequential = 0;
  double exact = 0;
  for (float v : spikes) {
    sequential += v;
    exact += v;
  }
  CHECK(std::abs(sequential - exact) / exact > 1e-4);
}

TEST_CASE("reduction_data: key kinds") {
  const fs::path s = generate("skewed", params({{"n", "20000"}, {"bins", "256"}, {"keys", "skewed"}}), 5);
  auto keys = read_array<std::int32_t>(s, "keys");
  std::vector<int> counts(256, 0);
  for (int k : keys) ++counts[static_cast<std::size_t>(k)];
  std::sort(counts.begin(), counts.end(), std::greater<>());
  const int hot = counts[0] + counts[1] + counts[2] + counts[3];
  CHECK(hot > 20000 * 3 / 4);  // 80% expected, plus a share of the uniform rest

  const fs::path one = generate("single", params({{"n", "300"}, {"bins", "9"}, {"keys", "single"}}), 5);
  keys = read_array<std::int32_t>(one, "keys");
  CHECK(std::all_of(keys.begin(), keys.end(), [&](int k) { return k == keys[0]; }));
  CHECK((keys[0] >= 0 && keys[0] < 9));

  const fs::path tiny = generate("tiny_bins", params({{"n", "100"}, {"bins", "1"}, {"keys", "skewed"}}), 5);
  keys = read_array<std::int32_t>(tiny, "keys");
  CHECK(std::all_of(keys.begin(), keys.end(), [](int k) { return k == 0; }));
}

TEST_CASE("reduction_data: only writes one array identical to the full dataset one") {
  const fs::path all = generate("all", params({{"n", "777"}}), 6);
  const fs::path keys_only = generate("only", params({{"n", "777"}, {"only", "keys"}}), 6);
  CHECK(fs::exists(keys_only / "keys.bin"));
  CHECK(fs::exists(keys_only / "shape.bin"));
  CHECK_FALSE(fs::exists(keys_only / "ints.bin"));
  CHECK_FALSE(fs::exists(keys_only / "floats.bin"));
  CHECK(bytes_of(all / "keys.bin") == bytes_of(keys_only / "keys.bin"));
}

TEST_CASE("reduction_data: bad parameters are rejected and named") {
  const auto* gen = parlab::datasets::find_generator("reduction_data");
  REQUIRE(gen != nullptr);
  const fs::path dir = fresh_dir("bad");
  auto fails_with = [&](Params p, const std::string& what) {
    try {
      gen->generate(p, 1, dir);
      FAIL("no error for " + what);
    } catch (const parlab::ParamError& e) {
      CHECK_THAT(e.what(), Catch::Contains(what));
    }
  };
  fails_with(params({{"size", "10"}}), "'size': unknown parameter");
  fails_with(params({{"n", "0"}}), "'n': must be in [1, 268435456]");
  fails_with(params({{"bins", "8193"}}), "'bins': must be in [1, 8192]");
  fails_with(params({{"ints", "huge"}}), "'ints': must be one of mixed, negative, positive");
  fails_with(params({{"keys", "zipf"}}), "'keys': must be one of");
  fails_with(params({{"n", "ten"}}), "n");
}
