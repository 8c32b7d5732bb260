#include "sim_test_support.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "config/runtime_settings.hpp"
#include "startup/start_up.hpp"

namespace sim_test {

ChildOutcome run_in_child(const std::function<void()>& body) {
  int pipe_fds[2];
  REQUIRE(pipe(pipe_fds) == 0);
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    close(pipe_fds[0]);
    dup2(pipe_fds[1], STDERR_FILENO);
    close(pipe_fds[1]);
    body();
    std::fflush(stdout);
    _exit(0);
  }
  close(pipe_fds[1]);
  ChildOutcome outcome;
  std::array<char, 4096> buffer{};
  ssize_t n = 0;
  while ((n = read(pipe_fds[0], buffer.data(), buffer.size())) > 0) {
    outcome.stderr_text.append(buffer.data(), static_cast<std::size_t>(n));
  }
  close(pipe_fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  if (WIFEXITED(status)) outcome.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) outcome.signal = WTERMSIG(status);
  return outcome;
}

void set_setting(const char* name, const char* value) {
  // Loading removes the variables again: set every one this child asked for.
  static std::map<std::string, std::string> settings;
  settings[name] = value;
  for (const auto& [n, v] : settings) setenv(n.c_str(), v.c_str(), 1);
  parlab_sim::detail::load_runtime_settings_from_environment();
}

ProgramOutcome run_program(const std::string& name, const std::string& arguments) {
#ifndef PARLAB_SIM_PROGRAMS_DIR
  FAIL("PARLAB_SIM_PROGRAMS_DIR is not defined: sim/CMakeLists.txt wires it into unit_sim");
  return {};
#else
  const std::string command =
      std::string(PARLAB_SIM_PROGRAMS_DIR) + "/" + name + " " + arguments + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  ProgramOutcome outcome;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) outcome.output.append(buffer.data(), n);
  const int status = pclose(pipe);
  outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return outcome;
#endif
}

}  // namespace sim_test
