#pragma once
// Minimal coordinates of the joints (see joint.hpp for their definition) and
// the projection of a state onto the joint constraints.

#include <string>
#include <vector>

#include <Eigen/Core>

#include "graphsolve/eigen_abi.hpp"

#include "dynamics/model.hpp"
#include "dynamics/state.hpp"

namespace dynamics {

// All joints' coordinates (or rates) stacked as Model::coordinate_offset says.
Eigen::VectorXd joint_positions(const Model& model, const State& state);
Eigen::VectorXd joint_velocities(const Model& model, const State& state);

// Place the bodies by walking the joint tree from the world and the root
// bodies. Entries of loop-closing joints are ignored (their coordinates follow
// from the others); call project_positions afterwards to close the loops.
// Entries of coupled followers are replaced by ratio * leader + offset (rates:
// ratio * leader rate), so that the couplings hold as far as the tree allows.
// A tree joint's angle is kept as given, whole turns included, in
// State::joint_angles (up to +-1e9 rad: beyond, std::invalid_argument); a
// loop closure's is read within half a turn of its old one.
void set_joint_positions(const Model& model, State& state, const Eigen::VectorXd& positions);
// Set body velocities from joint rates, walking the tree the same way.
void set_joint_velocities(const Model& model, State& state, const Eigen::VectorXd& velocities);

// One joint's coordinates, keeping the other joints' coordinates. Throws for
// a loop-closing joint, whose coordinates follow from the rest, and for the
// follower of a coupling (set its leader).
void set_joint_position(const Model& model, State& state, int joint, const Eigen::VectorXd& values);
void set_joint_velocity(const Model& model, State& state, int joint, const Eigen::VectorXd& values);

// A joint coordinate beyond one of its limits (Joint::lower / upper), read as
// the limit constraints read it. A step that starts there pushes it back
// within that one step, at whatever speed that takes.
struct LimitViolation {
  int joint = -1;
  int coordinate = 0;  // index within the joint's coordinates
  double value = 0.0;
  double bound = 0.0;  // the limit it passes
  bool lower = true;   // below the lower limit (else above the upper one)
};
std::vector<LimitViolation> limit_violations(const Model& model, const State& state, double tolerance = 0.0);

struct ProjectionOptions {
  double tolerance = 1e-12;    // max |g| accepted, metres (and unit quaternion components);
                               // at least 8 eps max|x|, the round-off of the positions
  int max_iterations = 50;
  double regularization = 1e-10;  // for redundant constraints (mass matrices over the mass scale, see simulator.hpp)
  // A joint pivot that fails grows the regularization 100-fold, up to this:
  // a redundant row's pivot is the regularization beside rows of about 1/J,
  // so a planar loop of 10 cm links needs more than one of metres.
  double max_regularization = 1e-4;
};

struct ProjectionResult {
  bool converged = false;
  int iterations = 0;
  double violation = 0.0;         // max |g| after the projection
  int worst_joint = -1;           // the joint with that violation (-1: none violated, or a coupling)
  int worst_coupling = -1;        // the joint coupling with that violation, if it is one
  std::vector<int> violated_joints;     // every joint still violated beyond the tolerance
  std::vector<int> violated_couplings;  // every joint coupling likewise
  double translation = 0.0;       // largest body displacement made, metres
  double rotation = 0.0;          // largest body rotation made, radians
};

// Move the bodies the least (mass-weighted) so that every joint constraint
// and joint coupling holds: Gauss-Newton on g(z) = 0 with the mass matrix as
// metric. Each linear system is a graphsolve system on the mechanism graph.
// State::joint_angles follow the bodies. Like Simulator, it refuses (with
// std::invalid_argument naming the body) a model with a body mass outside
// [1e-150, 1e150] kg, whose mass weights the solve cannot square.
ProjectionResult project_positions(const Model& model, State& state, const ProjectionOptions& options = {});

// What a failed projection left, naming the joints and couplings: "joints
// 'a', 'b' are still violated (largest: 'b', 0.5) after 3 projection
// iterations".
std::string describe_violation(const Model& model, const ProjectionResult& result);

// Make the velocities consistent with the constraints, G v = 0, changing the
// kinetic energy metric the least. Returns the largest velocity change.
// Refuses the masses project_positions refuses.
double project_velocities(const Model& model, State& state);

}  // namespace dynamics
