# toolchain.json's values survive any character a path may hold: quotes, backslashes,
# control characters, semicolons and the empty string (cmake/ParlabToolchainJson.cmake).
# Run by CTest as `cmake -P`; fails with FATAL_ERROR.
include(${PARLAB_SOURCE_DIR}/cmake/ParlabToolchainJson.cmake)

set(object "{}")
set(weird "a\"b\\c\nd;e\tf\r")
parlab_json_set_string(object weird "${weird}")
parlab_json_set_string(object empty "")
parlab_json_string_array(array "x\"y" "z\\w")
string(JSON object SET "${object}" list "${array}")

string(JSON got GET "${object}" weird)
if(NOT got STREQUAL weird)
  message(FATAL_ERROR "a string with quotes, backslashes and control characters came back as '${got}'")
endif()
string(JSON got GET "${object}" empty)
if(NOT got STREQUAL "")
  message(FATAL_ERROR "the empty string came back as '${got}'")
endif()
string(JSON got GET "${object}" list 1)
if(NOT got STREQUAL "z\\w")
  message(FATAL_ERROR "an array element came back as '${got}'")
endif()
string(JSON count LENGTH "${object}" list)
if(NOT count EQUAL 2)
  message(FATAL_ERROR "the array has ${count} elements, expected 2")
endif()
message(STATUS "toolchain.json values round-trip")
