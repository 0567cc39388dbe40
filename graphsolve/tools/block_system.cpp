#include "block_system.hpp"

#include <cmath>
#include <fstream>
#include <sstream>

#include "decimal_number.hpp"
#include "file_contents.hpp"

namespace graphsolve::cli {

std::vector<int> uniform_block_sizes(int dimension, int block_size) {
  if (block_size < 1) throw UserError("--block-size must be at least 1, got " + std::to_string(block_size));
  if (dimension % block_size != 0)
    throw UserError("--block-size " + std::to_string(block_size) + " does not divide the dimension " +
                    std::to_string(dimension) + " of A");
  return std::vector<int>(dimension / block_size, block_size);
}

std::vector<int> read_block_sizes(const std::string& path, int dimension) {
  std::ifstream in(path);
  if (!in) throw UserError(path + ": cannot open the block sizes file");
  std::vector<int> sizes;
  long total = 0;
  std::string line, token;
  for (int line_number = 1; std::getline(in, line); ++line_number) {
    if (line_number == 1) {
      const std::string why = file_contents::not_text(line, path, "a text file of block sizes");
      if (!why.empty()) throw UserError(path + ": " + why);
      file_contents::skip_utf8_bom(line);
    }
    if (const std::size_t nul = line.find('\0'); nul != std::string::npos)
      throw UserError(path + ":" + std::to_string(line_number) + ": a NUL byte at column " + std::to_string(nul + 1) +
                      ": binary data, not a text file of block sizes");
    // A comment runs from '%' (Matrix Market's mark) or '#' to the line's end.
    if (const std::size_t comment = line.find_first_of("%#"); comment != std::string::npos) line.resize(comment);
    std::istringstream tokens(line);
    while (tokens >> token) {
      // Decimal only, as the count options read (std::stol would take "0x2"
      // as 0 and call a size past long's range not an integer).
      const auto d = decimal_number::read_decimal<long>(token);
      const bool too_large = d.out_of_range && !d.negative;
      const long value = d.value;
      const std::string which = path + ":" + std::to_string(line_number) + ": block size #" +
                                std::to_string(sizes.size() + 1) + " is '" + file_contents::printable(token) + "'";
      if (!d.whole || (d.out_of_range ? d.negative : value < 0))
        throw UserError(which + ", expected a non-negative integer");
      // Checked one by one, before the sum, which a huge size could overflow.
      if (too_large || value > dimension)
        throw UserError(which + ", larger than the dimension " + std::to_string(dimension) + " of A");
      sizes.push_back(static_cast<int>(value));
      total += value;
    }
  }
  if (total != dimension)
    throw UserError(path + ": the " + std::to_string(sizes.size()) + " block sizes sum to " + std::to_string(total) +
                    " but A has dimension " + std::to_string(dimension));
  return sizes;
}

void check_no_empty_lines(const SparseTriplets& a, const std::string& path) {
  const auto stored = static_cast<long>(a.entries.size());
  if (stored < a.rows)
    throw UserError(path + ": A is " + std::to_string(a.rows) + "x" + std::to_string(a.cols) + " but stores only " +
                    std::to_string(stored) + (stored == 1 ? " entry" : " entries") + ", so some row has none and A is singular");
  std::vector<char> row_used(a.rows, 0), column_used(a.cols, 0);
  for (const Triplet& t : a.entries) row_used[t.row] = column_used[t.col] = 1;
  for (int i = 0; i < a.rows; ++i)
    if (!row_used[i]) throw UserError(path + ": row " + std::to_string(i + 1) + " of A stores no entry, so A is singular");
  for (int j = 0; j < a.cols; ++j)
    if (!column_used[j])
      throw UserError(path + ": column " + std::to_string(j + 1) + " of A stores no entry, so A is singular");
}

BlockMatrix make_block_system(const SparseTriplets& a, const std::vector<int>& sizes) {
  std::vector<Eigen::Triplet<double, int>> entries;
  entries.reserve(a.entries.size());
  for (const Triplet& t : a.entries) entries.emplace_back(t.row, t.col, t.value);
  SparseColumns sparse(a.rows, a.cols);
  sparse.setFromTriplets(entries.begin(), entries.end());  // sums duplicates, keeps explicit zeros
  return from_sparse(sparse, sizes);
}

std::string asymmetry(const BlockMatrix& a) {
  const Pattern& p = a.pattern();
  auto differ = [](double x, double y) { return std::abs(x - y) > 1e-12 * std::max(std::abs(x), std::abs(y)); };
  auto check = [&](NodeId i, NodeId j) -> std::string {
    const auto ij = a.block(i, j), ji = a.block(j, i);
    for (int r = 0; r < ij.rows(); ++r)
      for (int c = 0; c < ij.cols(); ++c)
        if (differ(ij(r, c), ji(c, r))) {
          std::ostringstream out;
          out << "A(" << p.offset[i] + r + 1 << "," << p.offset[j] + c + 1 << ") = " << ij(r, c) << " but A("
              << p.offset[j] + c + 1 << "," << p.offset[i] + r + 1 << ") = " << ji(c, r);
          return out.str();
        }
    return {};
  };
  for (NodeId i = 0; i < p.num_nodes; ++i)
    if (auto s = check(i, i); !s.empty()) return s;
  for (const auto& [i, j] : p.edges)
    if (auto s = check(i, j); !s.empty()) return s;
  return {};
}

}  // namespace graphsolve::cli
