#pragma once
// The simulate command's warning about bodies far lighter than the bodies
// they carry between them (dynamics::light_links, dynamics/light_links.hpp).

#include <string>
#include <vector>

#include "dynamics/dynamics.hpp"

namespace dynamics::cli {

// One line per light link of `links` (light_links(model)), naming both
// bodies and the joint, and the remedy.
std::vector<std::string> light_link_warnings(const Model& model, const std::vector<LightLink>& links);

}  // namespace dynamics::cli
