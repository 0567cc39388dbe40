#pragma once
// The fastest motion that a mechanism's joint loads make it swing (internal;
// see Simulator::load_frequency).

#include <vector>

#include "dynamics/model.hpp"
#include "dynamics/simulator.hpp"
#include "dynamics/state.hpp"

namespace dynamics::detail {

// Each joint's translational force (world frame, N) on its child at the
// child's attachment point; its parent takes the opposite at its own.
LoadFrequency load_frequency(const Model& model, const State& state, const std::vector<Vector3>& child_force);

}  // namespace dynamics::detail
