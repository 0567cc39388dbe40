#pragma once
// The fastest motion that a mechanism's joint loads and springs make it swing
// (internal; see Simulator::load_frequency).

#include <memory>
#include <vector>

#include "dynamics/model.hpp"
#include "dynamics/simulator.hpp"
#include "dynamics/state.hpp"
#include "held_row.hpp"

namespace dynamics::detail {

// Estimates of one model's loaded frequency in storage kept from one to the
// next: the first estimate sizes it, the later ones allocate nothing while
// the held rows stay on the same bodies (a simulator estimates at tries of
// fewer sub-steps, which are steps; other held rows make another graph).
// Keeps a reference to the model, which must outlive it.
class LoadEstimator {
 public:
  explicit LoadEstimator(const Model& model);
  ~LoadEstimator();
  LoadEstimator(const LoadEstimator&) = delete;
  LoadEstimator& operator=(const LoadEstimator&) = delete;

  // `child_force`: each joint's translational force (world frame, N) on its
  // child at the child's attachment point; its parent takes the opposite at
  // its own. The joints' springs come from the model. `held`: the rows of
  // contacts and limits that the state's last step held, kept closed like
  // the joints. Throws std::runtime_error when the constraint system cannot
  // be solved.
  LoadFrequency estimate(const State& state, const std::vector<Vector3>& child_force,
                         const std::vector<HeldRow>& held = {});

 private:
  struct Workspace;
  const Model& model_;
  std::unique_ptr<Workspace> workspace_;  // created by the first estimate
};

// One estimate in fresh storage.
LoadFrequency load_frequency(const Model& model, const State& state, const std::vector<Vector3>& child_force,
                             const std::vector<HeldRow>& held = {});

}  // namespace dynamics::detail
