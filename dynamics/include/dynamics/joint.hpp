#pragma once
// A joint couples a parent (a body or the world) and a child body. It is one
// translational and one rotational constraint primitive, each leaving 0-3 axes
// free, so the 16 combinations are all one piece of code. The axis (in the
// joint frame) says which directions are free:
//
//   free axes   translational              rotational
//   0           origins coincide           frames aligned
//   1           slide along the axis       turn about the axis
//   2           slide in the plane normal  turn about any axis but the joint
//               to the axis                axis (no twist)
//   3           unconstrained              unconstrained
//
// Minimal coordinates are the translational ones first (displacement of the
// child joint frame origin in the parent joint frame, along the free axes),
// then the rotational ones (revolute: the angle, counted over whole turns as
// MuJoCo's hinge coordinates are, so that a joint turned three times reads
// about 6 pi (State::joint_angles keeps the count); 2 or 3 free: components
// of the relative rotation vector, within half a turn). Velocities are the
// rates along the same axes:
// the relative linear velocity in the parent joint frame, and the relative
// angular velocity in the child joint frame.

#include <string>
#include <vector>

#include "dynamics/quaternion.hpp"

namespace dynamics {

constexpr int kWorld = -1;  // parent index of a joint attached to the fixed world frame

struct Frame {
  Vector3 position = Vector3::Zero();
  Quaternion orientation = Quaternion::Identity();
};

enum class JointType {
  Fixed,             // t0 r0
  Revolute,          // t0 r1
  Prismatic,         // t1 r0
  Cylindrical,       // t1 r1
  Spherical,         // t0 r3
  Planar,            // t2 r0: slides in a plane, orientation fixed
  PlanarAxis,        // t2 r1: slides in a plane and turns about its normal (URDF "planar")
  FixedOrientation,  // t3 r0: translates freely, orientation fixed
  Floating,          // t3 r3: no constraint at all
};

struct JointFreedom {
  int translational = 0;  // free translational axes, 0..3
  int rotational = 0;     // free rotational axes, 0..3
};

JointFreedom freedom_of(JointType type);
const char* to_string(JointType type);
// Name of a combination: the JointType name where one exists, else "t<n>r<m>".
std::string joint_type_name(JointFreedom freedom);

struct Joint {
  std::string name;
  int parent = kWorld;
  int child = -1;
  Frame parent_frame;  // joint frame in the parent's body frame (world frame for kWorld)
  Frame child_frame;   // joint frame in the child's body frame
  Vector3 axis = Vector3::UnitZ();  // in the joint frame; normalized by Model::add_joint
  JointFreedom freedom;

  // Springs and dampers act on every minimal coordinate of the joint:
  // generalized force -stiffness (coordinate - rest) - damping * rate. The
  // spring reads the configuration at the start of a step, the damper the
  // rates of the step's new velocities (stable at any damping). An angle
  // about one axis counts whole turns, so a spring wound three turns pulls
  // back through all three (a torsion spring, MuJoCo's hinge spring); on two
  // or three free rotations the spring pulls along the shortest turn from the
  // rest orientation (`rest` its rotation vector), as MuJoCo's ball springs do.
  double stiffness = 0.0;
  double damping = 0.0;
  std::vector<double> rest;  // empty: all zero; else one value per coordinate
  // Coulomb friction on every minimal coordinate (N or N m, URDF's <dynamics
  // friction>): a generalized force of this size against the coordinate's
  // rate, read like the damper's at the new velocities. It is regularized as
  // -friction tanh(rate / StepOptions::joint_friction_velocity): below that
  // velocity it acts as a damper of friction / velocity, so a joint loaded
  // below its friction creeps, at velocity * atanh(load / friction) (below
  // that velocity while the load is under 3/4 of the friction), instead of
  // sticking.
  double friction = 0.0;

  // Limits on the minimal coordinates, kept by the step as inequality
  // constraints: empty means none, else one value per coordinate, with
  // -infinity / +infinity for a side without a limit. An angle about one axis
  // counts whole turns, so limits may lie any number of turns apart (a UR
  // arm's +-2 pi) and a joint that starts at 7 rad with limits [6, 8] stays
  // there.
  std::vector<double> lower;
  std::vector<double> upper;
  bool has_limits() const { return !lower.empty() || !upper.empty(); }

  // Initial minimal coordinates and rates; empty means zero.
  std::vector<double> initial_position;
  std::vector<double> initial_velocity;

  int num_coordinates() const { return freedom.translational + freedom.rotational; }
  int num_constraints() const { return 6 - num_coordinates(); }

  static Joint make(JointType type, std::string name, int parent, int child, const Vector3& axis = Vector3::UnitZ());
};

// Two joints of one coordinate each (revolute or prismatic) moving together,
// as URDF's <mimic> or a gear, belt or rack and pinion would make them:
//   follower coordinate = ratio * leader coordinate + offset.
// An ideal (workless) equality constraint of one row on the up to four bodies
// of the two joints. The leader's angle counts its whole turns, so any ratio
// works on a joint that turns without limits (a pinion driving a rack, a
// 2:1 reduction). When the follower is an angle the equation holds modulo
// 2 pi: a follower a whole turn from where the equation puts it stands in the
// same place. Couplings chain (a follower may lead others) but do not close
// cycles (Model::add_coupling refuses one).
struct JointCoupling {
  std::string name;
  int leader = -1;    // joint indices
  int follower = -1;
  double ratio = 1.0;
  double offset = 0.0;
};

}  // namespace dynamics
