#include "held_row.hpp"

#include <Eigen/Cholesky>

namespace dynamics::detail {

double mobility(const Model& model, int body, const Row6& row) {
  if (body == kWorld) return 0.0;
  const Body& b = model.body(body);
  return row.head<3>().squaredNorm() / b.mass + row.tail<3>().dot(b.inertia.ldlt().solve(row.tail<3>().transpose()));
}

double mobility(const Model& model, const HeldRow& held) {
  return mobility(model, held.body[0], held.row[0]) + mobility(model, held.body[1], held.row[1]);
}

}  // namespace dynamics::detail
