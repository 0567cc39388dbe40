#pragma once
// Graph families for tests, benchmarks and the demo: chains, random trees,
// ladders, square nets, cubic crystals, and mechanism-shaped saddle-point
// graphs; plus value generators for unsymmetric, SPD and saddle matrices.

#include <cstdint>

#include "graphsolve/block_matrix.hpp"
#include "graphsolve/graph.hpp"

namespace graphsolve::families {

Graph chain(int n, int block_size);
Graph random_tree(int n, int block_size, std::uint64_t seed);
// random_tree's tree plus `extra_edges` edges between random pairs of nodes
// (each pair once): cycles everywhere, so separators grow in proportion to n
// and the factor fills much of the matrix (dense fronts of thousands of rows).
Graph random_graph(int n, long extra_edges, int block_size, std::uint64_t seed);
Graph ladder(int rungs, int block_size);     // 2 * rungs nodes
Graph net(int side, int block_size);         // side^2 nodes, 4-neighbour grid
Graph crystal(int side, int block_size);     // side^3 nodes, 6-neighbour grid

// A mechanism-shaped saddle-point graph: every edge of `bodies` (a graph of
// body nodes of size 6) becomes a joint node of size `joint_size` with a zero
// diagonal between the two bodies; if `grounded`, body 0 also gets a joint to
// the world (a zero-diagonal leaf).
Graph mechanism(const Graph& bodies, int joint_size, bool grounded);

enum class Values {
  Unsymmetric,  // A_ij independent of A_ji, diagonal blocks dominant
  SymmetricPositiveDefinite,
  Saddle,       // bodies: SPD mass-like blocks; joints: zero diagonal, G and G^T couplings
  SaddleUnsymmetric,  // as Saddle, but the two couplings of an edge are independent
};

// Fills every block of `matrix` (deterministic for a seed).
void fill_values(BlockMatrix& matrix, Values kind, std::uint64_t seed);

}  // namespace graphsolve::families
