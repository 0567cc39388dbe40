#pragma once
// The simulated state of a Model: body poses and velocities plus the inputs
// the caller sets before each step. Many states can be simulated from one
// model (one Simulator per thread).
//
// Velocities follow the integrator: after a step from t_k to t_k+1 they are
// the velocities that carried the bodies from z_k to z_k+1, (x_k+1 - x_k)/dt,
// and the next step starts from them.

#include <array>
#include <vector>

#include <Eigen/Core>

#include "graphsolve/eigen_abi.hpp"

#include "dynamics/model.hpp"
#include "dynamics/quaternion.hpp"

namespace dynamics {

struct State {
  std::vector<Vector3> position;          // centre of mass, world frame
  std::vector<Quaternion> orientation;    // body to world, unit norm
  std::vector<Vector3> velocity;          // world frame
  std::vector<Vector3> angular_velocity;  // body frame

  // Per joint: the angle of a joint with one free rotation (revolute,
  // cylindrical, planar-axis), counted over every whole turn it made; the
  // poses give it only modulo 2 pi. Steps, set_joint_positions and
  // project_positions keep it; a pose changed by hand is read within half a
  // turn of it. Springs, limits, couplings and joint_positions() use it, as
  // MuJoCo's hinge coordinates do. 0 for other joints. A step refuses an
  // entry that is NaN or beyond +-1e9 rad (StepStatus::InvalidInput).
  std::vector<double> joint_angles;

  // Inputs held constant over the next step.
  Eigen::VectorXd joint_input;           // one force or torque per joint coordinate
  std::vector<Vector3> external_force;   // per body, world frame, at the centre of mass
  std::vector<Vector3> external_torque;  // per body, body frame

  // The last step's Newton solution (velocities and joint impulses in the
  // rows of its graphsolve system) and, newest first, the solutions of the
  // steps before it: the next step starts from a polynomial extrapolation of
  // their velocities while the state's velocities are still the last
  // solution's. The first `earlier_solutions` of `previous_multipliers`
  // continue the trajectory at `multipliers_dt` (a vector of another size
  // ends them too); clearing the history only costs iterations, and keeps
  // its storage. Impulses along redundant joint rows (a planar loop in 3D)
  // are not unique: they are whatever Newton's method left there, recomputed
  // from zero when their round-off nears the tolerance while they are far
  // beyond the net impulses on the bodies (docs/dynamics.md, impulse restart).
  static constexpr int kEarlierSolutions = 4;
  Eigen::VectorXd multipliers;
  double multipliers_dt = 0.0;  // s: the step (or sub-step) that solved `multipliers`; 0 before any
  std::array<Eigen::VectorXd, kEarlierSolutions> previous_multipliers;
  int earlier_solutions = 0;

  // Forgets the solutions before the last one: the next step starts from the
  // last solution alone (for example after the caller changed the impulses).
  void clear_history() { earlier_solutions = 0; }

  // Sub-steps (StepOptions::max_substeps and substep_hold): after a step
  // that needed `count` sub-steps, the next steps start at that count instead
  // of failing again first; after `probe_after` of them, one step tries fewer.
  // The default starts with plain steps.
  struct SubstepMemory {
    int count = 1;        // sub-steps the next step starts with
    int held = 0;         // steps taken at `count` since it was set or last tried lower
    int probe_after = 0;  // steps at `count` before a step tries fewer
  };
  SubstepMemory substep_memory;

  double time = 0.0;
  long steps = 0;
};

// A state with every body at rest in the pose that the joints' initial
// coordinates give (root bodies at their own pose), projected onto the loop
// closures, then with the joints' initial velocities. Throws
// std::invalid_argument when the loops cannot be closed, and (as Simulator
// does) when a body's mass lies outside [1e-150, 1e150] kg.
State make_state(const Model& model);

// Throws std::invalid_argument when the state's sizes do not fit the model.
void check_state(const Model& model, const State& state);

}  // namespace dynamics
