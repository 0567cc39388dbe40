// Steps whose contacts and joint limits are all open (StepOptions::
// skip_open_inequalities): solved first as steps of the equality constraints
// alone, by Newton's method with its warm start, and kept when every
// inequality is still open at their end.

#include "on_exit.hpp"
#include "simulator_impl.hpp"

namespace dynamics {

bool Simulator::Impl::solve_without_inequalities(State& state, StepResult& result) {
  result = StepResult{};
  if (!options.skip_open_inequalities || ineq.empty()) return false;
  // The bodies' velocities at z_k, in the unknowns' layout (`trial` is free
  // until the iteration starts).
  for (int b = 0; b < nb; ++b) {
    trial.segment<3>(6 * b) = state.velocity[b];
    trial.segment<3>(6 * b + 3) = state.angular_velocity[b];
  }
  static const Eigen::VectorXd unknown;
  // The same noise as held_rows: an impulse within the tolerance on momenta.
  const double noise = options.interior_tolerance * mass_scale;
  if (!ineq.all_open(trial, holds_impulses(state) ? state.multipliers : unknown, state.multipliers_dt, noise))
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
