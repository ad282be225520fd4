// clreduce: the command line. Each command family registers its own subcommands (cli/*.cpp);
// cli.cpp parses, runs the one given, and turns every error into one line and exit code 2.
#include "cli.hpp"

int main(int argc, char** argv) {
  clreduce::cli::Cli cli;
  clreduce::cli::register_info_commands(cli);
  clreduce::cli::register_reduce_command(cli);
  clreduce::cli::register_bench_commands(cli);
  clreduce::cli::register_transpose_commands(cli);
  clreduce::cli::register_axis_bench_command(cli);
  clreduce::cli::register_descriptor_bench_command(cli);
  clreduce::cli::register_multi_bench_command(cli);
  clreduce::cli::register_explore_commands(cli);
  clreduce::cli::register_descriptor_tune_command(cli);
  clreduce::cli::register_soak_command(cli);
  clreduce::cli::register_explain_command(cli);
  clreduce::cli::register_compare_command(cli);
  clreduce::cli::register_report_command(cli);
  return cli.run(argc, argv);
}
