// Generator "kernel_inputs": the float arrays of lab03 (CUDA kernels), written with
// OutputWriter so the driver reads them with read_array<T>(dir, name).
//
// Parameter `kind` (required) picks what is made; the other parameters depend on it:
//   kind = "vector"   n (>= 1)
//       a, b, x, y   f32[n]   values with magnitude in [0.1, 10), random sign (never 0)
//       alpha        f32[1]   in [0.5, 4), random sign
//       shape        i64[1]   {n}
//   kind = "matrix"   rows, cols (>= 1)
//       matrix       f32[rows * cols] row-major, like a, b above
//       alpha        f32[1]
//       shape        i64[2]   {rows, cols}
//   kind = "heat"     nx, ny (>= 1), r = 0.2 (in (0, 0.25]), check_every = 10 (>= 1),
//                     target_iters = 0 (>= 0), max_iters (default: 4 * target_iters,
//                     or 100 when target_iters = 0)
//       grid         f32[ny * nx] initial temperatures, row-major (point (x, y) at
//                    y * nx + x): top row hot in [80, 100), other edges in [5, 20),
//                    interior in [1, 100)   (all > 0)
//       shape        i64[2]   {ny, nx}
//       r, tol       f32[1]
//       max_iters, check_every   i64[1]
//     target_iters = 0 sets tol = 0: the solver runs exactly max_iters steps. Otherwise
//     the generator runs the solver in double precision and picks tol half-way (on a log
//     scale) between the change measured at the check before the first one at or after
//     target_iters and the change measured there, so the solve stops exactly there. The
//     margin (a factor of sqrt(change ratio), several percent) is far wider than the
//     difference float arithmetic on a GPU makes, so the GPU and the double-precision
//     CPU reference stop at the same step. A margin under 1% is rejected.
// Unknown parameters are rejected, so a typo is not silently ignored.
#include <algorithm>
#include <cmath>
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

// Magnitude in [lo, hi), random sign: never zero, so a kernel that writes zeros fails.
float signed_value(PortableRandom& rng, double lo, double hi) {
  const double v = rng.uniform(lo, hi);
  return static_cast<float>(rng.below(2) ? v : -v);
}

std::vector<float> signed_values(PortableRandom& rng, std::int64_t n) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (float& x : v) x = signed_value(rng, 0.1, 10.0);
  return v;
}

template <class T>
void write1(harness::OutputWriter& w, const std::string& name, T value) {
  w.write(name, std::span<const T>(&value, 1));
}

void make_vector(const ParamChecks& p, PortableRandom& rng, harness::OutputWriter& w) {
  p.only_known({"kind", "n"}, "for kind 'vector'");
  const std::int64_t n = p.int_in("n", 1, 1'000'000'000);
  for (const char* name : {"a", "b", "x", "y"}) {
    const std::vector<float> v = signed_values(rng, n);
    w.write(name, std::span<const float>(v));
  }
  write1(w, "alpha", signed_value(rng, 0.5, 4.0));
  write1(w, "shape", std::int64_t{n});
}

void make_matrix(const ParamChecks& p, PortableRandom& rng, harness::OutputWriter& w) {
  p.only_known({"kind", "rows", "cols"}, "for kind 'matrix'");
  const std::int64_t rows = p.int_in("rows", 1, 1'000'000);
  const std::int64_t cols = p.int_in("cols", 1, 1'000'000);
  if (rows * cols > 1'000'000'000) p.reject("rows", "rows * cols must be at most 1e9");
  const std::vector<float> m = signed_values(rng, rows * cols);
  w.write("matrix", std::span<const float>(m));
  write1(w, "alpha", signed_value(rng, 0.5, 4.0));
  const std::int64_t shape[] = {rows, cols};
  w.write("shape", std::span<const std::int64_t>(shape));
}

std::vector<float> initial_grid(PortableRandom& rng, std::int64_t nx, std::int64_t ny) {
  std::vector<float> g(static_cast<std::size_t>(nx * ny));
  for (std::int64_t y = 0; y < ny; ++y) {
    for (std::int64_t x = 0; x < nx; ++x) {
      const bool edge = x == 0 || y == 0 || x == nx - 1 || y == ny - 1;
      const double v = y == 0 ? rng.uniform(80, 100) : edge ? rng.uniform(5, 20) : rng.uniform(1, 100);
      g[static_cast<std::size_t>(y * nx + x)] = static_cast<float>(v);
    }
  }
  return g;
}

// The largest change of the step ending at each multiple of check_every, up to `last`,
// computed in double precision (the rule of lab03::heat_solve in api.hpp).
std::vector<double> checked_changes(const std::vector<float>& grid, std::int64_t nx,
                                    std::int64_t ny, double r, std::int64_t check_every,
                                    std::int64_t last) {
  std::vector<double> u(grid.begin(), grid.end()), v = u;
  std::vector<double> changes;
  for (std::int64_t step = 1; step <= last; ++step) {
    double change = 0;
    for (std::int64_t y = 1; y + 1 < ny; ++y) {
      for (std::int64_t x = 1; x + 1 < nx; ++x) {
        const std::size_t p = static_cast<std::size_t>(y * nx + x);
        const std::size_t w = static_cast<std::size_t>(nx);
        v[p] = u[p] + r * (u[p - 1] + u[p + 1] + u[p - w] + u[p + w] - 4 * u[p]);
        change = std::max(change, std::fabs(v[p] - u[p]));
      }
    }
    std::swap(u, v);  // the boundary is equal in both and never written
    if (step % check_every == 0) changes.push_back(change);
  }
  return changes;
}

void make_heat(const ParamChecks& p, PortableRandom& rng, harness::OutputWriter& w) {
  p.only_known({"kind", "nx", "ny", "r", "check_every", "target_iters", "max_iters"}, "for kind 'heat'");
  const std::int64_t nx = p.int_in("nx", 1, 100'000);
  const std::int64_t ny = p.int_in("ny", 1, 100'000);
  const double r_param = p.params().get_double("r", 0.2);
  if (!(r_param > 0 && r_param <= 0.25)) p.reject("r", "must be in (0, 0.25]");
  const std::int64_t check_every = p.int_in("check_every", 1, 1'000'000, 10);
  const std::int64_t target = p.int_in("target_iters", 0, 1'000'000, 0);
  const std::int64_t max_iters = p.int_in("max_iters", 1, 100'000'000, target ? 4 * target : 100);
  const float r = static_cast<float>(r_param);

  const std::vector<float> grid = initial_grid(rng, nx, ny);
  float tol = 0;
  if (target > 0) {
    const std::int64_t stop = (target + check_every - 1) / check_every * check_every;
    if (stop < 2 * check_every) p.reject("target_iters", "must be more than check_every");
    if (stop > max_iters) p.reject("max_iters", "must be at least the stopping step " + std::to_string(stop));
    if (nx < 3 || ny < 3) p.reject("nx", "a tolerance needs an interior: nx, ny >= 3");
    const std::vector<double> c = checked_changes(grid, nx, ny, r, check_every, stop);
    const double before = c[c.size() - 2], at = c.back();
    if (!(at > 0) || before / at < 1.02) {
      p.reject("target_iters", "the change hardly decreases between checks there (ratio " +
                                 std::to_string(before / at) +
                                 "); a smaller grid or a larger check_every gives a robust tolerance");
    }
    tol = static_cast<float>(std::sqrt(before * at));
  }
  w.write("grid", std::span<const float>(grid));
  const std::int64_t shape[] = {ny, nx};
  w.write("shape", std::span<const std::int64_t>(shape));
  write1(w, "r", r);
  write1(w, "tol", tol);
  write1(w, "max_iters", max_iters);
  write1(w, "check_every", check_every);
}

}  // namespace

void generate_kernel_inputs(const Params& params, std::uint64_t seed,
                            const std::filesystem::path& out_dir) {
  const ParamChecks p("kernel_inputs", params);
  if (!params.has("kind")) p.reject("kind", "is required: \"vector\", \"matrix\" or \"heat\"");
  const std::string kind = params.get_string("kind");
  PortableRandom rng(mix_seed(seed));
  harness::OutputWriter w(out_dir);
  if (kind == "vector") {
    make_vector(p, rng, w);
  } else if (kind == "matrix") {
    make_matrix(p, rng, w);
  } else if (kind == "heat") {
    make_heat(p, rng, w);
  } else {
    p.reject("kind", "must be \"vector\", \"matrix\" or \"heat\", got \"" + kind + "\"");
  }
  w.finish();
}

}  // namespace parlab::datasets
