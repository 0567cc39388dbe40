#include "dynamics/model.hpp"

#include <cmath>
#include <deque>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "body_pair.hpp"
#include "format_number.hpp"
#include "make_room.hpp"
#include "principal_moments.hpp"

namespace dynamics {
namespace {

using detail::body_pair;

[[noreturn]] void fail(const std::string& what) { throw std::invalid_argument("dynamics::Model: " + what); }

bool finite(const Vector3& v) { return v.allFinite(); }

// How many contacts or colliders a body has so far (without counting it in).
int count_on(const std::unordered_map<int, int>& counts, int body) {
  const auto it = counts.find(body);
  return it == counts.end() ? 0 : it->second;
}

// A contact or collider in an error before it has a name: its given name, or
// its index among its kind ("contact 3"), not quoted as if it were a name.
std::string unnamed_label(const char* kind, const std::string& name, std::size_t index) {
  return name.empty() ? std::string(kind) + " " + std::to_string(index) : std::string(kind) + " '" + name + "'";
}

// Takes a contact's or collider's name and counts it on its body, or does
// neither if either throws.
void name_and_count(std::unordered_set<std::string>& names, const std::string& name,
                    std::unordered_map<int, int>& counts, int body) {
  const auto taken = names.insert(name).first;
  try {
    ++counts[body];
  } catch (...) {
    names.erase(taken);
    throw;
  }
}

// An add_* call that runs out of memory leaves the model as it was: every
// vector it grows gets its room first (make_room), then its lookups take the
// new names, each undone if a later one throws, and only then do the vectors
// grow. Otherwise a name could stay in a lookup without its element
// (find_body() returning an index past the end, a second add refused as a
// duplicate).
using graphsolve::detail::make_room;

void check_inertia(const Body& body) {
  const std::string who = "body '" + body.name + "'";
  if (!body.inertia.allFinite()) fail(who + ": inertia has a non-finite entry");
  const double scale = body.inertia.lpNorm<Eigen::Infinity>();
  if ((body.inertia - body.inertia.transpose()).lpNorm<Eigen::Infinity>() > 1e-9 * scale)
    fail(who + ": inertia is not symmetric");
  const detail::PrincipalMoments moments = detail::principal_moments(body.inertia);
  if (!(moments.values.minCoeff() > 0.0))
    fail(who + ": inertia is not positive definite (smallest eigenvalue " +
         detail::format_number(moments.values.minCoeff()) + ")");
  if (!moments.triangle) fail(who + ": principal moments violate the triangle inequality (no rigid body has them)");
}

void check_frame(const Frame& frame, const std::string& who) {
  if (!finite(frame.position)) fail(who + ": position is not finite");
  const double n = frame.orientation.coeffs().norm();
  if (!std::isfinite(n) || n < 1e-12) fail(who + ": orientation quaternion is zero or not finite");
}

// Sizes as for the other per-coordinate vectors, but +-infinity is allowed.
void check_limits(const Joint& joint, const std::string& who) {
  const int n = joint.num_coordinates();
  const auto check = [&](const std::vector<double>& v, const char* what) {
    if (!v.empty() && static_cast<int>(v.size()) != n)
      fail(who + ": " + what + " limits have " + std::to_string(v.size()) + " values, the joint has " +
           std::to_string(n) + " coordinates");
    for (double x : v)
      if (std::isnan(x)) fail(who + ": " + what + " limit is NaN");
  };
  check(joint.lower, "lower");
  check(joint.upper, "upper");
  const double inf = std::numeric_limits<double>::infinity();
  for (int i = 0; i < n; ++i) {
    const double lo = joint.lower.empty() ? -inf : joint.lower[i];
    const double hi = joint.upper.empty() ? inf : joint.upper[i];
    const std::string coordinate = who + " coordinate " + std::to_string(i);
    if (lo == inf || hi == -inf) fail(coordinate + ": a limit is infinite on the wrong side");
    if (!(lo < hi)) fail(coordinate + ": lower limit " + detail::format_number(lo) + " is not below upper limit " +
                         detail::format_number(hi));
  }
}

void check_friction(const std::string& who, FrictionModel model, double coefficient, int directions) {
  if (!(coefficient >= 0.0) || !std::isfinite(coefficient))
    fail(who + ": friction coefficient must be >= 0 and finite, got " + detail::format_number(coefficient));
  switch (model) {
    case FrictionModel::None:
    case FrictionModel::Cone: break;
    case FrictionModel::Linearized:
      if (directions < 2 || directions % 2 != 0)
        fail(who + ": friction directions must be an even number >= 2, got " + std::to_string(directions));
      break;
    default: fail(who + ": unknown friction model");
  }
}

}  // namespace

Body Body::solid(std::string name, double mass, const Shape& shape) {
  Body b;
  b.name = std::move(name);
  b.mass = mass;
  b.inertia = shape_inertia(shape, mass);
  b.shapes.push_back(shape);
  return b;
}

int Model::add_body(Body body) {
  if (body.name.empty()) fail("body " + std::to_string(bodies_.size()) + " has no name");
  if (body_index_.count(body.name)) fail("duplicate body name '" + body.name + "'");
  if (!(body.mass > 0.0) || !std::isfinite(body.mass))
    fail("body '" + body.name + "': mass must be positive and finite, got " + detail::format_number(body.mass));
  check_inertia(body);
  check_frame(Frame{body.position, body.orientation}, "body '" + body.name + "'");
  body.orientation.normalize();
  body.inertia = 0.5 * (body.inertia + body.inertia.transpose());
  make_room(bodies_);
  body_index_.emplace(body.name, num_bodies());
  bodies_.push_back(std::move(body));
  return num_bodies() - 1;
}

int Model::add_joint(Joint joint) {
  if (joint.name.empty()) fail("joint " + std::to_string(joints_.size()) + " has no name");
  if (joint_index_.count(joint.name)) fail("duplicate joint name '" + joint.name + "'");
  const std::string who = "joint '" + joint.name + "'";
  if (joint.child < 0 || joint.child >= num_bodies())
    fail(who + ": child body index " + std::to_string(joint.child) + " does not exist");
  if (joint.parent != kWorld && (joint.parent < 0 || joint.parent >= num_bodies()))
    fail(who + ": parent body index " + std::to_string(joint.parent) + " does not exist");
  if (joint.parent == joint.child) fail(who + ": parent and child are the same body");
  const JointFreedom f = joint.freedom;
  if (f.translational < 0 || f.translational > 3 || f.rotational < 0 || f.rotational > 3)
    fail(who + ": free axes must be 0..3 for each primitive");
  if (!finite(joint.axis) || joint.axis.norm() < 1e-12) fail(who + ": axis is zero or not finite");
  joint.axis.normalize();
  check_frame(joint.parent_frame, who + " parent frame");
  check_frame(joint.child_frame, who + " child frame");
  joint.parent_frame.orientation.normalize();
  joint.child_frame.orientation.normalize();
  if (!(joint.stiffness >= 0.0) || !std::isfinite(joint.stiffness)) fail(who + ": stiffness must be >= 0 and finite");
  if (!(joint.damping >= 0.0) || !std::isfinite(joint.damping)) fail(who + ": damping must be >= 0 and finite");
  if (!(joint.friction >= 0.0) || !std::isfinite(joint.friction)) fail(who + ": friction must be >= 0 and finite");
  const auto check_size = [&](const std::vector<double>& v, const char* what) {
    if (!v.empty() && static_cast<int>(v.size()) != joint.num_coordinates())
      fail(who + ": " + what + " has " + std::to_string(v.size()) + " values, the joint has " +
           std::to_string(joint.num_coordinates()) + " coordinates");
    for (double x : v)
      if (!std::isfinite(x)) fail(who + ": " + what + " has a non-finite value");
  };
  check_size(joint.rest, "rest position");
  check_size(joint.initial_position, "initial position");
  check_size(joint.initial_velocity, "initial velocity");
  check_limits(joint, who);
  make_room(coordinate_offsets_);
  make_room(joints_);
  const auto name = joint_index_.emplace(joint.name, num_joints()).first;
  try {
    if (joint.num_constraints() > 0) jointed_pairs_.insert(body_pair(joint.parent, joint.child));
  } catch (...) {  // nothing inserted; a pair another joint put there stays
    joint_index_.erase(name);
    throw;
  }
  coordinate_offsets_.push_back(num_coordinates_);
  num_coordinates_ += joint.num_coordinates();
  joints_.push_back(std::move(joint));
  return num_joints() - 1;
}

int Model::add_contact(Contact contact) {
  if (contact.body < 0 || contact.body >= num_bodies())
    fail(unnamed_label("contact", contact.name, contacts_.size()) + ": body index " + std::to_string(contact.body) +
         " does not exist");
  if (contact.name.empty())
    contact.name = bodies_[contact.body].name + "/contact" + std::to_string(count_on(contacts_on_, contact.body));
  const std::string who = "contact '" + contact.name + "'";  // the name it would get
  if (contact_names_.count(contact.name)) fail("duplicate contact name '" + contact.name + "'");
  if (!finite(contact.point)) fail(who + ": point is not finite");
  if (!(contact.radius >= 0.0) || !std::isfinite(contact.radius)) fail(who + ": radius must be >= 0 and finite");
  if (!(contact.rim_radius >= 0.0) || !std::isfinite(contact.rim_radius))
    fail(who + ": rim_radius must be >= 0 and finite");
  const double axis = contact.rim_axis.norm();
  if (contact.rim_radius > 0.0 && (!std::isfinite(axis) || axis < 1e-12))
    fail(who + ": rim_axis is zero or not finite");
  if (contact.rim_radius > 0.0) contact.rim_axis /= axis;
  const double n = contact.ground.normal.norm();
  if (!std::isfinite(n) || n < 1e-12) fail(who + ": ground normal is zero or not finite");
  if (!std::isfinite(contact.ground.offset)) fail(who + ": ground offset is not finite");
  contact.ground.normal /= n;
  check_friction(who, contact.friction, contact.friction_coefficient, contact.friction_directions);
  make_room(contacts_);
  name_and_count(contact_names_, contact.name, contacts_on_, contact.body);
  contacts_.push_back(std::move(contact));
  return num_contacts() - 1;
}

int Model::add_coupling(JointCoupling coupling) {
  if (coupling.name.empty()) fail("coupling " + std::to_string(couplings_.size()) + " has no name");
  if (coupling_names_.count(coupling.name)) fail("duplicate coupling name '" + coupling.name + "'");
  const std::string who = "coupling '" + coupling.name + "'";
  for (const auto& [index, role] : {std::pair{coupling.leader, "leader"}, std::pair{coupling.follower, "follower"}}) {
    if (index < 0 || index >= num_joints())
      fail(who + ": " + role + " joint index " + std::to_string(index) + " does not exist");
    const Joint& joint = joints_[index];
    if (joint.num_coordinates() != 1)
      fail(who + ": " + role + " joint '" + joint.name + "' is " + joint_type_name(joint.freedom) + " with " +
           std::to_string(joint.num_coordinates()) +
           " coordinates; a coupling needs joints of one coordinate (revolute or prismatic)");
  }
  if (coupling.leader == coupling.follower)
    fail(who + ": joint '" + joints_[coupling.leader].name + "' is both leader and follower");
  if (!std::isfinite(coupling.ratio)) fail(who + ": ratio is not finite");
  if (!std::isfinite(coupling.offset)) fail(who + ": offset is not finite");
  const std::vector<int> cycle = coupling_path(coupling.follower, coupling.leader);
  if (!cycle.empty()) {
    std::string joints;
    for (int j : cycle) joints += "'" + joints_[j].name + "' -> ";
    fail(who + " closes a cycle of couplings (" + joints + "'" + joints_[coupling.follower].name +
         "', leader to follower): each joint in it would follow another and none could be set; "
         "lead them all from one joint instead");
  }
  make_room(couplings_);
  coupling_names_.insert(coupling.name);
  couplings_.push_back(std::move(coupling));
  return num_couplings() - 1;
}

// The joints from `from` along couplings, leader to follower, to `to`
// (both ends included; empty if no chain of couplings leads there).
std::vector<int> Model::coupling_path(int from, int to) const {
  std::vector<int> previous(joints_.size(), -2);  // -2: not reached
  std::vector<int> queue{from};
  previous[from] = -1;
  for (size_t i = 0; i < queue.size() && previous[to] == -2; ++i)
    for (const JointCoupling& c : couplings_)
      if (c.leader == queue[i] && previous[c.follower] == -2) {
        previous[c.follower] = queue[i];
        queue.push_back(c.follower);
      }
  std::vector<int> path;
  if (previous[to] == -2) return path;
  for (int j = to; j != -1; j = previous[j]) path.insert(path.begin(), j);
  return path;
}

void Model::index_error(const char* what, int index) {
  fail(std::string(what) + " index " + std::to_string(index) + " does not exist");
}

const JointCoupling& Model::coupling(int index) const {
  if (index < 0 || index >= num_couplings()) index_error("coupling", index);
  return couplings_[index];
}

int Model::coupling_of_follower(int joint) const {
  for (int c = 0; c < num_couplings(); ++c)
    if (couplings_[c].follower == joint) return c;
  return -1;
}

int Model::coupling_root(int joint) const {
  if (joint < 0 || joint >= num_joints()) index_error("joint", joint);
  // No cycles (add_coupling refuses them), so the walk ends within a step per coupling.
  for (int c = coupling_of_follower(joint); c >= 0; c = coupling_of_follower(joint)) joint = couplings_[c].leader;
  return joint;
}

void Model::set_ground(const HalfSpace& ground) {
  const double n = ground.normal.norm();
  if (!std::isfinite(n) || n < 1e-12) fail("ground normal is zero or not finite");
  if (!std::isfinite(ground.offset)) fail("ground offset is not finite");
  for (Contact& c : contacts_) c.ground = HalfSpace{ground.normal / n, ground.offset};
}

void Model::set_friction_coefficient(double coefficient) {
  if (!(coefficient >= 0.0) || !std::isfinite(coefficient))
    fail("friction coefficient must be >= 0 and finite, got " + detail::format_number(coefficient));
  for (Contact& c : contacts_) c.friction_coefficient = coefficient;
  collision_options_.friction_coefficient = coefficient;
}

int Model::add_shape_contacts(int body, const ContactOptions& options) {
  const Body& b = this->body(body);
  int added = 0;
  for (const Shape& shape : b.shapes)
    for (Contact& c : shape_contacts(body, shape, options)) {
      add_contact(std::move(c));
      ++added;
    }
  return added;
}

int Model::add_collider(Collider collider) {
  const bool world = collider.body == kWorld;
  if (!world && (collider.body < 0 || collider.body >= num_bodies()))
    fail(unnamed_label("collider", collider.name, colliders_.size()) + ": body index " +
         std::to_string(collider.body) + " does not exist");
  if (collider.name.empty())
    collider.name = (world ? std::string("world") : bodies_[collider.body].name) + "/collider" +
                    std::to_string(count_on(colliders_on_, collider.body));
  const std::string who = "collider '" + collider.name + "'";  // the name it would get
  if (collider_names_.count(collider.name)) fail("duplicate collider name '" + collider.name + "'");
  Shape& shape = collider.shape;
  if (shape.kind != Shape::Kind::Sphere && shape.kind != Shape::Kind::Box)
    fail(who + ": a " + to_string(shape.kind) + " cannot be a collider (spheres and boxes only)");
  const bool sphere = shape.kind == Shape::Kind::Sphere;
  const double smallest = sphere ? shape.size.x() : shape.size.minCoeff();
  if (!finite(shape.size) || !(smallest > 0.0))
    fail(who + (sphere ? ": sphere radius" : ": box edges") + " must be positive and finite");
  const double q = shape.orientation.norm();
  if (!finite(shape.position) || !shape.orientation.coeffs().allFinite() || q < 1e-12)
    fail(who + ": shape pose is not finite");
  shape.orientation.normalize();
  make_room(colliders_);
  name_and_count(collider_names_, collider.name, colliders_on_, collider.body);
  colliders_.push_back(std::move(collider));
  return num_colliders() - 1;
}

int Model::add_shape_colliders(int body) {
  const Body& b = this->body(body);
  int added = 0;
  for (const Shape& shape : b.shapes) {
    if (shape.kind != Shape::Kind::Sphere && shape.kind != Shape::Kind::Box)
      fail("body '" + b.name + "': its " + to_string(shape.kind) +
           " shape cannot be a collider (spheres and boxes only); add colliders one by one");
  }
  for (const Shape& shape : b.shapes) {
    add_collider(Collider{"", body, shape});
    ++added;
  }
  return added;
}

void Model::exclude_collision(int body_a, int body_b) {
  for (int b : {body_a, body_b})
    if (b != kWorld && (b < 0 || b >= num_bodies()))
      fail("exclude_collision: body index " + std::to_string(b) + " does not exist");
  if (body_a == body_b) fail("exclude_collision: a body never collides with itself");
  make_room(excluded_);
  if (excluded_pairs_.insert(body_pair(body_a, body_b)).second) excluded_.push_back(body_pair(body_a, body_b));
}

void Model::set_collision_options(const CollisionOptions& options) {
  if (!(options.margin >= 0.0) || !std::isfinite(options.margin))
    fail("collision options: margin must be >= 0 and finite, got " + detail::format_number(options.margin));
  check_friction("collision options", options.friction, options.friction_coefficient, options.friction_directions);
  collision_options_ = options;
}

const Collider& Model::collider(int index) const {
  if (index < 0 || index >= num_colliders()) index_error("collider", index);
  return colliders_[index];
}

bool Model::may_collide(int body_a, int body_b) const {
  if (body_a == body_b) return false;  // one body, or the world with itself
  const std::pair<int, int> key = body_pair(body_a, body_b);
  if (excluded_pairs_.count(key)) return false;
  return !(collision_options_.skip_jointed && jointed_pairs_.count(key));
}

bool Model::has_inequalities() const {
  if (!contacts_.empty() || colliders_.size() >= 2) return true;
  for (const Joint& j : joints_)
    for (const std::vector<double>* side : {&j.lower, &j.upper})
      for (double x : *side)
        if (std::isfinite(x)) return true;
  return false;
}

const Contact& Model::contact(int index) const {
  if (index < 0 || index >= num_contacts()) index_error("contact", index);
  return contacts_[index];
}

int Model::find_body(const std::string& name) const {
  const auto it = body_index_.find(name);
  return it == body_index_.end() ? -1 : it->second;
}

int Model::find_joint(const std::string& name) const {
  const auto it = joint_index_.find(name);
  return it == joint_index_.end() ? -1 : it->second;
}

Topology compute_topology(const Model& model) {
  const int nb = model.num_bodies(), nj = model.num_joints();
  std::vector<std::vector<int>> out(nb + 1);  // joints by parent; slot nb is the world
  std::vector<int> incoming(nb, 0);
  for (int j = 0; j < nj; ++j) {
    const Joint& joint = model.joint(j);
    out[joint.parent == kWorld ? nb : joint.parent].push_back(j);
    ++incoming[joint.child];
  }
  Topology t;
  t.closes_loop.assign(nj, 1);
  std::vector<char> placed(nb, 0);
  std::deque<int> queue{nb};
  int placed_count = 0;
  while (true) {
    while (!queue.empty()) {
      const int p = queue.front();
      queue.pop_front();
      for (int j : out[p]) {
        const int c = model.joint(j).child;
        if (placed[c]) continue;
        placed[c] = 1;
        ++placed_count;
        t.closes_loop[j] = 0;
        t.tree_joints.push_back(j);
        queue.push_back(c);
      }
    }
    if (placed_count == nb) break;
    // Prefer a body nothing points to, so a joint is not turned into a loop.
    int root = -1;
    for (int b = 0; b < nb && root < 0; ++b)
      if (!placed[b] && incoming[b] == 0) root = b;
    for (int b = 0; b < nb && root < 0; ++b)
      if (!placed[b]) root = b;
    placed[root] = 1;
    ++placed_count;
    t.roots.push_back(root);
    queue.push_back(root);
  }
  return t;
}

}  // namespace dynamics
