// Lab 02 CPU reference program: the expected outputs of every test, and the CPU side of
// the "GPU vs all CPU cores" performance test. It has the driver's task names and
// writes the same arrays, computed in double by nw_cpu (the definition in nw_cpu.hpp).
// Params: the driver's (h, h_min, h_max, k); threads (default: the hardware threads).
// memory_mb and budget_mb are accepted and ignored: the reference streams its sums.
#include <algorithm>
#include <span>
#include <thread>
#include <vector>

#include "nw_cpu.hpp"
#include "parlab/harness/driver.hpp"
#include "regression_problem.hpp"

using parlab::harness::Task;
using parlab::harness::TaskContext;

namespace {

lab02::reference::Problem to_reference(const lab02::Data& d) {
  return {d.train_x.data(), d.train_y.data(), d.n, d.query_x.data(), d.m, d.d};
}

int threads(const TaskContext& ctx) {
  const std::int64_t hardware = std::max(1u, std::thread::hardware_concurrency());
  const std::int64_t t = ctx.params().get_int("threads", hardware);
  if (t < 1 || t > 4096) throw parlab::ParamError("parameter 'threads': must be in [1, 4096]");
  return static_cast<int>(t);
}

void predict(TaskContext& ctx) {
  const lab02::Data data = lab02::load_data(ctx.dataset_dir());
  // The bandwidth the student gets, rounded to float like theirs.
  const double h = static_cast<float>(ctx.params().get_double("h", 0.3));
  std::vector<double> y_hat(static_cast<std::size_t>(data.m));
  const int t = threads(ctx);
  ctx.timed([&] { lab02::reference::predict_parallel(to_reference(data), h, y_hat.data(), t); });
  ctx.out().write("y_hat", std::span<const double>(y_hat));
}

void grid_search(TaskContext& ctx) {
  const lab02::Data data = lab02::load_data(ctx.dataset_dir());
  const std::vector<float> grid =
      lab02::bandwidth_grid(static_cast<float>(ctx.params().get_double("h_min", 0.01)),
                            static_cast<float>(ctx.params().get_double("h_max", 10)),
                            ctx.params().get_int("k", 9));
  const std::vector<double> bandwidths(grid.begin(), grid.end());
  const int t = threads(ctx);
  const std::vector<double> r2 = ctx.timed([&] {
    return lab02::reference::grid_search(to_reference(data), data.query_y.data(), bandwidths, t);
  });
  ctx.out().write("r2", std::span<const double>(r2));
}

const Task kTasks[] = {
    {"predict_serial", "predictions in double (CPU, multi-threaded)", predict},
    {"predict_parallel", "predictions in double (CPU, multi-threaded)", predict},
    {"predict_gpu", "predictions in double: the CPU side of GPU vs CPU", predict},
    {"grid_search", "R^2 per bandwidth in double (CPU, multi-threaded)", grid_search},
};

}  // namespace

int main(int argc, char** argv) { return parlab::harness::run_driver(argc, argv, kTasks); }
