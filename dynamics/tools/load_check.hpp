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

// Whether the run checks its loads after step `step` (1-based) of `steps`:
// after steps 1, 4, 16, ..., 1024, then every 1024 steps, and after the
// last. The loads change as the mechanism moves (a swinging pendulum's peak
// at the bottom of its swing). An estimate is a few hundred solves of the
// constraint system (restarted Lanczos, each vector projected and refined):
// 16 ms on a 100-link chain and 143 ms on a 1000-link one, 75 to 150 of their
// steps when those stay within the load limit, about 6 when they sub-step
// past it (measured 2026-11-30; docs/dynamics.md, "Loaded joints"). The
// checks are left out of the run's wall time.
bool load_check_due(long step, long steps);

// Whether a check due after step `step` fits the checks' budget, given the
// time the checks so far took and the steps' own time: the check after the
// first step always runs (its warning matters most); later ones while the
// checks took at most a second in all, or a tenth of the steps' time once
// that is longer. Only long mechanisms meet the bound: the six checks of a
// 1000-step run of a 1000-link chain take 0.9 s, while a 10000-link chain's
// take 3 s each, where 1000 steps took 25 s.
bool load_check_affordable(long step, double check_seconds, double step_seconds);

}  // namespace dynamics::cli
