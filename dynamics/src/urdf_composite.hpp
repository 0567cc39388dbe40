#pragma once
// The mass and inertia of each URDF body: the sum of the <inertial>s of every
// link fused into it (rigidly welded links form one rigid body), about their
// common centre of mass.

#include <map>
#include <string>
#include <vector>

#include "urdf_frames.hpp"

namespace dynamics::urdf_detail {

struct CompositeInertial {
  double mass = 0.0;
  Matrix3 inertia = Matrix3::Zero();  // about the centre of mass, in the body axes
  std::vector<std::string> links;     // the links with mass it sums, its anchor first
};

// Checks each link's <inertial> (positive mass; finite, positive semidefinite
// inertia obeying the triangle inequality: a point mass passes; with
// `balance_inertia` one that does not obey it gets the mean of its moments,
// listed in `ignored`), sums those of each body, and moves each body frame
// from its anchor's inertial frame to the centre of mass of the sum (the axes
// stay), updating every `link_in_body` on it. Returns the sums by anchor link
// (not "world").
std::map<std::string, CompositeInertial> fuse_bodies(const urdf::ModelInterface& parsed,
                                                     const std::vector<std::string>& links,
                                                     std::map<std::string, LinkPlacement>& placed,
                                                     bool balance_inertia, const UrdfError& fail,
                                                     std::vector<std::string>& ignored);

// Raises the body's mass to at least `mass` and each principal moment to at
// least `moment` (the axes stay). Returns a description of what was raised,
// empty if nothing was.
std::string raise_to_bounds(CompositeInertial& body, double mass, double moment);

}  // namespace dynamics::urdf_detail
