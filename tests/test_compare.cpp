// The compare and report commands on saved result files (cli suite), and the saved files read back.
#include <doctest/doctest.h>
