// Writes op_results.hpp's cases, all of them, as JSON on stdout: {"device": name, "results":
// {key: result}}. Built and run against the tree before the descriptor issue by
// make_op_results.sh, which merges it into tests/golden/op_results.json.
// Usage: make_op_results KERNEL_DIR   (the device: CLREDUCE_DEVICE, as for clreduce)
#include "op_results.hpp"
#include <iostream>
#include <nlohmann/json.hpp>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: make_op_results KERNEL_DIR\n";
    return 2;
  }
  try {
    const clreduce::DeviceInfo dev = clreduce::select_device(clreduce::DeviceSelector{});
    const cl::Context context(dev.device);
    const cl::CommandQueue queue(context, dev.device);
    const clreduce::golden::Results r =
        clreduce::golden::op_results(queue, dev, argv[1], [](std::size_t, const std::string&) { return true; });
    nlohmann::ordered_json doc;
    doc["device"] = dev.name;
    doc["results"] = r;
    std::cout << doc.dump(1) << "\n";
  } catch (const std::exception& e) {
    std::cerr << "make_op_results: " << e.what() << "\n";
    return 1;
  }
}
