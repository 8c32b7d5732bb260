// parlab-cuda-probe: tells the grader whether a CUDA device can be used from inside
// the sandbox a submission runs in, and which. One JSON line on stdout:
//   {"ok":true,"count":1,"name":"NVIDIA H100 80GB HBM3","cc":"9.0",
//    "memory_bytes":...,"sms":132,"driver":13000,"runtime":13000}
//   with --measure also "bandwidth_gbs" (device-to-device copy, read + write bytes,
//   best of 10) and "sgemm_gflops" (cuBLAS SGEMM 4096^3, best of 5): the peaks the
//   roofline feedback compares submissions with, measured on this device.
//   {"ok":false,"error":"cudaErrorNoDevice","message":"no CUDA-capable device is detected"}
// Exit status 0 either way; anything else means the probe itself broke.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

namespace {

std::string json_escape(const char* text) {
  std::string out;
  for (const char* p = text; *p; ++p) {
    if (*p == '"' || *p == '\\') out += '\\';
    if (static_cast<unsigned char>(*p) >= 0x20) out += *p;
  }
  return out;
}

int report_error(cudaError_t error) {
  std::printf("{\"ok\":false,\"error\":\"%s\",\"message\":\"%s\"}\n",
              json_escape(cudaGetErrorName(error)).c_str(),
              json_escape(cudaGetErrorString(error)).c_str());
  return 0;
}

// Seconds of the fastest of `runs` calls of `work`, timed with events after a warm-up.
template <class Work>
double best_seconds(int runs, Work work) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  work();
  float best_ms = 1e30f;
  for (int i = 0; i < runs; ++i) {
    cudaEventRecord(start);
    work();
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    best_ms = std::min(best_ms, ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return best_ms / 1e3;
}

double copy_bandwidth_gbs() {
  const size_t bytes = size_t{1} << 30;
  void *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, bytes) != cudaSuccess || cudaMalloc(&b, bytes) != cudaSuccess) return 0;
  cudaMemset(a, 1, bytes);
  double s = best_seconds(10, [&] { cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice); });
  cudaFree(a);
  cudaFree(b);
  return cudaGetLastError() == cudaSuccess && s > 0 ? 2.0 * bytes / s / 1e9 : 0;
}

double sgemm_gflops() {
  const int n = 4096;
  const size_t bytes = size_t{n} * n * sizeof(float);
  float *a = nullptr, *b = nullptr, *c = nullptr;
  if (cudaMalloc(&a, bytes) != cudaSuccess || cudaMalloc(&b, bytes) != cudaSuccess ||
      cudaMalloc(&c, bytes) != cudaSuccess) {
    return 0;
  }
  cudaMemset(a, 0, bytes);
  cudaMemset(b, 0, bytes);
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return 0;
  const float alpha = 1, beta = 0;
  double s = best_seconds(5, [&] {
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a, n, b, n, &beta, c, n);
  });
  cublasDestroy(handle);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return cudaGetLastError() == cudaSuccess && s > 0 ? 2.0 * n * n * double(n) / s / 1e9 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  const bool measure = argc > 1 && std::strcmp(argv[1], "--measure") == 0;
  int count = 0;
  if (cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess) {
    // Say the plain reason when there is no NVIDIA driver at all (CUDA calls that
    // "insufficient driver", which sends students looking for a driver update).
    if (access("/proc/driver/nvidia/version", R_OK) != 0) {
      std::printf("{\"ok\":false,\"error\":\"no NVIDIA driver\",\"message\":\"no NVIDIA "
                  "kernel driver is loaded on this machine\"}\n");
      return 0;
    }
    return report_error(e);
  }
  if (count == 0) return report_error(cudaErrorNoDevice);
  cudaDeviceProp prop{};
  if (cudaError_t e = cudaGetDeviceProperties(&prop, 0); e != cudaSuccess) return report_error(e);
  // A context must be creatable too (a device may be listed but unusable).
  if (cudaError_t e = cudaFree(nullptr); e != cudaSuccess) return report_error(e);
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  std::printf(
      "{\"ok\":true,\"count\":%d,\"name\":\"%s\",\"cc\":\"%d.%d\",\"memory_bytes\":%zu,"
      "\"sms\":%d,\"driver\":%d,\"runtime\":%d",
      count, json_escape(prop.name).c_str(), prop.major, prop.minor, prop.totalGlobalMem,
      prop.multiProcessorCount, driver, runtime);
  if (measure) {
    std::printf(",\"bandwidth_gbs\":%.1f,\"sgemm_gflops\":%.1f", copy_bandwidth_gbs(),
                sgemm_gflops());
  }
  std::printf("}\n");
  return 0;
}
