#pragma once
// One time step of the first-order variational integrator (symplectic Euler in
// maximal coordinates). From z_k and the velocities that led to it, solve
//   dynamics   M (v' - v) - dt (m g + f) - G_x(z_k)^T L = 0
//              dt/2 (s' J w' + w' x J w') - dt/2 (s J w - w x J w) - dt tau - G_r(z_k)^T L = 0
//   joints     g(z_k+1(v', w')) = 0   (and joint couplings, c(z_k+1) = 0)
// for the new velocities (v', w') and the joint impulses L by Newton's method,
// then move to z_k+1 = (x + dt v', q * dt/2 [s'; w']) with s = sqrt(4/dt^2 - |w|^2).
// Every Newton system is a graphsolve system on the mechanism graph (bodies and
// joints are nodes), analysed once in the constructor; step() allocates nothing once the
// state's warm-start history is full (its first five steps size it).
//
// With contacts or joint limits (inequalities), the same equations gain the
// contact and limit impulses, 0 <= phi(z_k+1) perp gamma >= 0 and the friction
// conditions, and the Newton iteration becomes a primal-dual interior-point
// method: slacks for the inequalities, complementarity relaxed to a central
// path parameter driven to zero by Mehrotra's predictor-corrector (one
// factorization, two solves per iteration) and a fraction-to-the-boundary
// line search; a step whose contacts and limits are all open and stay so is
// solved without them (StepOptions::skip_open_inequalities). Each ground
// contact is one graph node attached to its body (a leaf); each limited joint
// has one limit node; each contact between two colliders is a node attached
// to both bodies. The broad phase runs at the
// start of every step; when it changes the set of contacts between colliders,
// the graph is analysed again (the only other time step() allocates). See
// docs/contacts.md.

#include <limits>
#include <memory>

#include "dynamics/model.hpp"
#include "dynamics/state.hpp"

namespace dynamics {

struct StepOptions {
  double dt = 0.01;  // s, at least 1e-100 (the step equations divide by it)
  // Without inequalities: the max-norm of g (m, rad-ish) and of the momentum
  // residual over the mass scale (N s / m_s, a velocity) must be below this.
  // m_s, the mechanism's mass scale, is the geometric mean of its body masses;
  // the momentum-like quantities below are measured against it too, so that a
  // mechanism scaled uniformly in mass solves like the 1 kg one. Joint
  // (and contact) equations are held to at least the round-off of the
  // positions, 8 eps max|x| (and that over dt): see "Position round-off" in
  // docs/dynamics.md.
  double tolerance = 1e-10;
  int max_iterations = 50;
  // A step that fails (not converged, diverged or a failed factorization) is
  // retried from where it started as 2, then 4, ... equal sub-steps, up to
  // this many (1: never); a count that is not a power of two is the last
  // retry (6: 2, 4, 6; see next_substeps); on mechanisms whose joints carry
  // loads or springs the retry skips the counts whose sub-steps are past
  // three quarters of the loads' step limit (one estimate, see
  // load_frequency; not with substep_hold 0). A sub-stepped step ends at t + dt like any other,
  // with the velocities of its last sub-step, dt / StepResult::substeps. The
  // first retry allocates the simulator's copy of the state, and the first
  // load estimate the storage of the later ones. The warm start
  // extrapolates only over solutions of one step size, so it restarts (in the
  // storage it has) when the size changes.
  // Rare stalls of contact-rich scenes go through instead of ending a run.
  int max_substeps = 8;
  // After a step that needed k sub-steps, the next steps start as k of them
  // (State::substep_memory), skipping the attempts that just failed (up to
  // max_iterations iterations each) and keeping their warm start (a step
  // that then fails at every count up to max_substeps tries the counts below
  // k last, fewest first: a stall depends on the start too); after this
  // many, one step tries the next lower count of the retry sequence. A try
  // that fails doubles the wait (up to 1024 steps, or this if larger): an
  // isolated failure costs a few sub-stepped steps, a lasting need eight
  // failed tries in the first thousand steps. On mechanisms whose joints
  // carry loads or springs each try first estimates the loads' step limit
  // (load_frequency): a try past three quarters of it (the loads change as
  // the mechanism moves) is declined like a failed one, and a held count
  // past that is raised to the first count within it; so is the first step
  // of a state (State::steps 0) on mechanisms with joint springs and no
  // contacts or limits, against the springs' limit. 0: every step starts as
  // one step, only failures sub-step, and nothing is estimated.
  int substep_hold = 4;
  int max_line_search = 30;   // halvings of the Newton step
  // Over m_s, added (negated) to the diagonal of joint nodes so that redundant
  // constraints (planar loops in 3D) stay solvable; the residual stays exact.
  double regularization = 1e-10;
  // When no Newton direction lowers the residual any more, or a joint pivot
  // falls below the pivot tolerance, the regularization grows 100-fold (up to
  // this bound) and the system is factorized again. After growing for a failed
  // pivot, the simulator's later steps start where the pivots held.
  // Redundancy that holds only to first order (a loop over-constrained in some
  // poses) leaves the regularized directions too inaccurate to finish the
  // step; a larger shift gives an inexact Newton direction that still
  // converges to the exact equations. Equal to `regularization`: never grows.
  double max_regularization = 1e-4;
  // Without inequalities, a Newton iteration may reuse the last factorization
  // (a chord step) when the iteration before it cut the residual 2-norm at
  // least by this factor; otherwise, and whenever a chord step fails its line
  // search, the system is refactorized. 0 refactorizes every iteration; at
  // most 0.5, so that chord steps at least halve the residual (near 1 they
  // would crawl into max_iterations). The interior-point method always
  // refactorizes: its condensed rows change every iteration.
  double reuse_factorization_below = 0.1;
  // Interior-point method (models with contacts or joint limits): it replaces
  // `tolerance` by `interior_tolerance` for every equation (bodies, joints and
  // the slack equations phi/dt - s and friction rows, max-norms; the body
  // rows and friction budgets, impulses, over m_s) and needs every
  // complementarity product (slack times multiplier) below
  // `complementarity_tolerance` times m_s. A step covers at most the fraction
  // max(fraction_to_boundary, 1 - mu) of the distance to the boundary.
  double interior_tolerance = 1e-8;
  double complementarity_tolerance = 1e-8;
  double fraction_to_boundary = 0.995;
  // Contacts yield by a tiny amount: a contact's distance equation is
  // phi/dt + (contact_regularization / m) gamma = s (m: its body's mass, the
  // reduced mass for two bodies), so a body resting on one contact sinks by
  // contact_regularization |g| dt^2 (1e-9 m at the defaults; on n contacts
  // sharing its weight, 1/n of that) and an impact
  // leaves a relative velocity of about this fraction of its speed change.
  // Without it, a mechanism on more supports than it needs (a cart on two
  // cylinder wheels and a caster) has loads that the rigid equations do not
  // determine; with friction they decide how fast each wheel spins, so the
  // velocities are not determined either, and the interior-point matrix turns
  // singular as the iteration converges (most steps of a skidding cart
  // stalled). 0: perfectly rigid contacts.
  double contact_regularization = 1e-6;
  // Friction yields far less: a contact's tangential velocity rows gain
  // (friction_regularization / m) times its friction impulses, so a sticking
  // contact creeps at that times its friction impulse (7e-12 m/s for a cube
  // sticking on an incline of 0.3 rad at the defaults) instead of holding
  // exactly. Without it, a mechanism sticking on more contacts than it needs
  // (a legged robot on its feet, its knees at their limits) has friction
  // impulses that the rigid equations do not determine: the interior-point
  // direction moved them by 1 N s to fix momenta of 1e-8 N s, and the
  // round-off of that kept the body rows above the tolerance (steps stalled
  // just short of it). 0: friction holds exactly.
  double friction_regularization = 1e-9;
  // Joint friction (Joint::friction) is -friction tanh(rate / this): full
  // above a few times this rate (m/s or rad/s), a stiff damper below it.
  // Smaller holds a loaded joint closer to still, at the price of a stiffer
  // Newton iteration.
  double joint_friction_velocity = 1e-3;
  // A step with contacts or joint limits whose interior-point iteration
  // stalls (NotConverged) is first solved again from the same start with its
  // steps kept near the central path: each step is shortened until no pair's
  // complementarity product falls below 1/100 of their mean. Mehrotra's long
  // steps can drive one pair's product to 1e-21 while the others sit at
  // 1e-8; every direction after that drives one of its two members to zero
  // and is cut to steps of 1e-5 (a friction pair of a landing foot swinging
  // between its bounds). Kept centred, the iteration converges in a few more
  // iterations than usual; on random quadruped drops this carried most of the
  // stalls that the friction restarts did not (docs/contacts.md). The answer
  // meets every tolerance, as any step's. Costs nothing on steps that
  // converge, and allocates nothing. false: go on at once to the friction
  // restarts, sub-steps or failure.
  bool centred_restart = true;
  // A step with friction whose interior-point iteration stalls (NotConverged)
  // and that the centred restart does not carry is solved again, before any
  // sub-steps, from other starts: the velocities of the same step solved
  // without friction, then with half the friction coefficients, then rest
  // (every contact starting as sticking), until one
  // converges. Each restart is a solve with the model's friction that must
  // meet every tolerance as any step does: the answer solves the same step
  // equations, found from a start the iteration can reach it from. Friction
  // makes a step's complementarity problem non-monotone, and the usual start
  // (the last velocities: a sliding foot starts sliding) can stall where a
  // sliding foot lands with enough friction to tip its leg into the ground
  // (Painleve's configuration); on random quadruped drops the restarts
  // carried 33 of the 39 that failed (docs/contacts.md). Costs nothing on
  // steps that converge; the first use allocates the simulator's copy of the
  // state. false: fail (and sub-step) as before.
  bool friction_restarts = true;
  // A step whose contacts and joint limits are all open at its start (every
  // one apart, not closing its gap within two steps at its current rate, and
  // not pushing in the last step) is first solved without them: as a step of
  // the joints alone, by Newton's method with its warm start and `tolerance`
  // (usually one or two iterations, where the interior-point method takes
  // several). It stands if every contact and limit is still open at its end:
  // zero impulses then solve their complementarity conditions exactly, so it
  // is the step with them, and StepResult::inequalities_skipped says so.
  // Likewise a step whose contacts are all open is then tried with joint
  // limits held as equality constraints (value(z_k+1) = bound, to the
  // tolerance, inside) and the rest left out: those pushed by the last
  // step's impulse (a joint resting on its stop) and those an open attempt
  // that converged in a few iterations ended past. It stands if each held
  // limit's impulse pushes and the rest are open at its end, which solves
  // their complementarity conditions (StepResult::limits_held); otherwise
  // the limits that pull are let go of, those passed are held, and the step
  // solved again, a few times, before the interior point.
  // Otherwise the step is solved with them, its attempts counted in
  // StepResult::iterations. false: always solve with them.
  bool skip_open_inequalities = true;
};

enum class StepStatus {
  Success,
  NotConverged,   // max_iterations reached; the state is left unchanged
  SolverFailure,  // a Newton system could not be factorized (see failed_body / _joint / _coupling)
  InvalidInput,   // a non-finite value in the state or inputs, or an orientation that is not a
                  // unit quaternion (norm off 1 by more than 1e-6: normalize it); see failed_body
  Diverged,       // the step equations overflow, or a step would turn a body by a quarter turn
                  // or more (|w| >= sqrt(2)/dt, past which a step's rotational momentum falls
                  // as the spin rises): dt is too large for this motion
};

const char* to_string(StepStatus status);

// The sub-step count a failed step tries after `substeps` (1: the plain step):
// twice as many, capped at max_substeps; 0 once max_substeps has been tried.
// From 1 with max_substeps 3: 2, 3; with 8: 2, 4, 8.
int next_substeps(int substeps, int max_substeps);

struct StepResult {
  StepStatus status = StepStatus::Success;
  // Newton iterations (directions solved) and Newton systems factorized (at
  // most as many), summed over a step's sub-steps and the attempts before them.
  int iterations = 0;
  int factorizations = 0;
  // Equal sub-steps the step took (see StepOptions::max_substeps); a failed
  // step's last try, whose residuals the fields below give.
  int substeps = 1;
  double residual = 0.0;          // final max-norm of the dynamics residual
  double constraint_residual = 0.0;  // final max |g(z_k+1)|
  int failed_body = -1;           // body or joint whose pivot failed (SolverFailure); the body
                                  // turning a quarter turn per step (Diverged at the start of a step);
                                  // the body with the bad value (InvalidInput; -1: joint_input)
  int failed_joint = -1;
  int failed_coupling = -1;       // joint coupling whose pivot failed
  int failed_contact = -1;
  int failed_collider_a = -1;     // the two colliders of a failed contact between bodies
  int failed_collider_b = -1;
  // Interior-point measures (0 and +inf without inequalities).
  double inequality_residual = 0.0;  // max |phi/dt - slack| and friction equation residuals
  double complementarity = 0.0;      // largest complementarity product
  double min_signed_distance = 0.0;  // smallest contact distance at the new configuration (+inf: no contacts)
  int collider_contacts = 0;         // contacts between colliders the broad phase kept for this step
  // The step (or a sub-step of it) was solved by a restart
  // (StepOptions::centred_restart, friction_restarts); its iterations, and
  // those of the attempts before it, are counted above.
  bool centred_restart = false;
  bool friction_restart = false;
  // The step (every sub-step of it) was solved without its contacts and
  // limits, all open (StepOptions::skip_open_inequalities).
  bool inequalities_skipped = false;
  // The step was solved with the joint limits that pushed at its start held
  // as equalities, the other contacts and limits left out (each sub-step
  // that way or without them, at least one that way; see
  // StepOptions::skip_open_inequalities).
  bool limits_held = false;
  bool ok() const { return status == StepStatus::Success; }
};

// How fast the joints' loads make a mechanism swing, and the step size that
// follows it (Simulator::load_frequency). The step equations apply each joint
// force at its lever arm as placed at the start of the step, so a load turns
// a body as an explicit spring would: a chain hanging under tension T has a
// zigzag of neighbouring links at sqrt(T l / J) rad/s (l the joint spacing, J
// the link's inertia), and symplectic Euler lets a motion at rate omega grow
// once omega dt > 2 (docs/dynamics.md, "Loaded joints"). Joint springs,
// read at the start of the step too, add their stiffness; joint dampers,
// which act on the new velocities, lengthen the limit.
struct LoadFrequency {
  double rate = 0.0;  // rad/s: the largest omega of K x = omega^2 M x over motions the joints (and held contacts) allow
  double step_limit = std::numeric_limits<double>::infinity();  // s: 2 / rate, longer with dampers
  int body = -1;      // the body that moves most in that motion (-1: no load stiffens any)
  // Of that motion's stiffness, the share of the joint springs (0 to 1; the
  // rest: the joint loads' lever arms), and the joint whose spring gives the
  // most of it (-1: no spring moves in it).
  double spring_share = 0.0;
  int spring_joint = -1;
};

class Simulator {
 public:
  // Keeps a reference to the model, which must outlive the simulator and not
  // change (step() and load_frequency() throw std::logic_error if it gained
  // elements). Throws std::invalid_argument for bad options or an empty model.
  explicit Simulator(const Model& model, const StepOptions& options = {});
  // A temporary model would be gone before the first step: refused at compile time.
  explicit Simulator(Model&& model, const StepOptions& options = {}) = delete;
  ~Simulator();
  Simulator(Simulator&&) noexcept;
  Simulator& operator=(Simulator&&) = delete;
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  // Advance the state by one step. On failure the state is unchanged.
  StepResult step(State& state);

  const Model& model() const;
  const StepOptions& options() const;
  // Fill-in of the analysed Newton system (zero for mechanisms without loops),
  // for the graph of the last step.
  long fill_blocks() const;
  // The rate and step limit of the state's joint loads: the joint impulses of
  // the last step that produced the state (State::multipliers, over
  // State::multipliers_dt), linearized about its poses, with the joint
  // springs; joint dampers lengthen the limit beyond 2 / rate. Gravity acts
  // at the centres of mass and stiffens nothing. Contacts and joint limits
  // that the step held (pressed, sticking, pushed) keep their rows closed as
  // the joints do; the lever effect of their own impulses, couplings' own
  // forces and joint impulses within the Newton tolerance on momenta (the
  // solve's noise) are left out. Restarted Lanczos on the linearized
  // motion (one factorization and a few dozen solves: 120 ms for 1000 links;
  // a few Lanczos runs with dampers); it allocates (the simulator's own
  // estimates, at sub-step tries, reuse storage it keeps), so call it on
  // demand (after a failed step, every few hundred steps), not every step. Throws
  // std::invalid_argument when the state holds no impulses of this
  // simulator's system (no step yet), std::runtime_error when the constraint
  // system cannot be factorized.
  LoadFrequency load_frequency(const State& state) const;

  // Nodes of the graph the Newton systems live on (body nodes
  // 0..bodies-1, then joints and limits, couplings, ground contacts, collider contacts).
  int graph_nodes() const;

 private:
  struct Impl;
  // The state; throws std::logic_error on a moved-from Simulator, which has
  // none.
  Impl& impl() const;
  std::unique_ptr<Impl> impl_;
};

}  // namespace dynamics
