#include "light_links.hpp"

#include "format_number.hpp"

namespace dynamics::cli {

std::vector<std::string> light_link_warnings(const Model& model, const std::vector<LightLink>& links) {
  std::vector<std::string> lines;
  for (const LightLink& link : links) {
    const Body &body = model.body(link.body), &neighbour = model.body(link.neighbour);
    lines.push_back("body '" + body.name + "' (" + detail::format_number(body.mass) + " kg) is " +
                    detail::format_number(link.ratio) + " times as heavy as body '" + neighbour.name + "' (" +
                    detail::format_number(neighbour.mass) + " kg), jointed to it by '" +
                    model.joint(link.joint).name +
                    "', and carries a load between its joints: below about 1e-11 the steps cannot resolve it "
                    "and fail; give it more mass and inertia (URDF: --bound-mass, --bound-inertia)");
  }
  return lines;
}

}  // namespace dynamics::cli
