// A system that already lives in an Eigen sparse matrix (or in another
// library's CSC arrays, through Eigen::Map): grouped into 2x2 blocks, analysed
// once, then refactorized for new values the way a Newton loop does.
#include <iostream>

#include <Eigen/SparseCore>
#include <graphsolve/graphsolve.hpp>

namespace gs = graphsolve;

// A 1D elastic rod of n nodes with 2 unknowns each: a block tridiagonal,
// symmetric positive definite matrix whose stiffness grows with `load`.
gs::SparseColumns rod_stiffness(int n, double load) {
  std::vector<Eigen::Triplet<double, int>> entries;
  for (int i = 0; i < 2 * n; ++i) {
    entries.emplace_back(i, i, 4.0 + load);
    if (i + 2 < 2 * n) {
      entries.emplace_back(i + 2, i, -1.0);
      entries.emplace_back(i, i + 2, -1.0);
    }
    if (i % 2 == 0) {  // the two unknowns of a node are coupled
      entries.emplace_back(i + 1, i, 0.5);
      entries.emplace_back(i, i + 1, 0.5);
    }
  }
  gs::SparseColumns a(2 * n, 2 * n);
  a.setFromTriplets(entries.begin(), entries.end());
  return a;
}

int main() {
  const int n = 100;
  gs::BlockMatrix a = gs::from_sparse(rod_stiffness(n, 0.0), std::vector<int>(n, 2));  // a chain of 2x2 nodes
  const gs::Symbolic symbolic = gs::analyze_with_pattern(a.pattern_ptr());               // once
  gs::Factorization llt(symbolic, gs::Method::LLT);
  const Eigen::VectorXd b = Eigen::VectorXd::Ones(a.rows());
  Eigen::VectorXd x(a.rows());
  for (double load : {0.0, 1.0, 2.0}) {
    gs::assign_from_sparse(a, rod_stiffness(n, load));  // same structure, new values
    gs::Status status = llt.factorize(a);
    if (status == gs::Status::Success) status = llt.solve(b, x);
    if (status != gs::Status::Success) {
      std::cerr << "failed: " << gs::to_string(status) << "\n";
      return 1;
    }
    std::cout << "load " << load << ": fill " << symbolic.stats().fill_blocks << ", residual "
              << gs::relative_residual(a, x, b) << "\n";
  }
  return gs::relative_residual(a, x, b) < 1e-14 ? 0 : 1;
}
