// Built with -mavx2 -mfma against the portable libraries, as a user's
// -march=native program is: Eigen objects that cross the libraries' interface
// (fixed-size members of Body and Joint, vectors the library allocates and the
// program frees, and the reverse) must mean the same on both sides
// (graphsolve/eigen_abi.hpp). Before the libraries fixed Eigen's layout, this
// program read a joint's rest position as 5.7e17 values and crashed freeing
// a VectorXd that joint_positions() returned.
#include <cmath>

#include <Eigen/Dense>
#include <gtest/gtest.h>

#include <dynamics/dynamics.hpp>
#include <graphsolve/graphsolve.hpp>

namespace {

TEST(Avx2Consumer, SeesTheLibrarysEigenLayout) {
#ifndef __AVX2__
  GTEST_FAIL() << "this test must be compiled with -mavx2";
#endif
  EXPECT_EQ(EIGEN_MAX_STATIC_ALIGN_BYTES, 16);
  EXPECT_EQ(alignof(dynamics::Quaternion), 16u);
}

TEST(Avx2Consumer, SolvesAndCopiesMatricesTheLibraryAllocated) {
  namespace gs = graphsolve;
  gs::Graph graph;
  const gs::NodeId a = graph.add_node(6), b = graph.add_node(4), c = graph.add_node(3);
  graph.add_edge(a, b);
  graph.add_edge(b, c);
  const gs::Symbolic symbolic = gs::analyze(graph);
  gs::BlockMatrix matrix(symbolic);
  std::srand(7);
  matrix.diag(a) = Eigen::MatrixXd::Random(6, 6) + 8.0 * Eigen::MatrixXd::Identity(6, 6);
  matrix.diag(b) = Eigen::MatrixXd::Random(4, 4) + 8.0 * Eigen::MatrixXd::Identity(4, 4);
  matrix.diag(c) = Eigen::MatrixXd::Random(3, 3) + 8.0 * Eigen::MatrixXd::Identity(3, 3);
  matrix.block(a, b) = Eigen::MatrixXd::Random(6, 4);
  matrix.block(b, a) = Eigen::MatrixXd::Random(4, 6);
  matrix.block(b, c) = Eigen::MatrixXd::Random(4, 3);
  matrix.block(c, b) = Eigen::MatrixXd::Random(3, 4);

  // Allocated by the library, read and freed here.
  const Eigen::MatrixXd dense = matrix.to_dense();
  ASSERT_EQ(dense.rows(), 13);
  EXPECT_EQ(dense.block(6, 10, 4, 3), Eigen::MatrixXd(matrix.block(b, c)));
  EXPECT_EQ(dense.block(0, 10, 6, 3), Eigen::MatrixXd::Zero(6, 3));

  gs::Factorization ldu(symbolic, gs::Method::LDU);
  ASSERT_EQ(ldu.factorize(matrix), gs::Status::Success);
  const Eigen::VectorXd rhs = Eigen::VectorXd::LinSpaced(13, -1.0, 2.0);
  Eigen::VectorXd x = rhs;
  ASSERT_EQ(ldu.solve_in_place(x), gs::Status::Success);
  const Eigen::VectorXd expected = dense.partialPivLu().solve(rhs);
  EXPECT_LT((x - expected).norm(), 1e-12 * expected.norm());
}

TEST(Avx2Consumer, SimulatesAPendulumBuiltHere) {
  using namespace dynamics;
  Model model;
  Body rod = make_link("rod", 1.0, 2.0);
  rod.orientation = Quaternion(Eigen::AngleAxisd(0.3, Vector3::UnitX()));
  const int body = model.add_body(rod);
  Joint hinge = Joint::make(JointType::Revolute, "hinge", kWorld, body, Vector3::UnitY());
  hinge.child_frame.position = Vector3(0, 0, 0.5);
  hinge.initial_position = {0.4};
  hinge.rest = {0.1};
  hinge.stiffness = 3.0;
  model.add_joint(hinge);
  // The library's copies read back as written here.
  EXPECT_DOUBLE_EQ(model.body(body).mass, 2.0);
  EXPECT_LT((model.body(body).orientation.coeffs() - rod.orientation.coeffs()).norm(), 1e-15);
  EXPECT_EQ(model.joint(0).rest, std::vector<double>{0.1});
  EXPECT_DOUBLE_EQ(model.joint(0).child_frame.position.z(), 0.5);

  State state = make_state(model);
  const Eigen::VectorXd start = joint_positions(model, state);  // allocated by the library
  ASSERT_EQ(start.size(), 1);
  EXPECT_NEAR(start(0), 0.4, 1e-12);
  // The child frame's origin, 0.5 m above the centre, stays at the hinge.
  const Vector3 top = state.position[body] + state.orientation[body] * Vector3(0, 0, 0.5);
  EXPECT_LT(top.norm(), 1e-12);

  StepOptions options;
  options.dt = 0.01;
  Simulator sim(model, options);
  const double energy = total_energy(model, state);
  for (int k = 0; k < 200; ++k) ASSERT_TRUE(sim.step(state).ok()) << "step " << k;
  EXPECT_LT(constraint_violation(model, state), 1e-9);
  EXPECT_NEAR(state.orientation[body].norm(), 1.0, 1e-12);
  // A conservative pendulum: the first-order integrator's energy swings by O(dt).
  EXPECT_NEAR(total_energy(model, state), energy, 0.05 * std::abs(energy) + 0.05);
}

}  // namespace
