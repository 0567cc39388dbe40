#pragma once
// The benchmark's systems: graph families with 6x6 (or 3x3) blocks, in an
// unsymmetric, an SPD and (chain, tree, ladder) a mechanism-shaped saddle variant.

#include <memory>
#include <string>
#include <vector>

#include <Eigen/SparseCore>

#include "graphsolve/graphsolve.hpp"
#include "size_flags.hpp"

namespace bench {

using SparseMatrix = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;

enum class Variant { Unsymmetric, Spd, Saddle };

struct ProblemKey {
  std::string family;  // chain, tree, ladder, net, crystal, random
  int size;            // the family parameter: n, or the side s of a net / crystal
  int block;           // 6 or 3
  Variant variant;
  std::string name() const;  // e.g. "ladder/1000", "crystal-b3/216", "chain-saddle/100"
  int nodes() const;
};

struct Problem {
  ProblemKey key;
  graphsolve::Graph graph;
  std::unique_ptr<graphsolve::BlockMatrix> matrix;  // on an Auto analysis of `graph`
  SparseMatrix sparse;                              // the same values, scalar CSC
  Eigen::VectorXd rhs;
};

// Built once per key and kept for the whole run.
const Problem& problem(const ProblemKey& key);

enum class Scale { Full, Quick, Smoke, RandomGraphs };
// Every key the full benchmark runs; a few mid sizes for Quick (the README's
// main job); the smallest of every kind for Smoke (the test suite);
// RandomGraphs: random graphs (a random tree and n/2 more random edges, so
// dense fronts of thousands of rows), beyond the families. With
// `blocks`, the unsymmetric and SPD families take those block sizes instead
// of the defaults, and the saddle-point and scalar systems are left out.
// With `sizes`, each family listed there takes those sizes instead of the
// scale's (its scalar systems too).
std::vector<ProblemKey> all_keys(Scale scale, const std::vector<int>& blocks = {}, const FamilySizes& sizes = {});

}  // namespace bench
