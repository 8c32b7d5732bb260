// Lab 04 expected outputs: the same task names and output arrays as labs/.../driver.cpp,
// computed by the multi-threaded CPU reference (cpu_reference.hpp) on the host.
//   max_atomic, max_block   max        (i32, 1)
//   sum                     sum        (f64, 1: the exact sum; the GPU's float result is
//                                       compared to it within lab.toml's tolerance)
//   histogram               histogram  (i32, bins)
// Param: threads (default: all hardware threads). Timed with the host clock, so
// "cpu_reference:TASK" can be a performance baseline (GPU kernel vs CPU cores).
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cpu_reference.hpp"
#include "parlab/harness/dataset_inputs.hpp"
#include "parlab/harness/driver.hpp"

using parlab::harness::Task;
using parlab::harness::TaskContext;

namespace {

struct Shape {
  std::int64_t n = 0;
  std::int64_t bins = 0;
};

// The same checks as the lab's driver (labs/lab04-atomics-reductions/driver.cpp).
Shape read_shape(const TaskContext& ctx) {
  const auto s = parlab::harness::read_shape(
      ctx.dataset_dir(), {{"n", 1, std::int64_t{1} << 28}, {"bins", 1, 8192}}, "reduction_data");
  return {s[0], s[1]};
}

template <class T>
std::vector<T> read_input(const TaskContext& ctx, const char* name, std::int64_t n) {
  return parlab::harness::read_array_of<T>(ctx.dataset_dir(), name, n, "shape's n");
}

int threads_param(const TaskContext& ctx) {
  const std::int64_t t = ctx.params().get_int("threads", 0);
  if (t < 0 || t > 4096) throw parlab::ParamError("parameter 'threads': must be in [0, 4096]");
  return static_cast<int>(t);
}

void run_max(TaskContext& ctx) {
  const Shape shape = read_shape(ctx);
  const auto ints = read_input<std::int32_t>(ctx, "ints", shape.n);
  const int threads = threads_param(ctx);
  const std::int32_t m = ctx.timed([&] { return lab04::cpu::max_value(ints, threads); });
  ctx.set_work(4.0 * static_cast<double>(shape.n), static_cast<double>(shape.n));
  ctx.out().write("max", std::span<const std::int32_t>(&m, 1));
}

void run_sum(TaskContext& ctx) {
  const Shape shape = read_shape(ctx);
  const auto floats = read_input<float>(ctx, "floats", shape.n);
  const int threads = threads_param(ctx);
  const double s = ctx.timed([&] { return lab04::cpu::sum(floats, threads); });
  ctx.set_work(4.0 * static_cast<double>(shape.n), static_cast<double>(shape.n));
  ctx.out().write("sum", std::span<const double>(&s, 1));
}

void run_histogram(TaskContext& ctx) {
  const Shape shape = read_shape(ctx);
  const auto keys = read_input<std::int32_t>(ctx, "keys", shape.n);
  const int threads = threads_param(ctx);
  const auto bins = ctx.timed(
      [&] { return lab04::cpu::histogram(keys, static_cast<int>(shape.bins), threads); });
  ctx.set_work(4.0 * static_cast<double>(shape.n) + 8.0 * static_cast<double>(shape.bins), 0);
  ctx.out().write("histogram", std::span<const std::int32_t>(bins));
}

const Task kTasks[] = {
    {"max_atomic", "max of ints (CPU threads)", run_max},
    {"max_block", "max of ints (CPU threads)", run_max},
    {"sum", "exact sum of floats in double (CPU threads)", run_sum},
    {"histogram", "histogram with per-thread private counts (CPU threads)", run_histogram},
};

}  // namespace

int main(int argc, char** argv) { return parlab::harness::run_driver(argc, argv, kTasks); }
