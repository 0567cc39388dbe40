#include "urdf_frames.hpp"

#include <deque>

namespace dynamics::urdf_detail {

bool is_massless(const urdf::Link& link) {
  if (!link.inertial) return true;
  const urdf::Inertial& in = *link.inertial;
  return in.mass == 0.0 && in.ixx == 0.0 && in.iyy == 0.0 && in.izz == 0.0 && in.ixy == 0.0 && in.ixz == 0.0 &&
         in.iyz == 0.0;
}

bool marks_static_base(const urdf::Link& link) { return link.inertial && link.inertial->mass == 0.0 && !is_massless(link); }

namespace {

class Placer {
 public:
  Placer(const urdf::ModelInterface& parsed, const LinkTree& tree, const PlacementRules& rules, const UrdfError& fail,
         std::vector<std::string>& warnings)
      : parsed_(parsed), tree_(tree), rules_(rules), fail_(fail), warnings_(warnings) {
    for (const std::string& link : tree.links)  // document order: the first welded link with mass wins
      if (auto parent = tree.parent_of.find(link); parent != tree.parent_of.end())
        children_[parent->second].push_back(link);
  }

  const LinkPlacement& place(const std::string& name) {
    if (auto found = placed_.find(name); found != placed_.end()) return found->second;
    return placed_[name] = compute(name);
  }

 private:
  const urdf::Joint& joint_of(const std::string& child) const { return *parsed_.getJoint(tree_.joint_to.at(child)); }
  bool welded(const std::string& child) const { return joint_of(child).type == urdf::Joint::FIXED; }
  Transform origin(const std::string& child) const {
    return from_urdf(joint_of(child).parent_to_joint_origin_transform);
  }

  LinkPlacement compute(const std::string& name) {
    if (name == "world") return {name, Transform{}};
    const urdf::Link& link = *parsed_.getLink(name);
    const auto parent = tree_.parent_of.find(name);
    const bool root = parent == tree_.parent_of.end();
    if (root && marks_static_base(link))
      warnings_.push_back("link '" + name +
                          "': mass 0 with an inertia marks a static base (PyBullet's reading): the root is welded to "
                          "the world at its origin; give it mass to let it float");
    const bool welded_to_world = root && (rules_.fixed_base || marks_static_base(link));
    const bool joins_parent = welded_to_world || (!root && welded(name));
    if (welded_to_world && (rules_.fuse_welded || is_massless(link) || marks_static_base(link)))
      return {"world", Transform{}};
    if (!is_massless(link) && !(rules_.fuse_welded && joins_parent))
      return {name, from_urdf(link.inertial->origin).inverse()};
    if (joins_parent) {
      const LinkPlacement& up = place(parent->second);
      return {up.anchor, up.link_in_body * origin(name)};
    }
    // A floating root or the child of a moving joint: it takes the body of the
    // first link with mass welded below it (breadth first, so the nearest).
    std::deque<std::pair<std::string, Transform>> queue{{name, Transform{}}};  // link, its frame in `name`'s frame
    while (!queue.empty()) {
      const auto [at, at_in_name] = queue.front();
      queue.pop_front();
      for (const std::string& child : children_[at]) {
        if (!welded(child)) continue;
        const Transform child_in_name = at_in_name * origin(child);
        const urdf::Link& c = *parsed_.getLink(child);
        if (is_massless(c)) {
          queue.emplace_back(child, child_in_name);
          continue;
        }
        const Transform child_in_body = from_urdf(c.inertial->origin).inverse();
        return {child, child_in_body * child_in_name.inverse()};
      }
    }
    if (root) {
      warnings_.push_back("link '" + name +
                          "' has no mass (no <inertial>, or zero mass and inertia) and no link with mass is welded "
                          "to it, so it cannot float: it is welded to the world at its origin");
      return {"world", Transform{}};
    }
    if (rules_.massless_bodies) return {name, Transform{}};
    fail_("link '" + name + "' has no mass (no <inertial>, or zero mass and inertia), but joint '" +
          tree_.joint_to.at(name) +
          "' lets it move and no link with mass is welded to it; give it an <inertial> (a small mass and inertia), "
          "make the joint fixed, or set lower bounds on mass and inertia (UrdfOptions::bound_mass and "
          "bound_inertia, CLI --bound-mass and --bound-inertia)");
  }

  const urdf::ModelInterface& parsed_;
  const LinkTree& tree_;
  const PlacementRules rules_;
  const UrdfError& fail_;
  std::vector<std::string>& warnings_;
  std::map<std::string, std::vector<std::string>> children_;
  std::map<std::string, LinkPlacement> placed_;
};

}  // namespace

std::map<std::string, LinkPlacement> place_links(const urdf::ModelInterface& parsed, const LinkTree& tree,
                                                 const PlacementRules& rules, const UrdfError& fail,
                                                 std::vector<std::string>& warnings) {
  Placer placer(parsed, tree, rules, fail, warnings);
  std::map<std::string, LinkPlacement> placed;
  for (const std::string& name : tree.links) placed[name] = placer.place(name);
  return placed;
}

}  // namespace dynamics::urdf_detail
