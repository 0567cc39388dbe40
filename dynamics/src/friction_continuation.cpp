// The friction continuation (StepOptions::friction_continuation): a step
// with friction whose interior-point iteration stalls is solved again from
// the velocities of a low-friction solution of the same step.

#include "simulator_impl.hpp"

namespace dynamics {

namespace {

// The friction scales tried, in order: frictionless first, then half. On
// random quadruped drops (docs/contacts.md) each carried steps the other did
// not; chaining them (half from the frictionless answer) carried no more
// than either alone.
constexpr double kContinuationScales[] = {0.0, 0.5};

}  // namespace

StepResult Simulator::Impl::solve(State& state) {
  StepResult result = newton(state);
  if (result.status != StepStatus::NotConverged || !options.friction_continuation || !ineq.has_friction())
    return result;
  // A failed step leaves the state as it was: every solve starts from it.
  int iterations = result.iterations, factorizations = result.factorizations;
  for (double scale : kContinuationScales) {
    continuation_state = state;
    ineq.set_friction_scale(scale);
    const StepResult low = newton(continuation_state);
    ineq.set_friction_scale(1.0);
    iterations += low.iterations;
    factorizations += low.factorizations;
    if (!low.ok()) continue;
    continuation_start = continuation_state.multipliers;  // its velocities lead
    start_velocities = &continuation_start;
    StepResult full = newton(state);
    start_velocities = nullptr;
    iterations += full.iterations;
    factorizations += full.factorizations;
    if (full.ok()) {
      full.iterations = iterations;
      full.factorizations = factorizations;
      full.friction_continuation = true;
      return full;
    }
  }
  // None carried it: the first attempt's measures tell why.
  result.iterations = iterations;
  result.factorizations = factorizations;
  return result;
}

}  // namespace dynamics
