#include "dynamics/diagnostics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "contact_site.hpp"
#include "format_number.hpp"
#include "joint_constraint.hpp"
#include "joint_kinematics.hpp"
#include "mechanism_graph.hpp"

namespace dynamics {

double kinetic_energy(const Model& model, const State& s) {
  check_state(model, s);
  double e = 0.0;
  for (int b = 0; b < model.num_bodies(); ++b) {
    const Body& body = model.body(b);
    e += 0.5 * body.mass * s.velocity[b].squaredNorm() +
         0.5 * s.angular_velocity[b].dot(body.inertia * s.angular_velocity[b]);
  }
  return e;
}

namespace {

// A dt the state's last step could have had: finite, >= 0, and turning no
// body by more than the discrete quaternion update can (|w| < 2 / dt).
void check_step_size(const Model& model, const State& s, double dt, const char* who) {
  const auto fail = [&](const std::string& why) { throw std::invalid_argument(std::string(who) + ": " + why); };
  const auto number = detail::format_number;
  if (!(dt >= 0.0) || !std::isfinite(dt)) fail("dt must be finite and >= 0, got " + number(dt));
  if (dt == 0.0) return;
  for (int b = 0; b < model.num_bodies(); ++b)
    if (!turns_within_a_step(s.angular_velocity[b], dt))
      fail("body '" + model.body(b).name + "' turns at " + number(s.angular_velocity[b].norm()) +
           " rad/s, more than a step of dt = " + number(dt) + " s can carry (|w| < 2/dt)");
}

// Where a body stood when the last step began: x - dt v, and q turned back by
// w (the inverse of the unit step quaternion is the one of -w).
detail::Pose step_start_pose(const State& s, int body, double dt) {
  if (body == kWorld) return detail::Pose{};
  return detail::Pose{s.position[body] - dt * s.velocity[body],
                      integrate_orientation(s.orientation[body], -s.angular_velocity[body], dt)};
}

// Angles are read within half a turn of the state's (State::joint_angles).
template <class PoseOf>
double spring_energy_at(const Model& model, const State& s, PoseOf pose_of) {
  double e = 0.0;
  double coordinates[6];
  for (int j = 0; j < model.num_joints(); ++j) {
    const Joint& joint = model.joint(j);
    if (joint.stiffness == 0.0 || joint.num_coordinates() == 0) continue;
    const detail::JointAxes axes = detail::joint_axes(joint);
    detail::read_coordinates(joint, axes, pose_of(joint.parent), pose_of(joint.child), coordinates,
                             s.joint_angles[j]);
    double stretch[6], twist = 0.0;
    detail::spring_stretches(joint, axes, coordinates, stretch, &twist);
    e += 0.5 * joint.stiffness * twist * twist;
    for (int i = 0; i < joint.num_coordinates(); ++i) e += 0.5 * joint.stiffness * stretch[i] * stretch[i];
  }
  return e;
}

}  // namespace

double gravitational_energy(const Model& model, const State& s, double dt) {
  check_state(model, s);
  check_step_size(model, s, dt, "gravitational_energy");
  // Linear in the positions: the mean over the step's ends is the value at x - dt/2 v.
  double e = 0.0;
  for (int b = 0; b < model.num_bodies(); ++b)
    e -= model.body(b).mass * model.gravity.dot(s.position[b] - 0.5 * dt * s.velocity[b]);
  return e;
}

double spring_energy(const Model& model, const State& s, double dt) {
  check_state(model, s);
  check_step_size(model, s, dt, "spring_energy");
  const double end = spring_energy_at(model, s, [&](int body) { return detail::body_pose(s, body); });
  if (dt == 0.0) return end;
  return 0.5 * (end + spring_energy_at(model, s, [&](int body) { return step_start_pose(s, body, dt); }));
}

double potential_energy(const Model& model, const State& s, double dt) {
  return gravitational_energy(model, s, dt) + spring_energy(model, s, dt);
}

double total_energy(const Model& model, const State& s, double dt) {
  return kinetic_energy(model, s) + potential_energy(model, s, dt);
}

Vector3 linear_momentum(const Model& model, const State& s) {
  check_state(model, s);
  Vector3 p = Vector3::Zero();
  for (int b = 0; b < model.num_bodies(); ++b) p += model.body(b).mass * s.velocity[b];
  return p;
}

Vector3 angular_momentum(const Model& model, const State& s, double dt) {
  check_state(model, s);
  check_step_size(model, s, dt, "angular_momentum");
  Vector3 l = Vector3::Zero();
  for (int b = 0; b < model.num_bodies(); ++b) {
    const Body& body = model.body(b);
    const Vector3& w = s.angular_velocity[b];
    const Vector3 jw = body.inertia * w;
    const Vector3 spin = dt > 0.0 ? Vector3(0.5 * dt * (discrete_velocity_scalar(w, dt) * jw - w.cross(jw))) : jw;
    l += s.position[b].cross(body.mass * s.velocity[b]) + s.orientation[b] * spin;
  }
  return l;
}

double constraint_violation(const Model& model, const State& s) {
  check_state(model, s);
  double v = 0.0;
  detail::JointEvaluation e;
  for (int j = 0; j < model.num_joints(); ++j) {
    const Joint& joint = model.joint(j);
    const int m = joint.num_constraints();
    if (m == 0) continue;
    detail::evaluate_joint(joint, detail::joint_axes(joint), detail::body_pose(s, joint.parent),
                           detail::body_pose(s, joint.child), false, e);
    v = std::max(v, e.value.head(m).lpNorm<Eigen::Infinity>());
  }
  if (model.num_couplings() == 0) return v;
  std::vector<detail::Pose> poses(model.num_bodies());
  for (int b = 0; b < model.num_bodies(); ++b) poses[b] = detail::body_pose(s, b);
  std::vector<detail::JointAxes> axes;
  for (const Joint& joint : model.joints()) axes.push_back(detail::joint_axes(joint));
  detail::CouplingEvaluation f;
  for (const JointCoupling& c : model.couplings()) {
    detail::evaluate_coupling(model, axes, c, detail::coupling_bodies(model, c), poses, s.joint_angles, f);
    v = std::max(v, std::abs(f.value));
  }
  return v;
}

double min_signed_distance(const Model& model, const State& state) {
  check_state(model, state);
  double d = std::numeric_limits<double>::infinity();
  for (const Contact& c : model.contacts())
    d = std::min(d, signed_distance(c, state.position[c.body], state.orientation[c.body]));
  const auto pose = [&](int body) {
    return body == kWorld ? detail::Pose{} : detail::Pose{state.position[body], state.orientation[body]};
  };
  const int n = model.num_colliders();
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const Collider &a = model.collider(i), &b = model.collider(j);
      if (i == j || !model.may_collide(a.body, b.body)) continue;
      const bool sphere_a = a.shape.kind == Shape::Kind::Sphere, sphere_b = b.shape.kind == Shape::Kind::Sphere;
      if (sphere_a && (!sphere_b || i < j)) {
        d = std::min(d, detail::locate_pair(model, {i, j, -1, -1}, pose(a.body), pose(b.body)).distance);
      } else if (!sphere_a && !sphere_b) {
        for (int k = 0; k < 8; ++k)
          d = std::min(d, detail::locate_pair(model, {i, j, k, -1}, pose(a.body), pose(b.body)).distance);
      }
    }
  return d;
}

}  // namespace dynamics
