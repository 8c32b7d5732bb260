#pragma once
// Lab 04's CPU reference: the source of every expected output. Multi-threaded (the
// input is split into one contiguous chunk per thread, each thread reduces its chunk,
// the partial results are combined), and exact: max and histogram are integer work,
// and the sum is accumulated in double.
#include <cstdint>
#include <span>
#include <vector>

namespace lab04::cpu {

// threads <= 0: std::thread::hardware_concurrency(). Each function uses at most one
// thread per 64Ki elements (starting threads costs more than small inputs save).
int max_value(std::span<const std::int32_t> values, int threads);

// Sum of float values in double: every float is exact in double, and double's 53-bit
// significand keeps the rounding error of up to 2^28 additions far below the float
// result's own precision, so this is the "true" sum the GPU's float sum is compared to.
double sum(std::span<const float> values, int threads);

// bins[b] = number of keys equal to b. Throws std::out_of_range naming the first key
// outside [0, num_bins).
std::vector<std::int32_t> histogram(std::span<const std::int32_t> keys, int num_bins,
                                    int threads);

}  // namespace lab04::cpu
