// BuildOptions: assembling "-D NAME=VALUE ..." strings.
#include "core/build_options.hpp"

#include "clreduce/types.hpp"

namespace clreduce {

BuildOptions& BuildOptions::set(const std::string& name, const std::string& value) {
  parts_.push_back("-D " + name + "=" + value);
  return *this;
}
BuildOptions& BuildOptions::set(const std::string& name, unsigned long long value) {
  return set(name, std::to_string(value));
}
BuildOptions& BuildOptions::add_user(const Define& d) {
  parts_.push_back("-D " + d.str());
  return *this;
}
BuildOptions& BuildOptions::add_user(const std::vector<Define>& ds) {
  for (const auto& d : ds) add_user(d);
  return *this;
}
BuildOptions& BuildOptions::add_flag(const std::string& flag) {
  parts_.push_back(flag);
  return *this;
}
std::string BuildOptions::str() const { return join(parts_, " "); }

}  // namespace clreduce
