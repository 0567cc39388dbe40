#pragma once
// Turning a scalar sparse matrix (from a Matrix Market file) into a graphsolve
// block system: rows are grouped into nodes by block sizes, and a block edge
// exists wherever A_ij or A_ji stores an entry.

#include <string>
#include <vector>

#include "graphsolve/graphsolve.hpp"

namespace graphsolve::cli {

// Error with a message meant for the user; the CLI prints it and exits 1.
struct UserError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::vector<int> uniform_block_sizes(int dimension, int block_size);
// Whitespace-separated non-negative integers that must sum to `dimension`;
// '%' or '#' starts a comment that runs to the end of its line.
std::vector<int> read_block_sizes(const std::string& path, int dimension);

// Throws if a row or column of A stores no entry (A is then singular). Checks
// the entry count first, so that a huge announced dimension with few entries
// fails before anything of that dimension is allocated.
void check_no_empty_lines(const SparseTriplets& a, const std::string& path);

// A's duplicates summed, through graphsolve::from_sparse (whose pattern and
// zero-diagonal nodes the CLI documents as its own).
BlockMatrix make_block_system(const SparseTriplets& a, const std::vector<int>& sizes);

// First pair of mirrored entries that differ, as a message; empty if A == A^T.
std::string asymmetry(const BlockMatrix& a);

}  // namespace graphsolve::cli
