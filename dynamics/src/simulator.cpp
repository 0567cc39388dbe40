// Newton's method on the variational integrator's step equations (see
// simulator.hpp). Unknowns and residuals use the rows of the graphsolve system:
// body b holds (v, w) in rows 6b..6b+5, a joint node holds its impulses.
#include "dynamics/simulator.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "joint_kinematics.hpp"
#include "mechanism_graph.hpp"

namespace dynamics {

using detail::JointEvaluation;
using detail::Pose;

const char* to_string(StepStatus status) {
  switch (status) {
    case StepStatus::Success: return "success";
    case StepStatus::NotConverged: return "not converged";
    case StepStatus::SolverFailure: return "solver failure";
    case StepStatus::InvalidInput: return "invalid input";
  }
  return "unknown";
}

struct Simulator::Impl {
  const Model& model;
  StepOptions options;
  detail::MechanismGraph mg;
  graphsolve::Symbolic symbolic;
  graphsolve::BlockMatrix matrix;
  graphsolve::Factorization lu;
  int nb, nj, dim;
  std::vector<int> joint_row;  // first row of each joint's impulses, -1 without constraints

  // Per step: configuration z_k, constant parts of the body residuals, G(z_k).
  std::vector<Pose> now;
  std::vector<Vector3> linear_known, angular_known;  // momentum from the past and forces over dt
  std::vector<JointEvaluation> joint_now;
  // Joint values and Jacobians at z_k+1 of the accepted and of the trial unknowns.
  std::vector<JointEvaluation> joint_next, trial_joint_next;
  // Per iteration: unknowns, trial unknowns, configuration z_k+1 they give.
  Eigen::VectorXd s, trial, residual, trial_residual, step;
  std::vector<Pose> next, trial_next;
  Eigen::VectorXd coordinates, rates;  // scratch for joint forces

  Impl(const Model& m, const StepOptions& o)
      : model(m),
        options(o),
        mg(detail::build_mechanism_graph(m)),
        symbolic(graphsolve::analyze(mg.graph)),
        matrix(symbolic),
        lu(symbolic),
        nb(m.num_bodies()),
        nj(m.num_joints()),
        dim(matrix.rows()) {
    joint_row.assign(nj, -1);
    for (int j = 0; j < nj; ++j)
      if (mg.joint_node[j] >= 0) joint_row[j] = symbolic.pattern().offset[mg.joint_node[j]];
    now.resize(nb);
    next.resize(nb);
    trial_next.resize(nb);
    linear_known.resize(nb);
    angular_known.resize(nb);
    joint_now.resize(nj);
    joint_next.resize(nj);
    trial_joint_next.resize(nj);
    for (Eigen::VectorXd* v : {&s, &trial, &residual, &trial_residual, &step}) v->setZero(dim);
    coordinates.setZero(m.num_coordinates());
    rates.setZero(m.num_coordinates());
  }

  double dt() const { return options.dt; }

  // Pose of a body or of the world in the current (k) or next (k+1) configuration.
  Pose pose(const std::vector<Pose>& poses, int body) const { return body == kWorld ? Pose{} : poses[body]; }

  void prepare(const State& state);
  void add_joint_forces(const State& state);
  bool predict(const Eigen::VectorXd& unknowns, std::vector<Pose>& poses) const;
  double evaluate(const Eigen::VectorXd& unknowns, const std::vector<Pose>& poses, Eigen::VectorXd& r,
                  std::vector<JointEvaluation>& joints, double& dynamics_error, double& constraint_error);
  void assemble(const Eigen::VectorXd& unknowns);
  StepResult solve(State& state);
};

void Simulator::Impl::prepare(const State& state) {
  const double h = dt();
  for (int b = 0; b < nb; ++b) {
    const Body& body = model.body(b);
    now[b] = Pose{state.position[b], state.orientation[b]};
    const Vector3& w = state.angular_velocity[b];
    const Vector3 jw = body.inertia * w;
    linear_known[b] = body.mass * state.velocity[b] + h * (body.mass * model.gravity + state.external_force[b]);
    angular_known[b] = 0.5 * h * (discrete_velocity_scalar(w, h) * jw - w.cross(jw)) + h * state.external_torque[b];
  }
  add_joint_forces(state);
  for (int j = 0; j < nj; ++j) {
    const Joint& joint = model.joint(j);
    detail::evaluate_joint(joint, mg.axes[j], pose(now, joint.parent), pose(now, joint.child), true, joint_now[j]);
  }
}

// Springs (at z_k: the variational discretization of their potential),
// dampers (on the last step's velocities) and actuation inputs, as a wrench
// along the joint's free axes on the child and its reaction on the parent.
void Simulator::Impl::add_joint_forces(const State& state) {
  const double h = dt();
  for (int j = 0; j < nj; ++j) {
    const Joint& joint = model.joint(j);
    const int n = joint.num_coordinates();
    if (n == 0) continue;
    const int o = model.coordinate_offset(j);
    const bool passive = joint.stiffness != 0.0 || joint.damping != 0.0;
    if (!passive && state.joint_input.segment(o, n).isZero(0.0)) continue;
    const detail::JointAxes& axes = mg.axes[j];
    const Pose p = pose(now, joint.parent), c = pose(now, joint.child);
    if (joint.stiffness != 0.0) detail::read_coordinates(joint, axes, p, c, coordinates.data() + o);
    if (joint.damping != 0.0) detail::read_rates(joint, axes, state, rates.data() + o);
    Vector3 force_local = Vector3::Zero(), torque_local = Vector3::Zero();
    for (int i = 0; i < n; ++i) {
      double f = state.joint_input(o + i);
      if (joint.stiffness != 0.0) f -= joint.stiffness * (coordinates(o + i) - (joint.rest.empty() ? 0.0 : joint.rest[i]));
      if (joint.damping != 0.0) f -= joint.damping * rates(o + i);
      if (i < axes.t_free) force_local += f * axes.translational_free.row(i).transpose();
      else torque_local += f * axes.rotational_free.row(i - axes.t_free).transpose();
    }
    const Quaternion frame_p = p.orientation * joint.parent_frame.orientation;
    const Quaternion frame_c = c.orientation * joint.child_frame.orientation;
    const Vector3 force = frame_p * force_local, torque = frame_c * torque_local;  // world
    const Vector3 point = c.position + c.orientation * joint.child_frame.position;  // where the force acts
    linear_known[joint.child] += h * force;
    angular_known[joint.child] += h * (c.orientation.conjugate() * ((point - c.position).cross(force) + torque));
    if (joint.parent != kWorld) {
      linear_known[joint.parent] -= h * force;
      angular_known[joint.parent] -= h * (p.orientation.conjugate() * ((point - p.position).cross(force) + torque));
    }
  }
}

bool Simulator::Impl::predict(const Eigen::VectorXd& u, std::vector<Pose>& poses) const {
  const double limit = 4.0 / (dt() * dt());
  for (int b = 0; b < nb; ++b) {
    const Vector3 w = u.segment<3>(6 * b + 3);
    if (!(w.squaredNorm() < limit)) return false;  // also rejects NaN
    poses[b].position = now[b].position + dt() * u.segment<3>(6 * b);
    poses[b].orientation = integrate_orientation(now[b].orientation, w, dt());
  }
  return true;
}

// Residual of the step equations at `u` (whose z_k+1 is `poses`); returns its
// 2-norm, the merit of the line search. The joints are evaluated with their
// Jacobians, so that assemble() can use them if this point is accepted.
double Simulator::Impl::evaluate(const Eigen::VectorXd& u, const std::vector<Pose>& poses, Eigen::VectorXd& r,
                                 std::vector<JointEvaluation>& joints, double& dynamics_error,
                                 double& constraint_error) {
  const double h = dt();
  for (int b = 0; b < nb; ++b) {
    const Body& body = model.body(b);
    const Vector3 v = u.segment<3>(6 * b), w = u.segment<3>(6 * b + 3);
    const Vector3 jw = body.inertia * w;
    r.segment<3>(6 * b) = body.mass * v - linear_known[b];
    r.segment<3>(6 * b + 3) = 0.5 * h * (discrete_velocity_scalar(w, h) * jw + w.cross(jw)) - angular_known[b];
  }
  constraint_error = 0.0;
  for (int j = 0; j < nj; ++j) {
    const int row = joint_row[j];
    if (row < 0) continue;
    const Joint& joint = model.joint(j);
    const int m = joint.num_constraints();
    const auto impulse = u.segment(row, m);
    const JointEvaluation& e = joint_now[j];
    r.segment<6>(6 * joint.child) -= e.child.topRows(m).transpose() * impulse;
    if (joint.parent != kWorld) r.segment<6>(6 * joint.parent) -= e.parent.topRows(m).transpose() * impulse;
    JointEvaluation& f = joints[j];
    detail::evaluate_joint(joint, mg.axes[j], pose(poses, joint.parent), pose(poses, joint.child), true, f);
    r.segment(row, m) = f.value.head(m) / h;
    constraint_error = std::max(constraint_error, f.value.head(m).lpNorm<Eigen::Infinity>());
  }
  dynamics_error = r.head(6 * nb).lpNorm<Eigen::Infinity>();
  return r.norm();
}

// d(rotational residual)/dw and d(q_k+1)/dw as a body-frame rotation: both
// follow from s(w) = sqrt(4/dt^2 - |w|^2).
void Simulator::Impl::assemble(const Eigen::VectorXd& u) {
  const double h = dt();
  for (int b = 0; b < nb; ++b) {
    const Body& body = model.body(b);
    const Vector3 w = u.segment<3>(6 * b + 3);
    const double sw = discrete_velocity_scalar(w, h);
    const Vector3 jw = body.inertia * w;
    auto d = matrix.diag(b);
    d.setZero();
    d.topLeftCorner<3, 3>().diagonal().setConstant(body.mass);
    d.bottomRightCorner<3, 3>() =
        0.5 * h * (sw * body.inertia - jw * w.transpose() / sw + skew(w) * body.inertia - skew(jw));
  }
  for (int j = 0; j < nj; ++j) {
    const int node = mg.joint_node[j];
    if (node < 0) continue;
    const Joint& joint = model.joint(j);
    const int m = joint.num_constraints();
    const JointEvaluation& f = joint_next[j];  // evaluated with the residual at this point
    matrix.diag(node).setZero();
    const auto write = [&](int body, const detail::Jacobian6& now_jac, const detail::Jacobian6& next_jac) {
      const Vector3 w = u.segment<3>(6 * body + 3);
      const double sw = discrete_velocity_scalar(w, h);
      // q_k+1 = q_k * dt/2 [s; w]: a change dw turns q_k+1 by phi dw (body frame).
      const Matrix3 phi = 0.5 * h * h * (sw * Matrix3::Identity() + w * w.transpose() / sw - skew(w));
      matrix.block(body, node) = -now_jac.topRows(m).transpose();
      auto rows = matrix.block(node, body);
      rows.leftCols<3>() = next_jac.block(0, 0, m, 3);
      rows.rightCols<3>() = next_jac.block(0, 3, m, 3) * phi / h;
    };
    write(joint.child, joint_now[j].child, f.child);
    if (joint.parent != kWorld) write(joint.parent, joint_now[j].parent, f.parent);
  }
}

StepResult Simulator::Impl::solve(State& state) {
  StepResult result;
  const double tol = options.tolerance;
  // Warm start: last velocities and impulses.
  for (int b = 0; b < nb; ++b) {
    s.segment<3>(6 * b) = state.velocity[b];
    s.segment<3>(6 * b + 3) = state.angular_velocity[b];
  }
  const bool warm = state.multipliers.size() == dim && state.multipliers.allFinite();
  for (int j = 0; j < nj; ++j) {
    const int row = joint_row[j];
    if (row < 0) continue;
    const int m = model.joint(j).num_constraints();
    if (warm) s.segment(row, m) = state.multipliers.segment(row, m);
    else s.segment(row, m).setZero();
  }
  if (!predict(s, next)) {
    result.status = StepStatus::InvalidInput;
    return result;
  }
  double dyn_err = 0.0, con_err = 0.0;
  double merit = evaluate(s, next, residual, joint_next, dyn_err, con_err);
  graphsolve::FactorOptions factor_options;
  factor_options.constraint_shift = -options.regularization;
  while (!(dyn_err <= tol && con_err <= tol)) {
    if (!std::isfinite(merit)) {
      result.status = StepStatus::InvalidInput;
      break;
    }
    if (result.iterations == options.max_iterations) {
      result.status = StepStatus::NotConverged;
      break;
    }
    ++result.iterations;
    assemble(s);
    if (lu.factorize(matrix, factor_options) != graphsolve::Status::Success) {
      result.status = StepStatus::SolverFailure;
      const int node = lu.failed_node();
      if (node >= 0 && node < nb) result.failed_body = node;
      for (int j = 0; j < nj && node >= nb; ++j)
        if (mg.joint_node[j] == node) result.failed_joint = j;
      break;
    }
    step = -residual;
    lu.solve_in_place(step);
    // Backtracking on the residual norm; steps that would spin a body past
    // |w| = 2/dt (where the quaternion update breaks down) are shortened too.
    double alpha = 1.0, trial_merit = merit, trial_dyn = dyn_err, trial_con = con_err;
    bool accepted = false, evaluated = false;  // `evaluated`: the trial_* buffers describe `trial`
    for (int k = 0; k <= options.max_line_search; ++k, alpha *= 0.5) {
      trial = s + alpha * step;
      evaluated = predict(trial, trial_next);
      if (!evaluated) continue;
      trial_merit = evaluate(trial, trial_next, trial_residual, trial_joint_next, trial_dyn, trial_con);
      if (trial_merit < (1.0 - 1e-4 * alpha) * merit) {
        accepted = true;
        break;
      }
    }
    if (!accepted && !(evaluated && trial_merit < merit)) {
      // Not even the shortest step lowers the residual: give up with the
      // residual we have (the state is left unchanged).
      result.status = StepStatus::NotConverged;
      break;
    }
    s.swap(trial);
    residual.swap(trial_residual);
    next.swap(trial_next);
    joint_next.swap(trial_joint_next);
    merit = trial_merit;
    dyn_err = trial_dyn;
    con_err = trial_con;
  }
  result.residual = dyn_err;
  result.constraint_residual = con_err;
  if (result.status != StepStatus::Success) return result;
  for (int b = 0; b < nb; ++b) {
    state.position[b] = next[b].position;
    state.orientation[b] = next[b].orientation;
    state.velocity[b] = s.segment<3>(6 * b);
    state.angular_velocity[b] = s.segment<3>(6 * b + 3);
  }
  state.multipliers = s;
  state.time += dt();
  ++state.steps;
  return result;
}

Simulator::Simulator(const Model& model, const StepOptions& options) {
  if (model.num_bodies() == 0) throw std::invalid_argument("dynamics::Simulator: the model has no bodies");
  if (!(options.dt > 0.0) || !std::isfinite(options.dt))
    throw std::invalid_argument("dynamics::Simulator: dt must be positive, got " + std::to_string(options.dt));
  if (!(options.tolerance > 0.0))
    throw std::invalid_argument("dynamics::Simulator: tolerance must be positive, got " +
                                std::to_string(options.tolerance));
  if (options.max_iterations < 1) throw std::invalid_argument("dynamics::Simulator: max_iterations must be >= 1");
  if (options.max_line_search < 0) throw std::invalid_argument("dynamics::Simulator: max_line_search must be >= 0");
  if (!(options.regularization >= 0.0))
    throw std::invalid_argument("dynamics::Simulator: regularization must be >= 0");
  impl_ = std::make_unique<Impl>(model, options);
}

Simulator::~Simulator() = default;
Simulator::Simulator(Simulator&&) noexcept = default;

StepResult Simulator::step(State& state) {
  check_state(impl_->model, state);
  for (int b = 0; b < impl_->nb; ++b) {
    if (!state.position[b].allFinite() || !state.orientation[b].coeffs().allFinite() ||
        !state.velocity[b].allFinite() || !state.angular_velocity[b].allFinite() ||
        !state.external_force[b].allFinite() || !state.external_torque[b].allFinite()) {
      StepResult r;
      r.status = StepStatus::InvalidInput;
      r.failed_body = b;
      return r;
    }
  }
  if (!state.joint_input.allFinite()) {
    StepResult r;
    r.status = StepStatus::InvalidInput;
    return r;
  }
  impl_->prepare(state);
  return impl_->solve(state);
}

const Model& Simulator::model() const { return impl_->model; }
const StepOptions& Simulator::options() const { return impl_->options; }
long Simulator::fill_blocks() const { return impl_->symbolic.stats().fill_blocks; }
int Simulator::graph_nodes() const { return impl_->mg.graph.num_nodes(); }

}  // namespace dynamics
