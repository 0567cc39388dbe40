#pragma once
// BlockRef: the writable view BlockMatrix::diag and BlockMatrix::block return.
// It is an Eigen::Map whose assignments (=, +=, -=) check the size of what is
// written and throw std::invalid_argument naming the block: with NDEBUG an
// Eigen map assigned a matrix of another size copies part of it or reads past
// its end, a silently wrong system.
//
// Writes that go around these operators stay unchecked as in Eigen:
// noalias(), transpose() = ..., the comma initializer (<<) and coefficients.

#include <Eigen/Core>

#include "graphsolve/eigen_abi.hpp"

namespace graphsolve {

namespace detail {
// Throws the size error of a BlockRef write; out of line so that the check
// inlines as one comparison.
[[noreturn]] void throw_block_size_mismatch(const char* operation, int row_node, int col_node, Eigen::Index rows,
                                            Eigen::Index cols, Eigen::Index other_rows, Eigen::Index other_cols);
}  // namespace detail

class BlockRef : public Eigen::Map<Eigen::MatrixXd> {
 public:
  using Base = Eigen::Map<Eigen::MatrixXd>;

  BlockRef(double* data, int rows, int cols, int row_node, int col_node)
      : Base(data, rows, cols), row_node_(row_node), col_node_(col_node) {}
  BlockRef(const BlockRef&) = default;  // copies the view, as a Map does

  int row_node() const { return row_node_; }
  int col_node() const { return col_node_; }

  // Assigning one view to another copies values, as for an Eigen map.
  BlockRef& operator=(const BlockRef& other) { return *this = static_cast<const Base&>(other); }
  template <typename Other>
  BlockRef& operator=(const Eigen::DenseBase<Other>& other) {
    check("=", other.rows(), other.cols());
    Base::operator=(other);
    return *this;
  }
  template <typename Other>
  BlockRef& operator=(const Eigen::EigenBase<Other>& other) {  // diagonal matrices, permutations
    check("=", other.rows(), other.cols());
    Base::operator=(other);
    return *this;
  }
  template <typename Other>
  BlockRef& operator+=(const Eigen::MatrixBase<Other>& other) {
    check("+=", other.rows(), other.cols());
    Base::operator+=(other);
    return *this;
  }
  template <typename Other>
  BlockRef& operator-=(const Eigen::MatrixBase<Other>& other) {
    check("-=", other.rows(), other.cols());
    Base::operator-=(other);
    return *this;
  }

 private:
  void check(const char* operation, Eigen::Index other_rows, Eigen::Index other_cols) const {
    if (other_rows != rows() || other_cols != cols())
      detail::throw_block_size_mismatch(operation, row_node_, col_node_, rows(), cols(), other_rows, other_cols);
  }

  int row_node_;
  int col_node_;
};

}  // namespace graphsolve
