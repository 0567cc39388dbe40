// A force F that acts at a lever arm r from a body's centre of mass, its
// direction and the arm taken at the start of the step (the step equations
// hold G(z_k) fixed), turns with the body as a spring does: rotating the body
// by a small theta changes its torque by -K theta with
//   K = (F . r) I - (r F^T + F r^T) / 2        (world frame; the skew rest is
// the body's net torque, which its own equation balances). A chain hanging
// under tension T gets K = T l (I - e e^T) per link: the zigzag of
// neighbouring links has the rate sqrt(T l / J) rad/s. The explicit treatment
// of K is symplectic Euler's, stable while rate * dt < 2.
//
// The rate of the whole mechanism is the largest omega with
//   K x = omega^2 W x,   G x = 0
// over body motions x that keep the joints closed (W the mass matrices, G the
// constraint Jacobian): power iteration with the saddle-point system of the
// constraints, each iterate the W-closest motion that keeps them closed.
#include "load_frequency.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <Eigen/Eigenvalues>

#include "constraint_system.hpp"
#include "mechanism_graph.hpp"

namespace dynamics::detail {
namespace {

using Matrix3 = Eigen::Matrix3d;

constexpr int kMaxIterations = 2000;
constexpr double kConverged = 1e-10;  // relative change of the Rayleigh quotient per iteration
constexpr double kRegularization = 1e-10;  // of the constraint rows, as the steps use (redundant loops)

void add_lever_stiffness(const Vector3& force, const Vector3& arm, Matrix3& k) {
  k += force.dot(arm) * Matrix3::Identity() - 0.5 * (arm * force.transpose() + force * arm.transpose());
}

// W-weighted inner products over the body rows (the constraint rows carry multipliers).
double weighted_dot(const ConstraintSystem& system, int bodies, const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  double sum = 0.0;
  for (int i = 0; i < bodies; ++i) sum += a.segment<6>(6 * i).dot(system.weight(i) * b.segment<6>(6 * i));
  return sum;
}

}  // namespace

LoadFrequency load_frequency(const Model& model, const State& state, const std::vector<Vector3>& child_force) {
  const int nb = model.num_bodies();
  // Per body: rotational stiffness in its body frame, over the mass scale as W is.
  ConstraintSystem system(model);
  std::vector<Matrix3> stiffness(nb, Matrix3::Zero());
  for (int j = 0; j < model.num_joints(); ++j) {
    const Joint& joint = model.joint(j);
    const Vector3& f = child_force[j];
    if (f.isZero(0.0)) continue;
    add_lever_stiffness(f, state.orientation[joint.child] * joint.child_frame.position, stiffness[joint.child]);
    if (joint.parent != kWorld)
      add_lever_stiffness(-f, state.orientation[joint.parent] * joint.parent_frame.position, stiffness[joint.parent]);
  }
  // Each body alone bounds the spectrum (its translation and the constraints
  // only add inertia or remove motions): shift by its most negative value so
  // that power iteration finds the largest positive one.
  double shift = 0.0, largest_alone = 0.0;
  for (int b = 0; b < nb; ++b) {
    const Matrix3 rotation = state.orientation[b].toRotationMatrix();
    stiffness[b] = rotation.transpose() * stiffness[b] * rotation / system.mass_scale();
    if (stiffness[b].isZero(0.0)) continue;
    const Matrix3 inertia = system.weight(b).bottomRightCorner<3, 3>();
    Eigen::GeneralizedSelfAdjointEigenSolver<Matrix3> alone(stiffness[b], inertia, Eigen::EigenvaluesOnly);
    shift = std::max(shift, -alone.eigenvalues()(0));
    largest_alone = std::max(largest_alone, alone.eigenvalues()(2));
  }
  LoadFrequency result;
  if (!(largest_alone > 0.0)) return result;  // no load stiffens any body

  Eigen::VectorXd g;
  system.assemble(state, g);
  if (!system.factorize(kRegularization))
    throw std::runtime_error("dynamics: the constraint system of the loaded-frequency estimate cannot be factorized (" +
                             system.failure() + ")");
  const auto apply = [&](const Eigen::VectorXd& x, Eigen::VectorXd& out) {  // (K + shift W) x, zero constraint rows
    out.setZero(system.rows());
    for (int b = 0; b < nb; ++b) {
      out.segment<6>(6 * b) = shift * (system.weight(b) * x.segment<6>(6 * b));
      out.segment<3>(6 * b + 3) += stiffness[b] * x.segment<3>(6 * b + 3);
    }
  };
  // A start with every body turning, deterministic (a fixed-seed sequence).
  Eigen::VectorXd x = Eigen::VectorXd::Zero(system.rows()), y;
  unsigned seed = 12345u;
  for (int b = 0; b < nb; ++b)
    for (int i = 0; i < 3; ++i) {
      seed = seed * 1664525u + 1013904223u;
      x(6 * b + 3 + i) = static_cast<double>(seed >> 8) / static_cast<double>(1u << 24) - 0.5;
    }
  double quotient = 0.0;
  for (int it = 0; it < kMaxIterations; ++it) {
    // The W-closest motion to W^-1 (K + shift W) x that keeps the joints closed.
    apply(x, y);
    if (!system.solve_factored(y)) throw std::runtime_error("dynamics: loaded-frequency estimate: " + system.failure());
    y.tail(system.rows() - 6 * nb).setZero();
    const double norm = std::sqrt(weighted_dot(system, nb, y, y));
    if (!(norm > 0.0)) return result;  // the loads stiffen no motion the joints allow
    x = y / norm;
    apply(x, y);
    const double next = x.head(6 * nb).dot(y.head(6 * nb));  // Rayleigh quotient: x is W-normalized
    const bool done = std::abs(next - quotient) <= kConverged * std::abs(next);
    quotient = next;
    if (done) break;
  }
  const double omega_squared = quotient - shift;
  if (!(omega_squared > 0.0)) return result;
  result.rate = std::sqrt(omega_squared);
  result.step_limit = 2.0 / result.rate;
  double most = -1.0;
  for (int b = 0; b < nb; ++b) {
    const double energy = x.segment<6>(6 * b).dot(system.weight(b) * x.segment<6>(6 * b));
    if (energy > most) {
      most = energy;
      result.body = b;
    }
  }
  return result;
}

}  // namespace dynamics::detail
