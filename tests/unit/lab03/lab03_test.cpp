// lab03: the kernel_inputs generator (determinism, parameter errors, non-zero values,
// a tolerance that makes the stopping step robust) and the CPU reference on cases
// small enough to check by hand.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cpu_reference.hpp"
#include "parlab/datasets/generator.hpp"
#include "parlab/harness/arrays.hpp"

namespace fs = std::filesystem;
using parlab::Params;
using parlab::harness::read_array;

namespace {

struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& tag) {
    path = fs::temp_directory_path() /
           ("parlab-lab03-" + tag + "-" + std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

Params params(std::initializer_list<std::pair<const char*, const char*>> kv) {
  Params p;
  for (const auto& [k, v] : kv) p.set(k, v);
  return p;
}

void generate(const Params& p, std::uint64_t seed, const fs::path& dir) {
  const auto* g = parlab::datasets::find_generator("kernel_inputs");
  REQUIRE(g != nullptr);
  g->generate(p, seed, dir);
}

std::string file_bytes(const fs::path& f) {
  std::ifstream in(f, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

template <class T>
T scalar(const fs::path& dir, const char* name) {
  const auto v = read_array<T>(dir, name);
  REQUIRE(v.size() == 1);
  return v[0];
}

// heat_solve in float, as a GPU does it (optionally with fused multiply-adds): the
// stopping step must not depend on these details.
std::int64_t float_solve_steps(const std::vector<float>& initial, int nx, int ny, float r,
                               float tol, std::int64_t max_iters, std::int64_t check_every,
                               bool fused) {
  std::vector<float> u = initial, v = initial;
  std::int64_t steps = 0;
  while (steps < max_iters) {
    ++steps;
    float change = 0;
    for (int y = 1; y + 1 < ny; ++y) {
      for (int x = 1; x + 1 < nx; ++x) {
        const int p = y * nx + x;
        const float sum = u[p - 1] + u[p + 1] + u[p - nx] + u[p + nx] - 4.0f * u[p];
        v[p] = fused ? std::fma(r, sum, u[p]) : u[p] + r * sum;
        change = std::max(change, std::fabs(v[p] - u[p]));
      }
    }
    std::swap(u, v);
    if (steps % check_every == 0 && change < tol) break;
  }
  return steps;
}

}  // namespace

TEST_CASE("kernel_inputs is deterministic per seed and differs between seeds", "[lab03]") {
  TempDir a("a"), b("b"), c("c");
  const Params p = params({{"kind", "vector"}, {"n", "1000"}});
  generate(p, 7, a.path);
  generate(p, 7, b.path);
  generate(p, 8, c.path);
  for (const char* f : {"a.bin", "b.bin", "x.bin", "y.bin", "alpha.bin", "shape.bin"}) {
    CHECK(file_bytes(a.path / f) == file_bytes(b.path / f));
  }
  CHECK(file_bytes(a.path / "a.bin") != file_bytes(c.path / "a.bin"));
}

TEST_CASE("kernel_inputs values are non-zero, shapes match", "[lab03]") {
  TempDir v("v"), m("m"), h("h");
  generate(params({{"kind", "vector"}, {"n", "4099"}}), 1, v.path);
  for (const char* name : {"a", "b", "x", "y"}) {
    const auto values = read_array<float>(v.path, name);
    REQUIRE(values.size() == 4099);
    CHECK(std::none_of(values.begin(), values.end(), [](float x) { return x == 0 || !std::isfinite(x); }));
    CHECK(std::any_of(values.begin(), values.end(), [](float x) { return x < 0; }));
  }
  CHECK(scalar<float>(v.path, "alpha") != 0);

  generate(params({{"kind", "matrix"}, {"rows", "3"}, {"cols", "5"}}), 2, m.path);
  CHECK(read_array<std::int64_t>(m.path, "shape") == std::vector<std::int64_t>{3, 5});
  CHECK(read_array<float>(m.path, "matrix").size() == 15);

  generate(params({{"kind", "heat"}, {"nx", "7"}, {"ny", "4"}}), 3, h.path);
  CHECK(read_array<std::int64_t>(h.path, "shape") == std::vector<std::int64_t>{4, 7});
  const auto grid = read_array<float>(h.path, "grid");
  REQUIRE(grid.size() == 28);
  CHECK(std::all_of(grid.begin(), grid.end(), [](float x) { return x > 0; }));
  CHECK(scalar<float>(h.path, "tol") == 0);  // no target: a fixed number of steps
  CHECK(scalar<std::int64_t>(h.path, "max_iters") == 100);
  CHECK(scalar<float>(h.path, "r") == 0.2f);
}

TEST_CASE("kernel_inputs rejects bad parameters, naming them", "[lab03]") {
  TempDir d("bad");
  using Catch::Matchers::Contains;
  CHECK_THROWS_WITH(generate(params({{"n", "5"}}), 1, d.path), Contains("'kind'"));
  CHECK_THROWS_WITH(generate(params({{"kind", "tensor"}}), 1, d.path), Contains("'kind'"));
  CHECK_THROWS_WITH(generate(params({{"kind", "vector"}, {"n", "0"}}), 1, d.path), Contains("'n'"));
  CHECK_THROWS_WITH(generate(params({{"kind", "vector"}, {"n", "5"}, {"rows", "2"}}), 1, d.path),
                    Contains("unknown parameter"));
  CHECK_THROWS_WITH(generate(params({{"kind", "matrix"}, {"rows", "2"}}), 1, d.path), Contains("'cols'"));
  CHECK_THROWS_WITH(generate(params({{"kind", "heat"}, {"nx", "9"}, {"ny", "9"}, {"r", "0.3"}}), 1, d.path),
                    Contains("'r'"));
  CHECK_THROWS_WITH(generate(params({{"kind", "heat"}, {"nx", "9"}, {"ny", "9"}, {"check_every", "10"},
                                     {"target_iters", "10"}}), 1, d.path),
                    Contains("target_iters"));
  CHECK_THROWS_WITH(generate(params({{"kind", "heat"}, {"nx", "2"}, {"ny", "9"}, {"target_iters", "50"}}), 1, d.path),
                    Contains("interior"));
}

TEST_CASE("CPU reference: element-wise kernels by hand", "[lab03]") {
  const std::vector<float> a = {1.5f, -2.0f, 3.25f}, b = {0.5f, 2.0f, -1.0f};
  std::vector<double> out(3);
  lab03::cpu::vector_add(a, b, out, 4);
  CHECK(out == std::vector<double>{2.0, 0.0, 2.25});
  lab03::cpu::saxpy(2.0f, a, b, out, 4);
  CHECK(out == std::vector<double>{3.5, -2.0, 5.5});
  lab03::cpu::matrix_scale(-0.5f, a, out, 4);
  CHECK(out == std::vector<double>{-0.75, 1.0, -1.625});

  // Large enough to use several threads: the same bits as one thread.
  std::vector<float> big(300000);
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = 0.001f * static_cast<float>(i % 977) + 0.1f;
  std::vector<double> one(big.size()), many(big.size());
  lab03::cpu::saxpy(1.7f, big, big, one, 1);
  lab03::cpu::saxpy(1.7f, big, big, many, 8);
  CHECK(one == many);
  CHECK(many[12345] == double(1.7f) * double(big[12345]) + double(big[12345]));
}

TEST_CASE("CPU reference: one heat step by hand", "[lab03]") {
  // 4 x 3 grid (nx = 4, ny = 3): interior points (1,1) and (2,1).
  const std::vector<float> in = {1, 2, 3, 4,  //
                                 5, 6, 7, 8,  //
                                 9, 10, 11, 12};
  std::vector<double> out(in.size());
  const float r = 0.25f;
  lab03::cpu::heat_step(in, out, 4, 3, r, 4);
  // (1,1): 6 + 0.25 * (5 + 7 + 2 + 10 - 24) = 6; (2,1): 7 + 0.25 * (6 + 8 + 3 + 11 - 28) = 7.
  CHECK(out[5] == 6.0);
  CHECK(out[6] == 7.0);
  for (int p : {0, 1, 2, 3, 4, 7, 8, 9, 10, 11}) CHECK(out[p] == in[p]);  // boundary copied

  const std::vector<float> bump = {1, 1, 1, 1, 9, 1, 1, 1, 1};  // 3 x 3, hot centre
  out.assign(9, 0);
  lab03::cpu::heat_step(bump, out, 3, 3, 0.2f, 1);
  CHECK(out[4] == Approx(9 + 0.2 * (4 - 36)).epsilon(1e-7));  // 2.6

  const std::vector<float> row = {3, 1, 4, 1, 5};  // one row: all boundary
  out.assign(5, 0);
  lab03::cpu::heat_step(row, out, 5, 1, 0.25f, 2);
  CHECK(out == std::vector<double>{3, 1, 4, 1, 5});
}

TEST_CASE("CPU reference: heat_solve follows the stopping rule", "[lab03]") {
  // 3 x 3 with one interior point c, neighbours summing to S = 4: each step
  // c <- c + r (S - 4c), so the change after step k is r * 4 * (c0 - 1) * (1 - 4r)^(k-1).
  const std::vector<float> g = {1, 1, 1, 1, 9, 1, 1, 1, 1};
  const float r = 0.125f;  // change_k = 0.5 * 8 * 0.5^(k-1) = 4 * 0.5^(k-1)
  // Checked every 3 steps: changes 1 (k=3), 0.125 (k=6), 0.015625 (k=9).
  auto s = lab03::cpu::heat_solve(g, 3, 3, r, 0.1f, 1000, 3, 2);
  CHECK(s.steps == 9);
  CHECK(s.grid[4] == Approx(1 + 8 * std::pow(0.5, 9)).epsilon(1e-12));
  s = lab03::cpu::heat_solve(g, 3, 3, r, 0.2f, 1000, 3, 2);
  CHECK(s.steps == 6);
  s = lab03::cpu::heat_solve(g, 3, 3, r, 0.0f, 7, 3, 2);  // tol 0: exactly max_iters
  CHECK(s.steps == 7);
  CHECK(s.grid[4] == Approx(1 + 8 * std::pow(0.5, 7)).epsilon(1e-12));
  s = lab03::cpu::heat_solve(g, 3, 3, r, 100.0f, 2, 3, 2);  // max_iters before any check
  CHECK(s.steps == 2);
  const std::vector<float> row = {3, 1, 4, 1, 5};  // no interior: change 0 at the first check
  CHECK(lab03::cpu::heat_solve(row, 5, 1, 0.25f, 1e-3f, 50, 4, 2).steps == 4);
}

TEST_CASE("CPU reference: heat_solve is the same with any thread count", "[lab03]") {
  TempDir d("threads");
  generate(params({{"kind", "heat"}, {"nx", "300"}, {"ny", "301"}, {"max_iters", "20"}}), 9, d.path);
  const auto grid = read_array<float>(d.path, "grid");
  const auto one = lab03::cpu::heat_solve(grid, 300, 301, 0.2f, 0.0f, 20, 5, 1);
  const auto many = lab03::cpu::heat_solve(grid, 300, 301, 0.2f, 0.0f, 20, 5, 7);
  CHECK(one.steps == 20);
  CHECK(one.grid == many.grid);
}

// The claim of kernel_inputs.cpp: the generated tolerance makes the stopping step the
// same in float (with or without FMA, as a GPU computes) as in the double reference,
// for the shapes lab.toml uses and many seeds (the fresh dataset gets a new one each time).
TEST_CASE("heat tolerance: float and double stop at the same step", "[lab03]") {
  struct Shape {
    const char *nx, *ny, *check_every, *target;
  };
  for (const Shape& s : {Shape{"61", "37", "20", "300"}, Shape{"71", "45", "25", "250"}}) {
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
      TempDir d("tol");
      generate(params({{"kind", "heat"}, {"nx", s.nx}, {"ny", s.ny}, {"check_every", s.check_every},
                       {"target_iters", s.target}}),
               seed, d.path);
      const auto grid = read_array<float>(d.path, "grid");
      const int nx = std::stoi(s.nx), ny = std::stoi(s.ny);
      const float r = scalar<float>(d.path, "r"), tol = scalar<float>(d.path, "tol");
      const auto max_iters = scalar<std::int64_t>(d.path, "max_iters");
      const auto every = scalar<std::int64_t>(d.path, "check_every");
      const auto expected = lab03::cpu::heat_solve(grid, nx, ny, r, tol, max_iters, every, 2);
      INFO("shape " << s.nx << " x " << s.ny << ", seed " << seed);
      const std::int64_t target = std::stoll(s.target);
      CHECK(expected.steps == (target + every - 1) / every * every);
      CHECK(float_solve_steps(grid, nx, ny, r, tol, max_iters, every, false) == expected.steps);
      CHECK(float_solve_steps(grid, nx, ny, r, tol, max_iters, every, true) == expected.steps);
    }
  }
}
