// The SVG writer: XML escaping with UTF-8 checking, locale-independent numbers, element nesting.
#include "printers/svg.hpp"

#include <cmath>
#include <cstdint>
#include <ios>
#include <locale>
#include <sstream>
#include <stdexcept>

namespace clreduce {

namespace {

const char* const kReplacement = "\xEF\xBF\xBD";  // U+FFFD in UTF-8

// XML 1.0's Char production.
bool xml_char(std::uint32_t c) {
  return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) ||
         (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

// Length of the valid UTF-8 sequence at s[i] with its code point in *cp, or 0 when it is invalid
// (truncated, overlong, a surrogate, above U+10FFFF).
std::size_t utf8_sequence(const std::string& s, std::size_t i, std::uint32_t* cp) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  std::size_t len = 0;
  std::uint32_t c = 0;
  if (b0 < 0x80) {
    *cp = b0;
    return 1;
  } else if ((b0 & 0xE0) == 0xC0) {
    len = 2;
    c = b0 & 0x1Fu;
  } else if ((b0 & 0xF0) == 0xE0) {
    len = 3;
    c = b0 & 0x0Fu;
  } else if ((b0 & 0xF8) == 0xF0) {
    len = 4;
    c = b0 & 0x07u;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    c = (c << 6) | (byte(i + k) & 0x3Fu);
  }
  const std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (c < smallest[len] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
  *cp = c;
  return len;
}

std::string classic_format(double x, int precision, bool fixed) {
  std::ostringstream out;
  out.imbue(std::locale::classic());
  if (fixed) out.setf(std::ios::fixed, std::ios::floatfield);
  out.precision(precision);
  out << x;
  return out.str();
}

}  // namespace

std::string xml_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    std::uint32_t cp = 0;
    const std::size_t len = utf8_sequence(text, i, &cp);
    if (len == 0 || !xml_char(cp)) {
      out += kReplacement;
      i += len == 0 ? 1 : len;
      continue;
    }
    switch (cp) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out.append(text, i, len);
    }
    i += len;
  }
  return out;
}

std::string format_fixed(double x, int decimals) { return classic_format(x, decimals, true); }

std::string format_significant(double x, int digits) { return classic_format(x, digits, false); }

std::string svg_number(double x, int decimals) {
  if (!std::isfinite(x)) return "0";
  std::string s = format_fixed(x, decimals);
  if (s.find('.') != std::string::npos) {
    s.erase(s.find_last_not_of('0') + 1);
    if (s.back() == '.') s.pop_back();
  }
  if (s == "-0") s = "0";
  return s;
}

SvgWriter::SvgWriter(double width, double height, const SvgAttrs& root_attrs) {
  out_ = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  SvgAttrs attrs{{"xmlns", "http://www.w3.org/2000/svg"},
                 {"width", svg_number(width)},
                 {"height", svg_number(height)},
                 {"viewBox", "0 0 " + svg_number(width) + " " + svg_number(height)}};
  attrs.insert(attrs.end(), root_attrs.begin(), root_attrs.end());
  start_tag("svg", attrs);
  out_ += ">\n";
  open_.push_back("svg");
}

void SvgWriter::start_tag(const std::string& tag, const SvgAttrs& attrs) {
  out_.append(2 * open_.size(), ' ');
  out_ += '<';
  out_ += tag;
  for (const auto& [name, value] : attrs) {
    out_ += ' ';
    out_ += name;
    out_ += "=\"";
    out_ += xml_escape(value);
    out_ += '"';
  }
}

void SvgWriter::open(const std::string& tag, const SvgAttrs& attrs) {
  start_tag(tag, attrs);
  out_ += ">\n";
  open_.push_back(tag);
}

void SvgWriter::close() {
  if (open_.size() <= 1) throw std::logic_error("SvgWriter::close: no element is open");
  const std::string tag = open_.back();
  open_.pop_back();
  out_.append(2 * open_.size(), ' ');
  out_ += "</" + tag + ">\n";
}

void SvgWriter::leaf(const std::string& tag, const SvgAttrs& attrs) {
  start_tag(tag, attrs);
  out_ += "/>\n";
}

void SvgWriter::text(const std::string& tag, const SvgAttrs& attrs, const std::string& content) {
  start_tag(tag, attrs);
  out_ += '>';
  out_ += xml_escape(content);
  out_ += "</" + tag + ">\n";
}

std::string SvgWriter::str() const {
  std::string doc = out_;
  for (std::size_t depth = open_.size(); depth-- > 0;) {
    doc.append(2 * depth, ' ');
    doc += "</" + open_[depth] + ">\n";
  }
  return doc;
}

}  // namespace clreduce
