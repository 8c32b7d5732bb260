// compile/unchecked_code: what of a sim check build's preprocessed source the simulator's
// checks could not see, on the student's lines only.
#include "compile/unchecked_code.hpp"

#include <catch2/catch.hpp>

using parlab::grader::find_unchecked_code;

namespace {

// A preprocessed translation unit: the student's file, then a system header, then back.
std::string unit(const std::string& student_line, const std::string& header_line = "int x;") {
  return "# 1 \"build/sim/src/sim/lab.cu.cpp\"\n"
         "# 1 \"<built-in>\"\n"
         "# 1 \"build/sim/src/lab.cu\"\n"
         "int a;\n"
         "# 1 \"/usr/include/c++/12/vector\" 1 3\n" +
         header_line + "\n" +
         "# 3 \"build/sim/src/lab.cu\" 2\n"
         "\n" +
         student_line + "\n";
}

}  // namespace

TEST_CASE("every spelling of no_sanitize on the student's lines is found, with its line", "[compile][unchecked]") {
  for (const char* spelling :
       {"__attribute__((no_sanitize(\"thread\"))) void k(int* p) { *p = 1; }",
        "[[gnu::no_sanitize(\"thread\")]] void k(int* p) { *p = 1; }",
        "__attribute__((__no_sanitize__(\"thread\"))) void k();",
        "__attribute__((no_sanitize_thread)) void k();", "__attribute__((__no_sanitize_thread__)) void k();",
        "__attribute__((no_sanitize_coverage)) void k();"}) {
    const auto found = find_unchecked_code(unit(spelling), "build/sim/src");
    REQUIRE(found.has_value());
    CHECK(found->file == "build/sim/src/lab.cu");
    CHECK(found->line == 4);
    CHECK_FALSE(found->assembly);
  }
}

TEST_CASE("inline assembly on the student's lines is found, in a string, a comment-free raw string or a system header it is not",
          "[compile][unchecked]") {
  for (const char* spelling : {"void w(int* p) { asm volatile(\"movl $1, (%0)\" :: \"r\"(p)); }",
                               "void w() { __asm__(\"nop\"); }", "void w() { __asm (\"nop\"); }",
                               "asm(\".text\\nw: ret\");",
                               // A raw-string look-alike that is not one: the asm after it counts.
                               "const char* s = BAR\"(\"; asm(\"nop\"); const char* t = \")\";"}) {
    const auto found = find_unchecked_code(unit(spelling), "build/sim/src");
    REQUIRE(found.has_value());
    CHECK(found->assembly);
    CHECK(found->line == 4);
  }
  for (const char* clean : {"const char* s = \"asm no_sanitize\";", "const char* s = R\"x(asm \" no_sanitize)x\";",
                            "char c = 'a'; int asmx = 0; int my_no_sanitize_count = 1;", "int v = 1'000'000;"}) {
    CHECK_FALSE(find_unchecked_code(unit(clean), "build/sim/src").has_value());
  }
  // The same code in a system header or the simulator's: not the student's.
  CHECK_FALSE(find_unchecked_code(unit("int b;", "__attribute__((no_sanitize(\"thread\"))) void f(); "
                                                 "void g() { asm(\"nop\"); }"),
                                  "build/sim/src")
                  .has_value());
}

TEST_CASE("lines are counted across a multi-line raw string and a pragma", "[compile][unchecked]") {
  const std::string text =
      "# 1 \"stage/lab.cu\"\n"
      "const char* s = R\"(line 1\n"
      "line 2)\";\n"
      "#pragma GCC diagnostic push\n"
      "void w() { asm(\"nop\"); }\n";
  const auto found = find_unchecked_code(text, "stage");
  REQUIRE(found.has_value());
  CHECK(found->line == 4);  // the raw string is lines 1-2, the pragma line 3
}

TEST_CASE("the message names the file and line and says what to do", "[compile][unchecked]") {
  parlab::grader::UncheckedCode attribute{"stage/lab.cu", 14, "no_sanitize", false};
  CHECK_THAT(parlab::grader::unchecked_code_message(attribute, "lab.cu"),
             Catch::Contains("lab.cu:14: the attribute no_sanitize turns off") && Catch::Contains("Remove it"));
  parlab::grader::UncheckedCode assembly{"stage/helpers.hpp", 3, "asm", true};
  CHECK_THAT(parlab::grader::unchecked_code_message(assembly, "helpers.hpp"),
             Catch::Contains("helpers.hpp:3: inline assembly (asm)") && Catch::Contains(".cu or .cuh"));
}
