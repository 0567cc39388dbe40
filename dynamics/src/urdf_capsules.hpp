#pragma once
// <capsule radius="..." length="..."/> geometry (an extension of Gazebo and
// PyBullet files; urdfdom rejects it): shown to urdfdom as a cylinder of the
// same size, and remembered so that the loader turns it back into a capsule.

#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <tinyxml.h>
#include <urdf_model/model.h>

#include "urdf_frames.hpp"

namespace dynamics::urdf_detail {

class Capsules {
 public:
  // Renames each <capsule> in a link's <visual> or <collision> <geometry> to
  // <cylinder>, once its radius and length are checked. True if any was found.
  bool hide_from_urdfdom(TiXmlElement* robot, const UrdfError& fail);
  // After urdfdom has parsed the renamed document: which geometries they are.
  void find(const urdf::ModelInterface& parsed);
  bool contains(const urdf::Geometry& geometry) const { return found_.count(&geometry) > 0; }

 private:
  std::vector<std::tuple<std::string, bool, int>> hidden_;  // link, in a <collision>, its index there
  std::set<const urdf::Geometry*> found_;
};

}  // namespace dynamics::urdf_detail
