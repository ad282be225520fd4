// `clreduce explain VARIANT`, `clreduce explain axis VARIANT` and `clreduce explain transpose
// VARIANT`: one teaching step of a
// family (tools/explain/explain.hpp): its account, the host's options for it on this device, the
// diff against its predecessor's kernel file, with --run the pair measured and with --binary the
// program the device's compiler made of it.
#include "cli.hpp"

#include "clreduce/axis.hpp"
#include "clreduce/transpose.hpp"
#include "clreduce/variants.hpp"
#include "explain/explain.hpp"
#include "explain/teaching_docs.hpp"
#include "explain/teaching_figures.hpp"
#include "parse.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace clreduce::cli {

namespace {
struct ExplainTexts {
  std::string variant;
  std::string type;
  std::string op = "sum";
  std::string n = "16Mi";
  std::string shape = "4096x4096";
  bool run = false;
  std::optional<std::string> binary;
  bool force = false;  // --force: --binary may replace an existing file
  TimingTexts timing;
};

int explain(const GlobalOptions& g, Family family, const ExplainTexts& o) {
  const bool reduction = family == Family::Reduction, axis = family == Family::Axis;
  const std::string command = reduction ? "explain" : axis ? "explain axis" : "explain transpose";
  const std::string kind = reduction ? "reduction" : axis ? "axis" : "transpose";
  const std::vector<std::string> names =
      reduction ? variant_names() : axis ? axis_variant_names() : transpose_variant_names();
  if (o.variant.empty()) throw Error("`" + command + "` needs a variant; valid: " + join(names));
  // Everything the user typed is checked before a device is opened or a kernel built.
  if (std::find(names.begin(), names.end(), o.variant) == names.end())
    throw Error("`" + command + "`: unknown " + kind + " variant '" + printable(o.variant) + "'; valid: " + join(names));
  const std::string& name = o.variant;
  const ElemType type = variants_type(o.type.empty() ? (reduction ? "uint" : "float") : o.type);
  const Op op = axis ? variants_op(o.op) : whole_array_op(o.op);
  if (axis && op == Op::User)
    throw Error("`explain axis` --op: a user's operator is given with --op-file to `reduce` and `bench axis`; valid "
                "here: sum, min, max, argmin, argmax");
  std::uint64_t n = 0, m = 0;
  if (reduction) {
    n = parse_size(o.n);
  } else {
    std::tie(m, n) = parse_shape(o.shape);
  }
  const TimingOptions timing = timing_of(o.timing);
  if (o.binary) check_output_files({{"--binary", *o.binary}}, {}, o.force);

  const Session session = make_session(g);
  const Explanation e = explain_variant(family, name, session.kernel_dir());
  const DeviceOptions options = reduction ? reduction_options(session, name, type, op, n)
                                : axis    ? axis_options(session, name, type, op, m, n)
                                          : transpose_options(session, name, type, m, n);
  std::optional<StepMeasurement> measured;
  if (o.run)
    measured = reduction ? measure_reduction_step(session, e, type, op, n, timing)
               : axis    ? measure_axis_step(session, e, type, op, m, n, timing)
                         : measure_transpose_step(session, e, type, m, n, timing);
  std::cout << explanation_text(e, &options, measured ? &*measured : nullptr);
  if (o.binary) {
    const std::vector<unsigned char> binary = program_binary(session, e, options);
    write_output_file({"--binary", *o.binary}, std::string(binary.begin(), binary.end()), o.force);
    std::cout << "\nprogram binary of " << e.file << " (" << binary.size() << " bytes, as built by "
              << session.device().name << ") written to " << *o.binary << "\n";
  }
  return measured && !measured->ok() ? 1 : 0;
}

struct DocsTexts {
  std::string dir = "docs";
  bool check = false;
};

std::optional<std::string> read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// `clreduce explain docs`: renders the teaching documents' generated blocks (step tables from the
// committed bench JSON, kernel diffs) and their figures; --check only says what is out of date.
// The kernels are the source tree's (DIR/../kernels_cl), not --kernel-dir: the documents describe
// the kernels as committed.
int explain_docs(const DocsTexts& o) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::absolute(o.dir).lexically_normal();
  if (!fs::is_directory(dir))
    throw Error("`explain docs --dir " + printable(o.dir) + "`: not a directory; valid: the docs/ folder of the "
                "clreduce source tree");
  const fs::path root = dir.parent_path();
  const fs::path kernels = root / "kernels_cl";
  std::vector<fs::path> docs;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().extension() == ".md") docs.push_back(entry.path());
  std::sort(docs.begin(), docs.end());
  std::vector<std::string> stale;
  for (const fs::path& doc : docs) {
    const std::string text = *read_text(doc);
    DocRender r;
    try {
      r = render_doc(text, root, kernels);
    } catch (const Error& e) {
      throw Error(doc.string() + ": " + e.what());
    }
    for (const std::string& s : r.stale) stale.push_back(doc.string() + " " + s);
    // The documents and figures are this command's own renderings, rewritten by design (--force).
    if (!o.check && !r.stale.empty()) write_output_file({"explain docs", doc.string()}, r.text, true);
  }
  for (const auto& [name, svg] : teaching_figures()) {
    const fs::path path = dir / "figures" / name;
    if (read_text(path) == svg) continue;
    stale.push_back(path.string());
    if (!o.check) {
      fs::create_directories(path.parent_path());
      write_output_file({"explain docs", path.string()}, svg, true);
    }
  }
  for (const std::string& s : stale) std::cout << (o.check ? "out of date: " : "rewritten: ") << s << "\n";
  std::cout << docs.size() << " documents, " << teaching_figures().size() << " figures: "
            << (stale.empty() ? "all current" : std::to_string(stale.size()) + (o.check ? " out of date" : " rewritten"))
            << "\n";
  return o.check && !stale.empty() ? 1 : 0;
}

void add_explain_options(CLI::App* c, ExplainTexts& o, Family family) {
  const bool reduction = family == Family::Reduction;
  c->add_option("variant", o.variant,
                reduction                   ? "reduction variant (see `clreduce variants`)"
                : family == Family::Axis ? "axis variant (see `clreduce variants`)"
                                            : "transpose variant (see `clreduce variants`)");
  c->add_option("--type", o.type, reduction ? "element type: uint, int, float, double (default uint)"
                                            : "element type: uint, int, float, double (default float)");
  if (reduction) {
    c->add_option("--op", o.op, "operator: sum, min, max")->capture_default_str();
    c->add_option("--n", o.n, "elements: for the options shown and for --run")->capture_default_str();
  } else if (family == Family::Axis) {
    c->add_option("--op", o.op, "operator: sum, min, max, argmin, argmax")->capture_default_str();
    c->add_option("--shape", o.shape, "M x N: for the options shown and for --run")->capture_default_str();
  } else {
    c->add_option("--shape", o.shape, "M x N: for the options shown and for --run")->capture_default_str();
  }
  c->add_flag("--run", o.run, "measure the variant and its predecessor side by side on this device");
  c->add_option("--binary", o.binary,
                "write the device program binary the driver built for the variant to this file (PTX on NVIDIA; "
                "a new file, see --force)");
  c->add_flag("--force", o.force, "let --binary replace an existing regular file (by rename)");
  add_timing_options(c, o.timing);
}
}  // namespace

void register_explain_command(Cli& cli) {
  auto r = std::make_shared<ExplainTexts>();
  CLI::App* ex = cli.add("explain",
                         "one teaching step: what a variant changes from its predecessor and why, the diff of "
                         "their kernel files, the options on this device; --run measures both",
                         [&cli, r] { return explain(cli.global(), Family::Reduction, *r); });
  add_explain_options(ex, *r, Family::Reduction);
  // `explain transpose VARIANT` and `explain axis VARIANT`: the same step for another family; an
  // option typed before the family's name belongs to `explain` and is refused.
  const auto family_command = [&cli, ex](const std::string& name, const std::string& description, Family family) {
    auto texts = std::make_shared<ExplainTexts>();
    CLI::App* c = cli.add(
        name, description,
        [&cli, ex, texts, name, family] {
          for (const CLI::Option* opt : ex->get_options())
            if (opt->count() > 0 && opt->get_name() != "--help")
              throw Error("option " + opt->get_name() + " goes after the variant of `explain " + name + "`; see " +
                          "`clreduce explain " + name + " --help`");
          return explain(cli.global(), family, *texts);
        },
        ex);
    add_explain_options(c, *texts, family);
  };
  family_command("transpose", "one teaching step of the transpose family (as `explain` for the reductions)",
                 Family::Transpose);
  family_command("axis",
                 "one teaching step of the axis family (rows and columns of a matrix; as `explain` for the reductions)",
                 Family::Axis);
  auto d = std::make_shared<DocsTexts>();
  CLI::App* ed = cli.add(
      "docs",
      "render the teaching documents' generated parts (step tables from committed bench JSON, kernel diffs) and "
      "figures; --check only reports what is out of date",
      [&cli, ex, d] {
        const GlobalOptions& g = cli.global();
        if (g.kernel_dir || g.device || g.platform)
          throw Error("`explain docs` renders from the source tree and opens no device; it takes no --kernel-dir, "
                      "--device or --platform");
        for (const CLI::Option* opt : ex->get_options())
          if (opt->count() > 0 && opt->get_name() != "--help")
            throw Error("`explain docs` takes no " + opt->get_name() + "; see `clreduce explain docs --help`");
        return explain_docs(*d);
      },
      ex);
  ed->add_option("--dir", d->dir, "the documents' folder (its parent holds kernels_cl/ and bench/results/)")
      ->capture_default_str();
  ed->add_flag("--check", d->check, "write nothing; exit 1 naming each block or figure that differs from its render");
}

}  // namespace clreduce::cli
