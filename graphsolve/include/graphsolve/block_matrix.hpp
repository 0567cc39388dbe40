#pragma once
// BlockMatrix: the values of a square block-sparse system on a fixed Pattern.
// All blocks live in one contiguous column-major arena. Write them through
// diag(i) and block(i, j); both return Eigen maps into the arena (BlockRef:
// a map whose assignments and comma initializer check their size).
//
// Activation: a node switched off behaves as an identity diagonal block with
// no couplings, so the remaining nodes see the reduced system and the
// solution of an inactive node equals its right-hand side.

#include <memory>
#include <vector>

#include <Eigen/Core>

#include "graphsolve/block_ref.hpp"
#include "graphsolve/eigen_abi.hpp"
#include "graphsolve/out_of_memory.hpp"
#include "graphsolve/pattern.hpp"
#include "graphsolve/huge_page_allocator.hpp"

namespace graphsolve {

namespace detail {
// Which product BlockMatrix's multiply* computes (its implementation's switch).
enum class BlockProduct { Plain, Transposed, SymmetricLower };
}  // namespace detail

class Symbolic;

class BlockMatrix {
 public:
  using BlockMap = BlockRef;
  using ConstBlockMap = Eigen::Map<const Eigen::MatrixXd>;

  explicit BlockMatrix(const Symbolic& symbolic);
  explicit BlockMatrix(std::shared_ptr<const Pattern> pattern);

  int rows() const { return pattern_->dimension; }
  int num_nodes() const { return pattern_->num_nodes; }
  const Pattern& pattern() const { return *pattern_; }
  const std::shared_ptr<const Pattern>& pattern_ptr() const { return pattern_; }

  BlockMap diag(NodeId i);
  ConstBlockMap diag(NodeId i) const;
  // A_ij; i == j gives the diagonal block. Throws std::out_of_range if {i, j}
  // is not an edge of the pattern; writing a matrix of another size than the
  // block's through =, += or -=, or a << fill that does not fill it exactly,
  // throws std::invalid_argument (block_ref.hpp).
  BlockMap block(NodeId i, NodeId j);
  ConstBlockMap block(NodeId i, NodeId j) const;
  bool has_block(NodeId i, NodeId j) const;

  void set_zero();
  void set_active(NodeId node, bool active);
  bool active(NodeId node) const;
  const std::vector<char>& activity() const { return active_; }

  // y = A x for one or several columns (inactive nodes act as identity). x
  // and y must not overlap (y is written while x is still read): that, or
  // wrong sizes, throws std::invalid_argument.
  void multiply(const Eigen::Ref<const Eigen::MatrixXd>& x, Eigen::Ref<Eigen::MatrixXd> y) const;
  // y = A^T x, likewise.
  void multiply_transposed(const Eigen::Ref<const Eigen::MatrixXd>& x, Eigen::Ref<Eigen::MatrixXd> y) const;
  // y = S x for the symmetric S that the lower triangle defines (A_ij with
  // i > j and the lower triangle of each diagonal block): the matrix LDLT and
  // LLT factorize. The upper blocks are not read.
  void multiply_symmetric_lower(const Eigen::Ref<const Eigen::MatrixXd>& x, Eigen::Ref<Eigen::MatrixXd> y) const;
  // Frobenius norm of the matrix multiply() applies (inactive nodes as identity).
  double frobenius_norm() const;
  // Frobenius norm of the symmetric matrix multiply_symmetric_lower() applies.
  double frobenius_norm_symmetric_lower() const;
  // The matrix as a dense Eigen matrix (for debugging and tests).
  Eigen::MatrixXd to_dense() const;
  // Index of the first non-finite value's node (active nodes only), or -1.
  NodeId first_non_finite_node() const;
  // True if every stored value is finite (one pass over the arena).
  bool all_finite() const;

  // Raw arena access for the factorization and assign_from_sparse: offsets
  // of A_ii, A_ab and A_ba (edge e = (a, b), a < b), each block column-major.
  const double* values() const { return values_.data(); }
  double* values() { return values_.data(); }
  long value_count() const { return static_cast<long>(values_.size()); }
  int diag_offset(NodeId i) const { return diag_offset_[static_cast<std::size_t>(i)]; }
  int upper_offset(int edge) const { return upper_offset_[static_cast<std::size_t>(edge)]; }
  int lower_offset(int edge) const { return lower_offset_[static_cast<std::size_t>(edge)]; }

 private:
  void check_node(NodeId node, const char* where) const;
  void multiply(const Eigen::Ref<const Eigen::MatrixXd>& x, Eigen::Ref<Eigen::MatrixXd> y,
                detail::BlockProduct product, const char* name) const;
  int block_offset(NodeId i, NodeId j, const char* where) const;

  std::shared_ptr<const Pattern> pattern_;
  std::vector<double, detail::HugePageAllocator<double>> values_;
  std::vector<int> diag_offset_;
  std::vector<int> upper_offset_;
  std::vector<int> lower_offset_;
  std::vector<char> active_;
};

}  // namespace graphsolve
