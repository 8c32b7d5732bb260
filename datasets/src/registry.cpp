// The table of dataset generators, looked up by the name used in lab.toml.
#include "generators.hpp"
#include "parlab/datasets/generator.hpp"

namespace parlab::datasets {

std::vector<Generator> all_generators() {
  return {
      {"sensor_logs",
       "CSV files of timestamp,sensor,value rows with skewed sizes, malformed rows and "
       "empty files (lab01)",
       &generate_sensor_logs},
  };
}

const Generator* find_generator(std::string_view name) {
  static const std::vector<Generator> table = all_generators();
  for (const Generator& g : table) {
    if (g.name == name) return &g;
  }
  return nullptr;
}

}  // namespace parlab::datasets
