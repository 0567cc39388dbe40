#pragma once
// Steps a contact simulation and summarizes it for the contact tests: the
// smallest signed distance, the most interior-point iterations and contacts
// between colliders of any step; stops at (and reports) the first failure,
// counting a step that converged only as sub-steps as one.

#include <gtest/gtest.h>

#include <algorithm>

#include "dynamics/simulator.hpp"

namespace dynamics::test {

struct ContactRun {
  double min_distance = 1e300;
  int max_iterations = 0;
  int most_collider_contacts = 0;
  bool ok = true;
};

inline ContactRun simulate_contacts(Simulator& sim, State& state, int steps) {
  ContactRun run;
  for (int k = 0; k < steps; ++k) {
    const StepResult r = sim.step(state);
    if (!r.ok()) {
      ADD_FAILURE() << "step " << k << ": " << to_string(r.status) << " residual " << r.residual << " inequality "
                    << r.inequality_residual << " complementarity " << r.complementarity;
      run.ok = false;
      return run;
    }
    if (r.substeps > 1) {
      ADD_FAILURE() << "step " << k << " converged only as " << r.substeps << " sub-steps";
      run.ok = false;
      return run;
    }
    run.min_distance = std::min(run.min_distance, r.min_signed_distance);
    run.max_iterations = std::max(run.max_iterations, r.iterations);
    run.most_collider_contacts = std::max(run.most_collider_contacts, r.collider_contacts);
  }
  return run;
}

}  // namespace dynamics::test
