#include <catch2/catch.hpp>

#include "compile/content_hash.hpp"
#include "compile/diagnostics.hpp"

using namespace parlab::grader;

TEST_CASE("gcc diagnostics point at the student's own files", "[build]") {
  std::string log =
      "/work/x/build/src/file_stats.cpp: In function 'int f()':\n"
      "/work/x/build/src/file_stats.cpp:12:5: error: expected ';' before 'return'\n"
      "/work/x/build/src/file_stats.cpp:3:1: warning: unused variable 'y' [-Wunused]\n"
      "In file included from x.cpp:1:\n"
      "/usr/include/c++/12/vector:10:2: note: declared here\n";
  auto d = parse_gcc_diagnostics(log, "/work/x/build/src", "/home/student/lab01");
  REQUIRE(d.size() == 3);
  CHECK(d[0].file == "/home/student/lab01/file_stats.cpp");
  CHECK(d[0].line == 12);
  CHECK(d[0].column == 5);
  CHECK(d[0].severity == "error");
  CHECK(d[0].message == "expected ';' before 'return'");
  CHECK(d[1].severity == "warning");
  CHECK(d[2].file == "/usr/include/c++/12/vector");
  CHECK_THAT(map_paths(log, "/work/x/build/src", "/s"), Catch::Contains("/s/file_stats.cpp:12:5"));
}

TEST_CASE("content hashes separate fields and change with content", "[build]") {
  CHECK(ContentHash().add("ab").add("c").value() != ContentHash().add("a").add("bc").value());
  CHECK(ContentHash().add("x").hex() == ContentHash().add("x").hex());
  CHECK(ContentHash().add("x").hex().size() == 16);
}

TEST_CASE("nvcc's device-code diagnostics are parsed too", "[build]") {
  std::string log =
      "/w/build/cuda/src/kernels.cu(14): error: identifier \"idx\" is undefined\n"
      "/w/build/cuda/src/kernels.cu(3): warning #177-D: variable \"n\" was declared but never "
      "referenced\n"
      "1 error detected in the compilation of \"/w/build/cuda/src/kernels.cu\".\n";
  auto d = parse_gcc_diagnostics(log, "/w/build/cuda/src", "/home/s/lab03");
  REQUIRE(d.size() == 2);
  CHECK(d[0].file == "/home/s/lab03/kernels.cu");
  CHECK(d[0].line == 14);
  CHECK(d[0].column == 0);
  CHECK(d[0].severity == "error");
  CHECK(d[0].message == "identifier \"idx\" is undefined");
  CHECK(d[1].severity == "warning");
}

TEST_CASE("the linker's undefined and multiple definitions are diagnostics too", "[build]") {
  std::string log =
      "/usr/bin/ld: /w/build/src/histogram.cu.o: in function `write_line()':\n"
      "/w/build/src/histogram.cu:57: undefined reference to `append(int)'\n"
      "/usr/bin/ld: /w/build/src/main.o: in function `main':\n"
      "file_stats.cpp:(.text.startup+0x3c): undefined reference to `count_words(char const*)'\n"
      "/usr/bin/ld: /w/build/src/b.o: in function `helper()':\n"
      "/w/build/src/b.cpp:4: multiple definition of `helper()'; /w/build/src/a.o:/w/build/src/a.cpp:9: first defined here\n"
      "/usr/bin/ld: /w/build/src/main.o: in function `report':\n"
      "file_stats.cpp:(.text+0x90): undefined reference to `count_words(char const*)'\n"
      "collect2: error: ld returned 1 exit status\n";
  auto d = parse_gcc_diagnostics(log, "/w/build/src", "/home/s/lab04");  // the second call: once
  REQUIRE(d.size() == 3);
  CHECK(d[0].file == "/home/s/lab04/histogram.cu");
  CHECK(d[0].line == 57);
  CHECK(d[0].column == 0);
  CHECK(d[0].severity == "error");
  CHECK(d[0].message == "undefined reference to `append(int)'");
  CHECK(d[1].file == "file_stats.cpp");  // no line table: the object's source name only
  CHECK(d[1].line == 0);
  CHECK(d[1].message == "undefined reference to `count_words(char const*)'");
  CHECK(d[2].file == "/home/s/lab04/b.cpp");
  CHECK(d[2].line == 4);
  CHECK_THAT(d[2].message, Catch::StartsWith("multiple definition of `helper()'"));
}

TEST_CASE("nvcc's error at the end of the file is a diagnostic, with the file of its note", "[build]") {
  const std::string log =
      "At end of source: error: expected a \"}\"\n"
      "/w/build/sim/src/matmul.cu(6): note #3196-D: to match this \"{\"\n"
      "  namespace {\n"
      "1 error detected in the compilation of \"/w/build/sim/src/matmul.cu\".\n";
  auto d = parse_gcc_diagnostics(log, "/w/build/sim/src", "/home/s/lab05");
  REQUIRE(d.size() == 2);
  CHECK(d[0].severity == "error");
  CHECK(d[0].message == "at the end of the file: expected a \"}\"");
  CHECK(d[0].file == "/home/s/lab05/matmul.cu");
  CHECK(d[1].severity == "note");
}
