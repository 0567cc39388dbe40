// The step equations of the variational integrator at given unknowns: their
// residual (body momenta, joint constraints over dt) and their Newton matrix,
// written into the graphsolve blocks. Unknowns and residuals use the rows of
// the graphsolve system: body b holds (v, w) in rows 6b..6b+5, a joint node
// holds its impulses.

#include <cmath>
#include <vector>

#include "dynamics/quaternion.hpp"
#include "simulator_impl.hpp"

namespace dynamics {

namespace {
// Bit for bit: an evaluation at `b` serves `a` only if it is the same point.
bool same_poses(const std::vector<detail::Pose>& a, const std::vector<detail::Pose>& b) {
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].position != b[i].position || a[i].orientation.coeffs() != b[i].orientation.coeffs()) return false;
  return a.size() == b.size();
}
}  // namespace

void Simulator::Impl::prepare(const State& state) {
  const double h = dt();
  for (int b = 0; b < nb; ++b) {
    now[b] = Pose{state.position[b], state.orientation[b]};
  }
  angles_now.assign(state.joint_angles.begin(), state.joint_angles.end());
  update_contacts(state);
  for (int b = 0; b < nb; ++b) {
    const Body& body = model.body(b);
    const Vector3& w = state.angular_velocity[b];
    const Vector3 jw = body.inertia * w;
    linear_known[b] = body.mass * state.velocity[b] + h * (body.mass * model.gravity + state.external_force[b]);
    angular_known[b] = 0.5 * h * (discrete_velocity_scalar(w, h) * jw - w.cross(jw)) + h * state.external_torque[b];
  }
  add_joint_forces(state);
  // A step that continues from the last one's end finds its joints evaluated
  // there (joint_next_ends_step): a third of a joint chain's evaluations.
  const bool continues = joint_next_ends_step && same_poses(now, next);
  joint_next_ends_step = false;
  if (continues) joint_now.swap(joint_next);
  for (int j = 0; j < nj; ++j) {
    if (continues && joint_row[j] >= 0) continue;
    const Joint& joint = model.joint(j);
    detail::evaluate_joint(joint, mg.axes[j], pose(now, joint.parent), pose(now, joint.child), true, joint_now[j]);
  }
  for (int j : damped_joints) {
    const Joint& joint = model.joint(j);
    damper_rates[j] = detail::rate_jacobian(joint, mg.axes[j], pose(now, joint.parent), pose(now, joint.child));
  }
  for (int c = 0; c < nc; ++c)
    detail::evaluate_coupling(model, mg.axes, model.coupling(c), mg.coupling_bodies[c], now, angles_now,
                              coupling_now[c]);
  aim_rims(state);
  if (!ineq.empty()) ineq.prepare(now, angles_now, joint_now);
}

// Each rim keeps, for the step, the side on which it is lowest at z_k: for a
// rim rolling or steering, the lowest side at z_k+1 too. A rim whose tilt
// turns (a coin wobbling down) drifts from its lowest side within the step by
// the turn; predicting that side from the current rate was tried and made the
// interior-point iteration stall on some wobbling coins.
void Simulator::Impl::aim_rims(const State& state) {
  for (int c : rim_contacts) {
    const Contact& contact = model.contact(c);
    const Quaternion& q = state.orientation[contact.body];
    sites[c].rim_side = q * rim_offset(contact, q) / contact.rim_radius;
  }
}

// Springs (at z_k: the variational discretization of their potential) and
// actuation inputs, as a wrench along the joint's free axes on the child and
// its reaction on the parent. Dampers act on the new velocities (add_damping).
void Simulator::Impl::add_joint_forces(const State& state) {
  const double h = dt();
  for (int j = 0; j < nj; ++j) {
    const Joint& joint = model.joint(j);
    const int n = joint.num_coordinates();
    if (n == 0) continue;
    const int o = model.coordinate_offset(j);
    if (joint.stiffness == 0.0 && state.joint_input.segment(o, n).isZero(0.0)) continue;
    const detail::JointAxes& axes = mg.axes[j];
    const Pose p = pose(now, joint.parent), c = pose(now, joint.child);
    double stretch[6], twist = 0.0;
    if (joint.stiffness != 0.0) {
      detail::read_coordinates(joint, axes, p, c, coordinates.data() + o, angles_now[j]);
      detail::spring_stretches(joint, axes, coordinates.data() + o, stretch, &twist);
    }
    Vector3 force_local = Vector3::Zero();
    Vector3 torque_local = -joint.stiffness * twist * joint.axis;  // see spring_stretches
    for (int i = 0; i < n; ++i) {
      double f = state.joint_input(o + i);
      if (joint.stiffness != 0.0) f -= joint.stiffness * stretch[i];
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

// The joint rates of velocities u, through the rate map at z_k (rows past
// the joint's coordinates are zero).
Eigen::Matrix<double, 6, 1> Simulator::Impl::joint_rates(int j, const Eigen::VectorXd& u) const {
  const Joint& joint = model.joint(j);
  const detail::RateJacobian& d = damper_rates[j];
  Eigen::Matrix<double, 6, 1> rates = d.child * u.segment<6>(6 * joint.child);
  if (joint.parent != kWorld) rates += d.parent * u.segment<6>(6 * joint.parent);
  return rates;
}

// Dampers and joint friction are implicit: the force -damping * rate -
// friction * tanh(rate / v_f) acts over the step with the rates of the new
// velocities u (read at z_k: backward Euler in them, stable at any damping *
// dt, and friction that opposes the motion it ends).
void Simulator::Impl::add_damping(const Eigen::VectorXd& u, Eigen::VectorXd& r) const {
  const double friction_velocity = options.joint_friction_velocity;
  for (int j : damped_joints) {
    const Joint& joint = model.joint(j);
    const detail::RateJacobian& d = damper_rates[j];
    const Eigen::Matrix<double, 6, 1> rates = joint_rates(j, u);
    Eigen::Matrix<double, 6, 1> impulse = (dt() * joint.damping) * rates;  // negated
    if (joint.friction != 0.0)
      impulse += (dt() * joint.friction) * (rates / friction_velocity).array().tanh().matrix();
    r.segment<6>(6 * joint.child) += d.child.transpose() * impulse;
    if (joint.parent != kWorld) r.segment<6>(6 * joint.parent) += d.parent.transpose() * impulse;
  }
}

// Their share of the Newton matrix at u: dt * D^T W D over the joint's bodies
// (after the body blocks are written), W = damping + the friction's slope
// friction / v_f (1 - tanh^2(rate / v_f)) per rate.
void Simulator::Impl::assemble_damping(const Eigen::VectorXd& u) {
  for (int j : damped_joints)  // zeroed first: two dampers may share a pair of bodies
    if (model.joint(j).parent != kWorld) {
      Eigen::Map<detail::Jacobian6>(blocks.joints[j].child_parent).setZero();
      Eigen::Map<detail::Jacobian6>(blocks.joints[j].parent_child).setZero();
    }
  const double friction_velocity = options.joint_friction_velocity;
  for (int j : damped_joints) {
    const Joint& joint = model.joint(j);
    const detail::RateJacobian& d = damper_rates[j];
    if (joint.friction == 0.0) {  // one weight for every rate
      const double scale = dt() * joint.damping;
      matrix.diag(joint.child) += scale * d.child.transpose() * d.child;
      if (joint.parent == kWorld) continue;
      matrix.diag(joint.parent) += scale * d.parent.transpose() * d.parent;
      Eigen::Map<detail::Jacobian6>(blocks.joints[j].child_parent) += scale * d.child.transpose() * d.parent;
      Eigen::Map<detail::Jacobian6>(blocks.joints[j].parent_child) += scale * d.parent.transpose() * d.child;
      continue;
    }
    const Eigen::Array<double, 6, 1> t = (joint_rates(j, u) / friction_velocity).array().tanh();
    const Eigen::Matrix<double, 6, 1> weight =
        dt() * (joint.damping + joint.friction / friction_velocity * (1.0 - t * t)).matrix();
    const detail::Jacobian6 weighted_child = weight.asDiagonal() * d.child;
    matrix.diag(joint.child) += d.child.transpose() * weighted_child;
    if (joint.parent == kWorld) continue;
    const detail::Jacobian6 weighted_parent = weight.asDiagonal() * d.parent;
    matrix.diag(joint.parent) += d.parent.transpose() * weighted_parent;
    Eigen::Map<detail::Jacobian6>(blocks.joints[j].child_parent) += d.child.transpose() * weighted_parent;
    Eigen::Map<detail::Jacobian6>(blocks.joints[j].parent_child) += d.parent.transpose() * weighted_child;
  }
}

// The configuration z_k+1 that velocities `u` reach; false if they turn a
// body by a quarter turn or more (|w| dt >= sqrt(2)). A step's rotational
// momentum, J sin(psi) / dt for a turn psi, peaks at a quarter turn: past it
// lies a second solution of the step equations, a faster spin carrying less
// momentum, that no smaller step approaches. A stiff spring turning its link
// 0.7 rad per step, well within that, once led Newton there (the link flung
// from -0.3 to 2.1 rad in one step), and a braking torque spun a ball up
// there. Restricted to the first branch, Newton finds the physical solution
// or none, and a failed step retries as sub-steps.
bool Simulator::Impl::predict(const Eigen::VectorXd& u, std::vector<Pose>& poses) const {
  for (int b = 0; b < nb; ++b) {
    const Vector3 w = u.segment<3>(6 * b + 3);
    if (!turns_within_a_quarter(w, dt())) return false;
    poses[b].position = now[b].position + dt() * u.segment<3>(6 * b);
    poses[b].orientation = integrate_orientation(now[b].orientation, w, dt());
  }
  return true;
}

// Residual of the step equations at `u` (whose z_k+1 is `poses`) and, with
// inequalities, of their slack equations at `aux`; returns the squared 2-norm
// of all equation residuals. With `jacobians` the joints are evaluated with
// their Jacobians, so that assemble() can use them if this point is accepted.
double Simulator::Impl::evaluate(const Eigen::VectorXd& u, const Eigen::VectorXd& slack,
                                 const std::vector<Pose>& poses, Eigen::VectorXd& r,
                                 std::vector<JointEvaluation>& joints,
                                 std::vector<detail::CouplingEvaluation>& coupled, detail::InequalityPoint& point,
                                 Errors& errors, bool jacobians) {
  const double h = dt();
  for (int b = 0; b < nb; ++b) {
    const Body& body = model.body(b);
    const Vector3 v = u.segment<3>(6 * b), w = u.segment<3>(6 * b + 3);
    const Vector3 jw = body.inertia * w;
    r.segment<3>(6 * b) = body.mass * v - linear_known[b];
    r.segment<3>(6 * b + 3) = 0.5 * h * (discrete_velocity_scalar(w, h) * jw + w.cross(jw)) - angular_known[b];
  }
  add_damping(u, r);
  errors.constraint = 0.0;
  for (int j = 0; j < nj; ++j) {
    const int row = joint_row[j];
    if (row < 0) continue;
    const Joint& joint = model.joint(j);
    const int m = joint.num_constraints();
    add_joint_impulse(j, u, -1.0, r);
    JointEvaluation& f = joints[j];
    detail::evaluate_joint(joint, mg.axes[j], pose(poses, joint.parent), pose(poses, joint.child), jacobians, f);
    detail::with_constraint_rows(m, [&](auto rows) {
      constexpr int M = decltype(rows)::value;
      r.segment<M>(row) = f.value.head<M>() / h;
      // Not std::max: a NaN (an overflowed configuration) must show, not be skipped.
      const double violation = f.value.head<M>().template lpNorm<Eigen::Infinity>();
      if (!(violation <= errors.constraint)) errors.constraint = violation;
    });
  }
  // Couplings are few: their Jacobian rows come with every evaluation.
  for (int c = 0; c < nc; ++c) {
    add_coupling_impulse(c, u, -1.0, r);
    detail::CouplingEvaluation& f = coupled[c];
    detail::evaluate_coupling(model, mg.axes, model.coupling(c), mg.coupling_bodies[c], poses, angles_now, f);
    r(coupling_row[c]) = f.value / h;
    const double violation = std::abs(f.value);
    if (!(violation <= errors.constraint)) errors.constraint = violation;
  }
  if (ineq.holding_limits()) {  // their rows are constraint rows, (gap - inside) / dt
    const double gap = ineq.evaluate_held(u, poses, joints, r, point);
    if (!(gap <= errors.constraint)) errors.constraint = gap;
  }
  double squares = 0.0;
  if (inequalities_on()) {
    ineq.evaluate(u, slack, poses, joints, r, point);
    errors.inequality = ineq.equation_error(point);
    squares += ineq.equation_squares(point);
  }
  errors.dynamics = r.head(6 * nb).lpNorm<Eigen::Infinity>();
  // Momenta over the mass scale: velocities, like the constraint rows g / dt.
  squares += r.head(6 * nb).squaredNorm() / (mass_scale * mass_scale) + r.tail(r.size() - 6 * nb).squaredNorm();
  // The max norm may skip NaNs; a step that diverges reports which part did.
  if (!std::isfinite(squares) && !r.head(6 * nb).allFinite()) errors.dynamics = kInfinity;
  return squares;
}

// The joint Jacobians at a point whose residual was evaluated without them.
void Simulator::Impl::joint_jacobians(const std::vector<Pose>& poses, std::vector<JointEvaluation>& joints) {
  for (int j = 0; j < nj; ++j) {
    if (joint_row[j] < 0) continue;
    const Joint& joint = model.joint(j);
    detail::joint_jacobian(joint, mg.axes[j], pose(poses, joint.parent), pose(poses, joint.child), joints[j]);
  }
}

// Adds sign * G_j(z_k)^T L_j to the body rows of r, L_j being joint j's
// impulse in u (the joint must have rows).
void Simulator::Impl::add_joint_impulse(int j, const Eigen::VectorXd& u, double sign, Eigen::VectorXd& r) const {
  const Joint& joint = model.joint(j);
  const JointEvaluation& e = joint_now[j];
  detail::with_constraint_rows(joint.num_constraints(), [&](auto rows) {
    constexpr int M = decltype(rows)::value;
    const Eigen::Matrix<double, M, 1> impulse = sign * u.segment<M>(joint_row[j]);
    r.segment<6>(6 * joint.child).noalias() += e.child.topRows<M>().transpose() * impulse;
    if (joint.parent != kWorld) r.segment<6>(6 * joint.parent).noalias() += e.parent.topRows<M>().transpose() * impulse;
  });
}

// The same for joint coupling c: sign * c_z(z_k)^T L_c.
void Simulator::Impl::add_coupling_impulse(int c, const Eigen::VectorXd& u, double sign, Eigen::VectorXd& r) const {
  const double impulse = sign * u(coupling_row[c]);
  const detail::CouplingBodies& bodies = mg.coupling_bodies[c];
  for (int i = 0; i < bodies.count; ++i)
    r.segment<6>(6 * bodies.body[i]) += impulse * coupling_now[c].row[i].transpose();
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
    // As a 6x6 block: unrolled, where the map of run-time size cleared it by memset.
    Eigen::Map<detail::Jacobian6> d(blocks.body_diagonal[b]);
    d.setZero();
    d.topLeftCorner<3, 3>().diagonal().setConstant(body.mass);
    d.bottomRightCorner<3, 3>() =
        0.5 * h * (sw * body.inertia - jw * w.transpose() / sw + skew(w) * body.inertia - skew(jw));
    // q_k+1 = q_k * dt/2 [s; w]: a change dw turns q_k+1 by h * turn_rate dw (body frame).
    turn_rate[b] = 0.5 * h * (sw * Matrix3::Identity() + w * w.transpose() / sw - skew(w));
  }
  assemble_damping(u);
  for (int j = 0; j < nj; ++j) {
    const int node = mg.joint_node[j];
    if (node < 0) continue;
    const Joint& joint = model.joint(j);
    const JointEvaluation& f = joint_next[j];  // evaluated with the residual at this point
    const detail::BlockTables::Joint& c = blocks.joints[j];
    detail::with_constraint_rows(joint.num_constraints(), [&](auto constraint_rows) {
      constexpr int M = decltype(constraint_rows)::value;
      Eigen::Map<Eigen::Matrix<double, M, M>>(c.joint_diagonal).setZero();
      const auto write = [&](int body, double* body_joint, double* joint_body, const detail::Jacobian6& now_jac,
                             const detail::Jacobian6& next_jac) {
        Eigen::Map<Eigen::Matrix<double, 6, M>> columns(body_joint);
        columns = -now_jac.topRows<M>().transpose();
        Eigen::Map<Eigen::Matrix<double, M, 6>> rows(joint_body);
        rows.template leftCols<3>() = next_jac.topLeftCorner<M, 3>();
        rows.template rightCols<3>().noalias() = next_jac.block<M, 3>(0, 3) * turn_rate[body];
      };
      write(joint.child, c.child_joint, c.joint_child, joint_now[j].child, f.child);
      if (joint.parent != kWorld) write(joint.parent, c.parent_joint, c.joint_parent, joint_now[j].parent, f.parent);
    });
  }
  for (int c = 0; c < nc; ++c) {
    const detail::BlockTables::Coupling& blocks_of = blocks.couplings[c];
    *blocks_of.diagonal = 0.0;  // one row
    const detail::CouplingBodies& bodies = mg.coupling_bodies[c];
    for (int i = 0; i < bodies.count; ++i) {
      const detail::Row6& now_row = coupling_now[c].row[i];
      const detail::Row6& next_row = coupling_next[c].row[i];
      Eigen::Map<Eigen::Matrix<double, 6, 1>>(blocks_of.body_coupling[i]) = -now_row.transpose();
      Eigen::Map<detail::Row6> row(blocks_of.coupling_body[i]);
      row.head<3>() = next_row.head<3>();
      row.tail<3>() = next_row.tail<3>() * turn_rate[bodies.body[i]];
    }
  }
  if (inequalities_on()) ineq.assemble(u, aux, ineq_next);
  if (ineq.holding_limits()) ineq.assemble_held(u, ineq_next);
}

}  // namespace dynamics
