#pragma once
// One interface over graphsolve and its peers, so every solver is timed on the
// same matrix through the same phases.

#include <memory>
#include <string>
#include <vector>

#include "problems.hpp"

namespace bench {

struct FactorStats {
  double factor_nonzeros = 0;  // entries of the factors
  double flops = 0;            // factorization flops as the solver reports or predicts them
  double memory_bytes = 0;     // factor memory (peak where that is what the solver tells)
};

class Solver {
 public:
  virtual ~Solver() = default;
  virtual void analyze() = 0;     // symbolic phase (ordering, pattern)
  virtual void factorize() = 0;   // numeric phase after a fresh analysis
  virtual void refactor() { factorize(); }  // numeric phase reusing the analysis
  virtual void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) = 0;
  virtual FactorStats stats() const { return {}; }
};

struct SolverInfo {
  std::string name;
  bool symmetric;  // runs on the SPD variant
  bool (*applies)(const ProblemKey&);
  std::unique_ptr<Solver> (*make)(const Problem&);
  bool in_tables = true;  // a column of report.py's tables (else measured apart, in the notes)
};

// Every solver of the benchmark, graphsolve first.
const std::vector<SolverInfo>& all_solvers();

}  // namespace bench
