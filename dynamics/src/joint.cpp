#include "dynamics/joint.hpp"

#include <stdexcept>
#include <utility>

namespace dynamics {

JointFreedom freedom_of(JointType type) {
  switch (type) {
    case JointType::Fixed: return {0, 0};
    case JointType::Revolute: return {0, 1};
    case JointType::Prismatic: return {1, 0};
    case JointType::Cylindrical: return {1, 1};
    case JointType::Spherical: return {0, 3};
    case JointType::Planar: return {2, 0};
    case JointType::PlanarAxis: return {2, 1};
    case JointType::FixedOrientation: return {3, 0};
    case JointType::Floating: return {3, 3};
  }
  throw std::invalid_argument("dynamics::freedom_of: unknown joint type");
}

const char* to_string(JointType type) {
  switch (type) {
    case JointType::Fixed: return "fixed";
    case JointType::Revolute: return "revolute";
    case JointType::Prismatic: return "prismatic";
    case JointType::Cylindrical: return "cylindrical";
    case JointType::Spherical: return "spherical";
    case JointType::Planar: return "planar";
    case JointType::PlanarAxis: return "planar-axis";
    case JointType::FixedOrientation: return "fixed-orientation";
    case JointType::Floating: return "floating";
  }
  return "unknown";
}

std::string joint_type_name(JointFreedom f) {
  for (JointType type : {JointType::Fixed, JointType::Revolute, JointType::Prismatic, JointType::Cylindrical,
                         JointType::Spherical, JointType::Planar, JointType::PlanarAxis, JointType::FixedOrientation,
                         JointType::Floating}) {
    const JointFreedom g = freedom_of(type);
    if (g.translational == f.translational && g.rotational == f.rotational) return to_string(type);
  }
  return "t" + std::to_string(f.translational) + "r" + std::to_string(f.rotational);
}

Joint Joint::make(JointType type, std::string name, int parent, int child, const Vector3& axis) {
  Joint j;
  j.name = std::move(name);
  j.parent = parent;
  j.child = child;
  j.axis = axis;
  j.freedom = freedom_of(type);
  return j;
}

}  // namespace dynamics
