// Size and size-list parsing.
#include "parse.hpp"

#include "clreduce/error.hpp"

#include <cctype>
#include <charconv>
#include <limits>

namespace clreduce {

namespace {
constexpr const char* kSizeForms =
    "use a whole number with an optional suffix K, M, G, T (x1000) or Ki, Mi, Gi, Ti (x1024), "
    "or 2^N, e.g. 1000000, 64M, 1Gi, 2^26";

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

[[noreturn]] void bad_size(std::string_view text, const std::string& why) {
  throw Error("invalid size '" + std::string(text) + "'" + (why.empty() ? "" : " (" + why + ")") +
              "; " + kSizeForms);
}

std::uint64_t mul_checked(std::uint64_t a, std::uint64_t b, std::string_view text) {
  if (b != 0 && a > std::numeric_limits<std::uint64_t>::max() / b) bad_size(text, "too large");
  return a * b;
}

[[noreturn]] void bad_list(std::string_view item, const std::string& why) {
  throw Error("invalid size list item '" + std::string(item) + "' (" + why +
              "); use sizes or ranges A..B (factor 2) or A..B:F, comma-separated, e.g. "
              "2^20,2^24 or 1K..1G:4");
}
}  // namespace

std::uint64_t parse_size(std::string_view original) {
  std::string_view text = trim(original);
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  if (digits == 0) bad_size(original, "");
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < digits; ++i) {
    value = mul_checked(value, 10, original);
    const auto d = static_cast<std::uint64_t>(text[i] - '0');
    if (value > std::numeric_limits<std::uint64_t>::max() - d) bad_size(original, "too large");
    value += d;
  }
  std::string_view suffix = text.substr(digits);
  if (suffix.empty()) return value;
  if (suffix.front() == '^') {
    if (value != 2) bad_size(original, "only powers of 2 may be written with ^");
    std::string_view exp = suffix.substr(1);
    if (exp.empty() || exp.size() > 2) bad_size(original, "exponent must be 0..63");
    unsigned e = 0;
    for (char c : exp) {
      if (!std::isdigit(static_cast<unsigned char>(c))) bad_size(original, "exponent must be 0..63");
      e = e * 10 + static_cast<unsigned>(c - '0');
    }
    if (e > 63) bad_size(original, "exponent must be 0..63");
    return std::uint64_t{1} << e;
  }
  static const struct {
    std::string_view suffix;
    std::uint64_t factor;
  } table[] = {{"K", 1000ULL},
               {"M", 1000ULL * 1000},
               {"G", 1000ULL * 1000 * 1000},
               {"T", 1000ULL * 1000 * 1000 * 1000},
               {"Ki", 1ULL << 10},
               {"Mi", 1ULL << 20},
               {"Gi", 1ULL << 30},
               {"Ti", 1ULL << 40}};
  for (const auto& s : table)
    if (suffix == s.suffix) return mul_checked(value, s.factor, original);
  bad_size(original, "unknown suffix '" + std::string(suffix) + "'");
}

std::vector<std::uint64_t> parse_size_list(std::string_view text) {
  std::vector<std::uint64_t> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string_view item = trim(text.substr(start, comma == std::string_view::npos ? comma : comma - start));
    if (item.empty()) bad_list(item, "empty");
    const std::size_t dots = item.find("..");
    if (dots == std::string_view::npos) {
      out.push_back(parse_size(item));
    } else {
      const std::string_view rest = item.substr(dots + 2);
      const std::size_t colon = rest.find(':');
      const std::uint64_t a = parse_size(item.substr(0, dots));
      const std::uint64_t b = parse_size(rest.substr(0, colon));
      const std::uint64_t f = colon == std::string_view::npos ? 2 : parse_size(rest.substr(colon + 1));
      if (a == 0) bad_list(item, "a range starts at 1 or more");
      if (a > b) bad_list(item, "the start is above the end");
      if (f < 2) bad_list(item, "the step factor must be at least 2");
      for (std::uint64_t x = a; x <= b;) {
        out.push_back(x);
        if (out.size() > kMaxSizeListItems) break;
        if (x > b / f) break;  // the next step would pass b (or overflow)
        x *= f;
      }
    }
    if (out.size() > kMaxSizeListItems)
      bad_list(item, "more than " + std::to_string(kMaxSizeListItems) + " sizes in all");
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

std::pair<std::uint64_t, std::uint64_t> parse_shape(std::string_view text) {
  const auto x = text.find_first_of("xX");
  if (x == std::string_view::npos || x == 0 || x + 1 == text.size())
    throw Error(Param::Shape, "shape '" + std::string(text) +
                "' is not ROWSxCOLUMNS (M x N, e.g. 2048x512, 8Kix8Ki or 2^13x2^13)", "MxN");
  return {parse_size(text.substr(0, x)), parse_size(text.substr(x + 1))};
}

std::string shape_label(std::uint64_t m, std::uint64_t n) {
  return std::to_string(m) + "x" + std::to_string(n);
}

std::string printable(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) out += '?';
    else out += c;
  }
  return out;
}

double parse_kernel_timeout(const std::optional<std::string>& option, const char* env) {
  const std::string where = option ? "--kernel-timeout" : "CLREDUCE_KERNEL_TIMEOUT";
  if (!option && (!env || !*env)) return kDefaultKernelTimeout;
  const std::string text = option ? *option : std::string(env);
  const std::string valid = "a number of seconds from 0 (wait forever) to " +
                            std::to_string(static_cast<int>(kMostKernelTimeout)) + ", e.g. 60 or 0.5";
  double v = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  const auto [end, ec] = std::from_chars(first, last, v);
  if (text.empty() || ec != std::errc() || end != last || !(v >= 0 && v <= kMostKernelTimeout))
    throw Error(Param::None, where + ": '" + printable(text) + "' is not " + valid, valid);
  return v;
}

}  // namespace clreduce
