// SVG read-back with expat.
#include "svg_check.hpp"

#include <expat.h>

#include <set>

namespace clreduce::test {

bool SvgDocument::has_text(const std::string& s) const {
  for (const auto& t : texts)
    if (t == s) return true;
  return false;
}

namespace {
struct Parse {
  SvgDocument out;
  struct Open {
    std::string name;
    bool mark = false;
    int children = 0;
  };
  std::vector<Open> stack;
  std::string chars;
  bool in_mark_title = false;
};

void XMLCALL on_start(void* data, const XML_Char* name, const XML_Char** attrs) {
  auto& p = *static_cast<Parse*>(data);
  Parse::Open open{name, false, 0};
  for (int i = 0; attrs[i] != nullptr; i += 2) {
    const std::string key = attrs[i], value = attrs[i + 1];
    if (key == "class") {
      ++p.out.classes[value];
      open.mark = value == "mark";
    }
    if (p.stack.empty() && key == "xmlns") p.out.root_xmlns = value;
    static const std::set<std::string> geometry{"x",  "y",  "x1",     "x2",     "y1",        "y2",     "cx",
                                                "cy", "r",  "width",  "height", "transform", "points", "viewBox"};
    if (geometry.count(key) && (value.find("nan") != std::string::npos || value.find("inf") != std::string::npos))
      p.out.bad_geometry += key + "=\"" + value + "\" ";
  }
  if (p.stack.empty()) p.out.root = name;
  if (!p.stack.empty()) {
    Parse::Open& parent = p.stack.back();
    if (parent.mark && parent.children == 0 && open.name == "title") {
      ++p.out.marks_with_title;
      p.in_mark_title = true;
    }
    ++parent.children;
  }
  p.chars.clear();
  p.stack.push_back(open);
}

void XMLCALL on_end(void* data, const XML_Char* name) {
  auto& p = *static_cast<Parse*>(data);
  if (std::string(name) == "text") p.out.texts.push_back(p.chars);
  if (p.in_mark_title && std::string(name) == "title") {
    p.out.mark_titles.push_back(p.chars);
    p.in_mark_title = false;
  }
  p.chars.clear();
  p.stack.pop_back();
}

void XMLCALL on_chars(void* data, const XML_Char* s, int len) {
  static_cast<Parse*>(data)->chars.append(s, static_cast<std::size_t>(len));
}

}  // namespace

SvgDocument parse_svg(const std::string& svg) {
  Parse p;
  XML_Parser parser = XML_ParserCreate(nullptr);
  XML_SetUserData(parser, &p);
  XML_SetElementHandler(parser, on_start, on_end);
  XML_SetCharacterDataHandler(parser, on_chars);
  p.out.ok = XML_Parse(parser, svg.data(), static_cast<int>(svg.size()), 1) == XML_STATUS_OK;
  if (!p.out.ok)
    p.out.error = std::string(XML_ErrorString(XML_GetErrorCode(parser))) + " at line " +
                  std::to_string(XML_GetCurrentLineNumber(parser));
  XML_ParserFree(parser);
  return p.out;
}

}  // namespace clreduce::test
