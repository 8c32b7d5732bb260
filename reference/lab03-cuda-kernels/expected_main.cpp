// Lab 03 expected outputs: the same tasks and output arrays as labs/lab03-cuda-kernels/
// driver.cpp (driver_tasks.hpp lists them), computed by the multi-threaded CPU
// reference in double precision. The grader runs this program for every correctness
// test; its host-clock timing of vector_add is also the CPU side of the round-trip
// performance test. Param: threads (default: one per hardware thread).
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "cpu_reference.hpp"
#include "parlab/harness/dataset_inputs.hpp"
#include "parlab/harness/driver.hpp"

using parlab::harness::Task;
using parlab::harness::TaskContext;
using parlab::harness::read_array_of;
using parlab::harness::read_shape;

namespace {

int threads_param(const TaskContext& ctx) {
  const std::int64_t t = ctx.params().get_int("threads", 0);
  if (t < 0 || t > 4096) throw parlab::ParamError("parameter 'threads': must be in [0, 4096]");
  return static_cast<int>(t);
}

// The dataset, checked as the lab's driver checks it (labs/lab03-cuda-kernels/driver.cpp).
template <class T>
T scalar(const TaskContext& ctx, const char* name) {
  return parlab::harness::read_scalar<T>(ctx.dataset_dir(), name);
}

std::vector<float> vector_input(const TaskContext& ctx, const char* name) {
  const std::int64_t n = read_shape(ctx.dataset_dir(), {{"n"}}, "kernel_inputs")[0];
  return read_array_of<float>(ctx.dataset_dir(), name, n, "n");
}

// A row-major grid: its values and shape {rows, cols} (heat grids: {ny, nx}).
std::vector<float> grid_input(const TaskContext& ctx, const char* name,
                              std::vector<std::int64_t>& shape) {
  shape = read_shape(ctx.dataset_dir(), {{"rows"}, {"cols"}}, "kernel_inputs");
  return read_array_of<float>(ctx.dataset_dir(), name, shape[0] * shape[1], "rows * cols");
}

void vector_add(TaskContext& ctx) {
  const auto a = vector_input(ctx, "a");
  const auto b = vector_input(ctx, "b");
  std::vector<double> c(a.size());
  const int threads = threads_param(ctx);
  ctx.timed([&] { lab03::cpu::vector_add(a, b, c, threads); });
  ctx.out().write("c", std::span<const double>(c));
}

void saxpy(TaskContext& ctx) {
  const auto x = vector_input(ctx, "x");
  const auto y = vector_input(ctx, "y");
  const float alpha = scalar<float>(ctx, "alpha");
  std::vector<double> out(x.size());
  const int threads = threads_param(ctx);
  ctx.timed([&] { lab03::cpu::saxpy(alpha, x, y, out, threads); });
  ctx.out().write("out", std::span<const double>(out));
}

void matrix_scale(TaskContext& ctx) {
  std::vector<std::int64_t> s;
  const auto m = grid_input(ctx, "matrix", s);
  const float alpha = scalar<float>(ctx, "alpha");
  std::vector<double> out(m.size());
  const int threads = threads_param(ctx);
  ctx.timed([&] { lab03::cpu::matrix_scale(alpha, m, out, threads); });
  ctx.out().write("out", std::span<const double>(out));
}

void heat_step(TaskContext& ctx) {
  std::vector<std::int64_t> s;  // {ny, nx}
  const auto grid = grid_input(ctx, "grid", s);
  const float r = scalar<float>(ctx, "r");
  std::vector<double> out(grid.size());
  const int threads = threads_param(ctx);
  ctx.timed([&] { lab03::cpu::heat_step(grid, out, s[1], s[0], r, threads); });
  ctx.out().write("grid", std::span<const double>(out));
}

void heat_solve(TaskContext& ctx) {
  std::vector<std::int64_t> s;  // {ny, nx}
  const auto grid = grid_input(ctx, "grid", s);
  const float r = scalar<float>(ctx, "r");
  const float tol = scalar<float>(ctx, "tol");
  const auto max_iters = scalar<std::int64_t>(ctx, "max_iters");
  const auto check_every = scalar<std::int64_t>(ctx, "check_every");
  const int threads = threads_param(ctx);
  const lab03::cpu::HeatSolution sol = ctx.timed([&] {
    return lab03::cpu::heat_solve(grid, s[1], s[0], r, tol, max_iters, check_every, threads);
  });
  // The step count first: when it is wrong, the report names it, not a grid value.
  ctx.out().write("iterations", std::span<const std::int64_t>(&sol.steps, 1));
  ctx.out().write("grid", std::span<const double>(sol.grid));
}

const Task kTasks[] = {
    {"vector_add", "c = a + b (CPU, double)", vector_add},
    {"vector_add_roundtrip", "c = a + b (CPU: nothing to transfer)", vector_add},
    {"saxpy", "out = alpha * x + y (CPU, double)", saxpy},
    {"matrix_scale", "out = alpha * matrix (CPU, double)", matrix_scale},
    {"heat_step", "one Jacobi step (CPU, double)", heat_step},
    {"heat_solve", "Jacobi steps until the change < tol (CPU, double)", heat_solve},
};

}  // namespace

int main(int argc, char** argv) { return parlab::harness::run_driver(argc, argv, kTasks); }
