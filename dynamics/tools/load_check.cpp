#include "load_check.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace dynamics::cli {

LoadCheck check_loads(const Simulator& sim, const State& state, double dt) {
  LoadCheck check{std::numeric_limits<double>::infinity(), {}};
  if (state.multipliers_dt <= 0.0) return check;  // no step taken yet
  LoadFrequency f;
  try {
    f = sim.load_frequency(state);
  } catch (const std::exception&) {
    return check;  // advice only: a system the estimate cannot solve changes nothing
  }
  check.step_limit = f.step_limit;
  if (!(f.step_limit < dt) || f.body < 0) return check;
  // Suggest three quarters of the limit (the loads change as the mechanism
  // moves: a swinging chain's tension peaks at the bottom of the swing),
  // rounded down to two significant digits.
  const double target = 0.75 * f.step_limit;
  const double scale = std::pow(10.0, std::floor(std::log10(target)) - 1.0);
  const double suggested = std::floor(target / scale) * scale;
  std::ostringstream text;
  text.precision(4);
  const Model& model = sim.model();
  // Springs read at the start of the step limit it like any explicit spring;
  // loads through the lever arms frozen at that start (docs/dynamics.md).
  const bool spring = f.spring_share >= 0.5 && f.spring_joint >= 0;
  if (spring)
    text << "the spring of joint '" << model.joint(f.spring_joint).name << "'";
  else
    text << "the joints' loads";
  text << (spring ? " makes" : " make") << " body '" << model.body(f.body).name << "' swing at " << f.rate
       << " rad/s, and steps longer than ";
  if (f.step_limit > 2.0 / f.rate * (1.0 + 1e-9))  // dampers on the new velocities lengthen 2/rate
    text << f.step_limit << " s (2/" << f.rate << ", lengthened by joint damping)";
  else
    text << "2/" << f.rate << " = " << f.step_limit << " s";
  text << " let that swing grow ("
       << (spring ? "a spring's force is read at the start of each step"
                  : "joint forces act along their directions at the start of each step")
       << "; docs/dynamics.md, \"Loaded joints\"): try --dt " << suggested;
  if (!spring) text << " (the loads change as the mechanism moves)";
  check.advice = text.str();
  return check;
}

bool load_check_due(long step, long steps) {
  constexpr long kEvery = 1024;
  if (step == steps) return true;
  if (step > kEvery) return step % kEvery == 0;
  long power = 1;
  while (power < step) power *= 4;
  return power == step;
}

bool load_check_affordable(long step, double check_seconds, double step_seconds) {
  constexpr double kFreeSeconds = 1.0, kShareOfSteps = 0.1;
  return step <= 1 || check_seconds <= std::max(kFreeSeconds, kShareOfSteps * step_seconds);
}

}  // namespace dynamics::cli
