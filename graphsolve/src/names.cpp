// String names of the enums, used by the CLI, the stats and error messages.
#include "graphsolve/method.hpp"
#include "graphsolve/ordering.hpp"
#include "graphsolve/status.hpp"

namespace graphsolve {

const char* to_string(Status status) {
  switch (status) {
    case Status::Success: return "success";
    case Status::SingularPivot: return "singular pivot block";
    case Status::NotPositiveDefinite: return "pivot block not positive definite";
    case Status::NonFiniteValue: return "non-finite value (NaN or Inf)";
    case Status::NotFactorized: return "not factorized";
    case Status::DimensionMismatch: return "dimension mismatch";
    case Status::NonFiniteSolution: return "the solution overflowed (NaN or Inf)";
    case Status::InvalidOption: return "invalid factorization option (NaN, Inf or out of range)";
    case Status::UnsupportedMethod: return "not available for this factorization method";
  }
  return "unknown status";
}

const char* to_string(Method method) {
  switch (method) {
    case Method::LDU: return "ldu";
    case Method::LDLT: return "ldlt";
    case Method::LLT: return "llt";
  }
  return "unknown";
}

std::optional<Method> parse_method(const std::string& name) {
  for (Method m : {Method::LDU, Method::LDLT, Method::LLT})
    if (name == to_string(m)) return m;
  return std::nullopt;
}

const char* to_string(Ordering ordering) {
  switch (ordering) {
    case Ordering::Auto: return "auto";
    case Ordering::DFS: return "dfs";
    case Ordering::AMD: return "amd";
    case Ordering::ND: return "nd";
    case Ordering::Given: return "given";
  }
  return "unknown";
}

std::optional<Ordering> parse_ordering(const std::string& name) {
  for (Ordering o : {Ordering::Auto, Ordering::DFS, Ordering::AMD, Ordering::ND})
    if (name == to_string(o)) return o;
  return std::nullopt;
}

}  // namespace graphsolve
