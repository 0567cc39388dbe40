#include "solver_registry.hpp"

namespace bench {

namespace {
using graphsolve::Method;
using graphsolve::Ordering;

bool always(const ProblemKey&) { return true; }
bool not_saddle(const ProblemKey& k) { return k.variant != Variant::Saddle; }
// Dense LU only while the dense matrix is at most 3000 x 3000.
bool small_enough_for_dense(const ProblemKey& k) {
  const int rows_per_node = k.variant == Variant::Saddle ? 11 : k.block;
  return static_cast<long>(k.nodes()) * rows_per_node <= 3000;
}
}  // namespace

const std::vector<SolverInfo>& all_solvers() {
  static const std::vector<SolverInfo> solvers = {
      {"graphsolve-ldu-auto", false, always, [](const Problem& p) { return make_graphsolve(p, Ordering::Auto, Method::LDU); }},
      {"graphsolve-ldu-dfs", false, always, [](const Problem& p) { return make_graphsolve(p, Ordering::DFS, Method::LDU); }},
      {"graphsolve-ldu-amd", false, always, [](const Problem& p) { return make_graphsolve(p, Ordering::AMD, Method::LDU); }},
      {"graphsolve-ldu-nd", false, always, [](const Problem& p) { return make_graphsolve(p, Ordering::ND, Method::LDU); }},
      {"graphsolve-ldu-csc", false, always,
       [](const Problem& p) { return make_graphsolve_from_columns(p, Ordering::Auto, Method::LDU); }, false},
      {"umfpack", false, always, make_umfpack},
      {"klu", false, always, make_klu},
      {"eigen-sparselu", false, always, make_eigen_sparse_lu},
      {"dense-lu", false, small_enough_for_dense, make_dense_lu},
      {"graphsolve-llt", true, not_saddle, [](const Problem& p) { return make_graphsolve(p, Ordering::Auto, Method::LLT); }},
      {"graphsolve-ldlt", true, not_saddle, [](const Problem& p) { return make_graphsolve(p, Ordering::Auto, Method::LDLT); }},
      {"cholmod-supernodal", true, not_saddle, [](const Problem& p) { return make_cholmod(p, true); }},
      {"cholmod-simplicial", true, not_saddle, [](const Problem& p) { return make_cholmod(p, false); }},
      {"eigen-simplicialldlt", true, not_saddle, make_eigen_simplicial_ldlt},
  };
  return solvers;
}

}  // namespace bench
