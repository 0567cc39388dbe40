// Which of a step's contacts and joint limits it may leave out, or hold as
// equalities (part of Inequalities; see docs/contacts.md, "Open steps" and
// "Held limits"): the tests at z_k that choose such a step, the held limits'
// equations and blocks, and the test at z_k+1 of whether the step stands.

#include <algorithm>
#include <cmath>

#include "inequalities.hpp"
#include "joint_kinematics.hpp"

namespace dynamics::detail {
namespace {

// The rate at which a row's gap changes, from the bodies' velocities.
double rate(const Eigen::VectorXd& velocities, int body, const Row6& row) {
  return body == kWorld ? 0.0 : row.dot(velocities.segment<6>(6 * body));
}

}  // namespace

// A row resting on its stop keeps a gap of about the slack the interior
// point leaves (a product over its impulse): apart, but pushed. So a push
// is read first. The mobility only for an impulse above the noise: most open
// steps have none. Apart, and not closing within two steps: a body falling
// onto the ground is solved with its contacts from the step before it lands.
Inequalities::Start Inequalities::start_of(int row, int body_a, int body_b, const Row6& row_a, const Row6& row_b,
                                           double gap, double compliance, const StartInputs& in) const {
  const double last = in.last.size() > 0 ? in.last(row) : 0.0;
  if (last > in.noise) {
    const double moves = mobility(*model_, body_a, row_a) + mobility(*model_, body_b, row_b);
    if (pushes(last, moves, gap / in.last_dt + compliance * last, in.noise)) return Start::Pushed;
  }
  const double closing = rate(in.velocities, body_a, row_a) + rate(in.velocities, body_b, row_b);
  return gap > 0.0 && gap + 2.0 * dt_ * std::min(closing, 0.0) > 0.0 ? Start::Open : Start::Closing;
}

Inequalities::Start Inequalities::contact_start(size_t c, const StartInputs& in) const {
  const ContactSlot& s = contacts_[c];
  return start_of(s.row, s.body[0], s.body[1], normal_now_[c][0], normal_now_[c][1], distance_now_[c], s.compliance,
                  in);
}

Inequalities::Start Inequalities::limit_start(size_t l, const StartInputs& in) const {
  const LimitSlot& s = limits_[l];
  return start_of(s.row, s.parent, s.child, limit_parent_now_[l], limit_child_now_[l], limit_gap_now_[l], 0.0, in);
}

bool Inequalities::all_open(const Eigen::VectorXd& velocities, const Eigen::VectorXd& last, double last_dt,
                            double noise) const {
  const StartInputs in{velocities, last, last_dt, noise};
  for (size_t c = 0; c < contacts_.size(); ++c)
    if (active_[c] && contact_start(c, in) != Start::Open) return false;
  for (size_t l = 0; l < limits_.size(); ++l)
    if (limit_start(l, in) != Start::Open) return false;
  return true;
}

bool Inequalities::hold_limits(const Eigen::VectorXd& velocities, const Eigen::VectorXd& last, double last_dt,
                               double noise, double inside, bool open_tried) {
  holding_ = false;
  held_gap_ = inside;
  if (open_tried && contact_closed_) return false;
  const StartInputs in{velocities, last, last_dt, noise};
  for (size_t c = 0; c < contacts_.size(); ++c)
    if (active_[c] && contact_start(c, in) != Start::Open) return false;
  bool any = false;
  for (size_t l = 0; l < limits_.size(); ++l) {
    held_[l] = limit_start(l, in) == Start::Pushed || (open_tried && closed_[l]);
    held_compliance_[l] = 0.0;  // found at the first assembly that holds it
    any = any || held_[l];
  }
  holding_ = any;  // nothing held: the open step, tried or not worth trying
  return any;
}

int Inequalities::adjust_held(const Eigen::VectorXd& u, double noise) {
  if (contact_closed_) return 0;
  int changed = 0;
  for (size_t l = 0; l < limits_.size(); ++l) {
    const bool pulls = held_[l] && u(limits_[l].row) < -noise;
    if (pulls || closed_[l]) {
      held_[l] = !held_[l];
      ++changed;
    }
  }
  return changed;
}

double Inequalities::evaluate_held(const Eigen::VectorXd& u, const std::vector<Pose>& next,
                                   const std::vector<JointEvaluation>& joints, Eigen::VectorXd& r,
                                   InequalityPoint& point) {
  limit_gaps(next, *angles_, joints, point.limit_gap, point.limit_parent, point.limit_child);
  double largest = 0.0;
  for (size_t l = 0; l < limits_.size(); ++l) {
    const LimitSlot& s = limits_[l];
    if (!held_[l]) {
      r(s.row) = 0.0;
      continue;
    }
    const double gamma = u(s.row);
    r.segment<6>(6 * s.child) -= limit_child_now_[l].transpose() * gamma;
    if (s.parent != kWorld) r.segment<6>(6 * s.parent) -= limit_parent_now_[l].transpose() * gamma;
    const double error = point.limit_gap[l] - held_gap_;
    r(s.row) = error / dt_;
    if (!(std::abs(error) <= largest)) largest = std::abs(error);  // a NaN shows
  }
  return largest;
}

void Inequalities::assemble_held(const Eigen::VectorXd& u, const InequalityPoint& point) {
  update_rates(u);
  for (size_t l = 0; l < limits_.size(); ++l) {
    if (!held_[l]) {
      write_limit(l, nullptr, 1.0);  // an identity row: its impulse stays zero
      continue;
    }
    if (!(held_compliance_[l] > 0.0)) {  // once per step and limit
      const LimitSlot& s = limits_[l];
      held_compliance_[l] = kHeldCompliance * (mobility(*model_, s.parent, limit_parent_now_[l]) +
                                               mobility(*model_, s.child, limit_child_now_[l]));
    }
    write_limit(l, &point, held_compliance_[l]);
  }
}

bool Inequalities::open_at(const Eigen::VectorXd& u, const std::vector<Pose>& next,
                           const std::vector<JointEvaluation>& joints, InequalityPoint& point, double noise) {
  bool open = true;
  contact_closed_ = false;
  for (size_t c = 0; c < contacts_.size(); ++c) {
    const ContactSlot& s = contacts_[c];
    point.distance[c] = locate(*model_, (*sites_)[c], pose_of(next, s.body[0]), pose_of(next, s.body[1])).distance;
    if (active_[c] && !(point.distance[c] >= 0.0)) contact_closed_ = true;
  }
  if (contact_closed_) open = false;
  // A held step's last evaluation measured every limit's gap at `next`
  // (evaluate_held); an open step's did not.
  double values[6];  // of the joint of the limit before
  for (size_t l = 0; l < limits_.size(); ++l) {
    const LimitSlot& s = limits_[l];
    closed_[l] = 0;
    if (holding_ && held_[l]) {  // closed to the tolerance: its impulse must push
      if (!(u(s.row) >= -noise)) open = false;
      continue;
    }
    double gap;
    if (holding_) {
      gap = point.limit_gap[l];
    } else {
      const int j = s.limit.joint;
      if (l == 0 || limits_[l - 1].limit.joint != j) {
        JointEvaluation own;
        coordinates_of(model_->joint(j), graph_->axes[j], evaluation_at(s, next, joints, own), values, (*angles_)[j]);
      }
      gap = s.limit.sign * (values[s.limit.coordinate] - s.limit.bound);
    }
    closed_[l] = !(gap >= 0.0);
    if (closed_[l]) open = false;
  }
  point.eq.setZero();
  return open;
}

}  // namespace dynamics::detail
