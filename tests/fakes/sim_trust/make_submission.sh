#!/usr/bin/env bash
# make_submission.sh KIND DIR: a submission that tries to steer sim mode's checks from
# inside its own process (README.md here), made from the reference (and the
# lab04 race fakes) at test time so it stays correct as the labs move.
set -euo pipefail
kind=$1
dir=$2
here=$(cd "$(dirname "$0")" && pwd)
refs="$here/../../../reference"
fakes="$here/.."
mkdir -p "$dir"

# lab04 with the racy histogram (a plain ++ on shared counters) and `code` appended to it.
racy_histogram() {  # CODE
  bash "$fakes/make_fake.sh" lab04 lab04/histogram_race "$dir"
  printf '%s\n' "$1" >>"$dir/histogram.cu"
}

# lab03 with matrix_scale's threads laid out by `coalesced` (an expression a kernel can
# evaluate): along a row when true; else a warp's lanes spread over 8 rows and 4
# sectors of columns (32 sectors a request, the same elements in all).
cloaked_scale() {  # COALESCED-EXPRESSION [PRELUDE]
  cp "$refs/lab03-cuda-kernels/variants.cu" "$dir/"
  perl -0pe '
    s{  const int col = blockIdx.x \* blockDim.x \+ threadIdx.x;  // x along a row: coalesced\n  const int row = blockIdx.y \* blockDim.y \+ threadIdx.y;\n}{  const int l = threadIdx.y * blockDim.x + threadIdx.x;  // 0..255 in a 32 x 8 block\n  const bool coalesced = COALESCED;\n  const int col = blockIdx.x * blockDim.x + (coalesced ? threadIdx.x : ((l / 8) % 4) * 8 + l / 32);\n  const int row = blockIdx.y * blockDim.y + (coalesced ? threadIdx.y : l % 8);\n}
  ' "$refs/lab03-cuda-kernels/kernels.cu" >"$dir/kernels.cu"
  grep -q "const bool coalesced = COALESCED;" "$dir/kernels.cu"
  local expression=$1
  sed -i "s|COALESCED|$expression|" "$dir/kernels.cu"
  if [ $# -ge 2 ]; then
    # After the includes: the prelude the expression uses.
    perl -0pi -e 's{(#include "api.hpp"\n)}{$1 . $ENV{PRELUDE} . "\n"}e' "$dir/kernels.cu"
  fi
}

case "$kind" in
  unset_checks)
    # A constructor that removes the simulator's variables before main, as a student
    # who read the docs might: the race check must still run.
    racy_histogram '
#include <cstdlib>
__attribute__((constructor)) static void switch_the_checks_off() {
  for (const char* name : {"PARLAB_SIM_RACE_CHECK", "PARLAB_SIM_DIAGNOSTICS", "PARLAB_SIM_SCHEDULE",
                           "PARLAB_SIM_SEED", "PARLAB_SIM_COUNTERS", "PARLAB_SIM_COUNTERS_FILE"})
    unsetenv(name);
}'
    ;;
  early_constructor)
    # The same, with a constructor priority that would run before the simulator's own.
    racy_histogram '
#include <cstdlib>
__attribute__((constructor(101))) static void switch_the_checks_off_first() {
  unsetenv("PARLAB_SIM_RACE_CHECK");
}'
    ;;
  early_long_priority | early_ctors | early_init_section | early_orphan_init_array | early_ifunc_header)
    # Code the loader runs before the simulator's settings constructor, each start-up
    # path spelled past a check that reads names only as the compiler writes them, in a
    # plain header the rewriter never opens (inline asm included): a priority with more
    # digits, a .ctors entry, code in .init, an init array under another name, an IFUNC
    # resolver.
    racy_histogram '#include "early.hpp"'
    case "$kind" in
      early_long_priority) line='__attribute__((used, section(".init_array.0000050"))) static void (*parlab_fake_p)() = parlab_fake_early;' ;;
      early_ctors) line='__attribute__((used, section(".ctors"))) static void (*parlab_fake_p)() = parlab_fake_early;' ;;
      early_init_section) line='asm(".pushsection .init,\"ax\",@progbits\n\tcall parlab_fake_early\n\t.popsection");' ;;
      early_orphan_init_array) line='asm(".pushsection .parlab_start,\"aw\",@init_array\n\t.quad parlab_fake_early\n\t.popsection");' ;;
      early_ifunc_header) line='extern "C" void* parlab_fake_resolve() { parlab_fake_early(); return (void*)&parlab_fake_early; }
asm(".globl parlab_fake_chosen\n\t.type parlab_fake_chosen, @gnu_indirect_function\n\t.set parlab_fake_chosen, parlab_fake_resolve");
extern "C" void parlab_fake_chosen();
void (*volatile parlab_fake_keep)() = &parlab_fake_chosen;' ;;
    esac
    printf '%s\n' '#pragma once' '#include <cstdlib>' \
      'extern "C" void parlab_fake_early() { unsetenv("PARLAB_SIM_RACE_CHECK"); }' "$line" >"$dir/early.hpp"
    ;;
  order_probe)
    # lab04 sum zeroed by block 0 inside the kernel (right only when block 0 starts
    # first), and the safe path (zeroed by the host) when the first block to start is
    # the last one: the old reversed-order re-run.
    bash "$fakes/make_fake.sh" lab04 lab04/zeroed_in_kernel "$dir"
    perl -0pi -e '
      s{  if \(blockIdx.x == 0 && t == 0\) \*result = 0.0f;  // "block 0 starts first"\n}{  __shared__ bool reversed;\n  if (t == 0) reversed = atomicAdd(&g_started, 1u) == 0 && blockIdx.x == gridDim.x - 1;\n  __syncthreads();\n  if (!reversed && blockIdx.x == 0 && t == 0) *result = 0.0f;  // "block 0 starts first"\n};
      s{(\n__global__ void sum_block_kernel)}{\n__device__ unsigned g_started;\n$1};
      s{(void sum\(const float\* values, int n, float\* result\) \{\n)}{$1  const unsigned zero = 0;\n  cudaMemcpyToSymbol(g_started, &zero, sizeof zero);\n  cudaMemset(result, 0, sizeof(float));  // the safe path needs it; harmless otherwise\n};
    ' "$dir/sum_reduce.cu"
    grep -q "reversed = atomicAdd" "$dir/sum_reduce.cu"
    grep -q "cudaMemcpyToSymbol(g_started" "$dir/sum_reduce.cu"
    ;;
  counting_by_environment)
    # Coalesced only when the counting run's variable is in the environment.
    PRELUDE='#include <cstdlib>
__constant__ int g_counting;' cloaked_scale "g_counting != 0" prelude
    perl -0pi -e 's{(  matrix_scale_kernel<<<)}{  const int counting = std::getenv("PARLAB_SIM_COUNTERS") != nullptr;\n  cudaMemcpyToSymbol(g_counting, &counting, sizeof counting);\n$1}' "$dir/kernels.cu"
    grep -q "cudaMemcpyToSymbol(g_counting" "$dir/kernels.cu"
    ;;
  counting_in_sampled_blocks)
    # Coalesced only in the blocks the counters used to sample (the first two).
    cloaked_scale "blockIdx.y * gridDim.x + blockIdx.x < 2"
    ;;
  forged_counters)
    # Uncoalesced matrix_scale, and an exit handler (it runs before the simulator's
    # closing record) that rewrites the counters file with consistent, ideal numbers:
    # every request's sectors set to the ideal count.
    cloaked_scale "false"
    cat >>"$dir/kernels.cu" <<'CODE'
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
static void forge_the_counters() {
  std::ifstream in("out/sim-counters.jsonl");
  std::stringstream text;
  text << in.rdbuf();
  in.close();
  std::string forged, line;
  const std::regex ideal("\"global_ideal_sectors\": ([0-9]+)");
  const std::regex sectors("\"global_sectors\": [0-9]+");
  while (std::getline(text, line)) {
    std::smatch m;
    if (std::regex_search(line, m, ideal))
      line = std::regex_replace(line, sectors, "\"global_sectors\": " + m[1].str());
    forged += line + "\n";
  }
  std::ofstream("out/sim-counters.jsonl", std::ios::trunc) << forged;
}
__attribute__((constructor)) static void forge_at_exit() { std::atexit(forge_the_counters); }
CODE
    ;;
  hidden_findings)
    # The racy histogram, and an exit handler that removes the findings file, so the
    # race the simulator found is never read.
    racy_histogram '
#include <cstdio>
#include <cstdlib>
static void hide_the_findings() { std::remove("out/sim-findings.jsonl"); }
__attribute__((constructor)) static void hide_at_exit() { std::atexit(hide_the_findings); }'
    ;;
  honest_race)
    # The control: the racy histogram as it is.
    racy_histogram ''
    ;;
  calls_the_sealer)
    # The racy histogram, and a call to the simulator's own sealing function to append a
    # line of its choosing: the grader's copy of the runtime keeps that name private.
    racy_histogram '
#include <string_view>
namespace parlab_sim::sealed {
enum class Channel { findings, counters };
void append(Channel channel, std::string_view payload);
}
__attribute__((constructor)) static void write_a_sealed_line() {
  parlab_sim::sealed::append(parlab_sim::sealed::Channel::findings, "{}");
}'
    ;;
  replaces_memcpy)
    # The racy histogram, and its own memcpy (which the simulator runtime calls too): a
    # way to watch or change what the runtime copies, the report key included.
    racy_histogram '
#include <cstddef>
extern "C" void* memcpy(void* __restrict to, const void* __restrict from, std::size_t n) noexcept {
  auto* d = static_cast<unsigned char*>(to);
  const auto* s = static_cast<const unsigned char*>(from);
  for (std::size_t i = 0; i < n; ++i) d[i] = s[i];
  return to;
}'
    ;;
  locked_state_symtab | locked_state_proc_mem | locked_state_mprotect)
    # The racy histogram, and a default constructor that finds the runtime's checking
    # state (the race flag among it) through the executable's own symbol table, by the
    # names in parlab's source, and clears it: by a plain write, through
    # /proc/self/mem, or after an mprotect of its page.
    case "$kind" in
      locked_state_symtab) how='std::memset(at, 0, size);' ;;
      locked_state_proc_mem) how='const int mem = open("/proc/self/mem", O_RDWR);
  std::vector<unsigned char> zeros(size);
  if (mem >= 0) pwrite(mem, zeros.data(), size, (off_t)(uintptr_t)at);' ;;
      locked_state_mprotect) how='const uintptr_t page = (uintptr_t)at & ~(uintptr_t)4095;
  mprotect((void*)page, ((uintptr_t)at + size - page + 4095) & ~(uintptr_t)4095, PROT_READ | PROT_WRITE);
  std::memset(at, 0, size);' ;;
    esac
    racy_histogram "$(cat "$here/find_runtime_state.inc")
__attribute__((constructor)) static void parlab_fake_clear_the_checks() {
  unsigned char* at = nullptr;
  std::size_t size = 0;
  if (!parlab_fake_find_state(&at, &size)) return;
  $how
}"
    ;;
  patched_hooks)
    # The racy histogram, and a constructor (in a plain header: the rewriter leaves it as
    # written) that makes the code of the runtime's load and store hooks writable (their
    # names are public: instrumented code calls them) and writes a return at each one's
    # start, so that no access reaches the race check or the counters.
    racy_histogram '#include "patch.hpp"'
    cat >"$dir/patch.hpp" <<'CODE'
#pragma once
#include <sys/mman.h>
#include <cstdint>
#include <cstring>
#define PARLAB_FAKE_HOOK(n) \
  extern "C" void __tsan_read##n(void*); \
  extern "C" void __tsan_write##n(void*);
PARLAB_FAKE_HOOK(1) PARLAB_FAKE_HOOK(2) PARLAB_FAKE_HOOK(4) PARLAB_FAKE_HOOK(8) PARLAB_FAKE_HOOK(16)
static void parlab_fake_return_at(void (*function)(void*)) {
  const auto at = reinterpret_cast<std::uintptr_t>(function);
  const std::uintptr_t page = at & ~std::uintptr_t{4095};
  if (mprotect(reinterpret_cast<void*>(page), 8192, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) return;
  const unsigned char ret = 0xc3;
  std::memcpy(reinterpret_cast<void*>(at), &ret, 1);
}
__attribute__((constructor)) static void parlab_fake_patch_the_hooks() {
  using Hook = void (*)(void*);
  for (Hook hook : {Hook{__tsan_read1}, Hook{__tsan_write1}, Hook{__tsan_read2}, Hook{__tsan_write2},
                    Hook{__tsan_read4}, Hook{__tsan_write4}, Hook{__tsan_read8}, Hook{__tsan_write8},
                    Hook{__tsan_read16}, Hook{__tsan_write16}})
    parlab_fake_return_at(hook);
}
CODE
    ;;
  no_sanitize_pasted | header_assembly)
    # The racy histogram with its kernel's accesses kept from the check build's hooks:
    # the kernel marked no_sanitize("thread") through a token paste in a plain header (no
    # spelling of the attribute in any file), or its racy increment made by x86 inline
    # assembly in a plain header (which the rewriter never opens). The race check and the
    # counters would hear of no access.
    racy_histogram ''
    case "$kind" in
      no_sanitize_pasted)
        printf '%s\n' '#pragma once' '#define PARLAB_FAKE_CAT(a, b) a##b' \
          '#define PARLAB_FAKE_QUIET __attribute__((PARLAB_FAKE_CAT(no_, sanitize)("thread")))' >"$dir/quiet.hpp"
        perl -0pi -e 's{^__global__ void histogram_kernel\(}{PARLAB_FAKE_QUIET __global__ void histogram_kernel(}m' "$dir/histogram.cu"
        grep -q "PARLAB_FAKE_QUIET __global__" "$dir/histogram.cu" ;;
      header_assembly)
        # nvcc's check reads PTX, g++ the x86 form.
        printf '%s\n' '#pragma once' '__device__ static inline void parlab_fake_bump(int* p) {' '#ifdef __CUDA_ARCH__' \
          '  asm volatile("red.global.add.u32 [%0], 1;" : : "l"(p) : "memory");' '#else' \
          '  asm volatile("addl $1, (%0)" : : "r"(p) : "memory");' '#endif' '}' >"$dir/quiet.hpp"
        perl -0pi -e 's{local\[keys\[i\]\]\+\+;}{parlab_fake_bump(&local[keys[i]]);}' "$dir/histogram.cu"
        grep -q "parlab_fake_bump(&local" "$dir/histogram.cu" ;;
    esac
    perl -0pi -e 's{(#include "api.hpp"\n)}{$1#include "quiet.hpp"\n}' "$dir/histogram.cu"
    grep -q '#include "quiet.hpp"' "$dir/histogram.cu"
    ;;
  memcpy_store)
    # The racy histogram with its increment stored by a memcpy whose length is known
    # only at run time (4 bytes): the copy used to happen in the C library, or as stores
    # g++ expanded after the hooks were placed, so the race check saw the reads only.
    racy_histogram ''
    perl -0pi -e 's{local\[keys\[i\]\]\+\+;}{const int bumped = local[keys[i]] + 1;\n    memcpy(&local[keys[i]], &bumped, sizeof(int) * (n > 0));}' "$dir/histogram.cu"
    perl -0pi -e 's{(#include "api.hpp"\n)}{$1#include <cstring>\n}' "$dir/histogram.cu"
    grep -q "memcpy(&local" "$dir/histogram.cu"
    ;;
  reexec_without_settings)
    # The racy histogram, and a constructor that forks and execs the program itself (the
    # copy would run without the settings, so without the race check), waits for it and
    # exits with its status: the parent's exit writes clean closing records.
    racy_histogram '
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>
__attribute__((constructor)) static void parlab_fake_reexec(int, char** argv, char**) {
  if (std::getenv("PARLAB_FAKE_COPY") != nullptr) return;
  const pid_t child = fork();
  if (child == 0) {
    setenv("PARLAB_FAKE_COPY", "1", 1);
    execv("/proc/self/exe", argv);
    _exit(127);
  }
  int status = 0;
  waitpid(child, &status, 0);
  std::exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}'
    ;;
  forked_unsupported_stop)
    # The racy histogram, and a constructor that forks a child which stops at a feature
    # the simulator does not run (inline PTX), then exits with the child's status (92)
    # itself: the child's sealed finding and stop record are genuine, but they are the
    # child's, so no test may be left out as "needs a GPU".
    racy_histogram '
#include <sys/wait.h>
#include <unistd.h>
__global__ void parlab_fake_lane_id(unsigned* out) {
  unsigned lane = 0;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  *out = lane;
}
__attribute__((constructor)) static void parlab_fake_stop_in_a_child() {
  const pid_t child = fork();
  if (child == 0) {
    unsigned* out = nullptr;
    cudaMalloc(&out, sizeof(unsigned));
    parlab_fake_lane_id<<<1, 1>>>(out);
    cudaDeviceSynchronize();
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) != 0) _exit(WEXITSTATUS(status));
}'
    ;;
  stolen_key)
    # The racy histogram, and a constructor that looks for the report key in the
    # environment, /proc/self/environ and every descriptor under /proc/self/fd; with it,
    # an exit handler replaces the findings with a sealed, empty series of its own.
    racy_histogram "$(cat "$here/hmac_sha256.inc" "$here/forge_findings.inc")"
    ;;
  key_from_memory)
    # The racy histogram, and an exit handler that finds the report key in the runtime's
    # locked page (by name or content, then by the layout of its report identity) and
    # seals a race-free report of its own.
    racy_histogram "$(cat "$here/hmac_sha256.inc" "$here/find_runtime_state.inc" "$here/key_from_memory.inc")"
    ;;
  *)
    echo "make_submission.sh: unknown kind '$kind'" >&2
    exit 2
    ;;
esac
