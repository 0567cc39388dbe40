// Relaxed supernodes. A pivot k whose parent is k + 1 and whose structure is
// almost {k+1} u S(k+1) is given exactly that structure: the few missing
// blocks are stored as explicit zeros. Runs of such pivots then nest, which
// is what a supernodal panel needs (supernodal_panels.cpp), at the price of a
// little arithmetic on zeros. The elimination-tree property survives: the
// entries of the new S(k) after any a are those of S(k+1) after a, a subset
// of S(a). SuiteSparse's supernodal codes relax the same way.
#include "symbolic_data.hpp"

namespace graphsolve::detail {

namespace {
// Only fronts this wide are worth a panel (see kMinOuterRows there).
constexpr int kRelaxMinRows = 24;
// Largest share of explicit zeros in a relaxed pivot's panels.
constexpr double kRelaxMaxZeros = 0.1;

int rows_of(const std::vector<int>& entries, const std::vector<int>& size) {
  int rows = 0;
  for (int k : entries) rows += size[k];
  return rows;
}
}  // namespace

long relax_supernodes(std::vector<std::vector<int>>& structure, const std::vector<int>& size) {
  const int n = static_cast<int>(structure.size());
  std::vector<int> width(n);
  for (int k = 0; k < n; ++k) width[k] = rows_of(structure[k], size);
  long added = 0;
  // Downwards, so that S(k + 1) is final when k is decided: a whole run relaxes.
  for (int k = n - 2; k >= 0; --k) {
    std::vector<int>& s = structure[k];
    const std::vector<int>& next = structure[k + 1];
    if (s.empty() || s.front() != k + 1 || s.size() == next.size() + 1) continue;
    const int relaxed_width = size[k + 1] + width[k + 1];
    if (relaxed_width < kRelaxMinRows || relaxed_width - width[k] > kRelaxMaxZeros * relaxed_width) continue;
    added += static_cast<long>(next.size() + 1 - s.size());
    s.resize(1);
    s.insert(s.end(), next.begin(), next.end());
    width[k] = relaxed_width;
  }
  return added;
}

}  // namespace graphsolve::detail
