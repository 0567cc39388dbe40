#pragma once
// An unordered pair of bodies (kWorld allowed) as a sorted key (internal).

#include <utility>

namespace dynamics::detail {

inline std::pair<int, int> body_pair(int a, int b) { return a < b ? std::make_pair(a, b) : std::make_pair(b, a); }

}  // namespace dynamics::detail
