#pragma once
// Import of a scalar sparse matrix as a BlockMatrix, for users whose system
// already lives in Eigen's compressed columns (or in another library's CSC
// arrays, through Eigen::Map). Consecutive rows and columns are grouped into
// nodes by block sizes, and nodes i != j are joined wherever A_ij or A_ji
// stores an entry, explicit zeros included: the pattern is the stored
// structure, as UMFPACK and KLU see it. Indices in messages are 0-based.
//
// The row indices of each column must increase (sorted, no duplicates) and
// lie in 0..n-1: Eigen keeps its matrices so, and UMFPACK requires it of
// arrays. Both functions check it (a Map of foreign arrays may break it) and
// throw std::invalid_argument naming the column.
//
// The Newton use: from_sparse once, analyze its pattern once, then per
// iterate assign_from_sparse (no allocation), factorize and solve.

#include <vector>

#include <Eigen/SparseCore>

#include "graphsolve/eigen_abi.hpp"
#include "graphsolve/block_matrix.hpp"

namespace graphsolve {

using SparseColumns = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;

// Which entries of A are stored: all, or one triangle of a symmetric matrix
// (Eigen's Lower / Upper, CHOLMOD's stype -1 / +1). A triangle is mirrored,
// so the BlockMatrix holds the whole symmetric matrix (every method and
// multiply() then see the same A); an entry outside it throws.
enum class SparseStorage { General, SymmetricLower, SymmetricUpper };

// A block matrix with A's values on the pattern A's stored entries make
// (uniform blocks of k rows: std::vector<int>(n / k, k)). Nodes whose
// diagonal block stores no nonzero value are marked NodeKind::ZeroDiagonal
// (a saddle-point system's constraints; to choose the kinds yourself, build
// the Graph and use assign_from_sparse). A row-major matrix converts to the
// parameter type on the call (a copy); one with another index type needs
// the copy spelled out, SparseColumns(a), since Eigen's Ref does not make
// it. Throws std::invalid_argument if A is not square, a block size is
// negative, the sizes do not sum to A's dimension, a column breaks the rules
// above, or an entry lies outside the triangle `storage` names.
BlockMatrix from_sparse(const Eigen::Ref<const SparseColumns>& a, const std::vector<int>& block_sizes,
                        SparseStorage storage = SparseStorage::General);

// Overwrites every value of `matrix` with A's, on the matrix's own pattern
// (blocks where A stores nothing become zero), and allocates nothing when A
// is a SparseColumns or a Map of one. Throws std::invalid_argument, leaving
// `matrix` unchanged, if A's dimension is not the matrix's, a column breaks
// the rules above, or an entry falls in a block the pattern does not have
// (the message names the entry and the two nodes).
void assign_from_sparse(BlockMatrix& matrix, const Eigen::Ref<const SparseColumns>& a,
                        SparseStorage storage = SparseStorage::General);

}  // namespace graphsolve
