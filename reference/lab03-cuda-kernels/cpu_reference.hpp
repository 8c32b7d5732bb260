#pragma once
// Lab 03 CPU reference: the source of the expected outputs (expected_main.cpp) and the
// CPU side of the "does the GPU pay off?" comparison. Multi-threaded, computed in
// double precision from the float inputs, so the expected values are the exact results
// rounded once (a GPU's float results differ from them by a few ULP at most).
#include <cstdint>
#include <span>
#include <vector>

namespace lab03::cpu {

// threads <= 0: one per hardware thread. Small inputs use fewer threads (starting a
// thread costs more than adding a few thousand floats).
void vector_add(std::span<const float> a, std::span<const float> b, std::span<double> c,
                int threads);
void saxpy(float alpha, std::span<const float> x, std::span<const float> y,
           std::span<double> out, int threads);
void matrix_scale(float alpha, std::span<const float> in, std::span<double> out, int threads);

// One Jacobi step (api.hpp, heat_step): in is ny rows of nx, out the same size.
void heat_step(std::span<const float> in, std::span<double> out, std::int64_t nx,
               std::int64_t ny, float r, int threads);

struct HeatSolution {
  std::vector<double> grid;
  std::int64_t steps = 0;
};
// The stopping rule of api.hpp (heat_solve), in double precision: the change of a
// checked step is compared with tol as given (a float).
HeatSolution heat_solve(std::span<const float> initial, std::int64_t nx, std::int64_t ny,
                        float r, float tol, std::int64_t max_iters, std::int64_t check_every,
                        int threads);

}  // namespace lab03::cpu
