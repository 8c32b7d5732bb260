// Generator "sensor_logs": CSV files log_000.csv, log_001.csv, ... each starting with
// the header `timestamp,sensor,value`, then one reading per line:
//   1700000123456,3,23.457
// timestamp: int64 milliseconds, increasing within a file; sensor: 0..sensors-1;
// value: a double with at most 3 decimals, printed so it parses back exactly.
//
// Parameters (all optional):
//   files          = 16              number of files (>= 0)
//   rows           = 100000          data lines over all files, malformed ones included
//   skew           = "uniform"       file sizes: "uniform" (equal), "zipf" (the i-th
//                                    largest gets a share ~ 1/i^zipf_s) or "one_giant"
//                                    (half of all rows in one file, the rest equal)
//   zipf_s         = 1.0             zipf exponent, in [0, 10]
//   sensors        = 8               number of distinct sensors (>= 1)
//   malformed_rate = 0.0             probability that a data line is malformed, in [0, 1];
//                                    kinds, equally likely: non-numeric value ("n/a"),
//                                    empty value, trailing junk ("23.4C"), non-finite
//                                    ("nan", "inf"), a missing column, an extra column
//   blank_rate     = 0.0             probability of an extra blank line before a data
//                                    line, in [0, 1]; blank lines are not rows and not
//                                    malformed (they are skipped), and not counted in rows;
//                                    a blank line is empty or holds only spaces and tabs
//   crlf_rate      = 0.0             probability that a line (header included) ends with
//                                    "\r\n" (Windows) instead of "\n", in [0, 1]
//   pad_rate       = 0.0             probability that a data line's fields are padded
//                                    with spaces and tabs on either side, in [0, 1]
// Blank-line contents, line ends and padding come from a stream of their own, so a
// messy dataset holds the same values as the clean one with the same seed.
//   empty_files    = 0               how many of the files hold the header only
//   order          = "largest_first" which file names get the big files: "largest_first"
//                                    (log_000 is the largest, empty files last) or
//                                    "shuffled" (a seeded random order)
// Unknown parameters are rejected, so a typo is not silently ignored.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "generators.hpp"
#include "param_checks.hpp"
#include "portable_random.hpp"

namespace fs = std::filesystem;

namespace parlab::datasets {
namespace {

enum class Skew { uniform, zipf, one_giant };
enum class Order { largest_first, shuffled };

struct SensorLogParams {
  std::int64_t files = 16;
  std::int64_t rows = 100000;
  Skew skew = Skew::uniform;
  double zipf_s = 1.0;
  std::int64_t sensors = 8;
  double malformed_rate = 0.0;
  double blank_rate = 0.0;
  double crlf_rate = 0.0;
  double pad_rate = 0.0;
  std::int64_t empty_files = 0;
  Order order = Order::largest_first;
};

SensorLogParams read_params(const Params& p) {
  const ParamChecks c("sensor_logs", p);
  c.only_known({"files", "rows", "skew", "zipf_s", "sensors", "malformed_rate", "blank_rate",
                "crlf_rate", "pad_rate", "empty_files", "order"});
  SensorLogParams s;
  s.files = c.int_in("files", 0, 100000, s.files);
  s.rows = c.int_in("rows", 0, 1'000'000'000, s.rows);
  s.zipf_s = c.double_in("zipf_s", 0.0, 10.0, s.zipf_s);
  s.sensors = c.int_in("sensors", 1, 1'000'000, s.sensors);
  s.malformed_rate = c.double_in("malformed_rate", 0.0, 1.0, s.malformed_rate);
  s.blank_rate = c.double_in("blank_rate", 0.0, 1.0, s.blank_rate);
  s.crlf_rate = c.double_in("crlf_rate", 0.0, 1.0, s.crlf_rate);
  s.pad_rate = c.double_in("pad_rate", 0.0, 1.0, s.pad_rate);
  s.empty_files = c.int_in("empty_files", 0, s.files, s.empty_files);

  s.skew = c.one_of("skew", s.skew,
                    {{"uniform", Skew::uniform}, {"zipf", Skew::zipf}, {"one_giant", Skew::one_giant}});
  s.order = c.one_of("order", s.order,
                     {{"largest_first", Order::largest_first}, {"shuffled", Order::shuffled}});

  if (s.rows > 0 && s.files - s.empty_files == 0) {
    c.reject("rows", std::to_string(s.rows) + " rows cannot go into " + std::to_string(s.files) +
                         " files of which " + std::to_string(s.empty_files) +
                         " are empty; set rows = 0");
  }
  return s;
}

// Rows per non-empty file, largest first.
std::vector<std::int64_t> split_rows(const SensorLogParams& s) {
  const std::int64_t k = s.files - s.empty_files;
  std::vector<std::int64_t> sizes(static_cast<std::size_t>(k), 0);
  if (k == 0) return sizes;
  std::int64_t placed = 0;
  if (s.skew == Skew::uniform) {
    for (auto& n : sizes) placed += (n = s.rows / k);
  } else if (s.skew == Skew::zipf) {
    std::vector<double> weight(sizes.size());
    double total = 0;
    for (std::size_t i = 0; i < weight.size(); ++i) {
      total += (weight[i] = std::pow(static_cast<double>(i + 1), -s.zipf_s));
    }
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      sizes[i] = static_cast<std::int64_t>(static_cast<double>(s.rows) * weight[i] / total);
      placed += sizes[i];
    }
  } else if (k == 1) {
    placed = sizes[0] = s.rows;
  } else {
    placed = sizes[0] = s.rows - s.rows / 2;  // the giant: half, rounded up
    for (std::size_t i = 1; i < sizes.size(); ++i) placed += (sizes[i] = (s.rows / 2) / (k - 1));
  }
  // Hand out what rounding left over, one row each from the largest file down.
  for (std::size_t i = 0; placed < s.rows; i = (i + 1) % sizes.size(), ++placed) ++sizes[i];
  return sizes;
}

// Rows for each file name log_000, log_001, ... in order.
std::vector<std::int64_t> plan_files(const SensorLogParams& s, PortableRandom& rng) {
  std::vector<std::int64_t> plan = split_rows(s);
  plan.resize(static_cast<std::size_t>(s.files), 0);  // the empty files come last
  if (s.order == Order::shuffled) {
    for (std::size_t i = plan.size(); i > 1; --i) std::swap(plan[i - 1], plan[rng.below(i)]);
  }
  return plan;
}

struct Sensor {
  double base;
  double spread;
};

std::vector<Sensor> make_sensors(std::int64_t count, PortableRandom& rng) {
  std::vector<Sensor> sensors(static_cast<std::size_t>(count));
  for (Sensor& s : sensors) {
    s.base = rng.uniform(-20.0, 80.0);
    s.spread = rng.uniform(0.5, 5.0);
  }
  return sensors;
}

// Readings are rounded to 3 decimals (like a real sensor) so the text stays short.
double reading(const Sensor& s, PortableRandom& rng) {
  double x = s.base + s.spread * rng.approx_normal();
  if (rng.below(1000) == 0) x += s.spread * rng.uniform(-50.0, 50.0);  // a rare spike
  const double v = std::round(x * 1000.0) / 1000.0;
  return v == 0.0 ? 0.0 : v;  // never "-0"
}

// Appends text to a large buffer and writes it out in big chunks.
class CsvWriter {
 public:
  explicit CsvWriter(const fs::path& file) : file_(file), buffer_(kCapacity + kSlack) {
    f_ = std::fopen(file.c_str(), "wb");
    if (!f_) throw std::runtime_error("sensor_logs: cannot create " + file.string());
  }
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;
  ~CsvWriter() {
    if (f_) std::fclose(f_);
  }

  // Every line is far shorter than kSlack, so a line never overruns the buffer.
  void end_line() {
    put('\n');
    if (used_ >= kCapacity) flush();
  }
  void put(char c) { buffer_[used_++] = c; }
  void put(const char* text) {
    const std::size_t n = std::strlen(text);
    std::memcpy(buffer_.data() + used_, text, n);
    used_ += n;
  }
  template <class T>
  void put_number(T value) {
    char* begin = buffer_.data() + used_;
    used_ += static_cast<std::size_t>(std::to_chars(begin, begin + 64, value).ptr - begin);
  }

  void close() {
    flush();
    const int rc = std::fclose(f_);
    f_ = nullptr;
    if (rc != 0) fail();
  }

 private:
  static constexpr std::size_t kCapacity = 1 << 20;
  static constexpr std::size_t kSlack = 4096;

  void flush() {
    if (std::fwrite(buffer_.data(), 1, used_, f_) != used_) fail();
    used_ = 0;
  }
  [[noreturn]] void fail() {
    throw std::runtime_error("sensor_logs: cannot write " + file_.string() + ": " +
                             std::strerror(errno));
  }

  fs::path file_;
  std::vector<char> buffer_;
  std::size_t used_ = 0;
  std::FILE* f_ = nullptr;
};

// What makes a file hard to parse without changing its values: blank lines of
// whitespace, Windows line ends, padded fields. Drawn from its own random stream.
class Mess {
 public:
  Mess(const SensorLogParams& s, std::uint64_t seed)
      : crlf_rate_(s.crlf_rate), pad_rate_(s.pad_rate), rng_(seed) {}

  void end_line(CsvWriter& out) {
    if (crlf_rate_ > 0 && rng_.uniform01() < crlf_rate_) out.put('\r');
    out.end_line();
  }
  void blank_line(CsvWriter& out) {
    static const char* const kBlanks[] = {"", "", " ", "\t", "  \t "};
    out.put(kBlanks[rng_.below(5)]);
    end_line(out);
  }
  // Decides once per line whether its fields are padded.
  bool pad_this_line() { return pad_rate_ > 0 && rng_.uniform01() < pad_rate_; }
  void pad(CsvWriter& out) {
    static const char* const kPads[] = {" ", "\t", "  ", " \t"};
    out.put(kPads[rng_.below(4)]);
  }

 private:
  double crlf_rate_, pad_rate_;
  PortableRandom rng_;
};

// One data line, malformed in one of six ways with probability malformed_rate.
void put_row(CsvWriter& out, std::int64_t timestamp, std::int64_t sensor, double value,
             double malformed_rate, PortableRandom& rng, Mess& mess) {
  static const char* const kNotNumbers[] = {"n/a", "NA", "null", "error", "--"};
  static const char* const kNotFinite[] = {"nan", "inf", "-inf", "NaN", "Infinity"};
  const int kind = rng.uniform01() < malformed_rate ? static_cast<int>(rng.below(6)) : -1;
  const bool padded = mess.pad_this_line();
  // Every field is written between `open` and `close`: padding when this line has it.
  auto open = [&] { if (padded) mess.pad(out); };
  auto close = open;
  auto comma = [&] { close(); out.put(','); open(); };

  open();
  out.put_number(timestamp);
  comma();
  if (kind == 4) {  // missing column: the sensor is left out
    out.put_number(value);
  } else {
    out.put_number(sensor);
    comma();
    switch (kind) {
      case 0:
        out.put(kNotNumbers[rng.below(5)]);
        break;
      case 1:
        break;  // empty value
      case 2:
        out.put_number(value);
        out.put('C');
        break;
      case 3:
        out.put(kNotFinite[rng.below(5)]);
        break;
      case 5:
        out.put_number(value);
        comma();
        out.put("ok");
        break;
      default:
        out.put_number(value);
        break;
    }
  }
  close();
  mess.end_line(out);
}

void write_log_file(const fs::path& file, std::int64_t rows, const SensorLogParams& s,
                    const std::vector<Sensor>& sensors, PortableRandom& rng, Mess& mess) {
  CsvWriter out(file);
  out.put("timestamp,sensor,value");
  mess.end_line(out);
  std::int64_t timestamp = 1'700'000'000'000 + static_cast<std::int64_t>(rng.below(86'400'000));
  for (std::int64_t r = 0; r < rows; ++r) {
    if (s.blank_rate > 0 && rng.uniform01() < s.blank_rate) mess.blank_line(out);
    timestamp += 1 + static_cast<std::int64_t>(rng.below(2000));
    const auto sensor = static_cast<std::int64_t>(rng.below(sensors.size()));
    const double value = reading(sensors[static_cast<std::size_t>(sensor)], rng);
    put_row(out, timestamp, sensor, value, s.malformed_rate, rng, mess);
  }
  out.close();
}

std::string file_name(std::size_t index, std::size_t count) {
  // Zero-padded so that sorting the names gives index order.
  const std::size_t width =
      std::max<std::size_t>(3, std::to_string(count > 0 ? count - 1 : 0).size());
  std::string digits = std::to_string(index);
  return "log_" + std::string(width - digits.size(), '0') + digits + ".csv";
}

}  // namespace

void generate_sensor_logs(const Params& params, std::uint64_t seed, const fs::path& out_dir) {
  const SensorLogParams s = read_params(params);
  PortableRandom layout(seed);
  const std::vector<std::int64_t> plan = plan_files(s, layout);
  const std::vector<Sensor> sensors = make_sensors(s.sensors, layout);
  for (std::size_t i = 0; i < plan.size(); ++i) {
    // Each file has its own stream, so a file's contents do not depend on the others.
    PortableRandom rng(mix_seed(seed ^ mix_seed(i + 1)));
    Mess mess(s, mix_seed(mix_seed(seed ^ mix_seed(i + 1)) ^ 0x6d657373));  // "mess"
    write_log_file(out_dir / file_name(i, plan.size()), plan[i], s, sensors, rng, mess);
  }
}

}  // namespace parlab::datasets
