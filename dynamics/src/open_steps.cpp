// Steps whose contacts and joint limits are all open, or whose contacts are
// open (StepOptions::skip_open_inequalities): solved first as steps of the
// equality constraints alone, or with the joint limits that close held as
// equalities, by Newton's method with its warm start, and kept when every
// inequality left out is still open at their end and every held limit
// pushes.

#include <algorithm>

#include "on_exit.hpp"
#include "position_roundoff.hpp"
#include "simulator_impl.hpp"

namespace dynamics {

bool Simulator::Impl::solve_without_inequalities(State& state, StepResult& result) {
  result = StepResult{};
  if (!options.skip_open_inequalities || ineq.empty()) return false;
  velocities_into_trial(state);
  static const Eigen::VectorXd unknown;
  if (!ineq.all_open(trial, holds_impulses(state) ? state.multipliers : unknown, state.multipliers_dt, push_noise()))
    return false;
  skip_inequalities = true;
  if (equality)
    use_equality_system(true);
  else
    ineq.set_nodes_active(matrix, false);
  const detail::OnExit restore([this] {
    skip_inequalities = false;
    if (equality_in_use)
      use_equality_system(false);
    else
      ineq.set_nodes_active(matrix, true);
  });
  result = newton(state);
  result.inequalities_skipped = result.ok();
  return result.ok();
}

// A joint resting on its stop (a finger closed, an arm hanging on a limit)
// pushes on every step: solved with that limit as an equality constraint,
// its equations are the joints' plus one row, where the interior point takes
// several iterations of two solves. So is a joint that reaches its stop
// within the step (an inelastic stop: held at the stop, with an impulse that
// pushes). Which limits close is the active set, guessed from the last
// step's pushes and the open attempt's end, and corrected after each try.
// The step runs on the whole graph (the limit nodes are in it), its contact
// nodes inactive.
bool Simulator::Impl::solve_with_held_limits(State& state, bool open_tried, StepResult& result) {
  result = StepResult{};
  if (!options.skip_open_inequalities || !ineq.has_limits()) return false;
  velocities_into_trial(state);
  static const Eigen::VectorXd unknown;
  const double inside = std::max(options.tolerance, detail::position_roundoff(state));  // newton()'s constraint_tol
  if (!ineq.hold_limits(trial, holds_impulses(state) ? state.multipliers : unknown, state.multipliers_dt,
                        push_noise(), inside, open_tried))
    return false;
  skip_inequalities = true;
  ineq.set_contact_nodes_active(matrix, false);
  const detail::OnExit restore([this] {
    skip_inequalities = false;
    ineq.release_limits();
    ineq.set_contact_nodes_active(matrix, true);
    // The limits' rows of the residuals held their equations; elsewhere they are zero.
    ineq.zero_impulses(residual);
    ineq.zero_impulses(trial_residual);
  });
  // A held limit that pulls at the solution wants to leave its stop, one
  // left out that closed wants to be held: solved again so, as long as that
  // is all that failed, a few times. Each try after a converged attempt (the
  // open one too) starts from its velocities: the active set changed, the
  // motion only a little.
  const detail::OnExit unstart([this] { start_velocities = nullptr; });
  for (int tries = 1;; ++tries) {
    if (open_check_failed) {
      held_start = s;
      start_velocities = &held_start;
    }
    const StepResult attempt = newton(state);
    const int iterations = result.iterations + attempt.iterations;
    const int factorizations = result.factorizations + attempt.factorizations;
    result = attempt;
    result.iterations = iterations;
    result.factorizations = factorizations;
    if (attempt.ok() || !open_check_failed || tries == kHeldLimitTries || ineq.adjust_held(s, push_noise()) == 0)
      break;
  }
  result.limits_held = result.ok();
  return result.ok();
}

void Simulator::Impl::velocities_into_trial(const State& state) {
  for (int b = 0; b < nb; ++b) {
    trial.segment<3>(6 * b) = state.velocity[b];
    trial.segment<3>(6 * b + 3) = state.angular_velocity[b];
  }
}

// Swaps the graph without inequalities in for the step's graph, or back: the
// unknowns keep the whole graph's layout, only the solves change (see
// EqualitySystem).
void Simulator::Impl::use_equality_system(bool on) {
  if (on == equality_in_use) return;
  std::swap(matrix, equality->matrix);
  std::swap(lu, equality->lu);
  std::swap(blocks, equality->blocks);
  equality_in_use = on;
}

}  // namespace dynamics
