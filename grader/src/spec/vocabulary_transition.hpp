#pragma once
// Transitional (issue 29): `t.kind == "performance"` on the typed vocabulary, for the
// lines of grading/grade_session.cpp that still compare names. Delete this header once
// check_vocabulary_words.py's allow-list is empty.
#include <concepts>
#include <string_view>

#include "result/result.hpp"
#include "spec/lab_vocabulary.hpp"

namespace parlab::grader {

template <typename E>
concept TransitionalWord = std::same_as<E, TestKind> || std::same_as<E, DeviceMode> ||
                           std::same_as<E, RooflineBound> || std::same_as<E, Device> ||
                           std::same_as<E, BaselineProgram>;

template <TransitionalWord E>
bool operator==(E word, std::string_view name) {
  return name == to_string(word);
}

}  // namespace parlab::grader
