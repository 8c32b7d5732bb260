// `grade report RESULT.json --format F [-o FILE]`: every format is derived from the
// canonical JSON (DESIGN invariant 7), so any saved result can be re-rendered.
#include <unistd.h>

#include <boost/program_options.hpp>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/terminal_width.hpp"
#include "core/errors.hpp"
#include "cli/output_paths.hpp"
#include "report/reporter.hpp"
#include "result/result_json.hpp"
#include "util/atomic_write.hpp"

namespace po = boost::program_options;

namespace parlab::grader {

int run_report_command(const std::vector<std::string>& args) {
  std::string format_names;  // from the reporters' table
  for (std::string_view name : reporter_names())
    format_names += (format_names.empty() ? "" : " | ") + std::string(name);
  po::options_description visible("grade report RESULT_JSON options");
  visible.add_options()("help,h", "show this help")(
      "format,f", po::value<std::string>()->default_value("console"), format_names.c_str())(
      "output,o", po::value<std::string>(), "write to this file instead of stdout");
  po::options_description all = visible;
  all.add_options()("result", po::value<std::string>(), "result.json");
  po::positional_options_description positional;
  positional.add("result", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(std::string(e.what()) + " (see grade report --help)");
  }
  if (vm.count("help")) {
    std::cout << "usage: grade report RESULT_JSON [--format F] [-o FILE]\n\n" << visible;
    return kExitAllPassed;
  }
  if (!vm.count("result")) throw UsageError("grade report needs a result.json file");
  if (vm.count("output")) require_writable_output(vm["output"].as<std::string>(), "--output");
  const std::string path = vm["result"].as<std::string>();
  std::ifstream in(path);
  if (!in) throw UsageError("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  GradeResult result;
  try {
    result = grade_result_from_json_text(text.str());
  } catch (const std::exception& e) {
    throw UsageError(path + ": " + e.what());
  }
  std::unique_ptr<Reporter> reporter;
  try {
    ReportOptions options;
    options.full_report = path;  // the console's verdict names the file it came from
    if (!vm.count("output")) options.width = report_width(terminal_columns(STDOUT_FILENO));
    reporter = make_reporter(vm["format"].as<std::string>(), options);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  std::string out = reporter->render(result);
  if (vm.count("output")) {
    write_report_file(vm["output"].as<std::string>(), out);
  } else {
    std::cout << out;
  }
  return kExitAllPassed;
}

}  // namespace parlab::grader
