#include "light_links.hpp"

#include <utility>

#include "format_number.hpp"

namespace dynamics::cli {

std::vector<std::string> light_link_warnings(const Model& model) {
  // Per body: the heaviest body jointed to it and the joint that does it.
  std::vector<int> heaviest(model.num_bodies(), -1), through(model.num_bodies(), -1);
  for (int j = 0; j < model.num_joints(); ++j) {
    const Joint& joint = model.joint(j);
    if (joint.parent == kWorld) continue;
    for (const auto& [light, heavy] : {std::pair{joint.parent, joint.child}, std::pair{joint.child, joint.parent}}) {
      if (heaviest[light] < 0 || model.body(heavy).mass > model.body(heaviest[light]).mass) {
        heaviest[light] = heavy;
        through[light] = j;
      }
    }
  }
  std::vector<std::string> lines;
  for (int b = 0; b < model.num_bodies(); ++b) {
    if (heaviest[b] < 0) continue;
    const double ratio = model.body(b).mass / model.body(heaviest[b]).mass;
    if (!(ratio < kLightLinkRatio)) continue;
    const Body &body = model.body(b), &neighbour = model.body(heaviest[b]);
    lines.push_back("body '" + body.name + "' (" + detail::format_number(body.mass) + " kg) is " +
                    detail::format_number(ratio) + " times as heavy as body '" + neighbour.name + "' (" +
                    detail::format_number(neighbour.mass) + " kg), jointed to it by '" +
                    model.joint(through[b]).name +
                    "': below about 1e-11 the steps cannot resolve the light body and fail; give it more mass "
                    "and inertia (URDF: --bound-mass, --bound-inertia)");
  }
  return lines;
}

}  // namespace dynamics::cli
