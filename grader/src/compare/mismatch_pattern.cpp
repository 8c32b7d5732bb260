#include "compare/mismatch_pattern.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "compare/comparator.hpp"

namespace parlab::grader {
namespace {

// Block sizes a kernel's last partial tile or block is usually cut at.
constexpr std::int64_t kTileSizes[] = {8, 16, 32};
constexpr std::int64_t kBlockSizes[] = {32, 64, 128, 256, 512, 1024};

// The drivers poison outputs with every byte 0xFF (a NaN) before the call: a value
// with all bits set in its own type was never written; a NaN computed by 0/0 differs.
// (For integers the same bytes read -1.)
bool is_poison(double v, harness::DType dtype) {
  if (dtype == harness::DType::i32 || dtype == harness::DType::i64) return v == -1.0;
  if (!std::isnan(v)) return false;
  if (dtype == harness::DType::f32) {
    return std::bit_cast<std::uint32_t>(static_cast<float>(v)) == 0xFFFFFFFFu;
  }
  return std::bit_cast<std::uint64_t>(v) == ~std::uint64_t{0};
}

// The simulator fills shared memory with its own NaN word (sim/src/lane/shared_poison.hpp),
// not the outputs' all-ones poison: a value computed from shared memory never stored
// to carries it into the output (NaN arithmetic keeps the payload), sign aside. A
// double read of it, quieted or not, keeps the word in its low half.
bool is_shared_poison(double v, harness::DType dtype) {
  if (!std::isnan(v)) return false;
  constexpr std::uint32_t kWord = 0x7FF5A5A5u;
  if (dtype == harness::DType::f32) {
    return (std::bit_cast<std::uint32_t>(static_cast<float>(v)) & 0x7FFFFFFFu) == kWord;
  }
  return (std::bit_cast<std::uint64_t>(v) & 0xFFFFFFFFu) == kWord;
}

struct Facts {
  std::vector<std::uint64_t> bad;  // indices that differ
  std::uint64_t from_shared = 0;   // NaNs carrying the simulator's shared-memory poison
  bool all_poison = true, any_computed_nan = false, all_above = true, all_below = true, all_close = true;
};

Facts collect(const harness::NamedArray& e, const harness::NamedArray& g,
              const ComparatorSpec& spec, bool exact) {
  Facts f;
  const bool tolerant = !exact && spec.kind != ComparatorSpec::Kind::exact;
  for (std::size_t i = 0; i < e.values.size(); ++i) {
    const double want = e.values[i], have = g.values[i];
    if (values_match(want, have, spec, e.dtype, exact)) continue;
    f.bad.push_back(i);
    const bool nan = std::isnan(have);
    const bool poison = is_poison(have, g.dtype);  // the type the program wrote
    const bool shared = is_shared_poison(have, g.dtype);
    f.all_poison &= poison;
    f.from_shared += shared ? 1 : 0;
    f.any_computed_nan |= nan && !poison && !shared;
    f.all_above &= !nan && have > want;
    f.all_below &= !nan && have < want;
    const double bound = spec.kind == ComparatorSpec::Kind::ulp
                             ? 0.0
                             : spec.atol + spec.rtol * std::fabs(want);
    f.all_close &= tolerant && !nan && std::isfinite(want) && bound > 0 &&
                   std::fabs(have - want) <= 100 * bound;
  }
  return f;
}

// Matrix: the smallest tile T for which every mismatch lies in the rows or columns
// past the last multiple of T (the partial tile), with at least one full tile in
// each direction.
std::string edge_detail(const Facts& f, std::int64_t rows, std::int64_t columns) {
  for (std::int64_t t : kTileSizes) {
    const std::int64_t row_edge = rows % t ? rows - rows % t : rows;
    const std::int64_t col_edge = columns % t ? columns - columns % t : columns;
    // Some partial tile, and at least one full tile in each direction to compare with.
    if ((row_edge == rows && col_edge == columns) || row_edge == 0 || col_edge == 0) continue;
    const bool inside = std::all_of(f.bad.begin(), f.bad.end(), [&](std::uint64_t i) {
      const auto r = static_cast<std::int64_t>(i) / columns;
      const auto c = static_cast<std::int64_t>(i) % columns;
      return r >= row_edge || c >= col_edge;
    });
    if (!inside) continue;
    std::string where;
    if (row_edge < rows) where += "rows >= " + std::to_string(row_edge);
    if (col_edge < columns) where += (where.empty() ? "" : " or ") + ("columns >= " + std::to_string(col_edge));
    return "only the partial last tile differs (" + where + ", past the last multiple of " +
           std::to_string(t) + ")";
  }
  return "";
}

std::string tail_detail(const Facts& f, std::int64_t count) {
  for (std::int64_t b : kBlockSizes) {
    const std::int64_t edge = count - count % b;
    if (count % b == 0 || edge == 0) continue;
    if (static_cast<std::int64_t>(f.bad.front()) >= edge) {
      return "only elements " + std::to_string(edge) + ".." + std::to_string(count - 1) +
             " differ (past the last multiple of " + std::to_string(b) + ")";
    }
  }
  return "";
}

}  // namespace

bool output_untouched(const harness::NamedArray& g) {
  if (g.values.empty()) return false;
  const auto is_zero = [](double v) { return v == 0.0; };
  const auto poisoned = [&](double v) { return is_poison(v, g.dtype); };
  return std::all_of(g.values.begin(), g.values.end(), is_zero) ||
         std::all_of(g.values.begin(), g.values.end(), poisoned);
}

std::string row_col_text(std::uint64_t index, std::int64_t columns) {
  const auto c = static_cast<std::uint64_t>(columns);
  return "row " + std::to_string(index / c) + ", col " + std::to_string(index % c);
}

namespace {

// Where the never-written elements are (`columns` > 0: a matrix of that width).
std::string unwritten_detail(const Facts& f, std::size_t count, std::int64_t columns) {
  const std::uint64_t first = f.bad.front(), last = f.bad.back();
  const std::string why = " never written (outputs are poisoned with NaN before the call, "
                          "-1 for integers, and these still hold it)";
  const std::string n = std::to_string(f.bad.size());
  if (f.bad.size() == count) return "all " + n + " elements were" + why;
  if (last - first + 1 != f.bad.size()) return n + " elements were" + why;
  std::string detail = "elements " + std::to_string(first) + ".." + std::to_string(last) + " (" +
                       n + ", one contiguous block) were" + why;
  if (columns > 0) detail += ", " + row_col_text(first, columns) + " to " + row_col_text(last, columns);
  return detail;
}

// A copy of n bytes where n elements were meant leaves exactly the elements from
// n / size on wrong: the first of them partly copied (any value), the rest poison.
std::string bytes_as_count_detail(const Facts& f, const harness::NamedArray& g) {
  const std::size_t count = g.values.size(), size = harness::dtype_size(g.dtype);
  const std::size_t first_wrong = count / size;
  if (count < 16 || first_wrong == 0 || f.bad.front() != first_wrong ||
      f.bad.size() != count - first_wrong) {
    return "";
  }
  const bool rest_poison = std::all_of(f.bad.begin() + 1, f.bad.end(), [&](std::uint64_t i) {
    return is_poison(g.values[i], g.dtype);
  });
  if (!rest_poison) return "";
  const std::string k = std::to_string(first_wrong);
  return "elements 0.." + std::to_string(first_wrong - 1) + " are right and every one from " + k +
         " = n / " + std::to_string(size) + " on differs (never written from " +
         std::to_string(first_wrong + 1) + " on): a copy of n bytes where n elements were meant? "
         "(a copy's size is in bytes: n * sizeof(element))";
}

std::string unloaded_shared_detail(const Facts& f) {
  const std::string which = f.from_shared == f.bad.size()
                                ? "all " + std::to_string(f.bad.size()) + " differing elements are"
                            : f.from_shared == 1
                                ? "1 of the " + std::to_string(f.bad.size()) + " differing elements is"
                                : std::to_string(f.from_shared) + " of the " +
                                      std::to_string(f.bad.size()) + " differing elements are";
  return which + " NaN computed from shared memory never stored to (the simulator starts every "
                 "block's shared memory as NaN; a GPU leaves garbage there): a value read before "
                 "it was loaded, or read without a __syncthreads() after the loads";
}

// The differing elements hold exactly the values expected there, in other places (at
// least two elements, no NaN): what results kept in the order they finished leave
// (imap_unordered, as_completed, a shared queue appended to), where the inputs' order
// was asked for. Sorted pairs match as values_match says, tolerance included.
std::string reordered_detail(const Facts& f, const harness::NamedArray& e,
                             const harness::NamedArray& g, const ComparatorSpec& spec, bool exact) {
  if (f.bad.size() < 2) return "";
  std::vector<double> want, have;
  for (std::uint64_t i : f.bad) {
    if (std::isnan(g.values[i]) || std::isnan(e.values[i])) return "";
    want.push_back(e.values[i]);
    have.push_back(g.values[i]);
  }
  std::sort(want.begin(), want.end());
  std::sort(have.begin(), have.end());
  for (std::size_t k = 0; k < want.size(); ++k) {
    if (!values_match(want[k], have[k], spec, e.dtype, exact)) return "";
  }
  return "the right values in the wrong places: the " + std::to_string(f.bad.size()) +
         " differing elements hold exactly the values expected at the others. Results kept "
         "in the order they finished (imap_unordered, as_completed, appending as they come), "
         "not in the order of their inputs?";
}

// Nothing computed at all (a skeleton's outputs): say so, and no hint about a cause
// the program cannot have yet (a '\r' line end, a step count, a guard).
MismatchPattern nothing_computed_pattern(const Facts& f, const harness::NamedArray& e) {
  MismatchPattern p;
  const std::string n = std::to_string(e.values.size());
  if (f.all_poison) {
    p.kinds = {"unwritten"};
    p.detail = "all " + n + " elements were never written (outputs are poisoned with NaN "
               "before the call, -1 for integers, and these still hold it): not implemented yet?";
  } else if (harness::is_integer_dtype(e.dtype) &&
             std::all_of(e.values.begin(), e.values.end(), [](double v) { return v < 0; })) {
    // Integer results all below 0 (no count is; a maximum or minimum is) and a 0 above
    // them: outputs arrive poisoned (-1), so something wrote the 0, and the likeliest
    // writer is a starting value no element could beat (a max begun with cudaMemset(0)).
    // Float zeros keep the reading below: a product whose K loop never ran is 0 too.
    p.detail = "every element is 0, above every expected value (all negative): a maximum "
               "that starts from 0 (cudaMemset(0), or = 0) never sees a larger element; "
               "start from the identity (INT_MIN, -INFINITY) or the first element. Or "
               "nothing was computed: a loop that never ran";
  } else {
    // Zeros are also what a loop that never ran leaves (lab05's K loop stopping
    // before a K smaller than its tile): said beside the skeleton's reading.
    p.detail = "every element is 0: not implemented yet? Or a loop that never ran (nothing "
               "was ever added)";
  }
  return p;
}

}  // namespace

MismatchPattern classify_mismatches(const harness::NamedArray& e, const harness::NamedArray& g,
                                    const ComparatorSpec& spec, bool exact,
                                    std::int64_t columns, bool nothing_computed) {
  MismatchPattern p;
  const Facts f = collect(e, g, spec, exact);
  if (f.bad.empty()) return p;
  const auto count = static_cast<std::int64_t>(e.values.size());
  const bool matrix = columns > 0 && count % columns == 0 && count / columns > 0;
  if (nothing_computed) return nothing_computed_pattern(f, e);
  if (std::string d = bytes_as_count_detail(f, g); !d.empty()) {
    p.kinds.push_back("bytes_as_count");
    p.detail = d;
  }
  if (f.all_poison) {
    p.kinds.push_back("unwritten");
    if (p.detail.empty()) p.detail = unwritten_detail(f, e.values.size(), matrix ? columns : 0);
  }
  if (f.from_shared > 0) {
    p.kinds.push_back("unloaded_shared");
    if (p.detail.empty()) p.detail = unloaded_shared_detail(f);
  }
  if (f.any_computed_nan) {
    p.kinds.push_back("nan");
    if (p.detail.empty()) {
      p.detail = "NaN computed by the program (0/0, inf - inf, sqrt of a negative), not the "
                 "poison of an unwritten element";
    }
  }
  if (std::string d = reordered_detail(f, e, g, spec, exact); !d.empty()) {
    p.kinds.push_back("reordered");
    if (p.detail.empty()) p.detail = d;
  }
  if (matrix) {
    if (std::string d = edge_detail(f, count / columns, columns); !d.empty()) {
      p.kinds.push_back("edge");
      p.detail += (p.detail.empty() ? "" : "; ") + d;  // where, even when unwritten
    }
  } else if (std::string d = tail_detail(f, count); !d.empty()) {
    p.kinds.push_back("tail");
    if (p.detail.empty()) p.detail = d;
  }
  if (f.all_close) {
    p.kinds.push_back("close");
    if (p.detail.empty()) p.detail = "every difference is within 100x the tolerance";
  }
  if (f.all_above) {
    p.kinds.push_back("too_large");
    if (p.detail.empty()) p.detail = "every differing value is larger than expected";
  }
  if (f.all_below) {
    p.kinds.push_back("too_small");
    if (p.detail.empty()) p.detail = "every differing value is smaller than expected";
  }
  p.kinds.push_back("any");
  return p;
}

std::string hint_for(const MismatchPattern& pattern,
                     const std::map<std::string, std::string>& hints) {
  for (const std::string& kind : pattern.kinds) {
    if (auto it = hints.find(kind); it != hints.end()) return it->second;
  }
  return "";
}

}  // namespace parlab::grader
