#include "graphsolve/block_matrix.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "graphsolve/symbolic.hpp"
#include "arena_layout.hpp"
#include "block_kernels.hpp"
#include "memory_overlap.hpp"
#include "value_count_text.hpp"

namespace graphsolve {

BlockMatrix::BlockMatrix(const Symbolic& symbolic) : BlockMatrix(symbolic.pattern_ptr()) {}

namespace detail {
ArenaLayout arena_layout(const Pattern& p) {
  ArenaLayout layout;
  layout.diag.resize(p.num_nodes);
  for (int i = 0; i < p.num_nodes; ++i) {
    layout.diag[i] = static_cast<int>(layout.total);
    layout.total += static_cast<long>(p.size[i]) * p.size[i];
  }
  layout.upper.resize(p.num_edges);
  layout.lower.resize(p.num_edges);
  for (int e = 0; e < p.num_edges; ++e) {
    const long block = static_cast<long>(p.size[p.edges[e].first]) * p.size[p.edges[e].second];
    layout.upper[e] = static_cast<int>(layout.total);
    layout.lower[e] = static_cast<int>(layout.total + block);
    layout.total += 2 * block;
  }
  return layout;
}
}  // namespace detail

BlockMatrix::BlockMatrix(std::shared_ptr<const Pattern> pattern) : pattern_(std::move(pattern)) {
  detail::ArenaLayout layout = detail::arena_layout(*pattern_);
  if (layout.total > std::numeric_limits<int>::max())
    throw std::invalid_argument("graphsolve::BlockMatrix: more than 2^31-1 stored values");
  try {
    values_.assign(layout.total, 0.0);
  } catch (const std::bad_alloc&) {
    throw OutOfMemory("graphsolve::BlockMatrix: out of memory for the matrix's " +
                      detail::value_count_text(static_cast<double>(layout.total)));
  }
  diag_offset_ = std::move(layout.diag);
  upper_offset_ = std::move(layout.upper);
  lower_offset_ = std::move(layout.lower);
  active_.assign(pattern_->num_nodes, 1);
}

namespace detail {
namespace {
std::string block_name(int row_node, int col_node, Eigen::Index rows, Eigen::Index cols) {
  const std::string name = row_node == col_node ? "diagonal block of node " + std::to_string(row_node)
                                                : "block (" + std::to_string(row_node) + ", " +
                                                      std::to_string(col_node) + ")";
  return "graphsolve::BlockMatrix: " + name + " is " + std::to_string(rows) + "x" + std::to_string(cols);
}
}  // namespace

void throw_block_size_mismatch(const char* operation, int row_node, int col_node, Eigen::Index rows,
                               Eigen::Index cols, Eigen::Index other_rows, Eigen::Index other_cols) {
  throw std::invalid_argument(block_name(row_node, col_node, rows, cols) + ", given a " +
                              std::to_string(other_rows) + "x" + std::to_string(other_cols) + " matrix (" +
                              operation + ")");
}

void throw_block_fill_error(const char* what, int row_node, int col_node, Eigen::Index rows, Eigen::Index cols) {
  throw std::invalid_argument(block_name(row_node, col_node, rows, cols) + ", given " + what + " (<<)");
}
}  // namespace detail

void BlockMatrix::check_node(NodeId node, const char* where) const {
  if (node < 0 || node >= pattern_->num_nodes)
    throw std::out_of_range(std::string("graphsolve::BlockMatrix::") + where + ": node " +
                            std::to_string(node) + " does not exist (the pattern has " +
                            std::to_string(pattern_->num_nodes) + " nodes)");
}

int BlockMatrix::block_offset(NodeId i, NodeId j, const char* where) const {
  check_node(i, where);
  check_node(j, where);
  if (i == j) return diag_offset_[i];
  const int e = pattern_->find_edge(i, j);
  if (e < 0)
    throw std::out_of_range(std::string("graphsolve::BlockMatrix::") + where + ": no edge between nodes " +
                            std::to_string(i) + " and " + std::to_string(j) + " in the pattern");
  return i < j ? upper_offset_[e] : lower_offset_[e];
}

BlockMatrix::BlockMap BlockMatrix::diag(NodeId i) { return block(i, i); }
BlockMatrix::ConstBlockMap BlockMatrix::diag(NodeId i) const { return block(i, i); }

BlockMatrix::BlockMap BlockMatrix::block(NodeId i, NodeId j) {
  const int off = block_offset(i, j, "block");
  return BlockMap(values_.data() + off, pattern_->size[i], pattern_->size[j], i, j);
}

BlockMatrix::ConstBlockMap BlockMatrix::block(NodeId i, NodeId j) const {
  const int off = block_offset(i, j, "block");
  return ConstBlockMap(values_.data() + off, pattern_->size[i], pattern_->size[j]);
}

bool BlockMatrix::has_block(NodeId i, NodeId j) const {
  check_node(i, "has_block");
  check_node(j, "has_block");
  return i == j || pattern_->find_edge(i, j) >= 0;
}

void BlockMatrix::set_zero() { std::fill(values_.begin(), values_.end(), 0.0); }

void BlockMatrix::set_active(NodeId node, bool active) {
  check_node(node, "set_active");
  active_[node] = active ? 1 : 0;
}

bool BlockMatrix::active(NodeId node) const {
  check_node(node, "active");
  return active_[node] != 0;
}

namespace {

// The block products below take their sizes as kernels::with_height gives
// them: compile-time constants for 1..6, the blocks of mechanisms, whose
// loops then unroll fully, and plain ints otherwise. On 1000-node chains,
// ladders and crystals of 3x3 and 6x6 blocks that runs 1.5-2.2x fewer
// instructions than loops on run-time sizes did (docs/benchmarks.md).

using Op = detail::BlockProduct;

// A fixed-size block's products keep their sums (or, transposed, the vector
// they read) in locals: written through y, which may alias what the loop
// reads as far as the compiler knows, every column loaded and stored y again
// (multiply() took longer than a solve: 30.5 against 26.7 us on a 1000-node
// 6x6 chain, now 20.5). The same operations in the same order: the same bits.

// y += B x for one column-major rows x cols block.
template <class Rows, class Cols>
void add_block_product(Rows rows, Cols cols, const double* block, const double* x, double* y) {
  if constexpr (kernels::is_fixed_height<Rows>) {
    double sum[Rows::value];
    for (int r = 0; r < rows; ++r) sum[r] = y[r];
    for (int c = 0; c < cols; ++c, block += rows) {
      const double xc = x[c];
      for (int r = 0; r < rows; ++r) sum[r] += block[r] * xc;
    }
    for (int r = 0; r < rows; ++r) y[r] = sum[r];
  } else {
    for (int c = 0; c < cols; ++c, block += rows) {
      const double xc = x[c];
      for (int r = 0; r < rows; ++r) y[r] += block[r] * xc;
    }
  }
}

// y += B^T x for one column-major rows x cols block: one dot product per column.
template <class Rows, class Cols>
void add_transposed_block_product(Rows rows, Cols cols, const double* block, const double* x, double* y) {
  if constexpr (kernels::is_fixed_height<Rows>) {
    double xr[Rows::value];
    for (int r = 0; r < rows; ++r) xr[r] = x[r];
    for (int c = 0; c < cols; ++c, block += rows) {
      double sum = 0.0;
      for (int r = 0; r < rows; ++r) sum += block[r] * xr[r];
      y[c] += sum;
    }
  } else {
    for (int c = 0; c < cols; ++c, block += rows) {
      double sum = 0.0;
      for (int r = 0; r < rows; ++r) sum += block[r] * x[r];
      y[c] += sum;
    }
  }
}

// y += S x for the symmetric matrix S whose lower triangle is that of the
// column-major n x n block.
template <class Size>
void add_lower_symmetric_product(Size n, const double* block, const double* x, double* y) {
  auto entry = [&](int r, int c) { return r >= c ? block[r + c * n] : block[c + r * n]; };
  if constexpr (kernels::is_fixed_height<Size>) {
    double sum[Size::value];
    for (int r = 0; r < n; ++r) sum[r] = y[r];
    for (int c = 0; c < n; ++c)
      for (int r = 0; r < n; ++r) sum[r] += entry(r, c) * x[c];
    for (int r = 0; r < n; ++r) y[r] = sum[r];
  } else {
    for (int c = 0; c < n; ++c)
      for (int r = 0; r < n; ++r) y[r] += entry(r, c) * x[c];
  }
}

// y = op(D) x for a diagonal block (overwrites y).
void diagonal_product(Op product, int size, const double* block, const double* x, double* y) {
  kernels::with_height(size, [&](auto n) {
    for (int r = 0; r < n; ++r) y[r] = 0.0;
    if (product == Op::SymmetricLower)
      add_lower_symmetric_product(n, block, x, y);
    else if (product == Op::Transposed)
      add_transposed_block_product(n, n, block, x, y);
    else
      add_block_product(n, n, block, x, y);
  });
}

// The two off-diagonal products of edge (a, b), a < b, whose blocks are
// upper = A_ab (size_a x size_b) and lower = A_ba.
void edge_product(Op product, int size_a, int size_b, const double* upper, const double* lower,
                  const double* xa, const double* xb, double* ya, double* yb) {
  kernels::with_height(size_a, [&](auto na) {
    kernels::with_height(size_b, [&](auto nb) {
      switch (product) {
        case Op::Plain:  // y_a += A_ab x_b, y_b += A_ba x_a
          add_block_product(na, nb, upper, xb, ya);
          add_block_product(nb, na, lower, xa, yb);
          break;
        case Op::Transposed:  // y_b += A_ab^T x_a, y_a += A_ba^T x_b
          add_transposed_block_product(na, nb, upper, xa, yb);
          add_transposed_block_product(nb, na, lower, xb, ya);
          break;
        case Op::SymmetricLower:  // A_ab read as A_ba^T
          add_block_product(nb, na, lower, xa, yb);
          add_transposed_block_product(nb, na, lower, xb, ya);
          break;
      }
    });
  });
}

}  // namespace

void BlockMatrix::multiply(const Eigen::Ref<const Eigen::MatrixXd>& x, Eigen::Ref<Eigen::MatrixXd> y) const {
  multiply(x, y, Op::Plain, "multiply");
}

void BlockMatrix::multiply_transposed(const Eigen::Ref<const Eigen::MatrixXd>& x, Eigen::Ref<Eigen::MatrixXd> y) const {
  multiply(x, y, Op::Transposed, "multiply_transposed");
}

void BlockMatrix::multiply_symmetric_lower(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                          Eigen::Ref<Eigen::MatrixXd> y) const {
  multiply(x, y, Op::SymmetricLower, "multiply_symmetric_lower");
}

void BlockMatrix::multiply(const Eigen::Ref<const Eigen::MatrixXd>& x, Eigen::Ref<Eigen::MatrixXd> y, Op product,
                           const char* name) const {
  const Pattern& p = *pattern_;
  if (x.rows() != p.dimension || y.rows() != p.dimension || x.cols() != y.cols())
    throw std::invalid_argument(std::string("graphsolve::BlockMatrix::") + name + ": x is " +
                                std::to_string(x.rows()) + "x" + std::to_string(x.cols()) + " and y is " +
                                std::to_string(y.rows()) + "x" + std::to_string(y.cols()) + ", expected " +
                                std::to_string(p.dimension) + " rows each and equal column counts");
  if (detail::views_overlap(x, y))
    throw std::invalid_argument(std::string("graphsolve::BlockMatrix::") + name +
                                ": x and y overlap in memory (y is written while x is read): pass separate vectors");
  const double* values = values_.data();
  for (Eigen::Index k = 0; k < x.cols(); ++k) {
    const double* xk = x.col(k).data();
    double* yk = y.col(k).data();
    for (int i = 0; i < p.num_nodes; ++i) {
      const int offset = p.offset[i], size = p.size[i];
      if (active_[i])
        diagonal_product(product, size, values + diag_offset_[i], xk + offset, yk + offset);
      else
        std::copy(xk + offset, xk + offset + size, yk + offset);
    }
    for (int e = 0; e < p.num_edges; ++e) {
      const auto [a, b] = p.edges[e];
      if (!active_[a] || !active_[b]) continue;
      edge_product(product, p.size[a], p.size[b], values + upper_offset_[e], values + lower_offset_[e],
                   xk + p.offset[a], xk + p.offset[b], yk + p.offset[a], yk + p.offset[b]);
    }
  }
}

double BlockMatrix::frobenius_norm() const {
  // blueNorm and hypot: no overflow for values near DBL_MAX, where squares would.
  const Pattern& p = *pattern_;
  double norm = 0.0;
  for (int i = 0; i < p.num_nodes; ++i)
    norm = std::hypot(norm, active_[i] ? diag(i).blueNorm() : std::sqrt(p.size[i]));  // inactive: identity
  for (int e = 0; e < p.num_edges; ++e) {
    const auto [a, b] = p.edges[e];
    if (active_[a] && active_[b]) norm = std::hypot(norm, std::hypot(block(a, b).blueNorm(), block(b, a).blueNorm()));
  }
  return norm;
}

double BlockMatrix::frobenius_norm_symmetric_lower() const {
  // Every entry off the diagonal appears twice in S: once stored, once mirrored.
  const Pattern& p = *pattern_;
  double norm = 0.0;
  for (int i = 0; i < p.num_nodes; ++i) {
    if (!active_[i]) {
      norm = std::hypot(norm, std::sqrt(p.size[i]));
      continue;
    }
    const auto d = diag(i);
    const double strictly_lower = d.triangularView<Eigen::StrictlyLower>().toDenseMatrix().blueNorm();
    norm = std::hypot(norm, std::hypot(d.diagonal().blueNorm(), std::sqrt(2.0) * strictly_lower));
  }
  for (int e = 0; e < p.num_edges; ++e) {
    const auto [a, b] = p.edges[e];
    if (active_[a] && active_[b]) norm = std::hypot(norm, std::sqrt(2.0) * block(b, a).blueNorm());
  }
  return norm;
}

Eigen::MatrixXd BlockMatrix::to_dense() const {
  const Pattern& p = *pattern_;
  Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(p.dimension, p.dimension);
  for (int i = 0; i < p.num_nodes; ++i) {
    auto di = dense.block(p.offset[i], p.offset[i], p.size[i], p.size[i]);
    if (active_[i])
      di = diag(i);
    else
      di.setIdentity();
  }
  for (int e = 0; e < p.num_edges; ++e) {
    const auto [a, b] = p.edges[e];
    if (!active_[a] || !active_[b]) continue;
    dense.block(p.offset[a], p.offset[b], p.size[a], p.size[b]) = block(a, b);
    dense.block(p.offset[b], p.offset[a], p.size[b], p.size[a]) = block(b, a);
  }
  return dense;
}

bool BlockMatrix::all_finite() const {
  // x * 0 is NaN exactly for NaN and Inf, and Eigen vectorizes the sum
  // (allFinite() is not vectorized).
  return (Eigen::Map<const Eigen::ArrayXd>(values_.data(), static_cast<Eigen::Index>(values_.size())) * 0.0).sum() == 0.0;
}

NodeId BlockMatrix::first_non_finite_node() const {
  const Pattern& p = *pattern_;
  for (int i = 0; i < p.num_nodes; ++i)
    if (active_[i] && !diag(i).allFinite()) return i;
  for (int e = 0; e < p.num_edges; ++e) {
    const auto [a, b] = p.edges[e];
    if (!active_[a] || !active_[b]) continue;
    if (!block(a, b).allFinite() || !block(b, a).allFinite()) return a;
  }
  return -1;
}

}  // namespace graphsolve
