#pragma once
// Internal state of a Factorization: one contiguous arena holding, for every
// pivot position k, its diagonal block (b x b; after factorization it holds
// -D_k^{-1}, or -C_k^{-1} for Cholesky), its lower panel L_k (W x b: the
// blocks A_jk of its later neighbours j stacked, leading dimension W) and,
// for LDU, its upper panel U_k (b x W: the blocks A_kj side by side).

#include <algorithm>
#include <array>
#include <vector>

#include <Eigen/Core>

#include "block_kernels.hpp"
#include "block_view.hpp"
#include "graphsolve/factorization.hpp"
#include "graphsolve/huge_page_allocator.hpp"
#include "symbolic_data.hpp"
#include "wide_kernels.hpp"

namespace graphsolve {

// rows[i] = max(rows[i], largest magnitude in row i of a contiguous b x b
// block); of fixed size when b is a compile-time constant or (through
// kernels::with_height) at most kMaxFixed: a dynamic reduction was 3.5% of a
// 6x6 chain's factorization.
template <class Size>
void widen_row_magnitudes(Size b, const double* block, double* rows) {
  kernels::with_height(b, [&](auto size) {
    if constexpr (kernels::is_fixed_height<decltype(size)>) {
      kernels::widen_row_magnitudes<decltype(size)::value>(block, rows);
    } else {
      kernels::widen_row_magnitudes(size, block, rows);
    }
  });
}

// Largest magnitude in column j of a b x b block. Only pivots whose columns
// are scaled (pivot_inversion.cpp) need it, so a plain loop.
inline double largest_in_column(int b, const double* block, int j) {
  double largest = 0.0;
  for (int i = 0; i < b; ++i) largest = std::max(largest, std::abs(block[i + static_cast<long>(j) * b]));
  return largest;
}

// cols[j] = max(cols[j], largest_in_column(b, block, j)) for every column.
inline void widen_column_magnitudes(int b, const double* block, double* cols) {
  for (int j = 0; j < b; ++j) cols[j] = std::max(cols[j], largest_in_column(b, block, j));
}

// What factorize() adds to the diagonal of a node of this kind.
inline double diagonal_shift(const FactorOptions& options, NodeKind kind) {
  return options.shift + (kind == NodeKind::ZeroDiagonal ? options.constraint_shift : 0.0);
}

namespace detail {
// The plan of the one-vector solve (solve_vector.cpp): what the substitution
// reads for each pivot and coupling, gathered once from the layout's tables.
struct VectorSolveNode {
  long pivot;      // P_k in the factor's values
  int rows;        // its first row in x
  int size;
  int position;    // k, for its activity
  int begin, end;  // its couplings in the entry list
  int ld_lower;    // leading dimension of its lower blocks
};
struct VectorSolveEntry {
  long lower, upper;  // L_ck and (LDU) U_kc in the factor's values
  int rows;           // the neighbour's first row in x
  int size;
  int position;       // c, for its activity
};
}  // namespace detail

struct Factorization::Impl {
  Impl(const Symbolic& s, Method m);
  // Sizes every buffer for `factor_values` factor values (throws std::bad_alloc).
  void allocate_storage(long factor_values);

  int size(int k) const { return d->size[k]; }
  int width(int k) const { return d->width[k]; }
  double* diag(int k) { return values.data() + diag_off[k]; }
  const double* diag(int k) const { return values.data() + diag_off[k]; }
  // Block A_kj of neighbour entry e in the upper panel of k (b_k x b_j, ld b_k).
  double* upper(int k, int e) { return values.data() + upper_off[k] + static_cast<long>(size(k)) * d->struct_col[e]; }
  // Block A_jk of neighbour entry e in the lower panel of k (b_j x b_k, ld W_k).
  double* lower(int k, int e) { return values.data() + lower_off[k] + d->struct_col[e]; }
  int lower_ld(int k) const { return std::max(1, width(k)); }
  int upper_ld(int k) const { return std::max(1, size(k)); }

  // Entry (of some pivot's sorted list) holding neighbour position c, scanning forward from r.
  int find_entry(int c, int r) const {
    while (d->struct_pos[r] != c) ++r;
    return r;
  }

  // True if the entries after e1 in a pivot's list (ending at end) are
  // exactly S(a), a = struct_pos[e1]: the later ones are a subset of S(a)
  // (elimination tree), so equal counts suffice. Then the blocks of both
  // lists line up and a strip of updates is one product. Inactive entries
  // in it hold zeros on both sides, so the product leaves them zero.
  bool tail_is_structure_of(int a, int e1, int end) const {
    return end - e1 - 1 == d->struct_begin[a + 1] - d->struct_begin[a] && end - e1 > 1;
  }

  // Copies node k's diagonal block and panels from A (zeroes for fill and
  // inactive couplings, identity for an inactive node), adds the shifts and
  // returns the sum of 0 * value over every active value it read.
  double load(int k, const BlockMatrix& matrix, const FactorOptions& options);
  // Per position, how load() may load the node before the general path
  // (load_uniform.cpp): kUniformLoad where it has 2 to 6 rows and every later
  // neighbour its size, kMixedLoad where it has 2 to 6 rows and its later
  // neighbours 1 to 6, not all its own (bodies and joints). load_uniform then
  // returns false, having changed nothing, where the node or a later
  // neighbour is inactive (the general path zeroes their couplings), or where
  // it needs the wide kernels (5 or 6 rows, or a mixed load) and they do not run.
  enum : char { kGeneralLoad, kUniformLoad, kMixedLoad };
  static constexpr int kMaxMixedLoad = 6;
  std::vector<char> load_kind;
  void find_load_kinds();
  // Whether node k and its later neighbours are all active in `activity`.
  bool active_with_later_neighbours(int k, const char* activity) const {
    if (!activity[d->order[k]]) return false;
    for (int e = d->struct_begin[k]; e < d->struct_begin[k + 1]; ++e)
      if (!activity[entry_source[e].later_node]) return false;
    return true;
  }
  bool load_uniform(int k, const BlockMatrix& matrix, const FactorOptions& options, double& poison);
  // The same in the wide kernels' vectors (load_uniform_wide.cpp): uniform
  // for 5 and 6 rows, mixed (kMixed) for 2 to 6; load_mixed picks one of
  // the latter by the node's size and the method.
  template <int B, bool kSymmetric, bool kMixed>
  GS_WIDE_MEMBER bool load_wide(int k, const BlockMatrix& matrix, const FactorOptions& options, double& poison);
  bool load_mixed(int k, const BlockMatrix& matrix, const FactorOptions& options, double& poison);
  template <int B, bool kSymmetric>
  bool load_uniform_sized(int k, const BlockMatrix& matrix, const FactorOptions& options, double& poison);
  template <class Size>
  double load_sized(Size b, int k, const BlockMatrix& matrix, const FactorOptions& options);
  void prefetch(int k, const BlockMatrix& matrix) const;
  void build_load_schedule();
  static constexpr int kPrefetchAhead = 8;  // positions
  // A factor this small stays in cache between factorizations (the Newton
  // systems of a simulator): its prefetches were 1.4% of the instructions of
  // a 100-link chain's step and fetched nothing.
  static constexpr long kPrefetchAboveBytes = 256 * 1024;
  bool prefetching = true;
  // Loads the later neighbours of pivot k that no earlier pivot updates (a
  // node no pivot touches loads itself: loads_itself). Returns the sum of load().
  double load_first_touched_by(int k, const BlockMatrix& matrix, const FactorOptions& options);
  // Replaces pivot k's block by -D_k^{-1} (or -C_k^{-1}); retries an
  // equilibrated copy when the plain pivot ratio is below the tolerance
  // (pivot_inversion.cpp).
  Status factor_pivot(int k, double tolerance, bool equilibrate) {
    const int b = size(k);
    const double ratio = b <= kernels::kMaxFixed ? small_pivots[b](diag(k), magnitudes(k), tolerance)
                                                 : invert_pivot(k, magnitudes(k), tolerance);
    if (ratio >= tolerance && ratio > 0.0) {
      min_ratio = std::min(min_ratio, ratio);
      return Status::Success;
    }
    return retry_or_refuse_pivot(k, ratio, tolerance, equilibrate);
  }
  // factor_pivot for a pivot its first inversion refused (ratio).
  Status retry_or_refuse_pivot(int k, double ratio, double tolerance, bool equilibrate);
  // kernels::small_pivot_kernel for each size and this method.
  std::array<kernels::SmallPivotKernel, kernels::kMaxFixed + 1> small_pivots{};
  double invert_pivot(int k, const double* row_magnitudes, double tolerance);
  double invert_equilibrated_pivot(int k, double tolerance);
  // LDU: true if the block left by a failed row-scaled retry has columns far
  // enough apart in scale that scaling them too might pass it.
  bool columns_apart(int k, double ratio, double tolerance) const;
  double invert_two_sided_pivot(int k, double tolerance);
  // One pass over every pivot (factorize() may run two).
  Status eliminate_all(const BlockMatrix& matrix, const FactorOptions& options);
  // Every node a scalar: eliminate_all's pass written for single values
  // (scalar_elimination.cpp). False where the general path must decide (a
  // refused pivot, a value that is not finite); true after a successful pass.
  bool all_scalar = false;
  bool eliminate_scalars(const BlockMatrix& matrix, const FactorOptions& options);
  template <Method kMethod>
  bool eliminate_scalars_as(const BlockMatrix& matrix, const FactorOptions& options);
  // solve_vector for all_scalar systems.
  void solve_scalars(double* x) const;
  // After it the column magnitudes are widened wherever the row ones are.
  void widen_columns(int a) {
    if (tracking_columns) widen_column_magnitudes(size(a), diag(a), column_magnitudes(a));
  }
  // Updates by pivot k. In a supernodal panel only those inside the panel:
  // everything touching its outer neighbours is left to finish_panel
  // (see supernodal_panels.cpp).
  void eliminate_unsymmetric(int k);
  int single_small_neighbour(int k) const;
  // Per position: for a pivot whose only later neighbour lies outside any
  // panel, both of 1 to 6 rows, its wide edge kernel and where its blocks
  // lie in `values`; a null kernel otherwise. Found once, as the pairs below
  // are: looked up per pivot in the tables, the blocks' places cost a 3x3
  // chain's refactorization 6% more instructions.
  struct EdgeStep {
    kernels::wide::EdgeKernel kernel = nullptr;
    int neighbour = -1;                                // a, the later neighbour
    long pivot = 0, upper = 0, lower = 0, target = 0;  // P_k, U_ka (LDU), L_ak, D_a
  };
  std::vector<EdgeStep> edges;  // only the pivots that have one
  std::vector<int> edge_of;     // per position: its entry in edges, or -1
  // Runs pivot k's edge kernel if it has one, its neighbour is active and
  // wide (the wide kernels run and no column magnitudes are tracked);
  // false otherwise.
  bool eliminate_edge(int k, bool wide) {
    if (!wide || edge_of[k] < 0) return false;
    const EdgeStep& edge = edges[edge_of[k]];
    if (!active[edge.neighbour]) return false;
    double* v = values.data();
    edge.kernel(v + edge.pivot, method == Method::LDU ? v + edge.upper : nullptr, v + edge.lower, v + edge.target,
                magnitudes(edge.neighbour));
    return true;
  }
  // Per position: for a pivot whose only later neighbours a < c lie outside
  // any panel, all three of 1 to 6 rows, its pair kernel and where its
  // blocks lie in `values` (A_ac and A_ca in a's panels); a null kernel
  // otherwise. Found once, not per pivot: looked up per pivot, the blocks'
  // places cost a 3x3 ladder's refactorization 9% more instructions.
  struct Pair {
    kernels::wide::PairKernel kernel = nullptr;
    int a = -1, c = -1;
    long pivot = 0, upper = 0, lower = 0;  // P_k, [U_ka U_kc] (LDU), [L_ak; L_ck]
    long d_a = 0, d_c = 0, ca = 0, ac = 0;  // D_a, D_c, A_ca, A_ac (LDU)
    int ld_ca = 0, ld_ac = 0;
  };
  std::vector<Pair> pairs;   // only the pivots that have one
  std::vector<int> pair_of;  // per position: its entry in pairs, or -1
  // Runs pivot k's pair kernel if it has one, both neighbours are active and
  // wide (as for eliminate_edge); false otherwise.
  bool eliminate_pair(int k, bool wide) {
    if (!wide || pair_of[k] < 0) return false;
    const Pair& pair = pairs[pair_of[k]];
    if (!active[pair.a] || !active[pair.c]) return false;
    double* v = values.data();
    const bool ldu = method == Method::LDU;
    const kernels::wide::PairTargets t = {v + pair.d_a, v + pair.d_c, v + pair.ca, pair.ld_ca,
                                          ldu ? v + pair.ac : nullptr, pair.ld_ac, magnitudes(pair.a),
                                          magnitudes(pair.c)};
    pair.kernel(v + pair.pivot, ldu ? v + pair.upper : nullptr, v + pair.lower, t);
    return true;
  }
  void find_pairs();  // and the edges
  void eliminate_symmetric(int k);
  // Per position: whether pivot k and all its later neighbours have the
  // same size, one the front kernels take (kernels::wide::front_kernels).
  // Its general updates then go one neighbour's row at a time through them,
  // the pointers to their blocks gathered in front_factors and
  // front_targets (two halves of front_half entries: L blocks, then U).
  std::vector<char> uniform_front;
  std::vector<const double*> front_factors;
  std::vector<double*> front_targets;
  int front_half = 0;
  void find_fronts();
  template <bool upper_too>
  int gather_front_row(int k, int e1, int stop);
  void update_front_row_ldu(int k, int e1, int stop, const double* l_ak, const double* u_ka);
  void update_front_row_symmetric(int k, int e1, int stop, const double* r_a);
  // Solves A X = B, or A^T X = B when transposed, after checking the state
  // and the right-hand side (solve.cpp).
  Status solve_checked(Eigen::Ref<Eigen::MatrixXd> rhs, bool transposed);
  // solve_checked on a copy of rhs in x (DimensionMismatch if their shapes differ).
  Status solve_into(const Eigen::Ref<const Eigen::MatrixXd>& rhs, Eigen::Ref<Eigen::MatrixXd> x, bool transposed);
  Status solve_refined(const BlockMatrix& matrix, const Eigen::Ref<const Eigen::MatrixXd>& rhs,
                       Eigen::Ref<Eigen::MatrixXd> x, int steps, bool transposed);
  // Refinement of one solved column x against its right-hand side b.
  void refine_column(const BlockMatrix& matrix, const Eigen::Ref<const Eigen::VectorXd>& b, Eigen::Ref<Eigen::VectorXd> x,
                     int steps, bool transposed);
  void solve_columns(Eigen::Ref<Eigen::MatrixXd> rhs, bool transposed);
  // Lower bound on ||A^{-1}||_1, +inf if a solve overflowed (condition_estimate.cpp).
  double inverse_one_norm_estimate();
  // One right-hand side with every block at most kMaxFixed (solve_vector.cpp).
  bool solves_vectors_fixed() const;
  void solve_vector(double* x);
  // solve_vector's plan: what each pivot and coupling of the substitution
  // reads, gathered once from the layout's tables (built with the storage).
  std::vector<detail::VectorSolveNode> vector_solve_nodes;  // in elimination order, empty nodes left out
  std::vector<detail::VectorSolveEntry> vector_solve_entries;
  int uniform_vector_size = 0;  // every node's size where they are all equal, else 0
  void plan_vector_solve();
  bool nests_into_next(int k) const;
  void plan_panels();
  int outer_entry(int k, int last) const;
  // End of the entries of S(k) that pivot k updates itself, and their columns in k's panels.
  int entries_now(int k) const;
  int columns_before(int k, int entry) const;
  void finish_panel(int first, int end);
  void update_outer(int last, int rows, int columns);
  // Outer products are computed in strips of at least this many columns
  // (narrow strips waste less above the diagonal and stay in cache, wide ones
  // run faster), of about kStripEntries each where the front allows (LDU).
  static constexpr int kStripColumns = 48;
  static constexpr int kStripEntries = 1 << 18;
  int outer_strip_end(int e, int stop, int rows) const;
  // Columns of the strip of entries [e, end) of an R of `rows` rows ending at `stop`.
  int outer_strip_columns(int e, int end, int stop, int rows) const {
    return (end < stop ? d->struct_col[end] : rows) - d->struct_col[e];
  }

  Symbolic symbolic;
  const detail::SymbolicData* d;
  Method method;
  std::vector<double, detail::HugePageAllocator<double>> values;
  std::vector<long> diag_off, upper_off, lower_off;
  // Per struct entry of pivot k with later neighbour j: where A_jk and A_kj
  // lie in any matrix of the pattern (arena_layout.hpp), -1 for fill; and
  // for LDLT and LLT, which of them is stored as the lower triangle by id.
  struct EntrySource {
    int later_k = -1, k_later = -1;
    NodeId later_node = -1;
    bool k_smaller_id = false;  // A_jk is the lower block by id
  };
  std::vector<EntrySource> entry_source;
  std::vector<int> diag_source;  // per position: where A_kk lies in a matrix
  void build_entry_sources();
  // Load schedule. A node is loaded just before the first pivot that updates
  // it (or its own, if none does), so that its copy overlaps the latency of
  // the pivot inversions before it instead of taking a pass of its own.
  std::vector<char> loads_itself;            // per position
  std::vector<int> first_touch_begin;        // per position, into first_touched
  std::vector<int> first_touched;            // positions, grouped by first toucher
  std::vector<char> active;   // per position, captured at factorize
  bool some_inactive = false;  // an inactive position in the last factorization
  // Per scalar row (at the node's offset): the largest magnitude the row of
  // its pivot block had on the way (as loaded and after each update). A pivot
  // that ends tiny against them has lost its digits to cancellation.
  std::vector<double> row_magnitude;
  std::vector<int> magnitude_off;  // per position: its first entry in row_magnitude
  std::vector<int> row_off;        // per position: its node's first row in A (the solves' x)
  double* magnitudes(int k) { return row_magnitude.data() + magnitude_off[k]; }
  // LDU only, and only while tracking_columns (a factorization retried
  // because a pivot failed even with its rows scaled): the same per column.
  std::vector<double> column_magnitude;
  bool tracking_columns = false;
  bool column_retry_wanted = false;  // set by factor_pivot in the first pass
  bool columns_scaled = false;       // a pivot passed only with its columns scaled
  // The last factorization needed its columns scaled: the next one (the
  // next Newton iterate's, most likely alike) keeps the column magnitudes
  // from the start instead of failing a first pass.
  bool track_columns_next = false;
  double* column_magnitudes(int k) { return column_magnitude.data() + magnitude_off[k]; }
  const double* column_magnitudes(int k) const { return column_magnitude.data() + magnitude_off[k]; }
  // Work space of kernels::invert_large_pivot, for the largest pivot above
  // kernels::kMaxFixed (empty if none).
  std::vector<double> large_pivot_work;
  std::vector<int> large_pivot_rows;
  // Supernodal panels: per position, the range [panel_begin, panel_end) of
  // the panel it belongs to (-1 if none) and its first column in the panel;
  // buffers for the outer update.
  std::vector<int> panel_begin, panel_end, panel_column;
  int panels = 0;
  std::vector<double> outer_left, outer_right, outer_product;
  std::vector<double> panel_upper, panel_lower;  // the panel's unit triangles, max columns squared
  std::vector<double> scratch;   // max_panel: a copy of the panel being scaled
  Eigen::MatrixXd rhs_scratch;   // max_size x kRhsChunk
  Eigen::VectorXd residual;      // dimension, for refinement
  Eigen::VectorXd correction;    // dimension: the last refinement round, to undo it
  Eigen::VectorXd kept_rhs;      // dimension: a column's right-hand side while refining in place
  FactorOptions factorized_with;  // the last factorize()'s options: its shifts are part of the factorized matrix
  Status status = Status::NotFactorized;
  NodeId failed = -1;
  double min_ratio = 1.0;

  static constexpr int kRhsChunk = 16;
};

}  // namespace graphsolve
