#pragma once
// Whether a submission's sources may choose lines by the GPU architecture they are built
// for. A sim build compares its view of each source with nvcc's for the host and for
// sm_90 always (compile/compiled_views), and with every other architecture nvcc
// supports only where the sources could tell them apart: an #if can only see the
// architecture through a macro whose value differs between them, and every such macro
// of the CUDA headers the simulator provides is named __CUDA_ARCH__, __CUDA_ARCH_LIST__,
// _CG_..., _NV_..., NV_..., __NV_..., _CCCL_... or __cccl_... (the unit test
// architecture_names_test checks that against this nvcc's headers: a family a new CUDA
// adds fails it). So the dozen views are made when a student's file names an identifier
// of those families (any leading underscores: CUDA_ARCH..., NV_..., CG_..., CCCL...,
// cccl...), or pastes tokens (`##` could spell one), outside comments and strings; else
// one device view does. A student's own CUDA_CHECK is not of them.
#include <filesystem>
#include <string_view>

namespace parlab::grader {

// True when `text` (a source file) names an identifier that may carry the GPU
// architecture, or holds a token paste, outside comments.
bool may_read_gpu_architecture(std::string_view text);

// The same over every staged file under `stage` but the simulator's own folder
// (`stage`/sim); a file that cannot be read counts as reading it.
bool sources_may_read_gpu_architecture(const std::filesystem::path& stage);

// Whether a macro name belongs to those families (for the unit test's check).
bool names_gpu_architecture(std::string_view identifier);

}  // namespace parlab::grader
