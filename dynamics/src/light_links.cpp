#include "dynamics/light_links.hpp"

#include <cmath>
#include <stdexcept>
#include <utility>

#include "format_number.hpp"

namespace dynamics {

std::vector<LightLink> light_links(const Model& model, double below) {
  if (!(below > 0.0) || !std::isfinite(below))
    throw std::invalid_argument("dynamics::light_links: `below` must be positive and finite, got " +
                                detail::format_number(below));
  const int nb = model.num_bodies();
  // Per body: its joints with rows, the heaviest body jointed to it and the joint that does it.
  std::vector<int> joints(nb, 0), heaviest(nb, -1), through(nb, -1);
  for (int j = 0; j < model.num_joints(); ++j) {
    const Joint& joint = model.joint(j);
    if (joint.num_constraints() == 0) continue;
    ++joints[joint.child];
    if (joint.parent == kWorld) continue;
    ++joints[joint.parent];
    for (const auto& [light, heavy] : {std::pair{joint.parent, joint.child}, std::pair{joint.child, joint.parent}}) {
      if (heaviest[light] < 0 || model.body(heavy).mass > model.body(heaviest[light]).mass) {
        heaviest[light] = heavy;
        through[light] = j;
      }
    }
  }
  std::vector<LightLink> links;
  for (int b = 0; b < nb; ++b) {
    if (joints[b] < 2 || heaviest[b] < 0) continue;
    const double ratio = model.body(b).mass / model.body(heaviest[b]).mass;
    if (ratio < below) links.push_back({b, heaviest[b], through[b], ratio});
  }
  return links;
}

}  // namespace dynamics
