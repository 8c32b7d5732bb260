// The arithmetic of tests/limits/check_dataset_limits: element counts from parameters,
// bytes per writer, and the table's errors.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "output_model.hpp"

using parlab::Params;
using namespace parlab::limits;
using Values = std::map<std::string, std::string>;

TEST_CASE("an element count multiplies the test's and the dataset's parameters") {
  const Params test(Values{{"k", "9"}});
  const Params dataset(Values{{"rows", "4099"}, {"cols", "8191"}, {"k", "3"}});
  CHECK(count_elements("rows * cols", test, dataset) == 4099ull * 8191ull);
  CHECK(count_elements("1", test, dataset) == 1);
  CHECK(count_elements("k", test, dataset) == 9);  // the test's parameter comes first
  CHECK(count_elements("2*rows", test, dataset) == 8198);
}

TEST_CASE("an element count names the parameter it cannot use") {
  const Params dataset(Values{{"n", "x12"}});
  CHECK_THROWS_WITH(count_elements("bins", Params{}, dataset), Catch::Contains("parameter 'bins'"));
  CHECK_THROWS_WITH(count_elements("n", Params{}, dataset), Catch::Contains("not a non-negative integer"));
  CHECK_THROWS_WITH(count_elements("n * ", Params(Values{{"n", "2"}}), Params{}), Catch::Contains("empty factor"));
}

TEST_CASE("the expected outputs and the graded program write different element sizes") {
  const std::vector<ArrayModel> arrays = {{"c", "n", 8, 4}};
  const Params dataset(Values{{"n", "33554435"}});
  CHECK(output_bytes(arrays, Writer::expected, Params{}, dataset)[0].bytes == 268435480ull);
  CHECK(output_bytes(arrays, Writer::program, Params{}, dataset)[0].bytes == 134217740ull);
}

TEST_CASE("the output table is read and its element sizes checked") {
  const auto dir = std::filesystem::temp_directory_path() / "parlab_limits_model_test";
  std::filesystem::create_directories(dir);
  {
    std::ofstream(dir / "good.toml") << "[lab03.heat_solve]\n"
                                        "iterations = { elements = \"1\", expected = 8, program = 8 }\n"
                                        "grid = { elements = \"nx * ny\", expected = 8, program = 4 }\n";
    std::ofstream(dir / "bad.toml") << "[lab03.vector_add]\nc = { elements = \"n\", expected = 3, program = 4 }\n";
  }
  const OutputModel m = load_output_model(dir / "good.toml");
  REQUIRE(m.at("lab03").at("heat_solve").size() == 2);
  CHECK_THROWS_WITH(load_output_model(dir / "bad.toml"),
                    Catch::Contains("lab03.vector_add.c: 'expected' must be 1, 2, 4 or 8"));
  std::filesystem::remove_all(dir);
}
