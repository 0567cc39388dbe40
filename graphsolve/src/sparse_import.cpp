#include "graphsolve/sparse_import.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>

#include "block_kernels.hpp"

namespace graphsolve {

namespace {

using SparseRef = Eigen::Ref<const SparseColumns>;

std::string entry_name(int row, int col) {
  return "the entry at row " + std::to_string(row) + ", column " + std::to_string(col);
}

void check_square(const SparseRef& a, const char* where) {
  if (a.rows() != a.cols())
    throw std::invalid_argument(std::string("graphsolve::") + where + ": A is " + std::to_string(a.rows()) + "x" +
                                std::to_string(a.cols()) + ", not square");
}

// The entries of one column of A: rows[begin, end) and values[begin, end).
struct Column {
  int col, begin, end;
};

Column column_of(const SparseRef& a, int col) {
  const int* starts = a.outerIndexPtr();
  const int* counts = a.innerNonZeroPtr();  // null when A is compressed
  return {col, starts[col], counts ? starts[col] + counts[col] : starts[col + 1]};
}

// Why a column breaks what the walks below rely on (built only on failure).
std::string column_fault(const SparseRef& a, Column c, SparseStorage storage) {
  const int* rows = a.innerIndexPtr();
  for (int q = c.begin + 1; q < c.end; ++q)
    if (rows[q - 1] >= rows[q])
      return "lists row " + std::to_string(rows[q]) + " after row " + std::to_string(rows[q - 1]) +
             ": the row indices of a column must increase (sorted, no duplicates), as Eigen keeps them";
  if (rows[c.begin] < 0 || rows[c.end - 1] >= a.rows())
    return "has an entry in row " + std::to_string(rows[c.begin] < 0 ? rows[c.begin] : rows[c.end - 1]) +
           ", outside 0.." + std::to_string(a.rows() - 1);
  const bool above = storage == SparseStorage::SymmetricLower;
  return "has an entry in row " + std::to_string(above ? rows[c.begin] : rows[c.end - 1]) + ", " +
         (above ? "above" : "below") + " the diagonal, but A was said to store its " + (above ? "lower" : "upper") +
         " triangle only";
}

[[noreturn]] void refuse_column(const SparseRef& a, Column c, SparseStorage storage, const char* where) {
  throw std::invalid_argument(std::string("graphsolve::") + where + ": column " + std::to_string(c.col) + " of A " +
                              column_fault(a, c, storage));
}

// Checks what the walks below rely on: row indices that increase within a
// column (sorted, no duplicates: what Eigen keeps and UMFPACK requires), lie
// in [0, n), and stay in the stored triangle. O(1) per column past the order.
inline void check_column(const SparseRef& a, Column c, SparseStorage storage, const char* where) {
  if (c.begin >= c.end) return;
  const int* rows = a.innerIndexPtr();
  int out_of_order = 0;  // accumulated without branches, so the loop vectorizes
  for (int q = c.begin + 1; q < c.end; ++q) out_of_order |= rows[q - 1] >= rows[q];
  const bool outside = rows[c.begin] < 0 || rows[c.end - 1] >= a.rows();
  const bool other_triangle = (storage == SparseStorage::SymmetricLower && rows[c.begin] < c.col) ||
                              (storage == SparseStorage::SymmetricUpper && rows[c.end - 1] > c.col);
  if (out_of_order || outside || other_triangle) refuse_column(a, c, storage, where);
}

// First scalar row of each node, and the dimension last (Pattern::offset's layout).
std::vector<int> node_offsets(const std::vector<int>& sizes, int dimension) {
  std::vector<int> offset(sizes.size() + 1, 0);
  long total = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] < 0)
      throw std::invalid_argument("graphsolve::from_sparse: block size #" + std::to_string(i) + " is " +
                                  std::to_string(sizes[i]) + ", expected >= 0");
    total += sizes[i];
    if (total > dimension) break;
    offset[i + 1] = static_cast<int>(total);
  }
  if (total != dimension)
    throw std::invalid_argument("graphsolve::from_sparse: the " + std::to_string(sizes.size()) + " block sizes sum to " +
                                (total > dimension ? "more than " + std::to_string(dimension)
                                                   : std::to_string(total)) +
                                " but A has dimension " + std::to_string(dimension));
  return offset;
}

// The node whose rows contain `row` (size-0 nodes contain none).
NodeId node_of(const std::vector<int>& offset, int row) {
  return static_cast<NodeId>(std::upper_bound(offset.begin(), offset.end(), row) - offset.begin()) - 1;
}

[[noreturn]] void refuse_entry(const Pattern& p, int row, int col, NodeId j) {
  const NodeId i = node_of(p.offset, row);
  throw std::invalid_argument("graphsolve::assign_from_sparse: " + entry_name(row, col) + " falls in block (" +
                              std::to_string(i) + ", " + std::to_string(j) +
                              "), but the pattern has no edge between nodes " + std::to_string(i) + " and " +
                              std::to_string(j));
}

// Where the entries of one block column go: block (i, J) at `offset` in the
// arena (rows first_row..end_row-1 of A), its mirror (J, i) at `mirror_offset`.
struct BlockPlace {
  int position = -1;  // in the BlockColumn's list
  NodeId node = -1;
  int first_row = 0, end_row = 0, offset = 0, mirror_offset = 0;
};

// The blocks of a block column J that the pattern has, in row order: J's
// neighbours (sorted) with J itself in its place. Walking a column's
// increasing rows down this list finds each run's block without a search.
// One object serves every block column of a walk (select() moves it on):
// the places of a column of up to kListed blocks are worked out once for all
// its scalar columns and kept here, so a run's lookup reads one of them
// instead of the pattern's and the matrix's offset tables.
class BlockColumn {
 public:
  explicit BlockColumn(const BlockMatrix& matrix) : m_(matrix), p_(matrix.pattern()) {}

  void select(NodeId j) {
    j_ = j;
    first_ = p_.adj_begin[j];
    count_ = p_.degree(j) + 1;
    const auto neighbours = p_.adj.begin() + first_;  // an iterator: adj is empty (null) without edges
    diagonal_ = static_cast<int>(std::lower_bound(neighbours, neighbours + (count_ - 1), j) - neighbours);
    listed_ = count_ <= kListed;
    if (listed_)
      for (int k = 0; k < count_; ++k) list_[k] = place_of(k);
  }

  // The block holding `row` (null if the pattern has none). The one after
  // position `previous` (the previous run's) is tried first; then a binary
  // search. A pointer, not a copy: the copy's fields came back through a
  // store the processor could not forward (1.4x the time per 6x6 entry).
  const BlockPlace* locate(int row, int previous) {
    const int next = previous + 1;
    if (next < count_) {
      const BlockPlace* place = place_at(next);
      if (place->first_row <= row && row < place->end_row) return place;
    }
    int low = 0, high = count_;  // the first block whose rows end after `row`
    while (low < high) {
      const int mid = (low + high) / 2;
      if (end_row_at(mid) <= row)
        low = mid + 1;
      else
        high = mid;
    }
    if (low == count_) return nullptr;
    const BlockPlace* place = place_at(low);
    return place->first_row <= row ? place : nullptr;
  }

 private:
  // Wider block columns (hubs) are looked up as they come.
  static constexpr int kListed = 32;

  NodeId node(int k) const { return k == diagonal_ ? j_ : p_.adj[first_ + k - (k > diagonal_)]; }
  const BlockPlace* place_at(int k) {
    if (listed_) return &list_[k];
    unlisted_ = place_of(k);
    return &unlisted_;
  }
  int end_row_at(int k) const { return listed_ ? list_[k].end_row : p_.offset[node(k) + 1]; }

  BlockPlace place_of(int k) const {
    BlockPlace place;
    place.position = k;
    place.node = node(k);
    place.first_row = p_.offset[place.node];
    place.end_row = p_.offset[place.node + 1];
    if (k == diagonal_) {
      place.offset = place.mirror_offset = m_.diag_offset(j_);
    } else {
      const int edge = p_.adj_edge[first_ + k - (k > diagonal_)];
      const bool upper = place.node < j_;  // (i, J) with i < J is the edge's A_ab
      place.offset = upper ? m_.upper_offset(edge) : m_.lower_offset(edge);
      place.mirror_offset = upper ? m_.lower_offset(edge) : m_.upper_offset(edge);
    }
    return place;
  }

  const BlockMatrix& m_;
  const Pattern& p_;
  NodeId j_ = 0;
  int first_ = 0, count_ = 0, diagonal_ = 0;
  bool listed_ = false;
  BlockPlace list_[kListed];
  BlockPlace unlisted_;  // the last place looked up in a wider column
};

// What a walk over A's entries reads and writes.
struct Walk {
  BlockMatrix& matrix;
  const SparseRef& a;
  SparseStorage storage;
  const Pattern& p;
  double* values;  // the arena; null for a walk that only checks
  const int* rows;
  const double* entries;
  bool mirror;  // A stores one triangle: each entry is also written at its mirror
};

// How many arena values a checked column sets: each entry, and for a stored
// triangle its mirror too, but for a diagonal entry (first or last in the
// column, since the triangle is checked), which is its own mirror.
long values_set(const SparseRef& a, Column c, bool mirror) {
  const long entries = c.end - c.begin;
  if (!mirror || entries == 0) return entries;
  const int* rows = a.innerIndexPtr();
  return 2 * entries - (rows[c.begin] == c.col || rows[c.end - 1] == c.col);
}

// walk_block_entries (below) when every node is one row: then a row is its node,
// and a column's rows merge with the node's sorted neighbours, with no runs,
// block places or copies, which cost several times the entry itself.
template <bool Write>
long walk_scalar_entries(const Walk& w) {
  const auto& [matrix, a, storage, p, values, rows, entries, mirror] = w;
  long written = 0;
  for (NodeId j = 0; j < p.num_nodes; ++j) {
    const Column c = column_of(a, j);
    if (!Write) check_column(a, c, storage, "assign_from_sparse");
    written += values_set(a, c, mirror);
    int k = p.adj_begin[j];
    const int k_end = p.adj_begin[j + 1];
    for (int q = c.begin; q < c.end; ++q) {
      const NodeId i = rows[q];
      int offset = 0, mirror_offset = 0;
      if (i == j) {
        offset = mirror_offset = matrix.diag_offset(j);
      } else {
        while (k < k_end && p.adj[k] < i) ++k;
        if (k == k_end || p.adj[k] != i) refuse_entry(p, i, j, j);
        const int edge = p.adj_edge[k];
        offset = i < j ? matrix.upper_offset(edge) : matrix.lower_offset(edge);
        mirror_offset = i < j ? matrix.lower_offset(edge) : matrix.upper_offset(edge);
      }
      if constexpr (Write) {
        values[offset] = entries[q];
        if (mirror) values[mirror_offset] = entries[q];
      }
    }
  }
  return written;
}

// Checks every column of A and finds each entry's block in the matrix's
// pattern (Write = false), or writes every entry into its block, and into the
// mirror for a stored triangle (Write = true, on a checked A). A column is
// walked run by run (its entries in one block): one lookup per run, and a
// run that fills its block's column is one copy. Returns how many values of
// the arena A's entries set (an entry and its mirror are two, a diagonal
// entry of a triangle one): every (row, column) has its own place, so when
// that is the whole arena nothing is left to zero.
template <bool Write>
long walk_block_entries(const Walk& w) {
  const auto& [matrix, a, storage, p, values, rows, entries, mirror] = w;
  long written = 0;
  BlockColumn blocks(matrix);
  for (NodeId j = 0; j < p.num_nodes; ++j) {
    blocks.select(j);
    for (int col = p.offset[j]; col < p.offset[j + 1]; ++col) {
      const Column c = column_of(a, col);
      if (!Write) check_column(a, c, storage, "assign_from_sparse");
      written += values_set(a, c, mirror);
      const int col_in_block = col - p.offset[j];
      int position = -1;  // the last run's block
      for (int q = c.begin; q < c.end;) {
        const BlockPlace* place = blocks.locate(rows[q], position);
        if (!place) refuse_entry(p, rows[q], col, j);
        const BlockPlace& block = *place;
        position = block.position;
        const int height = block.end_row - block.first_row;
        // Rows increase, so height entries ending at the block's last row are all of its rows.
        const bool full = q + height <= c.end && rows[q + height - 1] == block.end_row - 1;
        int run_end = full ? q + height : q + 1;
        if (!full)
          while (run_end < c.end && rows[run_end] < block.end_row) ++run_end;
        if constexpr (Write) {
          double* block_column = values + block.offset + static_cast<long>(col_in_block) * height;
          if (full)  // a loop of constant length for 1..6 rows: std::copy would call memmove
            kernels::with_height(height, [&, run = entries + q](auto m) {  // a C++17 lambda may not capture a binding
              for (int t = 0; t < m; ++t) block_column[t] = run[t];
            });
          else
            for (int t = q; t < run_end; ++t) block_column[rows[t] - block.first_row] = entries[t];
          if (mirror) {
            double* block_row = values + block.mirror_offset + col_in_block;  // stride: J's size
            for (int t = q; t < run_end; ++t)  // a diagonal entry lands on itself
              block_row[static_cast<long>(rows[t] - block.first_row) * p.size[j]] = entries[t];
          }
        }
        q = run_end;
      }
    }
  }
  return written;
}

// Either walk, as the matrix's block sizes allow (values: null when only checking).
template <bool Write>
long walk_entries(BlockMatrix& matrix, const SparseRef& a, SparseStorage storage) {
  const Pattern& p = matrix.pattern();
  const Walk walk{matrix, a, storage, p, Write ? matrix.values() : nullptr, a.innerIndexPtr(), a.valuePtr(),
                  storage != SparseStorage::General};
  const bool scalar = std::all_of(p.size.begin(), p.size.end(), [](int rows) { return rows == 1; });
  return scalar ? walk_scalar_entries<Write>(walk) : walk_block_entries<Write>(walk);
}

}  // namespace

BlockMatrix from_sparse(const SparseRef& a, const std::vector<int>& block_sizes, SparseStorage storage) {
  check_square(a, "from_sparse");
  const std::vector<int> offset = node_offsets(block_sizes, static_cast<int>(a.rows()));
  const int nodes = static_cast<int>(block_sizes.size());
  // The node of each row (a table: a search per run cost more than the rest
  // of the import), and the last block column that saw each node, so that a
  // block column lists each of its edges once, not once per scalar column.
  // An edge A stores both ways is listed twice; the Pattern drops repeats.
  std::vector<NodeId> node_of_row(static_cast<std::size_t>(a.rows()));
  for (NodeId v = 0; v < nodes; ++v) std::fill(node_of_row.begin() + offset[v], node_of_row.begin() + offset[v + 1], v);
  std::vector<NodeId> seen_in(nodes, -1);
  std::vector<std::pair<NodeId, NodeId>> edges;
  std::vector<char> diagonal_nonzero(nodes, 0);
  const int* rows = a.innerIndexPtr();
  const double* entries = a.valuePtr();
  NodeId j = 0;
  for (int col = 0; col < a.outerSize(); ++col) {
    while (col >= offset[j + 1]) ++j;  // also steps over size-0 nodes
    const Column c = column_of(a, col);
    check_column(a, c, storage, "from_sparse");
    for (int q = c.begin; q < c.end;) {  // run by run: rows increase
      const NodeId i = node_of_row[rows[q]];
      int run_end = q + 1;
      while (run_end < c.end && rows[run_end] < offset[i + 1]) ++run_end;
      if (i == j)
        diagonal_nonzero[i] |= std::any_of(entries + q, entries + run_end, [](double v) { return v != 0.0; });
      else if (seen_in[i] != j)
        edges.emplace_back(i, j);
      seen_in[i] = j;
      q = run_end;
    }
  }
  std::vector<NodeKind> kinds(nodes, NodeKind::Regular);
  for (NodeId v = 0; v < nodes; ++v)
    if (!diagonal_nonzero[v] && block_sizes[v] > 0) kinds[v] = NodeKind::ZeroDiagonal;
  BlockMatrix matrix(std::make_shared<const Pattern>(block_sizes, std::move(kinds), std::move(edges)));
  walk_entries<true>(matrix, a, storage);  // checked above; the new arena is zero
  return matrix;
}

void assign_from_sparse(BlockMatrix& matrix, const SparseRef& a, SparseStorage storage) {
  check_square(a, "assign_from_sparse");
  if (a.rows() != matrix.rows())
    throw std::invalid_argument("graphsolve::assign_from_sparse: A has dimension " + std::to_string(a.rows()) +
                                " but the block matrix " + std::to_string(matrix.rows()));
  const long written = walk_entries<false>(matrix, a, storage);  // a refused A changes nothing
  if (written != matrix.value_count()) matrix.set_zero();  // blocks, or parts of them, A does not store
  walk_entries<true>(matrix, a, storage);
}

}  // namespace graphsolve
