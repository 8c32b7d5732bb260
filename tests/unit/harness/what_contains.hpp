#pragma once
// A Catch2 v2 matcher for CHECK_THROWS_MATCHES on any std::exception: the string
// matchers of Catch2 v2 only match std::string, not an exception's what().
#include <catch2/catch.hpp>
#include <exception>
#include <string>

namespace parlab::test {

class WhatContains : public Catch::MatcherBase<std::exception> {
 public:
  explicit WhatContains(std::string part) : part_(std::move(part)) {}
  bool match(const std::exception& e) const override {
    return std::string(e.what()).find(part_) != std::string::npos;
  }
  std::string describe() const override { return "what() contains \"" + part_ + "\""; }

 private:
  std::string part_;
};

}  // namespace parlab::test
