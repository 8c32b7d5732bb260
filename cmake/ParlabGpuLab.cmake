# parlab_add_gpu_lab(): what the grader needs for one CUDA lab, built both ways:
#
#   parlab_add_gpu_lab(ID lab03 DIR lab03-cuda-kernels
#                      SOURCES kernels.cu            # the files a student edits (.cu)
#                      REFERENCE_EXTRA variants.cu   # reference-only .cu (extra tasks)
#                      CPU_REFERENCE cpu_reference.cpp expected_main.cpp   # host only
#                      CUDA_LIBS cublas)             # e.g. cublas (sim brings its own)
#
# Always (no GPU or nvcc needed; sim = docs/simulation.md):
#   parlab_<id>_driver_sim  labs/<dir>/driver.cpp against the simulated runtime
#   <id>_reference_sim, <id>_skeleton_sim   the .cu files through parlab-sim-rewrite
#   <id>_cpu_reference      the multi-threaded CPU reference: the expected outputs
# With nvcc (PARLAB_CUDA_ENABLED):
#   parlab_<id>_driver_cuda, <id>_reference, <id>_skeleton   compiled by nvcc
# All of it is recorded in toolchain.json for the grader.

function(parlab_add_gpu_lab)
  cmake_parse_arguments(LAB "" "ID;DIR;PYTHON_REFERENCE"
                        "SOURCES;REFERENCE_EXTRA;CPU_REFERENCE;CUDA_LIBS;PYTHON_SOURCES" ${ARGN})
  set(lab_dir ${PROJECT_SOURCE_DIR}/labs/${LAB_DIR})
  set(ref_dir ${PROJECT_SOURCE_DIR}/reference/${LAB_DIR})
  list(TRANSFORM LAB_SOURCES PREPEND ${ref_dir}/ OUTPUT_VARIABLE ref_srcs)
  list(TRANSFORM LAB_REFERENCE_EXTRA PREPEND ${ref_dir}/ OUTPUT_VARIABLE ref_extra)
  list(TRANSFORM LAB_SOURCES PREPEND ${lab_dir}/skeleton/ OUTPUT_VARIABLE skel_srcs)
  list(TRANSFORM LAB_CPU_REFERENCE PREPEND ${ref_dir}/ OUTPUT_VARIABLE cpu_srcs)

  # A student kit: the references are prebuilt executables (ParlabLab.cmake).
  set(variants reference skeleton)
  set(cpu_reference_exe "$<TARGET_FILE:${LAB_ID}_cpu_reference>")
  set(sim_reference_exe "$<TARGET_FILE:${LAB_ID}_reference_sim>")
  set(cuda_reference_exe "$<TARGET_FILE:${LAB_ID}_reference>")
  if(PARLAB_PREBUILT_REFERENCES)
    set(variants skeleton)
    set(ref_dir "")
    parlab_prebuilt_reference(cpu_reference_exe ${LAB_ID}_cpu_reference)
    parlab_prebuilt_reference(sim_reference_exe ${LAB_ID}_reference_sim)
    parlab_prebuilt_reference(cuda_reference_exe ${LAB_ID}_reference)
    if(NOT cpu_reference_exe OR NOT sim_reference_exe)
      message(FATAL_ERROR "student kit: prebuilt-references/${LAB_ID}_cpu_reference or _reference_sim is missing")
    endif()
  else()
    # The expected outputs: host code only, so CI and laptops always have them.
    add_executable(${LAB_ID}_cpu_reference ${cpu_srcs})
    target_include_directories(${LAB_ID}_cpu_reference PRIVATE ${lab_dir} ${ref_dir})
    target_link_libraries(${LAB_ID}_cpu_reference PRIVATE parlab_harness Threads::Threads)
  endif()

  # Sim mode.
  add_library(parlab_${LAB_ID}_driver_sim STATIC ${lab_dir}/driver.cpp)
  target_include_directories(parlab_${LAB_ID}_driver_sim PRIVATE ${lab_dir})
  target_link_libraries(parlab_${LAB_ID}_driver_sim PUBLIC parlab_harness parlab_sim)
  # The harness's GPU headers use simulator extensions there (device_memory_budget.hpp).
  target_compile_definitions(parlab_${LAB_ID}_driver_sim PRIVATE PARLAB_SIM_DRIVER=1)
  # Line tables: a finding may name a driver line (host_out read as soon as the student's
  # function returns, before its copies landed: docs/simulation-design.md).
  target_compile_options(parlab_${LAB_ID}_driver_sim PRIVATE -g1)
  if("thread" IN_LIST PARLAB_SANITIZE)  # the simulator is left out of TSan (sim/CMakeLists.txt)
    set_target_properties(parlab_${LAB_ID}_driver_sim PROPERTIES PARLAB_NO_SANITIZE ON)
  endif()
  foreach(variant ${variants})
    set(target ${LAB_ID}_${variant}_sim)
    add_executable(${target})
    if(variant STREQUAL reference)
      parlab_sim_cuda_sources(${target} ${ref_srcs} ${ref_extra})
      # The check build (as a submission's sim build): its memory-access counters are
      # what a scored counter check compares a submission with (docs/simulation.md).
      foreach(cu IN LISTS ref_srcs ref_extra)
        get_filename_component(cu_name "${cu}" NAME)
        if(NOT cu_name MATCHES "\\.cu$")
          continue()  # host code, as in a submission's build (compile_steps)
        endif()
        set_property(SOURCE "${CMAKE_CURRENT_BINARY_DIR}/sim-rewritten/${target}/${cu_name}.cpp"
          APPEND PROPERTY COMPILE_OPTIONS ${PARLAB_SIM_CHECK_FLAGS})  # sim/CMakeLists.txt
      endforeach()
    else()
      parlab_sim_cuda_sources(${target} ${skel_srcs})
    endif()
    target_include_directories(${target} PRIVATE ${lab_dir})
    parlab_compile_like_submissions(${target})  # the grader's sim build uses the same flags
    target_link_libraries(${target} PRIVATE parlab_${LAB_ID}_driver_sim parlab_harness
                          parlab_sim Threads::Threads)
  endforeach()

  set(cuda_driver_lib "")
  if(PARLAB_CUDA_ENABLED AND cuda_reference_exe)
    add_library(parlab_${LAB_ID}_driver_cuda STATIC ${lab_dir}/driver.cpp)
    target_include_directories(parlab_${LAB_ID}_driver_cuda PRIVATE ${lab_dir})
    target_link_libraries(parlab_${LAB_ID}_driver_cuda PUBLIC parlab_harness CUDA::cudart_static)
    set(cuda_libs "")
    foreach(lib IN LISTS LAB_CUDA_LIBS)
      list(APPEND cuda_libs CUDA::${lib})
    endforeach()
    foreach(variant ${variants})
      if(variant STREQUAL reference)
        set(srcs ${ref_srcs} ${ref_extra})
      else()
        set(srcs ${skel_srcs})
      endif()
      add_executable(${LAB_ID}_${variant} ${srcs})
      target_include_directories(${LAB_ID}_${variant} PRIVATE ${lab_dir})
      # As the grader's nvcc build of a submission (compile/compile_steps.cpp): -O3 for
      # device and host code, asserts kept.
      target_compile_options(${LAB_ID}_${variant} PRIVATE -O3 -UNDEBUG)
      target_link_libraries(${LAB_ID}_${variant} PRIVATE parlab_${LAB_ID}_driver_cuda
                            parlab_harness Threads::Threads ${cuda_libs})
    endforeach()
    set(cuda_driver_lib "$<TARGET_FILE:parlab_${LAB_ID}_driver_cuda>")
  endif()

  set(entry "{}")
  parlab_json_set_string(entry dir "${lab_dir}")
  parlab_json_set_string(entry reference_dir "${ref_dir}")
  parlab_json_string_array(libs ${LAB_CUDA_LIBS})
  string(JSON entry SET "${entry}" libs "${libs}")
  parlab_json_set_string(entry cpu_reference_exe "${cpu_reference_exe}")
  parlab_json_set_string(entry sim_driver_lib "$<TARGET_FILE:parlab_${LAB_ID}_driver_sim>")
  parlab_json_set_string(entry sim_reference_exe "${sim_reference_exe}")
  if(cuda_driver_lib)
    parlab_json_set_string(entry driver_lib "${cuda_driver_lib}")
    parlab_json_set_string(entry reference_exe "${cuda_reference_exe}")
  endif()
  # The Python track's reference (NumPy, processes, Numba): as for a CPU lab (ParlabLab.cmake).
  # In a student kit, the kit's bytecode.
  if(LAB_PYTHON_REFERENCE AND PARLAB_PREBUILT_REFERENCES)
    parlab_prebuilt_python_reference(python_reference_exe ID ${LAB_ID} DIR ${LAB_DIR})
  elseif(LAB_PYTHON_REFERENCE)
    parlab_python_reference(python_reference_exe ID ${LAB_ID} DIR ${LAB_DIR}
                            REFERENCE ${LAB_PYTHON_REFERENCE} SOURCES ${LAB_PYTHON_SOURCES})
  endif()
  if(python_reference_exe)
    parlab_json_set_string(entry python_reference_exe "${python_reference_exe}")
  endif()
  parlab_record_lab_toolchain(${LAB_ID} "${entry}")
endfunction()
