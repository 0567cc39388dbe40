// The simulator's state between steps and the step's workspace, shared by
// the files that implement it: simulator.cpp (construction, sub-steps, the
// public calls), step_equations.cpp (the step equations' residual and Newton
// matrix), newton_step.cpp (Newton's method on them), stall_restarts.cpp and
// open_steps.cpp (which solves a step takes).
#pragma once

#include <array>
#include <limits>
#include <memory>
#include <vector>

#include "broad_phase.hpp"
#include "dynamics/simulator.hpp"
#include "equality_system.hpp"
#include "equilibration.hpp"
#include "inequalities.hpp"
#include "joint_kinematics.hpp"
#include "load_frequency.hpp"
#include "mechanism_graph.hpp"

namespace dynamics {

struct Simulator::Impl {
  using JointEvaluation = detail::JointEvaluation;
  using Pose = detail::Pose;

  const Model& model;
  // The model's bodies, joints, contacts, couplings and colliders when the
  // simulator was built: the graph and every array are sized for them.
  std::array<int, 5> built_counts;
  std::array<int, 5> model_counts() const;
  void check_model_unchanged() const;  // std::logic_error if model_counts() moved on
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
  // Where the blocks the step writes live in `matrix` (resolved once per graph).
  detail::BlockTables blocks;
  // The same for each joint coupling: the row of its impulse.
  int nc;
  std::vector<int> coupling_row;
  // The graph without inequalities that open steps factorize (models with
  // joint limits, without equilibration; null otherwise), and whether
  // it is swapped in: then `matrix`, `lu` and `blocks` are its own, and the
  // solves go through it (see use_equality_system).
  std::unique_ptr<detail::EqualitySystem> equality;
  bool equality_in_use = false;
  void use_equality_system(bool on);
  std::vector<Matrix3> turn_rate;  // per body: d(q_k+1)/dw as a body-frame rotation, over dt
  std::vector<int> damped_joints;  // joints with a damper or friction (and coordinates), fixed per model
  std::vector<int> turning_joints;  // joints with one free rotation (State::joint_angles), fixed per model
  bool loads_stiffen = false;      // a joint carries a load or a spring (see load_step_limit)
  bool has_springs = false;        // a joint has a spring (see advance)
  std::vector<detail::RateJacobian> damper_rates;  // per joint (damped_joints only): its rates from u, at z_k
  detail::Inequalities ineq;   // contacts and joint limits

  // Per step: configuration z_k and its joint angles (State::joint_angles),
  // constant parts of the body residuals, G(z_k).
  std::vector<Pose> now;
  std::vector<double> angles_now;
  std::vector<Vector3> linear_known, angular_known;  // momentum from the past and forces over dt
  std::vector<JointEvaluation> joint_now;
  // Joint values and Jacobians at z_k+1 of the accepted and of the trial unknowns.
  std::vector<JointEvaluation> joint_next, trial_joint_next;
  // After a converged step: joint_next holds every joint with rows, with its
  // Jacobians, at `next`, the state's new configuration. The next step from
  // there takes them as its G(z_k) instead of evaluating them again.
  bool joint_next_ends_step = false;
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
  detail::InequalityPoint ineq_next, trial_ineq_next;

  Impl(const Model& m, const StepOptions& o);

  // Row offsets and every buffer sized by the graph.
  void size_workspace();

  void add_damping(const Eigen::VectorXd& u, Eigen::VectorXd& r) const;
  void assemble_damping(const Eigen::VectorXd& u);
  Eigen::Matrix<double, 6, 1> joint_rates(int j, const Eigen::VectorXd& u) const;
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
  static constexpr double kFallbackCentring = 0.1;  // of mu: see newton()
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
  // The step along (step, daux) that the line search starts from: to the
  // boundary's fraction, kept centred during a centred restart.
  double step_to_boundary(const detail::Complementarity& comp) const;
  double centrality = 0.0;  // > 0: a centred restart's (see solve())
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
  // Solves the prepared step: Newton's method (newton) from the state's warm
  // start, and if it stalls with inequalities, the centred restart, then
  // with friction the friction restarts.
  StepResult solve(State& state);
  StepResult newton(State& state);
  // The step solved without its inequalities (see StepOptions::
  // skip_open_inequalities), when they are all open at its start; true if
  // that solved it, with every inequality still open at its end. `result`
  // holds the attempt's work either way (nothing if not tried).
  bool solve_without_inequalities(State& state, StepResult& result);
  // The step solved with joint limits held as equalities and its other
  // contacts and limits left out, when its contacts are open at its start
  // (Inequalities::hold_limits; `open_tried`: an open attempt converged but
  // closed some limit); true if that solved it, every held limit pushing
  // and the rest open at its end. `result` as above.
  bool solve_with_held_limits(State& state, bool open_tried, StepResult& result);
  static constexpr int kHeldLimitTries = 4;  // guesses of which limits close
  static constexpr int kHeldAfterOpenIterations = 3;  // see solve()
  Eigen::VectorXd held_start;  // the last attempt's unknowns, where the next starts
  // The bodies' velocities at z_k into `trial` (free until an iteration starts).
  void velocities_into_trial(const State& state);
  // Set while a step is solved without its inequalities: the equations,
  // the matrix and the iteration leave them out (the graph without their
  // nodes swapped in, or their nodes inactive).
  bool skip_inequalities = false;
  // The last newton() converged without its inequalities, or with held
  // limits, but some were not open at its end (or a held one pulled).
  bool open_check_failed = false;
  bool inequalities_on() const { return !ineq.empty() && !skip_inequalities; }
  // The impulse below which a row does not push (as held_rows reads it).
  double push_noise() const { return options.interior_tolerance * mass_scale; }
  // A restart's start: velocities that replace the warm start's (null:
  // none), and the scratch state of its low-friction solves.
  const Eigen::VectorXd* start_velocities = nullptr;
  Eigen::VectorXd restart_start;
  State restart_state;
  State retry_start;  // where a sub-stepped step started (see substep())
  // Counts from first_pieces (at least fewest) up the retry sequence, below
  // `below` (0: up to max_substeps).
  StepResult substep(State& state, const StepResult& before, int first_pieces, int fewest = 1, int below = 0);
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

}  // namespace dynamics
