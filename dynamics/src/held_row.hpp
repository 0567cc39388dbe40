#pragma once
// A row on body motions that a held inequality keeps at zero (internal):
// a pressed contact's normal, a sticking contact's tangents, a pushing
// joint limit. The loaded-frequency estimate keeps these rows closed as it
// keeps the joints closed (see Inequalities::held_rows).

#include "joint_limits.hpp"

namespace dynamics::detail {

struct HeldRow {
  int body[2];  // kWorld: no rows for that side
  Row6 row[2];  // d/d(x (world), theta (body frame)) of each side's motion
};

}  // namespace dynamics::detail
