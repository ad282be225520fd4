// doctest entry point: prints the device under test and the seed before running.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "support.hpp"

#include <iostream>

int main(int argc, char** argv) {
  doctest::Context ctx(argc, argv);
  std::cout << "clreduce tests: seed " << clreduce::test::seed()
            << " (set CLREDUCE_TEST_SEED to repeat another)\n";
  return ctx.run();
}
