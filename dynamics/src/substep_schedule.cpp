#include "substep_schedule.hpp"

#include <algorithm>

namespace dynamics {

int next_substeps(int substeps, int max_substeps) {
  if (substeps >= max_substeps) return 0;
  return substeps > max_substeps / 2 ? max_substeps : 2 * substeps;
}

namespace detail {

namespace {
// A failed try below the held count doubles the wait before the next try, up
// to this many steps: a mechanism that needs its sub-steps for good (a body
// turning past a quarter turn per step) pays for a failed try (up to max_iterations iterations)
// eight times in its first thousand steps at the default hold of 4, then
// once per thousand.
constexpr int kLongestHold = 1024;

void wait_longer(State::SubstepMemory& memory, const StepOptions& options) {
  memory.held = 0;
  const long long doubled = 2LL * std::max(memory.probe_after, options.substep_hold);
  memory.probe_after = static_cast<int>(std::min<long long>(doubled, std::max(kLongestHold, options.substep_hold)));
}
}  // namespace

int fewer_substeps(int count, int max_substeps) {
  int lower = 1;
  for (int k = next_substeps(1, max_substeps); k > 0 && k < count; k = next_substeps(k, max_substeps)) lower = k;
  return lower;
}

SubstepStart substep_start(const State::SubstepMemory& memory, const StepOptions& options) {
  SubstepStart start;
  if (options.substep_hold == 0 || options.max_substeps < 2) return start;
  start.held_count = std::clamp(memory.count, 1, options.max_substeps);
  start.first = start.held_count;
  if (start.held_count > 1 && memory.held >= memory.probe_after) {
    start.first = fewer_substeps(start.held_count, options.max_substeps);
    start.probe = true;
  }
  return start;
}

int substeps_within(double dt, double limit, int max_substeps) {
  int count = 1;
  while (dt / count > limit && count < max_substeps) count = next_substeps(count, max_substeps);
  return count;
}

SubstepStart raise_count(State::SubstepMemory& memory, int count, const StepOptions& options) {
  memory = {count, 0, options.substep_hold};
  return {count, count, false};
}

SubstepStart decline_try(State::SubstepMemory& memory, const SubstepStart& start, const StepOptions& options) {
  wait_longer(memory, options);
  return {start.held_count, start.held_count, false};
}

void remember_substeps(State::SubstepMemory& memory, const SubstepStart& start, int taken, const StepOptions& options) {
  if (options.substep_hold == 0) {
    memory = State::SubstepMemory{};
    return;
  }
  if (taken != start.held_count) {  // a new count: a try below that held, or a failure above it
    memory.count = taken;
    memory.held = 0;
    memory.probe_after = options.substep_hold;
    return;
  }
  memory.count = taken;  // clamped to max_substeps
  if (start.probe) {  // the try below failed; the held count carried the step
    wait_longer(memory, options);
    return;
  }
  if (taken > 1) ++memory.held;
}

}  // namespace detail
}  // namespace dynamics
