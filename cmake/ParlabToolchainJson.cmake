# toolchain.json, the contract between the build and the grader (grader/src/cli/
# toolchain.cpp reads it), built with string(JSON) so every value is valid JSON whatever
# the paths hold. Labs record their entries with parlab_record_lab_toolchain(); the
# top-level CMakeLists.txt writes the file once with parlab_write_toolchain_file().

# The JSON text of one string. string(JSON) has no "quote this string" operation, so
# the characters JSON must escape are escaped here; string(JSON ... TYPE) then parses
# the result, so a value that is still not valid JSON stops the configure step.
function(parlab_json_string out value)
  string(REPLACE "\\" "\\\\" text "${value}")
  string(REPLACE "\"" "\\\"" text "${text}")
  string(REPLACE "\n" "\\n" text "${text}")
  string(REPLACE "\r" "\\r" text "${text}")
  string(REPLACE "\t" "\\t" text "${text}")
  set(text "\"${text}\"")
  string(JSON kind ERROR_VARIABLE error TYPE "[${text}]" 0)
  if(error)
    message(FATAL_ERROR "parlab: cannot write '${value}' into toolchain.json: ${error}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# A JSON array of strings.
function(parlab_json_string_array out)
  set(array "[]")
  set(index 0)
  foreach(item IN LISTS ARGN)
    parlab_json_string(text "${item}")
    string(JSON array SET "${array}" ${index} "${text}")
    math(EXPR index "${index} + 1")
  endforeach()
  set(${out} "${array}" PARENT_SCOPE)
endfunction()

# Sets KEY of the JSON object in variable VAR to the string VALUE (one key at a time:
# a value may be empty or hold any character, which a CMake list could not carry).
function(parlab_json_set_string var key value)
  parlab_json_string(text "${value}")
  string(JSON object SET "${${var}}" "${key}" "${text}")
  set(${var} "${object}" PARENT_SCOPE)
endfunction()

# Generator expressions ($<TARGET_FILE:...>) are kept as text and expanded when the file
# is generated, after the escaping above: the paths they expand to are in the build
# folder, which therefore must not need escaping.
if(PROJECT_BINARY_DIR MATCHES "[\"\\\\]" OR PROJECT_BINARY_DIR MATCHES "[\n\r\t]")
  message(FATAL_ERROR "parlab: the build folder '${PROJECT_BINARY_DIR}' has a quote, a "
                      "backslash or a control character in its path; toolchain.json "
                      "cannot name the programs built there. Build in another folder.")
endif()

# Records lab ID's entry, a JSON object (built with parlab_json_set_string).
function(parlab_record_lab_toolchain id entry)
  set_property(GLOBAL APPEND PROPERTY PARLAB_LAB_IDS ${id})
  set_property(GLOBAL PROPERTY PARLAB_LAB_JSON_${id} "${entry}")
endfunction()

function(parlab_write_toolchain_file)
  set(t "{}")
  parlab_json_set_string(t format "parlab-toolchain")
  parlab_json_set_string(t version "${PROJECT_VERSION}")
  parlab_json_set_string(t source_dir "${PROJECT_SOURCE_DIR}")
  parlab_json_set_string(t build_dir "${PROJECT_BINARY_DIR}")
  parlab_json_set_string(t cxx "${CMAKE_CXX_COMPILER}")
  parlab_json_set_string(t cxx_standard "c++${CMAKE_CXX_STANDARD}")
  parlab_json_string_array(flags ${PARLAB_SUBMISSION_CXX_FLAGS})
  string(JSON t SET "${t}" cxx_flags "${flags}")
  parlab_json_set_string(t harness_include "${PROJECT_SOURCE_DIR}/harness/include")
  parlab_json_set_string(t harness_lib "$<TARGET_FILE:parlab_harness>")
  if(PARLAB_CUDA_ENABLED)
    string(JSON t SET "${t}" cuda true)
    parlab_json_set_string(t nvcc "${CMAKE_CUDA_COMPILER}")
    parlab_json_set_string(t cuda_probe "$<TARGET_FILE:parlab-cuda-probe>")
    # Every GPU architecture this nvcc compiles for ("compute_90" -> 900): a sim build's
    # sources are preprocessed as each of them would see them (compile/compiled_views).
    execute_process(COMMAND "${CMAKE_CUDA_COMPILER}" --list-gpu-arch
                    OUTPUT_VARIABLE parlab_gpu_arch_list RESULT_VARIABLE parlab_gpu_arch_rc ERROR_QUIET)
    set(parlab_gpu_archs)
    if(parlab_gpu_arch_rc EQUAL 0)
      string(REGEX MATCHALL "compute_[0-9]+" parlab_gpu_arch_words "${parlab_gpu_arch_list}")
      foreach(word IN LISTS parlab_gpu_arch_words)
        string(REPLACE "compute_" "" number "${word}")
        list(APPEND parlab_gpu_archs "${number}0")
      endforeach()
    endif()
    if(NOT parlab_gpu_archs)
      message(WARNING "${CMAKE_CUDA_COMPILER} --list-gpu-arch listed no architecture; "
                      "sim builds compare their sources with sm_80's view only")
      set(parlab_gpu_archs 800)
    endif()
    list(REMOVE_DUPLICATES parlab_gpu_archs)
    parlab_json_string_array(archs ${parlab_gpu_archs})
    string(JSON t SET "${t}" nvcc_architectures "${archs}")
    # The toolkit's own compute-sanitizer (GPU correctness checks, docs/gpu.md); not
    # every installation has it (Debian's nvidia-cuda-toolkit packs it apart).
    get_filename_component(parlab_cuda_bin "${CMAKE_CUDA_COMPILER}" DIRECTORY)
    find_program(PARLAB_COMPUTE_SANITIZER compute-sanitizer
                 HINTS "${parlab_cuda_bin}" "${parlab_cuda_bin}/../compute-sanitizer" NO_DEFAULT_PATH)
    if(PARLAB_COMPUTE_SANITIZER)
      parlab_json_set_string(t compute_sanitizer "${PARLAB_COMPUTE_SANITIZER}")
    endif()
  else()
    string(JSON t SET "${t}" cuda false)
  endif()

  set(sim "{}")
  parlab_json_set_string(sim rewrite_tool "$<TARGET_FILE:parlab-sim-rewrite>")
  parlab_json_set_string(sim code_places_tool "$<TARGET_FILE:parlab-sim-code-places>")
  parlab_json_set_string(sim library "${PARLAB_SIM_SEALED_OBJECT}")  # sim/CMakeLists.txt
  parlab_json_string_array(sim_include "${PROJECT_SOURCE_DIR}/sim/include/cuda_compat"
                           "${PROJECT_SOURCE_DIR}/sim/include")
  string(JSON sim SET "${sim}" include "${sim_include}")
  parlab_json_set_string(sim prelude "parlab_sim/prelude.hpp")
  parlab_json_set_string(sim objcopy "${CMAKE_OBJCOPY}")
  parlab_json_string_array(sim_link "$<TARGET_FILE:Boost::context>")
  string(JSON sim SET "${sim}" link "${sim_link}")
  parlab_json_string_array(sim_check_flags ${PARLAB_SIM_RACE_FLAGS})
  string(JSON sim SET "${sim}" check_flags "${sim_check_flags}")
  parlab_json_string_array(sim_divergence_flags ${PARLAB_SIM_DIVERGENCE_FLAGS})
  string(JSON sim SET "${sim}" divergence_flags "${sim_divergence_flags}")
  parlab_json_set_string(sim prelude_pch_dir "${PARLAB_SIM_PRELUDE_PCH_DIR}")
  string(JSON t SET "${t}" sim "${sim}")

  set(labs "{}")
  get_property(ids GLOBAL PROPERTY PARLAB_LAB_IDS)
  foreach(id IN LISTS ids)
    get_property(entry GLOBAL PROPERTY PARLAB_LAB_JSON_${id})
    string(JSON labs SET "${labs}" ${id} "${entry}")
  endforeach()
  string(JSON t SET "${t}" labs "${labs}")
  file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/toolchain.json CONTENT "${t}\n")
endfunction()
