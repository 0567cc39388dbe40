// graphsolve behind the benchmark interface.
#include <stdexcept>

#include "solver_registry.hpp"

namespace bench {

namespace {

class GraphsolveSolver : public Solver {
 public:
  GraphsolveSolver(const Problem& p, graphsolve::Ordering ordering, graphsolve::Method method)
      : p_(p), ordering_(ordering), method_(method) {}

  void analyze() override { analyze_pattern(p_.matrix->pattern_ptr()); }
  void factorize() override { factorize_matrix(*p_.matrix); }
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) override {
    x = b;
    if (factorization_->solve_in_place(x) != graphsolve::Status::Success) throw std::runtime_error("graphsolve: solve failed");
  }
  FactorStats stats() const override {
    const auto& s = symbolic_->stats();
    return {static_cast<double>(method_ == graphsolve::Method::LDU ? s.factor_nonzeros
                                                                   : (s.factor_nonzeros + s.dimension) / 2),
            symbolic_->flops(method_), static_cast<double>(factorization_->memory_bytes())};
  }

 protected:
  void analyze_pattern(const std::shared_ptr<const graphsolve::Pattern>& pattern) {
    symbolic_ = std::make_unique<graphsolve::Symbolic>(graphsolve::analyze_with_pattern(pattern, {ordering_, {}}));
    factorization_ = std::make_unique<graphsolve::Factorization>(*symbolic_, method_);
  }
  void factorize_matrix(const graphsolve::BlockMatrix& matrix) {
    const graphsolve::Status s = factorization_->factorize(matrix);
    if (s != graphsolve::Status::Success)
      throw std::runtime_error(std::string("graphsolve: ") + graphsolve::to_string(s) + " at node " +
                               std::to_string(factorization_->failed_node()));
  }

  const Problem& p_;

 private:
  graphsolve::Ordering ordering_;
  graphsolve::Method method_;
  std::unique_ptr<graphsolve::Symbolic> symbolic_;
  std::unique_ptr<graphsolve::Factorization> factorization_;
};

// graphsolve for a user whose matrix comes as scalar compressed columns, as
// it does to UMFPACK and KLU: the analysis imports the structure
// (from_sparse), and every numeric phase first copies the values into the
// block matrix (assign_from_sparse).
class GraphsolveFromColumns : public GraphsolveSolver {
 public:
  GraphsolveFromColumns(const Problem& p, graphsolve::Ordering ordering, graphsolve::Method method)
      : GraphsolveSolver(p, ordering, method) {}

  void analyze() override {
    imported_ = std::make_unique<graphsolve::BlockMatrix>(graphsolve::from_sparse(p_.sparse, p_.matrix->pattern().size));
    analyze_pattern(imported_->pattern_ptr());
  }
  void factorize() override {
    graphsolve::assign_from_sparse(*imported_, p_.sparse);
    factorize_matrix(*imported_);
  }

 private:
  std::unique_ptr<graphsolve::BlockMatrix> imported_;
};

}  // namespace

std::unique_ptr<Solver> make_graphsolve(const Problem& p, graphsolve::Ordering o, graphsolve::Method m) {
  return std::make_unique<GraphsolveSolver>(p, o, m);
}

std::unique_ptr<Solver> make_graphsolve_from_columns(const Problem& p, graphsolve::Ordering o, graphsolve::Method m) {
  return std::make_unique<GraphsolveFromColumns>(p, o, m);
}

}  // namespace bench
