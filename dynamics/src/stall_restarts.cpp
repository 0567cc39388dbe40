// How a prepared step is solved: without its inequalities while they are all
// open (open_steps.cpp), otherwise with them; and what a step whose
// interior-point iteration stalls (NotConverged) tries before it fails: the
// centred restart (StepOptions::centred_restart), then with friction the
// friction restarts (StepOptions::friction_restarts).

#include "on_exit.hpp"
#include "simulator_impl.hpp"

namespace dynamics {

using detail::OnExit;

namespace {

// The centred restart's bound on the pairs' spread: no product of a pair
// below this fraction of their mean. On random quadruped drops 1e-2 and 1e-1
// carried the same stalls, 1e-3 fewer and 1e-4 fewer still
// (docs/contacts.md).
constexpr double kCentrality = 1e-2;

// The friction restarts' starts, in order: the velocities of the same step
// solved with every friction coefficient scaled to zero, then to half, then
// rest (zero velocities, so that every contact starts sticking). On random
// quadruped drops (docs/contacts.md) each carried steps the others did not.
constexpr double kRest = -1.0;
constexpr double kRestarts[] = {0.0, 0.5, kRest};

}  // namespace

StepResult Simulator::Impl::solve(State& state) {
  StepResult open, held;
  open_check_failed = false;
  if (solve_without_inequalities(state, open)) return open;
  // An open attempt that converged fast but closed a limit (a joint reaching
  // its stop within the step) tells which limits to hold; one that took
  // long had a poor start (a chain ringing after its stops), and the held
  // tries would too: the interior point takes fewer iterations there.
  const bool closed_fast = open.iterations > 0 && open.iterations <= kHeldAfterOpenIterations && open_check_failed;
  if (solve_with_held_limits(state, closed_fast, held)) return held;
  // An inequality closed within the step, a held limit let go (or a solve
  // failed): solved with them, the attempts' work counted.
  StepResult result = newton(state);
  result.iterations += open.iterations + held.iterations;
  result.factorizations += open.factorizations + held.factorizations;
  if (result.status != StepStatus::NotConverged || ineq.empty()) return result;
  // A failed step leaves the state as it was: every solve starts from it.
  int iterations = result.iterations, factorizations = result.factorizations;
  const auto count = [&](const StepResult& r) {
    iterations += r.iterations;
    factorizations += r.factorizations;
  };
  // Counts a restart's solve; a success then reports every solve's work.
  const auto carried = [&](StepResult& r) {
    count(r);
    if (!r.ok()) return false;
    r.iterations = iterations;
    r.factorizations = factorizations;
    return true;
  };
  if (options.centred_restart) {
    StepResult centred;
    {
      centrality = kCentrality;
      const OnExit reset([this] { centrality = 0.0; });
      centred = newton(state);
    }
    if (carried(centred)) {
      centred.centred_restart = true;
      return centred;
    }
  }
  if (options.friction_restarts && ineq.has_friction()) {
    for (double scale : kRestarts) {
      if (scale == kRest) {
        restart_start.setZero(dim);
      } else {
        restart_state = state;
        StepResult low;
        {
          ineq.set_friction_scale(scale);
          const OnExit reset([this] { ineq.set_friction_scale(1.0); });
          low = newton(restart_state);
        }
        count(low);
        if (!low.ok()) continue;
        restart_start = restart_state.multipliers;  // its velocities lead
      }
      StepResult full;
      {
        start_velocities = &restart_start;
        const OnExit reset([this] { start_velocities = nullptr; });
        full = newton(state);
      }
      if (carried(full)) {
        full.friction_restart = true;
        return full;
      }
    }
  }
  // None carried it: the first attempt's measures tell why.
  result.iterations = iterations;
  result.factorizations = factorizations;
  return result;
}

}  // namespace dynamics
