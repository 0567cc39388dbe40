#pragma once
// Helpers shared by the graphsolve tests: dense reference solutions and
// random right-hand sides.
#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "dense_eigenvalues.hpp"
#include "graphsolve/graphsolve.hpp"

namespace gs_test {

// The message of the Exception `work` throws, or "no exception" (another
// exception type propagates and fails the test).
template <class Exception = std::exception, class Work>
std::string message_of(Work&& work) {
  try {
    work();
  } catch (const Exception& e) {
    return e.what();
  }
  return "no exception";
}

// A connected random graph: node i (of size_of(i, rng) rows) joined to a
// random earlier node, then up to extra_edges random edges (some may repeat
// or be loops, which are skipped).
template <class SizeOf>
graphsolve::Graph random_connected_graph(int n, int extra_edges, unsigned seed, SizeOf size_of) {
  std::mt19937 rng(seed);
  graphsolve::Graph g;
  for (int i = 0; i < n; ++i) g.add_node(size_of(i, rng));
  for (int i = 1; i < n; ++i) g.add_edge(i, std::uniform_int_distribution<int>(0, i - 1)(rng));
  for (int k = 0; k < extra_edges; ++k) {
    const int a = std::uniform_int_distribution<int>(0, n - 1)(rng);
    const int b = std::uniform_int_distribution<int>(0, n - 1)(rng);
    if (a != b) g.add_edge(a, b);
  }
  return g;
}

// `trees` random trees side by side; node i of tree t has size_of(t, i) rows.
template <class SizeOf>
graphsolve::Graph random_forest(int trees, int nodes_per_tree, unsigned seed, SizeOf size_of) {
  std::mt19937 rng(seed);
  graphsolve::Graph g;
  for (int t = 0; t < trees; ++t) {
    const int first = g.num_nodes();
    for (int i = 0; i < nodes_per_tree; ++i) {
      g.add_node(size_of(t, i));
      if (i > 0) g.add_edge(first + i, first + std::uniform_int_distribution<int>(0, i - 1)(rng));
    }
  }
  return g;
}

// A free saddle-point path: `bodies` nodes of `body_rows` with a zero-diagonal
// joint of `joint_rows` between each two, bodies at both ends.
inline graphsolve::Graph saddle_path(int bodies, int body_rows = 3, int joint_rows = 2) {
  graphsolve::Graph g;
  graphsolve::NodeId last = g.add_node(body_rows);
  for (int b = 1; b < bodies; ++b) {
    const graphsolve::NodeId joint = g.add_node(joint_rows, graphsolve::NodeKind::ZeroDiagonal);
    const graphsolve::NodeId body = g.add_node(body_rows);
    g.add_edge(last, joint);
    g.add_edge(joint, body);
    last = body;
  }
  return g;
}

inline Eigen::MatrixXd random_rhs(int rows, int cols, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::MatrixXd b(rows, cols);
  for (Eigen::Index i = 0; i < b.size(); ++i) b.data()[i] = u(rng);
  return b;
}

// ||A x - b|| / ||b|| computed densely, independent of the library's multiply.
inline double dense_residual(const Eigen::MatrixXd& a, const Eigen::MatrixXd& x, const Eigen::MatrixXd& b) {
  return (a * x - b).norm() / b.norm();
}

// The normwise backward error of the worst column, max_c ||A x_c - b_c|| /
// (||A||_F ||x_c|| + ||b_c||), computed densely.
inline double dense_backward_error(const Eigen::MatrixXd& a, const Eigen::MatrixXd& x, const Eigen::MatrixXd& b) {
  double worst = 0.0;
  for (Eigen::Index c = 0; c < x.cols(); ++c)
    worst = std::max(worst, (a * x.col(c) - b.col(c)).norm() / (a.norm() * x.col(c).norm() + b.col(c).norm()));
  return worst;
}

// Sign and log|det| of a dense matrix from its LU with partial pivoting.
inline graphsolve::Determinant dense_determinant(const Eigen::MatrixXd& a) {
  if (a.rows() == 0) return {1, 0.0};
  const Eigen::PartialPivLU<Eigen::MatrixXd> lu(a);
  graphsolve::Determinant det{static_cast<int>(lu.permutationP().determinant()), 0.0};
  for (Eigen::Index i = 0; i < a.rows(); ++i) {
    const double u = lu.matrixLU()(i, i);
    if (u < 0.0) det.sign = -det.sign;
    det.log_abs += std::log(std::abs(u));
  }
  return det;
}

// Eigenvalue signs of a dense symmetric matrix.
inline graphsolve::Inertia dense_inertia(const Eigen::MatrixXd& a) {
  if (a.rows() == 0) return {0, 0};
  const long negative = (symmetric_eigenvalues(a).array() < 0.0).count();
  return {static_cast<long>(a.rows()) - negative, negative};
}

// ||A||_1 ||A^{-1}||_1, the inverse by the LU the other references use.
inline double dense_condition_number(const Eigen::MatrixXd& a) {
  const Eigen::MatrixXd inverse = a.partialPivLu().solve(Eigen::MatrixXd::Identity(a.rows(), a.cols()));
  return a.cwiseAbs().colwise().sum().maxCoeff() * inverse.cwiseAbs().colwise().sum().maxCoeff();
}

// A <- diag(r) A diag(c), block by block (a badly scaled copy of a
// well-scaled system: equations scaled by r, variables by c).
inline void scale_rows_and_columns(graphsolve::BlockMatrix& a, const Eigen::VectorXd& r, const Eigen::VectorXd& c) {
  const graphsolve::Pattern& p = a.pattern();
  const auto part = [&](const Eigen::VectorXd& s, int node) { return s.segment(p.offset[node], p.size[node]).asDiagonal(); };
  for (int v = 0; v < p.num_nodes; ++v) a.diag(v) = part(r, v) * a.diag(v) * part(c, v);
  for (const auto& [i, j] : p.edges) {
    a.block(i, j) = part(r, i) * a.block(i, j) * part(c, j);
    a.block(j, i) = part(r, j) * a.block(j, i) * part(c, i);
  }
}

// A <- S A S with S = diag(s).
inline void scale_symmetrically(graphsolve::BlockMatrix& a, const Eigen::VectorXd& s) { scale_rows_and_columns(a, s, s); }

// A b x b orthogonal matrix fixed by the seed: the Cayley transform
// (I - S)(I + S)^{-1} of a random skew-symmetric S.
inline Eigen::MatrixXd random_orthogonal(int b, unsigned seed) {
  const Eigen::MatrixXd r = random_rhs(b, b, seed);
  const Eigen::MatrixXd skew = r - r.transpose();
  const Eigen::MatrixXd identity = Eigen::MatrixXd::Identity(b, b);
  // (I + S) is nonsingular for skew S; (I - S)(I + S)^{-1} = ((I + S)^{-T} (I - S)^T)^T
  return (identity + skew).transpose().partialPivLu().solve((identity - skew).transpose()).transpose();
}

// The dense matrix without the rows and columns of `removed` nodes (what an
// inactive node leaves of the system); kept_rows gets the remaining rows.
inline Eigen::MatrixXd remove_nodes(const Eigen::MatrixXd& dense, const graphsolve::Pattern& p,
                                    const std::vector<int>& removed, std::vector<int>& kept_rows) {
  std::vector<char> drop(p.dimension, 0);
  for (int v : removed)
    for (int r = 0; r < p.size[v]; ++r) drop[p.offset[v] + r] = 1;
  kept_rows.clear();
  for (int r = 0; r < p.dimension; ++r)
    if (!drop[r]) kept_rows.push_back(r);
  Eigen::MatrixXd reduced(kept_rows.size(), kept_rows.size());
  for (size_t i = 0; i < kept_rows.size(); ++i)
    for (size_t j = 0; j < kept_rows.size(); ++j) reduced(i, j) = dense(kept_rows[i], kept_rows[j]);
  return reduced;
}

// Relative error of x on the nodes left when `removed` are taken out, against
// a dense LU solve of that reduced system (what inactive nodes must give).
inline double reduced_solution_error(const Eigen::MatrixXd& dense, const graphsolve::Pattern& p,
                                     const std::vector<int>& removed, const Eigen::MatrixXd& b,
                                     const Eigen::MatrixXd& x) {
  std::vector<int> kept;
  const Eigen::MatrixXd reduced = remove_nodes(dense, p, removed, kept);
  Eigen::MatrixXd b_reduced(kept.size(), b.cols()), x_reduced(kept.size(), x.cols());
  for (size_t i = 0; i < kept.size(); ++i) b_reduced.row(i) = b.row(kept[i]);
  for (size_t i = 0; i < kept.size(); ++i) x_reduced.row(i) = x.row(kept[i]);
  const Eigen::MatrixXd reference = reduced.partialPivLu().solve(b_reduced);
  return (x_reduced - reference).norm() / reference.norm();
}

}  // namespace gs_test
