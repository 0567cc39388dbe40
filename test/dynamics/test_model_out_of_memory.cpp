// A Model::add_* call that runs out of memory throws std::bad_alloc and
// leaves the model as it was. Each add runs once per allocation it makes,
// with that allocation failing (allocation_counter.hpp), on a copy of a
// model: a copy's vectors are full, so every add must grow them.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "dynamics/dynamics.hpp"
#include "failing_allocations.hpp"

namespace dyn = dynamics;

namespace {

// What an add may change, read without allocating (the names are short).
struct Counts {
  int bodies, joints, contacts, colliders, couplings, coordinates;
  bool operator==(const Counts& o) const {
    return bodies == o.bodies && joints == o.joints && contacts == o.contacts && colliders == o.colliders &&
           couplings == o.couplings && coordinates == o.coordinates;
  }
};

Counts counts(const dyn::Model& m) {
  return {m.num_bodies(), m.num_joints(), m.num_contacts(), m.num_colliders(), m.num_couplings(),
          m.num_coordinates()};
}

// `links` bodies in a chain of revolute joints, each with a contact and a
// collider; the second joint follows the first.
dyn::Model chain(int links) {
  dyn::Model m;
  for (int i = 0; i < links; ++i) {
    m.add_body(dyn::Body::solid("b" + std::to_string(i), 1.0, dyn::Shape::sphere(0.1)));
    m.add_joint(dyn::Joint::make(dyn::JointType::Revolute, "j" + std::to_string(i), i - 1 < 0 ? dyn::kWorld : i - 1,
                                 i));
    dyn::Contact contact;
    contact.body = i;
    m.add_contact(contact);
    m.add_collider(dyn::Collider{"", i, dyn::Shape::sphere(0.1)});
    if (i == 1) m.add_coupling(dyn::JointCoupling{"c", 0, 1});
  }
  return m;
}

// Each failure of `add` on a copy of `base` must leave the copy's counts as
// they were and no name taken: the same add then succeeds and gives `check`
// what a model never out of memory gives.
void expect_unchanged_when_out_of_memory(const dyn::Model& base, const std::function<void(dyn::Model&)>& add,
                                         const std::function<void(const dyn::Model&)>& check) {
  dyn::Model reference = base;
  add(reference);
  check(reference);
  const long failures = expect_every_failing_allocation_throws(base, add, [&](dyn::Model& model, long n) {
    EXPECT_TRUE(counts(model) == counts(base)) << "allocation " << n;
    add(model);  // no name is left taken, no default name's count moved
    EXPECT_TRUE(counts(model) == counts(reference)) << "allocation " << n;
    check(model);
  });
  EXPECT_GT(failures, 0) << "the add allocated nothing, so no failure was tried";
}

TEST(ModelOutOfMemory, AddLeavesTheModelAsItWas) {
  const dyn::Model base = chain(3);
  const int last = base.num_bodies() - 1;
  // Names longer than a short string's buffer, so that naming allocates too.
  const std::string body = "a body with a long name", joint = "a joint with a long name";
  expect_unchanged_when_out_of_memory(
      base, [&](dyn::Model& m) { m.add_body(dyn::Body::solid(body, 2.0, dyn::Shape::sphere(0.2))); },
      [&](const dyn::Model& m) { EXPECT_EQ(m.find_body(body), last + 1); });
  dyn::Model with_body = base;
  with_body.add_body(dyn::Body::solid(body, 2.0, dyn::Shape::sphere(0.2)));
  expect_unchanged_when_out_of_memory(
      with_body,
      [&](dyn::Model& m) { m.add_joint(dyn::Joint::make(dyn::JointType::Spherical, joint, last, last + 1)); },
      [&](const dyn::Model& m) {
        EXPECT_EQ(m.find_joint(joint), last + 1);
        EXPECT_EQ(m.coordinate_offset(last + 1), base.num_coordinates());
        EXPECT_FALSE(m.may_collide(last, last + 1));  // jointed
      });
  // On a body with no contact or collider yet: counting its first one allocates too.
  expect_unchanged_when_out_of_memory(
      with_body,
      [&](dyn::Model& m) {
        dyn::Contact contact;
        contact.body = last + 1;
        m.add_contact(contact);
      },
      [&](const dyn::Model& m) { EXPECT_EQ(m.contact(m.num_contacts() - 1).name, body + "/contact0"); });
  expect_unchanged_when_out_of_memory(
      with_body, [&](dyn::Model& m) { m.add_collider(dyn::Collider{"", last + 1, dyn::Shape::sphere(0.05)}); },
      [&](const dyn::Model& m) { EXPECT_EQ(m.collider(m.num_colliders() - 1).name, body + "/collider0"); });
  expect_unchanged_when_out_of_memory(
      base, [&](dyn::Model& m) { m.add_coupling(dyn::JointCoupling{"a coupling with a long name", 0, last}); },
      [&](const dyn::Model& m) { EXPECT_EQ(m.num_couplings(), base.num_couplings() + 1); });
}

}  // namespace
