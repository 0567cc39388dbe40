#pragma once
// Reading and writing Matrix Market files. Every error throws
// MatrixMarketError whose message names the file and line.

#include <iosfwd>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "graphsolve/eigen_abi.hpp"

namespace graphsolve {

class MatrixMarketError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Triplet {
  int row;
  int col;
  double value;
};

// A sparse matrix as read from a coordinate file; symmetric files are
// expanded so that both triangles are present.
struct SparseTriplets {
  int rows = 0;
  int cols = 0;
  bool symmetric = false;       // the file said "symmetric"
  std::vector<Triplet> entries; // 0-based, duplicates kept (they add up)
};

// Coordinate format, real or integer, general, symmetric or skew-symmetric;
// or array format (a dense matrix, as SciPy's mmwrite writes an ndarray),
// whose nonzeros become the entries.
SparseTriplets read_matrix_market_sparse(const std::string& path);
// Array or coordinate format, real or integer, general: a dense matrix.
// With `expected_rows` >= 0, a file announcing another row count fails at
// its size line, before the matrix is allocated.
Eigen::MatrixXd read_matrix_market_dense(const std::string& path, long expected_rows = -1);
// Array format, each value in the shortest decimal text that reads back as
// exactly that double (0.1, not %.17g's 0.10000000000000001), with a decimal
// point whatever the locale. Throws MatrixMarketError if the file cannot be
// written.
void write_matrix_market_dense(const std::string& path, const Eigen::MatrixXd& matrix);
// The same text to a stream (standard output, a string); the caller checks
// the stream's state.
void write_matrix_market_dense(std::ostream& out, const Eigen::MatrixXd& matrix);
// Coordinate format, general, the values written as above.
void write_matrix_market_sparse(const std::string& path, const SparseTriplets& matrix);

}  // namespace graphsolve
