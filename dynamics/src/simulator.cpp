// Newton's method on the variational integrator's step equations (see
// simulator.hpp). Unknowns and residuals use the rows of the graphsolve system:
// body b holds (v, w) in rows 6b..6b+5, a joint node holds its impulses.
#include "dynamics/simulator.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "broad_phase.hpp"
#include "equilibration.hpp"
#include "format_number.hpp"
#include "inequalities.hpp"
#include "joint_kinematics.hpp"
#include "load_frequency.hpp"
#include "mechanism_graph.hpp"
#include "position_roundoff.hpp"
#include "substep_schedule.hpp"

namespace dynamics {

using detail::JointEvaluation;
using detail::Pose;

namespace {
constexpr double kSmallestStep = 1e-100;  // s; see the constructor
constexpr double kUnitNormSlack = 1e-6;    // of a state's orientations; see step()

// How far each contact's rows yield (both options), for detail::Inequalities.
detail::ContactRegularization contact_regularization(const StepOptions& o) {
  return {o.contact_regularization, o.friction_regularization};
}

void require_finite_nonnegative(double value, const char* name) {
  if (!(value >= 0.0 && std::isfinite(value)))
    throw std::invalid_argument(std::string("dynamics::Simulator: ") + name + " must be finite and >= 0, got " +
                                detail::format_number(value));
}
}  // namespace

const char* to_string(StepStatus status) {
  switch (status) {
    case StepStatus::Success: return "success";
    case StepStatus::NotConverged: return "not converged";
    case StepStatus::SolverFailure: return "solver failure";
    case StepStatus::InvalidInput: return "invalid input";
    case StepStatus::Diverged: return "diverged";
  }
  return "unknown";
}

struct Simulator::Impl {
  const Model& model;
  StepOptions options;
  // detail::mass_scale(): the tolerances on momenta and complementarity, the
  // merit's momentum rows and the joint regularization are taken relative to it.
  double mass_scale;
  // Contact sites: the model's ground contacts, then the features between
  // colliders that the broad phase found (`features`, sorted) for this graph.
  int ground_sites;
  std::vector<detail::ContactSite> sites;
  std::vector<int> rim_contacts;  // ground contacts on a rim, whose touching point is chosen per step
  detail::BroadPhase broad;
  std::vector<detail::PairFeature> features, found;
  // The Newton system on the mechanism graph; rebuilt when `features` changes.
  detail::MechanismGraph mg;
  graphsolve::Symbolic symbolic;
  graphsolve::BlockMatrix matrix;
  graphsolve::Factorization lu;
  detail::Equilibration equilibration;  // for bodies far from metre size
  int nb, nj, dim;
  // Over the mass scale: the joint regularization at which the pivots last
  // held after growing for a failed one. The pivots' scale is set by the
  // bodies (a small loop's redundant rows beside 1/J), so later steps start
  // there instead of failing the same factorizations again every step.
  double pivot_regularization = 0.0;
  std::vector<int> joint_row;  // first row of each joint's impulses, -1 without constraints
  // Where each joint's four coupling blocks live in `matrix` (resolved once
  // per graph): body-joint and joint-body blocks of the child and the parent,
  // and for a damped joint between two bodies their body-body blocks.
  struct CouplingBlocks {
    double *child_joint = nullptr, *joint_child = nullptr, *parent_joint = nullptr, *joint_parent = nullptr;
    double *child_parent = nullptr, *parent_child = nullptr;
  };
  std::vector<CouplingBlocks> couplings;
  // The same for each joint coupling: the row of its impulse, and its blocks
  // with each of its bodies (mg.coupling_bodies order).
  int nc;
  std::vector<int> coupling_row;
  struct CoupledBodyBlocks {
    std::array<double*, 4> body_coupling{}, coupling_body{};
  };
  std::vector<CoupledBodyBlocks> coupled_blocks;
  std::vector<Matrix3> turn_rate;  // per body: d(q_k+1)/dw as a body-frame rotation, over dt
  std::vector<int> damped_joints;  // joints with a damper (and coordinates), fixed per model
  bool loads_stiffen = false;      // a joint carries a load or a spring (see load_step_limit)
  bool has_springs = false;        // a joint has a spring (see advance)
  std::vector<detail::RateJacobian> damper_rates;  // per joint (damped ones only): its rates from u, at z_k
  detail::Inequalities ineq;   // contacts and joint limits

  // Per step: configuration z_k, constant parts of the body residuals, G(z_k).
  std::vector<Pose> now;
  std::vector<Vector3> linear_known, angular_known;  // momentum from the past and forces over dt
  std::vector<JointEvaluation> joint_now;
  // Joint values and Jacobians at z_k+1 of the accepted and of the trial unknowns.
  std::vector<JointEvaluation> joint_next, trial_joint_next;
  std::vector<detail::CouplingEvaluation> coupling_now, coupling_next, trial_coupling_next;  // likewise
  // Per iteration: unknowns, trial unknowns, configuration z_k+1 they give.
  Eigen::VectorXd s, trial, residual, trial_residual, step, rhs;
  std::vector<Pose> next, trial_next;
  Eigen::VectorXd coordinates;  // scratch for joint forces
  // Interior-point unknowns eliminated from the Newton system (slacks), their
  // directions, the affine (predictor) directions, and the values at z_k+1.
  Eigen::VectorXd aux, trial_aux, daux, step_affine, daux_affine;
  Eigen::VectorXd saved_step, saved_daux;  // a direction kept while another is tried
  Eigen::VectorXd converged_point;  // a solution kept while its impulses are recomputed
  std::array<Eigen::VectorXd, State::kEarlierSolutions> differences;  // of the warm start's history
  detail::InequalityPoint ineq_next, trial_ineq_next;

  Impl(const Model& m, const StepOptions& o)
      : model(m),
        options(o),
        mass_scale(detail::mass_scale(m)),
        ground_sites(m.num_contacts()),
        sites(detail::ground_sites(m)),
        broad(m),
        mg(detail::build_mechanism_graph(m, true, sites)),
        symbolic(graphsolve::analyze(mg.graph)),
        matrix(symbolic),
        lu(symbolic),
        equilibration(m),
        nb(m.num_bodies()),
        nj(m.num_joints()),
        dim(matrix.rows()),
        nc(m.num_couplings()),
        ineq(m, mg, sites, symbolic.pattern(), o.dt, contact_regularization(o), mass_scale) {
    now.resize(nb);
    next.resize(nb);
    trial_next.resize(nb);
    linear_known.resize(nb);
    angular_known.resize(nb);
    joint_now.resize(nj);
    damper_rates.resize(nj);
    for (int j = 0; j < nj; ++j) {
      const Joint& joint = model.joint(j);
      if (detail::has_damper(joint)) damped_joints.push_back(j);
      loads_stiffen = loads_stiffen || joint.num_constraints() > 0 || joint.stiffness != 0.0;
      has_springs = has_springs || (joint.stiffness != 0.0 && joint.num_coordinates() > 0);
    }
    for (int c = 0; c < ground_sites; ++c)
      if (model.contact(c).rim_radius > 0.0) rim_contacts.push_back(c);
    joint_next.resize(nj);
    trial_joint_next.resize(nj);
    coupling_now.resize(nc);
    coupling_next.resize(nc);
    trial_coupling_next.resize(nc);
    coordinates.setZero(m.num_coordinates());
    size_workspace();
    found.reserve(64);
    features.reserve(64);
  }

  // Row offsets and every buffer sized by the graph.
  void size_workspace() {
    joint_row.assign(nj, -1);
    couplings.assign(nj, CouplingBlocks{});
    turn_rate.resize(nb);
    for (int j = 0; j < nj; ++j) {
      const Joint& joint = model.joint(j);
      CouplingBlocks& c = couplings[j];
      if (detail::has_damper(joint) && joint.parent != kWorld) {
        c.child_parent = matrix.block(joint.child, joint.parent).data();
        c.parent_child = matrix.block(joint.parent, joint.child).data();
      }
      const int node = mg.joint_node[j];
      if (node < 0) continue;
      joint_row[j] = symbolic.pattern().offset[node];
      c.child_joint = matrix.block(joint.child, node).data();
      c.joint_child = matrix.block(node, joint.child).data();
      if (joint.parent != kWorld) {
        c.parent_joint = matrix.block(joint.parent, node).data();
        c.joint_parent = matrix.block(node, joint.parent).data();
      }
    }
    coupling_row.assign(nc, -1);
    coupled_blocks.assign(nc, CoupledBodyBlocks{});
    for (int c = 0; c < nc; ++c) {
      const int node = mg.coupling_node[c];
      coupling_row[c] = symbolic.pattern().offset[node];
      const detail::CouplingBodies& bodies = mg.coupling_bodies[c];
      for (int i = 0; i < bodies.count; ++i) {
        coupled_blocks[c].body_coupling[i] = matrix.block(bodies.body[i], node).data();
        coupled_blocks[c].coupling_body[i] = matrix.block(node, bodies.body[i]).data();
      }
    }
    for (Eigen::VectorXd* v : {&s, &trial, &residual, &trial_residual, &step, &step_affine, &rhs, &saved_step, &converged_point})
      v->setZero(dim);
    for (Eigen::VectorXd& v : differences) v.setZero(dim);
    for (Eigen::VectorXd* v : {&aux, &trial_aux, &daux, &daux_affine, &saved_daux}) v->setZero(ineq.aux_size());
    ineq.resize(ineq_next);
    ineq.resize(trial_ineq_next);
  }

  void add_damping(const Eigen::VectorXd& u, Eigen::VectorXd& r) const;
  void assemble_damping();
  void update_contacts(const State& state);
  // The step being solved: options.dt, or a sub-step of it (see substep()).
  double step_size = options.dt;
  double dt() const { return step_size; }
  void set_step_size(double h) {
    step_size = h;
    ineq.set_dt(h);
  }

  // Pose of a body or of the world in the current (k) or next (k+1) configuration.
  Pose pose(const std::vector<Pose>& poses, int body) const { return body == kWorld ? Pose{} : poses[body]; }

  void prepare(const State& state);
  void aim_rims(const State& state);
  void add_joint_forces(const State& state);
  bool predict(const Eigen::VectorXd& unknowns, std::vector<Pose>& poses) const;
  struct Errors {
    double dynamics = 0.0, constraint = 0.0, inequality = 0.0;  // max-norms
  };
  double evaluate(const Eigen::VectorXd& unknowns, const Eigen::VectorXd& slack, const std::vector<Pose>& poses,
                  Eigen::VectorXd& r, std::vector<JointEvaluation>& joints,
                  std::vector<detail::CouplingEvaluation>& coupled, detail::InequalityPoint& point, Errors& errors,
                  bool jacobians);
  void joint_jacobians(const std::vector<Pose>& poses, std::vector<JointEvaluation>& joints);
  void assemble(const Eigen::VectorXd& unknowns);
  bool try_point(double alpha);
  void solve_refined();
  void solve_in_place(Eigen::VectorXd& x);  // with the last factorization, equilibrated
  static constexpr double kDegenerateShift = 1e-10;
  static constexpr double kFallbackCentring = 0.1;  // of mu: see solve()
  bool factorize(bool interior, const graphsolve::FactorOptions& factor_options);
  bool grow_regularization(bool interior, graphsolve::FactorOptions& factor_options) const;
  void zero_joint_impulses(Eigen::VectorXd& u) const;
  double largest_joint_impulse() const;
  double net_joint_impulse();
  double momentum_roundoff() const;
  void add_joint_impulse(int j, const Eigen::VectorXd& u, double sign, Eigen::VectorXd& r) const;
  void add_coupling_impulse(int c, const Eigen::VectorXd& u, double sign, Eigen::VectorXd& r) const;
  static constexpr double kEpsilon = std::numeric_limits<double>::epsilon();
  static constexpr double kInfinity = std::numeric_limits<double>::infinity();
  void centring_direction(double target);
  double boundary_fraction(const detail::Complementarity& comp) const;
  bool line_search(double alpha, double target, double squares, double& trial_squares, Errors& trial_errors,
                   double& taken, bool jacobians);
  // Tolerances a trial point may meet to be accepted whatever its merit
  // (equality constraints only; negative: never).
  Errors accept_below{-1.0, -1.0, -1.0};
  double interior_point_direction(const detail::Complementarity& comp);
  void report_failed_node(int node, StepResult& result) const;
  bool warm_start(const State& state, bool interior);
  bool extrapolated = false;  // this step starts from an extrapolation (at least one Newton iteration)
  bool extrapolate(const State& state);
  StepResult solve(State& state);
  State retry_start;  // where a sub-stepped step started (see substep())
  StepResult substep(State& state, const StepResult& before, int first_pieces, int fewest = 1);
  StepResult advance(State& state);
  bool holds_impulses(const State& state) const {
    return state.multipliers.size() == dim && state.multipliers_dt > 0.0;
  }
  LoadFrequency load_frequency(const State& state) const;
  void joint_forces(const State& state, std::vector<Vector3>& child_force) const;
  void held_rows(const State& state, std::vector<Pose>& poses, std::vector<detail::HeldRow>& rows) const;
  double load_step_limit(const State& state);
  int substeps_within_load_limit(const State& state);
  // The steps' load estimates (see load_step_limit), created by the first.
  std::unique_ptr<detail::LoadEstimator> load_estimator;
  std::vector<Vector3> load_forces;
  std::vector<Pose> load_poses;
  std::vector<detail::HeldRow> load_held;
};

// The broad phase at z_k; a new set of contacts between colliders means a new
// graph: analysed again, with its matrix, factorization and buffers (the only
// allocations of a step).
void Simulator::Impl::update_contacts(const State& state) {
  if (broad.empty()) return;
  broad.find(now, state, dt(), features, found);
  if (found == features) return;
  features.swap(found);
  sites.resize(ground_sites);
  for (const detail::PairFeature& f : features) sites.push_back(detail::pair_site(model, f));
  mg = detail::build_mechanism_graph(model, true, sites);
  symbolic = graphsolve::analyze(mg.graph);
  matrix = graphsolve::BlockMatrix(symbolic);
  lu = graphsolve::Factorization(symbolic);
  dim = matrix.rows();
  ineq = detail::Inequalities(model, mg, sites, symbolic.pattern(), dt(), contact_regularization(options),
                              mass_scale);
  size_workspace();
}

void Simulator::Impl::prepare(const State& state) {
  const double h = dt();
  for (int b = 0; b < nb; ++b) {
    now[b] = Pose{state.position[b], state.orientation[b]};
  }
  update_contacts(state);
  for (int b = 0; b < nb; ++b) {
    const Body& body = model.body(b);
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
  for (int j : damped_joints) {
    const Joint& joint = model.joint(j);
    damper_rates[j] = detail::rate_jacobian(joint, mg.axes[j], pose(now, joint.parent), pose(now, joint.child));
  }
  for (int c = 0; c < nc; ++c)
    detail::evaluate_coupling(model, mg.axes, model.coupling(c), mg.coupling_bodies[c], now, coupling_now[c]);
  aim_rims(state);
  if (!ineq.empty()) ineq.prepare(now);
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
    if (joint.stiffness != 0.0) detail::read_coordinates(joint, axes, p, c, coordinates.data() + o);
    Vector3 force_local = Vector3::Zero(), torque_local = Vector3::Zero();
    for (int i = 0; i < n; ++i) {
      double f = state.joint_input(o + i);
      if (joint.stiffness != 0.0) f -= joint.stiffness * (coordinates(o + i) - (joint.rest.empty() ? 0.0 : joint.rest[i]));
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

// Dampers are implicit: the force -damping * rates acts over the step with
// the rates of the new velocities u (read at z_k, so linear in u: backward
// Euler in the damping, stable at any damping * dt).
void Simulator::Impl::add_damping(const Eigen::VectorXd& u, Eigen::VectorXd& r) const {
  for (int j : damped_joints) {
    const Joint& joint = model.joint(j);
    const detail::RateJacobian& d = damper_rates[j];
    Eigen::Matrix<double, 6, 1> impulse = d.child * u.segment<6>(6 * joint.child);  // rates, then -impulse
    if (joint.parent != kWorld) impulse += d.parent * u.segment<6>(6 * joint.parent);
    impulse *= dt() * joint.damping;
    r.segment<6>(6 * joint.child) += d.child.transpose() * impulse;
    if (joint.parent != kWorld) r.segment<6>(6 * joint.parent) += d.parent.transpose() * impulse;
  }
}

// The dampers' share of the Newton matrix: dt * damping * D^T D over the
// joint's bodies (after the body blocks are written).
void Simulator::Impl::assemble_damping() {
  for (int j : damped_joints)  // zeroed first: two dampers may share a pair of bodies
    if (model.joint(j).parent != kWorld) {
      Eigen::Map<detail::Jacobian6>(couplings[j].child_parent).setZero();
      Eigen::Map<detail::Jacobian6>(couplings[j].parent_child).setZero();
    }
  for (int j : damped_joints) {
    const Joint& joint = model.joint(j);
    const detail::RateJacobian& d = damper_rates[j];
    const double scale = dt() * joint.damping;
    matrix.diag(joint.child) += scale * d.child.transpose() * d.child;
    if (joint.parent == kWorld) continue;
    matrix.diag(joint.parent) += scale * d.parent.transpose() * d.parent;
    Eigen::Map<detail::Jacobian6>(couplings[j].child_parent) += scale * d.child.transpose() * d.parent;
    Eigen::Map<detail::Jacobian6>(couplings[j].parent_child) += scale * d.parent.transpose() * d.child;
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
    r.segment(row, m) = f.value.head(m) / h;
    // Not std::max: a NaN (an overflowed configuration) must show, not be skipped.
    const double violation = f.value.head(m).lpNorm<Eigen::Infinity>();
    if (!(violation <= errors.constraint)) errors.constraint = violation;
  }
  // Couplings are few: their Jacobian rows come with every evaluation.
  for (int c = 0; c < nc; ++c) {
    add_coupling_impulse(c, u, -1.0, r);
    detail::CouplingEvaluation& f = coupled[c];
    detail::evaluate_coupling(model, mg.axes, model.coupling(c), mg.coupling_bodies[c], poses, f);
    r(coupling_row[c]) = f.value / h;
    const double violation = std::abs(f.value);
    if (!(violation <= errors.constraint)) errors.constraint = violation;
  }
  double squares = 0.0;
  if (!ineq.empty()) {
    ineq.evaluate(u, slack, poses, r, point);
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
    detail::evaluate_joint(joint, mg.axes[j], pose(poses, joint.parent), pose(poses, joint.child), true, joints[j]);
  }
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
    // q_k+1 = q_k * dt/2 [s; w]: a change dw turns q_k+1 by h * turn_rate dw (body frame).
    turn_rate[b] = 0.5 * h * (sw * Matrix3::Identity() + w * w.transpose() / sw - skew(w));
  }
  assemble_damping();
  for (int j = 0; j < nj; ++j) {
    const int node = mg.joint_node[j];
    if (node < 0) continue;
    const Joint& joint = model.joint(j);
    const int m = joint.num_constraints();
    const JointEvaluation& f = joint_next[j];  // evaluated with the residual at this point
    matrix.diag(node).setZero();
    // Jacobian rows past m are zero: the products stay fixed-size, the copies take m rows.
    const auto write = [&](int body, double* body_joint, double* joint_body, const detail::Jacobian6& now_jac,
                           const detail::Jacobian6& next_jac) {
      Eigen::Map<Eigen::Matrix<double, 6, Eigen::Dynamic>>(body_joint, 6, m) = -now_jac.topRows(m).transpose();
      const Eigen::Matrix<double, 6, 3> turned = next_jac.rightCols<3>() * turn_rate[body];
      Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, 6>> rows(joint_body, m, 6);
      rows.leftCols<3>() = next_jac.topLeftCorner(m, 3);
      rows.rightCols<3>() = turned.topRows(m);
    };
    const CouplingBlocks& c = couplings[j];
    write(joint.child, c.child_joint, c.joint_child, joint_now[j].child, f.child);
    if (joint.parent != kWorld) write(joint.parent, c.parent_joint, c.joint_parent, joint_now[j].parent, f.parent);
  }
  for (int c = 0; c < nc; ++c) {
    matrix.diag(mg.coupling_node[c]).setZero();
    const detail::CouplingBodies& bodies = mg.coupling_bodies[c];
    for (int i = 0; i < bodies.count; ++i) {
      const detail::Row6& now_row = coupling_now[c].row[i];
      const detail::Row6& next_row = coupling_next[c].row[i];
      Eigen::Map<Eigen::Matrix<double, 6, 1>>(coupled_blocks[c].body_coupling[i]) = -now_row.transpose();
      Eigen::Map<detail::Row6> row(coupled_blocks[c].coupling_body[i]);
      row.head<3>() = next_row.head<3>();
      row.tail<3>() = next_row.tail<3>() * turn_rate[bodies.body[i]];
    }
  }
  if (!ineq.empty()) ineq.assemble(u, aux, ineq_next, matrix);
}

// The next point along the direction (step, daux): velocities and impulses
// by alpha, slacks by alpha. False if the quaternion update breaks down.
bool Simulator::Impl::try_point(double alpha) {
  trial = s + alpha * step;
  if (!ineq.empty()) trial_aux = aux + alpha * daux;
  return predict(trial, trial_next);
}

// The condensed interior-point rows span many orders of magnitude near the
// solution; one round of iterative refinement recovers the digits the
// elimination loses.
void Simulator::Impl::solve_refined() {
  equilibration.scale(rhs);  // consumed: S b
  lu.solve_refined(equilibration.to_refine(matrix), rhs, step, 1);
  equilibration.scale(step);  // x = S y
}

void Simulator::Impl::solve_in_place(Eigen::VectorXd& x) {
  equilibration.scale(x);
  lu.solve_in_place(x);
  equilibration.scale(x);
}

// Mehrotra's predictor-corrector on the factorized system: the affine
// direction (complementarity aimed at zero) tells how far the central path
// parameter can drop; the corrected direction aims at sigma * mu and adds the
// affine direction's second-order term. Returns the complementarity target.
double Simulator::Impl::interior_point_direction(const detail::Complementarity& comp) {
  const Eigen::VectorXd none;
  step_affine = step;  // the predictor, solved by the caller
  ineq.recover(s, aux, ineq_next, 0.0, none, none, step_affine, daux_affine);
  const double alpha_affine = ineq.max_step(s, aux, step_affine, daux_affine, 1.0);
  trial = s + alpha_affine * step_affine;
  trial_aux = aux + alpha_affine * daux_affine;
  const double mu = comp.mean;
  const double mu_affine = ineq.complementarity(trial, trial_aux).mean;
  const double sigma = mu > 0.0 ? std::clamp(std::pow(mu_affine / mu, 3.0), 0.0, 1.0) : 0.0;
  const double target = sigma * mu;
  rhs = -residual;
  ineq.rhs(s, aux, ineq_next, target, step_affine, daux_affine, rhs);
  solve_refined();
  ineq.recover(s, aux, ineq_next, target, step_affine, daux_affine, step, daux);
  return target;
}

// How close to the boundary a step may go: the option's fraction, tending to
// 1 as mu falls (tau = max(fraction, 1 - mu)), so that the last iterations
// converge superlinearly instead of by a constant factor. mu is taken as it
// stands (N m/s), not over the mass scale: scaled, it stalled one more of the
// skidding carts of test_contact_rims and changed nothing else measured.
double Simulator::Impl::boundary_fraction(const detail::Complementarity& comp) const {
  return std::max(options.fraction_to_boundary, 1.0 - comp.mean);
}

// Near a degenerate contact (touching without force: multipliers and slacks
// both tend to zero) the condensed rows can span more than the double range
// and a pivot breaks down exactly. The interior-point method then retries
// with a tiny shift on every diagonal block (joint nodes keep their own
// regularization): an inexact Newton step, while the residual stays exact.
bool Simulator::Impl::factorize(bool interior, const graphsolve::FactorOptions& factor_options) {
  graphsolve::FactorOptions equilibrated = factor_options;
  // The body blocks are mass matrices (kg): the joint regularization over the
  // mass scale, times it, is the regularization relative to their rows.
  const graphsolve::BlockMatrix& a =
      equilibration.to_factor(matrix, equilibrated, -factor_options.constraint_shift * mass_scale);
  if (lu.factorize(a, equilibrated) == graphsolve::Status::Success) return true;
  if (!interior) return false;
  graphsolve::FactorOptions shifted = equilibrated;
  // Over the mass scale, like the condensed rows (velocity per impulse).
  shifted.shift = kDegenerateShift / mass_scale;
  shifted.constraint_shift = equilibrated.constraint_shift - shifted.shift;
  return lu.factorize(a, shifted) == graphsolve::Status::Success;
}

void Simulator::Impl::zero_joint_impulses(Eigen::VectorXd& u) const {
  for (int j = 0; j < nj; ++j) {
    const int row = joint_row[j];
    if (row >= 0) u.segment(row, model.joint(j).num_constraints()).setZero();
  }
  for (int c = 0; c < nc; ++c) u(coupling_row[c]) = 0.0;
}

double Simulator::Impl::largest_joint_impulse() const {
  double largest = 0.0;
  for (int j = 0; j < nj; ++j) {
    const int row = joint_row[j];
    if (row >= 0) largest = std::max(largest, s.segment(row, model.joint(j).num_constraints()).lpNorm<Eigen::Infinity>());
  }
  for (int c = 0; c < nc; ++c) largest = std::max(largest, std::abs(s(coupling_row[c])));
  return largest;
}

// Adds sign * G_j(z_k)^T L_j to the body rows of r, L_j being joint j's
// impulse in u (the joint must have rows).
void Simulator::Impl::add_joint_impulse(int j, const Eigen::VectorXd& u, double sign, Eigen::VectorXd& r) const {
  const Joint& joint = model.joint(j);
  const int m = joint.num_constraints();
  // Jacobian rows past m are zero, so a zero-padded impulse keeps the product fixed-size.
  Eigen::Matrix<double, 6, 1> impulse = Eigen::Matrix<double, 6, 1>::Zero();
  impulse.head(m) = sign * u.segment(joint_row[j], m);
  const JointEvaluation& e = joint_now[j];
  r.segment<6>(6 * joint.child).noalias() += e.child.transpose() * impulse;
  if (joint.parent != kWorld) r.segment<6>(6 * joint.parent).noalias() += e.parent.transpose() * impulse;
}

// The same for joint coupling c: sign * c_z(z_k)^T L_c.
void Simulator::Impl::add_coupling_impulse(int c, const Eigen::VectorXd& u, double sign, Eigen::VectorXd& r) const {
  const double impulse = sign * u(coupling_row[c]);
  const detail::CouplingBodies& bodies = mg.coupling_bodies[c];
  for (int i = 0; i < bodies.count; ++i)
    r.segment<6>(6 * bodies.body[i]) += impulse * coupling_now[c].row[i].transpose();
}

// Sum over the bodies of the max-norm of the impulse the joints apply to
// each, (G^T L)_b: the size of what the impulses do. `rhs` is free scratch
// without inequalities.
double Simulator::Impl::net_joint_impulse() {
  rhs.head(6 * nb).setZero();
  for (int j = 0; j < nj; ++j)
    if (joint_row[j] >= 0) add_joint_impulse(j, s, 1.0, rhs);
  for (int c = 0; c < nc; ++c) add_coupling_impulse(c, s, 1.0, rhs);
  double sum = 0.0;
  for (int b = 0; b < nb; ++b) sum += rhs.segment<6>(6 * b).lpNorm<Eigen::Infinity>();
  return sum;
}

// A body's momentum rows subtract momenta of the size of its known terms
// (m v_k, h m g, the spin terms): no residual below a few units in their last
// place can be met. The mass scale sets the tolerance by the mechanism's
// typical body, so a heavy body among light ones can lie beyond it (a 1000 t
// pendulum with 1 g links: tolerance 3e-12 N s, while its weight per step,
// 1e5 N s, carries 2e-11 N s in one unit in the last place).
double Simulator::Impl::momentum_roundoff() const {
  constexpr double kUlps = 8.0;
  double largest = 0.0;
  for (int b = 0; b < nb; ++b)
    largest = std::max({largest, linear_known[b].lpNorm<Eigen::Infinity>(), angular_known[b].lpNorm<Eigen::Infinity>()});
  return kUlps * kEpsilon * largest;
}

// StepOptions::max_regularization: the joint regularization grows 100-fold,
// the last time to the bound itself (equality constraints only: the
// interior-point method has its own shift for degenerate pivots).
bool Simulator::Impl::grow_regularization(bool interior, graphsolve::FactorOptions& factor_options) const {
  const double current = -factor_options.constraint_shift, bound = options.max_regularization / mass_scale;
  if (interior || !(current > 0.0) || current >= bound) return false;
  factor_options.constraint_shift = -std::min(100.0 * current, bound);
  return true;
}

// The centring direction: complementarity aimed at `target`, no correction.
void Simulator::Impl::centring_direction(double target) {
  const Eigen::VectorXd none;
  rhs = -residual;
  ineq.rhs(s, aux, ineq_next, target, none, none, rhs);
  solve_refined();
  ineq.recover(s, aux, ineq_next, target, none, none, step, daux);
}

// Backtracking from `alpha` on the residual norm (complementarity measured
// from its target); steps that would turn a body by a quarter turn or more
// are shortened too (see predict). On success the trial_*
// buffers hold the accepted point. Falls back to the shortest evaluated step
// if it lowers the residual at all.
bool Simulator::Impl::line_search(double alpha, double target, double squares, double& trial_squares,
                                  Errors& trial_errors, double& taken, bool jacobians) {
  const double gap_scale = 1.0 / (mass_scale * mass_scale);  // products of slacks and impulses
  const double merit = std::sqrt(squares + gap_scale * ineq.complementarity_gap(s, aux, target));
  double trial_merit = merit;
  bool evaluated = false;  // the trial_* buffers describe `trial`
  for (int k = 0; k <= options.max_line_search; ++k, alpha *= 0.5) {
    evaluated = try_point(alpha);
    if (!evaluated) continue;
    trial_squares = evaluate(trial, trial_aux, trial_next, trial_residual, trial_joint_next, trial_coupling_next,
                             trial_ineq_next, trial_errors, jacobians);
    trial_merit = std::sqrt(trial_squares + gap_scale * ineq.complementarity_gap(trial, trial_aux, target));
    taken = alpha;
    if (trial_merit < (1.0 - 1e-4 * alpha) * merit) return true;
    // A solution, although its merit rose: at tiny dt the joint rows g/dt
    // carry a round-off floor above the momentum residual it started from.
    if (trial_errors.dynamics <= accept_below.dynamics && trial_errors.constraint <= accept_below.constraint)
      return true;
  }
  return evaluated && trial_merit < merit;
}

// The Newton iteration starts from the last step's velocities and impulses.
// Without inequalities, when the state continues the trajectory of its last
// steps (its velocities are still the last solution's), the start is
// extrapolated from those solutions: see extrapolate(). (Contacts switch
// abruptly; the interior-point method starts plainly.) Sets `next` to the
// start's configuration; false if no start is usable.
bool Simulator::Impl::warm_start(const State& state, bool interior) {
  for (int b = 0; b < nb; ++b) {
    s.segment<3>(6 * b) = state.velocity[b];
    s.segment<3>(6 * b + 3) = state.angular_velocity[b];
  }
  // Joint impulses start at zero: the step equations are linear in them, so
  // their start does not change Newton's error, and a start from the last
  // impulses lets the components along redundant joint rows, which no
  // residual sees, pile up over the steps.
  zero_joint_impulses(s);
  const Eigen::VectorXd& last = state.multipliers;
  bool continues = !interior && last.size() == dim;
  for (int b = 0; b < nb && continues; ++b)
    continues = last.segment<3>(6 * b) == state.velocity[b] && last.segment<3>(6 * b + 3) == state.angular_velocity[b];
  extrapolated = continues && extrapolate(state);
  if (extrapolated) {
    if (s.allFinite() && predict(s, next)) return true;
    s.head(6 * nb) = last.head(6 * nb);  // a non-finite history, or past a quarter turn: start plainly
    extrapolated = false;
  }
  return predict(s, next);
}

// Newton's backward-difference formula one step ahead, from the last solution's
// velocities u_k (already in `s`) and the earlier ones in the state:
//   u_k+1 ~ u_k + D u_k + D^2 u_k + ...,   D u_k = u_k - u_k-1.
// Only the velocities; the impulses start at zero (see warm_start()):
// extrapolated, their components along redundant joint rows, which no
// residual sees, fed back on themselves (random loops reached 1e6 N s, where
// round-off in G^T L kept the residual above the tolerance).
// The linear term is always taken (the start is then O(dt^2) from the answer
// instead of O(dt)); each higher difference only while it is smaller than the
// one before, as in the order selection of multistep codes: on smooth motion
// the series converges and every term removes a power of dt (on the n-link
// pendulums the fourth-order start saves the second iteration of most steps),
// while a fast oscillation, whose differences grow with the order, keeps the
// lower order. False without at least one earlier solution of this step size.
bool Simulator::Impl::extrapolate(const State& state) {
  if (state.multipliers_dt != dt()) return false;  // differences of another step size
  // Earlier solutions usable: those of the history, up to the first of
  // another graph's size.
  const int length = std::clamp(state.earlier_solutions, 0, State::kEarlierSolutions);
  int depth = 0;
  while (depth < length && state.previous_multipliers[depth].size() == dim) ++depth;
  if (depth == 0) return false;
  // Built one order at a time, so that a rejected order costs nothing more:
  // after order p, differences[i] is D^(p-i) u_k-i (i < p), and order p + 1
  // takes one more first difference, D u_k-p, and folds it in upwards.
  // differences[0] is the term to add.
  const Eigen::VectorXd& last = state.multipliers;
  const int rows = 6 * nb;  // the velocities
  double size = 0.0;
  for (int order = 1; order <= depth; ++order) {
    const int i = order - 1;
    const Eigen::VectorXd& newer = i == 0 ? last : state.previous_multipliers[i - 1];
    differences[i].head(rows) = newer.head(rows) - state.previous_multipliers[i].head(rows);
    for (int j = i - 1; j >= 0; --j) differences[j].head(rows) -= differences[j + 1].head(rows);
    const double next_size = differences[0].head(rows).squaredNorm();
    if (order > 1 && !(next_size < size)) break;
    s.head(rows) += differences[0].head(rows);
    size = next_size;
  }
  return true;
}

StepResult Simulator::Impl::solve(State& state) {
  StepResult result;
  const bool interior = !ineq.empty();
  const double tol = interior ? options.interior_tolerance : options.tolerance;
  const double momentum_tol = std::max(tol * mass_scale, momentum_roundoff());
  const double complementarity_tol = options.complementarity_tolerance * mass_scale;
  if (!warm_start(state, interior)) {  // a body already turns a quarter turn per step: no start
    result.status = StepStatus::Diverged;
    result.residual = kInfinity;
    for (int b = 0; b < nb && result.failed_body < 0; ++b)
      if (!turns_within_a_quarter(state.angular_velocity[b], dt())) result.failed_body = b;
    return result;
  }
  if (interior) ineq.initialize(s, aux, next);  // inequality multipliers and slacks start inside
  Errors errors, trial_errors;
  double squares = evaluate(s, aux, next, residual, joint_next, coupling_next, ineq_next, errors, true);
  detail::Complementarity comp = ineq.complementarity(s, aux);
  graphsolve::FactorOptions factor_options;
  factor_options.constraint_shift = -std::max(options.regularization / mass_scale, pivot_regularization);
  bool grown_for_pivot = false;
  // Condensed slack rows scale like slack / multiplier, which spans many
  // orders of magnitude near the solution; only exactly singular pivots fail.
  if (interior) factor_options.pivot_tolerance = 0.0;
  // Far from the origin no joint closes better than the positions' round-off,
  // nor a contact distance over dt, whatever the tolerance asks.
  const double position_floor = detail::position_roundoff(state);
  const double constraint_tol = std::max(tol, position_floor);
  const double inequality_tol = std::max(tol, position_floor / dt());
  accept_below = interior ? Errors{-1.0, -1.0, -1.0} : Errors{momentum_tol, constraint_tol, 0.0};
  const auto converged = [&] {
    return errors.dynamics <= momentum_tol && errors.constraint <= constraint_tol &&
           errors.inequality <= inequality_tol && comp.max <= complementarity_tol;
  };
  // Chord steps (equality constraints only): `lu` may hold the factorization
  // of an earlier point, and accepted points carry no joint Jacobians until
  // the system is assembled there.
  bool reuse_next = false, jacobians_at_s = true, impulses_restarted = false, restarted_converged = false;
  // Restarts the Newton iteration from zero joint impulses at the current
  // velocities. The regularized solve divides the part of g that no velocity
  // change removes (redundant rows, to second order) by the regularization:
  // the impulses can gain a component along the redundancy, up to 1e6 N s,
  // that no residual sees but whose round-off in G^T L sets a floor under
  // the residual. Once the constraints hold, the step equations being linear
  // in the impulses, one Newton step from zero recomputes them of physical size.
  const auto restart_impulses = [&] {
    zero_joint_impulses(s);
    squares = evaluate(s, aux, next, residual, joint_next, coupling_next, ineq_next, errors, true);
    impulses_restarted = true;
    jacobians_at_s = true;
    reuse_next = false;
  };
  for (;;) {
    // An extrapolated start is a prediction from earlier solutions: accepting
    // it uncorrected, even within the tolerance, would let the extrapolation
    // error build up over the steps like an explicit multistep method's
    // (polynomial growth, about 1e-10 m/s after 100 steps of free fall). One
    // Newton correction leaves an error quadratic in it.
    if (converged() && !(extrapolated && result.iterations == 0)) {
      // Converged, but with impulses whose round-off comes within 1% of the
      // tolerance and that are 1000 times all the net impulse they apply to
      // the bodies (physical ones, as in a heavy mechanism, are of its size):
      // a component along a redundancy.
      if (interior || impulses_restarted || result.iterations == options.max_iterations) break;
      const double largest = largest_joint_impulse();
      if (largest * kEpsilon <= 0.01 * momentum_tol || largest <= 1e3 * net_joint_impulse()) break;
      converged_point = s;
      restarted_converged = true;
      restart_impulses();
      continue;
    }
    if (!std::isfinite(squares)) {
      result.status = StepStatus::Diverged;
      break;
    }
    if (result.iterations == options.max_iterations) {
      result.status = StepStatus::NotConverged;
      break;
    }
    ++result.iterations;
    const bool chord = reuse_next && !interior;
    if (!chord) {
      if (!jacobians_at_s) joint_jacobians(next, joint_next);
      jacobians_at_s = true;
      assemble(s);
      ++result.factorizations;
      if (!factorize(interior, factor_options)) {
        // A redundant joint whose rows carry a large M^-1 (light bodies on
        // long arms) can leave its pivot below the pivot tolerance at the
        // default regularization: the same remedy as a failed line search.
        if (grow_regularization(interior, factor_options)) {
          --result.iterations;  // no direction was solved
          grown_for_pivot = true;
          continue;
        }
        result.status = StepStatus::SolverFailure;
        report_failed_node(lu.failed_node(), result);
        break;
      }
      if (grown_for_pivot) pivot_regularization = -factor_options.constraint_shift;
      grown_for_pivot = false;
    }
    const Eigen::VectorXd none;
    if (interior) {
      // The predictor only estimates how far mu can fall and the
      // second-order term: no refinement (the corrected direction gets it).
      step = -residual;
      ineq.rhs(s, aux, ineq_next, 0.0, none, none, step);
      solve_in_place(step);
    } else {
      step = -residual;
      solve_in_place(step);
    }
    double target = 0.0, alpha = 1.0;
    if (interior) {
      target = interior_point_direction(comp);
      alpha = ineq.max_step(s, aux, step, daux, boundary_fraction(comp));
    }
    double trial_squares = squares, taken = 0.0;
    bool accepted = line_search(alpha, target, squares, trial_squares, trial_errors, taken, interior);
    if (chord && !accepted) {
      reuse_next = false;  // the old factorization no longer gives a descent direction
      continue;
    }
    if (interior && (!accepted || taken < 0.1 * alpha)) {
      // Mehrotra's second-order term can make the corrected direction a poor
      // (or no) descent direction for the residual norm: try a plain Newton
      // step towards a tenth of mu (no correction, so it descends) and keep
      // the corrected point only if that gets nowhere. Aiming at mu itself
      // only centres: where the affine step is blocked (friction pairs whose
      // two members both tend to zero, on a sticking wheel) the iteration
      // then sat at mu = 1e-8 with every equation at round-off until it gave up.
      saved_step = step;
      saved_daux = daux;
      const double corrected_target = target, corrected_taken = taken;
      const bool corrected = accepted;
      target = kFallbackCentring * comp.mean;
      centring_direction(target);
      alpha = ineq.max_step(s, aux, step, daux, boundary_fraction(comp));
      accepted = line_search(alpha, target, squares, trial_squares, trial_errors, taken, true);
      if (!accepted && corrected) {
        step.swap(saved_step);
        daux.swap(saved_daux);
        target = corrected_target;
        accepted = try_point(corrected_taken);
        trial_squares = evaluate(trial, trial_aux, trial_next, trial_residual, trial_joint_next,
                                 trial_coupling_next, trial_ineq_next, trial_errors, true);
      }
    }
    if (!accepted && converged()) break;  // the correction of an extrapolated start found nothing to lower
    if (!accepted && !interior && !impulses_restarted && errors.constraint <= constraint_tol) {
      restart_impulses();  // stalled on the round-off floor of inflated impulses
      continue;
    }
    if (!accepted && grow_regularization(interior, factor_options)) {
      reuse_next = false;
      continue;
    }
    if (!accepted) {
      // Not even the shortest step lowers the residual: give up with the
      // residual we have (the state is left unchanged).
      result.status = StepStatus::NotConverged;
      break;
    }
    reuse_next = trial_squares <= options.reuse_factorization_below * options.reuse_factorization_below * squares;
    jacobians_at_s = interior;
    s.swap(trial);
    aux.swap(trial_aux);
    residual.swap(trial_residual);
    next.swap(trial_next);
    joint_next.swap(trial_joint_next);
    coupling_next.swap(trial_coupling_next);
    std::swap(ineq_next, trial_ineq_next);
    squares = trial_squares;
    errors = trial_errors;
    comp = ineq.complementarity(s, aux);
  }
  if (restarted_converged && result.status != StepStatus::Success) {
    // The restart did not converge again: keep the solution it started from.
    s.swap(converged_point);
    predict(s, next);
    evaluate(s, aux, next, residual, joint_next, coupling_next, ineq_next, errors, false);
    result.status = StepStatus::Success;
    result.failed_body = result.failed_joint = result.failed_coupling = -1;
  }
  result.residual = errors.dynamics;
  result.constraint_residual = errors.constraint;
  result.inequality_residual = errors.inequality;
  result.complementarity = comp.max;
  result.min_signed_distance = ineq.min_signed_distance(ineq_next);
  result.collider_contacts = static_cast<int>(features.size());
  if (result.status != StepStatus::Success) return result;
  for (int b = 0; b < nb; ++b) {
    state.position[b] = next[b].position;
    state.orientation[b] = next[b].orientation;
    state.velocity[b] = s.segment<3>(6 * b);
    state.angular_velocity[b] = s.segment<3>(6 * b + 3);
  }
  // The history moves back one place by swaps; the oldest vector's storage
  // then takes this solution, so that once the history is full a step
  // allocates nothing. Entries of another size (first steps, a new graph)
  // end the history where they are: extrapolate() stops at them.
  // Solutions of another step size do not extrapolate to this one (their
  // differences are per step): after a change of size the history restarts,
  // keeping its storage.
  const bool same_step_size = state.multipliers_dt == dt();
  std::rotate(state.previous_multipliers.rbegin(), state.previous_multipliers.rbegin() + 1,
              state.previous_multipliers.rend());
  state.previous_multipliers[0].swap(state.multipliers);
  state.earlier_solutions =
      same_step_size ? std::min(std::max(state.earlier_solutions, 0) + 1, State::kEarlierSolutions) : 0;
  state.multipliers = s;
  state.multipliers_dt = dt();
  state.time += dt();
  ++state.steps;
  return result;
}

// A step as `first_pieces` equal sub-steps, retried as more of them
// (next_substeps, up to options.max_substeps) from the state it started from
// while it fails, never as fewer than `fewest`; `before` holds the
// iterations of failed attempts before this. Every sub-step is a step of the
// same integrator at dt / k (the warm start extrapolates only within one
// size: see solve()). The copy of the start reuses its storage from the last
// sub-stepped step: a run of held sub-steps does not allocate.
StepResult Simulator::Impl::substep(State& state, const StepResult& before, int first_pieces, int fewest) {
  retry_start = state;
  const State& start = retry_start;
  StepResult result = before;
  const auto next_level = [&](int pieces) {
    const int more = next_substeps(pieces, options.max_substeps);
    return more > 0 ? std::max(more, fewest) : 0;
  };
  for (int pieces = std::max(first_pieces, fewest); pieces > 0; pieces = next_level(pieces)) {
    state = start;
    set_step_size(options.dt / pieces);
    StepResult total;
    total.iterations = result.iterations;
    total.factorizations = result.factorizations;
    bool ok = true;
    for (int i = 0; i < pieces && ok; ++i) {
      prepare(state);
      const StepResult r = solve(state);
      const int iterations = total.iterations + r.iterations, factorizations = total.factorizations + r.factorizations;
      total = r;
      total.iterations = iterations;
      total.factorizations = factorizations;
      ok = r.ok();
    }
    total.substeps = pieces;
    result = total;
    if (ok) break;
  }
  set_step_size(options.dt);
  if (!result.ok()) {
    state = start;
    return result;
  }
  state.time = start.time + options.dt;
  state.steps = start.steps + 1;
  return result;
}

// A step from the sub-step count the state holds (or one try below it), with
// the retry after a failure; a success updates that count.
StepResult Simulator::Impl::advance(State& state) {
  detail::SubstepStart start = detail::substep_start(state.substep_memory, options);
  // A step past the joints' load limit converges all the same, and lets
  // their swing grow until steps fail. So at a try of fewer sub-steps, one
  // estimate checks both counts against the limit with its margin (see
  // substeps_within_load_limit): a held count the loads have outgrown (they
  // change as the mechanism swings) is raised to the first count within it,
  // and a try past it is declined as if it had failed.
  // A spring too stiff for dt converges too, and its swing grows from the
  // first step (a hinged link at 0.95 of its springs' limit swung from 0.1
  // to 0.59 rad in three steps before the fourth failed): a state's first
  // step estimates that limit (no loads yet) and starts within its margin.
  // Not with contacts or joint limits: a first step knows none of their
  // impulses yet, and they can hold the spring (the gripper's finger springs
  // squeeze a cube at 3.5 times their own limit in plain steps, as well as in
  // sub-steps); later estimates keep the ones the last step held.
  int within = 0;  // sub-steps the load limit asks for; 0 until estimated
  if (start.probe) {
    within = substeps_within_load_limit(state);
    if (within > start.held_count)
      start = detail::raise_count(state.substep_memory, within, options);
    else if (within > start.first)
      start = detail::decline_try(state.substep_memory, start, options);
  } else if (has_springs && state.steps == 0 && ineq.empty() && broad.empty()) {
    within = substeps_within_load_limit(state);
    if (within > start.held_count) start = detail::raise_count(state.substep_memory, within, options);
  }
  StepResult result;
  if (start.first > 1) {
    result = substep(state, result, start.first);
  } else {
    prepare(state);
    result = solve(state);
    // Sub-steps can carry what one step cannot: a transient too fast for dt,
    // a spin past a quarter turn per step, a Newton system that does not
    // factorize at this dt.
    const bool retry = result.status == StepStatus::NotConverged || result.status == StepStatus::Diverged ||
                       result.status == StepStatus::SolverFailure;
    // The retry skips the counts past the joints' load limit (with its
    // margin): their sub-steps may converge, but the loads' swing grows
    // until they fail too. A held count that fails climbs without an
    // estimate: its tries were checked, and the failures of a count held
    // near the limit would otherwise each cost one. A try that failed here
    // was estimated already, at the same state.
    if (retry && options.max_substeps >= 2) {
      if (within == 0) within = substeps_within_load_limit(state);
      result = substep(state, result, next_substeps(1, options.max_substeps), within);
    }
  }
  if (result.ok()) detail::remember_substeps(state.substep_memory, start, result.substeps, options);
  return result;
}

void Simulator::Impl::report_failed_node(int node, StepResult& result) const {
  if (node >= 0 && node < nb) result.failed_body = node;
  if (node >= nb) result.failed_joint = detail::joint_of_node(mg, node);
  result.failed_coupling = detail::coupling_of_node(mg, node);
  const int site = ineq.site_of_node(node);
  if (site >= 0 && site < ground_sites) result.failed_contact = site;
  if (site >= ground_sites) {
    result.failed_collider_a = sites[site].feature.collider_a;
    result.failed_collider_b = sites[site].feature.collider_b;
  }
}

Simulator::Simulator(const Model& model, const StepOptions& options) {
  if (model.num_bodies() == 0) throw std::invalid_argument("dynamics::Simulator: the model has no bodies");
  if (!(options.dt > 0.0) || !std::isfinite(options.dt))
    throw std::invalid_argument("dynamics::Simulator: dt must be positive, got " + detail::format_number(options.dt));
  // The residual divides joint errors by dt and the merit squares them: far
  // below any physical step, they would overflow.
  if (options.dt < kSmallestStep)
    throw std::invalid_argument("dynamics::Simulator: dt must be at least " + detail::format_number(kSmallestStep) +
                                " s, got " + detail::format_number(options.dt));
  if (!(options.tolerance > 0.0))
    throw std::invalid_argument("dynamics::Simulator: tolerance must be positive, got " +
                                detail::format_number(options.tolerance));
  if (options.max_iterations < 1) throw std::invalid_argument("dynamics::Simulator: max_iterations must be >= 1");
  if (options.max_substeps < 1) throw std::invalid_argument("dynamics::Simulator: max_substeps must be >= 1");
  if (options.substep_hold < 0) throw std::invalid_argument("dynamics::Simulator: substep_hold must be >= 0");
  if (options.max_line_search < 0) throw std::invalid_argument("dynamics::Simulator: max_line_search must be >= 0");
  if (!(options.reuse_factorization_below >= 0.0 && options.reuse_factorization_below <= 0.5))
    throw std::invalid_argument("dynamics::Simulator: reuse_factorization_below must lie in [0, 0.5], got " +
                                detail::format_number(options.reuse_factorization_below));
  if (!(options.regularization >= 0.0))
    throw std::invalid_argument("dynamics::Simulator: regularization must be >= 0");
  if (!(options.max_regularization >= options.regularization) || !std::isfinite(options.max_regularization))
    throw std::invalid_argument("dynamics::Simulator: max_regularization must be finite and >= regularization");
  if (!(options.interior_tolerance > 0.0) || !(options.complementarity_tolerance > 0.0))
    throw std::invalid_argument("dynamics::Simulator: interior and complementarity tolerances must be positive");
  if (!(options.fraction_to_boundary > 0.0 && options.fraction_to_boundary < 1.0))
    throw std::invalid_argument("dynamics::Simulator: fraction_to_boundary must lie in (0, 1), got " +
                                detail::format_number(options.fraction_to_boundary));
  require_finite_nonnegative(options.contact_regularization, "contact_regularization");
  require_finite_nonnegative(options.friction_regularization, "friction_regularization");
  impl_ = std::make_unique<Impl>(model, options);
}

Simulator::~Simulator() = default;
Simulator::Simulator(Simulator&&) noexcept = default;

StepResult Simulator::step(State& state) {
  check_state(impl_->model, state);
  for (int b = 0; b < impl_->nb; ++b) {
    // A quaternion off unit norm is a rotation only after normalizing, which
    // the joint and contact equations do not do: its bodies would be sheared.
    if (!(std::abs(state.orientation[b].norm() - 1.0) <= kUnitNormSlack) || !state.position[b].allFinite() ||
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
  return impl_->advance(state);
}

const Model& Simulator::model() const { return impl_->model; }
const StepOptions& Simulator::options() const { return impl_->options; }
long Simulator::fill_blocks() const { return impl_->symbolic.stats().fill_blocks; }
LoadFrequency Simulator::load_frequency(const State& state) const { return impl_->load_frequency(state); }

// The smallest count of the retry sequence whose sub-steps stay within
// three quarters of the state's load limit: the loads change as the
// mechanism moves (a swinging chain's tension peaks at the bottom of its
// swing), and the command line suggests the same fraction. 1 without an
// estimate, and with substep_hold 0, which sub-steps only failed steps and
// estimates nothing (an estimate at every failure would cost a long chain
// that fails every step more than the failures).
int Simulator::Impl::substeps_within_load_limit(const State& state) {
  constexpr double kMargin = 0.75;
  if (options.substep_hold == 0) return 1;
  return detail::substeps_within(options.dt, kMargin * load_step_limit(state), options.max_substeps);
}

// The load limit of the state's steps (see load_frequency); infinite without
// a joint that carries a load or a spring, or without an estimate. A state
// that holds no joint impulses yet (its first step) gets the limit of its
// springs alone. The first estimate sizes the simulator's storage for them;
// the later ones allocate nothing.
double Simulator::Impl::load_step_limit(const State& state) {
  constexpr double kNone = std::numeric_limits<double>::infinity();
  const bool impulses = holds_impulses(state);
  if (!loads_stiffen || !(impulses || has_springs)) return kNone;
  try {
    if (!load_estimator) {
      load_estimator = std::make_unique<detail::LoadEstimator>(model);
      load_forces.resize(nj);
    }
    if (impulses) {
      joint_forces(state, load_forces);
      held_rows(state, load_poses, load_held);
    } else {
      std::fill(load_forces.begin(), load_forces.end(), Vector3::Zero());
      load_held.clear();
    }
    return load_estimator->estimate(state, load_forces, load_held).step_limit;
  } catch (const std::exception&) {
    return kNone;
  }
}

LoadFrequency Simulator::Impl::load_frequency(const State& state) const {
  check_state(model, state);
  if (!holds_impulses(state))
    throw std::invalid_argument("dynamics::Simulator::load_frequency: the state holds no joint impulses of this "
                                "simulator (take a step first)");
  std::vector<Vector3> child_force(nj);
  joint_forces(state, child_force);
  std::vector<Pose> poses;
  std::vector<detail::HeldRow> held;
  held_rows(state, poses, held);
  return detail::load_frequency(model, state, child_force, held);
}

// The rows of the contacts and limits that the state's last step held, at
// its poses; the same noise as joint_forces (an impulse within the Newton
// tolerance on momenta).
void Simulator::Impl::held_rows(const State& state, std::vector<Pose>& poses,
                                std::vector<detail::HeldRow>& rows) const {
  rows.clear();
  if (ineq.empty()) return;
  poses.resize(nb);
  for (int b = 0; b < nb; ++b) poses[b] = detail::body_pose(state, b);
  ineq.held_rows(state.multipliers, poses, state.multipliers_dt, options.interior_tolerance * mass_scale, rows);
}

// Each joint's translational force on its child: G_x^T L over the step.
// An impulse within the Newton tolerance on momenta (tol m_s) is the
// solve's noise, not a load: a chain resting on the ground would otherwise
// report a "limit" of days.
void Simulator::Impl::joint_forces(const State& state, std::vector<Vector3>& child_force) const {
  const double tol = ineq.empty() ? options.tolerance : options.interior_tolerance;
  const double noise = tol * mass_scale / state.multipliers_dt;
  JointEvaluation e;
  for (int j = 0; j < nj; ++j) {
    child_force[j].setZero();
    if (joint_row[j] < 0) continue;
    const int rows = model.joint(j).num_constraints();
    detail::evaluate_joint(model, mg, state, j, true, e);
    const Vector3 force =
        e.child.topLeftCorner(rows, 3).transpose() * state.multipliers.segment(joint_row[j], rows) / state.multipliers_dt;
    if (force.norm() > noise) child_force[j] = force;
  }
}

int Simulator::graph_nodes() const { return impl_->mg.graph.num_nodes(); }

}  // namespace dynamics
