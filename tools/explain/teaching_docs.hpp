// The generated parts of the teaching documents (docs/reduction.md, docs/transpose.md): the step
// tables, rendered from a committed `bench --output-json` / `bench transpose --output-json` file,
// and the kernel diffs, rendered from the kernel files. A document marks each generated block as
//
//   <!-- generated: reduction-table bench/results/DIR/FILE.json -->
//   ... (rendered text) ...
//   <!-- end generated -->
//
// with one of the kinds `reduction-table PATH`, `transpose-table PATH` (PATH relative to the
// repository root), `diff VARIANT` and `transpose-diff VARIANT` (the unified diff of the
// variant's kernel file against its predecessor's). `clreduce explain docs` rewrites the blocks
// and the figures; tests/test_docs.cpp fails when a committed document differs from its render.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace clreduce {

// The reduction steps of a `bench --output-json` document as a Markdown table, in registry order:
// variant, the step it follows, median µs, GB/s, % of the measured read peak, speedup over the
// step it follows, check. Throws Error when the document names a variant the registry does not
// have or lacks a field the table needs.
std::string reduction_steps_table(const nlohmann::json& bench);

// The same for a `bench transpose --output-json` document (its first shape), % of the copy.
std::string transpose_steps_table(const nlohmann::json& bench);

// One line naming what the table's file measured: device, driver, input and the bound.
std::string reduction_table_source(const nlohmann::json& bench);
std::string transpose_table_source(const nlohmann::json& bench);

struct DocRender {
  std::string text;                 // the document with every generated block rendered
  std::vector<std::string> stale;   // "line L: KIND ARGS" for each block whose text changed
};

// Renders every generated block of `doc` from the files under `root` (results) and
// `kernel_dir` (kernels). Throws Error naming the line for an unknown kind, an unterminated
// block, an unreadable file or an unknown variant.
DocRender render_doc(const std::string& doc, const std::filesystem::path& root,
                     const std::filesystem::path& kernel_dir);

}  // namespace clreduce
