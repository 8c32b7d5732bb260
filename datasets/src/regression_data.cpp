// Generator "regression_data" (lab02, kernel regression): a train set and a held-out
// query set drawn from one noisy linear model
//   y = w.x + b + noise * e,   x uniform in [-1, 1]^d,   e ~ approx_normal (mean 0, sd 1)
// with weights w_i of magnitude uniform in [0.5, 2] and a random sign (no dimension is
// irrelevant) and a bias b uniform in [-1, 1]. The model is drawn from the seed and is
// not written out.
//   shape    i64 [n, m, d]
//   train_x  f32 n*d, row-major (point j is train_x[j*d .. j*d+d-1])
//   train_y  f32 n
//   query_x  f32 m*d, row-major
//   query_y  f32 m, the noisy truth (what R^2 is measured against)
// x is rounded to float once, when drawn; y is computed in double from those float x
// and rounded to float once. With format "csv" or "both" the same floats are also
// written as text to train.csv and query.csv: header "x0,x1,...,x{d-1},y", one row per
// point, each value in the shortest form that reads back to the same float (parse it
// as float: std::from_chars or strtof).
//
// Parameters:
//   n       = 2000      train points, in [1, 2^24]
//   m       = 500       query points, in [1, 2^24]
//   d       = 3         dimensions, in [1, 64]; n*d and m*d at most 2^26
//   noise   = 0.1       standard deviation of the noise, in [0, 10]
//   format  = "binary"  "binary", "csv" or "both"; the binary arrays are written always,
//                       so a driver can always read them
// The model, the train set and the query set come from separate streams of the seed, so
// the train set does not change with m (nor the query set with n). Every point draws its
// noise even when noise = 0, so noise changes y only, never x. Unknown parameters are
// rejected, so a typo is not silently ignored.
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "generators.hpp"
#include "parlab/harness/arrays.hpp"
#include "param_checks.hpp"
#include "portable_random.hpp"

namespace fs = std::filesystem;

namespace parlab::datasets {
namespace {

enum class Format { binary, csv, both };

struct RegressionParams {
  std::int64_t n = 2000;
  std::int64_t m = 500;
  std::int64_t d = 3;
  double noise = 0.1;
  Format format = Format::binary;
};

RegressionParams read_params(const Params& params) {
  const ParamChecks c("regression_data", params);
  c.only_known({"n", "m", "d", "noise", "format"});
  RegressionParams r;
  constexpr std::int64_t kMaxPoints = std::int64_t{1} << 24;
  r.n = c.int_in("n", 1, kMaxPoints, r.n);
  r.m = c.int_in("m", 1, kMaxPoints, r.m);
  r.d = c.int_in("d", 1, 64, r.d);
  constexpr std::int64_t kMaxElements = std::int64_t{1} << 26;
  if (r.n * r.d > kMaxElements) c.reject("n", "n*d must be at most 2^26 elements");
  if (r.m * r.d > kMaxElements) c.reject("m", "m*d must be at most 2^26 elements");
  r.noise = c.double_in("noise", 0.0, 10.0, r.noise);
  r.format = c.one_of("format", r.format,
                      {{"binary", Format::binary}, {"csv", Format::csv}, {"both", Format::both}});
  return r;
}

struct Model {
  std::vector<double> w;
  double b = 0;
};

Model make_model(std::int64_t d, PortableRandom& rng) {
  Model model;
  for (std::int64_t i = 0; i < d; ++i) {
    const double magnitude = rng.uniform(0.5, 2.0);
    model.w.push_back(rng.below(2) ? magnitude : -magnitude);
  }
  model.b = rng.uniform(-1.0, 1.0);
  return model;
}

struct PointSet {
  std::vector<float> x;  // count*d, row-major
  std::vector<float> y;  // count
};

PointSet draw_points(const Model& model, std::int64_t count, double noise, PortableRandom& rng) {
  const std::size_t d = model.w.size();
  PointSet s{std::vector<float>(static_cast<std::size_t>(count) * d),
             std::vector<float>(static_cast<std::size_t>(count))};
  for (std::size_t j = 0; j < s.y.size(); ++j) {
    double y = model.b;
    for (std::size_t i = 0; i < d; ++i) {
      // Rounded to float here, once; y is computed from the float the files hold, so
      // with noise = 0 the stored points lie on the model up to y's own rounding.
      const float x = static_cast<float>(rng.uniform(-1.0, 1.0));
      s.x[j * d + i] = x;
      y += model.w[i] * static_cast<double>(x);
    }
    s.y[j] = static_cast<float>(y + noise * rng.approx_normal());
  }
  return s;
}

// Writes a CSV file through a buffer flushed in large chunks (the file may be GBs).
class CsvFile {
 public:
  explicit CsvFile(fs::path file) : file_(std::move(file)), f_(std::fopen(file_.c_str(), "wb")) {
    if (!f_) fail("cannot create");
    buffer_.reserve(kFlushAt + 4096);
  }
  CsvFile(const CsvFile&) = delete;
  CsvFile& operator=(const CsvFile&) = delete;
  ~CsvFile() {
    if (f_) std::fclose(f_);
  }

  void put(const std::string& text) { buffer_ += text; }
  void put(float value) {
    char text[32];  // the shortest float text is at most 15 characters
    buffer_.append(text, std::to_chars(text, text + sizeof text, value).ptr);
  }
  void end_line() {
    buffer_ += '\n';
    if (buffer_.size() >= kFlushAt) flush();
  }
  void close() {
    flush();
    const int rc = std::fclose(f_);
    f_ = nullptr;
    if (rc != 0) fail("cannot write");
  }

 private:
  static constexpr std::size_t kFlushAt = std::size_t{1} << 20;

  void flush() {
    if (std::fwrite(buffer_.data(), 1, buffer_.size(), f_) != buffer_.size()) fail("cannot write");
    buffer_.clear();
  }
  [[noreturn]] void fail(const char* what) {
    throw std::runtime_error(std::string("regression_data: ") + what + " " + file_.string() +
                             ": " + std::strerror(errno));
  }

  fs::path file_;
  std::FILE* f_;
  std::string buffer_;
};

void write_csv(const fs::path& file, const PointSet& s, std::int64_t d) {
  CsvFile out(file);
  for (std::int64_t i = 0; i < d; ++i) out.put("x" + std::to_string(i) + ",");
  out.put("y");
  out.end_line();
  const auto dim = static_cast<std::size_t>(d);
  for (std::size_t j = 0; j < s.y.size(); ++j) {
    for (std::size_t i = 0; i < dim; ++i) {
      out.put(s.x[j * dim + i]);
      out.put(",");
    }
    out.put(s.y[j]);
    out.end_line();
  }
  out.close();
}

}  // namespace

void generate_regression_data(const Params& params, std::uint64_t seed, const fs::path& out_dir) {
  const RegressionParams r = read_params(params);
  PortableRandom model_rng(mix_seed(seed ^ 0x1));
  const Model model = make_model(r.d, model_rng);
  PortableRandom train_rng(mix_seed(seed ^ 0x2));
  const PointSet train = draw_points(model, r.n, r.noise, train_rng);
  PortableRandom query_rng(mix_seed(seed ^ 0x3));
  const PointSet query = draw_points(model, r.m, r.noise, query_rng);

  // OutputWriter creates out_dir and lists only its arrays in manifest.json; the CSV
  // files beside them are ignored by read_array, like sensor_logs' files.
  harness::OutputWriter out(out_dir);
  const std::vector<std::int64_t> shape = {r.n, r.m, r.d};
  out.write("shape", std::span<const std::int64_t>(shape));
  out.write("train_x", std::span<const float>(train.x));
  out.write("train_y", std::span<const float>(train.y));
  out.write("query_x", std::span<const float>(query.x));
  out.write("query_y", std::span<const float>(query.y));
  if (r.format != Format::binary) {
    write_csv(out_dir / "train.csv", train, r.d);
    write_csv(out_dir / "query.csv", query, r.d);
  }
  out.finish();
}

}  // namespace parlab::datasets
