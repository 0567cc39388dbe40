// Fuzz target: URDF text (with this project's <loop_joint> extension). Every
// input must either load, build a simulator, place its state and take two
// steps, or throw a std::exception with a message; a crash, a sanitizer
// report, a hang or a foreign exception is a bug. A step that fails reports a
// status, which is fine here; a state that is not finite after make_state or
// after a successful step is a silently wrong answer and aborts.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <string>

#include "dynamics/dynamics.hpp"

namespace {

bool all_finite(const dynamics::State& state) {
  for (std::size_t b = 0; b < state.position.size(); ++b)
    if (!state.position[b].allFinite() || !state.orientation[b].coeffs().allFinite() ||
        !state.velocity[b].allFinite() || !state.angular_velocity[b].allFinite())
      return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string xml(reinterpret_cast<const char*>(data), size);
  try {
    dynamics::UrdfOptions options;
    options.fixed_base = size % 2 == 1;  // both ways of reading a root link
    const dynamics::Model model = dynamics::parse_urdf(xml, "fuzz input", options);
    if (model.num_bodies() > 64) return 0;  // keeps each input fast
    dynamics::StepOptions step_options;
    step_options.max_iterations = 20;
    dynamics::Simulator simulator(model, step_options);
    dynamics::State state = dynamics::make_state(model);
    if (!all_finite(state)) std::abort();
    for (int k = 0; k < 2; ++k)
      if (simulator.step(state).status == dynamics::StepStatus::Success && !all_finite(state)) std::abort();
    (void)dynamics::total_energy(model, state);
    (void)dynamics::constraint_violation(model, state);
  } catch (const std::exception&) {
    // A refused input: an error naming the element, or a failed placement.
  }
  return 0;
}
