#pragma once
// Which joints lie on a kinematic loop (internal). Only those can have
// redundant rows (a planar loop in 3D): a joint whose removal splits the
// mechanism (a bridge of the graph of bodies and the world joined by the
// joints) has rows that no other joint can share.

#include <vector>

#include "dynamics/model.hpp"

namespace dynamics::detail {

// Per joint: 1 if it lies on a cycle of the graph whose vertices are the
// bodies and the world and whose edges are the joints with constraint rows,
// 0 otherwise (also for joints without rows). A joint coupling ties together
// the bodies of its two joints, so the joints it couples count as on a loop.
std::vector<char> joints_on_loops(const Model& model);

}  // namespace dynamics::detail
