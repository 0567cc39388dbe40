// Relaxed supernodes. A pivot k whose parent is k + 1 and whose structure is
// almost {k+1} u S(k+1) is given exactly that structure: the few missing
// blocks are stored as explicit zeros. Runs of such pivots then nest, which
// is what a supernodal panel needs (supernodal_panels.cpp), at the price of a
// little arithmetic on zeros. The elimination-tree property survives: the
// entries of the new S(k) after any a are those of S(k+1) after a, a subset
// of S(a). SuiteSparse's supernodal codes relax the same way.
#include <algorithm>

#include "symbolic_data.hpp"

namespace graphsolve::detail {

namespace {
// Only fronts this wide are worth a panel (see kMinOuterRows there).
constexpr int kRelaxMinRows = 24;
// Largest share of explicit zeros in a relaxed pivot's panels.
constexpr double kRelaxMaxZeros = 0.1;
}  // namespace

long relax_supernodes(std::vector<int>& begin, std::vector<int>& entries, const std::vector<int>& size) {
  const int n = static_cast<int>(begin.size()) - 1;
  std::vector<int> count(n), width(n, 0);
  for (int k = 0; k < n; ++k) {
    count[k] = begin[k + 1] - begin[k];
    for (int e = begin[k]; e < begin[k + 1]; ++e) width[k] += size[entries[e]];
  }
  std::vector<char> relaxed(n, 0);
  long added = 0;
  // Downwards, so that S(k + 1) is final when k is decided: a whole run relaxes.
  for (int k = n - 2; k >= 0; --k) {
    if (count[k] == 0 || entries[begin[k]] != k + 1 || count[k] == count[k + 1] + 1) continue;
    const int relaxed_width = size[k + 1] + width[k + 1];
    if (relaxed_width < kRelaxMinRows || relaxed_width - width[k] > kRelaxMaxZeros * relaxed_width) continue;
    added += count[k + 1] + 1 - count[k];
    count[k] = count[k + 1] + 1;
    width[k] = relaxed_width;
    relaxed[k] = 1;
  }
  if (added == 0) return 0;
  std::vector<int> new_begin(n + 1, 0);
  for (int k = 0; k < n; ++k) new_begin[k + 1] = new_begin[k] + count[k];
  std::vector<int> new_entries(new_begin[n]);
  // Downwards again: a relaxed S(k) copies the final S(k + 1).
  for (int k = n - 1; k >= 0; --k) {
    int* out = new_entries.data() + new_begin[k];
    if (relaxed[k]) {
      *out++ = k + 1;
      std::copy(new_entries.begin() + new_begin[k + 1], new_entries.begin() + new_begin[k + 2], out);
    } else {
      std::copy(entries.begin() + begin[k], entries.begin() + begin[k + 1], out);
    }
  }
  begin.swap(new_begin);
  entries.swap(new_entries);
  return added;
}

}  // namespace graphsolve::detail
