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

function(parlab_python_reference out)
  cmake_parse_arguments(PY "" "ID;DIR;REFERENCE" "SOURCES" ${ARGN})
  set(lab_dir ${PROJECT_SOURCE_DIR}/labs/${PY_DIR})
  set(ref_dir ${PROJECT_SOURCE_DIR}/reference/${PY_DIR}/${PY_REFERENCE})
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
