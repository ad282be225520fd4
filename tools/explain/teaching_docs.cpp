// The teaching documents' generated blocks. The tables read the JSON the bench commands write,
// so a document's figures are the committed run's figures, and each row's "speedup over the
// step before" is computed here from the registry's predecessor, not typed in.
#include "explain/teaching_docs.hpp"

#include "clreduce/error.hpp"
#include "clreduce/transpose.hpp"
#include "clreduce/variants.hpp"
#include "explain/explain.hpp"
#include "printers/svg.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

namespace clreduce {

namespace {
using nlohmann::json;

const json& field(const json& j, const char* key, const std::string& where) {
  if (!j.is_object() || !j.contains(key)) throw Error(where + ": no \"" + key + "\" field");
  return j.at(key);
}

double number(const json& j, const char* key, const std::string& where) {
  const json& v = field(j, key, where);
  if (!v.is_number()) throw Error(where + ": \"" + key + "\" is not a number");
  return v.get<double>();
}

// A count (wg, passes, n, ...): a whole number from 0 up; anything else is refused, never cast.
unsigned long long count_of(const json& j, const char* key, const std::string& where) {
  const json& v = field(j, key, where);
  if (v.is_number_unsigned()) return v.get<unsigned long long>();
  if (v.is_number_integer() && v.get<long long>() >= 0) return static_cast<unsigned long long>(v.get<long long>());
  throw Error(where + ": \"" + key + "\" is not a whole number from 0 up");
}

std::string text_of(const json& j, const char* key, const std::string& where) {
  const json& v = field(j, key, where);
  if (!v.is_string()) throw Error(where + ": \"" + key + "\" is not a string");
  return v.get<std::string>();
}

// "timed by device events" and the clock's note, where the run left one.
std::string clock_text(const json& bench, const std::string& where) {
  std::string t = "timed by " + text_of(bench, "clock", where);
  if (bench.contains("clock_note") && bench.at("clock_note").is_string() && !bench.at("clock_note").get<std::string>().empty())
    t += " (" + bench.at("clock_note").get<std::string>() + ")";
  return t;
}

std::string us_text(double us) { return format_fixed(us, us >= 100 ? 1 : 2); }

struct StepFigures {
  bool ok = false;
  std::string status;
  double us = 0, gbps = 0, pct = 0;
  std::string launch;
};

// The teaching order: depth first from the family's first step, each variant's successors in
// registry order, so a branch is walked to its end before the next begins (the registry keeps
// local_tile_multi after the register tiles; the walk puts it after local_tile_padded).
std::vector<std::size_t> teaching_order(const std::vector<std::string>& names,
                                        const std::vector<std::string>& predecessors) {
  std::vector<std::size_t> order;
  std::vector<std::size_t> stack;
  for (std::size_t i = names.size(); i-- > 0;)
    if (predecessors[i].empty()) stack.push_back(i);
  while (!stack.empty()) {
    const std::size_t i = stack.back();
    stack.pop_back();
    order.push_back(i);
    for (std::size_t j = names.size(); j-- > 0;)
      if (predecessors[j] == names[i]) stack.push_back(j);
  }
  return order;
}

std::string table(const std::vector<std::string>& names, const std::vector<std::string>& predecessors,
                  const std::map<std::string, StepFigures>& figures, const char* pct_header) {
  std::ostringstream out;
  out << "| step | variant | follows | launch | median µs | GB/s | " << pct_header
      << " | speedup over the step it follows | check |\n";
  out << "|---:|---|---|---|---:|---:|---:|---:|---|\n";
  std::size_t step = 0;
  for (const std::size_t i : teaching_order(names, predecessors)) {
    ++step;
    const auto it = figures.find(names[i]);
    if (it == figures.end()) continue;  // not in this run (a --variants subset)
    const StepFigures& f = it->second;
    out << "| " << step << " | `" << names[i] << "` | "
        << (predecessors[i].empty() ? "-" : "`" + predecessors[i] + "`") << " | " << (f.launch.empty() ? "-" : f.launch)
        << " | ";
    if (!f.ok) {
      out << "- | - | - | - | " << f.status << " |\n";
      continue;
    }
    std::string speedup = "-";
    const auto before = figures.find(predecessors[i]);
    if (!predecessors[i].empty() && before != figures.end() && before->second.ok)
      speedup = format_fixed(before->second.us / f.us, 2) + "x";
    out << us_text(f.us) << " | " << format_fixed(f.gbps, 0) << " | " << format_fixed(f.pct, 1) << "% | " << speedup
        << " | " << f.status << " |\n";
  }
  return out.str();
}

// The figures every bench row has: status, median, GB/s and the % of the bound (`pct_key`).
StepFigures figures_of(const json& row, const std::string& name, const char* pct_key, const std::string& where) {
  const std::string at = where + " row " + name;
  StepFigures f;
  f.status = text_of(row, "status", at);
  f.ok = f.status == "ok";
  if (f.ok) {
    f.us = number(field(row, "time_us", at), "median", at);
    f.gbps = number(row, "gbps", at);
    f.pct = number(row, pct_key, at);
  }
  return f;
}

template <typename VariantList>
std::string table_of(const VariantList& family, const std::map<std::string, StepFigures>& figures,
                     const char* pct_header) {
  std::vector<std::string> names, predecessors;
  for (const auto& v : family) {
    names.push_back(v.name);
    predecessors.push_back(v.predecessor);
  }
  return table(names, predecessors, figures, pct_header);
}

std::string device_text(const json& bench, const std::string& where) {
  const json& dev = field(bench, "device", where);
  return text_of(dev, "name", where + " device") + " (" + text_of(dev, "platform", where + " device") + ", driver " +
         text_of(dev, "driver_version", where + " device") + ")";
}
}  // namespace

std::string reduction_steps_table(const json& bench) {
  const std::string where = "reduction bench JSON";
  std::map<std::string, StepFigures> figures;
  for (const json& row : field(bench, "rows", where)) {
    const std::string name = text_of(row, "variant", where + " row");
    find_variant(name);  // throws for a name the registry does not have
    StepFigures f = figures_of(row, name, "pct_of_peak", where);
    if (f.ok) {
      f.launch = "wg " + std::to_string(count_of(row, "wg", where));
      const Variant& v = find_variant(name);
      if (v.uses_times()) f.launch += ", times " + std::to_string(count_of(row, "times", where));
      if (v.uses_vec()) f.launch += ", vec " + std::to_string(count_of(row, "vec", where));
      const unsigned long long passes = count_of(row, "passes", where);
      f.launch += ", " + std::to_string(passes) + (passes == 1 ? " pass" : " passes");
    } else if (row.contains("skipped") && row.at("skipped").is_string()) {
      const std::string why = row.at("skipped").get<std::string>();
      f.status = "skipped: " + why.substr(0, why.find(" ("));
    }
    figures[name] = f;
  }
  return table_of(variants(), figures, "% of read peak");
}

std::string transpose_steps_table(const json& bench) {
  const std::string where = "transpose bench JSON";
  const json& shapes = field(bench, "shapes", where);
  if (!shapes.is_array() || shapes.empty()) throw Error(where + ": no shape measured");
  std::map<std::string, StepFigures> figures;
  for (const json& row : field(shapes.at(0), "rows", where)) {
    const std::string name = text_of(row, "variant", where + " row");
    find_transpose_variant(name);
    StepFigures f = figures_of(row, name, "pct_of_copy", where);
    if (f.ok) {
      const std::string context = where + " row " + name;  // not a temporary: g++ 13 warns of a dangling reference
      const json& plan = field(row, "plan", context);
      f.launch = "wg " + std::to_string(count_of(plan, "wg_x", where)) + "x" +
                 std::to_string(count_of(plan, "wg_y", where));
      const unsigned long long tile = count_of(plan, "tile", where);
      if (tile > 0) f.launch += ", tile " + std::to_string(tile);
    }
    figures[name] = f;
  }
  return table_of(transpose_variants(), figures, "% of copy");
}

std::string reduction_table_source(const json& bench) {
  const std::string where = "reduction bench JSON";
  const json& peak = field(bench, "peak_read", where);
  return "Measured on the " + device_text(bench, where) + ": n = " +
         std::to_string(count_of(bench, "n", where)) + " " + text_of(bench, "type", where) +
         " " + text_of(bench, "op", where) + ", " + text_of(bench, "data", where) + "; " +
         clock_text(bench, where) + ", median of the back-to-back samples; read peak " + format_fixed(number(peak, "gbps", where), 1) +
         " GB/s measured in the same run.";
}

std::string transpose_table_source(const json& bench) {
  const std::string where = "transpose bench JSON";
  const json& shape = field(bench, "shapes", where).at(0);
  const json& copy = field(shape, "copy", where);
  return "Measured on the " + device_text(bench, where) + ": " +
         std::to_string(count_of(shape, "m", where)) + " x " +
         std::to_string(count_of(shape, "n", where)) + " " + text_of(bench, "type", where) +
         ", " + text_of(shape, "data", where) + "; GB/s counts bytes read plus written; " + clock_text(bench, where) +
         "; copy (" + text_of(copy, "how", where) + ") " + format_fixed(number(copy, "gbps", where), 1) +
         " GB/s in the same run.";
}

namespace {
json read_json(const std::filesystem::path& path, const std::string& where) {
  std::ifstream in(path);
  if (!in) throw Error(where + ": cannot read " + path.string());
  try {
    return json::parse(in);
  } catch (const json::exception& e) {
    throw Error(where + ": " + path.string() + " is not JSON: " + e.what());
  }
}

std::string render_block(const std::string& kind, const std::string& arg, const std::filesystem::path& root,
                         const std::filesystem::path& kernel_dir, const std::string& where) {
  if (kind == "reduction-table" || kind == "transpose-table") {
    if (arg.empty()) throw Error(where + ": `" + kind + "` needs the path of a bench JSON file");
    const json bench = read_json(root / arg, where);
    const bool reduction = kind == "reduction-table";
    return (reduction ? reduction_table_source(bench) : transpose_table_source(bench)) + " Source: `" + arg +
           "`.\n\n" + (reduction ? reduction_steps_table(bench) : transpose_steps_table(bench));
  }
  if (kind == "diff" || kind == "transpose-diff") {
    const Explanation e =
        explain_variant(kind == "diff" ? Family::Reduction : Family::Transpose, arg, kernel_dir);
    if (e.diff.empty()) throw Error(where + ": `" + arg + "` has no predecessor, so no diff");
    return "```diff\n" + e.diff + (e.diff.back() == '\n' ? "" : "\n") + "```\n";
  }
  throw Error(where + ": unknown generated block '" + kind +
              "'; valid: reduction-table PATH, transpose-table PATH, diff VARIANT, transpose-diff VARIANT");
}
}  // namespace

DocRender render_doc(const std::string& doc, const std::filesystem::path& root,
                     const std::filesystem::path& kernel_dir) {
  static const std::string open = "<!-- generated: ", close = "<!-- end generated -->";
  DocRender r;
  std::size_t at = 0;
  while (true) {
    const std::size_t start = doc.find(open, at);
    if (start == std::string::npos) break;
    const std::size_t line = 1 + std::count(doc.begin(), doc.begin() + static_cast<long>(start), '\n');
    const std::string where = "line " + std::to_string(line);
    const std::size_t head_end = doc.find("-->", start);
    if (head_end == std::string::npos) throw Error(where + ": the generated-block marker is not closed by -->");
    std::string head = doc.substr(start + open.size(), head_end - start - open.size());
    while (!head.empty() && head.back() == ' ') head.pop_back();
    const std::size_t space = head.find(' ');
    const std::string kind = head.substr(0, space);
    const std::string arg = space == std::string::npos ? "" : head.substr(space + 1);
    std::size_t body_start = head_end + 3;
    if (body_start < doc.size() && doc[body_start] == '\n') ++body_start;
    const std::size_t end = doc.find(close, body_start);
    if (end == std::string::npos) throw Error(where + ": generated block '" + head + "' has no " + close);
    const std::string rendered = render_block(kind, arg, root, kernel_dir, where);
    if (doc.compare(body_start, end - body_start, rendered) != 0) r.stale.push_back(where + ": " + head);
    r.text += doc.substr(at, body_start - at) + rendered + close;
    at = end + close.size();
  }
  r.text += doc.substr(at);
  return r;
}

}  // namespace clreduce
