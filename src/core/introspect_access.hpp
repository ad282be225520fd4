// The one door from clreduce::introspect's hooks (include/clreduce/introspect/) to a reducer's
// private state: each reducer class names Access its friend, and the hooks, defined beside each
// reducer, reach its State through it. Nothing outside the library sees this header.
#pragma once

namespace clreduce::introspect {

struct Access {
  template <class R>
  static auto& state(R& r) {
    return *r.s_;
  }
  template <class R>
  static const auto& state(const R& r) {
    return *r.s_;
  }
};

}  // namespace clreduce::introspect
