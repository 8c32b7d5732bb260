// The drivers' dataset readers: a shape out of its rules, or an array of the wrong
// length, is refused with a "dataset:" message naming what is off.
#include <catch2/catch.hpp>

#include <cstdint>
#include <span>
#include <vector>

#include "parlab/harness/arrays.hpp"
#include "parlab/harness/dataset_inputs.hpp"
#include "test_files.hpp"

namespace h = parlab::harness;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

void write_dataset(const std::filesystem::path& dir, std::vector<std::int64_t> shape,
                   std::vector<float> values) {
  h::OutputWriter w(dir);
  w.write("shape", std::span<const std::int64_t>(shape));
  w.write("a", std::span<const float>(values));
  w.finish();
}

}  // namespace

TEST_CASE("read_shape returns a shape within its rules", "[harness]") {
  parlab::test::TempDir dir;
  write_dataset(dir.path(), {3, 2}, {1, 2, 3, 4, 5, 6});
  CHECK(h::read_shape(dir.path(), {{"rows"}, {"cols", 1, 2}}, "kernel_inputs") ==
        std::vector<std::int64_t>{3, 2});
  CHECK(h::read_array_of<float>(dir.path(), "a", 6, "rows * cols").size() == 6);
}

TEST_CASE("read_shape refuses the wrong number of entries, naming them and the generator",
          "[harness]") {
  parlab::test::TempDir dir;
  write_dataset(dir.path(), {3, 2}, {});
  CHECK_THROWS_WITH(h::read_shape(dir.path(), {{"n"}}, "kernel_inputs"),
                    StartsWith("dataset: 'shape' must be [n] with 1 <= n <= 2147483647, got "
                               "[3, 2] (was the dataset made by kernel_inputs?)"));
}

TEST_CASE("read_shape refuses a value outside its range", "[harness]") {
  parlab::test::TempDir dir;
  write_dataset(dir.path(), {100, 9000}, {});
  CHECK_THROWS_AS(h::read_shape(dir.path(), {{"n"}, {"bins", 1, 8192}}, "reduction_data"),
                  h::DatasetError);
  CHECK_THROWS_WITH(h::read_shape(dir.path(), {{"n"}, {"bins", 1, 8192}}, "reduction_data"),
                    Contains("1 <= bins <= 8192, got [100, 9000]"));
  write_dataset(dir.path(), {0, 5}, {});
  CHECK_THROWS_WITH(h::read_shape(dir.path(), {{"n"}, {"bins", 1, 8192}}, "reduction_data"),
                    Contains("got [0, 5]"));
}

TEST_CASE("read_array_of refuses an array whose length the shape does not give",
          "[harness]") {
  parlab::test::TempDir dir;
  write_dataset(dir.path(), {4}, {1, 2, 3});
  CHECK_THROWS_WITH(h::read_array_of<float>(dir.path(), "a", 4, "n"),
                    Contains("dataset: 'a' has 3 elements, expected 4 (n)"));
  CHECK_THROWS_WITH(h::read_scalar<float>(dir.path(), "a"),
                    Contains("'a' has 3 elements, expected 1 (a scalar)"));
}
