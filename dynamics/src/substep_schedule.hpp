#pragma once
// Which sub-step count a step starts with, and what a step's outcome teaches
// the next one (StepOptions::max_substeps and substep_hold, State::SubstepMemory).

#include "dynamics/simulator.hpp"
#include "dynamics/state.hpp"

namespace dynamics::detail {

// The count a step starts with; `probe` says it is a try below the count the
// state holds (which the retry climbs back to if the try fails).
struct SubstepStart {
  int held_count = 1;  // the state's count, clamped to [1, max_substeps]
  int first = 1;
  bool probe = false;
};

SubstepStart substep_start(const State::SubstepMemory& memory, const StepOptions& options);

// The largest count of the retry sequence (1, next_substeps(1), ...) below `count`.
int fewer_substeps(int count, int max_substeps);

// A try below the held count declined before it is taken: recorded as a
// failed try (the wait doubles); returns the start at the held count.
SubstepStart decline_try(State::SubstepMemory& memory, const SubstepStart& start, const StepOptions& options);

// The smallest count of the retry sequence whose sub-steps of dt are within
// `limit` (max_substeps if none is).
int substeps_within(double dt, double limit, int max_substeps);

// A held count the loads have outgrown, raised to `count` before the step:
// the count held from now on; returns the start at it.
SubstepStart raise_count(State::SubstepMemory& memory, int count, const StepOptions& options);

// Records a successful step that took `taken` sub-steps after starting as `start`.
void remember_substeps(State::SubstepMemory& memory, const SubstepStart& start, int taken, const StepOptions& options);

}  // namespace dynamics::detail
