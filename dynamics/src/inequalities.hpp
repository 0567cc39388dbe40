#pragma once
// The inequality constraints of a step (internal): contacts with their friction
// (ground contacts and contacts between colliders, both as contact sites with
// a side a and a side b, b possibly the world) and joint limits, in the
// condensed form the interior-point Newton method factorizes (see
// docs/contacts.md).
//
// Every complementarity pair has one member among the Newton unknowns `u`
// (the graphsolve rows: gamma, beta, psi of a contact node, gamma of a limit
// row) and one eliminated member in `aux` (slacks s, eta, s_psi or x0), tied to
// the unknowns by an equation whose residual lives at the same index of `eq`:
//   contact    eq = [phi(z_k+1)/dt + c gamma - s,  friction rows,  friction limit row]
//   limit      eq = [value(z_k+1)/dt - s]
// Linearized friction rows: B u + psi + k beta - eta and c_f gamma - sum(beta) - s_psi.
// Cone rows: B_t u + k beta - eta and c_f gamma - x0 (k: the friction's
// regularization over the contact's mass), with x = (x0, beta) and
// y = (psi, eta) in the second-order cone and x o y = mu e (Jordan product),
// linearized in the Nesterov-Todd scaling (cone_scaling.hpp).

#include <array>
#include <vector>

#include <Eigen/Core>
#include <graphsolve/graphsolve.hpp>

#include "cone_scaling.hpp"
#include "contact_site.hpp"
#include "held_row.hpp"
#include "joint_limits.hpp"
#include "mechanism_graph.hpp"

namespace dynamics::detail {

using SideRows = std::array<Row6, 2>;  // rows for side a and side b of a contact

// Values that depend on the trial point z_k+1 (two copies: accepted, trial).
struct InequalityPoint {
  Eigen::VectorXd eq;
  std::vector<double> distance;                  // phi(z_k+1) per contact
  std::vector<SideRows> contact_normal;          // d phi / d(x, theta) of each side at z_k+1
  std::vector<Row6> limit_parent, limit_child;   // d value / d(x, theta) at z_k+1
  std::vector<double> limit_gap;                 // sign (coordinate - bound) at z_k+1
};

// Complementarity of a point: the mean product (mu) and the largest violation.
struct Complementarity {
  double mean = 0.0;
  double max = 0.0;
  int count = 0;
};

// StepOptions::contact_regularization and friction_regularization: each
// contact's rows yield by these over its mass.
struct ContactRegularization {
  double normal = 0.0, friction = 0.0;
};

class Inequalities {
 public:
  // Keeps pointers to the model, graph and sites, which must outlive it.
  // `mass_scale`, detail::mass_scale(model), is what impulse-valued equations
  // are measured against.
  Inequalities(const Model& model, const MechanismGraph& graph, const std::vector<ContactSite>& sites,
               const graphsolve::Pattern& pattern, double dt, ContactRegularization regularization,
               double mass_scale);

  bool empty() const { return pairs_.empty() && cones_.empty(); }
  bool has_limits() const { return !limits_.empty(); }
  // Whether some contact has friction (rows and a coefficient above zero).
  bool has_friction() const { return has_friction_; }
  // Scales every contact's friction coefficient (1: the model's, the
  // default): the low-friction solves of the friction restarts.
  void set_friction_scale(double scale);
  int aux_size() const { return aux_size_; }
  // The step size of the equations (a simulator's sub-steps change it).
  void set_dt(double dt) { dt_ = dt; }
  void resize(InequalityPoint& point) const;

  // A strictly interior start from the velocities in u (whose z_k+1 is
  // `next`): slacks from their equations (at least a small floor), multipliers
  // so that each product is about the body's weight impulse times the floor.
  void initialize(Eigen::VectorXd& u, Eigen::VectorXd& aux, const std::vector<Pose>& next) const;
  // Jacobians at z_k: where the contact and limit impulses act, and the
  // friction directions (tangent to each contact's normal at z_k). `angles`
  // (State::joint_angles at z_k) are where the step reads the joints' angles;
  // they must outlive the step.
  // `joints`: the joints evaluated at `now` (those with rows are read).
  void prepare(const std::vector<Pose>& now, const std::vector<double>& angles,
               const std::vector<JointEvaluation>& joints);
  // Adds the impulses' generalized forces to the body rows of r, and computes
  // eq and the Jacobians at z_k+1 (`next`) into `point`.
  // `joints`: every joint with rows evaluated at `next`.
  void evaluate(const Eigen::VectorXd& u, const Eigen::VectorXd& aux, const std::vector<Pose>& next,
                const std::vector<JointEvaluation>& joints, Eigen::VectorXd& r, InequalityPoint& point) const;

  Complementarity complementarity(const Eigen::VectorXd& u, const Eigen::VectorXd& aux) const;
  // Squared 2-norm of (x o y - target e) over all pairs and cones, a cone's
  // product taken in the scaling of the last assemble ((W^-1 x) o (W y)), for
  // which the Newton direction is one.
  double complementarity_gap(const Eigen::VectorXd& u, const Eigen::VectorXd& aux, double target) const;

  // Writes the inequality blocks of the Newton matrix at (u, aux): contact
  // nodes and their body blocks, and the limit rows and columns of joint
  // nodes. Fixes each cone's Nesterov-Todd scaling at (u, aux), which rhs
  // and complementarity_gap use until the next assemble. Writes through the
  // blocks resolve_blocks found.
  void assemble(const Eigen::VectorXd& u, const Eigen::VectorXd& aux, const InequalityPoint& point);
  // Finds every contact's and limit's blocks in `matrix` (the step's, of the
  // graph these inequalities were built for), once per graph, as the joints'
  // BlockTables are: BlockMatrix::block's checked lookups per row and
  // iteration took 7% of an interior-point step of a limited chain.
  void resolve_blocks(graphsolve::BlockMatrix& matrix);
  // Right-hand side rows of the inequalities for complementarity targets:
  // each pair aims at x y = target - corr_x corr_y (corr: a previous
  // direction, Mehrotra's second-order term; pass empty vectors for none).
  void rhs(const Eigen::VectorXd& u, const Eigen::VectorXd& aux, const InequalityPoint& point, double target,
           const Eigen::VectorXd& corr_u, const Eigen::VectorXd& corr_aux, Eigen::VectorXd& b) const;
  // The eliminated members' direction from the unknowns' direction (same
  // target and correction as rhs).
  void recover(const Eigen::VectorXd& u, const Eigen::VectorXd& aux, const InequalityPoint& point, double target,
               const Eigen::VectorXd& corr_u, const Eigen::VectorXd& corr_aux, const Eigen::VectorXd& du,
               Eigen::VectorXd& daux) const;
  // `alpha` halved until the step keeps the pairs near the central path: the
  // smallest product u[kept] aux[eliminated] at least `centrality` times their
  // mean (or, from a point already further off, no further off than there).
  double centred_step(const Eigen::VectorXd& u, const Eigen::VectorXd& aux, const Eigen::VectorXd& du,
                      const Eigen::VectorXd& daux, double alpha, double centrality) const;
  // Largest step in (0, 1] keeping every pair and cone a fraction tau inside
  // (a sliding contact's cone at most 0.999: see kSlidingConeFraction).
  double max_step(const Eigen::VectorXd& u, const Eigen::VectorXd& aux, const Eigen::VectorXd& du,
                  const Eigen::VectorXd& daux, double tau) const;

  // The smallest signed distance at z_k+1 over all contacts (+inf without).
  double min_signed_distance(const InequalityPoint& point) const;
  // The rows that solution u (of a step of length dt) holds closed, at the
  // configuration `at` that it reached: each contact pressed (its impulse
  // over its mass above its slack's speed at `at` and above `noise`, an
  // impulse), with its two tangents while it sticks (its unused friction
  // budget over its mass above its slip speed), and each joint limit pushed
  // likewise. Where both members of a pair are near zero (a contact that
  // only touches, a friction on the verge of slipping) the row stays open.
  // `angles`: State::joint_angles at `at`.
  void held_rows(const Eigen::VectorXd& u, const std::vector<Pose>& at, const std::vector<double>& angles, double dt,
                 double noise, std::vector<HeldRow>& rows) const;
  // Whether a prepared step (z_k) may be solved without its inequalities
  // first (StepOptions::skip_open_inequalities): every contact and limit
  // apart at z_k, not closing its gap within two steps at its rate there
  // (`velocities`: the bodies' (v, w) at z_k, 6 rows each), and not pushed by
  // `last`, the last step's unknowns (a step of length `last_dt`; empty:
  // unknown), as held_rows reads a push.
  bool all_open(const Eigen::VectorXd& velocities, const Eigen::VectorXd& last, double last_dt,
                double noise) const;
  // Whether a prepared step may be solved with limits held
  // (StepOptions::skip_open_inequalities): every contact open as all_open
  // reads it (and, after `open_tried`, an open attempt of this step that
  // converged, none closed at its end). If so limits are held until
  // release_limits(): those pushed by `last` (empty: unknown) and, after
  // `open_tried`, those the attempt closed. The step's equations keep them
  // closed as equality constraints (a joint resting on its stop), gap(z_k+1)
  // = `inside`, and leave the others out. `inside`, the step's tolerance on
  // constraints, keeps a held limit within its range wherever within that
  // tolerance Newton's method stops. False too when that would repeat the
  // open attempt (nothing to hold after it).
  bool hold_limits(const Eigen::VectorXd& velocities, const Eigen::VectorXd& last, double last_dt, double noise,
                   double inside, bool open_tried);
  void release_limits() { holding_ = false; }
  // After a held step that converged but did not stand (open_at): lets go of
  // the held limits whose impulse in u pulls (below -noise) and holds those
  // that closed; returns how many changed, 0 if a contact closed (no held
  // step can stand then).
  int adjust_held(const Eigen::VectorXd& u, double noise);
  bool holding_limits() const { return holding_; }
  // The held limits' part of the step equations at z_k+1 (`next`; `joints`
  // as for open_at): their impulses on the body rows of r and, at each
  // limit's row of r, (gap(z_k+1) - inside) / dt if held, 0 otherwise (the
  // others' impulses stay zero). Fills the limits' gaps and rows of `point`;
  // returns the largest |gap - inside| of a held limit, a constraint violation.
  double evaluate_held(const Eigen::VectorXd& u, const std::vector<Pose>& next,
                       const std::vector<JointEvaluation>& joints, Eigen::VectorXd& r, InequalityPoint& point);
  // Their blocks: a held limit's row as an equality constraint's, with a
  // small diagonal (an inexact Newton step: the residual stays exact), every
  // other limit's row an identity row. The diagonal is kHeldCompliance times
  // the row's mobility through its two bodies at z_k: small beside the rows'
  // own scale, large beside round-off when the limit's node is eliminated
  // before its bodies, at any size of the bodies.
  void assemble_held(const Eigen::VectorXd& u, const InequalityPoint& point);
  static constexpr double kHeldCompliance = 1e-11;
  // For a step solved without its inequalities, or with its pushed limits
  // held: the contacts' signed distances at z_k+1 (`next`, into
  // point.distance), and whether every contact and every limit not held is
  // open there and every held limit's impulse in u pushes (above -noise).
  // Zero impulses with the gaps over dt as slacks (and zero slacks for the
  // held limits) then solve every complementarity condition, and the step
  // is the step with them. `joints`: every joint with rows evaluated at `next`.
  // Records which limits (not held) and whether any contact closed there.
  bool open_at(const Eigen::VectorXd& u, const std::vector<Pose>& next, const std::vector<JointEvaluation>& joints,
               InequalityPoint& point, double noise);
  // Zeroes the contact and limit impulses of u (the rows of their nodes).
  void zero_impulses(Eigen::VectorXd& u) const;
  // (De)activates the contact and limit nodes of `matrix`: inactive, they
  // are identity rows that the factorization and solves leave alone. The
  // second, the contact nodes alone.
  void set_nodes_active(graphsolve::BlockMatrix& matrix, bool active) const;
  void set_contact_nodes_active(graphsolve::BlockMatrix& matrix, bool active) const;
  // The contact site of a graph node, or -1.
  int site_of_node(int node) const;
  // Largest |eq|, friction budgets (impulses) over the mechanism's mass
  // scale: the inequalities' equation residual.
  double equation_error(const InequalityPoint& point) const;
  // Squared 2-norm of eq, scaled likewise: their share of the merit.
  double equation_squares(const InequalityPoint& point) const;

 private:
  struct ContactSlot {
    int body[2];  // side a, side b (kWorld: no rows)
    int node, row, aux, friction_rows;  // friction_rows: n_f (linearized), 2 (cone), 0
    int direction_row;                  // first row in directions_ / friction_now_
    FrictionModel model;
    double mu_f;        // the friction coefficient of the step: mu_model times the friction scale
    double mu_model;    // the site's own
    double compliance;  // c in phi/dt + c gamma = s: the regularization over the contact's mass
    double friction_compliance;  // k in B u + k beta: the friction regularization over that mass
    // Its blocks in the step's matrix (resolve_blocks): per side, the
    // node's rows on the body and the body's columns of the node; its diagonal.
    std::array<double*, 2> node_body{}, body_node{};
    double* diagonal = nullptr;
  };
  struct LimitSlot {
    LimitRow limit;
    int parent, child, row, aux;
    // As for contacts, [0] the parent's and [1] the child's blocks of its
    // node (one row or column of each is the limit's), and the node's size.
    std::array<double*, 2> node_body{}, body_node{};
    double* diagonal = nullptr;
    int node_size = 0, row_in_node = 0;
  };
  struct Pair {  // u[kept] * aux[eliminated] = target
    int kept, eliminated;
    int contact;  // or -1: a joint limit
  };
  struct RimPoints {  // a ground rim and the point contacts on its circle
    int rim;
    std::vector<int> points;
  };
  struct Cone {  // x = (aux[x0], u[beta], u[beta + 1]), y = (u[psi], aux[eta], aux[eta + 1])
    int x0, beta, psi, eta;
    int gamma, contact;  // x0 = mu_f gamma, eta = the contact's tangential velocity
    double mu_f;
  };

  // A cone contact's indices, and its pair's members at (u, aux) or in a direction.
  static Cone cone_of(const ContactSlot& s, int contact);
  static Eigen::Vector3d cone_x(const Cone& c, const Eigen::VectorXd& u, const Eigen::VectorXd& aux);
  static Eigen::Vector3d cone_y(const Cone& c, const Eigen::VectorXd& u, const Eigen::VectorXd& aux);

  void find_rim_points();
  void stand_down_rim_points(const std::vector<Pose>& now);
  bool stands_down(const Pair& p) const { return p.contact >= 0 && !active_[p.contact]; }
  // A pair's centring target, less the corrector's second-order term when
  // the direction `corr` (empty: none) is given.
  static double pair_target(const Pair& p, double target, const Eigen::VectorXd& corr_u,
                            const Eigen::VectorXd& corr_aux) {
    return corr_u.size() > 0 ? target - corr_u(p.kept) * corr_aux(p.eliminated) : target;
  }
  // Rows of a contact's node, which is also its number of eliminated members.
  static int node_rows(const ContactSlot& s);
  Pose pose_of(const std::vector<Pose>& poses, int body) const { return body == kWorld ? Pose{} : poses[body]; }
  // A limit's gap at `poses`, sign (coordinate - bound) (>= 0 within it), and
  // its rows on the parent and child motions, signed alike.
  double limit_gap(const LimitSlot& s, const std::vector<Pose>& poses, const std::vector<double>& angles,
                   Row6& parent_row, Row6& child_row) const;
  // limit_gap of every limit, into `gaps` and the rows, reading the joints
  // with rows from `joints` (evaluated at `poses`): every coordinate of a
  // joint and its rows come from one evaluation (coordinate_jacobians).
  void limit_gaps(const std::vector<Pose>& poses, const std::vector<double>& angles,
                  const std::vector<JointEvaluation>& joints, std::vector<double>& gaps,
                  std::vector<Row6>& parent_rows, std::vector<Row6>& child_rows) const;
  // The evaluation of limit s's joint at `poses`: from `joints` (every joint
  // with rows, evaluated there), or computed into `own`.
  const JointEvaluation& evaluation_at(const LimitSlot& s, const std::vector<Pose>& poses,
                                       const std::vector<JointEvaluation>& joints, JointEvaluation& own) const;
  // Friction direction i of a contact: its relative tangential velocity at u.
  double tangential(const ContactSlot& s, int i, const Eigen::VectorXd& u) const;
  // How a contact or limit stands at z_k, for a step that may leave it out:
  // pushed by the last step's impulse, else open (apart, and not closing its
  // gap within two steps at its rate), else closing.
  enum class Start { Pushed, Open, Closing };
  struct StartInputs {
    const Eigen::VectorXd& velocities;  // the bodies' (v, w) at z_k, 6 rows each
    const Eigen::VectorXd& last;        // the last step's unknowns (empty: unknown)
    double last_dt, noise;
  };
  // A row of unknown `row` on bodies a and b (their rows of its gap), its gap
  // at z_k, and its impulse's compliance in its gap's equation.
  Start start_of(int row, int body_a, int body_b, const Row6& row_a, const Row6& row_b, double gap, double compliance,
                 const StartInputs& in) const;
  Start contact_start(size_t c, const StartInputs& in) const;
  Start limit_start(size_t l, const StartInputs& in) const;
  // d(q_k+1)/dw over dt of every body in rate_bodies_, at unknowns u.
  void update_rates(const Eigen::VectorXd& u);
  // Limit l's row of its node's blocks: d(gap/dt)/d(v, w) at `point` and
  // -G(z_k)^T (null `point`: zero, a limit left out), `diagonal` on the
  // node's diagonal, the rest of its row and column of the diagonal block zero.
  void write_limit(size_t l, const InequalityPoint* point, double diagonal);

  const Model* model_;
  const MechanismGraph* graph_;
  const std::vector<ContactSite>* sites_;
  const std::vector<double>* angles_ = nullptr;  // of the step being solved (prepare)
  double dt_;
  int aux_size_ = 0;
  std::vector<ContactSlot> contacts_;
  std::vector<LimitSlot> limits_;
  std::vector<Pair> pairs_;
  std::vector<Cone> cones_;
  std::vector<NesterovTodd> scaling_;  // per cone, at the last assembled point
  std::vector<int> cone_index_;        // per contact: its cone, or -1
  std::vector<RimPoints> rim_points_;
  bool has_friction_ = false;
  std::vector<char> active_;  // per contact, for the step: 0 while a rim point stands down
  Eigen::VectorXd eq_scale_;  // per eq row: 1, or 1 / mass scale for friction budgets (impulses)
  // Per side: d(tangential velocity)/d(v, w) at z_k, friction directions' rows per contact.
  std::array<Eigen::Matrix<double, Eigen::Dynamic, 6>, 2> friction_now_;
  std::vector<SideRows> normal_now_;
  std::vector<Row6> limit_parent_now_, limit_child_now_;
  std::vector<double> distance_now_, limit_gap_now_;  // per contact and per limit, at z_k
  // d(q_k+1)/dw over dt of every body with a contact or limit (rate_bodies_),
  // at the point being assembled.
  std::vector<int> rate_bodies_;
  std::vector<Matrix3> rates_;  // per body
  // Per limit, whether it is held (hold_pushed_limits), while holding_.
  std::vector<char> held_;
  std::vector<double> held_compliance_;  // per limit, while held
  bool holding_ = false;
  // Per limit, closed at the last open_at (not held there); whether a contact did.
  std::vector<char> closed_;
  bool contact_closed_ = false;
  double held_gap_ = 0.0;  // the gap they are held at
};

}  // namespace dynamics::detail
