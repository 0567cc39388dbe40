#include "urdf_frames.hpp"

#include <deque>

namespace dynamics::urdf_detail {

bool is_massless(const urdf::Link& link) {
  if (!link.inertial) return true;
  const urdf::Inertial& in = *link.inertial;
  return in.mass == 0.0 && in.ixx == 0.0 && in.iyy == 0.0 && in.izz == 0.0 && in.ixy == 0.0 && in.ixz == 0.0 &&
         in.iyz == 0.0;
}

namespace {

class Placer {
 public:
  Placer(const urdf::ModelInterface& parsed, const LinkTree& tree, bool fuse_welded, const UrdfError& fail)
      : parsed_(parsed), tree_(tree), fuse_welded_(fuse_welded), fail_(fail) {
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
    const bool joins_parent = parent != tree_.parent_of.end() && welded(name);
    if (!is_massless(link) && !(fuse_welded_ && joins_parent))
      return {name, from_urdf(link.inertial->origin).inverse()};
    if (joins_parent) {
      const LinkPlacement& up = place(parent->second);
      return {up.anchor, up.link_in_body * origin(name)};
    }
    // A root or the child of a moving joint: it takes the body of the first
    // link with mass welded below it (breadth first, so the nearest).
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
    if (parent == tree_.parent_of.end())
      fail_("link '" + name +
            "' has no mass (no <inertial>, or zero mass and inertia) and is not welded by fixed joints to a link "
            "with mass, so it would float as a body without inertia; give it an <inertial> or attach it to 'world' "
            "or to a link with mass by a fixed joint");
    fail_("link '" + name + "' has no mass (no <inertial>, or zero mass and inertia), but joint '" +
          tree_.joint_to.at(name) +
          "' lets it move and no link with mass is welded to it; give it an <inertial> (a small mass and inertia) "
          "or make the joint fixed");
  }

  const urdf::ModelInterface& parsed_;
  const LinkTree& tree_;
  const bool fuse_welded_;
  const UrdfError& fail_;
  std::map<std::string, std::vector<std::string>> children_;
  std::map<std::string, LinkPlacement> placed_;
};

}  // namespace

std::map<std::string, LinkPlacement> place_links(const urdf::ModelInterface& parsed, const LinkTree& tree,
                                                 bool fuse_welded, const UrdfError& fail) {
  Placer placer(parsed, tree, fuse_welded, fail);
  std::map<std::string, LinkPlacement> placed;
  for (const std::string& name : tree.links) placed[name] = placer.place(name);
  return placed;
}

}  // namespace dynamics::urdf_detail
