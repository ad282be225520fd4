// The transpose registry, planning, launch and host reference.
#include "clreduce/transpose.hpp"

#include "core/build_options.hpp"
#include "clreduce/error.hpp"
#include "data/host_data.hpp"
#include "reduce/plan.hpp"

#include <algorithm>
#include <cstring>

namespace clreduce {

namespace {
TransposeVariant make(std::string name, TransposeShape shape, std::string summary,
                      std::string tradeoff) {
  TransposeVariant v;
  v.file = "transpose_" + name + ".cl";
  v.kernel = "transpose_" + name;
  v.name = std::move(name);
  v.shape = shape;
  v.summary = std::move(summary);
  v.tradeoff = std::move(tradeoff);
  return v;
}

std::vector<TransposeVariant> build_registry() {
  std::vector<TransposeVariant> r;
  r.push_back(make("naive", TransposeShape::Free,
                   "one element per work-item; x walks input columns",
                   "coalesced reads, every write a separate transaction M elements apart"));
  r.push_back(make("naive_write_coalesced", TransposeShape::Free,
                   "one element per work-item; x walks input rows (output columns)",
                   "coalesced writes, scattered reads: which naive form wins depends on how the "
                   "caches absorb the scattered side"));
  r.back().x_walks_rows = true;
  r.push_back(make("local_tile", TransposeShape::Tile,
                   "TILE x TILE tile staged in local memory, TILE x TILE work-group",
                   "both sides coalesced; the column read of the tile has TILE-way bank conflicts"));
  r.back().default_tile = 16;
  r.push_back(make("local_tile_padded", TransposeShape::Tile,
                   "local_tile with a TILE x (TILE+1) tile",
                   "the padding column removes the bank conflicts for one extra word per row"));
  r.back().default_tile = 16;
  r.back().pad = 1;
  // The register tiles default to narrow 8x32 groups: a warp then spans 8 blocks along x (whole
  // 64/128-byte rows read) and 4 along y, so each output row it writes gets 4 consecutive blocks
  // (32/64 bytes) instead of one 8/16-byte piece (32x8 was 3-4x slower on the H100).
  r.push_back(make("register_tile2", TransposeShape::Free,
                   "2x2 block per work-item with T2 vector loads and stores, no local memory",
                   "no barrier, no local memory; 8-byte accesses: needs a narrow group (8 wide) so "
                   "a warp's writes to each output row are contiguous"));
  r.back().block = 2;
  r.back().default_wg_x = 8;
  r.back().default_wg_y = 32;
  r.push_back(make("register_tile4", TransposeShape::Free,
                   "4x4 block per work-item with T4 (16-byte) vector loads and stores",
                   "16-byte accesses, 16 elements in flight per work-item; each work-item writes 4 "
                   "rows 16 bytes at a time, so a narrow group (8 wide) keeps a warp's writes "
                   "contiguous"));
  r.back().block = 4;
  r.back().default_wg_x = 8;
  r.back().default_wg_y = 32;
  r.push_back(make("local_tile_multi", TransposeShape::TileRows,
                   "padded TILE x (TILE+1) tile, TILE x ROWS work-group: TILE/ROWS elements per "
                   "work-item",
                   "coalesced, conflict-free and several loads in flight per work-item: the "
                   "usual fastest form"));
  r.back().default_tile = 32;
  r.back().default_rows = 8;
  r.back().pad = 1;
  return r;
}

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

std::vector<std::string> names_where(bool (*pred)(const TransposeVariant&)) {
  std::vector<std::string> out;
  for (const auto& v : transpose_variants())
    if (pred(v)) out.push_back(v.name);
  return out;
}

std::string dim_name(std::size_t d) { return d == 0 ? "x" : "y"; }
}  // namespace

const std::vector<TransposeVariant>& transpose_variants() {
  static const std::vector<TransposeVariant> r = build_registry();
  return r;
}

std::vector<std::string> transpose_variant_names() {
  std::vector<std::string> out;
  for (const auto& v : transpose_variants()) out.push_back(v.name);
  return out;
}

const TransposeVariant& find_transpose_variant(std::string_view name) {
  for (const auto& v : transpose_variants())
    if (v.name == name) return v;
  throw Error("unknown transpose variant '" + std::string(name) +
              "'; valid transpose variants: " + join(transpose_variant_names()));
}

std::string TransposePlan::wg_label() const {
  return std::to_string(wg_x) + "x" + std::to_string(wg_y);
}

std::pair<std::uint64_t, std::uint64_t> parse_shape(std::string_view text) {
  const auto x = text.find_first_of("xX");
  if (x == std::string_view::npos || x == 0 || x + 1 == text.size())
    throw Error("shape '" + std::string(text) +
                "' is not ROWSxCOLUMNS (M x N, e.g. 2048x512, 8Kix8Ki or 2^13x2^13)");
  return {parse_size(text.substr(0, x)), parse_size(text.substr(x + 1))};
}

std::string shape_label(std::uint64_t m, std::uint64_t n) {
  return std::to_string(m) + "x" + std::to_string(n);
}

TransposePlan plan_transpose(const TransposeConfig& cfg, const DeviceInfo& dev, std::uint64_t m,
                             std::uint64_t n) {
  const TransposeVariant& v = find_transpose_variant(cfg.variant);
  constexpr std::uint64_t kMaxDim = 0xffffffffULL;
  if (m == 0 || n == 0 || m > kMaxDim || n > kMaxDim)
    throw Error("matrix " + shape_label(m, n) +
                ": rows and columns must each be in 1..4294967295 (the kernels take 32-bit M, N)");
  if (cfg.type == ElemType::Double && !dev.fp64)
    throw Error("type double needs the cl_khr_fp64 extension, which " + dev.name +
                " does not report; valid types here: uint, int, float");
  const std::uint64_t es = size_of(cfg.type);
  if (m > dev.max_alloc_bytes / es / n)
    throw Error("matrix " + shape_label(m, n) + " of " + std::string(name_of(cfg.type)) +
                " is over the largest single allocation of " + dev.name + ", " +
                std::to_string(dev.max_alloc_bytes) +
                " bytes (CL_DEVICE_MAX_MEM_ALLOC_SIZE)");

  TransposePlan p;
  p.variant = &v;
  p.m = m;
  p.n = n;
  BuildOptions o;
  o.set("TYPE_ID", static_cast<unsigned long long>(cfg.type));
  if (v.shape == TransposeShape::Free) {
    if (cfg.tile || cfg.rows)
      throw Error("transpose variant " + v.name +
                  " takes no --tile or --rows (its work-group is --wg-x x --wg-y); variants that "
                  "do: " + join(names_where([](const TransposeVariant& x) {
                    return x.shape != TransposeShape::Free;
                  })));
    p.wg_x = cfg.wg_x.value_or(v.default_wg_x);
    p.wg_y = cfg.wg_y.value_or(v.default_wg_y);
    if (p.wg_x == 0 || p.wg_y == 0) throw Error("--wg-x and --wg-y must be at least 1");
    o.set("WG_X", p.wg_x);
    o.set("WG_Y", p.wg_y);
  } else {
    if (cfg.wg_x || cfg.wg_y)
      throw Error("transpose variant " + v.name + " sets its work-group from the tile (" +
                  (v.shape == TransposeShape::Tile ? "TILE x TILE" : "TILE x ROWS") +
                  "): use --tile" + (v.shape == TransposeShape::TileRows ? " and --rows" : "") +
                  ", not --wg-x/--wg-y");
    if (v.shape == TransposeShape::Tile && cfg.rows)
      throw Error("transpose variant " + v.name +
                  " moves one element per work-item (ROWS = TILE); --rows is for local_tile_multi");
    p.tile = cfg.tile.value_or(v.default_tile);
    p.rows = v.shape == TransposeShape::Tile ? p.tile : cfg.rows.value_or(v.default_rows);
    if (p.tile == 0 || p.rows == 0) throw Error("--tile and --rows must be at least 1");
    if (p.tile % p.rows != 0)
      throw Error("ROWS " + std::to_string(p.rows) + " does not divide TILE " +
                  std::to_string(p.tile) + ": each work-item moves TILE/ROWS whole rows");
    p.wg_x = p.tile;
    p.wg_y = p.rows;
    p.local_bytes = std::uint64_t{p.tile} * (p.tile + v.pad) * es;
    if (p.local_bytes > dev.local_mem_bytes)
      throw Error("a " + std::to_string(p.tile) + "x" + std::to_string(p.tile + v.pad) + " tile of " +
                  std::string(name_of(cfg.type)) + " needs " + std::to_string(p.local_bytes) +
                  " bytes of local memory, more than the " + std::to_string(dev.local_mem_bytes) +
                  " bytes of " + dev.name + " (CL_DEVICE_LOCAL_MEM_SIZE); use a smaller --tile");
    o.set("TILE", p.tile);
    if (v.shape == TransposeShape::TileRows) o.set("ROWS", p.rows);
  }
  const std::uint64_t wg = std::uint64_t{p.wg_x} * p.wg_y;
  if (wg > dev.max_work_group_size)
    throw Error("work-group " + p.wg_label() + " = " + std::to_string(wg) +
                " work-items is over the device maximum " +
                std::to_string(dev.max_work_group_size) + " of " + dev.name +
                " (CL_DEVICE_MAX_WORK_GROUP_SIZE)");
  const std::size_t dims[2] = {p.wg_x, p.wg_y};
  for (std::size_t d = 0; d < 2 && d < dev.max_work_item_sizes.size(); ++d)
    if (dims[d] > dev.max_work_item_sizes[d])
      throw Error("work-group " + p.wg_label() + ": " + std::to_string(dims[d]) + " along " +
                  dim_name(d) + " is over the device's " +
                  std::to_string(dev.max_work_item_sizes[d]) + " (CL_DEVICE_MAX_WORK_ITEM_SIZES[" +
                  std::to_string(d) + "])");
  o.add_user(cfg.defines);
  p.options = o.str();

  // x covers the fast index of the coalesced side; y is capped and looped over in the kernel.
  std::uint64_t items_x = 0, items_y = 0;
  if (v.shape == TransposeShape::Free) {
    items_x = ceil_div(v.x_walks_rows ? m : n, v.block);
    items_y = ceil_div(v.x_walks_rows ? n : m, v.block);
    p.groups_x = ceil_div(items_x, p.wg_x);
    p.groups_y = ceil_div(items_y, p.wg_y);
  } else {
    p.groups_x = ceil_div(n, p.tile);
    p.groups_y = ceil_div(m, p.tile);
  }
  p.groups_y = std::min(p.groups_y, kMaxGroupsY);
  return p;
}

Transposer::Transposer(Runtime& rt, const TransposeConfig& cfg, std::uint64_t m, std::uint64_t n)
    : rt_(rt), cfg_(cfg), plan_(plan_transpose(cfg, rt.device(), m, n)) {
  kernel_ = rt_.kernel(plan_.variant->file, plan_.variant->kernel, plan_.options);
  const KernelLimits lim = rt_.limits(kernel_);
  check_kernel_limits(plan_.variant->kernel + " (work-group " + plan_.wg_label() + ")",
                      plan_.wg_x * plan_.wg_y, lim.max_work_group_size, lim.local_mem_bytes,
                      rt_.device());
}

std::vector<cl::Event> Transposer::enqueue(const cl::Buffer& in, const cl::Buffer& out,
                                           bool with_event, const cl::CommandQueue* on) {
  return with_cl_context("enqueueing transpose " + plan_.variant->name, [&] {
    kernel_.setArg(0, in);
    kernel_.setArg(1, out);
    kernel_.setArg(2, static_cast<cl_uint>(plan_.m));
    kernel_.setArg(3, static_cast<cl_uint>(plan_.n));
    std::vector<cl::Event> ev(with_event ? 1 : 0);
    (on ? *on : rt_.queue()).enqueueNDRangeKernel(
        kernel_, cl::NullRange, cl::NDRange(plan_.groups_x * plan_.wg_x, plan_.groups_y * plan_.wg_y),
        cl::NDRange(plan_.wg_x, plan_.wg_y), nullptr, with_event ? &ev[0] : nullptr);
    return ev;
  });
}

std::vector<unsigned char> host_transpose(const std::vector<unsigned char>& in, std::uint64_t m,
                                          std::uint64_t n, std::size_t es) {
  std::vector<unsigned char> out(in.size());
  constexpr std::uint64_t B = 64;  // blocks of 64x64 elements keep both sides in cache
  for (std::uint64_t r0 = 0; r0 < m; r0 += B)
    for (std::uint64_t c0 = 0; c0 < n; c0 += B)
      for (std::uint64_t r = r0; r < std::min(m, r0 + B); ++r)
        for (std::uint64_t c = c0; c < std::min(n, c0 + B); ++c)
          std::memcpy(&out[(c * m + r) * es], &in[(r * n + c) * es], es);
  return out;
}

TransposeCheck check_transpose(const std::vector<unsigned char>& got,
                               const std::vector<unsigned char>& expected, std::uint64_t m,
                               std::uint64_t n, ElemType t) {
  TransposeCheck c;
  const std::size_t es = size_of(t);
  if (got.size() != expected.size()) {
    c.detail = "output has " + std::to_string(got.size()) + " bytes, expected " +
               std::to_string(expected.size());
    return c;
  }
  for (std::uint64_t i = 0; i < m * n; ++i) {
    if (std::memcmp(&got[i * es], &expected[i * es], es) == 0) continue;
    if (c.mismatches++ == 0) {
      c.detail = "first mismatch at output row " + std::to_string(i / m) + ", column " +
                 std::to_string(i % m) + ": expected " +
                 Value::from_bytes(t, &expected[i * es]).str() + ", got " +
                 Value::from_bytes(t, &got[i * es]).str();
    }
  }
  c.ok = c.mismatches == 0;
  if (c.ok) c.detail = "exact (" + std::to_string(m * n) + " elements)";
  else c.detail = std::to_string(c.mismatches) + " of " + std::to_string(m * n) +
                  " elements differ; " + c.detail;
  return c;
}

}  // namespace clreduce
