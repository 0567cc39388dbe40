#pragma once
// BlockRef: the writable view BlockMatrix::diag and BlockMatrix::block return.
// It is an Eigen::Map whose assignments (=, +=, -=) and comma initializer
// (<<) check the size of what is written and throw std::invalid_argument
// naming the block: with NDEBUG an Eigen map assigned a matrix of another
// size copies part of it or reads past its end, and a comma initializer given
// too many values writes into the next block of the arena, a silently wrong
// system.
//
// Writes that go around these operators stay unchecked as in Eigen:
// noalias(), transpose() = ... and coefficients.

#include <exception>

#include <Eigen/Core>

#include "graphsolve/eigen_abi.hpp"

namespace graphsolve {

namespace detail {
// Throws the size error of a BlockRef write; out of line so that the check
// inlines as one comparison.
[[noreturn]] void throw_block_size_mismatch(const char* operation, int row_node, int col_node, Eigen::Index rows,
                                            Eigen::Index cols, Eigen::Index other_rows, Eigen::Index other_cols);
// Throws the error of a comma initializer that does not fill its block.
[[noreturn]] void throw_block_fill_error(const char* what, int row_node, int col_node, Eigen::Index rows,
                                         Eigen::Index cols);
}  // namespace detail

class BlockCommaInitializer;

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
  template <typename Other>  // dense expressions, diagonal matrices, permutations
  BlockRef& operator=(const Eigen::EigenBase<Other>& other) {
    check("=", other.rows(), other.cols());
    Base::operator=(other.derived());
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
  // As Eigen's comma initializer: row by row, scalars or matrices.
  BlockCommaInitializer operator<<(double value);
  template <typename Other>
  BlockCommaInitializer operator<<(const Eigen::DenseBase<Other>& other);

 private:
  void check(const char* operation, Eigen::Index other_rows, Eigen::Index other_cols) const {
    if (other_rows != rows() || other_cols != cols())
      detail::throw_block_size_mismatch(operation, row_node_, col_node_, rows(), cols(), other_rows, other_cols);
  }

  int row_node_;
  int col_node_;
};

// What BlockRef::operator<< returns: it fills the block as Eigen's
// CommaInitializer does, but a value past the block's end or a piece of
// another height than the others of its row throws before anything is
// written, and a statement that ends before the block is full throws from
// the destructor (unless an exception is already on its way).
class BlockCommaInitializer {
 public:
  template <typename Other>
  BlockCommaInitializer(const BlockRef& block, const Eigen::DenseBase<Other>& first)
      : block_(block), exceptions_(std::uncaught_exceptions()), piece_rows_(first.rows()) {
    operator,(first);
  }
  BlockCommaInitializer(const BlockCommaInitializer&) = delete;
  BlockCommaInitializer& operator=(const BlockCommaInitializer&) = delete;
  ~BlockCommaInitializer() noexcept(false) {
    if (!finished_ && !full() && std::uncaught_exceptions() == exceptions_) fail("fewer coefficients than it holds");
  }

  BlockCommaInitializer& operator,(double value) { return operator,(Eigen::Matrix<double, 1, 1>::Constant(value)); }
  template <typename Other>
  BlockCommaInitializer& operator,(const Eigen::DenseBase<Other>& other) {
    Eigen::Index row = row_, col = col_, piece_rows = piece_rows_;
    if (col == block_.cols() && (other.cols() != 0 || other.rows() != piece_rows)) {  // next row of pieces
      row += piece_rows;
      col = 0;
      piece_rows = other.rows();
    }
    if (row + other.rows() > block_.rows() || col + other.cols() > block_.cols())
      fail("more coefficients than it holds");
    if (other.rows() != piece_rows) fail("pieces of different heights in one row");
    block_.block(row, col, other.rows(), other.cols()) = other;
    row_ = row;
    col_ = col + other.cols();
    piece_rows_ = piece_rows;
    return *this;
  }

  // Ends the fill (throws if the block is not full) and gives the block.
  BlockRef& finished() {
    if (!full()) fail("fewer coefficients than it holds");
    finished_ = true;
    return block_;
  }

 private:
  bool full() const {
    return col_ == block_.cols() && (row_ + piece_rows_ == block_.rows() || block_.cols() == 0);
  }
  [[noreturn]] void fail(const char* what) {
    finished_ = true;  // one error per statement
    detail::throw_block_fill_error(what, block_.row_node(), block_.col_node(), block_.rows(), block_.cols());
  }

  BlockRef block_;
  int exceptions_;
  Eigen::Index piece_rows_;  // height of the pieces of the current row
  Eigen::Index row_ = 0, col_ = 0;
  bool finished_ = false;
};

inline BlockCommaInitializer BlockRef::operator<<(double value) {
  return BlockCommaInitializer(*this, Eigen::Matrix<double, 1, 1>::Constant(value));
}

template <typename Other>
BlockCommaInitializer BlockRef::operator<<(const Eigen::DenseBase<Other>& other) {
  return BlockCommaInitializer(*this, other);
}

}  // namespace graphsolve
