// The table of dataset generators, looked up by the name used in lab.toml.
#include "generators.hpp"
#include "parlab/datasets/generator.hpp"
#include "parlab/datasets/sources_hash.hpp"  // generated at build time

namespace parlab::datasets {

std::vector<Generator> all_generators() {
  return {
      {"matmul_pair", "matrices A (MxK) and B (KxN), non-zero values, shape [M,N,K] (lab05)",
       &generate_matmul_pair},
      {"sensor_logs",
       "CSV files of timestamp,sensor,value rows with skewed sizes, malformed rows and "
       "empty files (lab01)",
       &generate_sensor_logs},
      {"kernel_inputs",
       "float vectors, non-square matrices and heat-diffusion grids with a tolerance "
       "chosen for a robust stopping step (lab03)",
       &generate_kernel_inputs},
      {"reduction_data",
       "int values, float values and histogram keys of one length, with skewed and "
       "adversarial variants (lab04)",
       &generate_reduction_data},
      {"regression_data",
       "train and query points of a noisy linear model, f32 arrays with optional CSV "
       "copies, shape [n,m,d] (lab02)",
       &generate_regression_data},
  };
}

const Generator* find_generator(std::string_view name) {
  static const std::vector<Generator> table = all_generators();
  for (const Generator& g : table) {
    if (g.name == name) return &g;
  }
  return nullptr;
}

std::string_view generator_sources_hash() { return kGeneratorSourcesHash; }

}  // namespace parlab::datasets
