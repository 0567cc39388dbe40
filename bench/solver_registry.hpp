#pragma once
// Factories of the individual solvers, collected by all_solvers().
#include "solvers.hpp"

namespace bench {

std::unique_ptr<Solver> make_graphsolve(const Problem& p, graphsolve::Ordering o, graphsolve::Method m);
// The same, fed the scalar CSC matrix (from_sparse, then assign_from_sparse per factorization).
std::unique_ptr<Solver> make_graphsolve_from_columns(const Problem& p, graphsolve::Ordering o, graphsolve::Method m);
std::unique_ptr<Solver> make_umfpack(const Problem& p);
std::unique_ptr<Solver> make_klu(const Problem& p);
std::unique_ptr<Solver> make_cholmod(const Problem& p, bool supernodal);
std::unique_ptr<Solver> make_eigen_simplicial_ldlt(const Problem& p);
std::unique_ptr<Solver> make_eigen_sparse_lu(const Problem& p);
std::unique_ptr<Solver> make_dense_lu(const Problem& p);

}  // namespace bench
