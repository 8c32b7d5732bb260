// Lab 05 CPU reference program: the expected outputs of every test, and the CPU side of
// the "GPU vs CPU" performance test. It has the driver's task names (and the GPU
// reference's extra ones) and writes the same array "c", computed in double.
// Param: threads (default: the hardware threads).
#include <thread>

#include "cpu_gemm.hpp"
#include "parlab/harness/driver.hpp"

using parlab::harness::Task;
using parlab::harness::TaskContext;

namespace {

void run(TaskContext& ctx) {
  const lab05::GemmProblem p = lab05::load_problem(ctx.dataset_dir());
  const std::int64_t hardware = std::max(1u, std::thread::hardware_concurrency());
  const std::int64_t threads = ctx.params().get_int("threads", hardware);
  if (threads < 1 || threads > 4096) {
    throw parlab::ParamError("parameter 'threads': must be in [1, 4096], got " +
                             std::to_string(threads));
  }
  const std::vector<double> c =
      ctx.timed([&] { return lab05::cpu_gemm(p, static_cast<unsigned>(threads)); });
  ctx.set_work(lab05::gemm_bytes(p), lab05::gemm_flops(p));
  lab05::write_c(ctx.out(), std::span<const double>(c), p.m, p.n);
}

const Task kTasks[] = {
    {"naive", "C = A B in double (CPU, multi-threaded)", run},
    {"tiled", "C = A B in double (CPU, multi-threaded)", run},
    {"tiled_roundtrip", "C = A B in double from host data: the CPU side of GPU vs CPU", run},
    {"sgemm_regblock", "C = A B in double (expected output of the GPU extra task)", run},
    {"sgemm_cublas", "C = A B in double (expected output of the GPU extra task)", run},
};

}  // namespace

int main(int argc, char** argv) { return parlab::harness::run_driver(argc, argv, kTasks); }
