// `grade similarity LAB CLASS_DIR --out DIR` (docs/batch.md, "Similarity"): copying
// checks across a class with Debian's similarity-tester, offline.
#include <boost/program_options.hpp>
#include <iostream>

#include "cli/commands.hpp"
#include "compile/toolchain.hpp"
#include "core/errors.hpp"
#include "similarity/class_similarity.hpp"
#include "spec/lab_spec.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

po::options_description similarity_options() {
  po::options_description o("grade similarity LAB CLASS_DIR options");
  o.add_options()
      ("help,h", "this help")
      ("out", po::value<std::string>(), "output folder: index.html, pairs.csv, pairs.json, pairs/ (required)")
      ("roster", po::value<std::string>(), "CSV with columns folder,id[,name]: names the submissions (as grade batch)")
      ("flag-at", po::value<double>()->default_value(0.6), "pairs at or above this score get a page")
      ("min-run", po::value<int>()->default_value(24), "shortest match counted, in tokens (sim's -r)")
      ("base-min-run", po::value<int>()->default_value(12), "shortest match with the skeleton that is base code, in tokens")
      ("timeout", po::value<double>()->default_value(600), "seconds similarity-tester may run per track");
  return o;
}

}  // namespace

int run_similarity_command(const std::vector<std::string>& args) {
  po::options_description opts = similarity_options();
  po::options_description hidden;
  hidden.add_options()("positional", po::value<std::vector<std::string>>());
  po::options_description all;
  all.add(opts).add(hidden);
  po::positional_options_description pos;
  pos.add("positional", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
  } catch (const po::error& e) {
    throw UsageError(std::string(e.what()) + " (grade similarity --help)");
  }
  if (vm.count("help")) {
    std::cout << "usage: grade similarity LAB CLASS_DIR --out DIR\n" << opts;
    return 0;
  }
  auto positional = vm.count("positional") ? vm["positional"].as<std::vector<std::string>>() : std::vector<std::string>{};
  if (positional.size() != 2 || !vm.count("out")) {
    throw UsageError("usage: grade similarity LAB CLASS_DIR --out DIR (grade similarity --help)");
  }
  Toolchain toolchain = load_toolchain(default_toolchain_path());
  LabSpec lab = load_lab_spec(toolchain.lab(positional[0]).dir / "lab.toml");
  const fs::path out = fs::absolute(vm["out"].as<std::string>());
  similarity::SimilarityOptions o;
  o.flag_at = vm["flag-at"].as<double>();
  o.min_run = vm["min-run"].as<int>();
  o.base_min_run = vm["base-min-run"].as<int>();
  o.timeout_s = vm["timeout"].as<double>();
  if (vm.count("roster")) o.roster = fs::absolute(vm["roster"].as<std::string>());
  if (!(o.flag_at >= 0 && o.flag_at <= 1)) throw UsageError("--flag-at must be between 0 and 1");
  if (o.min_run < 1 || o.base_min_run < 1) throw UsageError("--min-run and --base-min-run must be at least 1");
  const auto s = similarity::run_class_similarity(lab, positional[1], out, o);
  std::cout << s.pairs << " pairs compared, " << s.flagged << " flagged; " << (out / "index.html").string() << "\n";
  for (const auto& n : s.not_compared) std::cout << "not compared: " << n << "\n";
  for (const auto& n : s.notes) std::cout << "note: " << n << "\n";
  return 0;
}

}  // namespace parlab::grader
