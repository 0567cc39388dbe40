#include "graphsolve/sparse_export.hpp"

#include <vector>

namespace graphsolve {

Eigen::SparseMatrix<double, Eigen::ColMajor, int> to_sparse(const BlockMatrix& matrix) {
  const Pattern& p = matrix.pattern();
  std::vector<Eigen::Triplet<double, int>> entries;
  auto add_block = [&](NodeId i, NodeId j, const Eigen::Ref<const Eigen::MatrixXd>& block) {
    for (int c = 0; c < block.cols(); ++c)
      for (int r = 0; r < block.rows(); ++r) entries.emplace_back(p.offset[i] + r, p.offset[j] + c, block(r, c));
  };
  for (NodeId i = 0; i < p.num_nodes; ++i) {
    if (matrix.active(i))
      add_block(i, i, matrix.diag(i));
    else
      add_block(i, i, Eigen::MatrixXd::Identity(p.size[i], p.size[i]));
  }
  for (const auto& [a, b] : p.edges) {
    if (!matrix.active(a) || !matrix.active(b)) continue;
    add_block(a, b, matrix.block(a, b));
    add_block(b, a, matrix.block(b, a));
  }
  Eigen::SparseMatrix<double, Eigen::ColMajor, int> sparse(p.dimension, p.dimension);
  sparse.setFromTriplets(entries.begin(), entries.end());
  sparse.makeCompressed();
  return sparse;
}

}  // namespace graphsolve
