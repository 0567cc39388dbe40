#pragma once
// Rigid transforms and error reporting shared by the URDF loader's parts, and
// where each link lives: its own body, or the body or world it is welded to by
// fixed joints (a massless frame such as a tool flange, a sensor mount or a
// footprint; with fusing, also a link with mass such as a hand or a foot).

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <urdf_model/model.h>

#include "dynamics/quaternion.hpp"

namespace dynamics::urdf_detail {

struct Transform {
  Vector3 position = Vector3::Zero();
  Quaternion rotation = Quaternion::Identity();
  Transform inverse() const { return {-(rotation.conjugate() * position), rotation.conjugate()}; }
  Transform operator*(const Transform& o) const { return {position + rotation * o.position, rotation * o.rotation}; }
};

class UrdfError {
 public:
  explicit UrdfError(std::string source) : source_(std::move(source)) {}
  [[noreturn]] void operator()(const std::string& what) const { throw std::invalid_argument(source_ + ": " + what); }

 private:
  std::string source_;
};

inline Transform from_urdf(const urdf::Pose& p) {
  return {Vector3(p.position.x, p.position.y, p.position.z),
          Quaternion(p.rotation.w, p.rotation.x, p.rotation.y, p.rotation.z).normalized()};
}

// No <inertial>, or one with zero mass and zero inertia: a frame, not a body.
bool is_massless(const urdf::Link& link);

// Zero mass with a nonzero inertia: PyBullet's mark of a static base. It welds
// a root link to the world; on any other link it is an error.
bool marks_static_base(const urdf::Link& link);

// The link tree as written (the joints of the document, not urdfdom's
// single-tree copy): child link -> parent link, child link -> its joint.
struct LinkTree {
  std::vector<std::string> links;  // document order
  std::map<std::string, std::string> parent_of, joint_to;
};

// A link's frame in the body that carries it. `anchor` is the link with mass
// whose body that is, or "world".
struct LinkPlacement {
  std::string anchor;
  Transform link_in_body;
};

struct PlacementRules {
  bool fuse_welded = true;  // links with mass welded to their parent join its body
  bool fixed_base = false;  // every root link is welded to the world at its origin
  bool massless_bodies = false;  // a massless link a moving joint carries may be a body (mass bounds)
};

// A link's body is anchored by a link with mass (or `world`), the anchor's
// inertial frame being the body frame until fuse_bodies() moves it to the
// centre of mass of everything fused. A link welded to its parent by a fixed
// joint joins its parent's body: always when it is massless, and with
// `fuse_welded` also when it has mass. A root link welded to the world (with
// `fixed_base`, or marked static) is placed like a child of a fixed joint at
// the world origin. Any other link with mass anchors itself. A massless link
// that cannot join its parent (a floating root, or the child of a moving
// joint) takes the body of the first link with mass welded below it by fixed
// joints. With none, a root is welded to the world (it cannot float without
// mass), which `warnings` says, as it does for a static mark; a child of a
// moving joint becomes a body of its own with `massless_bodies` (its link
// frame the body frame), else it would be a body without inertia: an error
// naming it and its joint.
std::map<std::string, LinkPlacement> place_links(const urdf::ModelInterface& parsed, const LinkTree& tree,
                                                 const PlacementRules& rules, const UrdfError& fail,
                                                 std::vector<std::string>& warnings);

}  // namespace dynamics::urdf_detail
