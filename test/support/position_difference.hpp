#pragma once
// How far apart two runs' bodies ended: the largest coordinate difference of
// their positions (metres), for runs of one mechanism compared step for
// step; +infinity for runs of different body counts.

#include <algorithm>
#include <cmath>
#include <vector>

#include "dynamics/dynamics.hpp"

namespace dynamics::test {

inline double largest_position_difference(const std::vector<Vector3>& a, const std::vector<Vector3>& b) {
  double largest = 0.0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i)
    largest = std::max(largest, (a[i] - b[i]).lpNorm<Eigen::Infinity>());
  return a.size() == b.size() ? largest : INFINITY;
}

}  // namespace dynamics::test
