#include <algorithm>
#include <iostream>
#include <regex>

#include "cli/commands.hpp"
#include "core/errors.hpp"

namespace parlab::grader {
namespace {

int run_version(const std::vector<std::string>&) {
  std::cout << "grade (parlab) " << PARLAB_VERSION << "\n";
  return kExitAllPassed;
}

void print_usage(std::ostream& out);
int run_help(const std::vector<std::string>&);

constexpr Command kCommands[] = {
    {"list", "list the labs with title, kind and points", run_list_command},
    {"report", "render a result.json in another format", run_report_command},
    {"batch", "grade a whole class, here or on Slurm (grade batch --help)", run_batch_command},
    {"similarity", "copying checks across a class (grade similarity --help)", run_similarity_command},
    {"export", "a Gradescope autograder or a student kit (grade export --help)", run_export_command},
    {"version", "print the version", run_version},
    {"help", "show this help", run_help},
};

void print_usage(std::ostream& out) {
  out << "usage: grade LAB [SUBMISSION_DIR] [options]   grade a submission (e.g. grade lab01)\n"
               "       grade COMMAND [options]\n\ncommands:\n";
  // The summaries line up two spaces after the longest name.
  std::size_t width = 0;
  for (const Command& c : kCommands) width = std::max(width, c.name.size());
  for (const Command& c : kCommands) {
    out << "  " << c.name << std::string(width + 2 - c.name.size(), ' ') << c.summary << "\n";
  }
  out << "\n`grade LAB --help` lists the grading options.\n"
         "exit codes: 0 all tests passed, 1 some test failed, 2 usage or spec error,\n"
         "            3 environment problem, 4 internal error, 5 nothing failed but a\n"
         "            measurement was inconclusive (re-run)\n";
}

int run_help(const std::vector<std::string>&) {
  print_usage(std::cout);
  return kExitAllPassed;
}

}  // namespace

std::span<const Command> commands() { return kCommands; }

int run_cli(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.empty()) {
      print_usage(std::cerr);  // a usage error: stdout stays empty
      return kExitUsage;
    }
    const std::string first = args.front();
    std::vector<std::string> rest(args.begin() + 1, args.end());
    if (first == "--help" || first == "-h") return run_help(rest);
    if (first == "--version") return run_version(rest);
    for (const Command& c : kCommands) {
      if (c.name == first) return c.run(rest);
    }
    static const std::regex lab_id(R"(lab\d+)");
    if (std::regex_match(first, lab_id)) return run_grade_command(first, rest);
    throw UsageError("unknown command or lab '" + first + "' (see grade --help; labs: grade list)");
  } catch (const ToolError& e) {
    std::cerr << "grade: error: " << e.what() << "\n";
    return e.code();
  } catch (const std::exception& e) {
    std::cerr << "grade: error: internal: " << e.what() << "\n";
    return kExitInternal;
  } catch (...) {
    std::cerr << "grade: error: internal: unknown exception\n";
    return kExitInternal;
  }
}

}  // namespace parlab::grader
