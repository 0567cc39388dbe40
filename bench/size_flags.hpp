#pragma once
// The graphsolve benchmark's size flags: --block-sizes=B1,B2,... (the
// families' block sizes) and --sizes=FAMILY:N1,N2,... (a family's sizes,
// given again for each family), read as decimal whole numbers within range.

#include <map>
#include <string>
#include <vector>

namespace bench {

// A family's sizes in its own parameter: nodes for chain, tree, ladder and
// random graphs, the side for net and crystal.
using FamilySizes = std::map<std::string, std::vector<int>>;

constexpr int kLargestBlock = 512;
// The block sizes of "B1,B2,...", each 1 to kLargestBlock; empty, with
// `error` set, on bad input.
std::vector<int> parse_block_sizes(const std::string& list, std::string& error);

// Adds "FAMILY:N1,N2,..." to `sizes`; false, with `error` set, on bad input:
// an unknown family, a family given twice, or a size that is no whole number
// from the family's least (ladder: 2 nodes, one rung; others 1) to a system
// of at most kMostNodes nodes; a size given twice; an odd ladder.
constexpr long kMostNodes = 10000000;
bool add_family_sizes(const std::string& spec, FamilySizes& sizes, std::string& error);

}  // namespace bench
