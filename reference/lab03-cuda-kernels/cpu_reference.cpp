// Lab 03 CPU reference (cpu_reference.hpp). Element-wise work is split into one
// contiguous chunk per thread; the heat solver keeps its threads for the whole solve
// and meets at a std::barrier after every step (starting threads for each of hundreds
// of steps would cost more than the steps).
#include "cpu_reference.hpp"

#include <algorithm>
#include <barrier>
#include <cmath>
#include <stdexcept>
#include <thread>

namespace lab03::cpu {
namespace {

int resolve_threads(int threads) {
  if (threads > 0) return threads;
  return std::max(1u, std::thread::hardware_concurrency());
}

// Calls body(begin, end) on [0, n) split over at most `threads` threads, each chunk at
// least `grain` long.
template <class Body>
void parallel_for(std::int64_t n, int threads, std::int64_t grain, Body body) {
  const std::int64_t chunks =
      std::clamp<std::int64_t>(n / std::max<std::int64_t>(grain, 1), 1, resolve_threads(threads));
  if (chunks == 1) {
    body(std::int64_t{0}, n);
    return;
  }
  std::vector<std::jthread> pool;
  pool.reserve(static_cast<std::size_t>(chunks - 1));
  for (std::int64_t c = 1; c < chunks; ++c) {
    pool.emplace_back([=] { body(n * c / chunks, n * (c + 1) / chunks); });
  }
  body(0, n / chunks);
}

constexpr std::int64_t kGrain = 1 << 16;

void check_same_size(std::size_t a, std::size_t b, const char* what) {
  if (a != b) throw std::invalid_argument(std::string("lab03::cpu: size mismatch in ") + what);
}

}  // namespace

void vector_add(std::span<const float> a, std::span<const float> b, std::span<double> c,
                int threads) {
  check_same_size(a.size(), b.size(), "vector_add");
  check_same_size(a.size(), c.size(), "vector_add");
  parallel_for(static_cast<std::int64_t>(a.size()), threads, kGrain,
               [&](std::int64_t lo, std::int64_t hi) {
                 for (std::int64_t i = lo; i < hi; ++i) c[i] = double(a[i]) + double(b[i]);
               });
}

void saxpy(float alpha, std::span<const float> x, std::span<const float> y,
           std::span<double> out, int threads) {
  check_same_size(x.size(), y.size(), "saxpy");
  check_same_size(x.size(), out.size(), "saxpy");
  const double a = alpha;
  parallel_for(static_cast<std::int64_t>(x.size()), threads, kGrain,
               [&](std::int64_t lo, std::int64_t hi) {
                 for (std::int64_t i = lo; i < hi; ++i) out[i] = a * double(x[i]) + double(y[i]);
               });
}

void matrix_scale(float alpha, std::span<const float> in, std::span<double> out, int threads) {
  check_same_size(in.size(), out.size(), "matrix_scale");
  const double a = alpha;
  parallel_for(static_cast<std::int64_t>(in.size()), threads, kGrain,
               [&](std::int64_t lo, std::int64_t hi) {
                 for (std::int64_t i = lo; i < hi; ++i) out[i] = a * double(in[i]);
               });
}

namespace {

// Rows [y0, y1) of one Jacobi step from src to dst (double grids). Returns the largest
// |new - old| of those rows. Boundary points are never written: dst already holds them.
double step_rows(const double* src, double* dst, std::int64_t nx, std::int64_t ny, double r,
                 std::int64_t y0, std::int64_t y1) {
  double change = 0;
  for (std::int64_t y = std::max<std::int64_t>(y0, 1); y < std::min(y1, ny - 1); ++y) {
    const double* row = src + y * nx;
    double* out = dst + y * nx;
    for (std::int64_t x = 1; x + 1 < nx; ++x) {
      const double v = row[x];
      const double next = v + r * (row[x - 1] + row[x + 1] + row[x - nx] + row[x + nx] - 4 * v);
      out[x] = next;
      change = std::max(change, std::fabs(next - v));
    }
  }
  return change;
}

}  // namespace

void heat_step(std::span<const float> in, std::span<double> out, std::int64_t nx,
               std::int64_t ny, float r, int threads) {
  check_same_size(in.size(), static_cast<std::size_t>(nx * ny), "heat_step");
  check_same_size(in.size(), out.size(), "heat_step");
  const std::vector<double> src(in.begin(), in.end());
  std::copy(src.begin(), src.end(), out.begin());  // the boundary; the interior is overwritten
  parallel_for(ny, threads, std::max<std::int64_t>(1, kGrain / std::max<std::int64_t>(nx, 1)),
               [&](std::int64_t y0, std::int64_t y1) {
                 step_rows(src.data(), out.data(), nx, ny, r, y0, y1);
               });
}

HeatSolution heat_solve(std::span<const float> initial, std::int64_t nx, std::int64_t ny,
                        float r, float tol, std::int64_t max_iters, std::int64_t check_every,
                        int threads) {
  check_same_size(initial.size(), static_cast<std::size_t>(nx * ny), "heat_solve");
  if (max_iters < 1 || check_every < 1) throw std::invalid_argument("lab03::cpu::heat_solve");
  std::vector<double> a(initial.begin(), initial.end()), b = a;  // equal boundaries
  const int workers = static_cast<int>(std::clamp<std::int64_t>(
      ny * nx / kGrain, 1, std::min<std::int64_t>(resolve_threads(threads), ny)));

  std::vector<double> partial(static_cast<std::size_t>(workers), 0.0);
  double* src = a.data();
  double* dst = b.data();
  std::int64_t steps = 0;
  bool done = false;
  // Runs once per step, in one thread, after every worker arrived: the only place that
  // changes the shared state, so workers read it without further locking.
  auto after_step = [&]() noexcept {
    ++steps;
    if (steps % check_every == 0 &&
        *std::max_element(partial.begin(), partial.end()) < static_cast<double>(tol)) {
      done = true;
    }
    if (steps >= max_iters) done = true;
    std::swap(src, dst);
  };
  std::barrier sync(workers, after_step);
  auto worker = [&](int w) {
    const std::int64_t y0 = ny * w / workers, y1 = ny * (w + 1) / workers;
    while (!done) {
      partial[static_cast<std::size_t>(w)] = step_rows(src, dst, nx, ny, r, y0, y1);
      sync.arrive_and_wait();
    }
  };
  {
    std::vector<std::jthread> pool;
    for (int w = 1; w < workers; ++w) pool.emplace_back(worker, w);
    worker(0);
  }
  HeatSolution s;
  s.steps = steps;
  s.grid.assign(src, src + nx * ny);
  return s;
}

}  // namespace lab03::cpu
