// Eigen's sparse solvers (SimplicialLDLT, SparseLU) and dense PartialPivLU.
#include <stdexcept>

#include <Eigen/Dense>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseLU>

#include "solver_registry.hpp"

namespace bench {

namespace {

template <class Decomposition>
class EigenSparse : public Solver {
 public:
  explicit EigenSparse(const Problem& p) : a_(p.sparse) {}
  void analyze() override { solver_.analyzePattern(a_); }
  void factorize() override {
    solver_.factorize(a_);
    if (solver_.info() != Eigen::Success) throw std::runtime_error("Eigen sparse factorization failed");
  }
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) override { x = solver_.solve(b); }
  FactorStats stats() const override {
    FactorStats s;
    if constexpr (std::is_same_v<Decomposition, Eigen::SimplicialLDLT<SparseMatrix, Eigen::Lower>>)
      s.factor_nonzeros = static_cast<double>(solver_.matrixL().nestedExpression().nonZeros() + a_.rows());
    return s;
  }

 private:
  const SparseMatrix& a_;
  Decomposition solver_;
};

class DenseLu : public Solver {
 public:
  explicit DenseLu(const Problem& p) : dense_(Eigen::MatrixXd(p.sparse)), lu_(dense_.rows()) {}
  void analyze() override {}
  void factorize() override { lu_.compute(dense_); }
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) override { x = lu_.solve(b); }
  FactorStats stats() const override {
    const double n = static_cast<double>(dense_.rows());
    return {n * n, 2.0 / 3.0 * n * n * n, 8 * n * n};
  }

 private:
  Eigen::MatrixXd dense_;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu_;
};

}  // namespace

std::unique_ptr<Solver> make_eigen_simplicial_ldlt(const Problem& p) {
  return std::make_unique<EigenSparse<Eigen::SimplicialLDLT<SparseMatrix, Eigen::Lower>>>(p);
}
std::unique_ptr<Solver> make_eigen_sparse_lu(const Problem& p) {
  return std::make_unique<EigenSparse<Eigen::SparseLU<SparseMatrix, Eigen::COLAMDOrdering<int>>>>(p);
}
std::unique_ptr<Solver> make_dense_lu(const Problem& p) { return std::make_unique<DenseLu>(p); }

}  // namespace bench
