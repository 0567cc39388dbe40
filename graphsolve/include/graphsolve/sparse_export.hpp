#pragma once
// Export of a BlockMatrix as an Eigen sparse matrix (compressed columns), to
// hand the same system to other sparse solvers or to write it to a file.
// Every entry of every stored block is exported, zeros included, so the
// structure is the block pattern (what a block solver works on).

#include <Eigen/SparseCore>

#include "graphsolve/eigen_abi.hpp"
#include "graphsolve/block_matrix.hpp"

namespace graphsolve {

Eigen::SparseMatrix<double, Eigen::ColMajor, int> to_sparse(const BlockMatrix& matrix);

}  // namespace graphsolve
