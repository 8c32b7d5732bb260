#include <catch2/catch.hpp>

#include "batch/entry_path.hpp"

using namespace parlab::grader::batch;
using Catch::Matchers::Contains;

TEST_CASE("entry paths stay inside the submission folder") {
  CHECK(check_entry_path("file_stats.cpp").relative == "file_stats.cpp");
  CHECK(check_entry_path("./lab01/./file_stats.cpp").relative == "lab01/file_stats.cpp");
  CHECK(check_entry_path("lab01/").relative == "lab01");

  CHECK_THAT(check_entry_path("../evil.cpp").problem, Contains("'..'"));
  CHECK_THAT(check_entry_path("lab01/../../evil").problem, Contains("'..'"));
  CHECK_THAT(check_entry_path("/etc/cron.d/evil").problem, Contains("absolute path"));
  CHECK_THAT(check_entry_path("").problem, Contains("empty name"));
  CHECK(check_entry_path("./.").is_root());  // `tar -C dir .` writes "./"
  CHECK(check_entry_path("./").is_root());
  // A name that merely contains dots is fine.
  CHECK(check_entry_path("a..b/..c").ok());
}

TEST_CASE("symlink targets may not leave the link's folder tree") {
  CHECK(symlink_target_problem("file_stats.cpp").empty());
  CHECK(symlink_target_problem("sub/x.hpp").empty());
  CHECK(symlink_target_problem(".").empty());
  CHECK_THAT(symlink_target_problem("/etc/passwd"), Contains("absolute"));
  CHECK_THAT(symlink_target_problem("../../etc/passwd"), Contains(".."));
  // Lexically inside, but ".." through another link can climb out: refused too.
  CHECK_THAT(symlink_target_problem("a/.."), Contains(".."));
  CHECK_FALSE(symlink_target_problem("").empty());
}

TEST_CASE("archiver litter is recognised") {
  CHECK(is_archiver_litter("__MACOSX"));
  CHECK(is_archiver_litter("._file_stats.cpp"));
  CHECK(is_archiver_litter(".DS_Store"));
  CHECK_FALSE(is_archiver_litter("file_stats.cpp"));
  CHECK_FALSE(is_archiver_litter("._"));
}
