# parlab_python_reference(): the Python track's reference program (docs/lab-spec.md,
# "Tracks"), laid out as the grader lays out a Python submission
# (grader/src/compile/python_program.hpp):
#   build/labs/<id>_python_reference/<id>_python_reference   the launcher
#                                    driver/                 driver.py, api.py, ..., parlab_harness
#                                    solution/               the reference's sources
# Copied, not compiled: the folder is rebuilt whenever one of its files changes.
#
#   parlab_python_reference(out ID lab01 DIR lab01-multiprocessing
#                           REFERENCE python SOURCES file_stats.py)
# sets `out` to the launcher's path (for toolchain.json's python_reference_exe).
# SOLUTION_DIR instead of REFERENCE takes the sources from that folder (a kit's bytecode).

function(parlab_python_reference out)
  cmake_parse_arguments(PY "" "ID;DIR;REFERENCE;SOLUTION_DIR" "SOURCES" ${ARGN})
  set(lab_dir ${PROJECT_SOURCE_DIR}/labs/${PY_DIR})
  set(ref_dir ${PROJECT_SOURCE_DIR}/reference/${PY_DIR}/${PY_REFERENCE})
  if(PY_SOLUTION_DIR)
    set(ref_dir ${PY_SOLUTION_DIR})
  endif()
  set(harness ${PROJECT_SOURCE_DIR}/harness/python)
  set(program ${CMAKE_BINARY_DIR}/labs/${PY_ID}_python_reference)
  set(launcher ${program}/${PY_ID}_python_reference)
  file(GLOB lab_files CONFIGURE_DEPENDS ${lab_dir}/*.py)
  file(GLOB harness_files CONFIGURE_DEPENDS ${harness}/parlab_harness/*.py)
  list(TRANSFORM PY_SOURCES PREPEND ${ref_dir}/ OUTPUT_VARIABLE solution_files)
  add_custom_command(
    OUTPUT ${launcher}
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${program}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${program}/driver/parlab_harness ${program}/solution
    COMMAND ${CMAKE_COMMAND} -E copy ${lab_files} ${program}/driver/
    COMMAND ${CMAKE_COMMAND} -E copy ${harness_files} ${program}/driver/parlab_harness/
    COMMAND ${CMAKE_COMMAND} -E copy ${solution_files} ${program}/solution/
    COMMAND ${CMAKE_COMMAND} -E copy ${harness}/launcher.py ${launcher}
    COMMAND chmod 0755 ${launcher}
    DEPENDS ${lab_files} ${harness_files} ${solution_files} ${harness}/launcher.py
    COMMENT "Python reference program of ${PY_ID}"
    VERBATIM)
  add_custom_target(${PY_ID}_python_reference ALL DEPENDS ${launcher})
  set(${out} ${launcher} PARENT_SCOPE)
endfunction()

# A student kit (cmake/ParlabLab.cmake, PARLAB_PREBUILT_REFERENCES) holds the Python
# reference as bytecode only (`grade export student`: -OO .pyc files in
# prebuilt-references/<id>_python_reference/), laid out as the reference program above.
# A .pyc loads only in the Python version that wrote it (Debian 12's python3): with
# another, or without the folder (a kit made before Python tracks), `out` is empty and
# the build says why; the Python track then grades its correctness, not its speed.
#
#   parlab_prebuilt_python_reference(out ID lab01 DIR lab01-multiprocessing)
function(parlab_prebuilt_python_reference out)
  cmake_parse_arguments(PY "" "ID;DIR" "" ${ARGN})
  set(${out} "" PARENT_SCOPE)
  set(folder ${PARLAB_PREBUILT_REFERENCES}/${PY_ID}_python_reference)
  file(GLOB bytecode CONFIGURE_DEPENDS ${folder}/*.pyc)
  if(NOT bytecode)
    message(STATUS "parlab: student kit: no Python reference for ${PY_ID} (prebuilt-references/${PY_ID}_python_reference)")
    return()
  endif()
  execute_process(
    COMMAND python3 -I -c "import importlib.util, sys; sys.exit(any(open(p, 'rb').read(4) != importlib.util.MAGIC_NUMBER for p in sys.argv[1:]))"
            ${bytecode}
    RESULT_VARIABLE other_version)
  if(NOT other_version EQUAL 0)
    message(WARNING "parlab: student kit: ${PY_ID}'s Python reference is bytecode of another Python "
                    "version than this machine's python3 (the kit is made for Debian 12's): Python "
                    "submissions of ${PY_ID} will be graded without their performance tests")
    return()
  endif()
  set(names "")
  foreach(file ${bytecode})
    get_filename_component(name ${file} NAME)
    list(APPEND names ${name})
  endforeach()
  parlab_python_reference(launcher ID ${PY_ID} DIR ${PY_DIR} SOLUTION_DIR ${folder} SOURCES ${names})
  set(${out} ${launcher} PARENT_SCOPE)
endfunction()
