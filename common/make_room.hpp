#pragma once
// Room for one more element, had before anything else changes: a push_back
// into spare capacity cannot throw (for an element whose move cannot), so
// an add that runs out of memory fails here, with nothing changed yet.
// Grows geometrically, so adds stay amortized O(1). Header-only, for both
// libraries.

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <vector>

namespace graphsolve::detail {

template <class T, class Allocator>
void make_room(std::vector<T, Allocator>& values) {
  static_assert(std::is_nothrow_move_constructible_v<T>, "the push_back after make_room must not throw");
  if (values.size() == values.capacity()) values.reserve(std::max<std::size_t>(16, 2 * values.capacity()));
}

}  // namespace graphsolve::detail
