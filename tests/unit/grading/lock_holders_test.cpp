// A grading that has to wait for the measurement lock says for whom and since when.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <thread>

#include "grading/measurement_lock.hpp"

namespace fs = std::filesystem;
using namespace parlab::grader;

TEST_CASE("a wait for the measurement lock names the holder", "[lock]") {
  const fs::path dir = fs::temp_directory_path() / ("parlab-holders-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  const pid_t holder = ::fork();
  REQUIRE(holder >= 0);
  if (holder == 0) {  // another grading, measuring
    MeasurementLock lock(dir, std::nullopt, {}, "grade lab01 /home/ann/lab01");
    lock.take_exclusive();
    [[maybe_unused]] ssize_t n = ::write(ready[1], "x", 1);
    ::pause();
    ::_exit(0);
  }
  char byte;
  REQUIRE(::read(ready[0], &byte, 1) == 1);

  std::vector<std::string> holders = MeasurementLock::describe_holders(dir);
  REQUIRE(holders.size() == 1);
  CHECK(holders[0].find("pid " + std::to_string(holder)) != std::string::npos);
  CHECK(holders[0].find("grade lab01 /home/ann/lab01") != std::string::npos);
  CHECK(holders[0].find("measuring since") != std::string::npos);

  std::vector<std::string> notices;
  std::thread release([holder] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ::kill(holder, SIGKILL);
  });
  MeasurementLock mine(dir, std::nullopt, [&](const std::string& line) { notices.push_back(line); },
                       "grade lab01 /home/bob/lab01");
  mine.share();  // waits until the holder is gone
  release.join();
  ::waitpid(holder, nullptr, 0);
  REQUIRE(notices.size() == 1);
  CHECK(notices[0].find("waiting for the measurement lock") != std::string::npos);
  CHECK(notices[0].find("/home/ann/lab01") != std::string::npos);
  // A dead holder's line is not shown to the next waiter.
  CHECK(MeasurementLock::describe_holders(dir).empty());
  mine.release();
  fs::remove_all(dir);
}

TEST_CASE("no notice when the lock is free", "[lock]") {
  const fs::path dir = fs::temp_directory_path() / ("parlab-free-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  std::vector<std::string> notices;
  MeasurementLock lock(dir, std::nullopt, [&](const std::string& line) { notices.push_back(line); });
  lock.share();
  lock.take_exclusive();
  lock.release();
  CHECK(notices.empty());
  fs::remove_all(dir);
}
