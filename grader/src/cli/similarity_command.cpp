// `grade similarity LAB CLASS_DIR --out DIR` (docs/batch.md, "Similarity"): copying
// checks across a class with Debian's similarity-tester, offline.
#include <boost/program_options.hpp>
#include <iostream>

#include "cli/commands.hpp"
#include "compile/toolchain.hpp"
#include "core/errors.hpp"
#include "similarity/class_sources.hpp"
#include "similarity/pair_scores.hpp"
#include "similarity/similarity_report.hpp"
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
  const fs::path work = out / "work";  // the copies similarity-tester reads
  fs::remove_all(work);
  similarity::ClassSources sources = similarity::copy_class_sources(lab, positional[1], work);
  similarity::SimilarityResult result;
  result.flag_at = vm["flag-at"].as<double>();
  for (const auto& g : sources.groups) {
    if (g.submissions.size() < 2) continue;
    const double timeout = vm["timeout"].as<double>();
    auto runs = similarity::run_tester(g, vm["min-run"].as<int>(), false, timeout, work);
    auto base = similarity::run_tester(g, vm["base-min-run"].as<int>(), true, timeout, work);
    for (auto& p : similarity::score_pairs(g, runs, base)) result.pairs.push_back(std::move(p));
  }
  std::stable_sort(result.pairs.begin(), result.pairs.end(),
                   [](const auto& x, const auto& y) { return x.score > y.score; });
  similarity::write_similarity_report(sources, result, out);
  std::size_t flagged = 0;
  for (const auto& p : result.pairs) flagged += p.score >= result.flag_at ? 1 : 0;
  std::cout << result.pairs.size() << " pairs compared, " << flagged << " flagged; " << (out / "index.html").string()
            << "\n";
  for (const auto& s : sources.skipped) std::cout << "not compared: " << s << "\n";
  return 0;
}

}  // namespace parlab::grader
