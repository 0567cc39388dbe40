#pragma once
// Built-in models of the papers' experiments, as C++ functions and by name
// (for the command line). Links are cylinders of radius 0.05 * length along
// their local z axis, joints revolute about y (motion in the x-z plane) unless
// said otherwise; with all joint coordinates zero links hang straight down.

#include <map>
#include <string>
#include <vector>

#include "dynamics/model.hpp"

namespace dynamics {

enum class ChainJoint { Revolute, Spherical };

// A link of the given length and mass whose joint points are its two ends.
Body make_link(const std::string& name, double length, double mass);

// A link hinged at one end (about y) to the world, with a joint damper and
// Coulomb friction (Joint::damping, Joint::friction).
Model pendulum(double length = 1.0, double mass = 1.0, double angle = 0.5, double damping = 0.0,
               double friction = 0.0);
Model n_link_pendulum(int links, ChainJoint joint = ChainJoint::Revolute, double length = 1.0, double mass = 1.0,
                      double angle = 0.5);
Model double_pendulum(double length = 1.0, double mass = 1.0, double angle1 = 1.5, double angle2 = 0.0);
// Three links (1, sqrt(2)/2, 1 m; 1, sqrt(2)/2, 1 kg) hanging from two world
// pivots sqrt(2)/2 apart: a loop with the world.
Model three_link_loop(double angle = 0.785398163397448);
// Crank and rocker of length `length` from world pivots `length` apart and a
// coupler between their tips (a parallelogram); the last joint closes the loop.
Model four_bar(double length = 1.0, double mass = 1.0, double angle = 0.5);
// Three cranks from world pivots one length apart joined by two couplers: the
// linkage passes singular (all-collinear) configurations when it turns over.
Model double_four_bar(double length = 1.0, double mass = 1.0, double speed = 8.0);
// k segments, each four links in a square loop, hung one below the other.
Model four_link_chain(int segments, double length = 1.0, double mass = 1.0, double angle = 0.3);
// One free body with distinct principal moments spinning about its middle
// axis (plus a small perturbation): it flips periodically (Dzhanibekov effect).
Model t_handle(double spin = 10.0, double perturbation = 0.01);
// Pendulum of scale s: mass s, length s^2 (so inertia about the pivot m l^2 / 3), released horizontal.
Model scaled_pendulum(double scale = 1.0);

struct ModelParameter {
  std::string name;
  std::string default_value;
  std::string description;
};

struct BuiltinModel {
  std::string name;
  std::string description;
  std::vector<ModelParameter> parameters;
};

const std::vector<BuiltinModel>& builtin_models();
// Build a model by name; parameters not given take their defaults. Throws
// std::invalid_argument for an unknown model, unknown parameter or bad value.
Model make_builtin(const std::string& name, const std::map<std::string, std::string>& parameters = {});

}  // namespace dynamics
