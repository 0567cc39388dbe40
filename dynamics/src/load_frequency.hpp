#pragma once
// The fastest motion that a mechanism's joint loads and springs make it swing
// (internal; see Simulator::load_frequency).

#include <vector>

#include "dynamics/model.hpp"
#include "dynamics/simulator.hpp"
#include "dynamics/state.hpp"

namespace dynamics::detail {

// Each joint's translational force (world frame, N) on its child at the
// child's attachment point; its parent takes the opposite at its own. The
// joints' springs come from the model.
LoadFrequency load_frequency(const Model& model, const State& state, const std::vector<Vector3>& child_force);

}  // namespace dynamics::detail
