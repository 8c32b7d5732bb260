#include "runtime/device_context.hpp"

namespace parlab_sim::detail {

DeviceContext& device_context() {
  static auto* context = new DeviceContext;  // never destroyed (device_context.hpp)
  return *context;
}

}  // namespace parlab_sim::detail
