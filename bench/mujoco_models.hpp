#pragma once
// The benchmark mechanisms written as MJCF for MuJoCo: the same links
// (length, mass, inertia of dynamics::make_link), joints and initial pose as
// the built-in dynamics models, collisions off. Loop closures are MuJoCo
// `connect` equality constraints.

#include <string>
#include <vector>
#include <utility>

#include <mujoco/mujoco.h>

namespace bench {

// An MJCF model: the main file and the files it includes, `parts[i]` being
// included as "part<i>.xml". MuJoCo 2.2's XML reader refuses more than 100
// levels of nesting, so chains of nested bodies continue in included files.
struct Mjcf {
  Mjcf(std::string main = {}) : xml(std::move(main)) {}
  std::string xml;
  std::vector<std::string> parts;
};

// With `limit` > 0 every hinge is limited to [-limit, limit] rad (hinges
// only: MuJoCo limits a ball joint's angle from its rest, a cone).
Mjcf mjcf_n_link_pendulum(int links, bool spherical, double angle, double limit = 0.0);
Mjcf mjcf_four_link_chain(int segments, double angle);

// Contact models with MuJoCo's default solver and contact parameters, a
// ground plane and sliding friction `mu` (dynamics::sphere_chain and box_drop).
// The sphere chain as a joint tree of nested bodies with ball joints, rooted
// at the first sphere (as one writes a chain) or at the middle one (the
// shallowest tree: MuJoCo's cost grows with depth), or as free bodies joined
// by `connect` equalities. The spheres touch the ground only, as in ours.
enum class ChainLayout { TreeFromEnd, TreeFromMiddle, FreeBodies };
Mjcf mjcf_sphere_chain(int n, double height, double mu, ChainLayout layout);
Mjcf mjcf_box_drop(double edge, double height, double mu);
// `count` free cubes stacked with `gap` between them and above the ground.
Mjcf mjcf_box_stack(int count, double edge, double gap, double mu);

// Loads the model through a temporary directory; throws std::runtime_error
// with MuJoCo's message when it refuses the model. From the first call on,
// MuJoCo's warnings (a full constraint buffer, reset accelerations) go to
// stderr: MuJoCo printed them on stdout, in the middle of the benchmarks'
// `--benchmark_format=json` output, and appended them to a MUJOCO_LOG.TXT in
// the working directory. The benchmarks count them in `warnings`.
mjModel* load_mujoco(const Mjcf& model);

}  // namespace bench
