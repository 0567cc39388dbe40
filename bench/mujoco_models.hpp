#pragma once
// The benchmark mechanisms written as MJCF for MuJoCo: the same links
// (length, mass, inertia of dynamics::make_link), joints and initial pose as
// the built-in dynamics models, collisions off. Loop closures are MuJoCo
// `connect` equality constraints.

#include <string>

#include <mujoco/mujoco.h>

namespace bench {

std::string mjcf_n_link_pendulum(int links, bool spherical, double angle);
std::string mjcf_four_link_chain(int segments, double angle);

// Contact models with MuJoCo's default solver and contact parameters, a
// ground plane and sliding friction `mu` (dynamics::sphere_chain and box_drop).
// The sphere chain as nested bodies with ball joints (tree) or as free bodies
// joined by `connect` equalities (free).
std::string mjcf_sphere_chain(int n, double height, double mu, bool tree);
std::string mjcf_box_drop(double edge, double height, double mu);
// `count` free cubes stacked with `gap` between them and above the ground.
std::string mjcf_box_stack(int count, double edge, double gap, double mu);

// Loads MJCF text through a temporary file; throws std::runtime_error with
// MuJoCo's message when it refuses the model.
mjModel* load_mujoco(const std::string& xml);

}  // namespace bench
