// Parsers of user input: sizes with suffixes, -D definitions, type/operator/data/format names.
#include <doctest/doctest.h>

#include "clreduce/error.hpp"
#include "parse.hpp"
#include "printers/table.hpp"
#include "printers/reduce_printer.hpp"
#include "clreduce/types.hpp"

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
    CHECK_THROWS_WITH_AS(parse_op("prod"), "unknown operator 'prod'; valid operators: sum, min, max, argmin, argmax",
                         Error);
    CHECK_THROWS_WITH_AS(parse_data_kind("zeros"),
                         "unknown data kind 'zeros'; valid data kinds: random, iota, ones, max", Error);
    CHECK_THROWS_WITH_AS(parse_format("xml"), "unknown format 'xml'; valid formats: table, csv, json",
                         Error);
  }

  TEST_CASE("size lists: sizes and geometric ranges A..B[:F]") {
    using V = std::vector<std::uint64_t>;
    CHECK(parse_size_list("2^20,2^24") == V{1u << 20, 1u << 24});
    CHECK(parse_size_list("1000..8000") == V{1000, 2000, 4000, 8000});
    CHECK(parse_size_list("1K..1M:10") == V{1000, 10000, 100000, 1000000});
    CHECK(parse_size_list("1Ki..5Ki:2") == V{1024, 2048, 4096});  // B need not be on the grid
    CHECK(parse_size_list(" 7 , 3..3 ") == V{7, 3});
    CHECK(parse_size_list("1..18446744073709551615").size() == 64);  // no overflow past 2^63
    CHECK_THROWS_WITH_AS(parse_size_list("8..2"), doctest::Contains("the start is above the end"), Error);
    CHECK_THROWS_WITH_AS(parse_size_list("1..8:1"), doctest::Contains("step factor must be at least 2"), Error);
    CHECK_THROWS_WITH_AS(parse_size_list("0..8"), doctest::Contains("a range starts at 1"), Error);
    CHECK_THROWS_WITH_AS(parse_size_list("1,,2"), doctest::Contains("invalid size list item '' (empty)"), Error);
    CHECK_THROWS_WITH_AS(parse_size_list("1..x"), doctest::Contains("invalid size 'x'"), Error);
    std::string many = "1";
    for (int i = 0; i < 4096; ++i) many += ",1";
    CHECK_THROWS_WITH_AS(parse_size_list(many), doctest::Contains("more than 4096 sizes"), Error);
  }
}
