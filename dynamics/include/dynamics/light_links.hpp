#pragma once
// Bodies far lighter than the bodies they carry between them: a model that
// builds but whose steps cannot resolve such a body (docs/dynamics.md,
// Limitations, "Light links between heavy ones"). Uniform scaling of every
// mass is absorbed by the mass scale; what fails is a ratio of about 1e-12
// across a body that passes the load from one joint to another (URDF
// placeholder links given a token mass between two hinges). A light end
// link, on a single joint, carries nothing and runs far lighter (1e-16).

#include <vector>

#include "dynamics/model.hpp"

namespace dynamics {

// Below this ratio a link is reported: 1e-11 still ran in the measurement,
// 1e-12 failed.
inline constexpr double kLightLinkRatio = 1e-10;

struct LightLink {
  int body = -1;       // the light body
  int neighbour = -1;  // the heaviest body jointed to it
  int joint = -1;      // a joint between the two
  double ratio = 0.0;  // body mass / neighbour mass
};

// Every body on two or more joints with constraint rows (a joint to the
// world counts; a floating joint, which carries no load, does not) whose mass
// is less than `below` times that of the heaviest body jointed to it, in
// body order. Throws std::invalid_argument unless `below` is positive and
// finite.
std::vector<LightLink> light_links(const Model& model, double below = kLightLinkRatio);

}  // namespace dynamics
