// The simulator's construction, its graph (rebuilt when contacts between
// colliders change), sub-steps and public calls. The step itself is in
// step_equations.cpp and newton_step.cpp.
#include "dynamics/simulator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "format_number.hpp"
#include "mass_range.hpp"
#include "simulator_impl.hpp"
#include "substep_schedule.hpp"

namespace dynamics {

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

Simulator::Impl::Impl(const Model& m, const StepOptions& o)
    : model(m),
      built_counts(model_counts()),
      options(o),
      mass_scale(detail::mass_scale(m)),
      ground_sites(m.num_contacts()),
      sites(detail::ground_sites(m)),
      broad(m),
      mg(detail::build_mechanism_graph(m, true, sites)),
      symbolic(graphsolve::analyze(mg.graph)),
      matrix(symbolic),
      lu(symbolic),
      equilibration(m, mg),
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
  angles_now.resize(nj);
  damper_rates.resize(nj);
  for (int j = 0; j < nj; ++j) {
    const Joint& joint = model.joint(j);
    if (detail::has_damper(joint)) damped_joints.push_back(j);
    if (joint.freedom.rotational == 1) turning_joints.push_back(j);
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
  // Only limits: their nodes close cycles on every step. Ground contacts are
  // leaves, which cost no fill, and contacts between colliders join the graph
  // only while their bodies are near; for those the second analysis bought no
  // time (the box drop) and cost memory (a 20000-sphere chain: 23% more).
  if (options.skip_open_inequalities && !mg.limits.empty() && !equilibration.enabled())
    equality = std::make_unique<detail::EqualitySystem>(model, mg, symbolic.pattern());
  found.reserve(64);
  features.reserve(64);
}

// Row offsets and every buffer sized by the graph.
void Simulator::Impl::size_workspace() {
  joint_next_ends_step = false;
  joint_row.assign(nj, -1);
  blocks = detail::resolve_blocks(model, mg, matrix);
  ineq.resolve_blocks(matrix);
  turn_rate.resize(nb);
  for (int j = 0; j < nj; ++j)
    if (mg.joint_node[j] >= 0) joint_row[j] = symbolic.pattern().offset[mg.joint_node[j]];
  coupling_row.assign(nc, -1);
  for (int c = 0; c < nc; ++c) coupling_row[c] = symbolic.pattern().offset[mg.coupling_node[c]];
  for (Eigen::VectorXd* v : {&s, &trial, &residual, &trial_residual, &step, &step_affine, &rhs, &saved_step, &converged_point,
                             &held_start})
    v->setZero(dim);
  for (Eigen::VectorXd* v : {&aux, &trial_aux, &daux, &daux_affine, &saved_daux}) v->setZero(ineq.aux_size());
  ineq.resize(ineq_next);
  ineq.resize(trial_ineq_next);
}

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
  if (equality) equality->map_rows(model, mg, symbolic.pattern());
}

// A step as `first_pieces` equal sub-steps, retried as more of them
// (next_substeps, up to options.max_substeps, or while below `below` if that
// is positive) from the state it started from while it fails, never as fewer
// than `fewest`; `before` holds the
// iterations of failed attempts before this. Every sub-step is a step of the
// same integrator at dt / k (the warm start extrapolates only within one
// size: see extrapolate()). The copy of the start reuses its storage from the last
// sub-stepped step: a run of held sub-steps does not allocate.
StepResult Simulator::Impl::substep(State& state, const StepResult& before, int first_pieces, int fewest,
                                    int below) {
  retry_start = state;
  const State& start = retry_start;
  StepResult result = before;
  const auto next_level = [&](int pieces) {
    const int more = std::max(next_substeps(pieces, options.max_substeps), fewest);
    return more > pieces && (below <= 0 || more < below) ? more : 0;
  };
  if (below > 0 && std::max(first_pieces, fewest) >= below) return result;
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
      const bool centred = total.centred_restart || r.centred_restart;
      const bool restarted = total.friction_restart || r.friction_restart;
      const bool skipped = (i == 0 || total.inequalities_skipped) && r.inequalities_skipped;
      // Without the interior point, some sub-step with held limits.
      const bool held = (i == 0 || total.limits_held || total.inequalities_skipped) &&
                        (r.limits_held || r.inequalities_skipped) && (total.limits_held || r.limits_held);
      total = r;
      total.iterations = iterations;
      total.factorizations = factorizations;
      total.centred_restart = centred;  // by any sub-step
      total.friction_restart = restarted;
      total.inequalities_skipped = skipped;  // by every sub-step
      total.limits_held = held;
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
  // Sub-steps can carry what one step cannot: a transient too fast for dt,
  // a spin past a quarter turn per step, a Newton system that does not
  // factorize at this dt.
  const auto retry = [](const StepResult& r) {
    return r.status == StepStatus::NotConverged || r.status == StepStatus::Diverged ||
           r.status == StepStatus::SolverFailure;
  };
  StepResult result;
  if (start.first > 1) {
    result = substep(state, result, start.first);
    // Fewer sub-steps than the count a step started from are tried last:
    // a stall depends on where the iteration starts as much as on the step's
    // size, and a held count can stall on a step that one plain step solves
    // (the end of a quadruped's landing: 12 iterations as one step, a
    // friction pair swinging between its bounds at 2, 4 and 8 sub-steps). Not
    // below the load limit's count, for the reason below.
    if (retry(result)) {
      if (within == 0) within = substeps_within_load_limit(state);
      result = substep(state, result, within, 1, start.first);
    }
  } else {
    prepare(state);
    result = solve(state);
    // The retry skips the counts past the joints' load limit (with its
    // margin): their sub-steps may converge, but the loads' swing grows
    // until they fail too. A held count that fails climbs without an
    // estimate: its tries were checked, and the failures of a count held
    // near the limit would otherwise each cost one. A try that failed here
    // was estimated already, at the same state.
    if (retry(result) && options.max_substeps >= 2) {
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
  detail::check_mass_range(model, "dynamics::Simulator");
  // Read into every step's known momenta: NaN there read as a diverged step,
  // with a hint at the step size.
  if (!model.gravity.allFinite())
    throw std::invalid_argument("dynamics::Simulator: gravity must be finite, got (" +
                                detail::format_number(model.gravity.x()) + ", " +
                                detail::format_number(model.gravity.y()) + ", " +
                                detail::format_number(model.gravity.z()) + ")");
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
  // An infinite one would accept every start unsolved: steps of no iteration.
  if (!std::isfinite(options.tolerance)) throw std::invalid_argument("dynamics::Simulator: tolerance must be finite");
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
  if (!std::isfinite(options.interior_tolerance) || !std::isfinite(options.complementarity_tolerance))
    throw std::invalid_argument("dynamics::Simulator: interior and complementarity tolerances must be finite");
  if (!(options.fraction_to_boundary > 0.0 && options.fraction_to_boundary < 1.0))
    throw std::invalid_argument("dynamics::Simulator: fraction_to_boundary must lie in (0, 1), got " +
                                detail::format_number(options.fraction_to_boundary));
  require_finite_nonnegative(options.contact_regularization, "contact_regularization");
  require_finite_nonnegative(options.friction_regularization, "friction_regularization");
  if (!(options.joint_friction_velocity > 0.0 && std::isfinite(options.joint_friction_velocity)))
    throw std::invalid_argument("dynamics::Simulator: joint_friction_velocity must be finite and > 0, got " +
                                detail::format_number(options.joint_friction_velocity));
  impl_ = std::make_unique<Impl>(model, options);
}

Simulator::~Simulator() = default;
Simulator::Simulator(Simulator&&) noexcept = default;

std::array<int, 5> Simulator::Impl::model_counts() const {
  return {model.num_bodies(), model.num_joints(), model.num_contacts(), model.num_couplings(), model.num_colliders()};
}

// The simulator keeps a reference to the model: elements added since it was
// built would be left out of the step, or read past its arrays.
void Simulator::Impl::check_model_unchanged() const {
  if (model_counts() != built_counts)
    throw std::logic_error(
        "dynamics::Simulator: the model gained bodies, joints, contacts, couplings or colliders after the "
        "simulator was built; construct a new Simulator for it");
}

StepResult Simulator::step(State& state) {
  Impl& m = impl();
  m.check_model_unchanged();
  check_state(m.model, state);
  for (int b = 0; b < m.nb; ++b) {
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
  // The time only counts the steps, but a NaN there would carry into every
  // later state (and a controller reading it) unnoticed.
  if (!state.joint_input.allFinite() || !std::isfinite(state.time)) {
    StepResult r;
    r.status = StepStatus::InvalidInput;
    return r;
  }
  for (int j = 0; j < m.nj; ++j)
    if (!(std::abs(state.joint_angles[j]) <= detail::kMaxJointAngle)) {  // NaN too
      StepResult r;
      r.status = StepStatus::InvalidInput;
      r.failed_joint = j;
      return r;
    }
  return m.advance(state);
}

Simulator::Impl& Simulator::impl() const {
  if (!impl_) throw std::logic_error("dynamics::Simulator: used after it was moved from (construct a new one)");
  return *impl_;
}

const Model& Simulator::model() const { return impl().model; }
const StepOptions& Simulator::options() const { return impl().options; }
long Simulator::fill_blocks() const { return impl().symbolic.stats().fill_blocks; }
LoadFrequency Simulator::load_frequency(const State& state) const {
  const Impl& m = impl();
  m.check_model_unchanged();
  return m.load_frequency(state);
}

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
  ineq.held_rows(state.multipliers, poses, state.joint_angles, state.multipliers_dt,
                 options.interior_tolerance * mass_scale, rows);
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

int Simulator::graph_nodes() const { return impl().mg.graph.num_nodes(); }

}  // namespace dynamics
