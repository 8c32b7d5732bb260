// Generator "matmul_pair" (lab05): the two operands of one matrix product C = A B.
//   shape  i64 [M, N, K]
//   a      f32 M*K, row-major
//   b      f32 K*N, row-major
// Every value is non-zero: a magnitude uniform in [min_magnitude, 1] with a random sign.
// Keeping magnitudes away from 0 means every single product a*b is at least
// min_magnitude^2 in size, more than the comparison tolerance, so a kernel that skips
// or repeats one term of a sum cannot pass by luck (README.md, "How results are
// compared"); and an all-zero output never matches.
//
// Parameters:
//   m, n, k        = 256    sizes, each in [1, 16384], with M*K and K*N at most 2^26
//   min_magnitude  = 0.1    in (0, 1]
// A and B come from separate streams of the seed, so A does not change with N.
// Unknown parameters are rejected, so a typo is not silently ignored.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "generators.hpp"
#include "parlab/harness/arrays.hpp"
#include "param_checks.hpp"
#include "portable_random.hpp"

namespace parlab::datasets {
namespace {

std::vector<float> random_matrix(std::uint64_t seed, std::int64_t count, double min_magnitude) {
  PortableRandom rng(seed);
  std::vector<float> values(static_cast<std::size_t>(count));
  for (float& v : values) {
    const double magnitude = rng.uniform(min_magnitude, 1.0);
    // Rounded to float once, here: the GPU and the CPU reference see the same numbers.
    v = static_cast<float>(rng.below(2) ? magnitude : -magnitude);
  }
  return values;
}

}  // namespace

void generate_matmul_pair(const Params& params, std::uint64_t seed,
                          const std::filesystem::path& out_dir) {
  const ParamChecks p("matmul_pair", params);
  p.only_known({"m", "n", "k", "min_magnitude"});
  const std::int64_t m = p.int_in("m", 1, 16384, 256), n = p.int_in("n", 1, 16384, 256),
                     k = p.int_in("k", 1, 16384, 256);
  constexpr std::int64_t kMaxElements = std::int64_t{1} << 26;
  if (m * k > kMaxElements || k * n > kMaxElements) {
    p.reject(m * k > kMaxElements ? "m" : "n",
             "M*K and K*N must be at most 2^26 elements (256 MiB of floats)");
  }
  const double min_magnitude = params.get_double("min_magnitude", 0.1);
  if (!(min_magnitude > 0.0 && min_magnitude <= 1.0)) {
    p.reject("min_magnitude", "must be in (0, 1]");
  }

  const std::vector<std::int64_t> shape = {m, n, k};
  const std::vector<float> a = random_matrix(mix_seed(seed), m * k, min_magnitude);
  const std::vector<float> b = random_matrix(mix_seed(seed ^ 0xB0B0B0B0ull), k * n, min_magnitude);
  harness::OutputWriter out(out_dir);
  out.write("shape", std::span<const std::int64_t>(shape));
  out.write("a", std::span<const float>(a));
  out.write("b", std::span<const float>(b));
  out.finish();
}

}  // namespace parlab::datasets
