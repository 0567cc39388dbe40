#pragma once
// The body masses the Newton solvers can weigh (internal). Their merits square
// each body's momentum residual before dividing by the squared mass scale, and
// the projections weigh bodies by their masses over that scale: beyond these
// masses the squares overflow or underflow (a first step read as diverged, a
// projection as a singular pivot), so the model is refused up front instead.

#include <stdexcept>
#include <string>

#include "dynamics/model.hpp"
#include "format_number.hpp"

namespace dynamics::detail {

inline constexpr double kLightestMass = 1e-150, kHeaviestMass = 1e150;  // kg

// Throws std::invalid_argument naming the first body outside the range; `who`
// is the caller ("dynamics::Simulator").
inline void check_mass_range(const Model& model, const std::string& who) {
  for (int b = 0; b < model.num_bodies(); ++b) {
    const double mass = model.body(b).mass;
    if (!(mass >= kLightestMass && mass <= kHeaviestMass))
      throw std::invalid_argument(who + ": body '" + model.body(b).name + "': mass " + format_number(mass) +
                                  " kg is outside [" + format_number(kLightestMass) + ", " +
                                  format_number(kHeaviestMass) +
                                  "] kg, where the Newton solvers' squared residuals overflow or underflow; express the "
                                  "model in other units");
  }
}

}  // namespace dynamics::detail
