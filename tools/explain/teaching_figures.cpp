// The teaching documents' pictures. Every mark is computed from the same index formulas the
// kernels use (naive.cl, interleaved.cl, divergence_free.cl, transpose_local_tile*.cl), so a
// picture cannot drift from the code without tests/test_docs.cpp noticing.
#include "explain/teaching_figures.hpp"

#include "clreduce/transpose.hpp"
#include "printers/svg.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace clreduce {

namespace {
constexpr unsigned kWarp = 32;   // lanes of an NVIDIA warp
constexpr unsigned kBanks = 32;  // local-memory banks of 4-byte words on NVIDIA GPUs since Fermi

double num(std::size_t v) { return static_cast<double>(v); }

unsigned padded(unsigned word) { return word + word / 32; }  // interleaved_padded.cl's PADDED

const std::vector<std::string>& schemes() {
  static const std::vector<std::string> s{"naive", "interleaved", "interleaved_padded", "divergence_free"};
  return s;
}
}  // namespace

std::vector<unsigned> tree_levels(const std::string& scheme, unsigned wg) {
  std::vector<unsigned> out;
  if (scheme == "divergence_free") {
    for (unsigned s = wg / 2; s > 0; s >>= 1) out.push_back(s);
  } else if (scheme == "naive" || scheme == "interleaved" || scheme == "interleaved_padded") {
    for (unsigned s = 1; s < wg; s <<= 1) out.push_back(s);
  } else {
    throw std::invalid_argument("unknown addressing scheme '" + scheme + "'");
  }
  return out;
}

TreeAccess tree_access(const std::string& scheme, unsigned wg, unsigned s, unsigned lid) {
  TreeAccess a;
  if (scheme == "naive") {  // if (lid % (2 * s) == 0) l[lid] = OP(l[lid], l[lid + s]);
    a.active = lid % (2 * s) == 0;
    a.dst = lid;
    a.src = lid + s;
  } else if (scheme == "interleaved" || scheme == "interleaved_padded") {
    const unsigned index = 2 * s * lid;  // if (index < WG_SIZE) l[index] = OP(l[index], l[index + s]);
    a.active = index < wg;
    a.dst = index;
    a.src = index + s;
    if (scheme == "interleaved_padded") {
      a.dst = padded(a.dst);
      a.src = padded(a.src);
    }
  } else if (scheme == "divergence_free") {  // if (lid < s) l[lid] = OP(l[lid], l[lid + s]);
    a.active = lid < s;
    a.dst = lid;
    a.src = lid + s;
  } else {
    throw std::invalid_argument("unknown addressing scheme '" + scheme + "'");
  }
  return a;
}

unsigned bank_passes(const std::string& scheme, unsigned wg, unsigned s, unsigned warp, unsigned warp_size,
                     unsigned banks, int which) {
  std::map<unsigned, std::set<unsigned>> words_of_bank;
  bool any = false;
  for (unsigned lane = 0; lane < warp_size; ++lane) {
    const unsigned lid = warp * warp_size + lane;
    if (lid >= wg) break;
    const TreeAccess a = tree_access(scheme, wg, s, lid);
    if (!a.active) continue;
    any = true;
    const unsigned word = which == 0 ? a.dst : a.src;
    words_of_bank[word % banks].insert(word);
  }
  if (!any) return 0;
  std::size_t most = 0;
  for (const auto& [bank, words] : words_of_bank) most = std::max(most, words.size());
  return static_cast<unsigned>(most);
}

unsigned tile_column_passes(unsigned tile, unsigned pad, unsigned warp_size, unsigned banks) {
  // Work-item (lx, ly) reads tile[lx][ly], word lx * (TILE + pad) + ly; lanes are numbered
  // ly * TILE + lx, so a warp covers warp_size / TILE consecutive ly when TILE < warp_size.
  std::map<unsigned, std::set<unsigned>> words_of_bank;
  for (unsigned lane = 0; lane < warp_size && lane < tile * tile; ++lane) {
    const unsigned lx = lane % tile, ly = lane / tile;
    const unsigned word = lx * (tile + pad) + ly;
    words_of_bank[word % banks].insert(word);
  }
  std::size_t most = 0;
  for (const auto& [bank, words] : words_of_bank) most = std::max(most, words.size());
  return static_cast<unsigned>(most);
}

namespace {
const char* kFont = "font-family:sans-serif;font-size:12px";

// Work-item colours: one per lane of a small group, repeating.
std::string lane_colour(unsigned lid) {
  static const char* c[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7"};
  return c[lid % 8];
}

// Three panels, one per scheme, for a group of 16: at each level a row of the 16 local words;
// a word written at that level is filled with its work-item's colour and labelled with the
// work-item, and a line joins it to the word it adds in. Idle work-items are listed per row.
std::string tree_figure() {
  const unsigned wg = 16;
  const std::vector<std::string> shown{"naive", "interleaved", "divergence_free"};
  const double cell = 22, gap_x = 40, top = 60, row_h = 62, left = 16;
  const double panel_w = wg * cell;
  const double width = left * 2 + num(shown.size()) * panel_w + num(shown.size() - 1) * gap_x;
  const double height = top + 4 * row_h + 70;
  SvgWriter w(width, height, {{"style", kFont}});
  w.leaf("rect", {{"width", "100%"}, {"height", "100%"}, {"fill", "white"}});
  w.text("text", {{"x", svg_number(left)}, {"y", "16"}, {"style", "font-size:14px;font-weight:bold"}},
         "Which work-item adds which local words at each tree level (a group of 16)");
  for (std::size_t p = 0; p < shown.size(); ++p) {
    const std::string& scheme = shown[p];
    const double x0 = left + num(p) * (panel_w + gap_x);
    w.text("text", {{"x", svg_number(x0)}, {"y", "36"}, {"style", "font-weight:bold"}}, scheme + ".cl");
    const std::vector<unsigned> levels = tree_levels(scheme, wg);
    for (std::size_t r = 0; r < levels.size(); ++r) {
      const unsigned s = levels[r];
      const double y = top + num(r) * row_h;
      std::map<unsigned, unsigned> writer, reader;  // word -> work-item
      unsigned active = 0;
      std::string active_list;
      for (unsigned lid = 0; lid < wg; ++lid) {
        const TreeAccess a = tree_access(scheme, wg, s, lid);
        if (!a.active) continue;
        writer[a.dst] = lid;
        reader[a.src] = lid;
        active_list += (active++ ? "," : "") + std::to_string(lid);
      }
      for (unsigned word = 0; word < wg; ++word) {
        const double x = x0 + word * cell;
        const auto it = writer.find(word);
        w.leaf("rect", {{"x", svg_number(x + 1)}, {"y", svg_number(y)}, {"width", svg_number(cell - 2)},
                        {"height", svg_number(cell - 2)},
                        {"fill", it != writer.end() ? lane_colour(it->second) : "#eeeeee"},
                        {"stroke", reader.count(word) ? lane_colour(reader.at(word)) : "#cccccc"},
                        {"stroke-width", reader.count(word) ? "2" : "1"}});
        if (it != writer.end())
          w.text("text", {{"x", svg_number(x + cell / 2)}, {"y", svg_number(y + cell / 2 + 4)},
                          {"text-anchor", "middle"}, {"fill", "white"}, {"style", "font-size:10px"}},
                 std::to_string(it->second));
      }
      for (const auto& [word, lid] : reader) {
        const TreeAccess a = tree_access(scheme, wg, s, lid);
        // An arc from the word added in to the word written, higher the farther apart they are.
        const double xs = x0 + a.src * cell + cell / 2, xd = x0 + a.dst * cell + cell / 2;
        const double h = 6 + 2 * static_cast<double>(a.src - a.dst);
        w.leaf("path", {{"d", "M " + svg_number(xs) + " " + svg_number(y - 1) + " Q " + svg_number((xs + xd) / 2) + " " +
                                  svg_number(y - 1 - std::min(h, 24.0)) + " " + svg_number(xd) + " " + svg_number(y - 1)},
                        {"fill", "none"}, {"stroke", lane_colour(lid)}, {"stroke-width", "1.5"}});
      }
      w.text("text", {{"x", svg_number(x0)}, {"y", svg_number(y + cell + 13)}, {"style", "font-size:10px"}},
             "s = " + std::to_string(s) + ": work-items " + active_list + " add");
    }
  }
  const double ly = top + 4 * row_h + 12;
  w.text("text", {{"x", svg_number(left)}, {"y", svg_number(ly)}},
         "Filled: the word a work-item writes (l[dst] = OP(l[dst], l[src])), labelled with its work-item; outlined in the "
         "same colour: the word it adds in.");
  w.text("text", {{"x", svg_number(left)}, {"y", svg_number(ly + 18)}},
         "naive: the adding work-items are spread over the group, so every warp keeps a few busy lanes (divergence).");
  w.text("text", {{"x", svg_number(left)}, {"y", svg_number(ly + 36)}},
         "interleaved: they are the first ones, but their words lie 2s apart (bank conflicts); divergence_free: "
         "the first ones, on consecutive words.");
  return w.str();
}

// For a group of 256 and warps of 32 over 32 banks: per level (rows) and warp (columns), the bank
// passes of the access l[dst] (the worse of the two accesses in every scheme here), one panel per
// scheme, and the longest per level beside it.
std::string bank_pass_figure() {
  const unsigned wg = 256, warps = wg / kWarp;
  const double cell = 26, gap_x = 46, left = 16, top = 64, label_w = 52;
  const double panel_w = label_w + warps * cell + 34;
  const double width = left * 2 + num(schemes().size()) * panel_w + num(schemes().size() - 1) * gap_x;
  const double height = top + 8 * cell + 88;
  SvgWriter w(width, height, {{"style", kFont}});
  w.leaf("rect", {{"width", "100%"}, {"height", "100%"}, {"fill", "white"}});
  w.text("text", {{"x", svg_number(left)}, {"y", "16"}, {"style", "font-size:14px;font-weight:bold"}},
         "Local-memory bank passes per warp at each tree level: a group of 256, warps of 32, 32 banks of 4-byte words");
  for (std::size_t p = 0; p < schemes().size(); ++p) {
    const std::string& scheme = schemes()[p];
    const double x0 = left + num(p) * (panel_w + gap_x);
    w.text("text", {{"x", svg_number(x0)}, {"y", "38"}, {"style", "font-weight:bold"}}, scheme);
    for (unsigned warp = 0; warp < warps; ++warp)
      w.text("text", {{"x", svg_number(x0 + label_w + warp * cell + cell / 2)}, {"y", svg_number(top - 6)},
                      {"text-anchor", "middle"}, {"style", "font-size:10px"}},
             "w" + std::to_string(warp));
    w.text("text", {{"x", svg_number(x0 + label_w + warps * cell + 17)}, {"y", svg_number(top - 6)},
                    {"text-anchor", "middle"}, {"style", "font-size:10px"}},
           "max");
    unsigned total = 0, critical = 0;
    const std::vector<unsigned> levels = tree_levels(scheme, wg);
    for (std::size_t r = 0; r < levels.size(); ++r) {
      const unsigned s = levels[r];
      const double y = top + num(r) * cell;
      w.text("text", {{"x", svg_number(x0)}, {"y", svg_number(y + cell / 2 + 4)}, {"style", "font-size:10px"}},
             "s = " + std::to_string(s));
      unsigned most = 0;
      for (unsigned warp = 0; warp < warps; ++warp) {
        const unsigned passes = bank_passes(scheme, wg, s, warp, kWarp, kBanks, 0);
        most = std::max(most, passes);
        total += passes;
        const std::string fill = passes == 0 ? "#f4f4f4" : passes == 1 ? "#c7e9c0" : passes <= 4 ? "#fdd49e" : "#fc8d59";
        w.leaf("rect", {{"x", svg_number(x0 + label_w + warp * cell)}, {"y", svg_number(y)},
                        {"width", svg_number(cell - 2)}, {"height", svg_number(cell - 2)}, {"fill", fill}});
        if (passes)
          w.text("text", {{"x", svg_number(x0 + label_w + warp * cell + cell / 2 - 1)},
                          {"y", svg_number(y + cell / 2 + 3)}, {"text-anchor", "middle"}},
                 std::to_string(passes));
      }
      critical += most;
      w.text("text", {{"x", svg_number(x0 + label_w + warps * cell + 17)}, {"y", svg_number(y + cell / 2 + 3)},
                      {"text-anchor", "middle"}, {"style", "font-weight:bold"}},
             std::to_string(most));
    }
    const double ty = top + num(levels.size()) * cell + 16;
    w.text("text", {{"x", svg_number(x0)}, {"y", svg_number(ty)}},
           "all warps: " + std::to_string(total) + " passes");
    w.text("text", {{"x", svg_number(x0)}, {"y", svg_number(ty + 16)}},
           "slowest warp, summed over levels: " + std::to_string(critical));
  }
  const double fy = top + 8 * cell + 60;
  w.text("text", {{"x", svg_number(left)}, {"y", svg_number(fy)}},
         "A cell: the passes one warp's l[dst] access needs (the most distinct words its active lanes touch in one bank); "
         "empty: no lane of that warp adds at that level.");
  w.text("text", {{"x", svg_number(left)}, {"y", svg_number(fy + 18)}},
         "Each level ends at a barrier, so the level lasts as long as its slowest warp (column max).");
  return w.str();
}

// The bank of every word of a TILE x (TILE + pad) local tile, and the words one warp reads when it
// writes out a column, for the unpadded and the padded tile of the registered local_tile variants.
std::string tile_bank_figure() {
  struct Panel {
    std::string variant;
    unsigned tile, pad;
  };
  std::vector<Panel> panels;
  for (const char* name : {"local_tile", "local_tile_padded"}) {
    const TransposeVariant& v = find_transpose_variant(name);
    panels.push_back({v.name, v.default_tile, v.pad});
  }
  panels.push_back({"a 32 x 32 tile, unpadded", 32, 0});
  panels.push_back({"local_tile_multi", find_transpose_variant("local_tile_multi").default_tile,
                    find_transpose_variant("local_tile_multi").pad});
  const double cell = 9, gap_x = 30, left = 16, top = 56, kMinPanel = 200;
  double width = left * 2, tallest = 0;
  for (const Panel& p : panels) {
    width += std::max((p.tile + p.pad) * cell, kMinPanel) + gap_x;
    tallest = std::max(tallest, p.tile * cell);
  }
  const double height = top + tallest + 80;
  SvgWriter w(width, height, {{"style", kFont}});
  w.leaf("rect", {{"width", "100%"}, {"height", "100%"}, {"fill", "white"}});
  w.text("text", {{"x", svg_number(left)}, {"y", "16"}, {"style", "font-size:14px;font-weight:bold"}},
         "The transposes' local tile: the bank of each word (shade) and the words one warp reads to write one output row");
  double x0 = left;
  for (const Panel& p : panels) {
    const unsigned stride = p.tile + p.pad;
    const unsigned passes = tile_column_passes(p.tile, p.pad, kWarp, kBanks);
    w.text("text", {{"x", svg_number(x0)}, {"y", "36"}, {"style", "font-weight:bold"}}, p.variant);
    w.text("text", {{"x", svg_number(x0)}, {"y", "50"}, {"style", "font-size:11px"}},
           std::to_string(p.tile) + " x " + std::to_string(stride) + " words: " + std::to_string(passes) +
               (passes == 1 ? " pass" : " passes") + " per warp");
    std::set<unsigned> read;
    for (unsigned lane = 0; lane < kWarp && lane < p.tile * p.tile; ++lane)
      read.insert((lane % p.tile) * stride + lane / p.tile);
    for (unsigned row = 0; row < p.tile; ++row)
      for (unsigned col = 0; col < stride; ++col) {
        const unsigned word = row * stride + col;
        const unsigned bank = word % kBanks;
        const int shade = 235 - static_cast<int>(bank * 5);
        const bool is_pad = col >= p.tile;
        const std::string fill = is_pad ? "white"
                                        : read.count(word) ? (bank == (read.empty() ? 0 : *read.begin() % kBanks)
                                                                  ? "#d62728"
                                                                  : "#ff7f0e")
                                                           : "rgb(" + std::to_string(shade) + "," + std::to_string(shade) +
                                                                 ",255)";
        w.leaf("rect", {{"x", svg_number(x0 + col * cell)}, {"y", svg_number(top + row * cell)},
                        {"width", svg_number(cell - 1)}, {"height", svg_number(cell - 1)}, {"fill", fill},
                        {"stroke", is_pad ? "#999999" : "none"}, {"stroke-width", "0.5"}});
      }
    x0 += std::max(stride * cell, kMinPanel) + gap_x;
  }
  const double fy = top + tallest + 24;
  w.text("text", {{"x", svg_number(left)}, {"y", svg_number(fy)}},
         "Blue shade: bank 0 (light) to 31 (dark); outlined white: padding words. Red: words of the warp's read in the "
         "same bank as its first word; orange: its other words.");
  w.text("text", {{"x", svg_number(left)}, {"y", svg_number(fy + 18)}},
         "Passes: the most distinct words the warp reads in one bank (4-byte words, 32 banks); work-item (lx, ly) reads "
         "tile[lx][ly], lanes numbered ly * TILE + lx.");
  return w.str();
}
}  // namespace

std::map<std::string, std::string> teaching_figures() {
  return {{"reduction_tree.svg", tree_figure()},
          {"reduction_bank_passes.svg", bank_pass_figure()},
          {"transpose_tile_banks.svg", tile_bank_figure()}};
}

}  // namespace clreduce
