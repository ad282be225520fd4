// The option string handed to the OpenCL compiler: typed parameters first (each as
// -D NAME=VALUE), then the user's own -D definitions untouched. The whole string is part of the
// program cache key.
#pragma once

#include "parse.hpp"

#include <string>
#include <vector>

namespace clreduce {

class BuildOptions {
 public:
  BuildOptions& set(const std::string& name, const std::string& value);
  BuildOptions& set(const std::string& name, unsigned long long value);
  BuildOptions& add_user(const Define& d);
  BuildOptions& add_user(const std::vector<Define>& ds);
  BuildOptions& add_flag(const std::string& flag);  // e.g. "-cl-fast-relaxed-math"
  std::string str() const;

 private:
  std::vector<std::string> parts_;
};

}  // namespace clreduce
