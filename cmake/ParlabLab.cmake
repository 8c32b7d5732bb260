include(${CMAKE_CURRENT_LIST_DIR}/ParlabToolchainJson.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/ParlabPythonTrack.cmake)

# parlab_add_lab(): builds what the grader needs for one lab and records it in
# toolchain.json (ParlabToolchainJson.cmake), the file the `grade` binary reads at run time to compile
# submissions the same way (same compiler, flags, driver and harness libraries).
#
#   parlab_add_lab(ID lab01 DIR lab01-multiprocessing
#                  SOURCES file_stats.cpp          # the files a student edits
#                  LIBS pthread                    # extra link libraries
#                  PYTHON_REFERENCE python         # optional: the Python track's reference
#                  PYTHON_SOURCES file_stats.py)   #   folder (under reference/<dir>) and files
#
# Targets: parlab_<id>_driver (static lib, grader-owned main), <id>_reference
# (reference solution executable, the ground truth) and <id>_skeleton (proves the
# skeleton compiles).

set(PARLAB_SUBMISSION_CXX_FLAGS -O2 -pthread CACHE STRING "Flags for student code")

# A student kit (`grade export student`, docs/release.md) has no reference/ sources:
# its references are stripped executables in prebuilt-references/, recorded in
# toolchain.json as they are instead of being built.
set(PARLAB_PREBUILT_REFERENCES "")
if(EXISTS ${PROJECT_SOURCE_DIR}/prebuilt-references AND NOT EXISTS ${PROJECT_SOURCE_DIR}/reference)
  set(PARLAB_PREBUILT_REFERENCES ${PROJECT_SOURCE_DIR}/prebuilt-references)
  message(STATUS "parlab: student kit: references are the prebuilt executables in ${PARLAB_PREBUILT_REFERENCES}")
endif()

# The prebuilt executable `name` (a kit), or empty when the kit lacks it.
function(parlab_prebuilt_reference out name)
  set(file ${PARLAB_PREBUILT_REFERENCES}/${name})
  if(EXISTS ${file})
    set(${out} ${file} PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()

# A reference (or skeleton) program is measured side by side with submissions, so it is
# compiled with their flags, not the build type's (-O3 -DNDEBUG): the last -O given
# wins, and -UNDEBUG undoes the define, so both sides keep their asserts alike.
function(parlab_compile_like_submissions target)
  target_compile_options(${target} PRIVATE
                         "$<$<COMPILE_LANGUAGE:CXX>:${PARLAB_SUBMISSION_CXX_FLAGS};-UNDEBUG>")
endfunction()

function(parlab_add_lab)
  cmake_parse_arguments(LAB "" "ID;DIR;PYTHON_REFERENCE" "SOURCES;LIBS;PYTHON_SOURCES" ${ARGN})
  set(lab_dir ${PROJECT_SOURCE_DIR}/labs/${LAB_DIR})
  set(ref_dir ${PROJECT_SOURCE_DIR}/reference/${LAB_DIR})

  add_library(parlab_${LAB_ID}_driver STATIC ${lab_dir}/driver.cpp)
  target_include_directories(parlab_${LAB_ID}_driver PRIVATE ${lab_dir})
  target_link_libraries(parlab_${LAB_ID}_driver PUBLIC parlab_harness)

  set(variants reference skeleton)
  set(reference_exe "$<TARGET_FILE:${LAB_ID}_reference>")
  if(PARLAB_PREBUILT_REFERENCES)
    set(variants skeleton)
    set(ref_dir "")
    parlab_prebuilt_reference(reference_exe ${LAB_ID}_reference)
    if(NOT reference_exe)
      message(FATAL_ERROR "student kit: prebuilt-references/${LAB_ID}_reference is missing")
    endif()
  endif()
  foreach(variant ${variants})
    if(variant STREQUAL reference)
      set(src_dir ${ref_dir})
    else()
      set(src_dir ${lab_dir}/skeleton)
    endif()
    list(TRANSFORM LAB_SOURCES PREPEND ${src_dir}/ OUTPUT_VARIABLE srcs)
    add_executable(${LAB_ID}_${variant} ${srcs})
    target_include_directories(${LAB_ID}_${variant} PRIVATE ${lab_dir})
    parlab_compile_like_submissions(${LAB_ID}_${variant})
    target_link_libraries(${LAB_ID}_${variant} PRIVATE parlab_${LAB_ID}_driver parlab_harness
                          Threads::Threads ${LAB_LIBS})
  endforeach()

  set(entry "{}")
  parlab_json_set_string(entry dir "${lab_dir}")
  parlab_json_set_string(entry reference_dir "${ref_dir}")
  parlab_json_set_string(entry driver_lib "$<TARGET_FILE:parlab_${LAB_ID}_driver>")
  parlab_json_set_string(entry reference_exe "${reference_exe}")
  parlab_json_string_array(libs ${LAB_LIBS})
  string(JSON entry SET "${entry}" libs "${libs}")
  # A student kit has no reference sources: its Python reference is the kit's bytecode.
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
