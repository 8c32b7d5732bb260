// Params: typed getters, fallbacks, and errors that name the key.
#include "parlab/harness/params.hpp"

#include <catch2/catch.hpp>
#include <map>

#include "what_contains.hpp"

using parlab::ParamError;
using parlab::Params;
using parlab::test::WhatContains;

TEST_CASE("params: typed getters parse their values", "[params]") {
  Params p(std::map<std::string, std::string>{{"n", "42"},
                                              {"neg", "-7"},
                                              {"x", "2.5"},
                                              {"e", "1e-3"},
                                              {"name", "zipf"},
                                              {"on", "true"},
                                              {"off", "0"},
                                              {"padded", " 12 "}});
  CHECK(p.get_int("n") == 42);
  CHECK(p.get_int("neg") == -7);
  CHECK(p.get_int("padded") == 12);
  CHECK(p.get_double("x") == 2.5);
  CHECK(p.get_double("e") == 1e-3);
  CHECK(p.get_double("n") == 42.0);
  CHECK(p.get_string("name") == "zipf");
  CHECK(p.get_bool("on", false));
  CHECK_FALSE(p.get_bool("off", true));
}

TEST_CASE("params: fallbacks apply only to missing keys", "[params]") {
  Params p(std::map<std::string, std::string>{{"n", "3"}});
  CHECK(p.get_int("missing", 9) == 9);
  CHECK(p.get_int("n", 9) == 3);
  CHECK(p.get_double("missing", 0.5) == 0.5);
  CHECK(p.get_string("missing", "dflt") == "dflt");
  CHECK(p.get_bool("missing", true));
  CHECK(p.has("n"));
  CHECK_FALSE(p.has("missing"));
  p.set("missing", "4");
  CHECK(p.get_int("missing", 9) == 4);
}

TEST_CASE("params: a missing required key is named", "[params]") {
  Params p;
  CHECK_THROWS_MATCHES(p.get_int("workers"), ParamError, WhatContains("'workers'"));
  CHECK_THROWS_AS(p.get_string("workers"), ParamError);
  CHECK_THROWS_AS(p.get_double("workers"), ParamError);
}

TEST_CASE("params: bad values are rejected with the key and the value", "[params]") {
  Params p(std::map<std::string, std::string>{{"workers", "four"},
                                              {"half", "3x"},
                                              {"big", "99999999999999999999"},
                                              {"rate", "abc"},
                                              {"nan", "nan"},
                                              {"inf", "inf"},
                                              {"empty", ""},
                                              {"flag", "maybe"},
                                              {"frac", "2.5"}});
  CHECK_THROWS_MATCHES(p.get_int("workers"), ParamError,
                       WhatContains("'workers'") && WhatContains("four"));
  CHECK_THROWS_AS(p.get_int("half"), ParamError);
  CHECK_THROWS_AS(p.get_int("big"), ParamError);
  CHECK_THROWS_AS(p.get_int("frac"), ParamError);
  CHECK_THROWS_AS(p.get_int("empty"), ParamError);
  CHECK_THROWS_MATCHES(p.get_double("rate"), ParamError, WhatContains("'rate'"));
  CHECK_THROWS_AS(p.get_double("nan"), ParamError);
  CHECK_THROWS_AS(p.get_double("inf"), ParamError);
  CHECK_THROWS_AS(p.get_double("empty"), ParamError);
  CHECK_THROWS_MATCHES(p.get_bool("flag", false), ParamError, WhatContains("'flag'"));
}
