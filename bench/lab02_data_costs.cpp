// What the lab02 handout's "Parsing vs computing" quotes (not a test): for one dataset
// of the lab, the time to read it from CSV text (fast-cpp-csv-parser), to read it from
// the binary arrays, and to compute the predictions once with all cores (nw_cpu).
//   build/bench/lab02_data_costs [N M D]      (default: 20000 4000 3, the perf test's data)
// Medians of 5 runs each; the files are in the page cache (warm), as in the grader.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <libfccp/csv.h>
#include <string>
#include <thread>
#include <vector>

#include "nw_cpu.hpp"
#include "parlab/datasets/generator.hpp"
#include "regression_problem.hpp"

namespace fs = std::filesystem;

namespace {

template <class Work>
double median_seconds(Work&& work) {
  std::vector<double> s;
  for (int i = 0; i < 5; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    work();
    s.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(s.begin(), s.end());
  return s[2];
}

// d = 3 only: fast-cpp-csv-parser fixes the column count at compile time.
std::vector<float> parse_csv(const fs::path& file) {
  io::CSVReader<4> in(file.string());
  in.read_header(io::ignore_extra_column, "x0", "x1", "x2", "y");
  std::vector<float> values;
  float x0, x1, x2, y;
  while (in.read_row(x0, x1, x2, y)) values.insert(values.end(), {x0, x1, x2, y});
  return values;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string n = argc > 1 ? argv[1] : "20000", m = argc > 2 ? argv[2] : "4000";
  if (argc > 3 && std::string(argv[3]) != "3") {
    std::fprintf(stderr, "only d = 3 (the CSV reader's column count is fixed)\n");
    return 2;
  }
  const fs::path dir = fs::temp_directory_path() / "parlab-lab02-data-costs";
  fs::remove_all(dir);
  fs::create_directories(dir);
  parlab::Params params({{"n", n}, {"m", m}, {"d", "3"}, {"format", "both"}});
  parlab::datasets::find_generator("regression_data")->generate(params, 301, dir);

  std::size_t rows = 0;
  const double csv = median_seconds([&] {
    rows = (parse_csv(dir / "train.csv").size() + parse_csv(dir / "query.csv").size()) / 4;
  });
  lab02::Data data;
  const double binary = median_seconds([&] { data = lab02::load_data(dir); });
  const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::vector<double> y_hat(static_cast<std::size_t>(data.m));
  const lab02::reference::Problem p{data.train_x.data(), data.train_y.data(), data.n,
                                    data.query_x.data(), data.m, data.d};
  const double compute = median_seconds([&] { lab02::reference::predict_parallel(p, 0.2, y_hat.data(), threads); });
  std::printf("lab02 data costs: n = %s, m = %s, d = 3 (%zu rows, %.1f MB of CSV, %.1f MB binary)\n",
              n.c_str(), m.c_str(), rows,
              (fs::file_size(dir / "train.csv") + fs::file_size(dir / "query.csv")) / 1e6,
              4.0 * (data.train_x.size() + data.train_y.size() + data.query_x.size() + data.query_y.size()) / 1e6);
  std::printf("| step | median of 5 |\n|---|---|\n");
  std::printf("| parse CSV (fast-cpp-csv-parser) | %.1f ms |\n", csv * 1e3);
  std::printf("| read binary arrays | %.1f ms |\n", binary * 1e3);
  std::printf("| predictions, %d threads (nw_cpu, h = 0.2) | %.1f ms |\n", threads, compute * 1e3);
  fs::remove_all(dir);
  return 0;
}
