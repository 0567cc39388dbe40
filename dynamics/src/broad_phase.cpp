#include "broad_phase.hpp"

#include <algorithm>
#include <limits>

#include "body_pair.hpp"

namespace dynamics::detail {
namespace {

Pose pose_of(const std::vector<Pose>& poses, int body) { return body == kWorld ? Pose{} : poses[body]; }


}  // namespace

BroadPhase::BroadPhase(const Model& model) : model_(&model) {
  const int n = model.num_colliders();
  if (n < 2) return;
  for (const Collider& c : model.colliders())
    bounding_.push_back(c.shape.kind == Shape::Kind::Sphere ? c.shape.size.x() : 0.5 * c.shape.size.norm());
  const auto note = [&](int a, int b) {
    if (!model.may_collide(a, b)) blocked_.push_back(body_pair(a, b));
  };
  for (const Joint& j : model.joints()) note(j.parent, j.child);
  for (const std::pair<int, int>& e : model.excluded_collisions()) note(e.first, e.second);
  std::sort(blocked_.begin(), blocked_.end());
  blocked_.erase(std::unique(blocked_.begin(), blocked_.end()), blocked_.end());
  centre_.resize(n);
  reach_.resize(n);
  order_.resize(n);
}

bool BroadPhase::blocked(int a, int b) const {
  return a == b || std::binary_search(blocked_.begin(), blocked_.end(), body_pair(a, b));
}

void BroadPhase::find(const std::vector<Pose>& poses, const State& state, double dt,
                      const std::vector<PairFeature>& current, std::vector<PairFeature>& out) {
  out.clear();
  if (empty()) return;
  const Model& model = *model_;
  const int n = model.num_colliders();
  const double margin = model.collision_options().margin;
  const double fall = dt * model.gravity.norm();  // speed gravity adds over a step
  for (int i = 0; i < n; ++i) {
    const Collider& c = model.collider(i);
    centre_[i] = shape_pose(c.shape, pose_of(poses, c.body)).position;
    reach_[i] = 0.0;
    if (c.body == kWorld) continue;
    // Twice the travel at the current speeds: the step's impulses can change them.
    const double arm = c.shape.position.norm() + bounding_[i];
    reach_[i] = 2.0 * dt *
                (state.velocity[c.body].norm() + state.angular_velocity[c.body].norm() * arm + fall);
  }
  const auto low = [&](int i) { return centre_[i].x() - bounding_[i] - reach_[i] - margin; };
  for (int i = 0; i < n; ++i) order_[i] = i;
  std::sort(order_.begin(), order_.end(), [&](int a, int b) { return low(a) < low(b); });
  for (int s = 0; s < n; ++s) {
    const int i = order_[s];
    const double high = centre_[i].x() + bounding_[i] + reach_[i] + margin;
    for (int t = s + 1; t < n && low(order_[t]) <= high; ++t) {
      const int j = order_[t];
      if (blocked(model.collider(i).body, model.collider(j).body)) continue;
      const double keep = bounding_[i] + bounding_[j] + reach_[i] + reach_[j] + 2.0 * margin;
      if ((centre_[i] - centre_[j]).squaredNorm() > keep * keep) continue;
      add_features(std::min(i, j), std::max(i, j), poses, current, out);
    }
  }
  std::sort(out.begin(), out.end());
}

// Sphere-sphere: one feature (smaller index first); sphere-box: the sphere
// against the box; box-box: corners of one box against a face of the other.
void BroadPhase::add_features(int i, int j, const std::vector<Pose>& poses, const std::vector<PairFeature>& current,
                              std::vector<PairFeature>& out) const {
  const Model& model = *model_;
  const double enter = model.collision_options().margin + reach_[i] + reach_[j];
  const bool sphere_i = model.collider(i).shape.kind == Shape::Kind::Sphere;
  const bool sphere_j = model.collider(j).shape.kind == Shape::Kind::Sphere;
  if (sphere_i || sphere_j) {
    const PairFeature f = sphere_i ? PairFeature{i, j, -1, -1} : PairFeature{j, i, -1, -1};
    add_feature(f, enter, poses, current, out);
    return;
  }
  add_box_box(i, j, enter, poses, current, out);
}

// The reference face is the one, among the six face axes of both boxes, along
// which the boxes are furthest apart (the separating-axis test without edge
// axes); the last step's reference is kept unless another is better by a
// quarter of the margin, so that a resting stack does not switch. The other
// box's corners that lie over the face (within the margin) are the features.
void BroadPhase::add_box_box(int i, int j, double enter, const std::vector<Pose>& poses,
                             const std::vector<PairFeature>& current, std::vector<PairFeature>& out) const {
  const Model& model = *model_;
  struct Frame {
    Vector3 centre, half;
    Matrix3 axes;
  };
  const auto frame_of = [&](int c) {
    const Collider& collider = model.collider(c);
    const Pose p = shape_pose(collider.shape, pose_of(poses, collider.body));
    return Frame{p.position, 0.5 * collider.shape.size, p.orientation.toRotationMatrix()};
  };
  const Frame frames[2] = {frame_of(i), frame_of(j)};
  const int ids[2] = {i, j};
  const double bias = 0.25 * model.collision_options().margin;
  double best = -std::numeric_limits<double>::infinity();
  int reference = 0, face = 0;
  for (int r = 0; r < 2; ++r) {
    const Frame &x = frames[r], &y = frames[1 - r];
    // The previous reference face of this pair, if any, gets the bias.
    const auto it = std::lower_bound(current.begin(), current.end(), PairFeature{ids[1 - r], ids[r], -1, -1});
    const bool was_reference = it != current.end() && it->collider_a == ids[1 - r] && it->collider_b == ids[r];
    for (int k = 0; k < 3; ++k) {
      const Vector3 u = x.axes.col(k);
      const double d = (y.centre - x.centre).dot(u);
      double separation = std::abs(d) - x.half(k);
      for (int m = 0; m < 3; ++m) separation -= y.half(m) * std::abs(y.axes.col(m).dot(u));
      const int f = 2 * k + (d >= 0.0 ? 1 : 0);
      if (was_reference && it->face == f) separation += bias;
      if (separation > best) {
        best = separation;
        reference = r;
        face = f;
      }
    }
  }
  const Frame& x = frames[reference];
  const Frame& y = frames[1 - reference];
  const double slack = model.collision_options().margin;
  for (int corner = 0; corner < 8; ++corner) {
    const Vector3 local = x.axes.transpose() * (y.centre + y.axes * box_corner(2.0 * y.half, corner) - x.centre);
    bool over = true;
    for (int k = 0; k < 3; ++k)
      if (k != face / 2 && std::abs(local(k)) > x.half(k) + slack) over = false;
    if (over) add_feature({ids[1 - reference], ids[reference], corner, face}, enter, poses, current, out);
  }
}

void BroadPhase::add_feature(const PairFeature& f, double enter, const std::vector<Pose>& poses,
                             const std::vector<PairFeature>& current, std::vector<PairFeature>& out) const {
  const Model& model = *model_;
  const int a = model.collider(f.collider_a).body, b = model.collider(f.collider_b).body;
  const double d = locate_pair(model, f, pose_of(poses, a), pose_of(poses, b)).distance;
  const double margin = model.collision_options().margin;
  if (d <= enter || (d <= enter + margin && std::binary_search(current.begin(), current.end(), f)))
    out.push_back(f);
}

}  // namespace dynamics::detail
