#pragma once
// The step options most simulator tests vary: the step size and tolerance.

#include "dynamics/simulator.hpp"

namespace dynamics::test {

inline StepOptions with_dt(double dt, double tolerance = 1e-10) {
  StepOptions o;
  o.dt = dt;
  o.tolerance = tolerance;
  return o;
}

}  // namespace dynamics::test
