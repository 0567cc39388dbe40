#pragma once
// The simulate command's check of dt against the joints' loads (see
// Simulator::load_frequency): a hanging chain's tension lets a zigzag grow
// once dt passes 2 / rate, first as noise, then as steps that stall.

#include <string>

#include "dynamics/dynamics.hpp"

namespace dynamics::cli {

struct LoadCheck {
  double step_limit;  // s; +inf when no load stiffens the mechanism or the state has no impulses yet
  std::string advice;  // why dt is too large and what to try, empty when dt is within the limit
};

LoadCheck check_loads(const Simulator& sim, const State& state, double dt);

}  // namespace dynamics::cli
