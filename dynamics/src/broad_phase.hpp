#pragma once
// Broad phase (internal): which collider features may touch within a step.
// Bounding spheres, grown by the distance each collider can travel in a step
// plus the margin, are swept along the world x axis; the pairs that overlap
// (and may collide) have their features measured exactly. See collision.hpp.

#include <utility>
#include <vector>

#include "contact_site.hpp"
#include "dynamics/state.hpp"

namespace dynamics::detail {

class BroadPhase {
 public:
  explicit BroadPhase(const Model& model);

  bool empty() const { return bounding_.empty(); }
  // The features (sorted) that are within reach at `poses` moving with the
  // state's velocities; those in `current` (sorted) are kept up to twice the
  // margin. Allocates only when `out` outgrows its capacity.
  void find(const std::vector<Pose>& poses, const State& state, double dt, const std::vector<PairFeature>& current,
            std::vector<PairFeature>& out);

 private:
  bool blocked(int body_a, int body_b) const;
  void add_features(int i, int j, const std::vector<Pose>& poses, const std::vector<PairFeature>& current,
                    std::vector<PairFeature>& out) const;
  void add_box_box(int i, int j, double enter, const std::vector<Pose>& poses, const std::vector<PairFeature>& current,
                   std::vector<PairFeature>& out) const;
  void add_feature(const PairFeature& f, double enter, const std::vector<Pose>& poses,
                   const std::vector<PairFeature>& current, std::vector<PairFeature>& out) const;

  const Model* model_;
  std::vector<double> bounding_;             // per collider: bounding sphere radius about its centre
  std::vector<std::pair<int, int>> blocked_;  // sorted body pairs that never collide
  // Per step scratch, per collider: world centre, reach (travel in a step) and sweep order.
  std::vector<Vector3> centre_;
  std::vector<double> reach_;
  std::vector<int> order_;
};

}  // namespace dynamics::detail
