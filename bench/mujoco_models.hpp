#pragma once
// The benchmark mechanisms written as MJCF for MuJoCo: the same links
// (length, mass, inertia of dynamics::make_link), joints and initial pose as
// the built-in dynamics models, collisions off. Loop closures are MuJoCo
// `connect` equality constraints.

#include <string>

namespace bench {

std::string mjcf_n_link_pendulum(int links, bool spherical, double angle);
std::string mjcf_four_link_chain(int segments, double angle);

}  // namespace bench
