// `clreduce explain`: one teaching step of the reduction, axis or transpose family. What the variant is,
// the literature step it follows, what it changes from its predecessor and why that should help,
// the diff of its kernel file against its predecessor's as they are in the kernel directory now
// (a user's edit shows), the -D options the host passes for it on a device, its device program
// binary, and both kernels measured side by side.
#pragma once

#include "clreduce/timing.hpp"
#include "clreduce/types.hpp"
#include "explain/unified_diff.hpp"
#include "measure/session.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace clreduce {

enum class Family { Reduction, Axis, Transpose };

struct Explanation {
  Family family = Family::Reduction;
  std::string name, file, kernel;          // the variant, its kernel file and function
  std::string summary, literature, tradeoff;
  std::string predecessor, predecessor_file;  // "" for the first step of the family
  std::string step;                        // what it changes from the predecessor, and why
  std::filesystem::path kernel_dir;        // where both files were read
  std::string diff;                        // unified diff, predecessor -> variant ("" for the first)
  DiffCounts counts;
  // -D values the variant itself fixes (register_tile4: RT 4) and its predecessor's: where they are
  // given, each file is diffed as that build sees it (as_built), so two variants of one kernel file
  // still show their step.
  std::vector<std::pair<std::string, std::uint64_t>> fixed, predecessor_fixed;
};

// A kernel file's text as a build with the given -D values sees it: a `#ifndef NAME` block of a
// given NAME keeps its `#define NAME` with the given value, and an `#if NAME == V` / `#elif NAME ==
// V` / `#else` / `#endif` chain whose conditions test given names only keeps the branch the values
// select, its directives dropped (a `#ifndef NAME` block's #else is what the build compiles; a
// directive's comment is ignored). Every other line and directive stays as it is; the diff's line
// numbers are those of this text, not of the file. No values: the text unchanged. Throws Error for
// an #elif that tests anything else in a chain whose #if tested a given value.
std::string as_built(const std::string& text, const std::vector<std::pair<std::string, std::uint64_t>>& values);

// Reads both kernel files from `kernel_dir`. Throws Error for an unknown variant (naming the
// valid ones) or a kernel file that cannot be read.
Explanation explain_variant(Family family, const std::string& name, const std::filesystem::path& kernel_dir);

// The build options the host passes for the variant on the session's device: one string per pass
// of a reduction of n elements (no tuning database: the variant's defaults), or the transpose's
// one launch for an m x n matrix. `unavailable` says why instead where the device does not run it.
struct DeviceOptions {
  std::string device;
  std::string what;                   // "uint sum, n = 16777216" or "float 4096x4096"
  std::vector<std::string> passes;    // build option strings, in launch order
  std::string unavailable;
};
DeviceOptions reduction_options(const Session& s, const std::string& name, ElemType type, Op op, std::uint64_t n);
DeviceOptions transpose_options(const Session& s, const std::string& name, ElemType type, std::uint64_t m,
                                std::uint64_t n);
// The axis variant's passes over an m x n matrix (no tuning database), or why it does not run.
DeviceOptions axis_options(const Session& s, const std::string& name, ElemType type, Op op, std::uint64_t m,
                           std::uint64_t n);

// The program binary the device's compiler built for the first pass (PTX text on NVIDIA).
std::vector<unsigned char> program_binary(const Session& s, const Explanation& e, const DeviceOptions& o);

// The predecessor and the variant measured one after the other on the same input, each checked
// against the host reference (reduction) or element by element (transpose).
struct StepRow {
  std::string variant;
  bool ok = false;
  std::string note;   // why there is no figure (unavailable, a failed check or build)
  double us = 0;      // median of the back-to-back samples
  double gbps = 0;    // bytes read (reduction) or read + written (transpose) / us
  double pct = 0;     // of the read peak (reduction) or of a device-to-device copy (transpose)
  double speedup = 0; // the predecessor's us / this us (0 for the predecessor itself)
};
struct StepMeasurement {
  std::string what;      // the input: "n = 16777216 uint sum"
  std::string how;       // the clock, samples and the bound the % refers to
  std::vector<StepRow> rows;
  bool ok() const;
};
StepMeasurement measure_reduction_step(const Session& s, const Explanation& e, ElemType type, Op op,
                                       std::uint64_t n, const TimingOptions& timing);
// An axis variant and its predecessor (the same axis) over one m x n matrix, through `bench
// axis`'s engine: each verified, % of the read peak of the same bytes.
StepMeasurement measure_axis_step(const Session& s, const Explanation& e, ElemType type, Op op, std::uint64_t m,
                                  std::uint64_t n, const TimingOptions& timing);
StepMeasurement measure_transpose_step(const Session& s, const Explanation& e, ElemType type, std::uint64_t m,
                                       std::uint64_t n, const TimingOptions& timing);

// The explanation as text; `options` and `measured` are printed where given.
std::string explanation_text(const Explanation& e, const DeviceOptions* options, const StepMeasurement* measured);

}  // namespace clreduce
