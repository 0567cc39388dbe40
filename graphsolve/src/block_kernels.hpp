#pragma once
// Small dense kernels on column-major blocks inside the factor arena.
// Sizes 1..6 (the blocks of rigid-body systems) run fully unrolled
// fixed-size Eigen code. Larger blocks take run-time sized pivot kernels
// (large_pivot.cpp) and products tiled by the fixed-size ones, up to
// blocks large enough for Eigen's general product.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include <Eigen/Core>

namespace graphsolve::kernels {

// C -= A * B       (A: m x k, B: k x n, C: m x n)
void sub_ab(int m, int k, int n, const double* a, int lda, const double* b, int ldb, double* c, int ldc);
// C -= A * B^T     (A: m x k, B: n x k)
void sub_abt(int m, int k, int n, const double* a, int lda, const double* b, int ldb, double* c, int ldc);
// C -= A^T * B     (A: k x m, B: k x n)
void sub_atb(int m, int k, int n, const double* a, int lda, const double* b, int ldb, double* c, int ldc);
// C <- -A C for a square k x k A and a contiguous k x n C, column by column
// in place: what a copy of C, a zeroing and sub_ab compute, in the same
// order of operations, without the two extra passes. False (C untouched)
// for k > kMaxFixed.
bool negate_product_in_place(int k, int n, const double* a, double* c);
// C <- -C P^T for an m x k C (leading dimension ldc) and a square k x k P,
// in strips of rows held in registers: what a copy of C, a zeroing and
// sub_abt compute, in the same order of operations, in one pass. When keep
// is given the old C is also stored there (leading dimension ldkeep), for
// LDLT, whose updates need it. A lower_triangular P (LLT's -C^{-1}) skips
// the zeros above its diagonal: 21 of 36 column updates at k = 6, 5% off
// LLT factorizations of 6x6 chains, trees and ladders. False (C untouched)
// for k > kMaxFixed.
bool negate_product_transposed_in_place(int m, int k, const double* p, double* c, int ldc, double* keep, int ldkeep,
                                        bool lower_triangular);
// C <- 0 (m x n block).
void set_zero(int m, int n, double* c, int ldc);
// C <- A (m x n blocks).
void copy(int m, int n, const double* a, int lda, double* c, int ldc);
// C -= A, then A <- 0 (m x n blocks): a product buffer handed over entry by
// entry, left all zeros for the next product to accumulate into.
void subtract_and_clear(int m, int n, double* a, int lda, double* c, int ldc);

constexpr int kMaxFixed = 6;
// The kernel that replaces a contiguous k x k pivot block D (0 <= k <=
// kMaxFixed) by -D^{-1}, from an LU factorization with partial pivoting; or,
// when `cholesky`, by -C^{-1} where D = C C^T. Negated so that applying it
// is one "C -= A B" kernel call. It returns the pivot ratio min|u_ii| /
// max(max|u_ii|, s) (squared for Cholesky), s the largest of the k
// row_magnitudes; 0 for a singular block, -1 for a non-positive Cholesky
// pivot. A ratio below `tolerance` (or 0, or -1) leaves D as it was.
// Chosen once per factorization: a switch on the size and method per pivot
// was 3% of a 3x3 chain's refactorization.
using SmallPivotKernel = double (*)(double* d, const double* row_magnitudes, double tolerance);
SmallPivotKernel small_pivot_kernel(int k, bool cholesky);
// The same for a pivot of any size k, with run-time loops, given the input
// scale (the largest row magnitude): work holds large_pivot_work_size(k)
// doubles and rows k ints. D stays as it was below the tolerance.
double invert_large_pivot(int k, double* d, int ldd, double input_scale, double tolerance, bool cholesky,
                          double* work, int* rows);
constexpr int kLargePivotChunk = 4;  // rows per vector operation of those loops
inline int padded_rows(int k) { return (k + kLargePivotChunk - 1) / kLargePivotChunk * kLargePivotChunk; }
inline long large_pivot_work_size(int k) { return static_cast<long>(padded_rows(k)) * (2 * k + 1); }

// Elimination by a pivot k (size b) whose only later neighbour is a (size c)
// such that fuses_edge(b, c): a forest edge, the whole work of chains and
// trees. One fixed-size call for what the general path does in five
// dispatched ones: 8-25% off chains and trees of 3x3 blocks. The portable
// kernels fuse blocks of at most kMaxFusedEdge rows: with 6x6 blocks, whose
// SSE2 arithmetic hides the dispatch, fusing measured the same (LDU) or a
// few percent slower (LDLT, LLT). The wide kernels fuse every size up to
// kMaxFixed (wide_kernels.hpp): 6x6 chains and trees 5-10% faster, saddle-
// point ones 11%; 3x3 LLT 8-14% and LDLT 4-9%, 3x3 LDU the same.
// p = -D_k^{-1} (or -C_k^{-1}), as small_pivot_kernel's left it; blocks
// contiguous. Widens rows[i] to the largest magnitude in row i of d after
// the update, the magnitudes the caller tracks, as on the general path.
//   LDU : u (b x c) <- -p u;              d (c x c) -= l u.
//   LDLT: l (c x b) <- -l p^T;            d -= l_new l_old^T.
//   LLT : l <- -l p^T;                    d -= l_new l_new^T.
constexpr int kMaxFusedEdge = 4;
bool fuses_edge(int b, int c);
void eliminate_edge_ldu(int b, int c, const double* p, double* u, const double* l, double* d, double* rows);
void eliminate_edge_symmetric(int b, int c, const double* p, double* l, double* d, bool cholesky, double* rows);

// Calls f with the block height: a compile-time constant for 1..kMaxFixed,
// so the per-column loops unroll into vector moves where std::copy /
// std::fill on a few doubles would call memmove / memset; a plain int
// otherwise (0 included).
template <class F>
auto with_height(int m, F&& f) {
  static_assert(kMaxFixed == 6, "one case per size");
  switch (m) {
    case 1: return f(std::integral_constant<int, 1>{});
    case 2: return f(std::integral_constant<int, 2>{});
    case 3: return f(std::integral_constant<int, 3>{});
    case 4: return f(std::integral_constant<int, 4>{});
    case 5: return f(std::integral_constant<int, 5>{});
    case 6: return f(std::integral_constant<int, 6>{});
    default: return f(m);
  }
}
template <class Height>
constexpr bool is_fixed_height = !std::is_same_v<Height, int>;

// C <- 0 for an m x n block; unrolled where m (and n) are compile-time sizes.
template <class Height, class Width>
inline void zero_columns(Height m, Width n, double* c, int ldc) {
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) c[i + static_cast<long>(j) * ldc] = 0.0;
}

// Sum of 0 * a_ij over a block, optionally copying it to c on the way: NaN
// exactly when the block holds a NaN or an Inf, so a load checks its values
// in the same pass that copies them. Eight independent partial sums (one per
// row up to 8) keep the loop vectorizable.
template <bool copy_too, class Height>
double checked_columns(Height m, int n, const double* a, int lda, double* c, int ldc) {
  double sum[8] = {};
  for (int j = 0; j < n; ++j, a += lda, c += ldc)
    for (int i = 0; i < m; ++i) {
      if constexpr (copy_too) c[i] = a[i];
      sum[i & 7] += a[i] * 0.0;
    }
  double total = 0.0;
  for (const double s : sum) total += s;
  return total;
}

// checked_columns for `count` contiguous values (a block whose leading
// dimensions are its height on both sides), in vectors of four: the loop
// above, run on a block of run-time size, took 1 ns per value.
template <bool copy_too>
double checked_contiguous(long count, const double* a, double* c) {
  using Chunk = Eigen::Array<double, 4, 1>;
  Chunk sum = Chunk::Zero();
  long i = 0;
  for (; i + 4 <= count; i += 4) {
    const Chunk v = Eigen::Map<const Chunk>(a + i);
    if constexpr (copy_too) Eigen::Map<Chunk>(c + i) = v;
    sum += v * 0.0;
  }
  double total = sum.sum();
  for (; i < count; ++i) {
    if constexpr (copy_too) c[i] = a[i];
    total += a[i] * 0.0;
  }
  return total;
}

// False if the pivot is exactly zero or not finite; else widens the range of
// pivot magnitudes seen so far (the pivot ratio's two ends).
inline bool track_pivot(double pivot, double& smallest, double& largest) {
  const double magnitude = std::abs(pivot);
  if (!(magnitude > 0.0) || !(magnitude < 1e308)) return false;
  smallest = std::min(smallest, magnitude);
  largest = std::max(largest, magnitude);
  return true;
}

// The same for a Cholesky pivot p_j (a squared root): false unless it is
// positive and finite, in which case the caller drops the range. No branch,
// so that the kernels' unrolled loops decide definiteness at their end.
inline bool track_positive_pivot(double pivot, double& smallest, double& largest) {
  smallest = std::min(smallest, pivot);
  largest = std::max(largest, pivot);
  return pivot > 0.0 && pivot < 1e308;
}

}  // namespace graphsolve::kernels
