#pragma once
// The benchmarks' size flags: --block-sizes=B1,B2,... (graphsolve_bench's
// block sizes) and --sizes=FAMILY:N1,N2,... (a family's sizes, given once
// per family; graphsolve_bench's graph families, dynamics_bench's
// mechanisms, contact_bench's contact models), read as decimal whole numbers
// within range.

#include <map>
#include <string>
#include <vector>

namespace bench {

// A family's sizes in its own parameter (nodes, links, segments, a side).
using FamilySizes = std::map<std::string, std::vector<int>>;

// What --sizes accepts for one family.
struct SizeRange {
  const char* family;
  const char* parameter;  // what a size counts, for the messages: "a node count"
  long least, most;
  bool even;  // sizes must be even (a ladder: two nodes per rung)
};

constexpr int kLargestBlock = 512;
// The block sizes of "B1,B2,...", each 1 to kLargestBlock; empty, with
// `error` set, on bad input.
std::vector<int> parse_block_sizes(const std::string& list, std::string& error);

// Adds "FAMILY:N1,N2,..." to `sizes`; false, with `error` set, on bad input:
// a family not in `ranges`, a family given twice, a size that is no whole
// number within its range, a size given twice, an odd one where sizes are even.
bool add_family_sizes(const std::string& spec, const std::vector<SizeRange>& ranges, FamilySizes& sizes,
                      std::string& error);

// Takes every --sizes=... of argv into `sizes`, and the other arguments, in
// order, into `rest` (for the program's other flags and Google Benchmark's);
// false, with the message printed to stderr under the program's name, on bad
// input.
bool take_size_flags(int argc, char** argv, const std::vector<SizeRange>& ranges, const char* program,
                     FamilySizes& sizes, std::vector<char*>& rest);

// The sizes chosen for `family`, else `otherwise` (the run's own).
std::vector<int> sizes_of(const FamilySizes& chosen, const std::string& family, const std::vector<int>& otherwise);

// graphsolve_bench's families, up to 10 million nodes: nodes of a chain,
// tree, ladder or random graph, the side of a net or crystal.
const std::vector<SizeRange>& graph_size_ranges();

}  // namespace bench
