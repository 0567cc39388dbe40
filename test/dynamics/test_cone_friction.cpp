// The exact friction cone: the Nesterov-Todd scaling its Newton rows use
// (against its defining identities), and tossed boxes, which the unscaled
// Jordan-product rows left stalling.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include <Eigen/Eigenvalues>

#include "cone_scaling.hpp"
#include "dynamics/dynamics.hpp"
#include "step_options.hpp"

namespace dynamics {
namespace {

using detail::arrow;
using detail::cone_determinant;
using detail::jordan_product;
using detail::nesterov_todd;
using detail::NesterovTodd;

// A point inside the cone at relative depth `depth` (0: on the boundary).
Eigen::Vector3d inside(std::mt19937& rng, double depth) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const Eigen::Vector2d tail(u(rng), u(rng));
  const double scale = std::exp(3.0 * u(rng));
  Eigen::Vector3d v;
  v << tail.norm() * (1.0 + depth), tail;
  return scale * v;
}

TEST(ConeScaling, JordanProductIsTheArrowMatrix) {
  std::mt19937 rng(3);
  for (int i = 0; i < 20; ++i) {
    const Eigen::Vector3d a = inside(rng, 0.3), b = inside(rng, 0.1) - inside(rng, 0.2);
    EXPECT_LT((arrow(a) * b - jordan_product(a, b)).norm(), 1e-12 * a.norm() * b.norm());
    EXPECT_LT((jordan_product(a, b) - jordan_product(b, a)).norm(), 1e-12 * a.norm() * b.norm());
  }
  // e = (1, 0, 0) is the identity, and det(v) = v0^2 - |v1|^2.
  const Eigen::Vector3d v(2.0, 0.6, -0.8);
  EXPECT_EQ(jordan_product(Eigen::Vector3d::UnitX(), v), v);
  EXPECT_NEAR(cone_determinant(v), 4.0 - 1.0, 1e-15);
}

TEST(ConeScaling, ScalingMapsEachMemberToTheSameLambda) {
  std::mt19937 rng(7);
  for (double depth : {1.0, 1e-2, 1e-5, 1e-8}) {
    for (int i = 0; i < 20; ++i) {
      const Eigen::Vector3d x = inside(rng, depth), y = inside(rng, 1.0);
      const NesterovTodd nt = nesterov_todd(x, y);
      const double wn = nt.w.norm(), vn = nt.w_inverse.norm();
      EXPECT_LT((nt.w - nt.w.transpose()).norm(), 1e-12 * wn);
      EXPECT_LT((nt.w * nt.w_inverse - Eigen::Matrix3d::Identity()).norm(), 1e-9 * wn * vn);
      EXPECT_GT(nt.w.selfadjointView<Eigen::Lower>().eigenvalues().minCoeff(), 0.0);
      // W^-1 x = W y = lambda, so W^2 y = x and lambda . lambda = x . y.
      EXPECT_LT((nt.w_inverse * x - nt.lambda).norm(), 1e-9 * nt.lambda.norm()) << depth;
      EXPECT_LT((nt.w * (nt.w * y) - x).norm(), 1e-9 * x.norm()) << depth;
      EXPECT_NEAR(nt.lambda.squaredNorm(), x.dot(y), 1e-9 * x.norm() * y.norm());
      EXPECT_GT(nt.lambda(0), nt.lambda.tail<2>().norm());
      // The rows are the linearization lambda o (W^-1 dx + W dy).
      const Eigen::Vector3d dx = inside(rng, 0.5) - inside(rng, 0.5), dy = inside(rng, 0.5) - inside(rng, 0.5);
      const Eigen::Vector3d rows = nt.dx_rows * dx + nt.dy_rows * dy;
      const Eigen::Vector3d product = jordan_product(nt.lambda, nt.w_inverse * dx + nt.w * dy);
      EXPECT_LT((rows - product).norm(), 1e-9 * (product.norm() + rows.norm()) + 1e-300);
    }
  }
}

TEST(ConeScaling, PointsOnTheBoundaryByRoundOffStayFinite) {
  // A sliding contact converges to both members on the boundary; the
  // iterates can reach it to round-off (x0 == |x1|), where the scaling is
  // undefined. Found as NaN Newton rows on a sphere tossed with cone friction.
  const Eigen::Vector3d x(0.22789509181281692, 0.12321212521582853, -0.19171579244332285);
  const Eigen::Vector3d y(1.2687542539379584, -0.68596149434492359, 1.0673304010636178);
  ASSERT_LE(cone_determinant(x), 0.0);
  const NesterovTodd nt = nesterov_todd(x, y);
  EXPECT_TRUE(nt.w.allFinite() && nt.w_inverse.allFinite() && nt.lambda.allFinite());
  EXPECT_TRUE(nt.dx_rows.allFinite() && nt.dy_rows.allFinite());
}

// Boxes thrown spinning onto the ground with cone friction. With the
// unscaled rows 5 of these 8 tosses stalled within 60 steps (the direction
// left the cone: steps to its boundary of 1e-4 to 1e-14); every step must
// now converge at the default options, without sub-steps.
TEST(ConeFriction, TossedBoxesConvergeAtTheDefaults) {
  struct Toss {
    double mu;
    Vector3 rotation, velocity, angular_velocity;
    double height;
  };
  const Toss tosses[] = {
      {0.70, {2.79, 2.46, 0.78}, {2.67, -0.66, -0.49}, {-1.05, 6.15, -4.65}, 0.65},
      {0.41, {-1.35, -1.38, 2.28}, {-1.83, 1.14, -2.97}, {13.95, 4.05, -12.90}, 0.81},
      {0.97, {-1.59, 2.46, -0.66}, {-2.61, -2.94, -0.70}, {14.10, 3.90, 10.65}, 0.72},
      {0.23, {-1.47, 1.02, 1.47}, {2.25, 2.07, -2.25}, {12.00, -1.05, 0.30}, 0.85},
      {0.53, {2.61, -2.61, 2.40}, {-2.01, 2.49, -0.80}, {10.65, -10.95, -5.55}, 0.70},
      {0.48, {2.76, -0.33, -1.35}, {0.27, -2.49, -0.44}, {12.60, -6.45, -5.70}, 0.41},
      {0.60, {1.11, -1.47, 0.72}, {2.70, -0.06, -0.73}, {13.20, -4.95, 0.90}, 0.32},
      {0.48, {0.75, 0.39, 0.63}, {0.69, -1.92, -1.29}, {12.15, 4.05, -2.25}, 0.71},
  };
  for (const Toss& toss : tosses) {
    Model model;
    const int box = model.add_body(Body::solid("box", 1.0, Shape::box(Vector3(0.5, 0.3, 0.2))));
    ContactOptions options;
    options.friction = FrictionModel::Cone;
    options.friction_coefficient = toss.mu;
    model.add_shape_contacts(box, options);
    State state = make_state(model);
    state.orientation[0] = rotation_from_vector(toss.rotation);
    state.position[0] = Vector3(0.0, 0.0, toss.height);
    state.velocity[0] = toss.velocity;
    state.angular_velocity[0] = toss.angular_velocity;
    Simulator sim(model, test::plain_steps());  // sub-steps would hide a stall
    double energy = total_energy(model, state);
    for (int k = 0; k < 60; ++k) {
      const StepResult result = sim.step(state);
      ASSERT_TRUE(result.ok()) << "toss with mu " << toss.mu << ", step " << k << ": " << to_string(result.status);
      EXPECT_GE(result.min_signed_distance, -1e-6);
      const double e = total_energy(model, state);
      ASSERT_LE(e, energy + 1e-9) << "energy grew at step " << k;  // impacts and friction only take energy
      energy = e;
    }
  }
}

}  // namespace
}  // namespace dynamics
