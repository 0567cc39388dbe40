#pragma once
// Whether two column-major views share memory (internal). y = A x and the
// refinement's residuals read their input after writing their output, so an
// output that overlaps its input gives a wrong answer unless handled.

#include <functional>

#include <Eigen/Core>

namespace graphsolve::detail {

inline bool views_overlap(const Eigen::Ref<const Eigen::MatrixXd>& a, const Eigen::Ref<const Eigen::MatrixXd>& b) {
  if (a.size() == 0 || b.size() == 0) return false;
  const auto end = [](const Eigen::Ref<const Eigen::MatrixXd>& m) {
    return m.data() + (m.cols() - 1) * m.outerStride() + m.rows();
  };
  const std::less<const double*> before;
  return before(a.data(), end(b)) && before(b.data(), end(a));
}

// The same coefficients at the same addresses (solving in place).
inline bool same_view(const Eigen::Ref<const Eigen::MatrixXd>& a, const Eigen::Ref<const Eigen::MatrixXd>& b) {
  return a.data() == b.data() && a.rows() == b.rows() && a.cols() == b.cols() &&
         (a.cols() <= 1 || a.outerStride() == b.outerStride());
}

}  // namespace graphsolve::detail
