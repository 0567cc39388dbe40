#pragma once
// URDF input (through Debian's liburdfdom), extended with loop-closing joints:
//   <loop_joint name="j" type="continuous|revolute|prismatic|fixed|spherical">
//     <axis xyz="..."/>
//     <link1 link="A" xyz="..." rpy="..."/>   joint frame in link A's frame
//     <link2 link="B" xyz="..." rpy="..."/>   joint frame in link B's frame
//   </loop_joint>
// Links with mass become bodies whose frame is the link's inertial frame
// (centre of mass, principal-axes rotation of <inertial><origin>); a link
// named "world" is the fixed world frame. Links welded by fixed joints are one
// rigid body (UrdfOptions::fuse_welded_links): a link with mass welded to its
// parent joins the parent's body, whose mass and inertia become the sums and
// whose frame moves to the common centre of mass (axes kept), so a point mass
// (zero <inertia>) may be welded to a link with inertia; what is welded to the
// world joins the world. A massless link (no <inertial>, or zero mass and
// inertia) is a frame on the body or world it is welded to by fixed joints:
// its parent's when its own joint is fixed, else (a root, or the child of a
// moving joint) the nearest link with mass welded below it; a moving one with
// nothing of mass welded to it is an error. Every root link not attached to
// the world gets a floating joint named after it, whose coordinates are the
// link frame's position and rotation vector (several trees per file are fine),
// unless UrdfOptions::fixed_base welds it to the world at the origin. A root
// that cannot float (massless with nothing of mass welded to it) or is marked
// static (zero mass, nonzero inertia: PyBullet's convention) is welded there
// with a warning in `ignored`. Joint types:
// fixed, revolute and continuous (revolute), prismatic, floating, planar
// (planar-axis, normal = axis).
// Box, sphere and cylinder visual and collision shapes are kept, and capsules
// (<capsule radius length>, Gazebo's and PyBullet's extension); meshes and
// zero-size shapes are skipped. Revolute and prismatic <limit lower upper>
// become joint limits, at any number of turns apart (a UR arm's +-2 pi: the
// angle counts whole turns); lower above upper is an error; equal bounds, as
// in a <limit> without them, are left out and listed in `ignored`, and so is
// a range on a continuous, planar or floating joint;
// <dynamics damping> becomes the joint's damper and `friction` its Coulomb
// friction (Joint::friction); <mimic joint multiplier offset>
// becomes a JointCoupling named after the mimicking joint (the follower).
// Collision spheres, boxes, cylinders and capsules get ground contacts (a
// sphere: its centre with its radius; a box: its corners; a cylinder: its rim
// points and, with contacts.rolling_rims, its two rims, so that wheels roll; a
// capsule: its end spheres), with the friction coefficient of a
// <contact_coefficients mu="..."/> in the <collision> or the <link>, else the
// options' default. Anything urdfdom cannot read is an error in its words.
// Errors throw std::invalid_argument naming the file and element.

#include <string>
#include <vector>

#include "dynamics/model.hpp"

namespace dynamics {

struct UrdfOptions {
  bool collision_contacts = true;  // contacts from <collision> spheres, boxes, cylinders and capsules
  ContactOptions contacts;         // ground, friction model and default coefficient
  bool joint_limits = true;        // <limit lower upper> as joint limits
  bool joint_damping = true;       // <dynamics damping> as joint dampers
  bool joint_friction = true;      // <dynamics friction> as joint Coulomb friction (Joint::friction)
  // Links with mass welded to their parent by fixed joints join the parent's
  // body (one rigid body with the summed mass and inertia) instead of becoming
  // bodies held by fixed joints; those welded to the world join the world.
  bool fuse_welded_links = true;
  // Every root link is welded to the world with its frame at the world origin
  // (how Pinocchio and MuJoCo read a URDF) instead of floating.
  bool fixed_base = false;
  // Lower bounds on every body's mass (kg) and principal moments (kg m^2), as
  // MuJoCo's compiler boundmass and boundinertia: a quick fix for files with
  // massless links on moving joints (the massless links between the hinges
  // of a hip, say) or point masses. 0 (the default) leaves the file's values.
  // With both above zero, a massless link that a moving joint carries and no
  // link with mass is welded to becomes a body of the bounds (else an error).
  // Each raised body is listed in `ignored`.
  double bound_mass = 0.0;
  double bound_inertia = 0.0;
  // A link whose principal moments violate the triangle inequality (the two
  // smaller add up to less than the largest: no rigid body has them, a
  // common slip of hand-written and generated files) is an error; with this,
  // its three moments are replaced by their mean, as MuJoCo's compiler
  // balanceinertia does, and the link is listed in `ignored`.
  bool balance_inertia = false;
};

// `ignored`, if given, receives one line per element that the model leaves
// out although it would change the motion: collision meshes and zero-size
// shapes (no contacts), balanced inertias, limits with equal bounds and
// ranges on joints that take none, and
// roots welded to the world without UrdfOptions::fixed_base. The CLI prints
// them as warnings.
Model load_urdf(const std::string& path, const UrdfOptions& options = {}, std::vector<std::string>* ignored = nullptr);
Model parse_urdf(const std::string& xml, const std::string& source_name = "<string>", const UrdfOptions& options = {},
                 std::vector<std::string>* ignored = nullptr);

}  // namespace dynamics
