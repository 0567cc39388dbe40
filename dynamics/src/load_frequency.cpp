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
// force into the W-closest motion that keeps them closed. Contacts and joint
// limits that the last step held (HeldRow) join that system as one-row
// constraint nodes, so a spring that only presses a body against another,
// as a gripper's finger spring squeezes a cube, stiffens no allowed motion.
//
// With dampers, the step W (v' - v) = -h K q - h C v', q' = q + h v' has
// q_k = lambda^k x with (W + hC) lambda^2 - (2W + hC - h^2 K) lambda + W = 0.
// A motion that K stiffens leaves the unit circle through lambda = -1, where
// h^2 K - 2 h C - 4 W is singular (a lone spring: h = 2 (zeta + sqrt(1 +
// zeta^2)) / omega). The limit is the smallest h where the largest nu of
//   (h^2 / 4) K x = nu (W + (h / 2) C) x,   G x = 0
// reaches 1: the same Lanczos with the damper in the metric, whose spectrum
// keeps the stiff end apart as the undamped one does (with C on the left
// instead, the dampers' large negative eigenvalues squeezed the top: a
// heavily damped chain needed 100 restarts per estimate). nu(h), a maximum
// of functions h^2 a / (4 + 2 h c) convex in h that vanish at h = 0, is
// convex with nu(0) = 0: it crosses 1 once, the tangent from below lands
// above the crossing, and Newton's steps from above descend to it
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
// The constraint rows' regularization (redundant loops) and the bound it
// grows to where a pivot fails: the steps' defaults.
const StepOptions kSteps;
constexpr int kRefinement = 2;             // rounds against the unregularized system (below)
constexpr double kNoise = 1e-10;           // what that leaves of omega^2, relative to the largest body's alone
constexpr int kMaxBracketing = 60;         // steps towards the damped limit from below
constexpr int kMaxNewton = 50;

void add_lever_stiffness(const Vector3& force, const Vector3& arm, Matrix3& k) {
  k += force.dot(arm) * Matrix3::Identity() - 0.5 * (arm * force.transpose() + force * arm.transpose());
}

}  // namespace

// The estimator's storage types are named outside the anonymous namespace:
// LoadEstimator::Workspace, declared in the header, holds them, and GCC warns
// when such a type has members of internal linkage (-Wsubobject-linkage, in a
// unity build, where this file is not the main one).
namespace load_estimation {

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
// B-closest motion that keeps the joints closed to B^-1 a K x, self-adjoint
// in the B inner product on those motions, with B = W + b C. a = 1, b = 0
// (B = W) unless set_step() chooses the damped step's pencil. Its storage
// (one block per body, one spring per sprung joint) is sized once; each
// estimate writes a state's stiffness and spring rates into it.
class LoadedMotion {
 public:
  LoadedMotion(ConstraintSystem& system, int bodies, std::vector<LinearSpring> springs)
      : system_(system), weight_(bodies), stiffness_(bodies), springs_(std::move(springs)) {
    for (int b = 0; b < bodies; ++b) weight_[b] = system_.weight(b);
  }

  int size() const { return 6 * static_cast<int>(weight_.size()); }

  // Per body: rotational stiffness in its body frame, over the mass scale as
  // W is; and the springs, whose rates the caller sets for the state.
  std::vector<Matrix3>& stiffness() { return stiffness_; }
  std::vector<LinearSpring>& springs() { return springs_; }
  const std::vector<LinearSpring>& springs() const { return springs_; }
  const Matrix6& weight(int b) const { return weight_[b]; }

  // Back to B = W for an estimate of a new state: the damped blocks that an
  // earlier estimate's set_step() wrote are cleared (the system's assemble
  // sets only the bodies' own blocks).
  void reset() {
    stiffness_factor_ = 1.0;
    metric_damping_ = 0.0;
    clear_damper_blocks();
  }

  // a = h^2 / 4, b = h / 2: the pencil whose largest eigenvalue reaches 1 at
  // the limit h. Writes B into the system's body blocks and refactorizes it.
  void set_step(double h) {
    stiffness_factor_ = 0.25 * h * h;
    metric_damping_ = 0.5 * h;
    for (std::size_t b = 0; b < weight_.size(); ++b) system_.body_block(b, b) = weight_[b];
    clear_damper_blocks();
    for (const LinearSpring& s : springs_) {
      if (!(s.damping > 0.0)) continue;
      const double c = metric_damping_ * s.damping;
      system_.body_block(s.child, s.child) += c * s.rates.child.transpose() * s.rates.child;
      if (s.parent < 0) continue;
      system_.body_block(s.parent, s.parent) += c * s.rates.parent.transpose() * s.rates.parent;
      system_.body_block(s.parent, s.child) += c * s.rates.parent.transpose() * s.rates.child;
      system_.body_block(s.child, s.parent) += c * s.rates.child.transpose() * s.rates.parent;
    }
    factorize();
  }
  bool damped() const {
    return std::any_of(springs_.begin(), springs_.end(), [](const LinearSpring& s) { return s.damping > 0.0; });
  }

  void factorize() {
    if (system_.factorize_regularized(kSteps.regularization, kSteps.max_regularization) < 0.0)
      throw std::runtime_error("dynamics: loaded-frequency estimate: the constraint system cannot be factorized (" +
                               system_.failure() + ")");
  }

  // The B inner product.
  double dot(const Eigen::Ref<const Eigen::VectorXd>& a, const Eigen::Ref<const Eigen::VectorXd>& b) {
    metric_scratch_.resize(size());
    metric(b, metric_scratch_);
    return a.dot(metric_scratch_);
  }

  // out = B x.
  void metric(const Eigen::Ref<const Eigen::VectorXd>& x, Eigen::Ref<Eigen::VectorXd> out) const {
    for (std::size_t i = 0; i < weight_.size(); ++i) out.segment<6>(6 * i) = weight_[i] * x.segment<6>(6 * i);
    if (!(metric_damping_ > 0.0)) return;
    for (const LinearSpring& s : springs_)
      if (s.damping > 0.0) add_joint_force(s, metric_damping_ * s.damping * joint_rates(x, s), out);
  }

  void apply(const Eigen::Ref<const Eigen::VectorXd>& x, Eigen::VectorXd& out) {
    rows_.setZero(system_.rows());
    for (std::size_t i = 0; i < weight_.size(); ++i)
      rows_.segment<3>(6 * i + 3) = stiffness_factor_ * (stiffness_[i] * x.segment<3>(6 * i + 3));
    for (const LinearSpring& s : springs_)
      if (s.stiffness != 0.0) add_joint_force(s, stiffness_factor_ * s.stiffness * joint_rates(x, s), rows_);
    solve(out);
  }

  // The B-closest motion to x that keeps the joints closed.
  void project(Eigen::VectorXd& x) {
    rows_.setZero(system_.rows());
    metric(x, rows_.head(size()));
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

 private:
  void clear_damper_blocks() {
    for (const LinearSpring& s : springs_)
      if (s.damping > 0.0 && s.parent >= 0) {
        system_.body_block(s.parent, s.child).setZero();
        system_.body_block(s.child, s.parent).setZero();
      }
  }

  // Body rows of a force in the joint's coordinates (R^T f on both bodies).
  template <typename Rows>
  static void add_joint_force(const LinearSpring& s, const Eigen::Matrix<double, 6, 1>& f, Rows&& rows) {
    rows.template segment<6>(6 * s.child) += s.rates.child.transpose() * f;
    if (s.parent >= 0) rows.template segment<6>(6 * s.parent) += s.rates.parent.transpose() * f;
  }

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
  double stiffness_factor_ = 1.0, metric_damping_ = 0.0;
  Eigen::VectorXd rows_, metric_scratch_;
};

// Restarted Lanczos' storage: the basis, B times it and the operator's image
// of it (n x kKrylovSize each), and the Ritz problem, whose size is bounded
// at compile time (no heap).
using RitzMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kKrylovSize, kKrylovSize>;
struct Krylov {
  explicit Krylov(int n) : basis(n, kKrylovSize), metric(n, kKrylovSize), image(n, kKrylovSize), w(n) {}
  Eigen::MatrixXd basis, metric, image;
  Eigen::VectorXd w;
  RitzMatrix projected;
  Eigen::SelfAdjointEigenSolver<RitzMatrix> ritz;
};

}  // namespace load_estimation

namespace {

using load_estimation::Krylov;
using load_estimation::LinearSpring;
using load_estimation::LoadedMotion;
using load_estimation::RitzMatrix;

// Largest eigenvalue of the operator and its eigenvector (B-normalized),
// starting from `x`; false when no allowed motion is left from it. Each new
// direction is projected onto the allowed motions again: orthogonalizing
// cancels most of a vector, and what the regularized solves let open (about
// 1e-10 of it) would otherwise grow into directions that open the joints.
bool largest_eigenpair(LoadedMotion& op, Krylov& k, Eigen::VectorXd& x, double& value) {
  // k.metric: B times each basis vector, so that the B inner products of the
  // orthogonalization and of the Ritz matrix are plain dot products.
  Eigen::VectorXd& w = k.w;
  w = x;
  op.project(w);
  double previous = std::numeric_limits<double>::quiet_NaN();
  for (int restart = 0; restart < kMaxRestarts; ++restart) {
    double norm = std::sqrt(op.dot(w, w));
    if (!(norm > 0.0)) return false;
    int size = 0;
    while (true) {
      k.basis.col(size) = w / norm;
      op.metric(k.basis.col(size), k.metric.col(size));
      op.apply(k.basis.col(size), w);
      k.image.col(size) = w;
      ++size;
      if (size == kKrylovSize) break;
      // Classical Gram-Schmidt, twice: round-off in one pass leaves what the next removes.
      const double scale = std::sqrt(op.dot(w, w));
      for (int pass = 0; pass < 2; ++pass)
        for (int i = 0; i < size; ++i) w -= k.metric.col(i).dot(w) * k.basis.col(i);
      op.project(w);
      norm = std::sqrt(op.dot(w, w));
      if (!(norm > 1e-8 * scale)) break;  // the space is invariant (to the regularization's noise)
    }
    k.projected.resize(size, size);
    for (int i = 0; i < size; ++i)
      for (int j = 0; j < size; ++j) k.projected(i, j) = k.metric.col(i).dot(k.image.col(j));
    k.ritz.compute(0.5 * (k.projected + k.projected.transpose()));
    value = k.ritz.eigenvalues()(size - 1);
    x.noalias() = k.basis.leftCols(size) * k.ritz.eigenvectors().col(size - 1);
    x /= std::sqrt(op.dot(x, x));
    if (std::abs(value - previous) <= kConverged * std::abs(value)) break;
    previous = value;
    w = x;
  }
  return true;
}

// The smallest h where the largest eigenvalue nu(h) of (h^2 / 4) K over
// W + (h / 2) C reaches 1 (see the top of the file), from `undamped` =
// 2 / omega, which no damper shortens; `x` ends as that motion (`motion`:
// scratch of its size). From below the crossing, the convex nu's tangent
// lands at or above it; from above, Newton's steps descend to it. Each
// evaluation factorizes B and runs Lanczos from the last motion.
double damped_step_limit(LoadedMotion& op, Krylov& k, Eigen::VectorXd& x, Eigen::VectorXd& motion,
                         double undamped) {
  const auto largest = [&](double h) {
    op.set_step(h);
    double nu = 0.0;
    if (!largest_eigenpair(op, k, x, nu)) nu = 0.0;
    return nu;
  };
  // nu'(h) = x^T ((h / 2) K - (nu / 2) C) x for the B-normalized motion x.
  const auto slope = [&](double h, double nu) {
    return 0.5 * (h * op.stiffness_energy(x) - nu * op.damping_energy(x));
  };
  double h = undamped, nu = largest(h);
  if (nu >= 1.0 - kConverged) return undamped;  // no damper moves in the fastest motion
  for (int step = 0; nu < 1.0; ++step) {
    if (step == kMaxBracketing) return std::numeric_limits<double>::infinity();
    const double s = slope(h, nu);
    const double tangent = s > 0.0 ? h + (1.0 - nu) / s : 2.0 * h;
    h = std::isfinite(tangent) ? std::max(tangent, (1.0 + kConverged) * h) : 2.0 * h;
    nu = largest(h);
  }
  motion = x;  // at h
  for (int iteration = 0; iteration < kMaxNewton; ++iteration) {
    const double s = slope(h, nu);
    if (!(s > 0.0)) break;
    const double next = h - (nu - 1.0) / s;
    if (!(next < h) || h - next <= kConverged * h) break;
    const double next_nu = largest(next);
    if (next_nu < 1.0) break;  // past the crossing by the Lanczos accuracy: h is as close
    h = next;
    nu = next_nu;
    motion = x;
  }
  x = motion;
  return h;
}

// The springs of a model: one per joint with a spring or a damper (and
// coordinates to carry it); their rates depend on the state.
std::vector<LinearSpring> model_springs(const Model& model, double mass_scale) {
  std::vector<LinearSpring> springs;
  for (int j = 0; j < model.num_joints(); ++j) {
    const Joint& joint = model.joint(j);
    if ((joint.stiffness == 0.0 && joint.damping == 0.0) || joint.num_coordinates() == 0) continue;
    LinearSpring s;
    s.joint = j;
    s.parent = joint.parent;
    s.child = joint.child;
    s.stiffness = joint.stiffness / mass_scale;
    s.damping = joint.damping / mass_scale;
    springs.push_back(s);
  }
  return springs;
}

}  // namespace

struct LoadEstimator::Workspace {
  Workspace(const Model& model, const std::vector<HeldRow>& held)
      : system(model, /*damper_edges=*/true, held),
        op(system, model.num_bodies(), model_springs(model, system.mass_scale())),
        krylov(op.size()),
        alone(model.num_bodies()),
        x(op.size()),
        motion(op.size()) {}
  ConstraintSystem system;
  load_estimation::LoadedMotion op;
  load_estimation::Krylov krylov;
  std::vector<Matrix6> alone;  // each body's stiffness with the others held still
  Eigen::VectorXd g, x, motion;
};

LoadEstimator::LoadEstimator(const Model& model) : model_(model) {}
LoadEstimator::~LoadEstimator() = default;

LoadFrequency LoadEstimator::estimate(const State& state, const std::vector<Vector3>& child_force,
                                      const std::vector<HeldRow>& held) {
  // Other held rows than the last estimate's make another graph.
  if (!workspace_ || !workspace_->system.fits(held)) workspace_ = std::make_unique<Workspace>(model_, held);
  Workspace& ws = *workspace_;
  ws.system.set_held(held);
  LoadedMotion& op = ws.op;
  const int nb = model_.num_bodies();
  std::vector<Matrix3>& stiffness = op.stiffness();
  for (Matrix3& k : stiffness) k.setZero();
  for (int j = 0; j < model_.num_joints(); ++j) {
    const Joint& joint = model_.joint(j);
    const Vector3& f = child_force[j];
    if (f.isZero(0.0)) continue;
    add_lever_stiffness(f, state.orientation[joint.child] * joint.child_frame.position, stiffness[joint.child]);
    if (joint.parent != kWorld)
      add_lever_stiffness(-f, state.orientation[joint.parent] * joint.parent_frame.position, stiffness[joint.parent]);
  }
  for (int b = 0; b < nb; ++b) {
    const Matrix3 rotation = state.orientation[b].toRotationMatrix();
    stiffness[b] = rotation.transpose() * stiffness[b] * rotation / ws.system.mass_scale();
  }
  for (LinearSpring& s : op.springs()) {
    const Joint& joint = model_.joint(s.joint);
    s.rates = rate_jacobian(joint, joint_axes(joint), body_pose(state, joint.parent), body_pose(state, joint.child));
  }
  // Each body alone (the others held still) gives a scale for the
  // spectrum: without a body stiffened alone, no motion is.
  for (int b = 0; b < nb; ++b) {
    ws.alone[b].setZero();
    ws.alone[b].bottomRightCorner<3, 3>() = stiffness[b];
  }
  for (const LinearSpring& s : op.springs()) {
    ws.alone[s.child] += s.stiffness * s.rates.child.transpose() * s.rates.child;
    if (s.parent >= 0) ws.alone[s.parent] += s.stiffness * s.rates.parent.transpose() * s.rates.parent;
  }
  double largest_alone = 0.0;
  for (int b = 0; b < nb; ++b) {
    if (ws.alone[b].isZero(0.0)) continue;
    // In the Ritz solver's matrix type (at most 24 x 24 on the stack): the
    // compiler then builds one eigensolver, not a second one for 6 x 6 (8 s
    // of this file's compile), and nothing here runs at every step.
    const RitzMatrix alone = ws.alone[b], weight = op.weight(b);
    Eigen::GeneralizedSelfAdjointEigenSolver<RitzMatrix> solver(alone, weight, Eigen::EigenvaluesOnly);
    largest_alone = std::max(largest_alone, solver.eigenvalues()(5));
  }
  LoadFrequency result;
  if (!(largest_alone > 0.0)) return result;  // no load stiffens any body

  ws.system.assemble(state, ws.g);
  op.reset();
  op.factorize();
  // A start with every body moving and turning, deterministic (a fixed-seed sequence).
  Eigen::VectorXd& x = ws.x;
  unsigned seed = 12345u;
  for (int i = 0; i < x.size(); ++i) {
    seed = seed * 1664525u + 1013904223u;
    x(i) = static_cast<double>(seed >> 8) / static_cast<double>(1u << 24) - 0.5;
  }
  double value = 0.0;
  if (!largest_eigenpair(op, ws.krylov, x, value)) return result;  // the loads stiffen no motion the joints allow
  // Compression only (a physical instability, no limit on dt), or loads only
  // on motions the joints forbid, which leaves the regularization's noise.
  if (!(value > kNoise * largest_alone)) return result;
  result.rate = std::sqrt(value);
  result.step_limit = 2.0 / result.rate;
  if (op.damped()) result.step_limit = damped_step_limit(op, ws.krylov, x, ws.motion, result.step_limit);
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
  const double total = springs_total + op.lever_energy(x);
  result.spring_share = total > 0.0 ? std::clamp(springs_total / total, 0.0, 1.0) : 0.0;
  return result;
}

LoadFrequency load_frequency(const Model& model, const State& state, const std::vector<Vector3>& child_force,
                             const std::vector<HeldRow>& held) {
  return LoadEstimator(model).estimate(state, child_force, held);
}

}  // namespace dynamics::detail
