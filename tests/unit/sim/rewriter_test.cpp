// parlab-sim-rewrite: launches, shared declarations, comments and strings, line numbers.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "parlab_sim/rewrite.hpp"
#include "parlab_sim/source_names.hpp"

namespace {

std::string rewrite(const std::string& source) {
  const parlab_sim::RewriteResult result = parlab_sim::rewrite_cuda_source(source, "lab.cu");
  INFO(result.text);
  CHECK(result.errors.empty());
  const std::string header = "#line 1 \"lab.cu\"\n";
  REQUIRE(result.text.substr(0, header.size()) == header);
  return result.text.substr(header.size());
}

std::string launch(const std::string& name, const std::string& callee, const std::string& config,
                   const std::string& args) {
  return "::parlab_sim::launch(\"" + name + "\", [&](auto&&... parlab_sim_args) { " + callee +
         "(parlab_sim_args...); }, ::parlab_sim::launch_config(" + config + ")" +
         (args.empty() ? "" : "," + args) + ")";
}

long lines(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }

}  // namespace

TEST_CASE("a plain launch becomes a parlab_sim::launch call", "[sim][rewrite]") {
  CHECK(rewrite("vec_add<<<blocks, 256>>>(a, b, n);") ==
        launch("vec_add", "vec_add", "blocks, 256", "a, b, n") + ";");
  CHECK(rewrite("k<<<g, b, shared_bytes, stream>>>();") ==
        launch("k", "k", "g, b, shared_bytes, stream", "") + ";");
}

TEST_CASE("template kernels keep their template arguments", "[sim][rewrite]") {
  CHECK(rewrite("reduce<float, 256><<<g, b, 256 * sizeof(float)>>>(in, out);") ==
        launch("reduce<float, 256>", "reduce<float, 256>", "g, b, 256 * sizeof(float)", "in, out") +
            ";");
  CHECK(rewrite("ns::k<std::pair<int, int>, (N > 2)><<<1, 1>>>(x);") ==
        launch("ns::k<std::pair<int, int>, (N > 2)>", "ns::k<std::pair<int, int>, (N > 2)>", "1, 1",
               "x") +
            ";");
  CHECK(rewrite("::global_k<T><<<1, 1>>>(x);") ==
        launch("::global_k<T>", "::global_k<T>", "1, 1", "x") + ";");
}

TEST_CASE("nested brackets and macros in the configuration and arguments", "[sim][rewrite]") {
  const std::string source =
      "k<<<dim3((n + 255) / 256, m[2]), BLOCK(16, 16), SHMEM>>>(f(a, g(b)), arr[idx(1, 2)], "
      "Pair{1, 2}, ARG(x));";
  CHECK(rewrite(source) == launch("k", "k", "dim3((n + 255) / 256, m[2]), BLOCK(16, 16), SHMEM",
                                  "f(a, g(b)), arr[idx(1, 2)], Pair{1, 2}, ARG(x)") +
                               ";");
}

TEST_CASE("a NULL argument becomes nullptr", "[sim][rewrite]") {
  CHECK(rewrite("k<<<1, 1>>>(NULL, x, NULL);") == launch("k", "k", "1, 1", "nullptr, x, nullptr") + ";");
  CHECK(rewrite("k<<<1, 1>>>(f(NULL), x == NULL);") ==
        launch("k", "k", "1, 1", "f(NULL), x == NULL") + ";");
}

TEST_CASE("several launches on one line", "[sim][rewrite]") {
  CHECK(rewrite("a<<<1, 2>>>(x); b<float><<<3, 4>>>(y); if (c) d<<<5, 6>>>(z);") ==
        launch("a", "a", "1, 2", "x") + "; " + launch("b<float>", "b<float>", "3, 4", "y") +
            "; if (c) " + launch("d", "d", "5, 6", "z") + ";");
}

TEST_CASE("<<< and >>> inside comments, strings and characters are left alone",
          "[sim][rewrite]") {
  const std::string source =
      "printf(\"k<<<1, 1>>>(x) \\\" <<<\");  // k<<<1, 1>>>(x)\n"
      "/* k<<<1, 1>>>(x)\n   more */ char c = '<'; const char* r = R\"x(<<<a>>>)x\";\n"
      "int big = 1'000'000; auto s = u8\"<<<\";\n";
  CHECK(rewrite(source) == source);
}

TEST_CASE("line breaks anywhere inside a launch keep later lines in place", "[sim][rewrite]") {
  const std::string source =
      "  k <<< grid ,\n"
      "        block /* threads */ >>> (\n"
      "      a,\n"
      "      b) ;\n"
      "int after = __LINE__;\n";
  const std::string out = rewrite(source);
  CHECK(lines(out) == lines(source));
  CHECK(out.substr(out.rfind("int after")) == "int after = __LINE__;\n");
  CHECK(out.find("::parlab_sim::launch(\"k\"") != std::string::npos);
  CHECK(out.find("::parlab_sim::launch_config( grid ,\n        block /* threads */ ),\n      a,\n      b)") !=
        std::string::npos);
}

TEST_CASE("function pointers and member expressions can be launched", "[sim][rewrite]") {
  CHECK(rewrite("(*kernel_pointer)<<<1, 32>>>(x);") ==
        launch("(*kernel_pointer)", "(*kernel_pointer)", "1, 32", "x") + ";");
  CHECK(rewrite("table[i]<<<1, 32>>>(x);") == launch("table[i]", "table[i]", "1, 32", "x") + ";");
}

TEST_CASE("a launch inside a macro definition stays inside it", "[sim][rewrite]") {
  const std::string source = "#define RUN(k, x) k<<<1, \\\n  32>>>(x)\nint y;\n";
  const std::string out = rewrite(source);
  CHECK(lines(out) == lines(source));
  CHECK(out.find("#define RUN(k, x) ::parlab_sim::launch(\"k\"") == 0);
  CHECK(out.substr(out.rfind('\n', out.size() - 2) + 1) == "int y;\n");
}

TEST_CASE("extern __shared__ becomes the block's dynamic shared memory", "[sim][rewrite]") {
  CHECK(rewrite("__global__ void k() {\n  extern __shared__ float s[];\n}\n") ==
        "__global__ void k() {\n  float* const s = "
        "static_cast<float*>(::parlab_sim::dynamic_shared_memory(\"s\"));\n}\n");
  CHECK(rewrite("template <class T> __global__ void k(T* x) { extern __shared__ __align__(16) "
                "unsigned char raw[]; }") ==
        "template <class T> __global__ void k(T* x) { unsigned char* const raw = "
        "static_cast<unsigned char*>(::parlab_sim::dynamic_shared_memory(\"raw\")); }");
  CHECK(rewrite("__global__ void k() { extern volatile __shared__ T data[]; }") ==
        "__global__ void k() { volatile T* const data = "
        "static_cast<volatile T*>(::parlab_sim::dynamic_shared_memory(\"data\")); }");
}

TEST_CASE("a file-scope extern __shared__ becomes a macro", "[sim][rewrite]") {
  const std::string source =
      "extern __shared__ int buffer[];\n"
      "__global__ void k() { extern __shared__ int buffer[]; buffer[0] = 1; }\n";
  const std::string out = rewrite(source);
  CHECK(out.find("#define buffer (static_cast<int*>(::parlab_sim::dynamic_shared_memory(\"buffer\")))\n"
                 "#line 1 \"lab.cu\"\n") != std::string::npos);
  const std::string blanked(std::string("extern __shared__ int buffer[];").size(), ' ');
  CHECK(out.find("{ " + blanked + " buffer[0] = 1; }") != std::string::npos);
}

TEST_CASE("static __shared__ declarations in functions are counted", "[sim][rewrite]") {
  CHECK(rewrite("__global__ void k() { __shared__ float a[16][16], b[16]; a[0][0] = 1; }") ==
        "__global__ void k() { __shared__ float a[16][16], b[16]; "
        "PARLAB_SIM_STATIC_SHARED_VARS(PARLAB_SIM_SHARED_VAR(a), PARLAB_SIM_SHARED_VAR(b)); a[0][0] = 1; }");
  CHECK(rewrite("__device__ void f() { static __shared__ Pair<int, 2> p __align__(8); }") ==
        "__device__ void f() { " + std::string(6, ' ') + " __shared__ Pair<int, 2> p __align__(8); "
        "PARLAB_SIM_STATIC_SHARED_VARS(PARLAB_SIM_SHARED_VAR(p)); }");
  CHECK(rewrite("__global__ void k() __launch_bounds__(256) { __shared__ unsigned int n; }") ==
        "__global__ void k() __launch_bounds__(256) { __shared__ unsigned int n; "
        "PARLAB_SIM_STATIC_SHARED_VARS(PARLAB_SIM_SHARED_VAR(n)); }");
  CHECK(rewrite("namespace lab { __shared__ float file_scope[8]; }") ==
        "namespace lab { __shared__ float file_scope[8]; }");
}

TEST_CASE("extern __shared__ in every order nvcc accepts is dynamic shared memory",
          "[sim][rewrite]") {
  const std::string floats =
      "float* const smem = static_cast<float*>(::parlab_sim::dynamic_shared_memory(\"smem\"));";
  for (const std::string declaration :
       {"extern float __shared__ smem[];", "extern __shared__ float smem[];",
        "__shared__ extern float smem[];", "float extern __shared__ smem[];",
        "float __shared__ extern smem[];", "__shared__ float extern smem[];",
        "extern __shared__ __align__(16) float smem[];", "extern __shared__ float smem[] __align__(16);",
        "__device__ extern __shared__ float smem[];"}) {
    INFO(declaration);
    CHECK(rewrite("__global__ void k() { " + declaration + " }") == "__global__ void k() { " + floats + " }");
  }
  CHECK(rewrite("__global__ void k() { extern unsigned int __shared__ counts[]; }") ==
        "__global__ void k() { unsigned int* const counts = "
        "static_cast<unsigned int*>(::parlab_sim::dynamic_shared_memory(\"counts\")); }");
  CHECK(rewrite("__global__ void k() { extern ns::Pair<int, 2> __shared__ pairs[]; }") ==
        "__global__ void k() { ns::Pair<int, 2>* const pairs = "
        "static_cast<ns::Pair<int, 2>*>(::parlab_sim::dynamic_shared_memory(\"pairs\")); }");
  const std::string file_scope = rewrite("extern float __shared__ buffer[];\n");
  CHECK(file_scope.find("#define buffer (static_cast<float*>(::parlab_sim::dynamic_shared_memory(\"buffer\")))") !=
        std::string::npos);
}

TEST_CASE("static __shared__ in every order nvcc accepts loses its static and is counted",
          "[sim][rewrite]") {
  const std::string counted = " PARLAB_SIM_STATIC_SHARED_VARS(PARLAB_SIM_SHARED_VAR(s));";
  const std::string gone(6, ' ');
  CHECK(rewrite("__global__ void k() { float __shared__ s[8]; }") ==
        "__global__ void k() { float __shared__ s[8];" + counted + " }");
  CHECK(rewrite("__global__ void k() { __shared__ static float s[8]; }") ==
        "__global__ void k() { __shared__ " + gone + " float s[8];" + counted + " }");
  CHECK(rewrite("__global__ void k() { float static __shared__ s[8]; }") ==
        "__global__ void k() { float " + gone + " __shared__ s[8];" + counted + " }");
  CHECK(rewrite("__global__ void k() { __shared__ __align__(16) float s[8]; }") ==
        "__global__ void k() { __shared__ __align__(16) float s[8];" + counted + " }");
  CHECK(rewrite("__global__ void k() { volatile __shared__ int s; }") ==
        "__global__ void k() { volatile __shared__ int s;" + counted + " }");
  // The run stops at the statement before: a label, a brace, a semicolon.
  CHECK(rewrite("__global__ void k() { int n = 1; float __shared__ s[8]; }") ==
        "__global__ void k() { int n = 1; float __shared__ s[8];" + counted + " }");
}

TEST_CASE("Windows line endings and a byte-order mark are handled", "[sim][rewrite]") {
  const std::string source = "\xEF\xBB\xBFint a;\r\nk<<<1,\r\n 2>>>(x);\r\nint b;\r\n";
  const std::string out = rewrite(source);
  CHECK(out.substr(0, 6) == "int a;");
  CHECK(lines(out) == lines(source));
  CHECK(out.find("::parlab_sim::launch_config(1,\r\n 2),x);\r\nint b;") != std::string::npos);
}

TEST_CASE("launches the rewriter cannot read are reported with their line", "[sim][rewrite]") {
  const auto result = parlab_sim::rewrite_cuda_source("int x;\nk<<<1, 1>>>;\nj<<<1, 1;\n", "lab.cu");
  REQUIRE(result.errors.size() == 2);
  CHECK(result.errors[0] == "lab.cu:2: kernel launch without an argument list: expected ( after >>>");
  CHECK(result.errors[1] == "lab.cu:3: kernel launch <<< without a matching >>>");
}

TEST_CASE("a file in a folder registers the folder as a source root before its #line",
          "[sim][rewrite]") {
  const parlab_sim::RewriteResult result =
      parlab_sim::rewrite_cuda_source("int x;\n", "/build/src/lab.cu");
  CHECK(result.text == "PARLAB_SIM_SOURCE_ROOT(\"/build/src/\")\n#line 1 \"/build/src/lab.cu\"\nint x;\n");
}

TEST_CASE("run-time reports name files relative to a registered source root", "[sim][rewrite]") {
  using parlab_sim::detail::register_source_root;
  using parlab_sim::detail::source_display_name;
  CHECK(std::string(source_display_name("/stage-x/lab.cu")) == "/stage-x/lab.cu");
  register_source_root("/stage-x/");
  register_source_root("/stage-x/");  // twice is once
  CHECK(std::string(source_display_name("/stage-x/lab.cu")) == "lab.cu");
  CHECK(std::string(source_display_name("/stage-x/kernels/reduce.cuh")) == "kernels/reduce.cuh");
  CHECK(std::string(source_display_name("/other/lab.cu")) == "/other/lab.cu");
  // A header in a sub-folder registers its own folder too; the stage's root wins,
  // whichever registered first.
  register_source_root("/stage-y/common/");
  register_source_root("/stage-y/");
  CHECK(std::string(source_display_name("/stage-y/common/helpers.cuh")) == "common/helpers.cuh");
}

TEST_CASE("an inline PTX statement builds and stops its run as needing a GPU, an asm label is refused",
          "[sim][rewrite]") {
  const parlab_sim::RewriteResult result = parlab_sim::rewrite_cuda_source(
      "__device__ unsigned lane() {\n  unsigned id;\n  asm volatile(\"mov.u32 %0, %%laneid;\"\n"
      "      : \"=r\"(id));\n  return id;\n}\nint asm_count = 0;  // an identifier is fine\n",
      "lab.cu");
  CHECK(result.errors.empty());
  CHECK(result.text.find("PARLAB_SIM_INLINE_PTX()") != std::string::npos);
  CHECK(result.text.find("laneid") == std::string::npos);
  // The lines after it keep their numbers: the two lines of the statement stay two.
  const std::size_t replaced = result.text.find("PARLAB_SIM_INLINE_PTX()");
  const std::size_t next = result.text.find("return id;");
  CHECK(std::count(result.text.begin() + replaced, result.text.begin() + next, '\n') == 2);
}

TEST_CASE("an asm label on a declaration is refused with its line", "[sim][rewrite]") {
  const parlab_sim::RewriteResult result =
      parlab_sim::rewrite_cuda_source("int x;\nregister int pinned asm(\"r1\");\n", "lab.cu");
  REQUIRE(result.errors.size() == 1);
  CHECK_THAT(result.errors[0], Catch::Matchers::StartsWith("lab.cu:2: inline PTX (asm) outside a "
                                                           "statement is not supported"));
}
