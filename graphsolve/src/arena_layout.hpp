#pragma once
// Where a BlockMatrix keeps each block in its value arena, a function of the
// pattern alone: every diagonal block A_ii by node, then for each edge
// (a, b), a < b, A_ab followed by A_ba; each block column-major. The
// factorization reads a matrix through the same offsets, computed once from
// its analysis instead of looked up block by block.

#include <vector>

#include "graphsolve/pattern.hpp"

namespace graphsolve::detail {

struct ArenaLayout {
  std::vector<int> diag;   // per node
  std::vector<int> upper;  // per edge: A_ab, a < b
  std::vector<int> lower;  // per edge: A_ba
  long total = 0;          // values; offsets are meaningful only while it fits an int
};

ArenaLayout arena_layout(const Pattern& pattern);

}  // namespace graphsolve::detail
