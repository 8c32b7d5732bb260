// Lab 04 CPU reference (cpu_reference.hpp): chunked over std::threads.
#include "cpu_reference.hpp"

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <string>
#include <thread>

namespace lab04::cpu {
namespace {

constexpr std::size_t kMinChunk = std::size_t{1} << 16;

int thread_count(std::size_t n, int requested) {
  const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int wanted = requested > 0 ? requested : hw;
  const auto useful = static_cast<int>(std::max<std::size_t>(1, n / kMinChunk));
  return std::max(1, std::min(wanted, useful));
}

// Runs chunk(t, begin, end) for t in [0, T) on T threads (the caller is thread 0), the
// chunks splitting [0, n) into contiguous ranges of near-equal size.
template <class Chunk>
void for_chunks(std::size_t n, int threads, Chunk chunk) {
  const auto t_count = static_cast<std::size_t>(threads);
  std::vector<std::thread> pool;
  pool.reserve(t_count - 1);
  for (std::size_t t = 1; t < t_count; ++t) {
    pool.emplace_back(chunk, t, n * t / t_count, n * (t + 1) / t_count);
  }
  chunk(std::size_t{0}, std::size_t{0}, n / t_count);
  for (std::thread& th : pool) th.join();
}

}  // namespace

int max_value(std::span<const std::int32_t> values, int threads) {
  if (values.empty()) throw std::invalid_argument("max_value: no values");
  const int t_count = thread_count(values.size(), threads);
  std::vector<int> partial(static_cast<std::size_t>(t_count), INT_MIN);
  for_chunks(values.size(), t_count, [&](std::size_t t, std::size_t begin, std::size_t end) {
    int m = INT_MIN;
    for (std::size_t i = begin; i < end; ++i) m = std::max(m, values[i]);  // vectorizes
    partial[t] = m;
  });
  return *std::max_element(partial.begin(), partial.end());
}

double sum(std::span<const float> values, int threads) {
  const int t_count = thread_count(values.size(), threads);
  std::vector<double> partial(static_cast<std::size_t>(t_count), 0.0);
  for_chunks(values.size(), t_count, [&](std::size_t t, std::size_t begin, std::size_t end) {
    // Four independent accumulators: the additions overlap in the FPU pipeline
    // instead of each waiting for the previous one.
    double a[4] = {0, 0, 0, 0};
    std::size_t i = begin;
    for (; i + 4 <= end; i += 4) {
      for (int k = 0; k < 4; ++k) a[k] += static_cast<double>(values[i + static_cast<std::size_t>(k)]);
    }
    for (; i < end; ++i) a[0] += static_cast<double>(values[i]);
    partial[t] = (a[0] + a[1]) + (a[2] + a[3]);
  });
  double total = 0;
  for (double p : partial) total += p;
  return total;
}

std::vector<std::int32_t> histogram(std::span<const std::int32_t> keys, int num_bins,
                                    int threads) {
  if (num_bins < 1) throw std::invalid_argument("histogram: num_bins must be >= 1");
  const int t_count = thread_count(keys.size(), threads);
  const auto bins = static_cast<std::size_t>(num_bins);
  // One private histogram per thread (the CPU's version of privatization), merged after.
  std::vector<std::vector<std::int64_t>> local(static_cast<std::size_t>(t_count),
                                               std::vector<std::int64_t>(bins, 0));
  std::vector<std::size_t> bad(static_cast<std::size_t>(t_count), keys.size());
  for_chunks(keys.size(), t_count, [&](std::size_t t, std::size_t begin, std::size_t end) {
    std::vector<std::int64_t>& mine = local[t];
    for (std::size_t i = begin; i < end; ++i) {
      const auto k = static_cast<std::uint32_t>(keys[i]);  // negative keys become huge
      if (k >= bins) {
        bad[t] = i;
        return;
      }
      ++mine[k];
    }
  });
  const std::size_t first_bad = *std::min_element(bad.begin(), bad.end());
  if (first_bad < keys.size()) {
    throw std::out_of_range("histogram: keys[" + std::to_string(first_bad) + "] = " +
                            std::to_string(keys[first_bad]) + " is outside [0, " +
                            std::to_string(num_bins) + ")");
  }
  std::vector<std::int32_t> out(bins, 0);
  for (std::size_t b = 0; b < bins; ++b) {
    std::int64_t c = 0;
    for (const auto& mine : local) c += mine[b];
    out[b] = static_cast<std::int32_t>(c);
  }
  return out;
}

}  // namespace lab04::cpu
