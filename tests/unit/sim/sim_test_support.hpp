#pragma once
// Helpers for the simulator's tests: device buffers, running code in a forked child
// (the fault reports end the process), and the .cu programs built by sim/CMakeLists.txt.
#include <functional>
#include <string>
#include <vector>

#include "parlab_sim/prelude.hpp"

// A test kernel whose fault is the point (the simulator's report of it is under test),
// left to fault as a student's kernel would: in a sanitizer build (PARLAB_SANITIZE)
// UBSan or ASan would stop it first, and student kernels never get them
// (sim/CMakeLists.txt).
#define SIM_TEST_FAULTY_KERNEL __attribute__((no_sanitize("address", "undefined")))

namespace sim_test {

// A cudaMalloc'd copy of `values`; freed by the destructor.
template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(const std::vector<T>& values) : size_(values.size()) {
    cudaMalloc(&data_, size_ * sizeof(T));
    cudaMemcpy(data_, values.data(), size_ * sizeof(T), cudaMemcpyHostToDevice);
  }
  explicit DeviceArray(std::size_t size, T fill = T{}) : DeviceArray(std::vector<T>(size, fill)) {}
  ~DeviceArray() { cudaFree(data_); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;

  T* get() const { return data_; }
  std::vector<T> to_host() const {
    std::vector<T> values(size_);
    cudaMemcpy(values.data(), data_, size_ * sizeof(T), cudaMemcpyDeviceToHost);
    return values;
  }

 private:
  std::size_t size_;
  T* data_ = nullptr;
};

struct ChildOutcome {
  int exit_code = -1;  // -1 when killed by a signal
  int signal = 0;
  std::string stderr_text;
};

// Runs `body` in a forked child (exit status 0 if it returns) and collects its stderr.
ChildOutcome run_in_child(const std::function<void()>& body);

// Sets a PARLAB_SIM_* setting inside run_in_child's child: the runtime reads its settings
// once at start-up (config/runtime_settings), so they are read again here.
void set_setting(const char* name, const char* value);

struct ProgramOutcome {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

// Runs a program built from a .cu file (sim/CMakeLists.txt) with `arguments`.
ProgramOutcome run_program(const std::string& name, const std::string& arguments = "");

}  // namespace sim_test
