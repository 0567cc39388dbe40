#pragma once
// The round-off that positions carry (internal): a joint or contact equation
// subtracts coordinates of the size of the largest one, so far from the origin
// (1000 km: one unit in the last place is 1.2e-10 m) no tolerance below a few
// of those units can be met.

#include <algorithm>
#include <limits>

#include "dynamics/state.hpp"

namespace dynamics::detail {

inline double position_roundoff(const State& state) {
  constexpr double kUlps = 8.0;  // a joint or contact equation's round-off, in units of the last place
  double largest = 0.0;
  for (const Vector3& x : state.position) largest = std::max(largest, x.lpNorm<Eigen::Infinity>());
  return kUlps * std::numeric_limits<double>::epsilon() * largest;
}

}  // namespace dynamics::detail
