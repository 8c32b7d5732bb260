#pragma once
// A fixed-size text buffer for fault reports. It never allocates and only calls
// write(2), so the SIGSEGV handler can use it as safely as the deadlock detector.
#include <cstddef>
#include <cstdint>

#include "parlab_sim/stop_record.hpp"
#include "parlab_sim/vector_types.hpp"

namespace parlab_sim::detail {

class ReportText {
 public:
  ReportText& add(const char* text);
  ReportText& add(char c);
  ReportText& add_decimal(std::uint64_t value);
  ReportText& add_hex(std::uintptr_t value);
  ReportText& add_index(uint3 index);  // "(x,y,z)"
  ReportText& add_bytes(std::uint64_t bytes);  // "4000 bytes"
  const char* c_str() const { return buffer_; }
  std::size_t size() const { return length_; }
  void write_to_stderr() const;

  // The facts of the stop record (parlab_sim/stop_record.hpp) the report's text states.
  void note_code_offset(std::uint64_t offset) { code_offset_ = offset; }
  void note_host_access(HostAccess access) { host_access_ = access; }
  StopRecord stop_record(int exit_code) const { return {exit_code, code_offset_, host_access_, false}; }

 private:
  static constexpr std::size_t kCapacity = 4096;
  char buffer_[kCapacity] = {};
  std::size_t length_ = 0;
  std::uint64_t code_offset_ = 0;
  HostAccess host_access_ = HostAccess::none;
};

}  // namespace parlab_sim::detail
