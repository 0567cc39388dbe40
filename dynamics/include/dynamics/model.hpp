#pragma once
// The mechanism: bodies and joints plus gravity. A Model is built once (C++
// builder calls, a built-in model or a URDF file) and then only read while
// states are simulated from it; states and solver workspaces live elsewhere.
// Every add_* call validates its input and throws std::invalid_argument naming
// the element and what is wrong; one that runs out of memory throws
// std::bad_alloc and leaves the model as it was. Contacts refer to bodies by
// index, so bodies come first.

#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "dynamics/collision.hpp"
#include "dynamics/contact.hpp"
#include "dynamics/joint.hpp"
#include "dynamics/quaternion.hpp"
#include "dynamics/shapes.hpp"

namespace dynamics {

struct Body {
  std::string name;
  double mass = 1.0;
  Matrix3 inertia = Matrix3::Identity();  // about the centre of mass, body frame
  // Pose used when no joint places the body (a root), world frame.
  Vector3 position = Vector3::Zero();
  Quaternion orientation = Quaternion::Identity();
  std::vector<Shape> shapes;

  // A body of uniform density filling `shape` (centred at the body origin).
  static Body solid(std::string name, double mass, const Shape& shape);
};

class Model {
 public:
  int add_body(Body body);
  int add_joint(Joint joint);
  int add_contact(Contact contact);
  // Couples two joints added before it (see JointCoupling). A coupling that
  // would close a cycle of couplings (a follower leading, through others,
  // its own leader) is refused: no joint of the cycle could be set.
  int add_coupling(JointCoupling coupling);
  // Every contact's ground, or friction coefficient (validated like
  // add_contact; the coefficient also goes to the collision options).
  void set_ground(const HalfSpace& ground);
  void set_friction_coefficient(double coefficient);
  // Adds shape_contacts() of every shape of `body`; returns how many.
  int add_shape_contacts(int body, const ContactOptions& options = {});
  // Contacts between bodies (see collision.hpp): a sphere or box collider on
  // a body or (kWorld) fixed in the world; every sphere and box shape of a
  // body (a cylinder or capsule shape is an error: not supported as a
  // collider); a pair of bodies that must never collide; the pair options.
  int add_collider(Collider collider);
  int add_shape_colliders(int body);
  void exclude_collision(int body_a, int body_b);
  void set_collision_options(const CollisionOptions& options);

  Vector3 gravity = Vector3(0.0, 0.0, -9.81);  // finite (Simulator checks)

  int num_bodies() const { return static_cast<int>(bodies_.size()); }
  int num_joints() const { return static_cast<int>(joints_.size()); }
  int num_contacts() const { return static_cast<int>(contacts_.size()); }
  int num_couplings() const { return static_cast<int>(couplings_.size()); }
  // Checked (std::invalid_argument for an index out of range) and inline:
  // the step reads them for every body and joint several times.
  const Body& body(int index) const {
    if (index < 0 || index >= num_bodies()) index_error("body", index);
    return bodies_[static_cast<std::size_t>(index)];
  }
  const Joint& joint(int index) const {
    if (index < 0 || index >= num_joints()) index_error("joint", index);
    return joints_[static_cast<std::size_t>(index)];
  }
  const Contact& contact(int index) const;
  const JointCoupling& coupling(int index) const;
  const std::vector<Body>& bodies() const { return bodies_; }
  const std::vector<Joint>& joints() const { return joints_; }
  const std::vector<Contact>& contacts() const { return contacts_; }
  const std::vector<JointCoupling>& couplings() const { return couplings_; }
  // The coupling whose follower is `joint`, or -1 (the first, if several).
  int coupling_of_follower(int joint) const;
  // The joint at the head of `joint`'s chain of couplings (leader of its
  // leader, ..., through the first coupling of each): `joint` itself if it
  // follows none. The one joint of the chain whose coordinate can be set.
  int coupling_root(int joint) const;
  int num_colliders() const { return static_cast<int>(colliders_.size()); }
  const Collider& collider(int index) const;
  const std::vector<Collider>& colliders() const { return colliders_; }
  const CollisionOptions& collision_options() const { return collision_options_; }
  // False for excluded pairs, the world with itself and (with skip_jointed)
  // bodies joined by a joint with constraints. Body indices or kWorld.
  bool may_collide(int body_a, int body_b) const;
  const std::vector<std::pair<int, int>>& excluded_collisions() const { return excluded_; }
  // Inequality constraints of the step: contacts, finite joint limits and
  // colliders (which may or may not touch at a given step).
  bool has_inequalities() const;

  // Index by name; -1 when absent.
  int find_body(const std::string& name) const;
  int find_joint(const std::string& name) const;

  // Minimal coordinates of all joints stacked in joint order.
  int num_coordinates() const { return num_coordinates_; }
  int coordinate_offset(int joint) const { return coordinate_offsets_.at(static_cast<std::size_t>(joint)); }

 private:
  [[noreturn]] static void index_error(const char* what, int index);
  std::vector<int> coupling_path(int from, int to) const;
  std::vector<Body> bodies_;
  std::vector<Joint> joints_;
  std::vector<Contact> contacts_;
  std::vector<JointCoupling> couplings_;
  std::vector<Collider> colliders_;
  std::vector<std::pair<int, int>> excluded_;  // (smaller, larger) body index, kWorld allowed
  CollisionOptions collision_options_;
  std::vector<int> coordinate_offsets_;
  int num_coordinates_ = 0;
  // Indexes, so that building a model of n elements and looking them up by
  // name stays linear in n (linear searches made a 100000-link chain take
  // minutes to build).
  std::unordered_map<std::string, int> body_index_, joint_index_;
  std::unordered_set<std::string> contact_names_, collider_names_, coupling_names_;
  std::unordered_map<int, int> contacts_on_, colliders_on_;  // per body (kWorld too): for default names
  std::set<std::pair<int, int>> excluded_pairs_, jointed_pairs_;  // (smaller, larger); jointed: with constraints
};

// How the joints place the bodies: a spanning forest grown from the world and,
// for bodies no joint path reaches, from root bodies at their own pose. A joint
// whose child is already placed when it is reached closes a loop.
struct Topology {
  std::vector<int> tree_joints;  // in placement order (parent placed before child)
  std::vector<int> roots;        // bodies placed at their own pose
  std::vector<char> closes_loop;  // per joint
};

Topology compute_topology(const Model& model);

}  // namespace dynamics
