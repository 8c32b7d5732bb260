#!/usr/bin/env bash
# make_submission.sh KIND DIR: a submission with one bug whose hint must name its cause
# ("Hints that blame the wrong cause"; README.md here), made from the
# reference at test time so it stays in step with the labs. Each edit is checked: a
# reference that moved on fails here, not as a puzzling grade.
set -euo pipefail
kind=$1
dir=$2
refs="$(cd "$(dirname "$0")/../../../reference" && pwd)"
mkdir -p "$dir"

# edit FILE PERL-PROGRAM MARK: FILE rewritten by the program; MARK must be in the result.
edit() {
  perl -0pi -e "$2" "$1"
  grep -qF -- "$3" "$1" || { echo "make_submission.sh $kind: the edit of $1 did not apply" >&2; exit 1; }
}

case "$kind" in
  lab02_gpu_scratch_uncopied)
    # predict_gpu computes into a scratch buffer of its own and never copies it to out.
    cp "$refs/lab02-kernel-regression/regression_cpu.cpp" "$refs/lab02-kernel-regression/regression_gpu.cu" "$dir/"
    edit "$dir/regression_gpu.cu" 's{(void predict_gpu\(const Problem& p, float h, float\* out, std::size_t budget_bytes\) \{\n)}{$1  float* scratch = nullptr;  // the results land here and stay here: never copied to out\n  PARLAB_CUDA_CHECK(cudaMalloc(&scratch, sizeof(float) * static_cast<std::size_t>(p.m > 0 ? p.m : 1)));\n  struct Release { float* s; ~Release() { cudaFree(s); } } release{scratch};\n  out = scratch;\n}' \
      "out = scratch;"
    ;;
  lab02_gpu_tile_off_by_one)
    # The last training point of every tile is never staged in shared memory: its y is
    # read unloaded (the simulator's NaN), so every prediction is NaN.
    cp "$refs/lab02-kernel-regression/regression_cpu.cpp" "$refs/lab02-kernel-regression/regression_gpu.cu" "$dir/"
    edit "$dir/regression_gpu.cu" 's{for \(int j = threadIdx\.x; j < count; j \+= kThreads\) ys\[j\]}{for (int j = threadIdx.x; j < count - 1; j += kThreads) ys[j]}' \
      "j < count - 1; j += kThreads) ys[j]"
    ;;
  lab03_solve_final_copy_missing)
    # heat_solve forgets the final copy: after an even number of steps the grid is in
    # work, and out holds the step before (close to the answer: no rounding error).
    cp "$refs/lab03-cuda-kernels/kernels.cu" "$dir/"
    edit "$dir/kernels.cu" 's{  if \(src != out\) \{\n    PARLAB_CUDA_CHECK\(cudaMemcpy\(out, src,[^\n]*\n[^\n]*\n  \}\n}{  // (the final grid may be in work: not copied to out)\n}' \
      "(the final grid may be in work: not copied to out)"
    ;;
  lab05_tile_not_zero_padded)
    # The tile loads skip the elements past the matrix instead of storing 0: in a tile
    # that the matrix does not fill, those shared elements are never written.
    cp "$refs/lab05-tiled-matmul/matmul.cu" "$dir/"
    edit "$dir/matmul.cu" 's{As\[ty\]\[tx\] = \(row < M && t \+ tx < K\) \? (A\[[^\]]*\]) : 0\.0f;}{if (row < M && t + tx < K) As[ty][tx] = $1;}; s{Bs\[ty\]\[tx\] = \(t \+ ty < K && col < N\) \? (B\[[^\]]*\]) : 0\.0f;}{if (t + ty < K && col < N) Bs[ty][tx] = $1;}' \
      "if (t + ty < K && col < N) Bs[ty][tx] ="
    grep -qF "if (row < M && t + tx < K) As[ty][tx] =" "$dir/matmul.cu"
    ;;
  lab03_gratuitous_branch)
    # The handout-style solution (tests/fakes/lab03/handout_style) with a divergent branch
    # for nothing in saxpy: odd lanes take another path to the same value.
    cp "$(dirname "$0")/../lab03/handout_style/kernels.cu" "$dir/"
    edit "$dir/kernels.cu" 's{  if \(i < n\) out\[i\] = alpha \* x\[i\] \+ y\[i\];\n}{  if (i < n) {\n    if (threadIdx.x % 2 == 0) {\n      out[i] = alpha * x[i] + y[i];\n    } else {\n      out[i] = fmaf(alpha, x[i], y[i]);  // odd lanes: another path to the same value\n    }\n  }\n}' \
      "out[i] = fmaf(alpha, x[i], y[i]);  // odd lanes"
    ;;
  lab03_heat_step_in_place)
    # heat_step copies in to out, then updates out in place: each point reads neighbours
    # that other threads (and, at a block's edge, other blocks) overwrite in the same
    # launch. A barrier cannot order blocks; the stencil needs a second buffer.
    cp "$refs/lab03-cuda-kernels/kernels.cu" "$dir/"
    edit "$dir/kernels.cu" 's{heat_step_kernel\(const float\* __restrict__ in, float\* __restrict__ out,}{heat_step_kernel(const float* in, float* out,}' \
      "heat_step_kernel(const float* in, float* out,"
    edit "$dir/kernels.cu" 's{(void heat_step\(const float\* in, float\* out, int nx, int ny, float r\) \{\n)  heat_step_kernel<false><<<grid_2d\(nx, ny\), dim3\(kTileX, kTileY\)>>>\(in, out,}{$1  PARLAB_CUDA_CHECK(cudaMemcpy(out, in, sizeof(float) * static_cast<std::size_t>(nx) * ny, cudaMemcpyDeviceToDevice));\n  heat_step_kernel<false><<<grid_2d(nx, ny), dim3(kTileX, kTileY)>>>(out, out,}' \
      "dim3(kTileX, kTileY)>>>(out, out,"
    ;;
  lab04_max_starts_from_zero)
    # max_atomic starts its result from cudaMemset(0) instead of INT_MIN: on all-negative
    # data no element beats the 0 (the result looks like "nothing computed").
    cp "$refs/lab04-atomics-reductions/"{max_reduce.cu,sum_reduce.cu,histogram.cu,block_reduce.cuh} "$dir/"
    edit "$dir/max_reduce.cu" 's{(void max_atomic\(const int\* values, int n, int\* result\) \{\n)  set_int<<<1, 1>>>\(result, INT_MIN\);}{$1  cudaMemset(result, 0, sizeof(int));  // starts from 0}' \
      "cudaMemset(result, 0, sizeof(int));  // starts from 0"
    ;;
  *)
    echo "make_submission.sh: unknown kind '$kind'" >&2
    exit 2
    ;;
esac
