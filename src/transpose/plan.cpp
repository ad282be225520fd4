// The transpose registry and planning.
#include "transpose/plan.hpp"

#include "core/matrix.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <stdexcept>
#include <tuple>

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
  // The two register tiles are one kernel file built with -D RT = the block edge.
  r.back().file = "transpose_register_tile.cl";
  r.back().kernel = "transpose_register_tile";
  r.push_back(make("register_tile4", TransposeShape::Free,
                   "4x4 block per work-item with T4 (16-byte) vector loads and stores",
                   "16-byte accesses, 16 elements in flight per work-item; each work-item writes 4 "
                   "rows 16 bytes at a time, so a narrow group (8 wide) keeps a warp's writes "
                   "contiguous"));
  r.back().block = 4;
  r.back().default_wg_x = 8;
  r.back().default_wg_y = 32;
  r.back().file = "transpose_register_tile.cl";
  r.back().kernel = "transpose_register_tile";
  r.push_back(make("local_tile_multi", TransposeShape::TileRows,
                   "padded TILE x (TILE+1) tile, TILE x ROWS work-group: TILE/ROWS elements per "
                   "work-item",
                   "coalesced, conflict-free and several loads in flight per work-item: the "
                   "usual fastest form"));
  r.back().default_tile = 32;
  r.back().default_rows = 8;
  r.back().pad = 1;
  r.push_back(make("local_tile_vector", TransposeShape::TileRows,
                   "local_tile_multi with VEC-element vector loads and stores: a (TILE/VEC) x ROWS "
                   "work-group, TILE/ROWS vectors per work-item each way",
                   "8- or 16-byte accesses for 4-byte elements, as wide as double's; the tile is "
                   "gathered VEC rows at a time (some bank conflicts), edge tiles element by element"));
  // Defaults for 4-byte elements, scaled for 8-byte ones to the same bytes per access and half
  // the tile edge (planner). On the H200 (bench/results/2026-11-28_h200_transpose_vector):
  // float TILE 64, ROWS 16, VEC 4 97.1% of the copy at 8192x8192 (TILE 32: 89.9%; ROWS 4: 92.9%);
  // double TILE 32, ROWS 16, VEC 2 96.7% (TILE 64 VEC 4, a 33 KB tile: 81.6%).
  r.back().default_tile = 64;
  r.back().default_rows = 16;
  r.back().default_vec = 4;
  r.back().pad = 1;
  // The teaching steps: each variant's predecessor, its literature, and what its kernel changes.
  static const std::map<std::string, std::array<std::string, 3>> steps = {
      {"naive",
       {"",
        "Ruetsch and Micikevicius, \"Optimizing Matrix Transpose in CUDA\" (NVIDIA): the naive "
        "transpose",
        "the starting point: one element per work-item, read from (row y, column x) and written "
        "to (row x, column y); the reads of a warp are consecutive, its writes M elements apart"}},
      {"naive_write_coalesced",
       {"naive",
        "the naive transpose with the roles of the two sides swapped",
        "x walks the input's rows instead of its columns: the writes of a warp become consecutive"
        " and its reads N elements apart; which side a GPU's caches absorb better decides which "
        "naive form wins"}},
      {"local_tile",
       {"naive",
        "Ruetsch and Micikevicius: \"coalesced transpose via shared memory\"",
        "a TILE x TILE tile staged in local memory: the group reads rows of the input and writes "
        "rows of the output, both coalesced; the transpose happens in the local-memory index. The"
        " tile's column reads hit one bank TILE times"}},
      {"local_tile_padded",
       {"local_tile",
        "Ruetsch and Micikevicius: \"shared memory bank conflicts\" (padding the tile)",
        "one padding column, a TILE x (TILE + 1) tile: row j starts one bank after row j - 1, so "
        "reading a column of the tile touches TILE different banks and the bank conflicts are "
        "gone"}},
      {"local_tile_multi",
       {"local_tile_padded",
        "Ruetsch and Micikevicius: 32 x 8 thread blocks, each thread moving several elements",
        "a TILE x ROWS work-group moves the padded tile, each work-item TILE / ROWS elements: "
        "more loads in flight per work-item, fewer index computations per element, and a 32 x 32 "
        "tile from a 256-work-item group"}},
      {"local_tile_vector",
       {"local_tile_multi",
        "vectorised shared-memory transposes: each thread moving a vector of neighbouring elements "
        "per access on both sides",
        "each work-item reads VEC neighbouring elements of an input row as one vector and writes VEC "
        "neighbouring elements of an output row as one vector, gathered from VEC rows of the tile: "
        "4-byte elements move 8 or 16 bytes per access, as 8-byte ones already did (double's "
        "local_tile_multi was the closest to the copy). BAND (8-byte elements) has the groups take the "
        "tiles in bands of tile columns, so that a wave's writes share pages where rows are 128 KB apart"}},
      {"register_tile2",
       {"naive",
        "register blocking: vector loads and stores, the transpose in registers",
        "each work-item moves a 2 x 2 block with 2-wide vector loads and stores and transposes it"
        " in registers: no local memory and no barrier, and both sides move 8 bytes per access"}},
      {"register_tile4",
       {"register_tile2",
        "register blocking with 16-byte accesses",
        "4 x 4 blocks: 16-byte vector loads and stores, four times the elements in flight per "
        "work-item"}},
  };
  for (TransposeVariant& v : r) {
    const auto& s = steps.at(v.name);
    v.predecessor = s[0];
    v.literature = s[1];
    v.step = s[2];
  }
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

// Each variant's parameters follow from its shape: the planner sets exactly these.
KernelSpec spec_of(const TransposeVariant& v) {
  KernelSpec k{"transpose", v.file, v.kernel, v.summary, {}};
  k.params.push_back(type_id_param());
  if (v.shape == TransposeShape::Free) {
    const std::string rule = std::to_string(v.default_wg_x) + " x " + std::to_string(v.default_wg_y) +
                             " (the variant's default), within the device's work-group limits";
    k.params.push_back({"WG_X", "work-items along x, the fast index of the coalesced side", {}, rule, false, true, "--wg-x"});
    k.params.push_back({"WG_Y", "work-items along y (the groups loop past 65535 along y)", {}, rule, false, true, "--wg-y"});
    for (const auto& [define, value] : transpose_fixed_defines(v))
      k.params.push_back({define, "edge of the block each work-item moves with RT-wide vector loads and stores", {value},
                          std::to_string(value) + " (the variant's)", false, false,
                          "--variant register_tile2 (RT 2) or register_tile4 (RT 4)"});
  } else {
    k.params.push_back({"TILE", std::string("edge of the square tile staged in local memory; the work-group is TILE") +
                                    (v.default_vec ? " / VEC" : "") + " wide", {},
                        std::to_string(v.default_tile) + (v.default_vec ? " for 4-byte elements, " + std::to_string(v.default_tile / 2) + " for 8-byte" : "") +
                            ", within the device's local memory",
                        false, true, "--tile"});
    if (v.shape == TransposeShape::TileRows)
      k.params.push_back({"ROWS", "work-group rows, dividing TILE: each work-item moves TILE / ROWS elements", {},
                          std::to_string(v.default_rows), false, true, "--rows"});
    if (v.default_vec) {
      k.params.push_back({"VEC", "elements per access on both sides, dividing TILE; the work-group is TILE / VEC wide",
                          {1, 2, 4}, std::to_string(v.default_vec * 4) + " bytes of elements (" + std::to_string(v.default_vec) +
                              " for 4-byte, " + std::to_string(v.default_vec / 2) + " for 8-byte)",
                          false, true, "--vec"});
      k.params.push_back({"ALIGNED", "1 where VEC divides M and N: whole tiles move by vector pointers, else by vloadn/vstoren",
                          {0, 1}, "from M, N and VEC", false, false});
      k.params.push_back({"BAND", "groups take the tiles in bands of BAND tile columns (0: in launch order)",
                          {0, 1, 2, 4, 8, 16, 32, 64}, "16 for 8-byte elements, 0 for 4-byte", false, true, "--band"});
    }
  }
  return k;
}
}  // namespace

const KernelSpec& transpose_kernel_spec(const TransposeVariant& v) {
  static const std::vector<KernelSpec> specs = [] {
    std::vector<KernelSpec> out;
    for (const TransposeVariant& x : transpose_variants()) out.push_back(spec_of(x));
    return out;
  }();
  for (std::size_t i = 0; i < transpose_variants().size(); ++i)
    if (&transpose_variants()[i] == &v) return specs[i];
  throw std::logic_error("transpose variant " + v.name + " is not in the registry");
}

const std::vector<TransposeVariant>& transpose_variants() {
  static const std::vector<TransposeVariant> r = build_registry();
  return r;
}

std::vector<std::pair<std::string, std::uint64_t>> transpose_fixed_defines(const TransposeVariant& v) {
  if (v.block > 1) return {{"RT", v.block}};
  return {};
}

std::vector<std::string> transpose_variant_names() {
  std::vector<std::string> out;
  for (const auto& v : transpose_variants()) out.push_back(v.name);
  return out;
}

const TransposeVariant& find_transpose_variant(std::string_view name) {
  for (const auto& v : transpose_variants())
    if (v.name == name) return v;
  throw ConfigError(Param::Variant,
                    "unknown transpose variant '" + std::string(name) +
                        "'; valid transpose variants: " + join(transpose_variant_names()),
                    join(transpose_variant_names()));
}

std::string TransposePlan::wg_label() const {
  return std::to_string(wg_x) + "x" + std::to_string(wg_y);
}


TransposePlan plan_transpose(const TransposeConfig& cfg, const DeviceInfo& dev, std::uint64_t m,
                             std::uint64_t n) {
  const TransposeVariant& v = find_transpose_variant(cfg.variant.empty() ? kDefaultTransposeVariant : cfg.variant);
  check_matrix(dev, cfg.type, m, n);
  const std::uint64_t es = size_of(cfg.type);

  TransposePlan p;
  p.variant = &v;
  p.m = m;
  p.n = n;
  const KernelSpec& spec = transpose_kernel_spec(v);
  // A declared parameter comes from the option or the caller's -D, never two different values.
  const auto given = [&](const char* define, std::optional<std::uint64_t> option) -> std::optional<std::uint64_t> {
    return spec.find(define) ? caller_value(spec, define, option, define, cfg.defines) : option;
  };
  const auto opt = [](const auto& o) { return o ? std::optional<std::uint64_t>(*o) : std::nullopt; };
  const std::optional<std::uint64_t> wg_x = given("WG_X", opt(cfg.wg_x)), wg_y = given("WG_Y", opt(cfg.wg_y));
  const std::optional<std::uint64_t> tile = given("TILE", opt(cfg.tile)), rows = given("ROWS", opt(cfg.rows));
  const std::optional<std::uint64_t> vec = given("VEC", opt(cfg.vec));
  if (cfg.band && !v.default_vec) {
    const std::string with_band = join(names_where([](const TransposeVariant& x) { return x.default_vec != 0; }));
    throw ConfigError(Param::Define, "transpose variant " + v.name + " takes no BAND; variants that do: " + with_band,
                      with_band);
  }
  if (cfg.vec && !v.default_vec) {
    const std::string with_vec = join(names_where([](const TransposeVariant& x) { return x.default_vec != 0; }));
    throw ConfigError(Param::Vec, "transpose variant " + v.name + " takes no VEC (one element per access); variants that do: " + with_vec,
                      with_vec);
  }
  for (const auto& [value, name, param] : {std::tuple{wg_x, "WG_X", Param::WgX}, {wg_y, "WG_Y", Param::WgY},
                                           {tile, "TILE", Param::Tile}, {rows, "ROWS", Param::Rows}})
    if (value && *value > (1u << 20))  // over any device's work-group: refused before it is narrowed
      throw ConfigError(param, std::string(name) + " " + std::to_string(*value) + " is over any work-group",
                        "at most the device's work-group size");
  ParamValues values = {{"TYPE_ID", static_cast<std::uint64_t>(cfg.type)}};
  if (v.shape == TransposeShape::Free) {
    if (cfg.tile || cfg.rows) {
      const std::string tiled = join(names_where([](const TransposeVariant& x) { return x.shape != TransposeShape::Free; }));
      throw ConfigError(cfg.tile ? Param::Tile : Param::Rows,
                        "transpose variant " + v.name +
                            " takes no TILE or ROWS (its work-group is WG_X x WG_Y); variants that do: " + tiled,
                        tiled);
    }
    p.wg_x = static_cast<std::size_t>(wg_x.value_or(v.default_wg_x));
    p.wg_y = static_cast<std::size_t>(wg_y.value_or(v.default_wg_y));
    if (p.wg_x == 0) throw ConfigError(Param::WgX, "WG_X must be at least 1", ">= 1");
    if (p.wg_y == 0) throw ConfigError(Param::WgY, "WG_Y must be at least 1", ">= 1");
    values.push_back({"WG_X", p.wg_x});
    values.push_back({"WG_Y", p.wg_y});
    for (const auto& fixed : transpose_fixed_defines(v)) values.push_back(fixed);
  } else {
    if (cfg.wg_x || cfg.wg_y)
      throw ConfigError(cfg.wg_x ? Param::WgX : Param::WgY,
                        "transpose variant " + v.name + " sets its work-group from the tile (" +
                            (v.shape == TransposeShape::Tile ? "TILE x TILE" : "TILE x ROWS") +
                            "): set TILE" + (v.shape == TransposeShape::TileRows ? " and ROWS" : "") +
                            ", not WG_X/WG_Y",
                        v.shape == TransposeShape::Tile ? "TILE" : "TILE and ROWS");
    if (v.shape == TransposeShape::Tile && cfg.rows)
      throw ConfigError(Param::Rows,
                        "transpose variant " + v.name +
                            " moves one element per work-item (ROWS = TILE); ROWS is for local_tile_multi and local_tile_vector",
                        "local_tile_multi, local_tile_vector");
    // local_tile_vector's defaults are for 4-byte elements: 8-byte ones take half the VEC (the
    // same 16 bytes per access) and half the tile edge.
    const unsigned wide = v.default_vec && es == 8 ? 2 : 1;
    p.tile = static_cast<unsigned>(tile.value_or(v.default_tile / wide));
    p.vec = v.default_vec ? static_cast<unsigned>(vec.value_or(std::max(1u, v.default_vec / wide))) : 0;
    // A default tile too large for the device's local memory is halved while VEC (and a ROWS the
    // caller gave) still divide it; a TILE the caller gave is refused. A default ROWS follows the
    // tile down.
    while (!tile && v.default_vec && std::uint64_t{p.tile} * (p.tile + v.pad) * es > dev.local_mem_bytes &&
           p.tile / 2 >= std::max(p.vec, 1u) && (p.tile / 2) % std::max(p.vec, 1u) == 0 &&
           (!rows || (p.tile / 2) % static_cast<unsigned>(*rows) == 0))
      p.tile /= 2;
    p.rows = v.shape == TransposeShape::Tile
                 ? p.tile
                 : static_cast<unsigned>(rows.value_or(v.default_vec ? std::min(v.default_rows, p.tile) : v.default_rows));
    if (p.tile == 0) throw ConfigError(Param::Tile, "TILE must be at least 1", ">= 1");
    if (p.rows == 0) throw ConfigError(Param::Rows, "ROWS must be at least 1", ">= 1");
    if (p.tile % p.rows != 0)
      throw ConfigError(Param::Rows,
                        "ROWS " + std::to_string(p.rows) + " does not divide TILE " + std::to_string(p.tile) +
                            ": each work-item moves TILE/ROWS whole rows",
                        "a divisor of TILE " + std::to_string(p.tile));
    if (p.vec && (p.vec != 1 && p.vec != 2 && p.vec != 4))
      throw ConfigError(Param::Vec, "VEC " + std::to_string(p.vec) + " for " + v.name + "; valid: 1, 2, 4", "1, 2, 4");
    if (p.vec && p.tile % p.vec != 0)
      throw ConfigError(Param::Vec,
                        "VEC " + std::to_string(p.vec) + " does not divide TILE " + std::to_string(p.tile) +
                            ": each work-item moves whole vectors of a tile row",
                        "a divisor of TILE " + std::to_string(p.tile) + " among 1, 2, 4");
    p.wg_x = p.tile / std::max(p.vec, 1u);
    p.wg_y = p.rows;
    p.local_bytes = std::uint64_t{p.tile} * (p.tile + v.pad) * es;
    if (p.local_bytes > dev.local_mem_bytes)
      throw ConfigError(Param::Tile,
                        "a " + std::to_string(p.tile) + "x" + std::to_string(p.tile + v.pad) + " tile of " +
                            std::string(name_of(cfg.type)) + " needs " + std::to_string(p.local_bytes) +
                            " bytes of local memory, more than the " + std::to_string(dev.local_mem_bytes) +
                            " bytes of " + dev.name + " (CL_DEVICE_LOCAL_MEM_SIZE); use a smaller TILE",
                        "a smaller TILE", dev.name);
    values.push_back({"TILE", p.tile});
    if (v.shape == TransposeShape::TileRows) values.push_back({"ROWS", p.rows});
    if (p.vec) {
      p.aligned = m % p.vec == 0 && n % p.vec == 0;
      values.push_back({"VEC", p.vec});
      values.push_back({"ALIGNED", p.aligned ? 1 : 0});
      // BAND 16 for 8-byte elements: on the H200 double 16384x16384 (128 KB rows) went from 88.6%
      // to 92.7% of the copy and 8192x8192 from 96.6% to 98.1%; float moved by 0.1-0.2 points
      // (bench/results/2026-11-28_h200_columns_block, call 4). A wave's groups then share the pages
      // of BAND tile rows on both sides, where launch order spreads its writes over a whole tile
      // row's worth of output rows.
      const std::optional<std::uint64_t> band = given("BAND", opt(cfg.band));
      if (band && ((*band & (*band - 1)) != 0 || *band > 64))
        throw ConfigError(Param::Define, "BAND " + std::to_string(*band) + " for " + v.name + "; valid: 0, 1, 2, 4, 8, 16, 32, 64",
                          "0, 1, 2, 4, 8, 16, 32, 64");
      p.band = static_cast<unsigned>(band.value_or(es == 8 ? 16 : 0));
      values.push_back({"BAND", p.band});
    }
  }
  const std::uint64_t wg = std::uint64_t{p.wg_x} * p.wg_y;
  const Param shape_param = v.shape == TransposeShape::Free ? Param::WgX : Param::Tile;
  if (wg > dev.max_work_group_size)
    throw ConfigError(shape_param,
                      "work-group " + p.wg_label() + " = " + std::to_string(wg) +
                          " work-items is over the device maximum " + std::to_string(dev.max_work_group_size) +
                          " of " + dev.name + " (CL_DEVICE_MAX_WORK_GROUP_SIZE)",
                      "at most " + std::to_string(dev.max_work_group_size) + " work-items", dev.name);
  const std::size_t dims[2] = {p.wg_x, p.wg_y};
  for (std::size_t d = 0; d < 2 && d < dev.max_work_item_sizes.size(); ++d)
    if (dims[d] > dev.max_work_item_sizes[d])
      throw ConfigError(v.shape != TransposeShape::Free ? Param::Tile : d == 0 ? Param::WgX : Param::WgY,
                        "work-group " + p.wg_label() + ": " + std::to_string(dims[d]) + " along " + dim_name(d) +
                            " is over the device's " + std::to_string(dev.max_work_item_sizes[d]) +
                            " (CL_DEVICE_MAX_WORK_ITEM_SIZES[" + std::to_string(d) + "])",
                        "at most " + std::to_string(dev.max_work_item_sizes[d]), dev.name);
  p.options = options_for(spec, values, cfg.defines);

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

}  // namespace clreduce
