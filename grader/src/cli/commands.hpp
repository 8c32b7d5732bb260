#pragma once
// The `grade` command line: a plain table of subcommands (ninja's habit). `grade
// labNN ...` is shorthand for grading that lab.
#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace parlab::grader {

struct Command {
  std::string_view name;
  std::string_view summary;
  int (*run)(const std::vector<std::string>& args);
};

std::span<const Command> commands();

// Parses argv, runs the command, maps every tool error to its exit code and prints
// `grade: error: ...`. Never lets an exception escape.
int run_cli(int argc, char** argv);

int run_grade_command(const std::string& lab_id, const std::vector<std::string>& args);
int run_list_command(const std::vector<std::string>& args);
int run_report_command(const std::vector<std::string>& args);
int run_batch_command(const std::vector<std::string>& args);
int run_export_command(const std::vector<std::string>& args);
int run_similarity_command(const std::vector<std::string>& args);

}  // namespace parlab::grader
