// Error names and messages, word for word as CUDA's runtime gives them, and the last
// error of each host thread.
#include "parlab_sim/errors.hpp"

namespace parlab_sim::detail {
namespace {

thread_local cudaError_t t_last_error = cudaSuccess;

struct ErrorText {
  cudaError_t error;
  const char* name;
  const char* message;
};

constexpr ErrorText kErrorTexts[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {cudaErrorInvalidHostPointer, "cudaErrorInvalidHostPointer", "invalid host pointer"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
    {cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered"},
    {cudaErrorHostMemoryAlreadyRegistered, "cudaErrorHostMemoryAlreadyRegistered",
     "part or all of the requested memory range is already mapped"},
    {cudaErrorHostMemoryNotRegistered, "cudaErrorHostMemoryNotRegistered",
     "pointer does not correspond to a registered memory region"},
    {cudaErrorIllegalInstruction, "cudaErrorIllegalInstruction", "an illegal instruction was encountered"},
    {cudaErrorMisalignedAddress, "cudaErrorMisalignedAddress", "misaligned address"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};

const ErrorText* find_text(cudaError_t error) {
  for (const ErrorText& text : kErrorTexts) {
    if (text.error == error) return &text;
  }
  return nullptr;
}

}  // namespace

cudaError_t record_error(cudaError_t error) {
  if (error != cudaSuccess) t_last_error = error;
  return error;
}

}  // namespace parlab_sim::detail

cudaError_t cudaGetLastError() {
  const cudaError_t error = parlab_sim::detail::t_last_error;
  parlab_sim::detail::t_last_error = cudaSuccess;
  return error;
}

cudaError_t cudaPeekAtLastError() { return parlab_sim::detail::t_last_error; }

const char* cudaGetErrorName(cudaError_t error) {
  const auto* text = parlab_sim::detail::find_text(error);
  return text != nullptr ? text->name : "cudaErrorUnknown";
}

const char* cudaGetErrorString(cudaError_t error) {
  const auto* text = parlab_sim::detail::find_text(error);
  return text != nullptr ? text->message : "unknown error";
}
