// Parsers of user input: sizes with suffixes, -D definitions, type/operator/data/format names.
#include <doctest/doctest.h>

#include "errors.hpp"
#include "parse.hpp"
#include "report.hpp"
#include "types.hpp"

using namespace clreduce;

TEST_SUITE("unit") {
  TEST_CASE("sizes accept plain numbers, decimal and binary suffixes, and 2^N") {
    CHECK(parse_size("1") == 1);
    CHECK(parse_size(" 1000 ") == 1000);
    CHECK(parse_size("64K") == 64000);
    CHECK(parse_size("64M") == 64000000);
    CHECK(parse_size("2G") == 2000000000);
    CHECK(parse_size("1T") == 1000000000000ULL);
    CHECK(parse_size("64Ki") == 65536);
    CHECK(parse_size("64Mi") == 64ULL << 20);
    CHECK(parse_size("1Gi") == 1ULL << 30);
    CHECK(parse_size("1Ti") == 1ULL << 40);
    CHECK(parse_size("2^26") == 1ULL << 26);
    CHECK(parse_size("2^0") == 1);
    CHECK(parse_size("2^63") == 1ULL << 63);
  }

  TEST_CASE("bad sizes name the text and the accepted forms") {
    for (const char* bad : {"", "abc", "12q", "1.5M", "-3", "3^4", "2^64", "2^", "99999999999999999999",
                            "20000000Ti", "64 M"}) {
      CAPTURE(bad);
      CHECK_THROWS_WITH_AS(parse_size(bad), doctest::Contains("invalid size"), Error);
      CHECK_THROWS_WITH_AS(parse_size(bad), doctest::Contains("1Gi"), Error);
    }
  }

  TEST_CASE("-D definitions") {
    CHECK(parse_define("FOO") == Define{"FOO", std::nullopt});
    CHECK(parse_define("FOO=1") == Define{"FOO", std::string("1")});
    CHECK(parse_define("_X9=abc") == Define{"_X9", std::string("abc")});
    CHECK(parse_define("F=") == Define{"F", std::string("")});
    CHECK(parse_define("MAP(x)=((x)*2)") == Define{"MAP(x)", std::string("((x)*2)")});
    CHECK(parse_define("FOO=1").str() == "FOO=1");
    for (const char* bad : {"", "=1", "1X=2", "A-B=1", "A=1 2", "A=\"s\"", "M(x=1", "M(x y)=1"}) {
      CAPTURE(bad);
      CHECK_THROWS_WITH_AS(parse_define(bad), doctest::Contains("invalid -D definition"), Error);
    }
  }

  TEST_CASE("unknown type, operator, data kind and format list the valid choices") {
    CHECK(parse_type("float") == ElemType::Float);
    CHECK(parse_op("max") == Op::Max);
    CHECK(parse_data_kind("iota") == DataKind::Iota);
    CHECK_THROWS_WITH_AS(parse_type("half"),
                         "unknown type 'half'; valid types: uint, int, float, double", Error);
    CHECK_THROWS_WITH_AS(parse_op("prod"), "unknown operator 'prod'; valid operators: sum, min, max",
                         Error);
    CHECK_THROWS_WITH_AS(parse_data_kind("zeros"),
                         "unknown data kind 'zeros'; valid data kinds: random, iota, ones, max", Error);
    CHECK_THROWS_WITH_AS(parse_format("xml"), "unknown format 'xml'; valid formats: table, csv, json",
                         Error);
  }
}
