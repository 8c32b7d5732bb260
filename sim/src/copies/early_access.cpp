#include "copies/early_access.hpp"

#include <dlfcn.h>

#include <array>
#include <atomic>
#include <string>
#include <vector>

#include "parlab_sim/source_names.hpp"
#include "report/source_lines.hpp"
#include "report/diagnostics.hpp"

namespace parlab_sim::detail {
namespace {

enum SlotState : int { kEmpty, kWriting, kReady };

struct Slot {
  std::atomic<int> state{kEmpty};
  EarlyAccess access;
};

std::array<Slot, 32> g_slots;

// The first of the access's frames in code of the student's (or the driver's): the
// faulting instruction is often in the C library's memcpy or in an inlined std::
// algorithm, the line that matters is its caller's.
// Frames in the C library (memcpy, the start-up code) are never the line to show.
bool in_executable(const void* code_address) {
  Dl_info code{};
  Dl_info self{};  // the simulator is linked into the executable
  return dladdr(code_address, &code) != 0 &&
         dladdr(reinterpret_cast<const void*>(&in_executable), &self) != 0 &&
         code.dli_fbase == self.dli_fbase;
}

std::string access_line(const EarlyAccess& access) {
  std::vector<const void*> addresses;
  // source_line_of steps back one byte from a return address: the faulting
  // instruction itself is exact, so give it one byte further.
  const void* fault = static_cast<const char*>(access.pc) + 1;
  if (in_executable(fault)) addresses.push_back(fault);
  for (int i = 0; i < access.frame_count; ++i) {
    if (in_executable(access.frames[i])) addresses.push_back(access.frames[i]);
  }
  if (addresses.empty()) return "an unknown line";
  for (const CodeLocation& location : code_locations_of(addresses)) {
    // `line` skips inlined frames of library headers (std::copy), `library` is only
    // about the innermost one: a line in a header of theirs is no answer.
    const std::string file = location.line.substr(0, location.line.rfind(':'));
    if (location.line == "an unknown line" || is_library_file(file)) continue;
    // A file outside the submission (the lab's driver) by its name alone.
    const std::size_t slash = location.line.rfind('/');
    return slash == std::string::npos ? location.line : location.line.substr(slash + 1);
  }
  return "an unknown line";
}

std::string stream_name(unsigned number) {
  return number == 0 ? "the default stream"
                     : "stream #" + std::to_string(number) + " (streams numbered in creation order)";
}

// Host code touched managed memory that a kernel launched before it writes, with no
// synchronization in between (runtime/managed_kernel_writes.hpp).
void report_kernel_access(const EarlyAccess& access, const std::string& line) {
  const char* verb = access.write ? "wrote" : "read";
  const std::string kernel = access.kernel_name;
  const std::string bytes = "bytes [" + std::to_string(access.offset) + ", " +
                            std::to_string(access.offset + access.copy_bytes) + ") of managed memory of " +
                            std::to_string(access.buffer_bytes) + " bytes (cudaMallocManaged)";
  const std::string summary = std::string("host code ") + verb + " at " + line +
                              " managed memory that kernel " + kernel + " writes, before the kernel completed";
  const std::string message =
      std::string("host code ") + verb + " " + bytes + " at " + line + " that kernel " + kernel +
      ", launched on " + stream_name(access.stream_number) +
      " before it, writes, with no synchronization in between: a launch returns before its "
      "kernel runs, so call cudaDeviceSynchronize() (or synchronise the kernel's stream) before "
      "the host " + (access.write ? "writes" : "reads") + " what the kernel writes (" +
      (access.write ? "on a GPU the kernel's bytes may land over yours or yours over the kernel's; "
                      "the simulator kept the kernel's"
                    : "a GPU gives the bytes from before the kernel, and so did the simulator") +
      ")";
  report_finding(kFindingUnsynchronizedAccess, line + "|kernel " + kernel + "|" + verb, summary, message);
}

// Host code wrote the page-locked source of a cudaMemcpyAsync to the device before the
// synchronization that orders it: a GPU's copy engine may still read it.
void report_source_write(const EarlyAccess& access, const std::string& line, const std::string& copy) {
  const std::string bytes = "bytes [" + std::to_string(access.offset) + ", " +
                            std::to_string(access.offset + access.copy_bytes) + ") of a pinned buffer of " +
                            std::to_string(access.buffer_bytes) + " bytes (cudaMallocHost)";
  const std::string summary = "host code wrote at " + line + " the source of the cudaMemcpyAsync to the device at " +
                              copy + " before it completed";
  const std::string message =
      "host code wrote " + bytes + " at " + line + ", the source of the cudaMemcpyAsync to the device on " +
      stream_name(access.stream_number) + " issued at " + copy +
      ", before that copy completed: a GPU's copy engine reads the source any time until the "
      "synchronization that orders the copy, so it may send your new bytes; synchronise the stream "
      "(cudaStreamSynchronize, or cudaEventSynchronize on an event recorded after the copy) before "
      "refilling or reusing the buffer (" +
      (access.source_already_sent ? "here a kernel had already needed the copy's bytes, so the simulator "
                                    "sent the old ones; a GPU may send either"
                                  : "the simulator sent the new bytes, as a GPU may") +
      ")";
  report_finding(kFindingUnsynchronizedAccess, line + "|" + copy + "|wrote source", summary, message);
}

void report(const EarlyAccess& access) {
  const std::string line = access_line(access);
  if (access.kernel_name != nullptr) return report_kernel_access(access, line);
  if (access.source_of_copy_to_device) {
    return report_source_write(
        access, line, std::string(source_display_name(access.copy_file)) + ":" + std::to_string(access.copy_line));
  }
  const std::string copy = std::string(source_display_name(access.copy_file)) + ":" +
                           std::to_string(access.copy_line);
  const char* verb = access.write ? "wrote" : "read";
  const std::string bytes = "bytes [" + std::to_string(access.offset) + ", " +
                            std::to_string(access.offset + access.copy_bytes) + ") of a pinned buffer of " +
                            std::to_string(access.buffer_bytes) + " bytes (cudaMallocHost)";
  const std::string summary = std::string("host code ") + verb + " at " + line +
                              " the destination of the cudaMemcpyAsync at " + copy +
                              " before it completed";
  const std::string message =
      std::string("host code ") + verb + " " + bytes + " at " + line +
      " before the cudaMemcpyAsync on " + stream_name(access.stream_number) + " issued at " +
      copy + " completed: synchronise the stream (cudaStreamSynchronize / " +
      "cudaEventSynchronize) before " + (access.write ? "writing" : "reading") +
      " it (a GPU gives " + (access.write ? "the copy's bytes over yours" : "the bytes from before the copy") +
      "; the simulator did too)";
  report_finding(kFindingUnsynchronizedAccess, line + "|" + copy + "|" + verb, summary, message);
}

}  // namespace

void record_early_access(const EarlyAccess& access) {
  for (Slot& slot : g_slots) {
    int expected = kEmpty;
    if (!slot.state.compare_exchange_strong(expected, kWriting)) continue;
    slot.access = access;
    slot.state.store(kReady);
    return;
  }
}

void report_early_accesses() {
  for (Slot& slot : g_slots) {
    if (slot.state.load() != kReady) continue;
    const EarlyAccess access = slot.access;
    slot.state.store(kEmpty);
    report(access);
  }
}

}  // namespace parlab_sim::detail
