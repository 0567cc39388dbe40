#pragma once
// The period of a swing, measured the way the pendulum tests measure it.

#include <cmath>
#include <limits>
#include <vector>

#include "dynamics/coordinates.hpp"
#include "dynamics/simulator.hpp"
#include "step_options.hpp"

namespace dynamics::test {

// Mean time between downward zero crossings of joint coordinate `index`
// (interpolated within the step), from the first to the fourth crossing or
// as many as `max_steps` steps of `dt` give; NaN if a step fails or fewer
// than three crossings occur.
inline double measured_period(const Model& model, State& state, double dt, int max_steps, int index = 0) {
  Simulator sim(model, with_dt(dt));
  std::vector<double> crossings;
  double previous = joint_positions(model, state)(index);
  for (int k = 1; k <= max_steps && crossings.size() < 4; ++k) {
    if (!sim.step(state).ok()) return std::numeric_limits<double>::quiet_NaN();
    const double angle = joint_positions(model, state)(index);
    if (previous > 0.0 && angle <= 0.0) crossings.push_back((k - 1 + previous / (previous - angle)) * dt);
    previous = angle;
  }
  if (crossings.size() < 3) return std::numeric_limits<double>::quiet_NaN();
  return (crossings.back() - crossings.front()) / double(crossings.size() - 1);
}

}  // namespace dynamics::test
