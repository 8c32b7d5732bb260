# find_package(CUDAToolkit) that works with CUDA 13 on CMake 3.25 (Debian 12).
#
# CMake 3.25's FindCUDAToolkit marks CUDA::nvToolsExt deprecated whenever the project's
# cmake_minimum_required is 3.25 or newer, without checking that the target exists.
# CUDA 13 no longer ships libnvToolsExt, so the target is never created and
# `set_property(TARGET CUDA::nvToolsExt ...)` stops the configure (FindCUDAToolkit.cmake
# line 1088: "could not find TARGET CUDA::nvToolsExt"). Some machines hide this with a
# local edit of the module (`if(TARGET CUDA::nvToolsExt AND ...)`); Debian's does not. The module reads CMAKE_MINIMUM_REQUIRED_VERSION only for that warning, so
# the search runs with it just below 3.25 (policies are unaffected: they were set by
# cmake_minimum_required itself) and the project's value is restored after.
# .ci/cuda_pristine_configure.sh proves this against Debian's unmodified module.
macro(parlab_find_cuda_toolkit)
  set(_parlab_saved_minimum "${CMAKE_MINIMUM_REQUIRED_VERSION}")
  if(CMAKE_MINIMUM_REQUIRED_VERSION VERSION_GREATER_EQUAL 3.25)
    set(CMAKE_MINIMUM_REQUIRED_VERSION 3.24)
  endif()
  find_package(CUDAToolkit ${ARGN})
  set(CMAKE_MINIMUM_REQUIRED_VERSION "${_parlab_saved_minimum}")
  unset(_parlab_saved_minimum)
endmacro()
