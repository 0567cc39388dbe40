// graphsolve behind the benchmark interface.
#include <stdexcept>

#include "solver_registry.hpp"

namespace bench {

namespace {

class GraphsolveSolver : public Solver {
 public:
  GraphsolveSolver(const Problem& p, graphsolve::Ordering ordering, graphsolve::Method method)
      : p_(p), ordering_(ordering), method_(method) {}

  void analyze() override {
    symbolic_ = std::make_unique<graphsolve::Symbolic>(
        graphsolve::analyze_with_pattern(p_.matrix->pattern_ptr(), {ordering_, {}}));
    factorization_ = std::make_unique<graphsolve::Factorization>(*symbolic_, method_);
  }
  void factorize() override {
    const graphsolve::Status s = factorization_->factorize(*p_.matrix);
    if (s != graphsolve::Status::Success)
      throw std::runtime_error(std::string("graphsolve: ") + graphsolve::to_string(s) + " at node " +
                               std::to_string(factorization_->failed_node()));
  }
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

 private:
  const Problem& p_;
  graphsolve::Ordering ordering_;
  graphsolve::Method method_;
  std::unique_ptr<graphsolve::Symbolic> symbolic_;
  std::unique_ptr<graphsolve::Factorization> factorization_;
};

}  // namespace

std::unique_ptr<Solver> make_graphsolve(const Problem& p, graphsolve::Ordering o, graphsolve::Method m) {
  return std::make_unique<GraphsolveSolver>(p, o, m);
}

}  // namespace bench
