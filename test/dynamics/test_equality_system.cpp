// The graph without inequalities that open steps factorize (EqualitySystem):
// its solves in the whole graph's layout must be the whole graph's solves
// with the inequality nodes inactive, for every kind of node a step has.
#include <gtest/gtest.h>

#include <random>

#include "dynamics/dynamics.hpp"
#include "contact_site.hpp"
#include "equality_system.hpp"

namespace dynamics {
namespace {

// A chain with one of each: limits (a revolute and a spherical joint), a
// damper between two bodies, a coupling and a ground contact.
Model mixed_mechanism() {
  const Model chain = n_link_pendulum(4, ChainJoint::Revolute, 1.0, 1.0, 0.3);
  Model model;
  for (int b = 0; b < chain.num_bodies(); ++b) model.add_body(chain.body(b));
  for (int j = 0; j < chain.num_joints(); ++j) {
    Joint joint = chain.joint(j);
    if (j == 3) {  // spherical
      joint.freedom = {0, 3};
      joint.initial_position.assign(3, 0.1);
      joint.initial_velocity.clear();
    }
    if (j == 1 || j == 3) {
      joint.lower.assign(joint.num_coordinates(), -1.0);
      joint.upper.assign(joint.num_coordinates(), 1.0);
    }
    if (j == 2) joint.damping = 0.5;
    model.add_joint(joint);
  }
  model.add_coupling({"gear", 0, 1, 0.5, 0.0});
  Contact foot;
  foot.body = 3;
  model.add_contact(foot);
  return model;
}

TEST(EqualitySystem, SolvesAsTheWholeGraphWithItsInequalitiesInactive) {
  const Model model = mixed_mechanism();
  const detail::MechanismGraph whole = detail::build_mechanism_graph(model, true, detail::ground_sites(model));
  const graphsolve::Symbolic symbolic = graphsolve::analyze(whole.graph);
  const graphsolve::Pattern& pattern = symbolic.pattern();
  detail::EqualitySystem equality(model, whole, symbolic.pattern());
  const graphsolve::Pattern& own = equality.symbolic.pattern();
  ASSERT_LT(own.num_nodes, pattern.num_nodes);  // the limits and the contact are left out

  // Random values in the whole matrix, copied into the smaller one block by block.
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  const auto randomize = [&](auto block) {
    for (int r = 0; r < block.rows(); ++r)
      for (int c = 0; c < block.cols(); ++c) block(r, c) = value(rng);
  };
  graphsolve::BlockMatrix whole_matrix(symbolic);
  for (int node = 0; node < pattern.num_nodes; ++node) {
    auto d = whole_matrix.diag(node);
    randomize(d);
    d.diagonal().array() += 8.0;  // well conditioned, constraint nodes included
  }
  for (const auto& [a, b] : pattern.edges) {
    randomize(whole_matrix.block(a, b));
    randomize(whole_matrix.block(b, a));
  }
  std::vector<char> kept(pattern.num_nodes, 0);
  for (int node = 0; node < own.num_nodes; ++node) {
    const int full = equality.full_node(node);
    ASSERT_GE(full, 0);
    EXPECT_EQ(pattern.size[full], own.size[node]) << node;
    EXPECT_EQ(pattern.kind[full], own.kind[node]) << node;
    kept[full] = 1;
    equality.matrix.diag(node) = whole_matrix.diag(full);
  }
  for (const auto& [a, b] : own.edges) {
    equality.matrix.block(a, b) = whole_matrix.block(equality.full_node(a), equality.full_node(b));
    equality.matrix.block(b, a) = whole_matrix.block(equality.full_node(b), equality.full_node(a));
  }
  for (int node = 0; node < pattern.num_nodes; ++node) whole_matrix.set_active(node, kept[node] != 0);

  graphsolve::Factorization whole_lu(symbolic), own_lu(equality.symbolic);
  ASSERT_EQ(whole_lu.factorize(whole_matrix), graphsolve::Status::Success);
  ASSERT_EQ(own_lu.factorize(equality.matrix), graphsolve::Status::Success);
  Eigen::VectorXd rhs(pattern.dimension);
  for (int i = 0; i < rhs.size(); ++i) rhs(i) = value(rng);
  Eigen::VectorXd expected = rhs;
  ASSERT_EQ(whole_lu.solve_in_place(expected), graphsolve::Status::Success);

  Eigen::VectorXd in_place = rhs;
  equality.solve_in_place(own_lu, in_place);
  EXPECT_LT((in_place - expected).lpNorm<Eigen::Infinity>(), 1e-12 * expected.lpNorm<Eigen::Infinity>());
  Eigen::VectorXd refined(pattern.dimension);
  equality.solve_refined(own_lu, equality.matrix, rhs, refined);
  EXPECT_LT((refined - expected).lpNorm<Eigen::Infinity>(), 1e-12 * expected.lpNorm<Eigen::Infinity>());
}

}  // namespace
}  // namespace dynamics
