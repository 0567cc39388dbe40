#pragma once
// A row on body motions that a held inequality keeps at zero (internal):
// a pressed contact's normal, a sticking contact's tangents, a pushing
// joint limit. The loaded-frequency estimate keeps these rows closed as it
// keeps the joints closed (see Inequalities::held_rows), and a step may hold
// pushing limits as equalities (Inequalities::hold_pushed_limits).

#include "dynamics/model.hpp"
#include "joint_limits.hpp"

namespace dynamics::detail {

struct HeldRow {
  int body[2];  // kWorld: no rows for that side
  Row6 row[2];  // d/d(x (world), theta (body frame)) of each side's motion
};

// How fast a unit impulse along `row` moves body `body` along it (0 for the
// world): row W^-1 row^T.
double mobility(const Model& model, int body, const Row6& row);
// The same summed over both sides of a held row.
double mobility(const Model& model, const HeldRow& held);

// Of a complementarity pair at a solution, whether the impulse is the member
// away from zero: the speed it gives (impulse times mobility) beyond the
// other member's speed, and the impulse beyond the solve's noise.
inline bool pushes(double impulse, double mobility, double speed, double noise) {
  return impulse > noise && impulse * mobility > speed;
}

}  // namespace dynamics::detail
