#pragma once
// URDF fragments the URDF tests build their robots from.

#include <string>

namespace dynamics::test {

// A rod link of length 1, mass 1, link frame at its top (where its joint is),
// with the inertia make_link gives it.
inline std::string rod(const std::string& name) {
  return "<link name='" + name + "'><inertial><origin xyz='0 0 -0.5'/><mass value='1'/>"
         "<inertia ixx='0.0833333333333333333' iyy='0.0833333333333333333' izz='0.00125' ixy='0' ixz='0' iyz='0'/>"
         "</inertial><visual><origin xyz='0 0 -0.5'/><geometry><cylinder radius='0.05' length='1'/></geometry>"
         "</visual></link>";
}

// A continuous joint about y, its frame at `xyz` in the parent link's frame.
inline std::string hinge(const std::string& name, const std::string& parent, const std::string& child,
                         const std::string& xyz) {
  return "<joint name='" + name + "' type='continuous'><parent link='" + parent + "'/><child link='" + child +
         "'/><origin xyz='" + xyz + "'/><axis xyz='0 1 0'/></joint>";
}

}  // namespace dynamics::test
