// The friction restarts (StepOptions::friction_restarts): a step with
// friction whose interior-point iteration stalls is solved again from other
// starts.

#include "simulator_impl.hpp"

namespace dynamics {

namespace {

// The starts tried, in order: the velocities of the same step solved with
// every friction coefficient scaled to zero, then to half, then rest (zero
// velocities, so that every contact starts sticking). On random quadruped
// drops (docs/contacts.md) each carried steps the others did not.
constexpr double kRest = -1.0;
constexpr double kRestarts[] = {0.0, 0.5, kRest};

}  // namespace

StepResult Simulator::Impl::solve(State& state) {
  StepResult result = newton(state);
  if (result.status != StepStatus::NotConverged || !options.friction_restarts || !ineq.has_friction()) return result;
  // A failed step leaves the state as it was: every solve starts from it.
  int iterations = result.iterations, factorizations = result.factorizations;
  for (double scale : kRestarts) {
    if (scale == kRest) {
      restart_start.setZero(dim);
    } else {
      restart_state = state;
      ineq.set_friction_scale(scale);
      const StepResult low = newton(restart_state);
      ineq.set_friction_scale(1.0);
      iterations += low.iterations;
      factorizations += low.factorizations;
      if (!low.ok()) continue;
      restart_start = restart_state.multipliers;  // its velocities lead
    }
    start_velocities = &restart_start;
    StepResult full = newton(state);
    start_velocities = nullptr;
    iterations += full.iterations;
    factorizations += full.factorizations;
    if (full.ok()) {
      full.iterations = iterations;
      full.factorizations = factorizations;
      full.friction_restart = true;
      return full;
    }
  }
  // None carried it: the first attempt's measures tell why.
  result.iterations = iterations;
  result.factorizations = factorizations;
  return result;
}

}  // namespace dynamics
