#pragma once
// The simulate command's warning about bodies far lighter than a body jointed
// to them. Uniform scaling is absorbed by the mass scale, but a ratio of
// about 1e-12 between two jointed bodies leaves the Newton matrix unable to
// resolve the light one (docs/dynamics.md, "Light links between heavy ones"):
// URDF placeholder links given a token mass run into it.

#include <string>
#include <vector>

#include "dynamics/dynamics.hpp"

namespace dynamics::cli {

// Below this ratio of masses across a joint the run is warned: 1e-11 still
// ran in the measurement, 1e-12 failed.
inline constexpr double kLightLinkRatio = 1e-10;

// One line per body lighter than kLightLinkRatio times the heaviest body
// jointed to it (by a joint or a loop joint), naming both and the joint.
std::vector<std::string> light_link_warnings(const Model& model);

}  // namespace dynamics::cli
