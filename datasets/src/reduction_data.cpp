// Generator "reduction_data" (lab04, atomics and reductions): three input arrays of the
// same length n, one per part of the lab, plus their shape.
//   ints   (i32, n)  values for the max reductions; never 0 and never -1 (the poison
//                    value of an int output), so an unwritten result cannot pass
//   floats (f32, n)  values for the sum; never 0
//   keys   (i32, n)  histogram keys in [0, bins)
//   shape  (i64, 2)  [n, bins]
//
// Parameters (all optional):
//   n      = 100000     elements, in [1, 2^28]
//   bins   = 256        histogram bins, in [1, 8192] (8192 int counters = 32 KiB, so a
//                       block's private copy fits in shared memory)
//   ints   = "mixed"    "mixed": uniform over all int32 except INT_MIN, 0 and -1;
//                       "negative": in [-10^9, -2] (a max that forgot to start from
//                       INT_MIN keeps the poison -1 and fails); "positive": [1, 10^9]
//   max_at = "random"   where the largest int sits: "random" (as drawn), "first" or
//                       "last" (the tail of the last, partial block must be read)
//   floats = "uniform"  "uniform": in [1, 2); "mixed": in [-1, 3) (signs mixed, positive
//                       sum); "spikes": uniform [1, 2) except every 65536th element,
//                       index 0 included, which is 2^26: summed one after the other in
//                       float, the small values after a spike vanish (each is below half
//                       an ulp of 2^26), while a tree adds them among themselves first
//   keys   = "uniform"  "uniform" over [0, bins); "skewed": 80% of the keys fall in 4
//                       hot bins (fewer when bins < 4) chosen by the seed, the rest
//                       uniform; "single": every key is the same seeded bin
//   only   = "all"      which arrays to write: "all", "ints", "floats" or "keys" (large
//                       performance datasets write only the one their test reads)
// Unknown parameters are rejected, so a typo is not silently ignored.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "generators.hpp"
#include "parlab/harness/arrays.hpp"
#include "param_checks.hpp"
#include "portable_random.hpp"

namespace parlab::datasets {
namespace {

enum class IntKind { mixed, negative, positive };
enum class MaxAt { random, first, last };
enum class FloatKind { uniform, mixed, spikes };
enum class KeyKind { uniform, skewed, single };
enum class Only { all, ints, floats, keys };

struct ReductionParams {
  std::int64_t n = 100000;
  std::int64_t bins = 256;
  IntKind ints = IntKind::mixed;
  MaxAt max_at = MaxAt::random;
  FloatKind floats = FloatKind::uniform;
  KeyKind keys = KeyKind::uniform;
  Only only = Only::all;
};

ReductionParams read_params(const Params& p) {
  const ParamChecks c("reduction_data", p);
  c.only_known({"n", "bins", "ints", "max_at", "floats", "keys", "only"});
  ReductionParams r;
  r.n = c.int_in("n", 1, std::int64_t{1} << 28, r.n);
  r.bins = c.int_in("bins", 1, 8192, r.bins);
  r.ints = c.one_of("ints", r.ints,
                    {{"mixed", IntKind::mixed}, {"negative", IntKind::negative},
                     {"positive", IntKind::positive}});
  r.max_at = c.one_of("max_at", r.max_at,
                      {{"random", MaxAt::random}, {"first", MaxAt::first}, {"last", MaxAt::last}});
  r.floats = c.one_of("floats", r.floats,
                      {{"uniform", FloatKind::uniform}, {"mixed", FloatKind::mixed},
                       {"spikes", FloatKind::spikes}});
  r.keys = c.one_of("keys", r.keys,
                    {{"uniform", KeyKind::uniform}, {"skewed", KeyKind::skewed},
                     {"single", KeyKind::single}});
  r.only = c.one_of("only", r.only,
                    {{"all", Only::all}, {"ints", Only::ints}, {"floats", Only::floats},
                     {"keys", Only::keys}});
  return r;
}

// Uniform in [lo, hi] (inclusive, hi - lo < 2^63).
std::int64_t between(PortableRandom& rng, std::int64_t lo, std::int64_t hi) {
  return lo + static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(hi - lo) + 1));
}

std::vector<std::int32_t> make_ints(const ReductionParams& r, PortableRandom& rng) {
  std::vector<std::int32_t> v(static_cast<std::size_t>(r.n));
  for (std::int32_t& x : v) {
    std::int64_t draw = 0;
    switch (r.ints) {
      case IntKind::mixed:
        do {
          draw = between(rng, INT_MIN + 1LL, INT_MAX);
        } while (draw == 0 || draw == -1);
        break;
      case IntKind::negative: draw = between(rng, -1'000'000'000, -2); break;
      case IntKind::positive: draw = between(rng, 1, 1'000'000'000); break;
    }
    x = static_cast<std::int32_t>(draw);
  }
  if (r.max_at != MaxAt::random) {
    // Swap the (first) largest value to the requested end: same multiset of values.
    const auto largest = std::max_element(v.begin(), v.end());
    std::iter_swap(largest, r.max_at == MaxAt::first ? v.begin() : v.end() - 1);
  }
  return v;
}

std::vector<float> make_floats(const ReductionParams& r, PortableRandom& rng) {
  std::vector<float> v(static_cast<std::size_t>(r.n));
  for (std::size_t i = 0; i < v.size(); ++i) {
    float x = 0;
    do {
      // double -> float rounds to nearest: the same bits on every IEEE machine.
      x = static_cast<float>(r.floats == FloatKind::mixed ? rng.uniform(-1.0, 3.0)
                                                          : rng.uniform(1.0, 2.0));
    } while (x == 0.0f);
    if (r.floats == FloatKind::spikes && i % 65536 == 0) x = 67108864.0f;  // 2^26
    v[i] = x;
  }
  return v;
}

std::vector<std::int32_t> make_keys(const ReductionParams& r, PortableRandom& rng) {
  const auto bins = static_cast<std::uint64_t>(r.bins);
  std::vector<std::uint64_t> hot;
  const std::uint64_t hot_count = std::min<std::uint64_t>(4, bins);
  while (hot.size() < hot_count) {
    const std::uint64_t b = rng.below(bins);
    if (std::find(hot.begin(), hot.end(), b) == hot.end()) hot.push_back(b);
  }
  std::vector<std::int32_t> v(static_cast<std::size_t>(r.n));
  for (std::int32_t& k : v) {
    std::uint64_t key = 0;
    switch (r.keys) {
      case KeyKind::uniform: key = rng.below(bins); break;
      case KeyKind::skewed:
        key = rng.below(5) < 4 ? hot[rng.below(hot_count)] : rng.below(bins);
        break;
      case KeyKind::single: key = hot[0]; break;
    }
    k = static_cast<std::int32_t>(key);
  }
  return v;
}

}  // namespace

void generate_reduction_data(const Params& params, std::uint64_t seed,
                             const std::filesystem::path& out_dir) {
  const ReductionParams r = read_params(params);
  harness::OutputWriter w(out_dir);
  // One independent stream per array, so "only" never changes an array's contents.
  if (r.only == Only::all || r.only == Only::ints) {
    PortableRandom rng(mix_seed(seed ^ 0x1));
    const std::vector<std::int32_t> ints = make_ints(r, rng);
    w.write("ints", std::span<const std::int32_t>(ints));
  }
  if (r.only == Only::all || r.only == Only::floats) {
    PortableRandom rng(mix_seed(seed ^ 0x2));
    const std::vector<float> floats = make_floats(r, rng);
    w.write("floats", std::span<const float>(floats));
  }
  if (r.only == Only::all || r.only == Only::keys) {
    PortableRandom rng(mix_seed(seed ^ 0x3));
    const std::vector<std::int32_t> keys = make_keys(r, rng);
    w.write("keys", std::span<const std::int32_t>(keys));
  }
  const std::int64_t shape[2] = {r.n, r.bins};
  w.write("shape", std::span<const std::int64_t>(shape, 2));
  w.finish();
}

}  // namespace parlab::datasets
