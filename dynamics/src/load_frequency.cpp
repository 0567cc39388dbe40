// A force F that acts at a lever arm r from a body's centre of mass, its
// direction and the arm taken at the start of the step (the step equations
// hold G(z_k) fixed), turns with the body as a spring does: rotating the body
// by a small theta changes its torque by -K theta with
//   K = (F . r) I - (r F^T + F r^T) / 2        (world frame; the skew rest is
// the body's net torque, which its own equation balances). A chain hanging
// under tension T gets K = T l (I - e e^T) per link: the zigzag of
// neighbouring links has the rate sqrt(T l / J) rad/s. The explicit treatment
// of K is symplectic Euler's, stable while rate * dt < 2. Joint springs
// without a damper are explicit too (their force is read at z_k): coordinate
// rates R x give the stiffness R^T k R over both bodies' motions.
//
// The rate of the whole mechanism is the largest omega with
//   K x = omega^2 W x,   G x = 0
// over body motions x that keep the joints closed (W the mass matrices, G the
// constraint Jacobian): restarted Lanczos (Rayleigh-Ritz on Krylov spaces)
// with the saddle-point system of the constraints, whose solve turns a
// force into the W-closest motion that keeps them closed.
#include "load_frequency.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include <Eigen/Eigenvalues>

#include "constraint_system.hpp"
#include "joint_kinematics.hpp"
#include "mechanism_graph.hpp"

namespace dynamics::detail {
namespace {

using Matrix3 = Eigen::Matrix3d;
using Matrix6 = Eigen::Matrix<double, 6, 6>;

constexpr int kKrylovSize = 24;            // vectors per restart
constexpr int kMaxRestarts = 100;
constexpr double kConverged = 1e-6;        // relative change of the largest Ritz value per restart
constexpr double kRegularization = 1e-10;  // of the constraint rows, as the steps use (redundant loops)
constexpr int kRefinement = 2;             // rounds against the unregularized system (below)
constexpr double kNoise = 1e-10;           // what that leaves of omega^2, relative to the largest body's alone

void add_lever_stiffness(const Vector3& force, const Vector3& arm, Matrix3& k) {
  k += force.dot(arm) * Matrix3::Identity() - 0.5 * (arm * force.transpose() + force * arm.transpose());
}

// A joint spring, linearized: k times its coordinate rates from the motions
// of its bodies (rows past `coordinates` zero; parent -1 for the world).
struct LinearSpring {
  int joint = -1;
  int parent = -1, child = -1;
  double stiffness = 0.0;  // over the mass scale, as W is
  RateJacobian rates;
};

// The loaded motion's operator on body motions (6 rows per body): x -> the
// W-closest motion that keeps the joints closed to W^-1 K x, self-adjoint in
// the W inner product on those motions.
class LoadedMotion {
 public:
  LoadedMotion(ConstraintSystem& system, std::vector<Matrix6> weight, std::vector<Matrix3> stiffness,
               std::vector<LinearSpring> springs)
      : system_(system), weight_(std::move(weight)), stiffness_(std::move(stiffness)), springs_(std::move(springs)) {}

  int size() const { return 6 * static_cast<int>(weight_.size()); }

  double dot(const Eigen::Ref<const Eigen::VectorXd>& a, const Eigen::Ref<const Eigen::VectorXd>& b) const {
    double sum = 0.0;
    for (std::size_t i = 0; i < weight_.size(); ++i) sum += a.segment<6>(6 * i).dot(weight_[i] * b.segment<6>(6 * i));
    return sum;
  }

  void apply(const Eigen::Ref<const Eigen::VectorXd>& x, Eigen::VectorXd& out) {
    rows_.setZero(system_.rows());
    for (std::size_t i = 0; i < weight_.size(); ++i)
      rows_.segment<3>(6 * i + 3) = stiffness_[i] * x.segment<3>(6 * i + 3);
    for (const LinearSpring& s : springs_) {
      Eigen::Matrix<double, 6, 1> rates = s.rates.child * x.segment<6>(6 * s.child);
      if (s.parent >= 0) rates += s.rates.parent * x.segment<6>(6 * s.parent);
      rows_.segment<6>(6 * s.child) += s.stiffness * (s.rates.child.transpose() * rates);
      if (s.parent >= 0) rows_.segment<6>(6 * s.parent) += s.stiffness * (s.rates.parent.transpose() * rates);
    }
    solve(out);
  }

  // The W-closest motion to x that keeps the joints closed.
  void project(Eigen::VectorXd& x) {
    rows_.setZero(system_.rows());
    for (std::size_t i = 0; i < weight_.size(); ++i) rows_.segment<6>(6 * i) = weight_[i] * x.segment<6>(6 * i);
    solve(x);
  }

  // W energy of body b in motion x.
  double energy(const Eigen::VectorXd& x, int b) const {
    return x.segment<6>(6 * b).dot(weight_[b] * x.segment<6>(6 * b));
  }

  // x^T K x of spring s alone.
  double spring_energy(const Eigen::VectorXd& x, const LinearSpring& s) const {
    Eigen::Matrix<double, 6, 1> rates = s.rates.child * x.segment<6>(6 * s.child);
    if (s.parent >= 0) rates += s.rates.parent * x.segment<6>(6 * s.parent);
    return s.stiffness * rates.squaredNorm();
  }
  const std::vector<LinearSpring>& springs() const { return springs_; }

 private:
  void solve(Eigen::VectorXd& out) {
    if (!system_.solve_refined(rows_, kRefinement))
      throw std::runtime_error("dynamics: loaded-frequency estimate: " + system_.failure());
    out = rows_.head(size());
  }

  ConstraintSystem& system_;
  std::vector<Matrix6> weight_;
  std::vector<Matrix3> stiffness_;
  std::vector<LinearSpring> springs_;
  Eigen::VectorXd rows_;
};

// Largest eigenvalue of the operator and its eigenvector (W-normalized),
// starting from `x`; false when no allowed motion is left from it. Each new
// direction is projected onto the allowed motions again: orthogonalizing
// cancels most of a vector, and what the regularized solves let open (about
// 1e-10 of it) would otherwise grow into directions that open the joints.
bool largest_eigenpair(LoadedMotion& op, Eigen::VectorXd& x, double& value) {
  const int n = op.size();
  Eigen::MatrixXd basis(n, kKrylovSize), image(n, kKrylovSize);
  Eigen::VectorXd w = x;
  op.project(w);
  double previous = std::numeric_limits<double>::quiet_NaN();
  for (int restart = 0; restart < kMaxRestarts; ++restart) {
    double norm = std::sqrt(op.dot(w, w));
    if (!(norm > 0.0)) return false;
    int size = 0;
    while (true) {
      basis.col(size) = w / norm;
      op.apply(basis.col(size), w);
      image.col(size) = w;
      ++size;
      if (size == kKrylovSize) break;
      // Classical Gram-Schmidt, twice: round-off in one pass leaves what the next removes.
      const double scale = std::sqrt(op.dot(w, w));
      for (int pass = 0; pass < 2; ++pass)
        for (int i = 0; i < size; ++i) w -= op.dot(w, basis.col(i)) * basis.col(i);
      op.project(w);
      norm = std::sqrt(op.dot(w, w));
      if (!(norm > 1e-8 * scale)) break;  // the space is invariant (to the regularization's noise)
    }
    Eigen::MatrixXd projected(size, size);
    for (int i = 0; i < size; ++i)
      for (int j = 0; j < size; ++j) projected(i, j) = op.dot(basis.col(i), image.col(j));
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> ritz(0.5 * (projected + projected.transpose()));
    value = ritz.eigenvalues()(size - 1);
    x = basis.leftCols(size) * ritz.eigenvectors().col(size - 1);
    x /= std::sqrt(op.dot(x, x));
    if (std::abs(value - previous) <= kConverged * std::abs(value)) break;
    previous = value;
    w = x;
  }
  return true;
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
  std::vector<Matrix6> weight(nb);
  for (int b = 0; b < nb; ++b) {
    weight[b] = system.weight(b);
    const Matrix3 rotation = state.orientation[b].toRotationMatrix();
    stiffness[b] = rotation.transpose() * stiffness[b] * rotation / system.mass_scale();
  }
  std::vector<LinearSpring> springs;
  for (int j = 0; j < model.num_joints(); ++j) {
    const Joint& joint = model.joint(j);
    // A damper acts on the new velocities and lengthens its spring's limit
    // (alone, to (2 zeta + 2 sqrt(1 + zeta^2)) / omega): such springs are left out.
    if (joint.stiffness == 0.0 || joint.num_coordinates() == 0 || has_damper(joint)) continue;
    LinearSpring s;
    s.joint = j;
    s.parent = joint.parent;
    s.child = joint.child;
    s.stiffness = joint.stiffness / system.mass_scale();
    s.rates = rate_jacobian(joint, joint_axes(joint), body_pose(state, joint.parent), body_pose(state, joint.child));
    springs.push_back(s);
  }
  // Each body alone (the others held still) gives a scale for the
  // spectrum: without a body stiffened alone, no motion is.
  std::vector<Matrix6> alone(nb, Matrix6::Zero());
  for (int b = 0; b < nb; ++b) alone[b].bottomRightCorner<3, 3>() = stiffness[b];
  for (const LinearSpring& s : springs) {
    alone[s.child] += s.stiffness * s.rates.child.transpose() * s.rates.child;
    if (s.parent >= 0) alone[s.parent] += s.stiffness * s.rates.parent.transpose() * s.rates.parent;
  }
  double largest_alone = 0.0;
  for (int b = 0; b < nb; ++b) {
    if (alone[b].isZero(0.0)) continue;
    Eigen::GeneralizedSelfAdjointEigenSolver<Matrix6> solver(alone[b], weight[b], Eigen::EigenvaluesOnly);
    largest_alone = std::max(largest_alone, solver.eigenvalues()(5));
  }
  LoadFrequency result;
  if (!(largest_alone > 0.0)) return result;  // no load stiffens any body

  Eigen::VectorXd g;
  system.assemble(state, g);
  if (!system.factorize(kRegularization))
    throw std::runtime_error("dynamics: the constraint system of the loaded-frequency estimate cannot be factorized (" +
                             system.failure() + ")");
  LoadedMotion op(system, std::move(weight), std::move(stiffness), std::move(springs));
  // A start with every body moving and turning, deterministic (a fixed-seed sequence).
  Eigen::VectorXd x(op.size());
  unsigned seed = 12345u;
  for (int i = 0; i < x.size(); ++i) {
    seed = seed * 1664525u + 1013904223u;
    x(i) = static_cast<double>(seed >> 8) / static_cast<double>(1u << 24) - 0.5;
  }
  double value = 0.0;
  if (!largest_eigenpair(op, x, value)) return result;  // the loads stiffen no motion the joints allow
  // Compression only (a physical instability, no limit on dt), or loads only
  // on motions the joints forbid, which leaves the regularization's noise.
  if (!(value > kNoise * largest_alone)) return result;
  result.rate = std::sqrt(value);
  result.step_limit = 2.0 / result.rate;
  double most = -1.0;
  for (int b = 0; b < nb; ++b) {
    const double energy = op.energy(x, b);
    if (energy > most) {
      most = energy;
      result.body = b;
    }
  }
  // How much of that motion's stiffness (x^T K x = value) the springs give.
  double strongest = 0.0, springs_total = 0.0;
  for (const LinearSpring& s : op.springs()) {
    const double e = op.spring_energy(x, s);
    springs_total += e;
    if (e > strongest) {
      strongest = e;
      result.spring_joint = s.joint;
    }
  }
  result.spring_share = std::clamp(springs_total / value, 0.0, 1.0);
  return result;
}

}  // namespace dynamics::detail
