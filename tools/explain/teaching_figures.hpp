// The pictures of docs/reduction.md and docs/transpose.md, computed from the kernels' index
// formulas (not drawn by hand): which work-items add at each tree level, how many passes through
// the local-memory banks each warp's access takes, and which bank each element of a transpose tile
// sits in. `clreduce explain docs` writes them to docs/figures/; tests/test_docs.cpp holds the
// committed files to what this code draws.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace clreduce {

// The local-memory word a work-item reads and writes at one tree level, or none.
struct TreeAccess {
  bool active = false;
  unsigned dst = 0;  // the word it writes (and reads): l[dst] = OP(l[dst], l[src])
  unsigned src = 0;  // the other word it reads
};

// How the first three reduction steps address local memory at level s (s = 1, 2, 4, ... for naive
// and interleaved; wg/2 ... 1 for divergence_free), for work-item `lid` of a group of `wg`.
// "interleaved_padded" is interleaved with one padding word after every 32 (the experiment in
// bench/experiments/interleaved_padded.cl). Throws std::invalid_argument for another name.
TreeAccess tree_access(const std::string& scheme, unsigned wg, unsigned level_stride, unsigned lid);

// The tree levels of a scheme, in execution order: the s of each level.
std::vector<unsigned> tree_levels(const std::string& scheme, unsigned wg);

// Bank passes of one warp's access at one level: the most active lanes of the warp that touch
// distinct words in one bank (4-byte words, `banks` banks; lanes reading the same word share a
// pass). 0 when no lane of the warp is active. `which` 0: the l[dst] accesses, 1: the l[src] reads.
unsigned bank_passes(const std::string& scheme, unsigned wg, unsigned level_stride, unsigned warp,
                     unsigned warp_size, unsigned banks, int which);

// Bank passes of a warp reading one column of a TILE x (TILE + pad) local tile, as the tiled
// transposes do when they write out: lanes in order down the column, `tile` lanes per column
// and warp_size / tile columns side by side when the tile is narrower than a warp.
unsigned tile_column_passes(unsigned tile, unsigned pad, unsigned warp_size, unsigned banks);

// Every figure, by file name ("reduction_tree.svg", ...), as SVG text.
std::map<std::string, std::string> teaching_figures();

}  // namespace clreduce
