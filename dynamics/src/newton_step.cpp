// Newton's method on the step equations (see simulator.hpp): warm start,
// factorization, line search, the interior-point directions with contacts,
// and the accepted step written back to the state.

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "dynamics/quaternion.hpp"
#include "position_roundoff.hpp"
#include "simulator_impl.hpp"

namespace dynamics {

// The next point along the direction (step, daux): velocities and impulses
// by alpha, slacks by alpha. False if the quaternion update breaks down.
bool Simulator::Impl::try_point(double alpha) {
  trial = s + alpha * step;
  if (inequalities_on()) trial_aux = aux + alpha * daux;
  return predict(trial, trial_next);
}

// The condensed interior-point rows span many orders of magnitude near the
// solution; one round of iterative refinement recovers the digits the
// elimination loses.
void Simulator::Impl::solve_refined() {
  if (equality_in_use) {  // never equilibrated
    equality->solve_refined(lu, matrix, rhs, step);
    return;
  }
  equilibration.scale(rhs);  // consumed: S b
  lu.solve_refined(equilibration.to_refine(matrix), rhs, step, 1);
  equilibration.scale(step);  // x = S y
}

void Simulator::Impl::solve_in_place(Eigen::VectorXd& x) {
  if (equality_in_use) {
    equality->solve_in_place(lu, x);
    return;
  }
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

double Simulator::Impl::step_to_boundary(const detail::Complementarity& comp) const {
  const double alpha = ineq.max_step(s, aux, step, daux, boundary_fraction(comp));
  return centrality > 0.0 ? ineq.centred_step(s, aux, step, daux, alpha, centrality) : alpha;
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
  // Without inequalities (or with them skipped) there is no gap to read.
  const auto gap = [&](const Eigen::VectorXd& u, const Eigen::VectorXd& a) {
    return inequalities_on() ? gap_scale * ineq.complementarity_gap(u, a, target) : 0.0;
  };
  const double merit = std::sqrt(squares + gap(s, aux));
  double trial_merit = merit;
  bool evaluated = false;  // the trial_* buffers describe `trial`
  for (int k = 0; k <= options.max_line_search; ++k, alpha *= 0.5) {
    evaluated = try_point(alpha);
    if (!evaluated) continue;
    trial_squares = evaluate(trial, trial_aux, trial_next, trial_residual, trial_joint_next, trial_coupling_next,
                             trial_ineq_next, trial_errors, jacobians);
    trial_merit = std::sqrt(trial_squares + gap(trial, trial_aux));
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
  if (start_velocities != nullptr) {  // a restart's start (see solve())
    s.head(6 * nb) = start_velocities->head(6 * nb);
    extrapolated = false;
    return predict(s, next);
  }
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
  constexpr int kMost = State::kEarlierSolutions;
  const int length = std::clamp(state.earlier_solutions, 0, kMost);
  int depth = 0;
  while (depth < length && state.previous_multipliers[depth].size() == dim) ++depth;
  if (depth == 0) return false;
  // history[i] = u_k-i. Two rows at a time, the difference table gives
  // D^p u_k for every order p at once: two passes over the rows (the sizes
  // of the orders, then the sum of those taken) instead of one per
  // difference. The depth is a compile-time constant and the pairs of rows
  // whole vectors, so that the table stays in registers (a table of single
  // rows went through the stack, where GCC's vector loads of its scalar
  // stores stalled: 20% of a step).
  const double* history[kMost + 1] = {state.multipliers.data()};
  for (int i = 0; i < depth; ++i) history[i + 1] = state.previous_multipliers[i].data();
  const int rows = 6 * nb;  // the velocities, an even count
  using Rows = Eigen::Array2d;
  const auto extrapolate_to = [&](auto depth_constant) {
    constexpr int D = decltype(depth_constant)::value;
    // After it, table[p - 1] = D^p u_k; each entry is one subtraction of
    // entries of the order below.
    const auto differences = [&](int row, std::array<Rows, D>& table) {
      for (int i = 0; i < D; ++i)
        table[i] = Eigen::Map<const Rows>(history[i] + row) - Eigen::Map<const Rows>(history[i + 1] + row);
      for (int p = 1; p < D; ++p)
        for (int i = D - 1; i >= p; --i) table[i] = table[i - 1] - table[i];
    };
    std::array<Rows, D> squares, table;
    squares.fill(Rows::Zero());
    for (int row = 0; row < rows; row += 2) {
      differences(row, table);
      for (int p = 0; p < D; ++p) squares[p] += table[p] * table[p];
    }
    int orders = 1;
    while (orders < D && squares[orders].sum() < squares[orders - 1].sum()) ++orders;
    for (int row = 0; row < rows; row += 2) {
      differences(row, table);
      Eigen::Map<Rows> start(s.data() + row);
      for (int p = 0; p < orders; ++p) start += table[p];
    }
  };
  static_assert(kMost == 4, "one case per depth");
  switch (depth) {
    case 1: extrapolate_to(std::integral_constant<int, 1>{}); break;
    case 2: extrapolate_to(std::integral_constant<int, 2>{}); break;
    case 3: extrapolate_to(std::integral_constant<int, 3>{}); break;
    default: extrapolate_to(std::integral_constant<int, 4>{}); break;
  }
  return true;
}

StepResult Simulator::Impl::newton(State& state) {
  joint_next_ends_step = false;  // the start's prediction takes `next`
  StepResult result;
  const bool interior = inequalities_on();
  const double tol = interior ? options.interior_tolerance : options.tolerance;
  const double momentum_tol = std::max(tol * mass_scale, momentum_roundoff());
  const double complementarity_tol = options.complementarity_tolerance * mass_scale;
  // Known terms past the double range (h m g at dt = 1e308) would make the
  // tolerance infinite and accept the start unsolved, an unchanged state.
  if (!std::isfinite(momentum_tol)) {
    result.status = StepStatus::Diverged;
    result.residual = kInfinity;
    return result;
  }
  if (!warm_start(state, interior)) {  // a body already turns a quarter turn per step: no start
    result.status = StepStatus::Diverged;
    result.residual = kInfinity;
    for (int b = 0; b < nb && result.failed_body < 0; ++b)
      if (!turns_within_a_quarter(state.angular_velocity[b], dt())) result.failed_body = b;
    return result;
  }
  if (interior) ineq.initialize(s, aux, next);  // inequality multipliers and slacks start inside
  else if (skip_inequalities) ineq.zero_impulses(s);
  Errors errors, trial_errors;
  double squares = evaluate(s, aux, next, residual, joint_next, coupling_next, ineq_next, errors, true);
  const auto complementarity = [&] { return interior ? ineq.complementarity(s, aux) : detail::Complementarity{}; };
  detail::Complementarity comp = complementarity();
  graphsolve::FactorOptions factor_options;
  factor_options.constraint_shift = -std::max(options.regularization / mass_scale, pivot_regularization);
  bool grown_for_pivot = false;
  // Condensed slack rows scale like slack / multiplier, which spans many
  // orders of magnitude near the solution, and held limits' rows carry a
  // diagonal far below their neighbours' (an identity row for the node's
  // other limit, say): only exactly singular pivots fail.
  if (interior || ineq.holding_limits()) factor_options.pivot_tolerance = 0.0;
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
        report_failed_node(equality_in_use ? equality->full_node(lu.failed_node()) : lu.failed_node(), result);
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
      alpha = step_to_boundary(comp);
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
      alpha = step_to_boundary(comp);
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
    comp = complementarity();
  }
  if (restarted_converged && result.status != StepStatus::Success) {
    // The restart did not converge again: keep the solution it started from.
    s.swap(converged_point);
    predict(s, next);
    evaluate(s, aux, next, residual, joint_next, coupling_next, ineq_next, errors, false);
    jacobians_at_s = false;
    result.status = StepStatus::Success;
    result.failed_body = result.failed_joint = result.failed_coupling = -1;
  }
  result.residual = errors.dynamics;
  result.constraint_residual = errors.constraint;
  result.inequality_residual = errors.inequality;
  result.complementarity = comp.max;
  // Without its inequalities, a step stands only if they are all still open.
  open_check_failed = skip_inequalities && result.status == StepStatus::Success &&
                      !ineq.open_at(s, next, joint_next, ineq_next, push_noise());
  if (open_check_failed) result.status = StepStatus::NotConverged;
  result.min_signed_distance = ineq.min_signed_distance(ineq_next);
  result.collider_contacts = static_cast<int>(features.size());
  if (result.status != StepStatus::Success) return result;
  // The last check of convergence evaluated the joints at `next` without
  // their Jacobians: the next step's G(z_k) (see prepare()).
  if (!jacobians_at_s) joint_jacobians(next, joint_next);
  joint_next_ends_step = true;
  for (int b = 0; b < nb; ++b) {
    state.position[b] = next[b].position;
    state.orientation[b] = next[b].orientation;
    state.velocity[b] = s.segment<3>(6 * b);
    state.angular_velocity[b] = s.segment<3>(6 * b + 3);
  }
  // Each joint turned by less than half a turn (a body by less than a
  // quarter); joint_next holds every such joint (they all have rows) at `next`.
  for (int j : turning_joints)
    state.joint_angles[j] = detail::unwrap_angle(detail::relative_angle(model.joint(j), joint_next[j].relative),
                                                 angles_now[j]);
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

}  // namespace dynamics
