#pragma once
// The step options most simulator tests vary: the step size and tolerance.
// They take plain steps (no sub-steps), so that a test sees a step that fails
// instead of its retry.

#include "dynamics/simulator.hpp"

namespace dynamics::test {

// The defaults without sub-steps: a step that fails is reported as it is.
inline StepOptions plain_steps() {
  StepOptions o;
  o.max_substeps = 1;
  return o;
}

inline StepOptions with_dt(double dt, double tolerance = 1e-10) {
  StepOptions o = plain_steps();
  o.dt = dt;
  o.tolerance = tolerance;
  return o;
}

}  // namespace dynamics::test
