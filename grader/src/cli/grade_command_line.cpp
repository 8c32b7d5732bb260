#include "cli/grade_command_line.hpp"

#include <boost/program_options.hpp>
#include <sstream>
#include <stdexcept>

#include "cli/sandbox_level.hpp"
#include "core/errors.hpp"
#include "report/reporter.hpp"

namespace po = boost::program_options;

namespace parlab::grader {
namespace {

po::options_description grade_options() {
  po::options_description o("grade LAB [SUBMISSION_DIR] options");
  o.add_options()
      ("help,h", "show this help")
      ("reference", "grade the reference solution as if it were a submission (checks a lab)");
  // One --flag per report format grade writes, from the reporters' table.
  for (const ReportFormat& format : report_formats()) {
    if (format.written_by_grade.empty()) continue;
    o.add_options()(std::string(format.name).c_str(), po::value<std::string>(),
                    ("write " + std::string(format.written_by_grade) + " to this file").c_str());
  }
  o.add_options()
      ("no-perf", "correctness tests only; performance tests are reported as not graded")
      ("only", po::value<std::vector<std::string>>()->composing(),
       "grade only this test (repeat for more; quote names with spaces), with the correctness "
       "tests its speed needs; the others are reported as not graded")
      ("device", po::value<std::string>()->default_value("auto"),
       "GPU labs: auto (the GPU if one is usable, else the simulator) | gpu | sim | none")
      ("language", po::value<std::string>(), "the submission's track: cpp | python (default: "
                                             "the one whose sources the folder holds)")
      ("seed", po::value<std::string>(), "seed of the fresh dataset (repeat a grading)")
      ("work-dir", po::value<std::string>(), "where builds, runs and caches go "
                                               "(default: BUILD_DIR/grade-work as root, else "
                                               "$XDG_CACHE_HOME/parlab or ~/.cache/parlab)")
      ("toolchain", po::value<std::string>(), "compile/toolchain.json to use")
      ("wall-limit", po::value<double>(), "cap every test's wall-clock limit at this many "
                                          "seconds (quick checks of slow submissions)")
      ("sandbox", po::value<std::string>(), "auto (bubblewrap when it works, else rlimits, said in "
                                            "the report) | require (exit 3 without bubblewrap) | "
                                            "off; default auto, require with --gradescope")
      ("keep-runs", "keep the run folders after grading (debugging; no disk quota then)")
      ("color", po::value<std::string>()->default_value("auto"), "auto | always | never")
      ("verbose,v", "progress lines and details for passing tests");
  return o;
}

// A seed is a plain non-negative integer: "-5" is refused, not read modulo 2^64.
std::uint64_t parse_seed(const std::string& text) {
  const bool digits_only = !text.empty() && text.size() <= 19 &&
                           text.find_first_not_of("0123456789") == std::string::npos;
  if (!digits_only) {
    throw UsageError("--seed must be a whole number from 0 to 9999999999999999999, got '" + text + "'");
  }
  return std::stoull(text);
}

Track parse_language(const std::string& text) {
  try {
    return track_from_string(text);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--language: ") + e.what());
  }
}

std::string checked_color(const std::string& mode) {
  if (mode != "auto" && mode != "always" && mode != "never")
    throw UsageError("--color must be auto, always or never, got '" + mode + "'");
  return mode;
}

po::variables_map read_arguments(const std::string& lab_id, const std::vector<std::string>& args) {
  po::options_description all = grade_options();
  all.add_options()("submission", po::value<std::string>(), "submission folder");
  po::positional_options_description positional;
  positional.add("submission", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(std::string(e.what()) + " (see grade " + lab_id + " --help)");
  }
  return vm;
}

std::optional<std::string> text_of(const po::variables_map& vm, const char* name) {
  if (!vm.count(name)) return std::nullopt;
  return vm[name].as<std::string>();
}

}  // namespace

std::optional<std::string> GradeCommandLine::report_file(const std::string& format) const {
  for (const ReportFile& file : report_files) {
    if (file.format == format) return file.path;
  }
  return std::nullopt;
}

GradeCommandLine parse_grade_command_line(const std::string& lab_id,
                                          const std::vector<std::string>& args) {
  const po::variables_map vm = read_arguments(lab_id, args);
  GradeCommandLine c;
  c.lab_id = lab_id;
  c.help = vm.count("help") > 0;
  if (c.help) return c;
  c.submission = text_of(vm, "submission");
  c.reference_mode = vm.count("reference") > 0;
  if (c.reference_mode && c.submission)
    throw UsageError("give either --reference or a SUBMISSION_DIR, not both");
  c.performance = vm.count("no-perf") == 0;
  if (vm.count("only")) c.only = vm["only"].as<std::vector<std::string>>();
  c.device = parse_device_request(vm["device"].as<std::string>());
  if (vm.count("language")) c.language = parse_language(vm["language"].as<std::string>());
  if (vm.count("seed")) c.seed = parse_seed(vm["seed"].as<std::string>());
  c.work_dir = text_of(vm, "work-dir");
  c.toolchain = text_of(vm, "toolchain");
  if (vm.count("wall-limit")) {
    c.wall_limit = vm["wall-limit"].as<double>();
    if (!(*c.wall_limit > 0)) throw UsageError("--wall-limit must be > 0 seconds");
  }
  for (const ReportFormat& format : report_formats()) {
    const std::string name(format.name);
    if (!format.written_by_grade.empty() && vm.count(name))
      c.report_files.push_back({name, vm[name].as<std::string>()});
  }
  // Autograder uploads are graded unattended: never silently with a weaker sandbox.
  // A Gradescope score is the whole lab's: a partial grading must never become one.
  if (!c.only.empty() && c.report_file("gradescope"))
    throw UsageError("--only grades part of the lab; --gradescope writes a score for the whole lab: "
                     "give one or the other");
  c.sandbox_level = checked_sandbox_level(
      vm.count("sandbox") ? vm["sandbox"].as<std::string>()
                          : (c.report_file("gradescope") ? "require" : "auto"));
  c.keep_runs = vm.count("keep-runs") > 0;
  c.color = checked_color(vm["color"].as<std::string>());
  c.verbose = vm.count("verbose") > 0;
  return c;
}

std::string grade_command_help(const std::string& lab_id) {
  std::ostringstream out;
  out << "usage: grade " << lab_id << " [SUBMISSION_DIR] [options]\n"
      << "Grades SUBMISSION_DIR (default: the lab's skeleton).\n\n" << grade_options();
  return out.str();
}

}  // namespace parlab::grader
