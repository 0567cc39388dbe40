#include "inequalities.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "joint_kinematics.hpp"

namespace dynamics::detail {
namespace {

// Rim points this close to their rim's touching point stand down (see
// stand_down_rim_points): skidding carts with 32 or 64 points per rim stalled
// in 14 and 19 of 144 runs at 10 degrees, in none at 20 (at 30: 2 and 0).
constexpr double kRimPointWindow = 20.0 * kPi / 180.0;

// A sliding contact's cone (both members within a relative determinant of
// kSlidingDepth of the boundary) stops at most kSlidingConeFraction of the way
// to it, where everything else goes on to 1 - mu: pushed closer to the curved
// boundary, it can no longer turn its friction direction (a straight step
// along the boundary leaves the cone after a sliver), and its steps crawl. Of
// 200 random tosses of a box with cone friction, 27 stalled; 33 with every
// cone at 0.99999, which also cost the hopper an iteration per step.
constexpr double kSlidingDepth = 1e-2;
constexpr double kSlidingConeFraction = 0.999;

bool sliding(const Eigen::Vector3d& x, const Eigen::Vector3d& y) {
  return cone_determinant(x) < kSlidingDepth * x(0) * x(0) && cone_determinant(y) < kSlidingDepth * y(0) * y(0);
}

// d(next orientation)/dw as a body-frame rotation over dt, as for the joints:
// q_k+1 = q_k * dt/2 [s(w); w] with s = sqrt(4/dt^2 - |w|^2).
Matrix3 rotation_rate(const Vector3& w, double dt) {
  const double sw = discrete_velocity_scalar(w, dt);
  return 0.5 * dt * dt * (sw * Matrix3::Identity() + w * w.transpose() / sw - skew(w));
}

// Row of d(direction . (x + R p))/d(x, theta) for a body-frame point p.
Row6 point_row(const Vector3& direction, const Quaternion& orientation, const Vector3& p) {
  Row6 row;
  row.head<3>() = direction.transpose();
  row.tail<3>() = p.cross(orientation.conjugate() * direction).transpose();
  return row;
}

// Each side's rows of the relative velocity along `direction` where the
// surfaces of a contact located by `f` touch (side a's less side b's).
SideRows surface_rows(const Vector3& direction, const ContactFrame& f, const Pose& a, const Pose& b) {
  return {point_row(direction, a.orientation, f.point_a), -point_row(direction, b.orientation, f.point_b)};
}

// d phi / d(x, theta) of each side of a contact located by `f` (a ground
// rim's turn_rate adds to side a's rotation).
SideRows normal_rows(const ContactFrame& f, const Pose& a, const Pose& b) {
  SideRows rows = surface_rows(f.normal, f, a, b);
  rows[0].tail<3>() += f.turn_rate.transpose();
  return rows;
}

// Largest alpha with (x0, x1) + alpha (d0, d1) still in the second-order cone.
double cone_boundary(double x0, const Eigen::Vector2d& x1, double d0, const Eigen::Vector2d& d1) {
  double alpha = std::numeric_limits<double>::infinity();
  if (d0 < 0.0) alpha = -x0 / d0;
  // (x0 + a d0)^2 - |x1 + a d1|^2 = qa a^2 + 2 qb a + qc, positive at a = 0.
  const double qa = d0 * d0 - d1.squaredNorm(), qb = x0 * d0 - x1.dot(d1), qc = x0 * x0 - x1.squaredNorm();
  if (std::abs(qa) < 1e-300) {
    if (qb < 0.0) alpha = std::min(alpha, -qc / (2.0 * qb));
    return alpha;
  }
  const double disc = qb * qb - qa * qc;
  if (disc < 0.0) return alpha;
  const double root = std::sqrt(disc);
  for (double a : {(-qb - root) / qa, (-qb + root) / qa})
    if (a > 0.0) alpha = std::min(alpha, a);
  return alpha;
}

// The mass a contact's regularization is relative to: its body's, or the
// reduced mass of a pair of bodies.
double contact_mass(const Model& model, const ContactSite& site) {
  if (site.body_a == kWorld) return model.body(site.body_b).mass;
  if (site.body_b == kWorld) return model.body(site.body_a).mass;
  const double a = model.body(site.body_a).mass, b = model.body(site.body_b).mass;
  return a * b / (a + b);
}

}  // namespace

Inequalities::Inequalities(const Model& model, const MechanismGraph& graph, const std::vector<ContactSite>& sites,
                           const graphsolve::Pattern& pattern, double dt, ContactRegularization regularization,
                           double mass_scale)
    : model_(&model), graph_(&graph), sites_(&sites), dt_(dt) {
  int direction_rows = 0;
  cone_index_.assign(sites.size(), -1);
  for (size_t c = 0; c < sites.size(); ++c) {
    const ContactSite& site = sites[c];
    ContactSlot slot;
    slot.body[0] = site.body_a;
    slot.body[1] = site.body_b;
    slot.node = graph.contact_node[c];
    slot.row = pattern.offset[slot.node];
    slot.aux = aux_size_;
    slot.model = site.friction;
    slot.mu_f = slot.mu_model = site.friction_coefficient;
    const double mass = contact_mass(model, site);
    slot.compliance = regularization.normal / mass;
    slot.friction_compliance = regularization.friction / mass;
    slot.friction_rows = site.friction == FrictionModel::Linearized ? site.friction_directions
                         : site.friction == FrictionModel::Cone    ? 2
                                                                   : 0;
    slot.direction_row = direction_rows;
    direction_rows += slot.friction_rows;
    const int contact = static_cast<int>(c);
    pairs_.push_back({slot.row, slot.aux, contact});
    if (slot.model == FrictionModel::Linearized) {
      for (int i = 0; i <= slot.friction_rows; ++i) pairs_.push_back({slot.row + 1 + i, slot.aux + 1 + i, contact});
      aux_size_ += 2 + slot.friction_rows;
    } else if (slot.model == FrictionModel::Cone) {
      cone_index_[c] = static_cast<int>(cones_.size());
      cones_.push_back(cone_of(slot, contact));
      aux_size_ += 4;
    } else {
      aux_size_ += 1;
    }
    has_friction_ = has_friction_ || (slot.friction_rows > 0 && slot.mu_model > 0.0);
    contacts_.push_back(slot);
  }
  scaling_.resize(cones_.size());
  for (auto& rows : friction_now_) rows.setZero(direction_rows, 6);
  for (size_t l = 0; l < graph.limits.size(); ++l) {
    const LimitRow& limit = graph.limits[l];
    const Joint& joint = model.joint(limit.joint);
    const int node = graph.limit_node[limit.joint];
    const int local = static_cast<int>(l) - graph.joint_first_limit[limit.joint];
    limits_.push_back({limit, joint.parent, joint.child, pattern.offset[node] + local, aux_size_});
    pairs_.push_back({pattern.offset[node] + local, aux_size_, -1});
    ++aux_size_;
  }
  // Every equation is a velocity (m/s, rad/s) but a friction budget, an
  // impulse (mu gamma - sum beta or its cone's x0), which is measured against
  // the mechanism's mass scale.
  eq_scale_.setOnes(aux_size_);
  const double impulse_scale = 1.0 / mass_scale;
  for (const ContactSlot& slot : contacts_)
    if (slot.friction_rows > 0) eq_scale_(slot.aux + 1 + slot.friction_rows) = impulse_scale;
  normal_now_.resize(contacts_.size());
  distance_now_.assign(contacts_.size(), 0.0);
  active_.assign(contacts_.size(), 1);
  find_rim_points();
  limit_parent_now_.resize(limits_.size());
  limit_child_now_.resize(limits_.size());
  limit_gap_now_.assign(limits_.size(), 0.0);
  for (const ContactSlot& slot : contacts_)
    for (int body : slot.body)
      if (body != kWorld) rate_bodies_.push_back(body);
  for (const LimitSlot& slot : limits_)
    for (int body : {slot.parent, slot.child})
      if (body != kWorld) rate_bodies_.push_back(body);
  std::sort(rate_bodies_.begin(), rate_bodies_.end());
  rate_bodies_.erase(std::unique(rate_bodies_.begin(), rate_bodies_.end()), rate_bodies_.end());
  rates_.resize(model.num_bodies());
  held_.assign(limits_.size(), 0);  // sized here: a step allocates nothing
  closed_.assign(limits_.size(), 0);
  held_compliance_.assign(limits_.size(), 0.0);
}

// A ground point contact lies on a ground rim's circle when it is on the same
// body, against the same ground, with the same radius, at the rim's radius
// from its centre in its plane (to a millionth of the radius).
void Inequalities::find_rim_points() {
  const auto ground_contact = [&](size_t c) -> const Contact* {
    const int index = (*sites_)[c].ground;
    return index >= 0 ? &model_->contact(index) : nullptr;
  };
  for (size_t r = 0; r < contacts_.size(); ++r) {
    const Contact* rim = ground_contact(r);
    if (rim == nullptr || rim->rim_radius == 0.0) continue;
    RimPoints entry{static_cast<int>(r), {}};
    const double slack = 1e-6 * rim->rim_radius;
    for (size_t p = 0; p < contacts_.size(); ++p) {
      const Contact* point = ground_contact(p);
      if (point == nullptr || point->rim_radius != 0.0 || point->body != rim->body || point->radius != rim->radius ||
          point->ground.normal != rim->ground.normal || point->ground.offset != rim->ground.offset)
        continue;
      const Vector3 from_centre = point->point - rim->point;
      if (std::abs(from_centre.dot(rim->rim_axis)) <= slack &&
          std::abs(from_centre.norm() - rim->rim_radius) <= slack)
        entry.points.push_back(static_cast<int>(p));
    }
    if (!entry.points.empty()) rim_points_.push_back(std::move(entry));
  }
}

// The rim points within kRimPointWindow of where their rim touches this step
// stand down (always the nearest, however sparse the points). There a point
// duplicates the rim's constraint: exactly at the touching point the two
// split the load freely (up to the contact regularization); microns above it
// (a wheel tilted by a URDF's rounded pi/2) its pair has slack and impulse
// both small. Traced on skidding carts, such a pair's product was the last
// above tolerance while the line search crept on 2 % steps until the step
// gave up. The rim is never higher than its points, so they only hand their
// load to the rim; the other points still carry a cylinder standing on its
// base.
void Inequalities::stand_down_rim_points(const std::vector<Pose>& now) {
  std::fill(active_.begin(), active_.end(), 1);
  for (const RimPoints& entry : rim_points_) {
    const ContactSite& site = (*sites_)[entry.rim];
    const Contact& rim = model_->contact(site.ground);
    const Vector3 touch = rim_touch(rim, site.rim_side, now[rim.body].orientation).offset;
    const double within = rim.rim_radius * touch.norm() * std::cos(kRimPointWindow);
    int nearest = entry.points.front();
    double best = -std::numeric_limits<double>::infinity();
    for (int p : entry.points) {
      const double along = (model_->contact((*sites_)[p].ground).point - rim.point).dot(touch);
      if (along >= within) active_[p] = 0;
      if (along > best) {
        best = along;
        nearest = p;
      }
    }
    active_[nearest] = 0;
  }
}

double Inequalities::limit_gap(const LimitSlot& s, const std::vector<Pose>& poses, const std::vector<double>& angles,
                               Row6& parent_row, Row6& child_row) const {
  const int j = s.limit.joint;
  const double value = coordinate_jacobian(model_->joint(j), graph_->axes[j], pose_of(poses, s.parent),
                                           poses[s.child], s.limit.coordinate, parent_row, child_row, angles[j]);
  parent_row *= s.limit.sign;
  child_row *= s.limit.sign;
  return s.limit.sign * (value - s.limit.bound);
}

void Inequalities::limit_gaps(const std::vector<Pose>& poses, const std::vector<double>& angles,
                              const std::vector<JointEvaluation>& joints, std::vector<double>& gaps,
                              std::vector<Row6>& parent_rows, std::vector<Row6>& child_rows) const {
  CoordinateRows rows;  // of the joint of the limit before
  for (size_t l = 0; l < limits_.size(); ++l) {
    const LimitSlot& s = limits_[l];
    const int j = s.limit.joint;
    if (l == 0 || limits_[l - 1].limit.joint != j) {  // a joint's limits are contiguous
      JointEvaluation own;
      coordinate_jacobians(model_->joint(j), graph_->axes[j], evaluation_at(s, poses, joints, own),
                           pose_of(poses, s.parent), poses[s.child], angles[j], rows);
    }
    const int i = s.limit.coordinate;
    gaps[l] = s.limit.sign * (rows.value[i] - s.limit.bound);
    parent_rows[l] = s.limit.sign * rows.parent[i];  // signs are +-1: exact
    child_rows[l] = s.limit.sign * rows.child[i];
  }
}

const JointEvaluation& Inequalities::evaluation_at(const LimitSlot& s, const std::vector<Pose>& poses,
                                                   const std::vector<JointEvaluation>& joints,
                                                   JointEvaluation& own) const {
  const int j = s.limit.joint;
  if (graph_->joint_node[j] >= 0) return joints[j];
  // A joint without rows (floating) is not among `joints`.
  evaluate_joint(model_->joint(j), graph_->axes[j], pose_of(poses, s.parent), poses[s.child], false, own);
  return own;
}

Inequalities::Cone Inequalities::cone_of(const ContactSlot& s, int contact) {
  return {s.aux + 3, s.row + 1, s.row + 3, s.aux + 1, s.row, contact, s.mu_f};
}

Eigen::Vector3d Inequalities::cone_x(const Cone& c, const Eigen::VectorXd& u, const Eigen::VectorXd& aux) {
  return Eigen::Vector3d(aux(c.x0), u(c.beta), u(c.beta + 1));
}

Eigen::Vector3d Inequalities::cone_y(const Cone& c, const Eigen::VectorXd& u, const Eigen::VectorXd& aux) {
  return Eigen::Vector3d(u(c.psi), aux(c.eta), aux(c.eta + 1));
}

int Inequalities::node_rows(const ContactSlot& s) {
  return s.model == FrictionModel::Linearized ? s.friction_rows + 2 : s.model == FrictionModel::Cone ? 4 : 1;
}

void Inequalities::resize(InequalityPoint& point) const {
  point.eq.setZero(aux_size_);
  point.distance.assign(contacts_.size(), 0.0);
  point.contact_normal.resize(contacts_.size());
  point.limit_parent.resize(limits_.size());
  point.limit_child.resize(limits_.size());
  point.limit_gap.assign(limits_.size(), 0.0);
}

double Inequalities::tangential(const ContactSlot& s, int i, const Eigen::VectorXd& u) const {
  double v = 0.0;
  for (int side = 0; side < 2; ++side)
    if (s.body[side] != kWorld) v += friction_now_[side].row(s.direction_row + i).dot(u.segment<6>(6 * s.body[side]));
  return v;
}

void Inequalities::initialize(Eigen::VectorXd& u, Eigen::VectorXd& aux, const std::vector<Pose>& next) const {
  // Floor of a slack (m/s: a gap of floor * dt) and the impulse scale.
  constexpr double floor = 1e-2;
  const double g = std::max(model_->gravity.norm(), 1.0);
  const auto impulse = [&](int body) { return model_->body(body).mass * g * dt_; };
  for (size_t c = 0; c < contacts_.size(); ++c) {
    const ContactSlot& s = contacts_[c];
    if (!active_[c]) {  // no impulse, nothing to satisfy
      u.segment(s.row, node_rows(s)).setZero();
      aux.segment(s.aux, node_rows(s)).setZero();
      continue;
    }
    const ContactSite& site = (*sites_)[c];
    const double mu0 = floor * impulse(s.body[0] != kWorld ? s.body[0] : s.body[1]);
    const double phi = locate(*model_, site, pose_of(next, s.body[0]), pose_of(next, s.body[1])).distance;
    aux(s.aux) = std::max(phi / dt_, floor);
    const double gamma = u(s.row) = mu0 / aux(s.aux);
    const int k = s.friction_rows;
    if (k == 0) continue;
    if (s.model == FrictionModel::Linearized) {
      double psi = 0.0;
      for (int i = 0; i < k; ++i) psi = std::max(psi, -tangential(s, i, u));
      psi += floor;
      double sum = 0.0;
      for (int i = 0; i < k; ++i) {
        aux(s.aux + 1 + i) = tangential(s, i, u) + psi;
        sum += u(s.row + 1 + i) = mu0 / aux(s.aux + 1 + i);
      }
      u(s.row + 1 + k) = psi;
      aux(s.aux + 1 + k) = std::max(s.mu_f * gamma - sum, floor);
    } else {
      const Eigen::Vector2d eta(tangential(s, 0, u), tangential(s, 1, u));
      aux.segment<2>(s.aux + 1) = eta;
      u(s.row + 3) = 2.0 * eta.norm() + floor;  // psi: y well inside the cone
      u.segment<2>(s.row + 1).setZero();   // beta: x = (x0, 0) inside
      aux(s.aux + 3) = std::max(s.mu_f * gamma, mu0 / u(s.row + 3));
    }
  }
  for (size_t l = 0; l < limits_.size(); ++l) {
    const LimitSlot& s = limits_[l];
    Row6 unused_parent, unused_child;
    aux(s.aux) = std::max(limit_gap(s, next, *angles_, unused_parent, unused_child) / dt_, floor);
    u(s.row) = floor * impulse(s.child) / aux(s.aux);
  }
}

void Inequalities::prepare(const std::vector<Pose>& now, const std::vector<double>& angles,
                           const std::vector<JointEvaluation>& joints) {
  angles_ = &angles;
  stand_down_rim_points(now);
  for (size_t c = 0; c < contacts_.size(); ++c) {
    const ContactSlot& slot = contacts_[c];
    const Pose a = pose_of(now, slot.body[0]), b = pose_of(now, slot.body[1]);
    const ContactFrame f = locate(*model_, (*sites_)[c], a, b);
    normal_now_[c] = normal_rows(f, a, b);
    distance_now_[c] = f.distance;
    if (slot.friction_rows == 0) continue;
    // Friction directions in the tangent plane: the two tangents (cone), or
    // +-b_i for n_f / 2 directions spread over half a turn (linearized).
    Vector3 t1, t2;
    contact_tangents(f.normal, t1, t2);
    const int half = slot.friction_rows / 2;
    for (int i = 0; i < slot.friction_rows; ++i) {
      Vector3 d;
      if (slot.model == FrictionModel::Cone) {
        d = i == 0 ? t1 : t2;
      } else {
        const double angle = kPi * (i / 2) / half;
        d = (i % 2 == 0 ? 1.0 : -1.0) * (std::cos(angle) * t1 + std::sin(angle) * t2);
      }
      // Friction acts where the surfaces touch.
      const SideRows rows = surface_rows(d, f, a, b);
      friction_now_[0].row(slot.direction_row + i) = rows[0];
      friction_now_[1].row(slot.direction_row + i) = rows[1];
    }
  }
  limit_gaps(now, angles, joints, limit_gap_now_, limit_parent_now_, limit_child_now_);
}

void Inequalities::evaluate(const Eigen::VectorXd& u, const Eigen::VectorXd& aux, const std::vector<Pose>& next,
                            const std::vector<JointEvaluation>& joints, Eigen::VectorXd& r,
                            InequalityPoint& point) const {
  for (size_t c = 0; c < contacts_.size(); ++c) {
    const ContactSlot& s = contacts_[c];
    const int k = s.friction_rows;
    if (!active_[c]) {
      point.distance[c] = locate(*model_, (*sites_)[c], pose_of(next, s.body[0]), pose_of(next, s.body[1])).distance;
      point.eq.segment(s.aux, node_rows(s)).setZero();
      continue;
    }
    for (int side = 0; side < 2; ++side) {
      if (s.body[side] == kWorld) continue;
      auto body_rows = r.segment<6>(6 * s.body[side]);
      body_rows -= normal_now_[c][side].transpose() * u(s.row);
      if (k > 0) body_rows -= friction_now_[side].middleRows(s.direction_row, k).transpose() * u.segment(s.row + 1, k);
    }
    const Pose a = pose_of(next, s.body[0]), b = pose_of(next, s.body[1]);
    const ContactFrame f = locate(*model_, (*sites_)[c], a, b);
    point.distance[c] = f.distance;
    point.contact_normal[c] = normal_rows(f, a, b);
    point.eq(s.aux) = f.distance / dt_ + s.compliance * u(s.row) - aux(s.aux);
    if (k == 0) continue;
    for (int i = 0; i < k; ++i) {
      const double v = tangential(s, i, u) + s.friction_compliance * u(s.row + 1 + i);
      point.eq(s.aux + 1 + i) = s.model == FrictionModel::Linearized ? v + u(s.row + 1 + k) - aux(s.aux + 1 + i)
                                                                     : v - aux(s.aux + 1 + i);
    }
    const double gamma = u(s.row);
    point.eq(s.aux + 1 + k) = s.model == FrictionModel::Linearized
                                  ? s.mu_f * gamma - u.segment(s.row + 1, k).sum() - aux(s.aux + 1 + k)
                                  : s.mu_f * gamma - aux(s.aux + 1 + k);
  }
  limit_gaps(next, *angles_, joints, point.limit_gap, point.limit_parent, point.limit_child);
  for (size_t l = 0; l < limits_.size(); ++l) {
    const LimitSlot& s = limits_[l];
    const double gamma = u(s.row);
    r.segment<6>(6 * s.child) -= limit_child_now_[l].transpose() * gamma;
    if (s.parent != kWorld) r.segment<6>(6 * s.parent) -= limit_parent_now_[l].transpose() * gamma;
    point.eq(s.aux) = point.limit_gap[l] / dt_ - aux(s.aux);
  }
}

void Inequalities::set_friction_scale(double scale) {
  for (size_t c = 0; c < contacts_.size(); ++c) {
    contacts_[c].mu_f = scale * contacts_[c].mu_model;
    if (cone_index_[c] >= 0) cones_[cone_index_[c]].mu_f = contacts_[c].mu_f;
  }
}

Complementarity Inequalities::complementarity(const Eigen::VectorXd& u, const Eigen::VectorXd& aux) const {
  Complementarity c;
  double sum = 0.0;
  for (const Pair& p : pairs_) {
    if (stands_down(p)) continue;
    ++c.count;
    const double product = u(p.kept) * aux(p.eliminated);
    sum += product;
    c.max = std::max(c.max, std::abs(product));
  }
  for (const Cone& k : cones_) {
    if (!active_[k.contact]) continue;
    ++c.count;
    const double dot = cone_x(k, u, aux).dot(cone_y(k, u, aux));
    sum += dot;
    // The scalar part alone, the pair's work like a linear pair's product: x . y
    // = 0 with both inside the cone is x o y = 0, but near it the vector part
    // only falls like sqrt(x . y) (a sliding contact at x . y = 7e-15 still
    // had 2e-8 there, and the scaled direction does not aim at it).
    c.max = std::max(c.max, std::abs(dot));
  }
  c.mean = c.count > 0 ? sum / c.count : 0.0;
  return c;
}

double Inequalities::complementarity_gap(const Eigen::VectorXd& u, const Eigen::VectorXd& aux, double target) const {
  double gap = 0.0;
  for (const Pair& p : pairs_) {
    if (stands_down(p)) continue;
    const double d = u(p.kept) * aux(p.eliminated) - target;
    gap += d * d;
  }
  for (size_t k = 0; k < cones_.size(); ++k) {
    const Cone& c = cones_[k];
    if (!active_[c.contact]) continue;
    const NesterovTodd& nt = scaling_[k];
    Eigen::Vector3d d = jordan_product(nt.w_inverse * cone_x(c, u, aux), nt.w * cone_y(c, u, aux));
    d(0) -= target;
    gap += d.squaredNorm();
  }
  return gap;
}

void Inequalities::resolve_blocks(graphsolve::BlockMatrix& matrix) {
  for (ContactSlot& s : contacts_) {
    s.diagonal = matrix.diag(s.node).data();
    for (int side = 0; side < 2; ++side) {
      if (s.body[side] == kWorld) continue;
      s.node_body[side] = matrix.block(s.node, s.body[side]).data();
      s.body_node[side] = matrix.block(s.body[side], s.node).data();
    }
  }
  for (LimitSlot& s : limits_) {
    const int node = graph_->limit_node[s.limit.joint];
    s.diagonal = matrix.diag(node).data();
    s.node_size = matrix.pattern().size[node];
    s.row_in_node = s.row - matrix.pattern().offset[node];
    const int bodies[2] = {s.parent, s.child};
    for (int side = 0; side < 2; ++side) {
      if (bodies[side] == kWorld) continue;
      s.node_body[side] = matrix.block(node, bodies[side]).data();
      s.body_node[side] = matrix.block(bodies[side], node).data();
    }
  }
}

// Once per body: a box's eight corners, or a joint's two limits, share it.
void Inequalities::update_rates(const Eigen::VectorXd& u) {
  for (int body : rate_bodies_) rates_[body] = rotation_rate(u.segment<3>(6 * body + 3), dt_) / dt_;
}

void Inequalities::write_limit(size_t l, const InequalityPoint* point, double diagonal) {
  using Block = Eigen::Map<Eigen::MatrixXd>;
  const LimitSlot& s = limits_[l];
  const int n = s.node_size, row = s.row_in_node;
  const auto write = [&](int side, int body, const std::vector<Row6>* next_rows, const Row6& now_row) {
    Block rows(s.node_body[side], n, 6);
    Block cols(s.body_node[side], 6, n);
    if (!next_rows) {  // left out: no coupling to the bodies
      rows.row(row).setZero();
      cols.col(row).setZero();
      return;
    }
    rows.row(row).head<3>() = (*next_rows)[l].head<3>();
    rows.row(row).tail<3>() = (*next_rows)[l].tail<3>() * rates_[body];
    cols.col(row) = -now_row.transpose();
  };
  write(1, s.child, point ? &point->limit_child : nullptr, limit_child_now_[l]);
  if (s.parent != kWorld) write(0, s.parent, point ? &point->limit_parent : nullptr, limit_parent_now_[l]);
  Block diag(s.diagonal, n, n);
  diag.row(row).setZero();
  diag.col(row).setZero();
  diag(row, row) = diagonal;
}

void Inequalities::assemble(const Eigen::VectorXd& u, const Eigen::VectorXd& aux, const InequalityPoint& point) {
  using Block = Eigen::Map<Eigen::MatrixXd>;
  update_rates(u);
  for (size_t k = 0; k < cones_.size(); ++k)
    if (active_[cones_[k].contact]) scaling_[k] = nesterov_todd(cone_x(cones_[k], u, aux), cone_y(cones_[k], u, aux));
  for (size_t c = 0; c < contacts_.size(); ++c) {
    const ContactSlot& s = contacts_[c];
    const int k = s.friction_rows, n = node_rows(s);
    Block diag(s.diagonal, n, n);
    if (!active_[c]) {  // rows that keep its impulses at zero
      for (int side = 0; side < 2; ++side) {
        if (s.body[side] == kWorld) continue;
        Block(s.node_body[side], n, 6).setZero();
        Block(s.body_node[side], 6, n).setZero();
      }
      diag.setIdentity();
      continue;
    }
    const bool cone = s.model == FrictionModel::Cone;
    // Cone rows: Nesterov-Todd's dx_rows dx + dy_rows dy with dx0 = mu_f dgamma, deta = B_t dv.
    const NesterovTodd* nt = cone ? &scaling_[cone_index_[c]] : nullptr;
    for (int side = 0; side < 2; ++side) {
      const int body = s.body[side];
      if (body == kWorld) continue;
      const Matrix3& rate = rates_[body];
      Block rows(s.node_body[side], n, 6);  // d(node equations)/d(v, w)
      Block cols(s.body_node[side], 6, n);  // d(body residual)/d(node unknowns)
      rows.setZero();
      cols.setZero();
      const Row6& normal = point.contact_normal[c][side];
      rows.row(0).head<3>() = normal.head<3>();
      rows.row(0).tail<3>() = normal.tail<3>() * rate;
      cols.col(0) = -normal_now_[c][side].transpose();
      if (k == 0) continue;
      const auto friction = friction_now_[side].middleRows(s.direction_row, k);
      cols.middleCols(1, k) = -friction.transpose();
      if (cone) {
        rows.middleRows(1, 3) = nt->dy_rows.rightCols<2>() * friction;
      } else {
        rows.middleRows(1, k) = friction;
      }
    }
    diag.setZero();
    diag(0, 0) = aux(s.aux) / u(s.row) + s.compliance;
    if (k == 0) continue;
    if (!cone) {
      for (int i = 0; i < k; ++i) {
        diag(1 + i, 1 + i) = aux(s.aux + 1 + i) / u(s.row + 1 + i) + s.friction_compliance;
        diag(1 + i, 1 + k) = 1.0;
        diag(1 + k, 1 + i) = -1.0;
      }
      diag(1 + k, 0) = s.mu_f;
      diag(1 + k, 1 + k) = aux(s.aux + 1 + k) / u(s.row + 1 + k);
      continue;
    }
    diag.block<3, 1>(1, 0) = s.mu_f * nt->dx_rows.col(0);
    // d eta / d beta = k, the tangential rows' regularization.
    diag.block<3, 2>(1, 1) = nt->dx_rows.rightCols<2>() + s.friction_compliance * nt->dy_rows.rightCols<2>();
    diag.block<3, 1>(1, 3) = nt->dy_rows.col(0);
  }
  for (size_t l = 0; l < limits_.size(); ++l) write_limit(l, &point, aux(limits_[l].aux) / u(limits_[l].row));
}

void Inequalities::rhs(const Eigen::VectorXd& u, const Eigen::VectorXd& aux, const InequalityPoint& point,
                       double target, const Eigen::VectorXd& corr_u, const Eigen::VectorXd& corr_aux,
                       Eigen::VectorXd& b) const {
  const bool corrected = corr_u.size() > 0;
  for (const Pair& p : pairs_) {
    if (stands_down(p)) continue;
    const double k = u(p.kept), a = aux(p.eliminated);
    b(p.kept) = (pair_target(p, target, corr_u, corr_aux) - k * a) / k - point.eq(p.eliminated);
  }
  for (size_t c = 0; c < contacts_.size(); ++c)
    if (!active_[c]) b.segment(contacts_[c].row, node_rows(contacts_[c])).setZero();
  for (size_t k = 0; k < cones_.size(); ++k) {
    const Cone& c = cones_[k];
    if (!active_[c.contact]) continue;
    const NesterovTodd& nt = scaling_[k];
    // lambda o (W^-1 dx + W dy) = target e - lambda o lambda - (W^-1 dx_c) o (W dy_c).
    Eigen::Vector3d r = -jordan_product(nt.lambda, nt.lambda);
    r(0) += target;
    if (corrected) r -= jordan_product(nt.w_inverse * cone_x(c, corr_u, corr_aux), nt.w * cone_y(c, corr_u, corr_aux));
    // Less the equation residuals carried by dx0 and deta.
    b.segment<3>(c.beta) = r - nt.dx_rows.col(0) * point.eq(c.x0) - nt.dy_rows.rightCols<2>() * point.eq.segment<2>(c.eta);
  }
}

void Inequalities::recover(const Eigen::VectorXd& u, const Eigen::VectorXd& aux, const InequalityPoint& point,
                           double target, const Eigen::VectorXd& corr_u, const Eigen::VectorXd& corr_aux,
                           const Eigen::VectorXd& du, Eigen::VectorXd& daux) const {
  for (const Pair& p : pairs_) {
    if (stands_down(p)) continue;
    const double k = u(p.kept), a = aux(p.eliminated);
    daux(p.eliminated) = (pair_target(p, target, corr_u, corr_aux) - k * a - a * du(p.kept)) / k;
  }
  for (const Cone& c : cones_) {
    if (!active_[c.contact]) continue;
    const ContactSlot& slot = contacts_[c.contact];
    daux(c.x0) = c.mu_f * du(c.gamma) + point.eq(c.x0);
    for (int i = 0; i < 2; ++i)
      daux(c.eta + i) = tangential(slot, i, du) + slot.friction_compliance * du(c.beta + i) + point.eq(c.eta + i);
  }
  for (size_t c = 0; c < contacts_.size(); ++c)
    if (!active_[c]) daux.segment(contacts_[c].aux, node_rows(contacts_[c])).setZero();
}

double Inequalities::max_step(const Eigen::VectorXd& u, const Eigen::VectorXd& aux, const Eigen::VectorXd& du,
                              const Eigen::VectorXd& daux, double tau) const {
  double alpha = std::numeric_limits<double>::infinity();
  for (const Pair& p : pairs_) {
    if (stands_down(p)) continue;
    if (du(p.kept) < 0.0) alpha = std::min(alpha, -u(p.kept) / du(p.kept));
    if (daux(p.eliminated) < 0.0) alpha = std::min(alpha, -aux(p.eliminated) / daux(p.eliminated));
  }
  double step = tau * alpha;
  for (const Cone& c : cones_) {
    if (!active_[c.contact]) continue;
    const Eigen::Vector3d x = cone_x(c, u, aux), y = cone_y(c, u, aux);
    const double to_boundary = std::min(cone_boundary(x(0), x.tail<2>(), daux(c.x0), du.segment<2>(c.beta)),
                                        cone_boundary(y(0), y.tail<2>(), du(c.psi), daux.segment<2>(c.eta)));
    step = std::min(step, (sliding(x, y) ? std::min(tau, kSlidingConeFraction) : tau) * to_boundary);
  }
  return std::min(1.0, step);
}

double Inequalities::centred_step(const Eigen::VectorXd& u, const Eigen::VectorXd& aux, const Eigen::VectorXd& du,
                                  const Eigen::VectorXd& daux, double alpha, double centrality) const {
  constexpr int kHalvings = 40;
  // The smallest product over the mean, at a step of `a` (1 without pairs).
  const auto spread = [&](double a) {
    double sum = 0.0, smallest = std::numeric_limits<double>::infinity();
    int count = 0;
    for (const Pair& p : pairs_) {
      if (stands_down(p)) continue;
      const double product = (u(p.kept) + a * du(p.kept)) * (aux(p.eliminated) + a * daux(p.eliminated));
      sum += product;
      smallest = std::min(smallest, product);
      ++count;
    }
    return count > 0 && sum > 0.0 ? smallest * count / sum : 1.0;
  };
  const double needed = std::min(centrality, spread(0.0));
  for (int k = 0; k < kHalvings && spread(alpha) < needed; ++k) alpha *= 0.5;
  return alpha;
}

double Inequalities::min_signed_distance(const InequalityPoint& point) const {
  double d = std::numeric_limits<double>::infinity();
  for (double phi : point.distance) d = std::min(d, phi);
  return d;
}

void Inequalities::held_rows(const Eigen::VectorXd& u, const std::vector<Pose>& at,
                             const std::vector<double>& angles, double dt, double noise,
                             std::vector<HeldRow>& rows) const {
  rows.clear();
  for (size_t c = 0; c < contacts_.size(); ++c) {
    const ContactSlot& s = contacts_[c];
    if (!active_[c]) continue;
    const Pose a = pose_of(at, s.body[0]), b = pose_of(at, s.body[1]);
    const ContactFrame f = locate(*model_, (*sites_)[c], a, b);
    const SideRows normal = normal_rows(f, a, b);
    const HeldRow held{{s.body[0], s.body[1]}, {normal[0], normal[1]}};
    const double gamma = u(s.row);
    if (!pushes(gamma, mobility(*model_, held), f.distance / dt + s.compliance * gamma, noise)) continue;
    rows.push_back(held);
    const int k = s.friction_rows;
    if (k == 0) continue;
    // The friction budget left (mu gamma less the friction impulse) against
    // the slip speed psi.
    const double used = s.model == FrictionModel::Linearized ? u.segment(s.row + 1, k).sum()
                                                              : u.segment<2>(s.row + 1).norm();
    Vector3 t[2];
    contact_tangents(f.normal, t[0], t[1]);
    HeldRow tangent[2];
    for (int i = 0; i < 2; ++i) {
      const SideRows sides = surface_rows(t[i], f, a, b);
      tangent[i] = HeldRow{{s.body[0], s.body[1]}, {sides[0], sides[1]}};
    }
    if (!pushes(s.mu_f * gamma - used, mobility(*model_, tangent[0]), u(s.row + 1 + k), noise)) continue;
    rows.push_back(tangent[0]);
    rows.push_back(tangent[1]);
  }
  for (size_t l = 0; l < limits_.size(); ++l) {
    const LimitSlot& s = limits_[l];
    HeldRow held{{s.parent, s.child}, {}};
    const double gap = limit_gap(s, at, angles, held.row[0], held.row[1]);
    if (pushes(u(s.row), mobility(*model_, held), gap / dt, noise)) rows.push_back(held);
  }
}

void Inequalities::zero_impulses(Eigen::VectorXd& u) const {
  for (const ContactSlot& s : contacts_) u.segment(s.row, node_rows(s)).setZero();
  for (const LimitSlot& s : limits_) u(s.row) = 0.0;
}

void Inequalities::set_nodes_active(graphsolve::BlockMatrix& matrix, bool active) const {
  set_contact_nodes_active(matrix, active);
  for (int node : graph_->limit_node)
    if (node >= 0) matrix.set_active(node, active);
}

void Inequalities::set_contact_nodes_active(graphsolve::BlockMatrix& matrix, bool active) const {
  for (const ContactSlot& s : contacts_) matrix.set_active(s.node, active);
}

int Inequalities::site_of_node(int node) const {
  for (size_t c = 0; c < contacts_.size(); ++c)
    if (contacts_[c].node == node) return static_cast<int>(c);
  return -1;
}

double Inequalities::equation_error(const InequalityPoint& point) const {
  return point.eq.size() > 0 ? (point.eq.array() * eq_scale_.array()).abs().maxCoeff() : 0.0;
}

double Inequalities::equation_squares(const InequalityPoint& point) const {
  return (point.eq.array() * eq_scale_.array()).square().sum();
}

}  // namespace dynamics::detail
