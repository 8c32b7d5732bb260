// Lab 06 expected outputs: the same task names and output array as labs/.../driver.cpp,
// computed on the host in double precision from the closed form of the damped
// accumulation: y = x * (1 - d^k) / (1 - d), d = kDecay (the float's exact value),
// k = iterations. Every task has the same result; only how the GPU gets it differs.
// Timed with the host clock (multi-threaded), so "cpu_reference:TASK" could be a
// baseline.
#include <cmath>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <thread>
#include <vector>

#include "api.hpp"
#include "parlab/harness/dataset_inputs.hpp"
#include "parlab/harness/driver.hpp"

using parlab::harness::Task;
using parlab::harness::TaskContext;

namespace {

std::vector<double> expected(const std::vector<float>& a, int iterations) {
  const double d = static_cast<double>(lab06::kDecay);
  const double gain = (1.0 - std::pow(d, iterations)) / (1.0 - d);
  std::vector<double> y(a.size());
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      for (std::size_t i = a.size() * t / threads; i < a.size() * (t + 1) / threads; ++i) {
        y[i] = static_cast<double>(a[i]) * gain;
      }
    });
  }
  for (auto& th : pool) th.join();
  return y;
}

void run(TaskContext& ctx) {
  namespace h = parlab::harness;  // the driver's checks (labs/lab06-streams/driver.cpp)
  const std::int64_t n =
      h::read_shape(ctx.dataset_dir(), {{"n", 1, std::int64_t{1} << 28}}, "kernel_inputs")[0];
  const std::vector<float> a = h::read_array_of<float>(ctx.dataset_dir(), "a", n, "n");
  const std::int64_t iterations = ctx.params().get_int("iterations", 100);
  if (iterations < 0 || iterations > 100000) {
    throw parlab::ParamError("parameter 'iterations': must be in [0, 100000]");
  }
  const std::vector<double> y =
      ctx.timed([&] { return expected(a, static_cast<int>(iterations)); });
  ctx.out().write("y", std::span<const double>(y));
}

const Task kTasks[] = {
    {"transform", "expected y (closed form, double)", run},
    {"pageable", "expected y (closed form, double)", run},
    {"pinned", "expected y (closed form, double)", run},
    {"pipelined", "expected y (closed form, double)", run},
};

}  // namespace

int main(int argc, char** argv) { return parlab::harness::run_driver(argc, argv, kTasks); }
