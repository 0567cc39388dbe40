// A force F that acts at a lever arm r from a body's centre of mass, its
// direction and the arm taken at the start of the step (the step equations
// hold G(z_k) fixed), turns with the body as a spring does: rotating the body
// by a small theta changes its torque by -K theta with
//   K = (F . r) I - (r F^T + F r^T) / 2        (world frame; the skew rest is
// the body's net torque, which its own equation balances). A chain hanging
// under tension T gets K = T l (I - e e^T) per link: the zigzag of
// neighbouring links has the rate sqrt(T l / J) rad/s. The explicit treatment
// of K is symplectic Euler's, stable while rate * dt < 2. Joint springs are
// explicit too (their force is read at z_k): coordinate rates R x give the
// stiffness R^T k R over both bodies' motions. Dampers act on the new
// velocities, C = R^T c R.
//
// The rate of the whole mechanism is the largest omega with
//   K x = omega^2 W x,   G x = 0
// over body motions x that keep the joints closed (W the mass matrices, G the
// constraint Jacobian): restarted Lanczos (Rayleigh-Ritz on Krylov spaces)
// with the saddle-point system of the constraints, whose solve turns a
// force into the W-closest motion that keeps them closed.
//
// With dampers, the step W (v' - v) = -h K q - h C v', q' = q + h v' has
// q_k = lambda^k x with (W + hC) lambda^2 - (2W + hC - h^2 K) lambda + W = 0.
// A motion that K stiffens leaves the unit circle through lambda = -1, where
// h^2 K - 2 h C - 4 W is singular (a lone spring: h = 2 (zeta + sqrt(1 +
// zeta^2)) / omega). The limit is the smallest h where the largest mu of
// (h^2 K - 2 h C) x = 4 mu W x reaches 1. mu(h), a maximum of functions
// convex in h that vanish at h = 0, is convex with mu(0) = 0: it crosses 1
// once, and Newton's method from above converges to that crossing
// monotonically.
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
constexpr int kMaxDoublings = 60;          // of the step while bracketing the damped limit
constexpr int kMaxNewton = 50;

void add_lever_stiffness(const Vector3& force, const Vector3& arm, Matrix3& k) {
  k += force.dot(arm) * Matrix3::Identity() - 0.5 * (arm * force.transpose() + force * arm.transpose());
}

// A joint spring, linearized: k times its coordinate rates from the motions
// of its bodies (rows past `coordinates` zero; parent -1 for the world).
struct LinearSpring {
  int joint = -1;
  int parent = -1, child = -1;
  double stiffness = 0.0;  // over the mass scale, as W is
  double damping = 0.0;    // likewise
  RateJacobian rates;
};

// The loaded motion's operator on body motions (6 rows per body): x -> the
// W-closest motion that keeps the joints closed to W^-1 (a K - b C) x,
// self-adjoint in the W inner product on those motions; a = 1, b = 0 unless
// set_step() chooses the damped step's pencil.
class LoadedMotion {
 public:
  LoadedMotion(ConstraintSystem& system, std::vector<Matrix6> weight, std::vector<Matrix3> stiffness,
               std::vector<LinearSpring> springs)
      : system_(system), weight_(std::move(weight)), stiffness_(std::move(stiffness)), springs_(std::move(springs)) {}

  int size() const { return 6 * static_cast<int>(weight_.size()); }

  // (h^2 K - 2 h C) / 4: the operator whose largest eigenvalue reaches 1 at the limit h.
  void set_step(double h) {
    stiffness_factor_ = 0.25 * h * h;
    damping_factor_ = 0.5 * h;
  }
  bool damped() const {
    return std::any_of(springs_.begin(), springs_.end(), [](const LinearSpring& s) { return s.damping > 0.0; });
  }

  double dot(const Eigen::Ref<const Eigen::VectorXd>& a, const Eigen::Ref<const Eigen::VectorXd>& b) const {
    double sum = 0.0;
    for (std::size_t i = 0; i < weight_.size(); ++i) sum += a.segment<6>(6 * i).dot(weight_[i] * b.segment<6>(6 * i));
    return sum;
  }

  void apply(const Eigen::Ref<const Eigen::VectorXd>& x, Eigen::VectorXd& out) {
    rows_.setZero(system_.rows());
    for (std::size_t i = 0; i < weight_.size(); ++i)
      rows_.segment<3>(6 * i + 3) = stiffness_factor_ * (stiffness_[i] * x.segment<3>(6 * i + 3));
    for (const LinearSpring& s : springs_) {
      const double factor = stiffness_factor_ * s.stiffness - damping_factor_ * s.damping;
      const Eigen::Matrix<double, 6, 1> rates = joint_rates(x, s);
      rows_.segment<6>(6 * s.child) += factor * (s.rates.child.transpose() * rates);
      if (s.parent >= 0) rows_.segment<6>(6 * s.parent) += factor * (s.rates.parent.transpose() * rates);
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

  // x^T K x of spring s alone, and of the joint loads' levers.
  double spring_energy(const Eigen::VectorXd& x, const LinearSpring& s) const {
    return s.stiffness * joint_rates(x, s).squaredNorm();
  }
  double lever_energy(const Eigen::VectorXd& x) const {
    double sum = 0.0;
    for (std::size_t i = 0; i < weight_.size(); ++i)
      sum += x.segment<3>(6 * i + 3).dot(stiffness_[i] * x.segment<3>(6 * i + 3));
    return sum;
  }
  double stiffness_energy(const Eigen::VectorXd& x) const {
    double sum = lever_energy(x);
    for (const LinearSpring& s : springs_) sum += spring_energy(x, s);
    return sum;
  }
  // x^T C x.
  double damping_energy(const Eigen::VectorXd& x) const {
    double sum = 0.0;
    for (const LinearSpring& s : springs_) sum += s.damping * joint_rates(x, s).squaredNorm();
    return sum;
  }
  const std::vector<LinearSpring>& springs() const { return springs_; }

 private:
  static Eigen::Matrix<double, 6, 1> joint_rates(const Eigen::Ref<const Eigen::VectorXd>& x, const LinearSpring& s) {
    Eigen::Matrix<double, 6, 1> rates = s.rates.child * x.segment<6>(6 * s.child);
    if (s.parent >= 0) rates += s.rates.parent * x.segment<6>(6 * s.parent);
    return rates;
  }

  void solve(Eigen::VectorXd& out) {
    if (!system_.solve_refined(rows_, kRefinement))
      throw std::runtime_error("dynamics: loaded-frequency estimate: " + system_.failure());
    out = rows_.head(size());
  }

  ConstraintSystem& system_;
  std::vector<Matrix6> weight_;
  std::vector<Matrix3> stiffness_;
  std::vector<LinearSpring> springs_;
  double stiffness_factor_ = 1.0, damping_factor_ = 0.0;
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

// The smallest h where the largest eigenvalue mu(h) of (h^2 K - 2 h C) / 4
// over W reaches 1 (see the top of the file), from `undamped` = 2 / omega,
// which no damper shortens; `x` ends as that motion. The bracket grows by
// doubling until mu >= 1, then Newton's method on the convex mu(h) - 1
// walks down to the crossing, each step a Lanczos run started from the last
// motion.
double damped_step_limit(LoadedMotion& op, Eigen::VectorXd& x, double undamped) {
  const auto largest = [&](double h) {
    op.set_step(h);
    double mu = 0.0;
    if (!largest_eigenpair(op, x, mu)) mu = 0.0;
    return mu;
  };
  double low = undamped, high = undamped, mu = largest(high);
  if (mu >= 1.0 - kConverged) return undamped;  // no damper moves in the fastest motion
  for (int doubling = 0; mu < 1.0; ++doubling) {
    if (doubling == kMaxDoublings) return std::numeric_limits<double>::infinity();
    low = high;
    high *= 2.0;
    mu = largest(high);
  }
  for (int iteration = 0; iteration < kMaxNewton; ++iteration) {
    // mu'(h) = (2 h x^T K x - 2 x^T C x) / 4 for the W-normalized motion x.
    const double slope = 0.5 * (high * op.stiffness_energy(x) - op.damping_energy(x));
    double next = slope > 0.0 ? high - (mu - 1.0) / slope : 0.5 * (low + high);
    if (!(next > low && next < high)) next = 0.5 * (low + high);
    const double next_mu = largest(next);
    if (next_mu >= 1.0) {
      const bool settled = high - next <= kConverged * next;
      high = next;
      mu = next_mu;
      if (settled) break;
    } else {
      low = next;
      if (high - low <= kConverged * high) break;
    }
  }
  op.set_step(high);
  double mu_high = 0.0;
  largest_eigenpair(op, x, mu_high);  // x: the motion at the limit
  return high;
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
    if ((joint.stiffness == 0.0 && joint.damping == 0.0) || joint.num_coordinates() == 0) continue;
    LinearSpring s;
    s.joint = j;
    s.parent = joint.parent;
    s.child = joint.child;
    s.stiffness = joint.stiffness / system.mass_scale();
    s.damping = joint.damping / system.mass_scale();
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
  if (op.damped()) result.step_limit = damped_step_limit(op, x, result.step_limit);
  double most = -1.0;
  for (int b = 0; b < nb; ++b) {
    const double energy = op.energy(x, b);
    if (energy > most) {
      most = energy;
      result.body = b;
    }
  }
  // How much of that motion's stiffness x^T K x the springs give.
  double strongest = 0.0, springs_total = 0.0;
  for (const LinearSpring& s : op.springs()) {
    const double e = op.spring_energy(x, s);
    springs_total += e;
    if (e > strongest) {
      strongest = e;
      result.spring_joint = s.joint;
    }
  }
  const double total = op.stiffness_energy(x);
  result.spring_share = total > 0.0 ? std::clamp(springs_total / total, 0.0, 1.0) : 0.0;
  return result;
}

}  // namespace dynamics::detail
