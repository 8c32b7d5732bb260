// Lab 02, Part 1: your solution on the CPU. Implement the three functions of api.hpp
// here (read api.hpp and README.md first). This file compiles and runs as given, but
// writes nothing: out and r2 keep the NaN the driver filled them with, and every test
// fails until you fill in the TODOs. Do them in order: each builds on the last.
//
// Build and test: grade lab02 path/to/this/dir
#include <cstdint>

#include "api.hpp"

// Headers you will likely want:
//   <cmath>     std::exp, std::isnan
//   <thread>    std::thread (or std::jthread, which joins by itself)
//   <atomic>    std::atomic<std::int64_t>, fetch_add
//   <vector>    per-block partial sums for the grid search
//   <algorithm> std::min, std::max, std::clamp

namespace lab02 {

void predict_serial(const Problem& p, float h, float* out) {
  // TODO(lab02) step 1: the definition of api.hpp, one query after the other.
  //  - Query i is p.query_x + i * p.d, train point j is p.train_x + j * p.d.
  //  - Compute in double: convert the floats when you read them.
  //  - Two passes per query: first the smallest squared distance d_min to any train
  //    point, then the sums of w_j and w_j * y_j with
  //        w_j = exp(-(d_j - d_min) / (2 h^2)).
  //    The nearest point gets w = 1, so the sum of weights is >= 1 and a tiny h gives
  //    the nearest point's y instead of 0/0 = NaN. out[i] = sum(w y) / sum(w).
  //  - exp(-t) is 0 in double anyway for t > 745, and glibc's exp is slow on results
  //    that underflow: skip the call there (small h hits this for most pairs).
  //  - Faster: ONE pass, keeping a running d_min and rescaling both sums by
  //    exp(-(d_min_old - d_min_new) / (2 h^2)) when a nearer point turns up.
  //  - Never store all the weights of a query, let alone an m x n matrix: a few
  //    doubles per query are all you need.
  (void)p, (void)h, (void)out;  // TODO(lab02): remove
}

void predict_parallel(const Problem& p, float h, float* out, int workers) {
  // TODO(lab02) step 2: the same predictions with `workers` std::thread workers.
  //  - Move the body of step 1 for ONE query into a function and call it from both.
  //  - Split the queries into blocks (say 16 queries) and hand them out dynamically:
  //    a shared std::atomic<std::int64_t> next_block; each worker loops
  //        for (b = next_block.fetch_add(1); b < blocks; b = next_block.fetch_add(1))
  //    and predicts the queries of block b. Each query is written by exactly one
  //    thread, so `out` needs no lock.
  //  - workers can be larger than the number of blocks (m = 1 is a test): never
  //    start more threads than there is work. Join every thread before returning.
  //  - The memory wall test gives you less memory than an m x n matrix: a worker
  //    needs a few doubles, not a row of weights per query.
  (void)p, (void)h, (void)out, (void)workers;  // TODO(lab02): remove
}

void grid_search(const Problem& p, const float* query_y, const float* bandwidths, int k,
                 double* r2, int workers) {
  // TODO(lab02) step 3: R^2 of the predictions for each of the k bandwidths.
  //  - Work items are (bandwidth, query block) pairs: k * blocks of them, handed out
  //    by an atomic counter as in step 2.
  //  - An item predicts its block's queries with its bandwidth (keep the predictions
  //    in double) and adds up (y_i - y_hat_i)^2 into ITS OWN slot of a
  //    std::vector<double> (k * blocks slots): no two threads write the same slot,
  //    so there is no race and no lock. After joining, add the slots of each
  //    bandwidth in order: the result is the same for any number of workers.
  //  - SS_tot = sum (y_i - mean y)^2 does not depend on h: compute it once.
  //  - r2[c] = 1 - SS_res / SS_tot. When SS_tot == 0 (every y_i equal): r2[c] = 1 if
  //    SS_res == 0, else 0.
  (void)p, (void)query_y, (void)bandwidths, (void)k, (void)r2, (void)workers;  // TODO(lab02): remove
}

}  // namespace lab02
